//! Air Attack Chess: the standard array on level 1 of two levels; any piece may transfer straight
//! up or down to its transfer cell and go on there with half its range (the knight must leap on,
//! whatever stands on the cell). The rules are the file `air-attack.toml` (docs/rule-files.md,
//! `[transfer]`); docs/rules.md explains every reading.
//!
//! ```
//! use stackchess_core::Position;
//! assert_eq!(stackchess_air_attack::startpos().count_legal_moves(), 99);
//! ```

use stackchess_board::{Board, Tables};

use stackchess_core::Rules as _;
use stackchess_rules::RuleSet;
use std::sync::OnceLock;

/// The rule file.
pub const RULES: &str = include_str!("../air-attack.toml");

/// The evaluation preset, as a parameter file (the format of `--params`).
pub const EVAL_PARAMS: &str = include_str!("../air-attack.params");

/// The default evaluation's net: `air-attack.nnue`, a residual net over [`EVAL_PARAMS`] that beat
/// them at equal time (how it was trained and measured: data/nets/README.md).
pub const NET: Option<&[u8]> = Some(include_bytes!("../air-attack.nnue"));

/// The workload of `stackchess bench`: a `depth = N` line and bench positions, one LFEN a line.
pub const BENCH: &str = include_str!("../air-attack.bench");

/// The Air Attack start position.
pub const START: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR|8/8/8/8/8/8/8/8 w KQkq - 0 1";

/// The Air Attack rule set, read from [`RULES`].
///
/// # Panics
/// Never: the file is checked by this crate's tests.
#[must_use]
pub fn rule_set() -> RuleSet {
    RuleSet::parse(RULES, &|_| None).expect("air-attack.toml is a valid rule file")
}

/// The Air Attack rules (compiled once).
///
/// # Panics
/// Never: the file is checked by this crate's tests.
#[must_use]
pub fn rules() -> &'static Tables<2> {
    static T: OnceLock<&'static Tables<2>> = OnceLock::new();
    T.get_or_init(|| stackchess_board::compile(rule_set()).expect("air-attack.toml compiles"))
}

/// The Air Attack start position.
#[must_use]
pub fn startpos() -> AirAttack {
    rules().startpos()
}

/// An Air Attack position.
pub type AirAttack = Board<2>;
