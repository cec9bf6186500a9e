//! The one board of stackchess: a position on 1 to 4 stacked 8×8 levels, and its legal move
//! generator, compiled from a rule set.
//!
//! [`Tables`] compiles a [`RuleSet`](stackchess_rules::RuleSet) into bitboard tables once;
//! `&'static Tables<L>` is the rule set's handle ([`stackchess_core::Rules`]) and [`Board`] is
//! the [`Position`](stackchess_core::Position). Every rule is read from the tables: direction
//! groups and ranges per piece, pawn vectors, double step, en passant, promotion, castling, draw
//! rules and Air Attack's transfers. The rule crates (malka, traditional, air-attack) hold only
//! their rule files and tests.

mod board;
mod general;
mod lfen;
mod movegen;
mod pawns;
mod placement;
mod sink;
mod tables;

pub use board::Board;
pub use placement::Placement;
pub use tables::Tables;

use stackchess_rules::{RuleError, RuleSet};

/// Compiles a rule set for its level count and checks its start position: the side not to move
/// must not be in check (`board`).
///
/// # Errors
/// The rule set's start position is not a position (a king attacked before White's first move).
pub fn compile<const L: usize>(rules: RuleSet) -> Result<&'static Tables<L>, RuleError> {
    let t = Tables::<L>::leak(rules);
    crate::lfen::parse(t, &t.start).map_err(|e| RuleError::new("board", None, format!("the start position: {e}")))?;
    Ok(t)
}
