//! Cells and vectors: what the builders of the tables share.

use stackchess_geometry::{Bitboard, Cell, CellTable, Dir};
use stackchess_rules::Movement;

/// The cell on `file`, `rank` and `level`.
pub(super) fn cell<const L: usize>(file: usize, rank: usize, level: usize) -> Cell {
    Cell::from_index(level * 64 + rank * 8 + file)
}

/// The cells one `d` away from each cell.
pub(super) fn leap_table<const L: usize>(dirs: &[Dir]) -> CellTable<Bitboard<L>> {
    CellTable::from_fn(64 * L, |c| dirs.iter().filter_map(|&d| c.offset(d, L)).collect())
}

/// The vectors of a movement's range-1 groups.
pub(super) fn step_vectors(m: &Movement) -> Vec<Dir> {
    m.0.iter().filter(|(_, r)| r.get() == 1).flat_map(|(g, _)| g.vectors()).collect()
}
