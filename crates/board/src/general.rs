//! Rule sets whose attacks are not all lines: transfers (Air Attack) and riders. Attacks include
//! transfer captures (docs/rule-files.md, "Attack"); a move is legal when the king is not attacked
//! after it, tested for every king move, every move when in check, and the moves of pieces whose
//! removal alone would expose the king. Attack is monotone (more occupancy or fewer attacking
//! pieces never create an attack), so any other move is legal.

use crate::sink::Sink;
use crate::tables::TransferTables;
use crate::Board;
use stackchess_core::{Color, MoveKind, Role, RoleSet};
use stackchess_geometry::{ride_plane, Bitboard, Cell, GroupSet};

/// The number of the king's targets on one level from which they are tested against one map of
/// the level's attacked cells rather than one by one (measured: 2 is faster than 1, 3, 4 or 6 in
/// Air Attack's perft).
const LEVEL_MAP_MIN: u32 = 2;

/// What the legality tests of one generation share.
pub(crate) struct General<const L: usize> {
    king: Cell,
    them: Color,
    occ: Bitboard<L>,
    theirs: Bitboard<L>,
    exposed: Bitboard<L>,
    /// Targets that can end a check (every cell when not in check, or when no such set is known).
    evade: Bitboard<L>,
    /// The targets the sink takes ([`Sink::wanted`]); every target passed to [`Board::safe`] is
    /// within it.
    want: Bitboard<L>,
}

/// Calls `f` on the levels next to `l` on a board of `L` levels (a transfer goes one level up or
/// down), lower first.
#[inline]
fn for_adjacent<const L: usize>(l: usize, mut f: impl FnMut(usize)) {
    if l > 0 {
        f(l - 1);
    }
    if l + 1 < L {
        f(l + 1);
    }
}

impl TransferTables {
    /// The plane cells a piece of `role` on square `sq` reaches after its transfer, given the
    /// rook and bishop lookups from `sq` in the occupancy `occ` of its new level (for a pawn:
    /// nothing; pawns are handled by the caller).
    #[inline]
    fn after(&self, role: Role, sq: usize, rook: u64, bishop: u64, occ: u64) -> u64 {
        let sq = sq & 63;
        let mut w = self.leaps[role][sq] | rook & self.orth_reach[role][sq] | bishop & self.diag_reach[role][sq];
        if self.has_riders {
            for &(d, range) in &self.riders[role] {
                w |= ride_plane(sq, d, range, occ);
            }
        }
        w
    }
}

impl<const L: usize> Board<L> {
    /// [`TransferTables::after`] from square `sq` of a level with occupancy `occ`, making only the
    /// rook and bishop lookups the role's movement after a transfer uses.
    #[inline]
    fn after_transfer(&self, tr: &TransferTables, role: Role, sq: usize, occ: u64) -> u64 {
        let rays = &self.t.rays;
        let rook = if tr.orth_reach[role][sq] == 0 { 0 } else { rays.rook_plane(sq, occ) };
        let bishop = if tr.diag_reach[role][sq] == 0 { 0 } else { rays.bishop_plane(sq, occ) };
        tr.after(role, sq, rook, bishop, occ)
    }

    /// Whether the pieces `theirs` (pieces of `by`) attack `c` by a normal move or a transfer,
    /// given the occupancy `occ`.
    pub(crate) fn attacked_general(&self, c: Cell, by: Color, theirs: Bitboard<L>, occ: Bitboard<L>) -> bool {
        let t = self.t;
        let Some(tr) = &t.transfer else { return self.attacked_normally(c, by, theirs, occ) };
        let (l, sq) = (c.level(), c.plane());
        let occ_l = occ.0[l];
        // One rook and one bishop lookup serve the normal slides and every transfer.
        let (rook, bishop) = (t.rays.rook_plane(sq, occ_l), t.rays.bishop_plane(sq, occ_l));
        let p = &self.placed.by_role;
        if t.pieces.planar {
            // Every normal attack stays within the level: one word per role class.
            let th = theirs.0[l];
            let word = |roles: RoleSet| roles.into_iter().fold(0, |w, r| w | p[r].0[l]);
            let mut hit = t.pawns.attackers[by][c].0[l] & p[Role::Pawn].0[l];
            for r in t.pieces.leap_roles {
                hit |= t.pieces.leaps[r][c].0[l] & p[r].0[l];
            }
            hit |= rook & word(t.pieces.ortho_roles) | bishop & word(t.pieces.diag_roles);
            if hit & th != 0 {
                return true;
            }
        } else if self.attacked_normally(c, by, theirs, occ) {
            return true;
        }
        // Cells a transfer may pass: empty, or (when a capture there does not end the move) the
        // defender's.
        let passable = if tr.capture_ends_move { !occ_l } else { !(theirs.0[l] & occ_l) };
        let knight_ok = if tr.knight_over_occupied { !0 } else { !occ_l };
        let pawn_from = t.pawns.attackers[by][c].0[l];
        // Movement is symmetric: the transfer cells from which a piece reaches `c` are the cells
        // it reaches from `c`.
        let mut found = false;
        for_adjacent::<L>(l, |o| {
            let theirs_o = theirs.0[o];
            if found || theirs_o == 0 {
                return;
            }
            let knights_o = p[Role::Knight].0[o] & theirs_o;
            let home_o = p[Role::Pawn].0[o] & theirs_o & t.pawns.home_rank[by].0[o];
            // Any piece but a knight captures on its transfer cell: the cell above or below.
            if (theirs_o & !knights_o) >> sq & 1 != 0 || pawn_from & passable & home_o != 0 {
                found = true;
                return;
            }
            if knights_o != 0 && tr.after(Role::Knight, sq, rook, bishop, occ_l) & knight_ok & knights_o != 0 {
                found = true;
                return;
            }
            // The other pieces, summed over roles before one test.
            let mut hit = 0;
            for r in [Role::Bishop, Role::Rook, Role::Queen, Role::King] {
                let pieces = p[r].0[o] & theirs_o;
                if pieces != 0 {
                    hit |= tr.after(r, sq, rook, bishop, occ_l) & pieces;
                }
            }
            found = hit & passable != 0;
        });
        found
    }

    /// The cells of level `m` that the pieces `theirs` (pieces of `by`) attack by a normal move or
    /// a transfer, given the occupancy `occ`: on each, what [`Board::attacked_general`] says
    /// (for planar rules with transfers and without riders), found piece by piece with movement
    /// read forwards. Only the cells of `near` are asked about: pieces that reach none of them
    /// on an empty board are skipped.
    fn attacked_on_level(&self, m: usize, by: Color, theirs: Bitboard<L>, occ: Bitboard<L>, near: u64) -> u64 {
        fn each(mut w: u64, mut f: impl FnMut(u32)) {
            while w != 0 {
                f(w.trailing_zeros());
                w &= w - 1;
            }
        }
        let t = self.t;
        let Some(tr) = &t.transfer else { return 0 };
        let p = &self.placed.by_role;
        let occ_m = occ.0[m];
        let on = |sq: u32| Cell::from_index(m * 64 + sq as usize);
        let mut a = 0u64;
        // Normal moves of the pieces on the level.
        let th = theirs.0[m];
        each(p[Role::Pawn].0[m] & th, |sq| a |= t.pawns.captures[by][on(sq)].0[m]);
        for r in [Role::Knight, Role::Bishop, Role::Rook, Role::Queen, Role::King] {
            each(p[r].0[m] & th, |sq| {
                // Its reach on an empty level (what `piece_attacks` gives there), from tables.
                let c = on(sq);
                let mut reach = t.pieces.leaps[r][c].0[m];
                if t.pieces.ortho_roles.has(r) {
                    reach |= t.rays.empty_slides(c, GroupSet::ROOK_PLANE).0[m];
                }
                if t.pieces.diag_roles.has(r) {
                    reach |= t.rays.empty_slides(c, GroupSet::BISHOP_PLANE).0[m];
                }
                if reach & near != 0 {
                    a |= self.piece_attacks::<true>(r, c, occ).0[m];
                }
            });
        }
        // Transfers from the levels next to it: a capture on the transfer cell (any piece but a
        // knight), or a move on from it.
        let passable = if tr.capture_ends_move { !occ_m } else { !(th & occ_m) };
        let knight_ok = if tr.knight_over_occupied { !0 } else { !occ_m };
        let after = |r: Role, sq: u32| self.after_transfer(tr, r, sq as usize, occ_m);
        for_adjacent::<L>(m, |o| {
            let theirs_o = theirs.0[o];
            if theirs_o == 0 {
                return;
            }
            let knights_o = p[Role::Knight].0[o] & theirs_o;
            a |= theirs_o & !knights_o;
            let home_o = p[Role::Pawn].0[o] & theirs_o & t.pawns.home_rank[by].0[o];
            each(home_o & passable, |sq| a |= t.pawns.captures[by][on(sq)].0[m]);
            each(knights_o & knight_ok, |sq| {
                if tr.reach[Role::Knight][sq as usize] & near != 0 {
                    a |= after(Role::Knight, sq);
                }
            });
            for r in [Role::Bishop, Role::Rook, Role::Queen, Role::King] {
                each(p[r].0[o] & theirs_o & passable, |sq| {
                    if tr.reach[r][sq as usize] & near != 0 {
                        a |= after(r, sq);
                    }
                });
            }
        });
        a
    }

    /// Our pieces whose removal alone would expose our king (not the king itself).
    fn risky(&self, king: Cell, them: Color, occ: Bitboard<L>, ours: Bitboard<L>, theirs: Bitboard<L>) -> Bitboard<L> {
        let t = self.t;
        let mut cand = ours.without(Bitboard::from_cell(king));
        if let (Some(tr), false) = (&t.transfer, t.pieces.has_riders) {
            // Every attack path to the king runs on its level: along its lines (only the first
            // piece on each matters), or one step or pawn capture from a transfer cell, which our
            // piece there blocks (a knight's only when it may not pass over it).
            let (l, sq) = (king.level(), king.plane());
            let mut w = t.rays.rook_plane(sq, occ.0[l]) | t.rays.bishop_plane(sq, occ.0[l]);
            for r in Role::ALL {
                if r != Role::Knight || !tr.knight_over_occupied {
                    w |= tr.leaps[r][sq];
                }
            }
            w |= t.pawns.attackers[them][king].0[l];
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
        let mut one_by_one = targets;
        if from == king
            && via.is_empty()
            && self.t.pieces.planar
            && self.t.transfer.as_ref().is_some_and(|tr| !tr.has_riders)
        {
            // The king's targets on one level, when more than one, against one map of that level's
            // attacked cells: a target's own occupancy and the piece taken there change no
            // attack on it.
            for m in 0..L {
                if targets.0[m].count_ones() >= LEVEL_MAP_MIN {
                    r.0[m] &= !self.attacked_on_level(m, them, theirs, lifted, targets.0[m]);
                    one_by_one.0[m] = 0;
                }
            }
        }
        one_by_one.for_each(|to| {
            let to_b = Bitboard::from_cell(to);
            let k = if from == king { to } else { king };
            if self.attacked_general(k, them, theirs.without(to_b), lifted | to_b) {
                r.remove(to);
            }
        });
        r
    }

    /// Generates the legal moves into `sink`, testing the king's safety where needed; `PLANAR` as
    /// for [`Board::piece_attacks`].
    pub(crate) fn generate_general<S: Sink<L>, const PLANAR: bool>(&self, sink: &mut S) {
        let us = self.turn;
        let them = us.other();
        let occ = self.occupied();
        let ours = self.placed.by_color[us];
        let theirs = self.placed.by_color[them];
        let king = self.king(us);
        let in_check = self.attacked_general(king, them, theirs, occ);
        let exposed = self.exposed(theirs);
        let evade = if in_check { self.evasions(king, occ) } else { Bitboard::FULL };
        let want = sink.wanted();
        let g = General { king, them, occ, theirs, exposed, evade, want };

        let kt = self.piece_attacks::<PLANAR>(Role::King, king, occ).without(ours) & want;
        let kt = self.keep_safe(king, kt, king, them, occ, theirs, None);
        self.emit_with_transfers(sink, Role::King, king, kt, true, &g);
        if !in_check {
            self.castles(king, sink, |c| self.is_attacked(c, them, occ), |c, o| self.is_attacked(c, them, o));
        }
        let risky = if in_check { ours } else { self.risky(king, them, occ, ours, theirs) };
        for role in [Role::Knight, Role::Bishop, Role::Rook, Role::Queen] {
            self.pieces(us, role).for_each(|from| {
                let tg = self.piece_attacks::<PLANAR>(role, from, occ).without(ours) & want;
                let tg = self.safe(from, tg, risky.has(from), &g);
                self.emit_with_transfers(sink, role, from, tg, risky.has(from), &g);
            });
        }
        let t = self.t;
        let mut pawns = self.pieces(us, Role::Pawn);
        if S::BULK && t.pawns.bulk && !in_check && exposed.is_empty() {
            // Pawns whose moves need no test, counted set-wise; the rest one by one below.
            let free = pawns.without(risky);
            pawns &= risky;
            sink.add(self.count_pawn_moves(free, Bitboard::FULL));
            self.en_passant_by(sink, free);
            if let Some(tr_ends_move) = t.transfer.as_ref().map(|tr| tr.capture_ends_move) {
                // A pawn transfers to the cell above or below it unless its own piece stands
                // there; one on its home rank may go on from an empty transfer cell with a pawn
                // step or capture on that level. When a capture there need not end the move, those
                // on the home rank are looked at alone (their double captures are tested).
                let home = free & t.pawns.home_rank[us];
                let (alone, set_wise) = if tr_ends_move { (Bitboard::EMPTY, home) } else { (home, Bitboard::EMPTY) };
                // A transfer into the promotion zone is one move per promotion kind.
                let promo = t.pawns.promo[us];
                let mut tally = |tg: Bitboard<L>| {
                    let promos = (tg & promo).count() as usize;
                    let kinds = if promos > 0 { self.promotion_choices(us).1 } else { 0 };
                    sink.add(tg.without(promo).count() as usize + promos * kinds);
                };
                for v in &t.pawns.vertical_shifts {
                    tally(v.apply(free.without(alone)).without(ours));
                    let on = v.apply(set_wise) & !occ;
                    if !on.is_empty() {
                        for s in t.pawns.step_shifts[us].iter().filter(|s| s.planar()) {
                            tally(s.apply(on) & !occ);
                        }
                        for s in t.pawns.capture_shifts[us].iter().filter(|s| s.planar()) {
                            tally(s.apply(on) & theirs);
                        }
                    }
                }
                alone.for_each(|from| tally(self.transfers(Role::Pawn, from, false, &g)));
            }
        }
        self.pawn_moves(
            sink,
            pawns,
            |from| {
                let mut cand = t.pawns.steps[us][from] | t.pawns.captures[us][from];
                for &(_, to) in &t.pawns.doubles[us][from.index()] {
                    cand.insert(to);
                }
                let cand = cand & want;
                let kept = self.safe(from, cand, risky.has(from), &g);
                kept | !cand
            },
            |from| self.transfers(Role::Pawn, from, risky.has(from), &g),
        );
    }

    /// A piece's legal `normal` targets and its legal transfers (tested with `test`) into `sink`.
    /// (One function, so that the transfers' targets are used where they are computed: read back
    /// from a returned value they cost a stalled load in every call.)
    fn emit_with_transfers<S: Sink<L>>(
        &self,
        sink: &mut S,
        role: Role,
        from: Cell,
        normal: Bitboard<L>,
        test: bool,
        g: &General<L>,
    ) {
        self.emit(sink, from, normal | self.transfers(role, from, test, g));
    }

    /// A piece's legal targets into `sink`: with transfers, normal moves and transfers in one
    /// pass in cell order; without (riders only), normal moves.
    fn emit<S: Sink<L>>(&self, sink: &mut S, from: Cell, tg: Bitboard<L>) {
        if self.t.transfer.is_some() {
            sink.set_by_level(from, tg);
        } else {
            sink.set(from, tg, MoveKind::Normal);
        }
    }

    /// The cells where a move of a piece other than the king can end a check to `king`: on the
    /// king's level, the cells its lines (to the first piece) and steps reach; on the levels next
    /// to it, the same squares and the king's own (a checker's transfer starts there). Every attack
    /// path then runs through them, when the rules are planar, a capture on a transfer cell ends
    /// the move and nothing rides after a transfer; otherwise every cell.
    fn evasions(&self, king: Cell, occ: Bitboard<L>) -> Bitboard<L> {
        let t = self.t;
        let Some(tr) = &t.transfer else { return Bitboard::FULL };
        if !t.pieces.planar || !tr.capture_ends_move || tr.has_riders {
            return Bitboard::FULL;
        }
        let (l, sq) = (king.level(), king.plane());
        let occ_l = occ.0[l];
        let mut w = t.rays.rook_plane(sq, occ_l)
            | t.rays.bishop_plane(sq, occ_l)
            | t.pawns.attackers[self.turn.other()][king].0[l];
        for r in t.pieces.leap_roles {
            w |= t.pieces.leaps[r][king].0[l];
        }
        for leaps in &tr.leaps {
            w |= leaps[sq];
        }
        let mut out = Bitboard::on_level(l, w);
        for_adjacent::<L>(l, |o| out |= Bitboard::on_level(o, w | 1 << sq));
        out
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
        let knights = self.placed.by_role[Role::Knight];
        for l in 0..L {
            for_adjacent::<L>(l, |o| out.0[l] |= theirs.0[o] & !knights.0[o]);
        }
        // Only captures of the attacker's pieces there change anything.
        out & theirs
    }

    /// `tg` kept where our king is safe: all tested for a risky piece, else those on exposed cells.
    fn safe(&self, from: Cell, tg: Bitboard<L>, risky: bool, g: &General<L>) -> Bitboard<L> {
        if risky {
            let tg = if from == g.king { tg } else { tg & g.evade };
            return self.keep_safe(from, tg, g.king, g.them, g.occ, g.theirs, None);
        }
        let test = tg & g.exposed;
        if test.is_empty() {
            tg
        } else {
            tg.without(test) | self.keep_safe(from, test, g.king, g.them, g.occ, g.theirs, None)
        }
    }

    /// The legal transfers of the piece of `role` on `from` (docs/rule-files.md, `[transfer]`), as
    /// targets; with `test`, each is kept only if our king is safe after it.
    fn transfers(&self, role: Role, from: Cell, test: bool, g: &General<L>) -> Bitboard<L> {
        let t = self.t;
        let mut out = Bitboard::EMPTY;
        let Some(tr) = &t.transfer else { return out };
        let us = self.turn;
        let them = us.other();
        let occ = self.occupied();
        let ours = self.placed.by_color[us];
        let theirs = self.placed.by_color[them];
        let sq = from.plane();
        for_adjacent::<L>(from.level(), |o| {
            let cell_t = Cell::from_index(o * 64 + sq);
            let occ_o = occ.0[o];
            let tbit = 1u64 << sq;
            // Plain transfers (no second capture), and those that capture on T and go on. The
            // transfer cell's own occupancy does not change the lookups from it.
            let lines = |r: Role| self.after_transfer(tr, r, sq, occ_o);
            let mut double = 0u64;
            let plain = if role == Role::Knight {
                if !tr.knight_over_occupied && occ_o & tbit != 0 {
                    return;
                }
                lines(role) & !ours.0[o]
            } else {
                if ours.0[o] & tbit != 0 {
                    return;
                }
                let enemy_on_t = theirs.0[o] & tbit != 0;
                let mut plain = tbit;
                if !enemy_on_t || !tr.capture_ends_move {
                    let occ_t = occ_o & !tbit;
                    let beyond = match role {
                        Role::Pawn if t.pawns.home_rank[us].has(from) => {
                            let steps = t.pawns.steps[us][cell_t].0[o] & !occ_t;
                            let caps = t.pawns.captures[us][cell_t].0[o] & theirs.0[o];
                            steps | caps
                        }
                        Role::Pawn => 0,
                        _ => lines(role) & !ours.0[o],
                    };
                    if enemy_on_t {
                        double = beyond;
                    } else {
                        plain |= beyond;
                    }
                }
                plain
            };
            let (plain, double) = (plain & g.want.0[o], double & g.want.0[o]);
            if plain != 0 {
                out |= self.safe(from, Bitboard::on_level(o, plain), test, g);
            }
            if double != 0 {
                out |= self.keep_safe(from, Bitboard::on_level(o, double), g.king, them, occ, theirs, Some(cell_t));
            }
        });
        out
    }
}
