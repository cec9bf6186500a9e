//! User-defined rule sets: a Nardeshir rule set (Malka or Traditional) with some of its rules
//! changed, read from a small `key = value` file and played by the same generator.
//!
//! ```text
//! # malka-slider.rules: Malka with a sliding queen
//! name = malka-slider
//! base = malka               # malka | traditional
//! queen = slide              # slide | step (one cell along the same directions)
//! rook = slide
//! bishop = slide
//! pawn_double_step = false   # true | false (en passant comes with it)
//! promotion = lost-pieces    # free | lost-pieces
//! castling = true
//! ```
//!
//! Only `name` and `base` are required; every other key defaults to the base's rule.

use stackchess_core::Role;
use stackchess_geometry::{Dir, GroupSet};
use stackchess_nardeshir::{Movement, Promotion, RuleSet, Tables};
use std::sync::Mutex;

/// A rule set read from a spec, before it is installed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Spec {
    /// The rule set.
    pub rules: RuleSet,
    /// The built-in rule set it changes (its evaluation is used for it).
    pub base: &'static str,
}

/// Reads a rule-set spec. Errors name the line and what is wrong.
///
/// # Errors
/// A line that is not `key = value`, an unknown key or value, a repeated key, a missing `name`
/// or `base`, or a name that is a built-in variant's.
pub fn parse_spec(text: &str) -> Result<Spec, String> {
    let mut seen: Vec<String> = Vec::new();
    let (mut name, mut base) = (None, None);
    let mut changes: Vec<(usize, String, String)> = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let line = raw.split('#').next().unwrap_or("").trim();
        if line.is_empty() {
            continue;
        }
        let n = i + 1;
        let (k, v) = line.split_once('=').ok_or_else(|| format!("line {n}: expected key = value, got '{raw}'"))?;
        let (k, v) = (k.trim().to_ascii_lowercase(), v.trim().to_owned());
        if seen.contains(&k) {
            return Err(format!("line {n}: '{k}' is given twice"));
        }
        seen.push(k.clone());
        match k.as_str() {
            "name" => name = Some((n, v)),
            "base" => base = Some((n, v)),
            _ => changes.push((n, k, v)),
        }
    }
    let (n, name) = name.ok_or("the rule set needs a name (name = ...)")?;
    let valid = !name.is_empty() && name.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_');
    if !valid {
        return Err(format!("line {n}: name '{name}': use letters, digits, '-' and '_'"));
    }
    if crate::Variant::ALL.iter().any(|v| v.name().eq_ignore_ascii_case(&name)) {
        return Err(format!("line {n}: name '{name}' is a built-in variant's; choose another"));
    }
    let (n, base) = base.ok_or("the rule set needs a base (base = malka or base = traditional)")?;
    let (base, malka) = match base.as_str() {
        "malka" => ("malka", true),
        "traditional" => ("traditional", false),
        other => return Err(format!("line {n}: base '{other}': expected malka or traditional")),
    };
    let leaked: &'static str = Box::leak(name.into_boxed_str());
    let mut rules = RuleSet::nardeshir(leaked, 3, malka, stackchess_malka::START);
    for (n, key, value) in changes {
        let bad = |expected: &str| format!("line {n}: {key} = '{value}': expected {expected}");
        let flag = || match value.as_str() {
            "true" | "yes" | "on" => Ok(true),
            "false" | "no" | "off" => Ok(false),
            _ => Err(bad("true or false")),
        };
        match key.as_str() {
            "queen" | "rook" | "bishop" => {
                let (role, groups) = match key.as_str() {
                    "queen" => (Role::Queen, GroupSet::ALL),
                    "rook" => (Role::Rook, GroupSet::ROOK),
                    _ => (Role::Bishop, GroupSet::BISHOP),
                };
                rules.pieces[role.index() - 1] = movement(groups, &value).ok_or_else(|| bad("slide or step"))?;
            }
            "pawn_double_step" => rules.pawn.double_step = flag()?,
            "castling" => rules.castling = flag()?,
            "promotion" => {
                rules.pawn.promotion = match value.as_str() {
                    "free" => Promotion::Free,
                    "lost-pieces" => Promotion::LostPieces,
                    _ => return Err(bad("free or lost-pieces")),
                };
            }
            _ => {
                return Err(format!(
                    "line {n}: unknown key '{key}' (keys: name, base, queen, rook, bishop, pawn_double_step, \
                     promotion, castling)"
                ))
            }
        }
    }
    // The start position's castling rights must be rights the rules have.
    if !rules.castling {
        rules.start = NO_CASTLING_START;
    }
    Ok(Spec { rules, base })
}

/// The Nardeshir start position without castling rights.
const NO_CASTLING_START: &str = "8/8/8/8/8/8/PPPPPPPP/RNBQKBNR|8/8/8/8/8/8/8/8|rnbqkbnr/pppppppp/8/8/8/8/8/8 w - - 0 1";

/// A piece moving along `groups`: sliding, or one step.
fn movement(groups: GroupSet, how: &str) -> Option<Movement> {
    match how {
        "slide" => Some(Movement { slides: groups, leaps: Vec::new() }),
        "step" => Some(Movement { slides: GroupSet::NONE, leaps: groups.dirs().collect::<Vec<Dir>>() }),
        _ => None,
    }
}

/// A loaded user-defined rule set.
#[derive(Debug)]
pub(crate) struct Loaded {
    /// Its tables (the rule-set handle).
    pub(crate) tables: &'static Tables<3>,
    /// The built-in rule set it changes (its evaluation is used for it).
    pub(crate) base: &'static str,
}

static LOADED: Mutex<Vec<&'static Loaded>> = Mutex::new(Vec::new());

/// Loads `spec`, or finds it loaded already: any number of rule sets can be loaded, each once.
///
/// # Errors
/// A different rule set under a name already loaded.
pub(crate) fn install(spec: Spec) -> Result<&'static Loaded, String> {
    let mut loaded = LOADED.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
    if let Some(l) = loaded.iter().find(|l| l.tables.rules.name == spec.rules.name) {
        return if l.tables.rules == spec.rules {
            Ok(l)
        } else {
            Err(format!("another rule set named '{}' is loaded already", spec.rules.name))
        };
    }
    let l: &'static Loaded = Box::leak(Box::new(Loaded { tables: Tables::leak(spec.rules), base: spec.base }));
    loaded.push(l);
    Ok(l)
}

/// The loaded rule set named `name`.
pub(crate) fn find(name: &str) -> Option<&'static Loaded> {
    let loaded = LOADED.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
    loaded.iter().find(|l| l.tables.rules.name.eq_ignore_ascii_case(name)).copied()
}
