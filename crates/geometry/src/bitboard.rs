//! Sets of cells over `L` stacked levels, one `u64` a level.

use crate::Cell;
use std::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXor, BitXorAssign, Not};

/// A set of cells on a board of `L` levels. Word `l` holds level `l`, bit `rank * 8 + file`.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Bitboard<const L: usize>(pub [u64; L]);

impl<const L: usize> Default for Bitboard<L> {
    fn default() -> Self {
        Self::EMPTY
    }
}

impl<const L: usize> Bitboard<L> {
    /// No cell.
    pub const EMPTY: Self = Bitboard([0; L]);
    /// Every cell.
    pub const FULL: Self = Bitboard([!0; L]);

    /// The set holding only `c`.
    #[inline]
    #[must_use]
    pub fn from_cell(c: Cell) -> Self {
        Self::on_level(c.level(), 1 << c.plane())
    }

    /// The plane word `w` on level `l` (`l < L`). Selects by comparison rather than by indexing:
    /// an indexed write sends the set through memory, and a wide load after a narrower store
    /// stalls (store forwarding fails; measured in perft on 2 and 3 levels). Reads index.
    #[inline]
    #[must_use]
    pub fn on_level(l: usize, w: u64) -> Self {
        if L == 1 {
            return Bitboard([w; L]);
        }
        let mut b = Self::EMPTY;
        for (i, x) in b.0.iter_mut().enumerate() {
            *x = if i == l { w } else { 0 };
        }
        b
    }

    /// The word of level `l` (`l < L`).
    #[inline]
    #[must_use]
    pub fn word(&self, l: usize) -> u64 {
        self.0[l]
    }

    /// Whether `c` is in the set.
    #[inline]
    #[must_use]
    pub fn has(self, c: Cell) -> bool {
        self.word(c.level()) >> c.plane() & 1 != 0
    }

    /// Adds `c`.
    #[inline]
    pub fn insert(&mut self, c: Cell) {
        *self |= Self::from_cell(c);
    }

    /// Removes `c`.
    #[inline]
    pub fn remove(&mut self, c: Cell) {
        *self = self.without(Self::from_cell(c));
    }

    /// Whether the set is empty.
    #[inline]
    #[must_use]
    pub fn is_empty(self) -> bool {
        // The words or-ed in registers: comparing the array with an empty one went through
        // memory, and the load stalled on the stores just made (half the perf samples of the
        // net's accumulator update).
        self.0.iter().fold(0, |a, &w| a | w) == 0
    }

    /// Number of cells.
    ///
    /// Without a popcount instruction (the default x86-64 target), on two levels, the words'
    /// per-byte counts are added before one horizontal sum instead of two full software popcounts:
    /// Air Attack perft 7% faster; on three levels it measured 2–4% slower, so only two use it.
    #[inline]
    #[must_use]
    pub fn count(self) -> u32 {
        const M1: u64 = 0x5555_5555_5555_5555;
        const M2: u64 = 0x3333_3333_3333_3333;
        const M4: u64 = 0x0f0f_0f0f_0f0f_0f0f;
        if cfg!(target_feature = "popcnt") || L != 2 {
            return self.0.iter().map(|w| w.count_ones()).sum();
        }
        let mut bytes = 0u64;
        for &w in &self.0 {
            let x = w - ((w >> 1) & M1);
            let x = (x & M2) + ((x >> 2) & M2);
            bytes += (x + (x >> 4)) & M4;
        }
        // A byte holds at most 16 and the total at most 128: one multiply sums the bytes.
        #[allow(clippy::cast_possible_truncation, reason = "at most 128 cells")]
        let n = (bytes.wrapping_mul(0x0101_0101_0101_0101) >> 56) as u32;
        n
    }

    /// Whether the set has more than one cell.
    #[inline]
    #[must_use]
    pub fn more_than_one(self) -> bool {
        let mut seen = false;
        for &w in &self.0 {
            if w != 0 {
                if seen || w & (w - 1) != 0 {
                    return true;
                }
                seen = true;
            }
        }
        false
    }

    /// The lowest cell, if any.
    #[inline]
    #[must_use]
    pub fn first(self) -> Option<Cell> {
        for (l, &w) in self.0.iter().enumerate() {
            if w != 0 {
                return Some(Cell::from_index(l * 64 + w.trailing_zeros() as usize));
            }
        }
        None
    }

    /// The cells, lowest first.
    #[inline]
    #[must_use]
    pub fn cells(self) -> Cells<L> {
        Cells { bb: self, level: 0 }
    }

    /// Calls `f` on each cell, lowest first (faster than [`Bitboard::cells`] in hot loops).
    #[allow(clippy::inline_always, reason = "the generators' hottest loop; measured faster in perft")]
    #[inline(always)]
    pub fn for_each(self, mut f: impl FnMut(Cell)) {
        for l in 0..L {
            let mut w = self.0[l];
            while w != 0 {
                f(Cell::from_index(l * 64 + w.trailing_zeros() as usize));
                w &= w - 1;
            }
        }
    }

    /// The cells of one level as a plane word.
    #[inline]
    #[must_use]
    pub fn level(self, l: usize) -> u64 {
        self.0[l]
    }

    /// `self` without the cells of `other`.
    #[inline]
    #[must_use]
    pub fn without(self, other: Self) -> Self {
        let mut r = self;
        for l in 0..L {
            r.0[l] &= !other.0[l];
        }
        r
    }

    /// Whether the two sets share a cell.
    #[inline]
    #[must_use]
    pub fn intersects(self, other: Self) -> bool {
        (0..L).any(|l| self.0[l] & other.0[l] != 0)
    }
}

/// Iterator over the cells of a [`Bitboard`], lowest first.
#[derive(Clone, Debug)]
pub struct Cells<const L: usize> {
    bb: Bitboard<L>,
    level: usize,
}

impl<const L: usize> Iterator for Cells<L> {
    type Item = Cell;
    #[inline]
    fn next(&mut self) -> Option<Cell> {
        while self.level < L {
            let w = &mut self.bb.0[self.level];
            if *w != 0 {
                let i = w.trailing_zeros() as usize;
                *w &= *w - 1;
                return Some(Cell::from_index(self.level * 64 + i));
            }
            self.level += 1;
        }
        None
    }
}

impl<const L: usize> FromIterator<Cell> for Bitboard<L> {
    fn from_iter<I: IntoIterator<Item = Cell>>(iter: I) -> Self {
        let mut b = Self::EMPTY;
        for c in iter {
            b.insert(c);
        }
        b
    }
}

macro_rules! binop {
    ($tr:ident, $f:ident, $tra:ident, $fa:ident, $op:tt) => {
        impl<const L: usize> $tr for Bitboard<L> {
            type Output = Self;
            #[inline]
            fn $f(self, rhs: Self) -> Self {
                let mut r = self;
                for l in 0..L {
                    r.0[l] = self.0[l] $op rhs.0[l];
                }
                r
            }
        }
        impl<const L: usize> $tra for Bitboard<L> {
            #[inline]
            fn $fa(&mut self, rhs: Self) {
                for l in 0..L {
                    self.0[l] = self.0[l] $op rhs.0[l];
                }
            }
        }
    };
}
binop!(BitAnd, bitand, BitAndAssign, bitand_assign, &);
binop!(BitOr, bitor, BitOrAssign, bitor_assign, |);
binop!(BitXor, bitxor, BitXorAssign, bitxor_assign, ^);

impl<const L: usize> Not for Bitboard<L> {
    type Output = Self;
    #[inline]
    fn not(self) -> Self {
        let mut r = self;
        for w in &mut r.0 {
            *w = !*w;
        }
        r
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn set_operations() {
        let a = Cell::from_index(3);
        let b = Cell::from_index(130);
        let s: Bitboard<3> = [a, b].into_iter().collect();
        assert_eq!(s.count(), 2);
        assert!(s.has(a) && s.has(b));
        assert!(s.more_than_one());
        assert_eq!(s.cells().collect::<Vec<_>>(), vec![a, b]);
        assert_eq!(s.first(), Some(a));
        assert_eq!((s & Bitboard::from_cell(b)).count(), 1);
        assert!(!(s.without(s)).intersects(s));
        assert_eq!((!Bitboard::<3>::EMPTY).count(), 192);
        assert!(!Bitboard::<3>::from_cell(b).more_than_one());
    }

    /// The byte-summed count (two levels) equals one popcount per word, full boards included.
    #[test]
    fn count_equals_word_popcounts() {
        let mut x = 0x9e37_79b9_7f4a_7c15_u64;
        let mut next = || {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x
        };
        for _ in 0..400 {
            let b = Bitboard::<2>([next() | next(), next() & next()]);
            assert_eq!(b.count(), b.0.iter().map(|w| w.count_ones()).sum::<u32>());
        }
        assert_eq!(Bitboard::<2>::FULL.count(), 128);
        assert_eq!(Bitboard::<2>([!0, 0]).count(), 64);
    }
}
