//! The variant facade: the one place a variant is chosen at run time.
//!
//! Code below this crate is generic over [`Position`]; callers pick a [`Variant`] and
//! pass a [`WithPosition`] visitor, which is monomorphised once per variant.

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
}

impl Variant {
    /// Every variant.
    pub const ALL: [Variant; 4] = [Variant::Malka, Variant::Traditional, Variant::Fide, Variant::AirAttack];

    /// The name used on the command line and in records.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Variant::Malka => "malka",
            Variant::Traditional => "traditional",
            Variant::Fide => "fide",
            Variant::AirAttack => "air-attack",
        }
    }

    /// Number of levels.
    #[must_use]
    pub const fn levels(self) -> usize {
        match self {
            Variant::Malka | Variant::Traditional => 3,
            Variant::Fide => 1,
            Variant::AirAttack => 2,
        }
    }

    /// Calls `f` with this variant's position type.
    pub fn with<F: WithPosition>(self, f: F) -> F::Output {
        match self {
            Variant::Malka => f.call::<Malka>(),
            Variant::Traditional => f.call::<Traditional>(),
            Variant::Fide => f.call::<Fide>(),
            Variant::AirAttack => f.call::<AirAttack>(),
        }
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

/// An unknown variant name.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnknownVariant(pub String);

impl fmt::Display for UnknownVariant {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let names: Vec<_> = Variant::ALL.iter().map(|v| v.name()).collect();
        write!(f, "unknown variant '{}' (expected one of: {})", self.0, names.join(", "))
    }
}

impl std::error::Error for UnknownVariant {}

impl FromStr for Variant {
    type Err = UnknownVariant;
    fn from_str(s: &str) -> Result<Variant, UnknownVariant> {
        Variant::ALL.into_iter().find(|v| v.name().eq_ignore_ascii_case(s)).ok_or_else(|| UnknownVariant(s.to_owned()))
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
