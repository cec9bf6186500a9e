//! Rule sets loaded from rule files: compiled once per process, found again by name.

use crate::WithPosition;
use stackchess_board::Tables;
use stackchess_core::Rules;
use stackchess_rules::{RuleError, RuleSet};
use std::fmt;
use std::sync::Mutex;

/// A rule set's tables, for its level count.
#[derive(Clone, Copy)]
enum Handle {
    One(&'static Tables<1>),
    Two(&'static Tables<2>),
    Three(&'static Tables<3>),
    Four(&'static Tables<4>),
}

/// What is kept of a loaded rule set.
struct Entry {
    handle: Handle,
    base: Option<&'static str>,
}

/// A loaded rule set: a handle that compares by identity (one per rule set and process).
#[derive(Clone, Copy)]
pub struct Loaded(&'static Entry);

impl PartialEq for Loaded {
    fn eq(&self, o: &Self) -> bool {
        std::ptr::eq(self.0, o.0)
    }
}
impl Eq for Loaded {}
impl std::hash::Hash for Loaded {
    fn hash<H: std::hash::Hasher>(&self, h: &mut H) {
        std::ptr::hash(self.0, h);
    }
}
impl fmt::Debug for Loaded {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Loaded({} {})", self.name(), self.rule_set().id())
    }
}

impl Loaded {
    /// The rule set's name.
    #[must_use]
    pub fn name(self) -> &'static str {
        match self.0.handle {
            Handle::One(t) => t.name(),
            Handle::Two(t) => t.name(),
            Handle::Three(t) => t.name(),
            Handle::Four(t) => t.name(),
        }
    }

    /// The effective rules.
    #[must_use]
    pub fn rule_set(self) -> &'static RuleSet {
        match self.0.handle {
            Handle::One(t) => &t.rules,
            Handle::Two(t) => &t.rules,
            Handle::Three(t) => &t.rules,
            Handle::Four(t) => &t.rules,
        }
    }

    /// The built-in rule set the file names as its base.
    #[must_use]
    pub fn base(self) -> Option<&'static str> {
        self.0.base
    }

    /// Calls `f` with the board type of this rule set's level count.
    pub(crate) fn with<F: WithPosition>(self, f: F) -> F::Output {
        match self.0.handle {
            Handle::One(t) => f.call::<stackchess_board::Board<1>>(t),
            Handle::Two(t) => f.call::<stackchess_board::Board<2>>(t),
            Handle::Three(t) => f.call::<stackchess_board::Board<3>>(t),
            Handle::Four(t) => f.call::<stackchess_board::Board<4>>(t),
        }
    }
}

static LOADED: Mutex<Vec<Loaded>> = Mutex::new(Vec::new());

/// Compiles `rules` and keeps it, or finds it kept already: any number of rule sets can be
/// loaded, each once.
///
/// # Errors
/// Other rules under a name already loaded, or a start position that is not a position.
pub(crate) fn install(rules: RuleSet, base: Option<&'static str>) -> Result<Loaded, RuleError> {
    let mut loaded = LOADED.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
    if let Some(l) = loaded.iter().find(|l| l.name() == rules.name) {
        return if l.rule_set().id() == rules.id() {
            Ok(*l)
        } else {
            Err(RuleError::new("name", None, format!("another rule set named '{}' is loaded already", rules.name)))
        };
    }
    let handle = match rules.board.levels {
        1 => Handle::One(stackchess_board::compile(rules)?),
        2 => Handle::Two(stackchess_board::compile(rules)?),
        3 => Handle::Three(stackchess_board::compile(rules)?),
        _ => Handle::Four(stackchess_board::compile(rules)?),
    };
    let l = Loaded(Box::leak(Box::new(Entry { handle, base })));
    loaded.push(l);
    Ok(l)
}

/// The loaded rule set named `name`.
pub(crate) fn find(name: &str) -> Option<Loaded> {
    let loaded = LOADED.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
    loaded.iter().find(|l| l.name().eq_ignore_ascii_case(name)).copied()
}
