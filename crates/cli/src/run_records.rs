//! The games of run directories as the viewer, `replay` and `balance` read them: each record
//! with its plies' scores, and their replay into the viewer's data.

use anyhow::{bail, Context, Result};
use stackchess_core::Position;
use stackchess_variants::{Variant, VariantArg, WithPosition};
use stackchess_view::{GameData, GameInput, Score, ViewError};
use std::collections::{BTreeMap, HashMap, HashSet};
use std::path::{Path, PathBuf};

/// One game as the viewer and `replay` read it.
#[derive(Clone, Debug, Default)]
pub struct Record {
    /// `game_id`.
    pub id: String,
    /// `variant`.
    pub variant: String,
    /// `white`.
    pub white: String,
    /// `black`.
    pub black: String,
    /// `result`.
    pub result: String,
    /// `termination`.
    pub termination: String,
    /// `start_lfen`.
    pub start_lfen: String,
    /// `opening_moves` (schema 2; empty in schema 1).
    pub opening_moves: String,
    /// `moves`.
    pub moves: String,
    /// The mover's score per ply of `moves`, from plies.csv (empty without one).
    pub scores: Vec<Option<Score>>,
}

impl Record {
    /// The record as the view crate takes it.
    pub fn input(&self) -> GameInput<'_> {
        GameInput {
            id: &self.id,
            variant: &self.variant,
            white: &self.white,
            black: &self.black,
            result: &self.result,
            termination: &self.termination,
            start_lfen: &self.start_lfen,
            opening_moves: &self.opening_moves,
            moves: &self.moves,
            scores: self.scores.clone(),
        }
    }
}

/// Reads the games of one input: a run directory or a games.csv in one, and the plies.csv beside
/// it when there is one (through `stackchess_records`, the one reader of the record formats).
///
/// # Errors
/// An unreadable or damaged file, naming it (and the line).
pub fn read_run(input: &Path) -> Result<Vec<Record>> {
    let (games_csv, dir) = if input.is_dir() {
        (input.join("games.csv"), input)
    } else {
        (input.to_owned(), input.parent().unwrap_or(Path::new(".")))
    };
    let games = stackchess_records::read_games(&games_csv)
        .with_context(|| format!("reading records {}", games_csv.display()))?;
    // The scores of the plies there are rows for (a game without them shows no evaluation).
    let mut by_game: HashMap<String, Vec<Option<Score>>> = HashMap::new();
    let plies_csv = dir.join("plies.csv");
    if plies_csv.is_file() {
        let ids: HashSet<&str> = games.records.iter().map(|g| g.game_id.as_str()).collect();
        let plies = stackchess_records::read_plies(&plies_csv)
            .with_context(|| format!("reading per-ply records {}", plies_csv.display()))?;
        for p in plies.into_iter().filter(|p| ids.contains(p.game_id.as_str())) {
            let Some(at) = (p.ply as usize).checked_sub(1) else {
                bail!("{}: game {}: ply 0 (plies count from 1)", plies_csv.display(), p.game_id);
            };
            let scores = by_game.entry(p.game_id).or_default();
            if scores.len() <= at {
                scores.resize(at + 1, None);
            }
            scores[at] = match (p.mate, p.score_cp) {
                (Some(m), _) => Some(Score::Mate(m)),
                (None, Some(cp)) => Some(Score::Cp(cp)),
                (None, None) => None,
            };
        }
    }
    Ok(games
        .records
        .into_iter()
        .map(|r| Record {
            scores: by_game.remove(&r.game_id).unwrap_or_default(),
            id: r.game_id,
            variant: r.variant,
            white: r.white,
            black: r.black,
            result: r.result,
            termination: r.termination,
            start_lfen: r.start_lfen,
            opening_moves: r.opening_moves,
            moves: r.moves,
        })
        .collect())
}

/// The games of all inputs, sorted by id, each id once; also how many duplicates were dropped.
///
/// # Errors
/// As [`read_run`].
pub fn read_all(inputs: &[PathBuf]) -> Result<(Vec<Record>, usize)> {
    let mut all = Vec::new();
    for input in inputs {
        all.extend(read_run(input)?);
    }
    all.sort_by(|a, b| a.id.cmp(&b.id));
    let before = all.len();
    let mut seen = HashSet::new();
    all.retain(|r| seen.insert(r.id.clone()));
    let dropped = before - all.len();
    Ok((all, dropped))
}

/// The rule set a record's `variant` names (a user-defined one must have been loaded by --rules).
///
/// # Errors
/// An unknown variant, naming the game.
pub fn variant_of(r: &Record) -> Result<Variant> {
    let v = r.variant.parse::<VariantArg>().and_then(|a| a.load());
    v.with_context(|| {
        format!("game {}: variant '{}' (a user-defined rule set's games need --rules FILE)", r.id, r.variant)
    })
}

struct Replay<'a>(Vec<&'a Record>);

impl WithPosition for Replay<'_> {
    type Output = Vec<Result<GameData, ViewError>>;
    fn call<P: Position>(self, rules: P::Rules) -> Self::Output {
        self.0.iter().map(|r| stackchess_view::replay::<P>(rules, &r.input())).collect()
    }
}

/// Replays every record into the page's data, in the order given; a game that does not replay
/// gives its error in its place.
///
/// # Errors
/// A record of an unknown variant.
pub fn replay_all(records: &[Record]) -> Result<Vec<Result<GameData, ViewError>>> {
    let mut by_variant: BTreeMap<&str, Vec<usize>> = BTreeMap::new();
    for (i, r) in records.iter().enumerate() {
        by_variant.entry(&r.variant).or_default().push(i);
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
