//! One move generator for every level count, driven by a [`RuleSet`].
//!
//! A rule set is plain data (direction groups and leaps per piece, pawn vectors,
//! double step, promotion policy, start position). [`Tables`] turns it into bitboard
//! tables once; [`Board`] is a [`Position`](stackchess_core::Position) over them.
//! The Malka, Traditional and fide rule crates are thin: they supply the data.

mod board;
mod lfen;
mod movegen;
mod rules;
mod tables;

pub use board::Board;
pub use rules::{Movement, PawnRules, Promotion, RuleSet};
pub use tables::Tables;
