//! Sets of cells as a position's board holds them, for code generic over [`crate::Position`]
//! (the evaluation's mobility and king safety).

use crate::{Bitboard, Cell};
use std::ops::{BitAnd, BitOr, BitXor, Not};

/// A set of cells of one board shape (the board's own bitboard).
pub trait CellSet:
    Copy
    + Default
    + PartialEq
    + Send
    + Sync
    + std::fmt::Debug
    + BitAnd<Output = Self>
    + BitOr<Output = Self>
    + BitXor<Output = Self>
    + Not<Output = Self>
{
    /// The set of `c` alone.
    fn single(c: Cell) -> Self;
    /// Its number of cells.
    fn count(self) -> u32;
    /// Whether `c` is in it.
    fn has(self, c: Cell) -> bool;
    /// Whether it is empty.
    fn is_empty(self) -> bool {
        self == Self::default()
    }
    /// Calls `f` with each of its cells, in index order.
    fn for_each(self, f: impl FnMut(Cell));
}

impl<const L: usize> CellSet for Bitboard<L> {
    #[inline]
    fn single(c: Cell) -> Self {
        Bitboard::from_cell(c)
    }
    #[inline]
    fn count(self) -> u32 {
        Bitboard::count(self)
    }
    #[inline]
    fn has(self, c: Cell) -> bool {
        Bitboard::has(self, c)
    }
    #[inline]
    fn is_empty(self) -> bool {
        Bitboard::is_empty(self)
    }
    #[inline]
    fn for_each(self, mut f: impl FnMut(Cell)) {
        for (l, &w) in self.0.iter().enumerate() {
            let mut w = w;
            while w != 0 {
                f(Cell::from_index(l * 64 + w.trailing_zeros() as usize));
                w &= w - 1;
            }
        }
    }
}
