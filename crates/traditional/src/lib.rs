//! Nardeshir 3D chess, Traditional rule set (sliding queen, double step, en passant, free
//! promotion), and `fide`: the same rules on a single level, which is standard chess.

use stackchess_core::Rules;
use stackchess_nardeshir::{Board, RuleSet, Tables};
use std::sync::OnceLock;

/// The Nardeshir start position: White on level 1, Black on level 3.
pub const START: &str = "8/8/8/8/8/8/PPPPPPPP/RNBQKBNR|8/8/8/8/8/8/8/8|rnbqkbnr/pppppppp/8/8/8/8/8/8 w KQkq - 0 1";

/// The standard chess start position.
pub const FIDE_START: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

/// The evaluation presets of Traditional and of standard chess, as parameter files (the format of `--params`).
pub const EVAL_PARAMS: &str = include_str!("../traditional.params");
/// See [`EVAL_PARAMS`].
pub const FIDE_EVAL_PARAMS: &str = include_str!("../fide.params");

/// The workloads of `stackchess bench`: a `depth = N` line and bench positions, one LFEN a line.
pub const BENCH: &str = include_str!("../traditional.bench");
/// See [`BENCH`].
pub const FIDE_BENCH: &str = include_str!("../fide.bench");

/// The Traditional rule set as data.
#[must_use]
pub fn rule_set() -> RuleSet {
    RuleSet::nardeshir("traditional", 3, false, START)
}

/// Standard chess as data: the Traditional rule set on one level.
#[must_use]
pub fn fide_rule_set() -> RuleSet {
    RuleSet::nardeshir("fide", 1, false, FIDE_START)
}

/// The Traditional rules (built once).
#[must_use]
pub fn rules() -> &'static Tables<3> {
    static T: OnceLock<&'static Tables<3>> = OnceLock::new();
    T.get_or_init(|| Tables::leak(rule_set()))
}

/// The rules of standard chess (built once).
#[must_use]
pub fn fide_rules() -> &'static Tables<1> {
    static T: OnceLock<&'static Tables<1>> = OnceLock::new();
    T.get_or_init(|| Tables::leak(fide_rule_set()))
}

/// The Traditional start position.
#[must_use]
pub fn startpos() -> Traditional {
    rules().startpos()
}

/// The standard chess start position.
#[must_use]
pub fn fide_startpos() -> Fide {
    fide_rules().startpos()
}

/// A Traditional position.
pub type Traditional = Board<3>;

/// A standard chess position.
pub type Fide = Board<1>;
