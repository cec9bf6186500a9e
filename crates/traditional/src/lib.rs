//! Nardeshir 3D chess, Traditional rule set (sliding queen, double step, en passant, free
//! promotion), and `fide`: the same rules on a single level, which is standard chess.

use stackchess_nardeshir::{Board, RuleSet, Tables, Variant};
use std::sync::OnceLock;

/// The Nardeshir start position: White on level 1, Black on level 3.
pub const START: &str = "8/8/8/8/8/8/PPPPPPPP/RNBQKBNR|8/8/8/8/8/8/8/8|rnbqkbnr/pppppppp/8/8/8/8/8/8 w KQkq - 0 1";

/// The standard chess start position.
pub const FIDE_START: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

/// The Traditional rule set as data.
#[must_use]
pub fn rules() -> RuleSet {
    RuleSet::nardeshir("traditional", 3, false, START)
}

/// Standard chess: the Traditional rule set on one level.
#[must_use]
pub fn fide_rules() -> RuleSet {
    RuleSet::nardeshir("fide", 1, false, FIDE_START)
}

/// Marker type of the Traditional rule set.
#[derive(Clone, Copy, Debug, Default)]
pub struct TraditionalRules;

impl Variant<3> for TraditionalRules {
    fn tables() -> &'static Tables<3> {
        static T: OnceLock<Tables<3>> = OnceLock::new();
        T.get_or_init(|| Tables::new(rules()))
    }
}

/// Marker type of standard chess.
#[derive(Clone, Copy, Debug, Default)]
pub struct FideRules;

impl Variant<1> for FideRules {
    fn tables() -> &'static Tables<1> {
        static T: OnceLock<Tables<1>> = OnceLock::new();
        T.get_or_init(|| Tables::new(fide_rules()))
    }
}

/// A Traditional position.
pub type Traditional = Board<3, TraditionalRules>;

/// A standard chess position.
pub type Fide = Board<1, FideRules>;
