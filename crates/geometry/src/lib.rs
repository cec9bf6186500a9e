//! Geometry of stacked 8×8 boards: cells, directions, bitboards and attack tables.
//!
//! This crate knows nothing of pieces or rules. A board has `L` levels (1 to 4);
//! cell index = `level * 64 + rank * 8 + file`.

mod bitboard;
mod cell;
mod dir;
mod magic;
/// The magic-number search, shared with the build script (which runs it and fills the tables);
/// here only the tests use it, to check the tables.
#[cfg(test)]
#[allow(dead_code)]
mod magic_search;
mod rays;
mod shift;
mod table;

pub use bitboard::{Bitboard, Cells};
pub use cell::{Cell, ParseCellError, MAX_LEVELS};
pub use dir::{king_dirs, knight_leaps, ride_plane, Dir, DirGroup, GroupSet};
pub use magic::{bishop_plane, rook_plane};
pub use rays::Rays;
pub use shift::Shift;
pub use table::CellTable;
