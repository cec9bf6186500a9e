//! Per-cell tables indexed without bounds checks.

use crate::{Cell, MAX_LEVELS};
use std::ops::Index;

/// One value per cell of a board of up to [`MAX_LEVELS`] levels, in a fixed array of 256 held
/// inline: a cell's index is a `u8`, so every lookup is in bounds by construction (no bounds
/// check, no length or pointer to load first). Cells beyond the board hold `T::default()`.
#[derive(Clone)]
pub struct CellTable<T>([T; 256]);

impl<T> std::fmt::Debug for CellTable<T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("CellTable")
    }
}

impl<T: Copy + Default> CellTable<T> {
    /// The table holding `f(cell)` for the first `cells` cells (`cells <= 256`).
    ///
    /// # Panics
    /// When `cells > 256`.
    #[must_use]
    pub fn from_fn(cells: usize, mut f: impl FnMut(Cell) -> T) -> Self {
        assert!(cells <= 64 * MAX_LEVELS, "at most {} cells", 64 * MAX_LEVELS);
        let mut t = [T::default(); 256];
        for (i, x) in t.iter_mut().enumerate().take(cells) {
            *x = f(Cell::from_index(i));
        }
        CellTable(t)
    }
}

impl<T: Copy + Default> Default for CellTable<T> {
    fn default() -> Self {
        CellTable::from_fn(0, |_| T::default())
    }
}

impl<T> Index<Cell> for CellTable<T> {
    type Output = T;
    #[inline]
    fn index(&self, c: Cell) -> &T {
        &self.0[c.index()]
    }
}
