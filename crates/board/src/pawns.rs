//! Pawn moves: one pawn at a time (steps, captures, double steps, promotions, transfers), or a
//! set of pawns counted vector by vector; en passant, tested by playing it.

use crate::sink::Sink;
use crate::Board;
use stackchess_core::{Color, Move, MoveKind, Role};
use stackchess_geometry::{Bitboard, Cell};

impl<const L: usize> Board<L> {
    /// The en-passant captures of the pawns `pawns` (each tested by playing it).
    pub(crate) fn en_passant_by<S: Sink<L>>(&self, sink: &mut S, pawns: Bitboard<L>) {
        if let Some((e, _)) = self.ep.filter(|&(e, _)| sink.wanted().has(e)) {
            (self.t.pawns.attackers[self.turn][e] & pawns).for_each(|from| {
                let m = Move::new(from, e, None, MoveKind::EnPassant);
                if self.leaves_king_safe(m) {
                    sink.one(m);
                }
            });
        }
    }

    /// The number of moves of the pawns `free` (none pinned) within `mask`, counted set-wise
    /// vector by vector (when the tables allow it: [`crate::Tables`]'s `pawns.bulk`); en passant
    /// excluded.
    pub(crate) fn count_pawn_moves(&self, free: Bitboard<L>, mask: Bitboard<L>) -> usize {
        let t = &self.t.pawns;
        let us = self.turn;
        let empty = !self.occupied();
        let theirs = self.placed.by_color[us.other()];
        let promo = t.promo[us];
        let doubles = free & t.double_from[us];
        let (mut plain, mut promos) = (0, 0);
        let mut tally = |targets: Bitboard<L>| {
            plain += targets.without(promo).count() as usize;
            promos += (targets & promo).count() as usize;
        };
        for s in &t.step_shifts[us] {
            let step = s.apply(free) & empty;
            tally(step & mask);
            if !doubles.is_empty() {
                tally(s.apply(s.apply(doubles) & empty) & empty & mask);
            }
        }
        for s in &t.capture_shifts[us] {
            tally(s.apply(free) & theirs & mask);
        }
        if promos > 0 {
            promos *= self.promotion_choices(us).1;
        }
        plain + promos
    }

    /// Moves of the pawns `pawns` (steps, captures, promotions, double steps, en passant) within `allowed(from)`;
    /// en passant is tested by playing it.
    /// `transfers(from)` gives a pawn's legal transfer targets (rule sets with transfers), emitted
    /// with its normal moves in cell order.
    pub(crate) fn pawn_moves<S: Sink<L>>(
        &self,
        sink: &mut S,
        pawns: Bitboard<L>,
        allowed: impl Fn(Cell) -> Bitboard<L>,
        transfers: impl Fn(Cell) -> Bitboard<L>,
    ) {
        let t = self.t;
        let us = self.turn;
        let occ = self.occupied();
        let theirs = self.placed.by_color[us.other()];
        let promo = t.pawns.promo[us];
        let doubles = t.pawns.double_from[us];
        let mut roles: Option<([Role; 4], usize)> = None;
        pawns.for_each(|from| {
            let allowed = allowed(from);
            // A step vector may land where a double step does: the double step (which sets the
            // en-passant cell) is the move then.
            let mut two_steps = Bitboard::EMPTY;
            if doubles.has(from) {
                for &(mid, to) in &t.pawns.doubles[us][from.index()] {
                    if !occ.has(mid) && !occ.has(to) && allowed.has(to) {
                        two_steps.insert(to);
                    }
                }
            }
            let steps = t.pawns.steps[us][from].without(occ);
            let caps = t.pawns.captures[us][from] & theirs;
            let targets = ((steps | caps).without(two_steps) & allowed) | transfers(from);
            let promos = targets & promo;
            if t.transfer.is_some() {
                sink.set_by_level(from, targets.without(promo));
                if !promos.is_empty() {
                    let (r, n) = *roles.get_or_insert_with(|| self.promotion_choices(us));
                    sink.promos_by_level(from, promos, &r[..n]);
                }
            } else if promos.is_empty() {
                sink.set(from, targets, MoveKind::Normal);
            } else {
                sink.set(from, targets.without(promo), MoveKind::Normal);
                let (r, n) = *roles.get_or_insert_with(|| self.promotion_choices(us));
                sink.promos(from, promos, &r[..n], MoveKind::Normal);
            }
            if !two_steps.is_empty() {
                let mut done = Bitboard::<L>::EMPTY;
                for &(_, to) in &t.pawns.doubles[us][from.index()] {
                    if !two_steps.has(to) || done.has(to) {
                        continue;
                    }
                    done.insert(to);
                    if promo.has(to) {
                        let (r, n) = *roles.get_or_insert_with(|| self.promotion_choices(us));
                        for &role in &r[..n] {
                            sink.one(Move::new(from, to, Some(role), MoveKind::DoubleStep));
                        }
                    } else {
                        sink.one(Move::new(from, to, None, MoveKind::DoubleStep));
                    }
                }
            }
            self.en_passant_by(sink, Bitboard::from_cell(from));
        });
    }

    /// The promotion roles the side `us` may choose now, in a fixed array.
    pub(crate) fn promotion_choices(&self, us: Color) -> ([Role; 4], usize) {
        let mut r = [Role::Queen; 4];
        let mut n = 0;
        for role in self.promotion_roles(us) {
            r[n] = role;
            n += 1;
        }
        (r, n)
    }
}
