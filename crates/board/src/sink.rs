//! Where generated moves go: a list, or a counter (perft's last ply, counted in bulk).

use stackchess_core::{Move, MoveKind, MoveList, Role};
use stackchess_geometry::{Bitboard, Cell};

/// Where generated moves go: a list, or a counter (bulk counting).
pub(crate) trait Sink<const L: usize> {
    /// Whether the sink only counts (moves may then be counted set-wise, through [`Sink::add`]).
    const BULK: bool = false;
    /// `n` moves counted set-wise (bulk sinks only).
    fn add(&mut self, n: usize);
    /// Moves from `from` to each target, of `kind`.
    fn set(&mut self, from: Cell, targets: Bitboard<L>, kind: MoveKind);
    /// Promotions from `from` to each target, to each of `roles`.
    fn promos(&mut self, from: Cell, targets: Bitboard<L>, roles: &[Role], kind: MoveKind);
    /// One move.
    fn one(&mut self, m: Move);
    /// The only targets the sink takes (every cell for most): the generator skips the work of
    /// the others' legality tests.
    fn wanted(&self) -> Bitboard<L> {
        Bitboard::FULL
    }
    /// Moves from `from` to each target: within its level normal moves, to another level
    /// transfers (for rule sets with transfers, whose normal moves never change level).
    fn set_by_level(&mut self, from: Cell, targets: Bitboard<L>) {
        let other = !Bitboard::on_level(from.level(), !0);
        self.set(from, targets.without(other), MoveKind::Normal);
        self.set(from, targets & other, MoveKind::Transfer);
    }
    /// Promotions, normal or transfers as [`Sink::set_by_level`].
    fn promos_by_level(&mut self, from: Cell, targets: Bitboard<L>, roles: &[Role]) {
        let other = !Bitboard::on_level(from.level(), !0);
        self.promos(from, targets.without(other), roles, MoveKind::Normal);
        self.promos(from, targets & other, roles, MoveKind::Transfer);
    }
}

impl<const L: usize> Sink<L> for MoveList {
    fn add(&mut self, _: usize) {
        debug_assert!(false, "a move list is not a bulk sink");
    }
    #[inline]
    fn set(&mut self, from: Cell, targets: Bitboard<L>, kind: MoveKind) {
        targets.for_each(|to| self.push(Move::new(from, to, None, kind)));
    }
    #[inline]
    fn set_by_level(&mut self, from: Cell, targets: Bitboard<L>) {
        // One pass in cell order (a level below first), as the moves are generated.
        targets.for_each(|to| {
            let kind = if to.level() == from.level() { MoveKind::Normal } else { MoveKind::Transfer };
            self.push(Move::new(from, to, None, kind));
        });
    }
    #[inline]
    fn promos_by_level(&mut self, from: Cell, targets: Bitboard<L>, roles: &[Role]) {
        targets.for_each(|to| {
            let kind = if to.level() == from.level() { MoveKind::Normal } else { MoveKind::Transfer };
            for &r in roles {
                self.push(Move::new(from, to, Some(r), kind));
            }
        });
    }
    #[inline]
    fn promos(&mut self, from: Cell, targets: Bitboard<L>, roles: &[Role], kind: MoveKind) {
        targets.for_each(|to| {
            for &r in roles {
                self.push(Move::new(from, to, Some(r), kind));
            }
        });
    }
    #[inline]
    fn one(&mut self, m: Move) {
        self.push(m);
    }
}

/// A move list that takes only the moves ending on the cells of `keep`, in the order a plain
/// list gets them.
pub(crate) struct Within<'a, const L: usize> {
    pub list: &'a mut MoveList,
    pub keep: Bitboard<L>,
}

impl<const L: usize> Sink<L> for Within<'_, L> {
    fn add(&mut self, _: usize) {
        debug_assert!(false, "a move list is not a bulk sink");
    }
    #[inline]
    fn set(&mut self, from: Cell, targets: Bitboard<L>, kind: MoveKind) {
        Sink::<L>::set(self.list, from, targets & self.keep, kind);
    }
    #[inline]
    fn promos(&mut self, from: Cell, targets: Bitboard<L>, roles: &[Role], kind: MoveKind) {
        Sink::<L>::promos(self.list, from, targets & self.keep, roles, kind);
    }
    #[inline]
    fn set_by_level(&mut self, from: Cell, targets: Bitboard<L>) {
        Sink::<L>::set_by_level(self.list, from, targets & self.keep);
    }
    #[inline]
    fn promos_by_level(&mut self, from: Cell, targets: Bitboard<L>, roles: &[Role]) {
        Sink::<L>::promos_by_level(self.list, from, targets & self.keep, roles);
    }
    #[inline]
    fn one(&mut self, m: Move) {
        if self.keep.has(m.to()) {
            self.list.push(m);
        }
    }
    #[inline]
    fn wanted(&self) -> Bitboard<L> {
        self.keep
    }
}

/// A counter of moves (perft's last ply). Target sets are added into bit-sliced counters, one
/// per bit position (carry-save: a few logic operations a word), and counted once at the end:
/// without a popcount instruction, cheaper than counting every set.
#[derive(Default)]
pub(crate) struct Tally {
    n: usize,
    /// Bit `i` of `slices[k]` is bit `k` of the count of words added with bit `i` set.
    slices: [u64; 4],
}

impl Tally {
    #[inline]
    fn word(&mut self, w: u64) {
        let mut carry = w;
        for s in &mut self.slices {
            let next = *s & carry;
            *s ^= carry;
            carry = next;
            if carry == 0 {
                return;
            }
        }
        self.n += 16 * carry.count_ones() as usize;
    }

    #[inline]
    fn bits<const L: usize>(&mut self, b: Bitboard<L>) {
        if cfg!(target_feature = "popcnt") {
            self.n += b.count() as usize;
        } else {
            for &w in &b.0 {
                self.word(w);
            }
        }
    }

    /// The moves counted.
    pub(crate) fn total(&self) -> usize {
        self.n + self.slices.iter().enumerate().map(|(k, s)| (s.count_ones() as usize) << k).sum::<usize>()
    }
}

impl<const L: usize> Sink<L> for Tally {
    const BULK: bool = true;
    #[inline]
    fn add(&mut self, n: usize) {
        self.n += n;
    }
    #[inline]
    fn set_by_level(&mut self, _: Cell, targets: Bitboard<L>) {
        self.bits(targets);
    }
    #[inline]
    fn promos_by_level(&mut self, _: Cell, targets: Bitboard<L>, roles: &[Role]) {
        self.n += targets.count() as usize * roles.len();
    }
    #[inline]
    fn set(&mut self, _: Cell, targets: Bitboard<L>, _: MoveKind) {
        self.bits(targets);
    }
    #[inline]
    fn promos(&mut self, _: Cell, targets: Bitboard<L>, roles: &[Role], _: MoveKind) {
        self.n += targets.count() as usize * roles.len();
    }
    #[inline]
    fn one(&mut self, _: Move) {
        self.n += 1;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_tally_counts_every_target_however_often_a_bit_repeats() {
        let mut x = 0x9E37_79B9_7F4A_7C15u64;
        let mut tally = Tally::default();
        let mut expected = 0;
        for round in 0..300 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            // Every word shares bit 0 (the slices overflow), and some are full.
            let words = [x | 1, if round % 7 == 0 { !0 } else { x.rotate_left(9) & x | 1 }, x >> 3 | 1];
            let b = Bitboard::<3>(words);
            expected += b.count() as usize;
            Sink::<3>::set(&mut tally, Cell::from_index(0), b, MoveKind::Normal);
            Sink::<3>::one(&mut tally, Move::new(Cell::from_index(0), Cell::from_index(1), None, MoveKind::Normal));
            expected += 1;
        }
        assert_eq!(tally.total(), expected);
    }
}
