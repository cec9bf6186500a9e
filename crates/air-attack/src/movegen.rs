//! Legal move generation: normal moves within a level and transfer moves across (RULES.md §2.2).
//!
//! Pseudo-legal targets per piece as bitboards, then a legality test only where one is needed:
//! every king move, every move when in check, and the moves of pieces whose removal would
//! expose the king (the "pinned" ones). Attack is monotone (more occupancy or fewer enemy
//! pieces never create an attack), so any other move is legal.

use crate::board::{Bb, Board};
use stackchess_core::{Color, Move, MoveKind, MoveList, Position, Role};
use stackchess_geometry::{bishop_plane, rook_plane, Cell};

/// Where generated moves go: a list, or a counter (bulk counting).
pub(crate) trait Sink {
    /// Moves from `from` to each target: normal within its level, transfers to the other one.
    fn set(&mut self, from: Cell, targets: Bb);
    /// Promotions from `from` to each target, to each of Q, R, B, N.
    fn promos(&mut self, from: Cell, targets: Bb);
    /// One move.
    fn one(&mut self, m: Move);
}

#[inline]
fn kind(from: Cell, to: Cell) -> MoveKind {
    if from.level() == to.level() {
        MoveKind::Normal
    } else {
        MoveKind::Transfer
    }
}

impl Sink for MoveList {
    #[inline]
    fn set(&mut self, from: Cell, targets: Bb) {
        for to in targets.cells() {
            self.push(Move::new(from, to, None, kind(from, to)));
        }
    }
    #[inline]
    fn promos(&mut self, from: Cell, targets: Bb) {
        for to in targets.cells() {
            for r in Role::PROMOTIONS {
                self.push(Move::new(from, to, Some(r), kind(from, to)));
            }
        }
    }
    #[inline]
    fn one(&mut self, m: Move) {
        self.push(m);
    }
}

impl Sink for usize {
    #[inline]
    fn set(&mut self, _: Cell, targets: Bb) {
        *self += targets.count() as usize;
    }
    #[inline]
    fn promos(&mut self, _: Cell, targets: Bb) {
        *self += targets.count() as usize * Role::PROMOTIONS.len();
    }
    #[inline]
    fn one(&mut self, _: Move) {
        *self += 1;
    }
}

#[inline]
fn one(c: Cell) -> Bb {
    Bb::from_cell(c)
}

impl Board {
    /// Pseudo-legal targets of a piece other than a pawn: its normal moves on its level and its
    /// transfers to the other level.
    #[inline]
    fn piece_targets(&self, role: Role, from: Cell, occ: Bb, ours: Bb) -> Bb {
        let t = self.t;
        let (l, sq) = (from.level(), from.plane());
        let o = 1 - l;
        let mut b = Bb::EMPTY;
        if role == Role::Knight {
            // The knight ignores its transfer cell and must leap on from it.
            b.0[l] = t.knight[sq] & !ours.0[l];
            b.0[o] = t.knight[sq] & !ours.0[o];
            return b;
        }
        let lines = |occ_w: u64| match role {
            Role::Bishop => bishop_plane(sq, occ_w),
            Role::Rook => rook_plane(sq, occ_w),
            _ => rook_plane(sq, occ_w) | bishop_plane(sq, occ_w),
        };
        b.0[l] = if role == Role::King { t.king[sq] } else { lines(occ.0[l]) } & !ours.0[l];
        let tbit = 1u64 << sq;
        b.0[o] = if ours.0[o] & tbit != 0 {
            0
        } else if occ.0[o] & tbit != 0 {
            tbit
        } else {
            let reach = if role == Role::King { t.king_reach[sq] } else { t.slider_reach[sq] };
            tbit | (lines(occ.0[o]) & reach & !ours.0[o])
        };
        b
    }

    /// Pseudo-legal targets of a pawn, normal and transfer, without the double step and en passant.
    #[inline]
    fn pawn_targets(&self, us: Color, from: Cell, occ: Bb, ours: Bb, theirs: Bb) -> Bb {
        let t = self.t;
        let tr = &t.rules.transfer;
        let (l, sq) = (from.level(), from.plane());
        let o = 1 - l;
        let mut b = Bb::EMPTY;
        b.0[l] = (t.pawn_push[us.index()][sq] & !occ.0[l]) | (t.pawn_attacks[us.index()][sq] & theirs.0[l]);
        let tbit = 1u64 << sq;
        b.0[o] = if ours.0[o] & tbit != 0 {
            0
        } else if occ.0[o] & tbit != 0 || !self.home_position(us, from) {
            tbit
        } else {
            let mut w = tbit;
            if tr.home_pawn_step {
                w |= t.pawn_push[us.index()][sq] & !occ.0[o];
            }
            if tr.home_pawn_capture {
                w |= t.pawn_attacks[us.index()][sq] & theirs.0[o];
            }
            w
        };
        b
    }

    /// Whether a pawn of `us` on `c` is in home position: its home rank on the home level.
    #[inline]
    pub(crate) fn home_position(&self, us: Color, c: Cell) -> bool {
        c.level() == self.t.rules.home_level && self.t.home_rank[us.index()] >> c.plane() & 1 != 0
    }

    /// Our pieces whose removal alone would expose our king (not the king itself).
    fn pinned(&self, king: Cell, them: Color, occ: Bb, ours: Bb, theirs: Bb) -> Bb {
        let (l, sq) = (king.level(), king.plane());
        // Only the first piece on each of the king's lines can matter: every attack path to
        // the king (slides, and transfer cells with their paths) runs along those lines.
        let mut cand = Bb::EMPTY;
        cand.0[l] = (rook_plane(sq, occ.0[l]) | bishop_plane(sq, occ.0[l])) & ours.0[l];
        if cand.is_empty() || !self.attacked(king, them, theirs, occ.without(cand)) {
            return Bb::EMPTY;
        }
        cand.cells().filter(|&c| self.attacked(king, them, theirs, occ.without(one(c)))).collect()
    }

    /// The targets of a non-king piece on `from` after which our king on `king` is not attacked.
    fn keep_safe(&self, from: Cell, targets: Bb, king: Cell, them: Color, occ: Bb, theirs: Bb) -> Bb {
        let lifted = occ.without(one(from));
        let mut r = targets;
        for to in targets.cells() {
            if self.attacked(king, them, theirs.without(one(to)), lifted | one(to)) {
                r.remove(to);
            }
        }
        r
    }

    /// Generates the legal moves into `sink`.
    pub(crate) fn generate<S: Sink>(&self, sink: &mut S) {
        let t = self.t;
        let us = self.turn;
        let them = us.other();
        let occ = self.occupied();
        let ours = self.placed.by_color[us.index()];
        let theirs = self.placed.by_color[them.index()];
        let king = self.king(us);
        let in_check = self.attacked(king, them, theirs, occ);

        // King moves: each target tested with the king lifted off its cell.
        let no_king = occ.without(one(king));
        let mut kt = self.piece_targets(Role::King, king, occ, ours);
        for c in kt.cells() {
            if self.attacked(c, them, theirs.without(one(c)), no_king) {
                kt.remove(c);
            }
        }
        sink.set(king, kt);
        if !in_check {
            self.castles(king, sink);
        }

        let risky = if in_check { ours } else { self.pinned(king, them, occ, ours, theirs) };
        for role in [Role::Knight, Role::Bishop, Role::Rook, Role::Queen] {
            for from in self.pieces(us, role).cells() {
                let mut tg = self.piece_targets(role, from, occ, ours);
                if risky.has(from) {
                    tg = self.keep_safe(from, tg, king, them, occ, theirs);
                }
                sink.set(from, tg);
            }
        }

        let promo = t.promo[us.index()];
        for from in self.pieces(us, Role::Pawn).cells() {
            let mut tg = self.pawn_targets(us, from, occ, ours, theirs);
            if risky.has(from) {
                tg = self.keep_safe(from, tg, king, them, occ, theirs);
            }
            sink.set(from, tg.without(promo));
            sink.promos(from, tg & promo);
            let (l, sq) = (from.level(), from.plane());
            if t.rules.double_step && self.home_position(us, from) {
                let mid = t.pawn_push[us.index()][sq];
                let two = t.pawn_push[us.index()][mid.trailing_zeros() as usize & 63];
                if mid != 0 && two != 0 && (mid | two) & occ.0[l] == 0 {
                    let to = Cell::from_index(l * 64 + two.trailing_zeros() as usize);
                    if !risky.has(from) || !self.keep_safe(from, one(to), king, them, occ, theirs).is_empty() {
                        sink.one(Move::new(from, to, None, MoveKind::DoubleStep));
                    }
                }
            }
            if let Some((e, _)) = self.ep {
                if e.level() == l && t.pawn_attacks[us.index()][sq] >> e.plane() & 1 != 0 {
                    let m = Move::new(from, e, None, MoveKind::EnPassant);
                    if self.leaves_king_safe(m) {
                        sink.one(m);
                    }
                }
            }
        }
    }

    /// Whether the king of the side to move is safe after `m` (by playing it; for rare moves).
    fn leaves_king_safe(&self, m: Move) -> bool {
        let mut next = *self;
        next.play_unchecked(m);
        let us = self.turn;
        !next.attacked(next.king(us), us.other(), next.placed.by_color[us.other().index()], next.occupied())
    }

    /// Castling (a normal move): the king not in check (the caller's test), the cells between king
    /// and rook empty, the crossed cell not attacked now, the king not attacked after.
    fn castles<S: Sink>(&self, king: Cell, sink: &mut S) {
        let us = self.turn;
        let them = us.other();
        let occ = self.occupied();
        for long in [false, true] {
            if !self.castling.has(us, long) {
                continue;
            }
            let Some(cm) = self.t.castles[us.index()][usize::from(long)] else { continue };
            if cm.king_from != king
                || cm.empty.intersects(occ)
                || self.attacked(cm.cross, them, self.placed.by_color[them.index()], occ)
            {
                continue;
            }
            let m = Move::new(cm.king_from, cm.king_to, None, MoveKind::Castle);
            if self.leaves_king_safe(m) {
                sink.one(m);
            }
        }
    }
}
