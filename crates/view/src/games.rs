//! The games of run directories as the viewer, `replay` and `balance` read them
//! ([`stackchess_records::read_recorded`]: each record with its plies' scores), and their replay
//! into the page's data, each rule set's games with its own generator.

use crate::{replay, GameData, ViewError};
use stackchess_core::Position;
use stackchess_records::RecordedGame;
use stackchess_variants::{Variant, VariantArg, WithPosition};
use std::collections::{BTreeMap, HashSet};
use std::path::PathBuf;

/// The error and its causes, on one line.
fn chain(e: &dyn std::error::Error) -> String {
    let mut text = e.to_string();
    let mut source = e.source();
    while let Some(s) = source {
        let more = s.to_string();
        if !text.ends_with(&more) {
            text = format!("{text}: {more}");
        }
        source = s.source();
    }
    text
}

/// The games of all inputs (run directories, or a `games.csv` in one), sorted by id, each id
/// once; also how many duplicates were dropped.
///
/// # Errors
/// An unreadable or damaged file, naming it (and the line).
pub fn read_all(inputs: &[PathBuf]) -> Result<(Vec<RecordedGame>, usize), ViewError> {
    let mut all = Vec::new();
    for input in inputs {
        let games = stackchess_records::read_recorded(input)
            .map_err(|e| ViewError::Records { input: input.display().to_string(), message: chain(&e) })?;
        all.extend(games);
    }
    all.sort_by(|a, b| a.game.game_id.cmp(&b.game.game_id));
    let before = all.len();
    let mut seen = HashSet::new();
    all.retain(|r| seen.insert(r.game.game_id.clone()));
    let dropped = before - all.len();
    Ok((all, dropped))
}

/// The rule set a record's `variant` names (a user-defined one must have been loaded first).
///
/// # Errors
/// An unknown variant, naming the game.
pub fn variant_of(r: &RecordedGame) -> Result<Variant, ViewError> {
    let (id, variant) = (&r.game.game_id, &r.game.variant);
    let v = variant.parse::<VariantArg>().and_then(|a| a.load());
    v.map_err(|e| ViewError::Variant { game: id.clone(), variant: variant.clone(), message: chain(&e) })
}

struct Replay<'a>(Vec<&'a RecordedGame>);

impl WithPosition for Replay<'_> {
    type Output = Vec<Result<GameData, ViewError>>;
    fn call<P: Position>(self, rules: P::Rules) -> Self::Output {
        self.0.iter().map(|r| replay::<P>(rules, r)).collect()
    }
}

/// Replays every record into the page's data, in the order given; a game that does not replay
/// gives its error in its place.
///
/// # Errors
/// A record of an unknown variant.
pub fn replay_all(records: &[RecordedGame]) -> Result<Vec<Result<GameData, ViewError>>, ViewError> {
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
