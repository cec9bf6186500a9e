//! The variant facade: the one place a rule set is chosen at run time.
//!
//! A [`Variant`] is a built-in rule set (malka, traditional, fide, air-attack) or one loaded from
//! a rule file (docs/rule-files.md); any number can be loaded in one process. Code below this
//! crate is generic over [`Position`]: callers pick a [`Variant`] and pass a [`WithPosition`]
//! visitor, which is monomorphised once per board shape (the level count) and receives the rule
//! set's handle.

mod loaded;

use stackchess_core::{Position, Rules};
use stackchess_rules::RuleSet;
use std::fmt;
use std::path::Path;
use std::str::FromStr;

pub use loaded::Loaded;
pub use stackchess_air_attack::{self as air_attack, AirAttack};
pub use stackchess_malka::{self as malka, Malka};
pub use stackchess_rules::RuleError;
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
    /// A rule set loaded from a rule file.
    Loaded(Loaded),
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
            Variant::Loaded(l) => l.name(),
        }
    }

    /// The text of a built-in rule file by name (the `base` of a rule file).
    #[must_use]
    pub fn builtin_rules(name: &str) -> Option<&'static str> {
        match name {
            "malka" => Some(stackchess_malka::RULES),
            "traditional" => Some(stackchess_traditional::RULES),
            "fide" => Some(stackchess_traditional::FIDE_RULES),
            "air-attack" => Some(stackchess_air_attack::RULES),
            _ => None,
        }
    }

    /// The effective rules.
    #[must_use]
    pub fn rule_set(self) -> RuleSet {
        match self {
            Variant::Malka => stackchess_malka::rules().rules.clone(),
            Variant::Traditional => stackchess_traditional::rules().rules.clone(),
            Variant::Fide => stackchess_traditional::fide_rules().rules.clone(),
            Variant::AirAttack => stackchess_air_attack::rules().rules.clone(),
            Variant::Loaded(l) => l.rule_set().clone(),
        }
    }

    /// Number of levels.
    #[must_use]
    pub fn levels(self) -> usize {
        match self {
            Variant::Malka | Variant::Traditional => 3,
            Variant::Fide => 1,
            Variant::AirAttack => 2,
            Variant::Loaded(l) => l.rule_set().board.levels,
        }
    }

    /// The rule set's id: 16 hexadecimal digits of its effective rules (docs/rule-files.md).
    /// Results are keyed by it: records, books, tuned parameters.
    #[must_use]
    pub fn rules_id(self) -> &'static str {
        struct Id;
        impl WithPosition for Id {
            type Output = &'static str;
            fn call<P: Position>(self, rules: P::Rules) -> &'static str {
                rules.id()
            }
        }
        self.with(Id)
    }

    /// The built-in rule set whose evaluation preset is the nearest this one has: a built-in is
    /// its own base; a loaded rule set's is the `base` its file names, or (a file without one)
    /// the built-in of the same shape.
    #[must_use]
    pub fn base(self) -> Variant {
        match self {
            Variant::Loaded(l) => {
                if let Some(name) = l.base() {
                    return name.parse().unwrap_or(Variant::Traditional);
                }
                let r = l.rule_set();
                match r.board.levels {
                    1 => Variant::Fide,
                    _ if r.transfer.enabled => Variant::AirAttack,
                    _ => Variant::Traditional,
                }
            }
            v => v,
        }
    }

    /// The rule set's own evaluation preset, as a parameter file (the format of `--params`, read
    /// by `stackchess_search::EvalParams::parse`). `None` for a loaded rule set: it has no
    /// preset of its own (tune one, or play its [`Variant::base`]'s, saying so).
    #[must_use]
    pub fn eval_params(self) -> Option<&'static str> {
        match self {
            Variant::Malka => Some(stackchess_malka::EVAL_PARAMS),
            Variant::Traditional => Some(stackchess_traditional::EVAL_PARAMS),
            Variant::Fide => Some(stackchess_traditional::FIDE_EVAL_PARAMS),
            Variant::AirAttack => Some(stackchess_air_attack::EVAL_PARAMS),
            Variant::Loaded(_) => None,
        }
    }

    /// The net the rule set's default evaluation plays with (the bytes of a net file), when it ships
    /// one; `None` for the linear evaluation and for a loaded rule set.
    #[must_use]
    pub fn default_net(self) -> Option<&'static [u8]> {
        match self {
            Variant::Malka => stackchess_malka::NET,
            Variant::Traditional => stackchess_traditional::NET,
            Variant::Fide => stackchess_traditional::FIDE_NET,
            Variant::AirAttack => stackchess_air_attack::NET,
            Variant::Loaded(_) => None,
        }
    }

    /// The workload of `stackchess bench` (read by `stackchess_search::Bench::parse`); `None` for
    /// a loaded rule set.
    #[must_use]
    pub fn bench(self) -> Option<&'static str> {
        match self {
            Variant::Malka => Some(stackchess_malka::BENCH),
            Variant::Traditional => Some(stackchess_traditional::BENCH),
            Variant::Fide => Some(stackchess_traditional::FIDE_BENCH),
            Variant::AirAttack => Some(stackchess_air_attack::BENCH),
            Variant::Loaded(_) => None,
        }
    }

    /// Reads a rule file and loads it.
    ///
    /// # Errors
    /// An unreadable file, a bad rule set (naming the key and line), a built-in name for other
    /// rules, or a name already loaded for other rules.
    pub fn load_rules(path: &Path) -> Result<Variant, VariantError> {
        let err = |message: String| VariantError::Rules { path: path.display().to_string(), message };
        let text = std::fs::read_to_string(path).map_err(|e| err(e.to_string()))?;
        Variant::from_text(&text).map_err(|e| err(e.to_string()))
    }

    /// Loads the rule file `text` (a built-in's name is taken only for the built-in's own rules).
    ///
    /// # Errors
    /// As [`Variant::load_rules`], naming the key and line.
    pub fn from_text(text: &str) -> Result<Variant, RuleError> {
        let rules = RuleSet::parse(text, &|name| Variant::builtin_rules(name).map(str::to_owned))?;
        if let Some(b) = Variant::builtin_named(&rules)? {
            return Ok(b);
        }
        loaded::install(rules, base_of(text)).map(Variant::Loaded)
    }

    /// The built-in a user's rule set is, when it takes a built-in's name: it may only with that
    /// built-in's own rules.
    ///
    /// # Errors
    /// A built-in's name for other rules (naming the key `name`).
    pub fn builtin_named(rules: &RuleSet) -> Result<Option<Variant>, RuleError> {
        match Variant::ALL.into_iter().find(|v| v.name() == rules.name) {
            Some(b) if b.rules_id() == rules.id() => Ok(Some(b)),
            Some(_) => Err(RuleError::new(
                "name",
                None,
                format!("'{}' is a built-in variant's name; choose another", rules.name),
            )),
            None => Ok(None),
        }
    }

    /// Calls `f` with this variant's position type and rules.
    pub fn with<F: WithPosition>(self, f: F) -> F::Output {
        match self {
            Variant::Malka => f.call::<Malka>(stackchess_malka::rules()),
            Variant::Traditional => f.call::<Traditional>(stackchess_traditional::rules()),
            Variant::Fide => f.call::<Fide>(stackchess_traditional::fide_rules()),
            Variant::AirAttack => f.call::<AirAttack>(stackchess_air_attack::rules()),
            Variant::Loaded(l) => l.with(f),
        }
    }
}

/// The `base` a rule file names, if any.
fn base_of(text: &str) -> Option<&'static str> {
    let value: toml::Table = text.parse().ok()?;
    let base = value.get("base")?.as_str()?;
    Variant::ALL.iter().map(|v| v.name()).find(|n| *n == base)
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

/// A variant that cannot be had: an unknown name, or a bad rule file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum VariantError {
    /// No built-in or loaded variant has this name.
    Unknown(String),
    /// A `rules:FILE` that could not be read or is not a valid rule set.
    Rules {
        /// The file.
        path: String,
        /// What is wrong (with the key and line, where there is one).
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
                    "unknown variant '{name}' (expected one of: {}, or rules:FILE for a rule file)",
                    names.join(", ")
                )
            }
            VariantError::Rules { path, message } => write!(f, "rule file {path}: {message}"),
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
        loaded::find(s).map(Variant::Loaded).ok_or_else(|| VariantError::Unknown(s.to_owned()))
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
            Some(path) => Variant::load_rules(Path::new(path)),
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
        if s.trim().is_empty() || s.trim() == "rules:" {
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
            rules.startpos().to_lfen()
        }
    }

    #[test]
    fn names_round_trip_and_dispatch() {
        for v in Variant::ALL {
            assert_eq!(v.name().parse::<Variant>(), Ok(v));
            assert_eq!(v.with(Start).split('|').count(), v.levels());
            assert_eq!(v.rule_set().id(), v.rules_id());
        }
        assert!("chess".parse::<Variant>().unwrap_err().to_string().contains("malka"));
    }
}
