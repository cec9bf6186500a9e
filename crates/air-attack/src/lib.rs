//! Air Attack Chess (RULES.md §2): two levels, the standard array on level 1, and the
//! transfer move: a piece goes straight up or down to its transfer cell T, then acts there
//! by the transfer table (capture on T ends the move; queen, rook and bishop slide on up to
//! four cells, the king one, a pawn in home position one step or diagonal capture; the knight
//! ignores T and must leap on).
//!
//! Readings of cases RULES.md leaves implicit (each follows from its text; none changes a count
//! it gives):
//! - Transfers keep file and rank, so no transfer ever reaches a promotion rank; the generator
//!   still attaches the four promotions to any pawn move that ends on one.
//! - A pawn in home position is one on its home rank on level 1; back there after two
//!   transfers, it may double-step and step or capture on after a transfer again.
//! - Castling needs only the cells between king and rook on level 1 empty; pieces on level 2
//!   above them do not block, but their attacks (transfer captures included) count.
//! - En passant is a normal move, so only a pawn on the same level takes it; the en-passant cell
//!   enters the hash only when such a pawn stands ready.
//! - The diagonal capture a home-position pawn may make from its transfer cell is an attack
//!   like any other (a black pawn on 1d7 attacks 2c6 and 2e6 while 2d7 is empty).
//!
//! The rules are data ([`Rules`], [`TransferRules`]); [`Tables`] are built from them once;
//! [`Board`] implements [`Position`](stackchess_core::Position).
//!
//! ```
//! use stackchess_core::Position;
//! assert_eq!(stackchess_air_attack::startpos().count_legal_moves(), 99);
//! ```

mod attacks;
mod board;
mod lfen;
mod movegen;
mod rules;
mod tables;

pub use board::Board;
pub use rules::{Rules, TransferRules, AIR_ATTACK, START};
pub use tables::{Tables, LEVELS};

/// The evaluation preset, as a parameter file (the format of `--params`).
pub const EVAL_PARAMS: &str = include_str!("../air-attack.params");

/// The workload of `stackchess bench`: a `depth = N` line and bench positions, one LFEN a line.
pub const BENCH: &str = include_str!("../air-attack.bench");

use stackchess_core::Rules as _;
use std::sync::OnceLock;

/// The Air Attack rules of RULES.md (built once).
#[must_use]
pub fn rules() -> &'static Tables {
    static T: OnceLock<&'static Tables> = OnceLock::new();
    T.get_or_init(|| Box::leak(Box::new(Tables::new(AIR_ATTACK))))
}

/// The Air Attack start position.
#[must_use]
pub fn startpos() -> AirAttack {
    rules().startpos()
}

/// An Air Attack position.
pub type AirAttack = Board;
