//! Sets of cells as a position's board holds them, for code generic over [`crate::Position`]
//! (the evaluation's mobility and king safety).

use crate::{Bitboard, Cell};
use std::ops::{BitAnd, BitOr, Not};

/// A set of cells of one board shape (the board's own bitboard).
pub trait CellSet:
    Copy + Default + PartialEq + Send + Sync + std::fmt::Debug + BitAnd<Output = Self> + BitOr<Output = Self> + Not<Output = Self>
{
    /// The set of `c` alone.
    fn single(c: Cell) -> Self;
    /// Its number of cells.
    fn count(self) -> u32;
    /// Whether `c` is in it.
    fn has(self, c: Cell) -> bool;
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
}
