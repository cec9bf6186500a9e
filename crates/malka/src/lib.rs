//! Nardeshir 3D chess, Malka rule set (the default variant): three levels, a queen that steps
//! one cell in any of the 26 directions, single-step pawns with no en passant, and promotion only
//! to a kind the mover has lost. The rules are the file `malka.toml` (docs/rule-files.md), read as
//! they are here; docs/rules.md explains every reading.
//!
//! ```
//! use stackchess_core::Position;
//! assert_eq!(stackchess_malka::startpos().count_legal_moves(), 70);
//! ```

use stackchess_board::{Board, Tables};
use stackchess_core::Rules as _;
use stackchess_rules::RuleSet;
use std::sync::OnceLock;

/// The rule file.
pub const RULES: &str = include_str!("../malka.toml");

/// The evaluation preset, as a parameter file (the format of `--params`).
pub const EVAL_PARAMS: &str = include_str!("../malka.params");

/// The default evaluation's net: `malka.nnue`, a residual net over [`EVAL_PARAMS`] that beat
/// them at equal time (how it was trained and measured: data/nets/README.md).
pub const NET: Option<&[u8]> = Some(include_bytes!("../malka.nnue"));

/// The workload of `stackchess bench`: a `depth = N` line and bench positions, one LFEN a line.
pub const BENCH: &str = include_str!("../malka.bench");

/// The Malka rule set, read from [`RULES`].
///
/// # Panics
/// Never: the file is checked by this crate's tests.
#[must_use]
pub fn rule_set() -> RuleSet {
    RuleSet::parse(RULES, &|_| None).expect("malka.toml is a valid rule file")
}

/// The Malka rules (compiled once).
///
/// # Panics
/// Never: the file is checked by this crate's tests.
#[must_use]
pub fn rules() -> &'static Tables<3> {
    static T: OnceLock<&'static Tables<3>> = OnceLock::new();
    T.get_or_init(|| stackchess_board::compile(rule_set()).expect("malka.toml compiles"))
}

/// The Malka start position.
#[must_use]
pub fn startpos() -> Malka {
    rules().startpos()
}

/// A Malka position.
pub type Malka = Board<3>;
