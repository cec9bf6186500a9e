//! Nardeshir 3D chess, Traditional rule set (sliding queen, double step, en passant, free
//! promotion), and `fide`: standard chess, the one-level case of the same generator. The rules
//! are the files `traditional.toml` and `fide.toml` (docs/rule-files.md); docs/rules.md explains
//! every reading.
//!
//! ```
//! use stackchess_core::Position;
//! assert_eq!(stackchess_traditional::startpos().count_legal_moves(), 100);
//! assert_eq!(stackchess_traditional::fide_startpos().perft(3), 8902);
//! ```

use stackchess_board::{Board, Tables};
use stackchess_core::Rules as _;
use stackchess_rules::RuleSet;
use std::sync::OnceLock;

/// The Traditional rule file.
pub const RULES: &str = include_str!("../traditional.toml");

/// The rule file of standard chess.
pub const FIDE_RULES: &str = include_str!("../fide.toml");

/// The evaluation presets of Traditional and of standard chess, as parameter files (the format of `--params`).
pub const EVAL_PARAMS: &str = include_str!("../traditional.params");
/// See [`EVAL_PARAMS`].
pub const FIDE_EVAL_PARAMS: &str = include_str!("../fide.params");

/// The default evaluation's nets of Traditional and of standard chess (`stackchess train`), where
/// the rule set ships one that won its match at equal time against the best linear evaluation
/// (data/nets/README.md); `None`: the linear one. Traditional's: `traditional.nnue`, a residual net
/// over [`EVAL_PARAMS`].
pub const NET: Option<&[u8]> = Some(include_bytes!("../traditional.nnue"));
/// Standard chess's: `fide.nnue`, a residual net over [`FIDE_EVAL_PARAMS`].
pub const FIDE_NET: Option<&[u8]> = Some(include_bytes!("../fide.nnue"));

/// The workloads of `stackchess bench`: a `depth = N` line and bench positions, one LFEN a line.
pub const BENCH: &str = include_str!("../traditional.bench");
/// See [`BENCH`].
pub const FIDE_BENCH: &str = include_str!("../fide.bench");

/// The Traditional rule set, read from [`RULES`].
///
/// # Panics
/// Never: the file is checked by this crate's tests.
#[must_use]
pub fn rule_set() -> RuleSet {
    RuleSet::parse(RULES, &|_| None).expect("traditional.toml is a valid rule file")
}

/// Standard chess, read from [`FIDE_RULES`].
///
/// # Panics
/// Never: the file is checked by this crate's tests.
#[must_use]
pub fn fide_rule_set() -> RuleSet {
    RuleSet::parse(FIDE_RULES, &|_| None).expect("fide.toml is a valid rule file")
}

/// The Traditional rules (compiled once).
///
/// # Panics
/// Never: the file is checked by this crate's tests.
#[must_use]
pub fn rules() -> &'static Tables<3> {
    static T: OnceLock<&'static Tables<3>> = OnceLock::new();
    T.get_or_init(|| stackchess_board::compile(rule_set()).expect("traditional.toml compiles"))
}

/// The rules of standard chess (compiled once).
///
/// # Panics
/// Never: the file is checked by this crate's tests.
#[must_use]
pub fn fide_rules() -> &'static Tables<1> {
    static T: OnceLock<&'static Tables<1>> = OnceLock::new();
    T.get_or_init(|| stackchess_board::compile(fide_rule_set()).expect("fide.toml compiles"))
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
