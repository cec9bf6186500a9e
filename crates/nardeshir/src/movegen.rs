//! Legal move generation with check and pin masks, and attack queries.

use crate::Board;
use stackchess_core::{Color, Move, MoveKind, MoveList, Position, Role};
use stackchess_geometry::{Bitboard, Cell};

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

/// The roles in a bit mask.
#[inline]
fn roles_in(mask: u8) -> impl Iterator<Item = Role> {
    let mut m = mask;
    std::iter::from_fn(move || {
        if m == 0 {
            return None;
        }
        let i = m.trailing_zeros() as usize;
        m &= m - 1;
        Some(Role::ALL[i])
    })
}

impl<const L: usize> Board<L> {
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

    /// Pieces of `by` of the roles in the bit mask `roles`.
    #[inline]
    fn of_roles(&self, by: Color, roles: u8) -> Bitboard<L> {
        let mut b = Bitboard::EMPTY;
        for r in roles_in(roles) {
            b |= self.placed.by_role[r.index()];
        }
        b & self.placed.by_color[by.index()]
    }

    /// The pieces of `by` that attack `c`, given occupancy.
    pub(crate) fn attackers(&self, c: Cell, by: Color, occ: Bitboard<L>) -> Bitboard<L> {
        let t = self.t;
        let mut a = t.pawn_captures[by.other().index()][c.index()] & self.pieces(by, Role::Pawn);
        for r in roles_in(t.leap_roles) {
            a |= t.leaps[r.index()][c.index()] & self.pieces(by, r);
        }
        for (&(gs, roles), empty) in t.slide_classes.iter().zip(&t.class_empty) {
            let s = self.of_roles(by, roles) & empty[c.index()];
            if !s.is_empty() {
                a |= t.rays.slides(c, gs, occ) & s;
            }
        }
        a
    }

    /// Whether `by` attacks `c`, given occupancy.
    #[inline]
    pub(crate) fn is_attacked(&self, c: Cell, by: Color, occ: Bitboard<L>) -> bool {
        let t = self.t;
        if t.pawn_captures[by.other().index()][c.index()].intersects(self.pieces(by, Role::Pawn)) {
            return true;
        }
        for r in roles_in(t.leap_roles) {
            if t.leaps[r.index()][c.index()].intersects(self.pieces(by, r)) {
                return true;
            }
        }
        t.slide_classes.iter().zip(&t.class_empty).any(|(&(gs, roles), empty)| {
            let s = self.of_roles(by, roles) & empty[c.index()];
            !s.is_empty() && t.rays.slides(c, gs, occ).intersects(s)
        })
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
        for (&(_, roles), empty) in t.slide_classes.iter().zip(&t.class_empty) {
            snipers |= empty[king.index()] & self.of_roles(them, roles);
        }
        for s in snipers.cells() {
            let between = t.rays.between(king, s);
            let blockers = between & occ;
            if !blockers.more_than_one() {
                if let Some(b) = (blockers & self.placed.by_color[us.index()]).first() {
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
        let ours = self.placed.by_color[us.index()];
        let king = self.king(us);
        let checkers = self.attackers(king, them, occ);

        // King steps: to cells not attacked once the king has left its own.
        let no_king = occ.without(Bitboard::from_cell(king));
        let mut kt = self.piece_attacks(Role::King, king, occ).without(ours);
        kt.for_each(|c| {
            if self.is_attacked(c, them, no_king) {
                kt.remove(c);
            }
        });
        sink.set(king, kt);
        if checkers.more_than_one() {
            return;
        }
        let mask = if let Some(ch) = checkers.first() {
            t.rays.between(king, ch) | checkers
        } else {
            self.castles(king, sink);
            !ours
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
            self.pieces(us, role).for_each(|from| {
                let mut targets = self.piece_attacks(role, from, occ).without(ours) & mask;
                if pinned.has(from) {
                    targets &= pin_mask(from);
                }
                sink.set(from, targets);
            });
        }

        // Pawns.
        let theirs = self.placed.by_color[them.index()];
        let promo = t.promo[us.index()];
        let doubles = t.double_from[us.index()];
        let mut roles: Option<([Role; 4], usize)> = None;
        self.pieces(us, Role::Pawn).for_each(|from| {
            let steps = t.pawn_steps[us.index()][from.index()].without(occ);
            let caps = t.pawn_captures[us.index()][from.index()] & theirs;
            let allowed = if pinned.has(from) { mask & pin_mask(from) } else { mask };
            let targets = (steps | caps) & allowed;
            let promos = targets & promo;
            if promos.is_empty() {
                sink.set(from, targets);
            } else {
                sink.set(from, targets.without(promo));
                let (r, n) = *roles.get_or_insert_with(|| {
                    let mut r = [Role::Queen; 4];
                    let mut n = 0;
                    for role in self.promotion_roles(us) {
                        r[n] = role;
                        n += 1;
                    }
                    (r, n)
                });
                sink.promos(from, promos, &r[..n]);
            }
            if doubles.has(from) {
                for &(mid, to) in &t.pawn_doubles[us.index()][from.index()] {
                    if !occ.has(mid) && !occ.has(to) && allowed.has(to) {
                        sink.one(Move::new(from, to, None, MoveKind::DoubleStep));
                    }
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
        });
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
            // The king must not be attacked once king and rook stand on their new cells.
            let moved: Bitboard<L> = [cm.king_from, cm.king_to, cm.rook_from, cm.rook_to].into_iter().collect();
            let after = (occ.without(moved)) | Bitboard::from_cell(cm.king_to) | Bitboard::from_cell(cm.rook_to);
            if !self.is_attacked(cm.king_to, us.other(), after) {
                sink.one(Move::new(cm.king_from, cm.king_to, None, MoveKind::Castle));
            }
        }
    }
}
