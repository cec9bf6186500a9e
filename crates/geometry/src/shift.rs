//! Moving a whole set of cells by one vector: set-wise pawn moves.

use crate::{Bitboard, Dir};

/// A vector `(df, dr, dl)` compiled for shifting bitboards: every cell of a set moves by it at
/// once, and cells whose target is off the board drop out.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shift {
    /// The in-plane index change, `df + 8 * dr`.
    plane: i8,
    /// The plane squares whose target stays on the plane.
    keep: u64,
    /// The level change.
    dl: i8,
}

impl Shift {
    /// The shift by `d`.
    #[must_use]
    pub fn new(d: Dir) -> Shift {
        let keep = (0..64u32)
            .filter(|s| {
                let (f, r) = (s % 8, s / 8);
                #[allow(clippy::cast_possible_wrap)]
                let (f, r) = (f as i32 + i32::from(d.df), r as i32 + i32::from(d.dr));
                (0..8).contains(&f) && (0..8).contains(&r)
            })
            .fold(0u64, |b, s| b | 1 << s);
        // With no square kept the shift amount is never used; 0 keeps it in range.
        let plane = if keep == 0 { 0 } else { d.df + 8 * d.dr };
        Shift { plane, keep, dl: d.dl }
    }

    /// Whether the vector stays on its level.
    #[inline]
    #[must_use]
    pub fn planar(&self) -> bool {
        self.dl == 0
    }

    /// The cells of `b` moved by the vector (those that would leave the board dropped).
    #[inline]
    #[must_use]
    pub fn apply<const L: usize>(&self, b: Bitboard<L>) -> Bitboard<L> {
        let mut r = Bitboard::EMPTY;
        for (lt, out) in r.0.iter_mut().enumerate() {
            #[allow(clippy::cast_possible_wrap)]
            let ls = lt as isize - self.dl as isize;
            if ls < 0 || ls >= L as isize {
                continue;
            }
            #[allow(clippy::cast_sign_loss)]
            let w = b.0[ls as usize] & self.keep;
            *out = if self.plane >= 0 { w << self.plane } else { w >> -self.plane };
        }
        r
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Cell;

    /// Shifting a set equals moving each of its cells with [`Cell::offset`].
    #[test]
    fn shift_equals_cell_offsets() {
        let dirs = [(0, 1, 0), (0, -1, 0), (1, 1, 0), (-1, 1, 1), (0, 0, -1), (2, -1, 1), (-1, -1, -1), (0, 2, 0)];
        let mut seed = 0x1234_5678_u64;
        for (df, dr, dl) in dirs {
            let d = Dir::new(df, dr, dl);
            let s = Shift::new(d);
            for _ in 0..50 {
                seed = seed.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1_442_695_040_888_963_407);
                let b = Bitboard::<3>([seed, seed.rotate_left(21), seed.rotate_left(43)]);
                let expect: Bitboard<3> = b.cells().filter_map(|c: Cell| c.offset(d, 3)).collect();
                assert_eq!(s.apply(b), expect, "vector {d:?}");
            }
        }
    }
}
