//! The games of run directories as the viewer, `replay` and `balance` read them: each record
//! with its plies' scores, and their replay into the viewer's data.

use anyhow::{Context, Result};
use stackchess_core::Position;
use stackchess_records::RecordedGame;
use stackchess_variants::{Variant, VariantArg, WithPosition};
use stackchess_view::{GameData, ViewError};
use std::collections::{BTreeMap, HashSet};
use std::path::{Path, PathBuf};

/// Reads the games of one input: a run directory or a games.csv in one, each with its rows of the
/// plies.csv beside it when there is one (a game without rows shows no evaluation).
///
/// # Errors
/// An unreadable or damaged file, naming it (and the line).
pub fn read_run(input: &Path) -> Result<Vec<RecordedGame>> {
    stackchess_records::read_recorded(input).with_context(|| format!("reading the records of {}", input.display()))
}

/// The games of all inputs, sorted by id, each id once; also how many duplicates were dropped.
///
/// # Errors
/// As [`read_run`].
pub fn read_all(inputs: &[PathBuf]) -> Result<(Vec<RecordedGame>, usize)> {
    let mut all = Vec::new();
    for input in inputs {
        all.extend(read_run(input)?);
    }
    all.sort_by(|a, b| a.game.game_id.cmp(&b.game.game_id));
    let before = all.len();
    let mut seen = HashSet::new();
    all.retain(|r| seen.insert(r.game.game_id.clone()));
    let dropped = before - all.len();
    Ok((all, dropped))
}

/// The rule set a record's `variant` names (a user-defined one must have been loaded by --rules).
///
/// # Errors
/// An unknown variant, naming the game.
pub fn variant_of(r: &RecordedGame) -> Result<Variant> {
    let (id, variant) = (&r.game.game_id, &r.game.variant);
    let v = variant.parse::<VariantArg>().and_then(|a| a.load());
    v.with_context(|| format!("game {id}: variant '{variant}' (a user-defined rule set's games need --rules FILE)"))
}

struct Replay<'a>(Vec<&'a RecordedGame>);

impl WithPosition for Replay<'_> {
    type Output = Vec<Result<GameData, ViewError>>;
    fn call<P: Position>(self, rules: P::Rules) -> Self::Output {
        self.0.iter().map(|r| stackchess_view::replay::<P>(rules, r)).collect()
    }
}

/// Replays every record into the page's data, in the order given; a game that does not replay
/// gives its error in its place.
///
/// # Errors
/// A record of an unknown variant.
pub fn replay_all(records: &[RecordedGame]) -> Result<Vec<Result<GameData, ViewError>>> {
    let mut by_variant: BTreeMap<&str, Vec<usize>> = BTreeMap::new();
    for (i, r) in records.iter().enumerate() {
        by_variant.entry(&r.game.variant).or_default().push(i);
    }
    let mut out: Vec<Option<Result<GameData, ViewError>>> = vec![None; records.len()];
    for indices in by_variant.values() {
        let variant = variant_of(&records[indices[0]])?;
        let games = variant.with(Replay(indices.iter().map(|&i| &records[i]).collect()));
        for (&i, g) in indices.iter().zip(games) {
            out[i] = Some(g);
        }
    }
    Ok(out.into_iter().flatten().collect())
}

/// Loads the `--rules` files.
///
/// # Errors
/// An unreadable or bad rule file.
pub fn load_rules(rules: &[PathBuf]) -> Result<()> {
    for path in rules {
        Variant::load_rules(path)?;
    }
    Ok(())
}
