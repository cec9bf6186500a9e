//! The variant facade: the one place a variant is chosen at run time.
//!
//! Code below this crate is generic over [`Position`]; callers pick a [`Variant`] and
//! pass a [`WithPosition`] visitor, which is monomorphised once per variant.

pub mod custom;

use stackchess_core::Position;
use std::fmt;
use std::str::FromStr;

pub use stackchess_air_attack::AirAttack;
pub use stackchess_malka::Malka;
pub use stackchess_traditional::{Fide, Traditional};

/// A variant, chosen at run time.
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
    /// A user-defined Nardeshir rule set ([`custom`]), by its slot.
    Custom(u8),
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
            Variant::Custom(slot) => custom::name(usize::from(slot)).unwrap_or("custom"),
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

    /// The built-in variant whose evaluation settings suit this one: itself, or the rule set a
    /// user-defined one changes.
    #[must_use]
    pub fn eval_name(self) -> &'static str {
        match self {
            Variant::Custom(slot) => custom::base(usize::from(slot)).unwrap_or("traditional"),
            v => v.name(),
        }
    }

    /// Reads a user-defined rule set ([`custom`]) from `path` and installs it.
    ///
    /// # Errors
    /// An unreadable file or a bad spec, naming the file (and line).
    pub fn load_rules(path: &std::path::Path) -> Result<Variant, VariantError> {
        let err = |message: String| VariantError::Rules { path: path.display().to_string(), message };
        let text = std::fs::read_to_string(path).map_err(|e| err(e.to_string()))?;
        let slot = custom::install(custom::parse_spec(&text).map_err(err)?).map_err(err)?;
        Ok(Variant::Custom(u8::try_from(slot).unwrap_or(u8::MAX)))
    }

    /// Calls `f` with this variant's position type.
    ///
    /// # Panics
    /// For a [`Variant::Custom`] slot with no rule set installed (only [`Variant::load_rules`]
    /// and [`FromStr`] make custom variants, after installing their rules).
    pub fn with<F: WithPosition>(self, f: F) -> F::Output {
        match self {
            Variant::Malka => f.call::<Malka>(),
            Variant::Traditional => f.call::<Traditional>(),
            Variant::Fide => f.call::<Fide>(),
            Variant::AirAttack => f.call::<AirAttack>(),
            Variant::Custom(0) => f.call::<custom::Custom<0>>(),
            Variant::Custom(1) => f.call::<custom::Custom<1>>(),
            Variant::Custom(2) => f.call::<custom::Custom<2>>(),
            Variant::Custom(3) => f.call::<custom::Custom<3>>(),
            Variant::Custom(slot) => panic!("no user-defined rule set in slot {slot}"),
        }
    }
}

/// The evaluation name for the variant called `name`: the base of a loaded user-defined rule set
/// of that name (see [`Variant::eval_name`]), else `name` itself.
#[must_use]
pub fn eval_name(name: &str) -> &str {
    match custom::find(name) {
        Some(slot) => custom::base(slot).unwrap_or(name),
        None => name,
    }
}

/// Code to run for a variant chosen at run time, generic over its position type.
pub trait WithPosition {
    /// What it returns.
    type Output;
    /// Runs with the position type `P`.
    fn call<P: Position>(self) -> Self::Output;
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
    /// A built-in name, `rules:FILE` (loads a user-defined rule set), or the name of a loaded one.
    fn from_str(s: &str) -> Result<Variant, VariantError> {
        if let Some(path) = s.strip_prefix("rules:") {
            return Variant::load_rules(std::path::Path::new(path));
        }
        if let Some(v) = Variant::ALL.into_iter().find(|v| v.name().eq_ignore_ascii_case(s)) {
            return Ok(v);
        }
        custom::find(s)
            .map(|slot| Variant::Custom(u8::try_from(slot).unwrap_or(u8::MAX)))
            .ok_or_else(|| VariantError::Unknown(s.to_owned()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    struct Start;
    impl WithPosition for Start {
        type Output = String;
        fn call<P: Position>(self) -> String {
            P::startpos().to_lfen()
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
