//! Air Attack Chess (RULES.md §2): two levels, the standard array on level 1, and the
//! transfer move: a piece goes straight up or down to its transfer cell T, then acts there
//! by the transfer table (capture on T ends the move; queen, rook and bishop slide on up to
//! four cells, the king one, a pawn in home position one step or diagonal capture; the knight
//! ignores T and must leap on).
//!
//! The rules are data ([`Rules`], [`TransferRules`]); [`Tables`] are built from them once;
//! [`Board`] implements [`Position`](stackchess_core::Position).
//!
//! ```
//! use stackchess_air_attack::AirAttack;
//! use stackchess_core::Position;
//! assert_eq!(AirAttack::startpos().count_legal_moves(), 99);
//! ```

mod attacks;
mod board;
mod lfen;
mod movegen;
mod rules;
mod tables;

pub use board::{AirRules, Board};
pub use rules::{Rules, TransferRules, AIR_ATTACK, START};
pub use tables::{Tables, LEVELS};

use std::sync::OnceLock;

/// Marker type of the Air Attack rule set of RULES.md.
#[derive(Clone, Copy, Debug, Default)]
pub struct AirAttackRules;

impl AirRules for AirAttackRules {
    fn tables() -> &'static Tables {
        static T: OnceLock<Tables> = OnceLock::new();
        T.get_or_init(|| Tables::new(AIR_ATTACK))
    }
}

/// An Air Attack position.
pub type AirAttack = Board<AirAttackRules>;
