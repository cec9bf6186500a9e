//! Rule sets whose attacks are not all lines: transfers (Air Attack) and riders. Attacks include
//! transfer captures (docs/rule-files.md, "Attack"); a move is legal when the king is not attacked
//! after it, tested for every king move, every move when in check, and the moves of pieces whose
//! removal alone would expose the king. Attack is monotone (more occupancy or fewer attacking
//! pieces never create an attack), so any other move is legal.

use crate::movegen::{ride, roles_in, Sink};
use crate::tables::TransferTables;
use crate::Board;
use stackchess_core::{Color, MoveKind, Role};
use stackchess_geometry::{bishop_plane, rook_plane, Bitboard, Cell, Dir};

/// What the legality tests of one generation share.
pub(crate) struct General<const L: usize> {
    king: Cell,
    them: Color,
    occ: Bitboard<L>,
    theirs: Bitboard<L>,
    exposed: Bitboard<L>,
}

/// The levels next to `l` on a board of `L` levels (a transfer goes one level up or down).
#[inline]
fn adjacent<const L: usize>(l: usize) -> impl Iterator<Item = usize> {
    [l.wrapping_sub(1), l + 1].into_iter().filter(|&o| o < L)
}

/// The plane cells a planar rider on square `sq` reaches along `d`, through empty cells of `occ`.
fn ride_plane(sq: usize, d: Dir, range: u8, occ: u64) -> u64 {
    let mut out = 0u64;
    #[allow(clippy::cast_possible_wrap, clippy::cast_possible_truncation)]
    let (mut f, mut r) = ((sq % 8) as i32, (sq / 8) as i32);
    for _ in 0..range {
        f += i32::from(d.df);
        r += i32::from(d.dr);
        if !(0..8).contains(&f) || !(0..8).contains(&r) {
            break;
        }
        #[allow(clippy::cast_sign_loss)]
        let bit = 1u64 << (r * 8 + f) as u32;
        out |= bit;
        if occ & bit != 0 {
            break;
        }
    }
    out
}

impl TransferTables {
    /// The plane cells a piece of `role` on square `sq` reaches after its transfer, given the
    /// occupancy of its new level (for a pawn: nothing; pawns are handled by the caller).
    #[inline]
    fn after(&self, role: Role, sq: usize, occ: u64) -> u64 {
        let i = role.index();
        let mut w = self.leaps[i][sq];
        let (orth, diag) = self.lines[i];
        if orth > 0 {
            w |= rook_plane(sq, occ) & self.reach[orth as usize][sq];
        }
        if diag > 0 {
            w |= bishop_plane(sq, occ) & self.reach[diag as usize][sq];
        }
        for &(d, range) in &self.riders[i] {
            w |= ride_plane(sq, d, range, occ);
        }
        w
    }
}

impl<const L: usize> Board<L> {
    /// Whether the pieces `theirs` (pieces of `by`) attack `c` by a normal move or a transfer,
    /// given the occupancy `occ`.
    pub(crate) fn attacked_general(&self, c: Cell, by: Color, theirs: Bitboard<L>, occ: Bitboard<L>) -> bool {
        let t = self.t;
        let role = |r: Role| self.placed.by_role[r.index()] & theirs;
        if t.pawn_captures[by.other().index()][c.index()].intersects(role(Role::Pawn)) {
            return true;
        }
        for r in roles_in(t.leap_roles) {
            if t.leaps[r.index()][c.index()].intersects(role(r)) {
                return true;
            }
        }
        for class in &t.slide_classes {
            let mut s = Bitboard::EMPTY;
            for r in roles_in(class.roles) {
                s |= role(r);
            }
            s &= class.empty[c.index()];
            if !s.is_empty() && t.rays.slides(c, class.groups, occ).intersects(s) {
                return true;
            }
        }
        for r in Role::ALL {
            for &(d, range) in &t.riders[r.index()] {
                let back = Dir::new(-d.df, -d.dr, -d.dl);
                if ride(c, back, range, occ).intersects(role(r)) {
                    return true;
                }
            }
        }
        match &t.transfer {
            Some(tr) => self.transfer_attacks(c, by, theirs, occ, tr),
            None => false,
        }
    }

    /// Whether a transfer of a piece in `theirs` could capture on `c`.
    fn transfer_attacks(&self, c: Cell, by: Color, theirs: Bitboard<L>, occ: Bitboard<L>, tr: &TransferTables) -> bool {
        let (l, sq) = (c.level(), c.plane());
        let occ_l = occ.0[l];
        // Cells a transfer may pass: empty, or (when a capture there does not end the move) the
        // defender's.
        let passable = if tr.capture_ends_move { !occ_l } else { !(theirs.0[l] & occ_l) };
        let pawn_from = self.t.pawn_captures[by.other().index()][c.index()].0[l];
        for o in adjacent::<L>(l) {
            let theirs_o = theirs.0[o];
            if theirs_o == 0 {
                continue;
            }
            let knights_o = self.placed.by_role[Role::Knight.index()].0[o] & theirs_o;
            // Any piece but a knight captures on its transfer cell: the cell above or below.
            if (theirs_o & !knights_o) >> sq & 1 != 0 {
                return true;
            }
            for role in [Role::Knight, Role::Bishop, Role::Rook, Role::Queen, Role::King] {
                let pieces = self.placed.by_role[role.index()].0[o] & theirs_o;
                if pieces == 0 {
                    continue;
                }
                let ok = match role {
                    Role::Knight if tr.knight_over_occupied => !0,
                    Role::Knight => !occ_l,
                    _ => passable,
                };
                // Movement is symmetric: the transfer cells from which the piece reaches `c` are
                // the cells it reaches from `c`.
                if tr.after(role, sq, occ_l) & ok & pieces != 0 {
                    return true;
                }
            }
            // A pawn in home position may capture from its transfer cell.
            let home = self.placed.by_role[Role::Pawn.index()].0[o] & theirs_o & self.t.home_rank[by.index()].0[o];
            if pawn_from & passable & home != 0 {
                return true;
            }
        }
        false
    }

    /// Our pieces whose removal alone would expose our king (not the king itself).
    fn risky(&self, king: Cell, them: Color, occ: Bitboard<L>, ours: Bitboard<L>, theirs: Bitboard<L>) -> Bitboard<L> {
        let t = self.t;
        let mut cand = ours.without(Bitboard::from_cell(king));
        if let (Some(tr), false) = (&t.transfer, t.riders.iter().any(|r| !r.is_empty())) {
            // Every attack path to the king runs on its level along its lines (or is a knight's
            // leap from a transfer cell that must be empty): only the first piece on each matters.
            let (l, sq) = (king.level(), king.plane());
            let mut w = rook_plane(sq, occ.0[l]) | bishop_plane(sq, occ.0[l]);
            if !tr.knight_over_occupied {
                w |= tr.leaps[Role::Knight.index()][sq];
            }
            cand &= Bitboard::on_level(l, w);
        }
        if cand.is_empty() || !self.attacked_general(king, them, theirs, occ.without(cand)) {
            return Bitboard::EMPTY;
        }
        let mut out = Bitboard::EMPTY;
        cand.for_each(|b| {
            if self.attacked_general(king, them, theirs, occ.without(Bitboard::from_cell(b))) {
                out.insert(b);
            }
        });
        out
    }

    /// The targets of a non-king piece on `from` after which our king on `king` is not attacked;
    /// `via` is a transfer cell whose enemy piece the moves also capture.
    #[allow(clippy::too_many_arguments)]
    fn keep_safe(
        &self,
        from: Cell,
        targets: Bitboard<L>,
        king: Cell,
        them: Color,
        occ: Bitboard<L>,
        theirs: Bitboard<L>,
        via: Option<Cell>,
    ) -> Bitboard<L> {
        let via = via.map_or(Bitboard::EMPTY, Bitboard::from_cell);
        let lifted = occ.without(Bitboard::from_cell(from)).without(via);
        let theirs = theirs.without(via);
        let mut r = targets;
        targets.for_each(|to| {
            let to_b = Bitboard::from_cell(to);
            let k = if from == king { to } else { king };
            if self.attacked_general(k, them, theirs.without(to_b), lifted | to_b) {
                r.remove(to);
            }
        });
        r
    }

    /// Generates the legal moves into `sink`, testing the king's safety where needed.
    pub(crate) fn generate_general<S: Sink<L>>(&self, sink: &mut S) {
        let us = self.turn;
        let them = us.other();
        let occ = self.occupied();
        let ours = self.placed.by_color[us.index()];
        let theirs = self.placed.by_color[them.index()];
        let king = self.king(us);
        let in_check = self.attacked_general(king, them, theirs, occ);
        let exposed = self.exposed(theirs);
        let g = General { king, them, occ, theirs, exposed };

        let kt = self.piece_attacks(Role::King, king, occ).without(ours);
        sink.set(king, self.keep_safe(king, kt, king, them, occ, theirs, None), MoveKind::Normal);
        self.transfers(Role::King, king, true, &g, sink);
        if !in_check {
            self.castles(king, sink);
        }
        let risky = if in_check { ours } else { self.risky(king, them, occ, ours, theirs) };
        for role in [Role::Knight, Role::Bishop, Role::Rook, Role::Queen] {
            self.pieces(us, role).for_each(|from| {
                let tg = self.piece_attacks(role, from, occ).without(ours);
                sink.set(from, self.safe(from, tg, risky.has(from), &g), MoveKind::Normal);
                self.transfers(role, from, risky.has(from), &g, sink);
            });
        }
        let t = self.t;
        self.pawn_moves(sink, |from| {
            let mut cand = t.pawn_steps[us.index()][from.index()] | t.pawn_captures[us.index()][from.index()];
            for &(_, to) in &t.pawn_doubles[us.index()][from.index()] {
                cand.insert(to);
            }
            let kept = self.safe(from, cand, risky.has(from), &g);
            kept | !cand
        });
        if t.transfer.is_some() {
            self.pieces(us, Role::Pawn).for_each(|from| self.transfers(Role::Pawn, from, risky.has(from), &g, sink));
        }
    }

    /// Cells where capturing can open an attack: with `capture-ends-move` off, a defender's piece on
    /// a transfer cell lets the attacker pass, so capturing the attacker's own piece there (which
    /// blocked it) may expose the king.
    fn exposed(&self, theirs: Bitboard<L>) -> Bitboard<L> {
        let mut out = Bitboard::EMPTY;
        let Some(tr) = &self.t.transfer else { return out };
        if tr.capture_ends_move {
            return out;
        }
        let knights = self.placed.by_role[Role::Knight.index()];
        for l in 0..L {
            for o in adjacent::<L>(l) {
                out.0[l] |= theirs.0[o] & !knights.0[o];
            }
        }
        // Only captures of the attacker's pieces there change anything.
        out & theirs
    }

    /// `tg` kept where our king is safe: all tested for a risky piece, else those on exposed cells.
    fn safe(&self, from: Cell, tg: Bitboard<L>, risky: bool, g: &General<L>) -> Bitboard<L> {
        if risky {
            return self.keep_safe(from, tg, g.king, g.them, g.occ, g.theirs, None);
        }
        let test = tg & g.exposed;
        if test.is_empty() {
            tg
        } else {
            tg.without(test) | self.keep_safe(from, test, g.king, g.them, g.occ, g.theirs, None)
        }
    }

    /// The transfers of the piece of `role` on `from` (docs/rule-files.md, `[transfer]`); with
    /// `test`, each is kept only if our king on `king` is safe after it.
    fn transfers<S: Sink<L>>(&self, role: Role, from: Cell, test: bool, g: &General<L>, sink: &mut S) {
        let t = self.t;
        let Some(tr) = &t.transfer else { return };
        let us = self.turn;
        let them = us.other();
        let occ = self.occupied();
        let ours = self.placed.by_color[us.index()];
        let theirs = self.placed.by_color[them.index()];
        let sq = from.plane();
        for o in adjacent::<L>(from.level()) {
            let cell_t = Cell::from_index(o * 64 + sq);
            let occ_o = occ.0[o];
            // Plain transfers (no second capture), and those that capture on T and go on.
            let mut double = 0u64;
            let plain = if role == Role::Knight {
                if !tr.knight_over_occupied && occ.has(cell_t) {
                    continue;
                }
                tr.after(role, sq, occ_o) & !ours.0[o]
            } else {
                if ours.has(cell_t) {
                    continue;
                }
                let enemy_on_t = theirs.has(cell_t);
                let mut plain = 1 << sq;
                if !enemy_on_t || !tr.capture_ends_move {
                    let occ_t = occ_o & !(1 << sq);
                    let beyond = match role {
                        Role::Pawn if t.home_rank[us.index()].has(from) => {
                            let steps = t.pawn_steps[us.index()][cell_t.index()].0[o] & !occ_t;
                            let caps = t.pawn_captures[us.index()][cell_t.index()].0[o] & theirs.0[o];
                            steps | caps
                        }
                        Role::Pawn => 0,
                        _ => tr.after(role, sq, occ_t) & !ours.0[o],
                    };
                    if enemy_on_t {
                        double = beyond;
                    } else {
                        plain |= beyond;
                    }
                }
                plain
            };
            for (w, via) in [(plain, None), (double, Some(cell_t))] {
                let mut tg = Bitboard::on_level(o, w);
                if tg.is_empty() {
                    continue;
                }
                tg = if via.is_some() {
                    self.keep_safe(from, tg, g.king, them, occ, theirs, via)
                } else {
                    self.safe(from, tg, test, g)
                };
                if role == Role::Pawn && tg.intersects(t.promo[us.index()]) {
                    let promo = tg & t.promo[us.index()];
                    sink.set(from, tg.without(promo), MoveKind::Transfer);
                    let (r, n) = self.promotion_choices(us);
                    sink.promos(from, promo, &r[..n], MoveKind::Transfer);
                } else {
                    sink.set(from, tg, MoveKind::Transfer);
                }
            }
        }
    }
}
