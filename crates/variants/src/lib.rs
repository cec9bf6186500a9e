//! The variant facade: the one place a variant is chosen at run time.
//!
//! Code below this crate is generic over [`Position`]; callers pick a [`Variant`] and
//! pass a [`WithPosition`] visitor, which is monomorphised once per variant.

pub mod custom;

use stackchess_core::Position;
use std::fmt;
use std::str::FromStr;

pub use stackchess_air_attack::{self as air_attack, AirAttack};
pub use stackchess_malka::{self as malka, Malka};
pub use stackchess_traditional::{self as traditional, Fide, Traditional};

/// A rule set, chosen at run time: a built-in variant, or one loaded from a rule file.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
pub enum Variant {
    /// Nardeshir, Malka rule set (the default).
    #[default]
    Malka,
    /// Nardeshir, Traditional rule set.
    Traditional,
    /// Standard chess.
    Fide,
    /// Air Attack Chess: two levels and the transfer move.
    AirAttack,
    /// A user-defined rule set ([`custom`]).
    Custom(Custom),
}

/// A loaded user-defined rule set: a handle that compares by identity.
#[derive(Clone, Copy)]
pub struct Custom(&'static custom::Loaded);

impl PartialEq for Custom {
    fn eq(&self, o: &Self) -> bool {
        std::ptr::eq(self.0, o.0)
    }
}
impl Eq for Custom {}
impl std::hash::Hash for Custom {
    fn hash<H: std::hash::Hasher>(&self, h: &mut H) {
        std::ptr::hash(self.0, h);
    }
}
impl fmt::Debug for Custom {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Custom({})", self.0.tables.rules.name)
    }
}

impl Variant {
    /// Every built-in variant.
    pub const ALL: [Variant; 4] = [Variant::Malka, Variant::Traditional, Variant::Fide, Variant::AirAttack];

    /// The name used on the command line and in records.
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            Variant::Malka => "malka",
            Variant::Traditional => "traditional",
            Variant::Fide => "fide",
            Variant::AirAttack => "air-attack",
            Variant::Custom(c) => c.0.tables.rules.name,
        }
    }

    /// Number of levels.
    #[must_use]
    pub const fn levels(self) -> usize {
        match self {
            Variant::Malka | Variant::Traditional | Variant::Custom(_) => 3,
            Variant::Fide => 1,
            Variant::AirAttack => 2,
        }
    }

    /// The built-in rule set a user-defined one changes (its evaluation preset is the nearest
    /// this one has); a built-in variant is its own base.
    #[must_use]
    pub fn base(self) -> Variant {
        match self {
            Variant::Custom(c) if c.0.base == "traditional" => Variant::Traditional,
            Variant::Custom(_) => Variant::Malka,
            v => v,
        }
    }

    /// The rule set's own evaluation preset, as a parameter file (the format of `--params`, read
    /// by `stackchess_search::EvalParams::parse`). `None` for a user-defined rule set: it has no
    /// preset of its own (tune one, or play its [`Variant::base`]'s, saying so).
    #[must_use]
    pub fn eval_params(self) -> Option<&'static str> {
        match self {
            Variant::Malka => Some(stackchess_malka::EVAL_PARAMS),
            Variant::Traditional => Some(stackchess_traditional::EVAL_PARAMS),
            Variant::Fide => Some(stackchess_traditional::FIDE_EVAL_PARAMS),
            Variant::AirAttack => Some(stackchess_air_attack::EVAL_PARAMS),
            Variant::Custom(_) => None,
        }
    }

    /// The workload of `stackchess bench` (read by `stackchess_search::Bench::parse`); `None` for
    /// a user-defined rule set.
    #[must_use]
    pub fn bench(self) -> Option<&'static str> {
        match self {
            Variant::Malka => Some(stackchess_malka::BENCH),
            Variant::Traditional => Some(stackchess_traditional::BENCH),
            Variant::Fide => Some(stackchess_traditional::FIDE_BENCH),
            Variant::AirAttack => Some(stackchess_air_attack::BENCH),
            Variant::Custom(_) => None,
        }
    }

    /// The rule set's id: 16 hexadecimal digits that change whenever its effective rules change
    /// (see docs/rule-files.md). Results are keyed by it (tuned parameters, records, books).
    #[must_use]
    pub fn rules_id(self) -> String {
        // FNV-1a over the rule data's full description: every rule is in it, the name is not.
        let text = match self {
            Variant::Malka => format!("{:?}", stackchess_malka::rule_set().without_name()),
            Variant::Traditional => format!("{:?}", stackchess_traditional::rule_set().without_name()),
            Variant::Fide => format!("{:?}", stackchess_traditional::fide_rule_set().without_name()),
            Variant::AirAttack => format!("{:?}", stackchess_air_attack::AIR_ATTACK.transfer),
            Variant::Custom(c) => format!("{:?}", c.0.tables.rules.without_name()),
        };
        let mut h: u64 = 0xcbf2_9ce4_8422_2325;
        for b in text.bytes() {
            h = (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3);
        }
        format!("{h:016x}")
    }

    /// Reads a user-defined rule set ([`custom`]) from `path` and loads it.
    ///
    /// # Errors
    /// An unreadable file or a bad spec, naming the file (and line).
    pub fn load_rules(path: &std::path::Path) -> Result<Variant, VariantError> {
        let err = |message: String| VariantError::Rules { path: path.display().to_string(), message };
        let text = std::fs::read_to_string(path).map_err(|e| err(e.to_string()))?;
        let loaded = custom::install(custom::parse_spec(&text).map_err(err)?).map_err(err)?;
        Ok(Variant::Custom(Custom(loaded)))
    }

    /// Calls `f` with this variant's position type and rules.
    pub fn with<F: WithPosition>(self, f: F) -> F::Output {
        match self {
            Variant::Malka => f.call::<Malka>(stackchess_malka::rules()),
            Variant::Traditional => f.call::<Traditional>(stackchess_traditional::rules()),
            Variant::Fide => f.call::<Fide>(stackchess_traditional::fide_rules()),
            Variant::AirAttack => f.call::<AirAttack>(stackchess_air_attack::rules()),
            Variant::Custom(c) => f.call::<Malka>(c.0.tables),
        }
    }
}

/// Code to run for a variant chosen at run time, generic over its position type.
pub trait WithPosition {
    /// What it returns.
    type Output;
    /// Runs with the position type `P` under `rules`.
    fn call<P: Position>(self, rules: P::Rules) -> Self::Output;
}

impl fmt::Display for Variant {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A variant that cannot be had: an unknown name, or a bad rule-set file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum VariantError {
    /// No built-in or loaded variant has this name.
    Unknown(String),
    /// A `rules:FILE` that could not be read or is not a valid rule set.
    Rules {
        /// The file.
        path: String,
        /// What is wrong (with the line, where there is one).
        message: String,
    },
}

impl fmt::Display for VariantError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            VariantError::Unknown(name) => {
                let names: Vec<_> = Variant::ALL.iter().map(|v| v.name()).collect();
                write!(
                    f,
                    "unknown variant '{name}' (expected one of: {}, or rules:FILE for a user-defined rule set)",
                    names.join(", ")
                )
            }
            VariantError::Rules { path, message } => write!(f, "rule set {path}: {message}"),
        }
    }
}

impl std::error::Error for VariantError {}

impl FromStr for Variant {
    type Err = VariantError;
    /// A built-in name, or the name of a loaded rule set (loading one is [`VariantArg::load`]).
    fn from_str(s: &str) -> Result<Variant, VariantError> {
        if let Some(v) = Variant::ALL.into_iter().find(|v| v.name().eq_ignore_ascii_case(s)) {
            return Ok(v);
        }
        custom::find(s).map(|l| Variant::Custom(Custom(l))).ok_or_else(|| VariantError::Unknown(s.to_owned()))
    }
}

/// A variant as given on the command line: a name, or `rules:FILE`. Parsing reads nothing;
/// [`VariantArg::load`] is the explicit step that reads and loads a rule file.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct VariantArg(String);

impl VariantArg {
    /// The variant: a built-in or loaded one by name, or the rule file loaded.
    ///
    /// # Errors
    /// An unknown name, or an unreadable or bad rule file.
    pub fn load(&self) -> Result<Variant, VariantError> {
        match self.0.strip_prefix("rules:") {
            Some(path) => Variant::load_rules(std::path::Path::new(path)),
            None => self.0.parse(),
        }
    }

    /// The text given.
    #[must_use]
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl FromStr for VariantArg {
    type Err = VariantError;
    /// Any `rules:FILE` (read later, by [`VariantArg::load`]) or a non-empty name.
    fn from_str(s: &str) -> Result<VariantArg, VariantError> {
        if s.trim().is_empty() || s == "rules:" {
            return Err(VariantError::Unknown(s.to_owned()));
        }
        Ok(VariantArg(s.trim().to_owned()))
    }
}

impl Default for VariantArg {
    fn default() -> Self {
        VariantArg("malka".to_owned())
    }
}

impl fmt::Display for VariantArg {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    struct Start;
    impl WithPosition for Start {
        type Output = String;
        fn call<P: Position>(self, rules: P::Rules) -> String {
            use stackchess_core::Rules as _;
            rules.startpos().to_lfen()
        }
    }

    #[test]
    fn names_round_trip_and_dispatch() {
        for v in Variant::ALL {
            assert_eq!(v.name().parse::<Variant>(), Ok(v));
            assert_eq!(v.with(Start).split('|').count(), v.levels());
        }
        assert!("chess".parse::<Variant>().unwrap_err().to_string().contains("malka"));
    }
}
