//! The vocabulary shared by every variant, and algorithms written once over [`Position`].
//!
//! `core` names no concrete variant: rule crates implement [`Position`], and everything
//! here (perft, notation, game history and outcome) works for all of them.

mod by;
mod cells;
mod diagram;
mod error;
mod game;
mod lfen;
mod mirror;
mod mv;
mod notation;
mod perft_suite;
mod piece;
mod position;
mod zobrist;

pub use by::{ByColor, ByRole, RoleSet, RoleSetIter};
pub use cells::CellSet;
pub use diagram::diagram;
pub use error::{IllegalMove, LfenError, LfenField, ParseMoveError};
pub use game::{outcome_in_game, repetition_window, repetitions, Game};
pub use lfen::{parse_placement, split_lfen, write_lfen, LfenFields, LfenState};
pub use mirror::Mirror;
pub use mv::{Move, MoveKind, MoveList, MAX_MOVES};
pub use notation::{coord, parse_coord, parse_move, parse_san, san, san_line};
pub use perft_suite::{check_perft_file, parse_perft_file, PerftEntry};
pub use piece::{Castling, Color, Piece, Role};

pub use position::{perft_divide, DrawRules, Outcome, Position, Rules, StalemateValue, Termination};
pub use stackchess_geometry::{Bitboard, Cell};
pub use zobrist::SplitMix64;
