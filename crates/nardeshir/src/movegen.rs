//! Legal move generation with check and pin masks, and attack queries.

use crate::{Board, Variant};
use stackchess_core::{Color, Move, MoveKind, MoveList, Position, Role};
use stackchess_geometry::{Bitboard, Cell, DirGroup, GroupSet};

/// Where generated moves go: a list, or a counter (bulk counting).
pub(crate) trait Sink<const L: usize> {
    /// Ordinary moves from `from` to each target.
    fn set(&mut self, from: Cell, targets: Bitboard<L>);
    /// Promotions from `from` to each target, to each of `roles`.
    fn promos(&mut self, from: Cell, targets: Bitboard<L>, roles: &[Role]);
    /// One move.
    fn one(&mut self, m: Move);
}

impl<const L: usize> Sink<L> for MoveList {
    #[inline]
    fn set(&mut self, from: Cell, targets: Bitboard<L>) {
        for to in targets.cells() {
            self.push(Move::normal(from, to));
        }
    }
    #[inline]
    fn promos(&mut self, from: Cell, targets: Bitboard<L>, roles: &[Role]) {
        for to in targets.cells() {
            for &r in roles {
                self.push(Move::new(from, to, Some(r), MoveKind::Normal));
            }
        }
    }
    #[inline]
    fn one(&mut self, m: Move) {
        self.push(m);
    }
}

impl<const L: usize> Sink<L> for usize {
    #[inline]
    fn set(&mut self, _: Cell, targets: Bitboard<L>) {
        *self += targets.count() as usize;
    }
    #[inline]
    fn promos(&mut self, _: Cell, targets: Bitboard<L>, roles: &[Role]) {
        *self += targets.count() as usize * roles.len();
    }
    #[inline]
    fn one(&mut self, _: Move) {
        *self += 1;
    }
}

impl<const L: usize, V: Variant<L>> Board<L, V> {
    /// Cells a non-pawn `role` on `c` attacks, given occupancy.
    #[inline]
    pub(crate) fn piece_attacks(&self, role: Role, c: Cell, occ: Bitboard<L>) -> Bitboard<L> {
        let t = self.t;
        let mut a = match t.leaps[role.index()].get(c.index()) {
            Some(b) => *b,
            None => Bitboard::EMPTY,
        };
        let gs = t.slides[role.index()];
        if !gs.is_empty() {
            a |= t.rays.slides(c, gs, occ);
        }
        a
    }

    /// Pieces of `by` in `set` of the roles in the bit mask `roles`.
    #[inline]
    fn of_roles(&self, by: Color, roles: u8) -> Bitboard<L> {
        let mut b = Bitboard::EMPTY;
        for r in Role::ALL {
            if roles >> r.index() & 1 != 0 {
                b |= self.by_role[r.index()];
            }
        }
        b & self.by_color[by.index()]
    }

    /// The pieces of `by` that attack `c`, given occupancy.
    pub(crate) fn attackers(&self, c: Cell, by: Color, occ: Bitboard<L>) -> Bitboard<L> {
        let t = self.t;
        let mut a = t.pawn_captures[by.other().index()][c.index()] & self.pieces(by, Role::Pawn);
        for role in &Role::ALL[1..] {
            if let Some(l) = t.leaps[role.index()].get(c.index()) {
                a |= *l & self.pieces(by, *role);
            }
        }
        for g in DirGroup::ALL {
            let roles = t.group_roles[g as usize];
            if roles != 0 && (L > 1 || g.in_plane()) {
                let s = self.of_roles(by, roles);
                if !s.is_empty() {
                    a |= t.rays.slides(c, GroupSet(1 << g as u8), occ) & s;
                }
            }
        }
        a
    }

    /// Whether `by` attacks `c`, given occupancy.
    #[inline]
    pub(crate) fn is_attacked(&self, c: Cell, by: Color, occ: Bitboard<L>) -> bool {
        !self.attackers(c, by, occ).is_empty()
    }

    /// Pinned pieces of the side to move, and for each the cells it may still move to.
    fn pins(&self, king: Cell, us: Color) -> (Bitboard<L>, [(Cell, Bitboard<L>); 16], usize) {
        let t = self.t;
        let them = us.other();
        let occ = self.occupied();
        let mut pinned = Bitboard::EMPTY;
        let mut rays = [(king, Bitboard::EMPTY); 16];
        let mut n = 0;
        let mut snipers = Bitboard::EMPTY;
        for g in DirGroup::ALL {
            let roles = t.group_roles[g as usize];
            if roles != 0 && (L > 1 || g.in_plane()) {
                snipers |= t.rays.empty_slides(king, GroupSet(1 << g as u8)) & self.of_roles(them, roles);
            }
        }
        for s in snipers.cells() {
            let between = t.rays.between(king, s);
            let blockers = between & occ;
            if !blockers.more_than_one() {
                if let Some(b) = (blockers & self.by_color[us.index()]).first() {
                    if n < rays.len() {
                        pinned.insert(b);
                        rays[n] = (b, between | Bitboard::from_cell(s));
                        n += 1;
                    }
                }
            }
        }
        (pinned, rays, n)
    }

    /// Generates the legal moves into `sink`.
    pub(crate) fn generate<S: Sink<L>>(&self, sink: &mut S) {
        let t = self.t;
        let us = self.turn;
        let them = us.other();
        let occ = self.occupied();
        let ours = self.by_color[us.index()];
        let king = self.king(us);
        let checkers = self.attackers(king, them, occ);

        // King steps: to cells not attacked once the king has left its own.
        let no_king = occ.without(Bitboard::from_cell(king));
        let mut kt = self.piece_attacks(Role::King, king, occ).without(ours);
        for c in kt.cells() {
            if self.is_attacked(c, them, no_king) {
                kt.remove(c);
            }
        }
        sink.set(king, kt);
        if checkers.more_than_one() {
            return;
        }
        let mask = match checkers.first() {
            Some(ch) => t.rays.between(king, ch) | checkers,
            None => {
                self.castles(king, sink);
                !ours
            }
        };
        let (pinned, pin_rays, npins) = self.pins(king, us);
        let pin_mask = |c: Cell| -> Bitboard<L> {
            if pinned.has(c) {
                pin_rays[..npins].iter().find(|(p, _)| *p == c).map_or(Bitboard::EMPTY, |r| r.1)
            } else {
                Bitboard::FULL
            }
        };

        for role in [Role::Knight, Role::Bishop, Role::Rook, Role::Queen] {
            for from in self.pieces(us, role).cells() {
                let mut targets = self.piece_attacks(role, from, occ).without(ours) & mask;
                if pinned.has(from) {
                    targets &= pin_mask(from);
                }
                sink.set(from, targets);
            }
        }

        // Pawns.
        let theirs = self.by_color[them.index()];
        let promo = t.promo[us.index()];
        let mut roles = [Role::Queen; 4];
        let mut nroles = 0;
        for r in self.promotion_roles(us) {
            roles[nroles] = r;
            nroles += 1;
        }
        let roles = &roles[..nroles];
        for from in self.pieces(us, Role::Pawn).cells() {
            let steps = t.pawn_steps[us.index()][from.index()].without(occ);
            let caps = t.pawn_captures[us.index()][from.index()] & theirs;
            let allowed = mask & pin_mask(from);
            let targets = (steps | caps) & allowed;
            sink.set(from, targets.without(promo));
            sink.promos(from, targets & promo, roles);
            for &(mid, to) in &t.pawn_doubles[us.index()][from.index()] {
                if !occ.has(mid) && !occ.has(to) && allowed.has(to) {
                    sink.one(Move::new(from, to, None, MoveKind::DoubleStep));
                }
            }
            if let Some((e, _)) = self.ep {
                if t.pawn_captures[us.index()][from.index()].has(e) {
                    let m = Move::new(from, e, None, MoveKind::EnPassant);
                    if self.leaves_king_safe(m) {
                        sink.one(m);
                    }
                }
            }
        }
    }

    /// Whether the king of the side to move is safe after `m` (slow; for rare moves).
    fn leaves_king_safe(&self, m: Move) -> bool {
        let mut next = *self;
        next.play_unchecked(m);
        let us = self.turn;
        !next.is_attacked(next.king(us), us.other(), next.occupied())
    }

    fn castles<S: Sink<L>>(&self, king: Cell, sink: &mut S) {
        let us = self.turn;
        let occ = self.occupied();
        for long in [false, true] {
            if !self.castling.has(us, long) {
                continue;
            }
            let Some(cm) = self.t.castles[us.index()][usize::from(long)] else { continue };
            if cm.king_from != king || cm.empty.intersects(occ) || self.is_attacked(cm.cross, us.other(), occ) {
                continue;
            }
            let m = Move::new(cm.king_from, cm.king_to, None, MoveKind::Castle);
            if self.leaves_king_safe(m) {
                sink.one(m);
            }
        }
    }
}
