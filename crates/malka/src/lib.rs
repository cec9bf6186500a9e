//! Nardeshir 3D chess, Malka rule set (the default variant): three levels, a queen that
//! steps one cell in any of the 26 directions, single-step pawns with no en passant, and
//! promotion only to a kind the mover has lost.

use stackchess_core::Rules;
use stackchess_nardeshir::{Board, RuleSet, Tables};
use std::sync::OnceLock;

/// The Nardeshir start position: White on level 1, Black on level 3.
pub const START: &str = "8/8/8/8/8/8/PPPPPPPP/RNBQKBNR|8/8/8/8/8/8/8/8|rnbqkbnr/pppppppp/8/8/8/8/8/8 w KQkq - 0 1";

/// The evaluation preset, as a parameter file (the format of `--params`).
pub const EVAL_PARAMS: &str = include_str!("../malka.params");

/// The workload of `stackchess bench`: a `depth = N` line and bench positions, one LFEN a line.
pub const BENCH: &str = include_str!("../malka.bench");

/// The Malka rule set as data.
#[must_use]
pub fn rule_set() -> RuleSet {
    RuleSet::nardeshir("malka", 3, true, START)
}

/// The Malka rules (built once).
#[must_use]
pub fn rules() -> &'static Tables<3> {
    static T: OnceLock<&'static Tables<3>> = OnceLock::new();
    T.get_or_init(|| Tables::leak(rule_set()))
}

/// The Malka start position.
#[must_use]
pub fn startpos() -> Malka {
    rules().startpos()
}

/// A Malka position.
pub type Malka = Board<3>;
