//! `merge`: the directories of one run's shards (or of any runs with the same run key) made into
//! one run directory, as if one process had played every game.

use crate::manifest::Manifest;
use crate::pgn::{self, PgnFile};
use crate::run::{GAMES_CSV, GAMES_PGN, MANIFEST};
use crate::{Error, GameRecord, RecordFile, Shard};
use std::collections::{BTreeMap, HashMap};
use std::path::{Path, PathBuf};

/// What [`merge`] wrote.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Merged {
    /// The run key of every input.
    pub run_key: String,
    /// Games the run is to have (the largest `games` of the inputs' manifests).
    pub games: u64,
    /// Games written.
    pub records: u64,
    /// Games found in more than one input (identical, so written once).
    pub duplicates: u64,
    /// Indices below `games` that no input holds: `selfplay --resume` on the output plays them.
    pub missing: Vec<u64>,
    /// Each input's shard, in input order.
    pub shards: Vec<Shard>,
}

/// Merges the run directories `inputs` into the new directory `out`: games sorted by index, each
/// once, the PGN games likewise, and a manifest of the whole run with every input's sessions.
///
/// # Errors
/// A non-empty `out`, an input without a manifest or records, inputs of different runs, an
/// incomplete last record (resume that shard first), a game recorded differently in two inputs,
/// a game without its PGN text, or an I/O error. Nothing is written to `out` on error unless the
/// failure is an I/O error while writing.
pub fn merge(out: &Path, inputs: &[PathBuf]) -> Result<Merged, Error> {
    if inputs.is_empty() {
        return Err(Error::Config("merge: give at least one run directory".into()));
    }
    if std::fs::read_dir(out).is_ok_and(|mut d| d.next().is_some()) {
        return Err(Error::NotEmpty(out.to_owned()));
    }
    let mut manifests: Vec<Manifest> = Vec::with_capacity(inputs.len());
    let mut games: BTreeMap<u64, (GameRecord, &Path)> = BTreeMap::new();
    let mut texts: HashMap<String, String> = HashMap::new();
    let mut duplicates = 0;
    for dir in inputs {
        let manifest = Manifest::read(&dir.join(MANIFEST))?;
        if let Some(first) = manifests.first() {
            if first.run_key != manifest.run_key || first.settings != manifest.settings {
                return Err(Error::Config(format!(
                    "{} holds run {}, but {} holds run {}: only directories of one run merge",
                    inputs[0].display(),
                    first.run_key,
                    dir.display(),
                    manifest.run_key
                )));
            }
        }
        let csv = dir.join(GAMES_CSV);
        for (line, rec) in crate::read_records(&csv)?.into_iter().enumerate() {
            let line = line as u64 + 2;
            if rec.run_key != manifest.run_key || rec.game_id != GameRecord::id(&manifest.run_key, rec.index) {
                let message = format!("record {} does not belong to run {}", rec.game_id, manifest.run_key);
                return Err(Error::corrupt(&csv, line, message));
            }
            match games.get(&rec.index) {
                Some((seen, from)) if seen.without_timing() != rec.without_timing() => {
                    let message = format!(
                        "game {} differs from the same game in {} (were they played by different versions?)",
                        rec.game_id,
                        from.display()
                    );
                    return Err(Error::corrupt(&csv, line, message));
                }
                Some(_) => duplicates += 1,
                None => {
                    games.insert(rec.index, (rec, dir));
                }
            }
        }
        let pgn_path = dir.join(GAMES_PGN);
        if pgn_path.exists() {
            for (id, text) in pgn::read_games(&pgn_path)? {
                texts.entry(id).or_insert(text);
            }
        }
        manifests.push(manifest);
    }
    for (rec, dir) in games.values() {
        if !texts.contains_key(&rec.game_id) {
            return Err(Error::Config(format!(
                "{}: game {} has no PGN text (resume that run to repair its games.pgn)",
                dir.join(GAMES_PGN).display(),
                rec.game_id
            )));
        }
    }

    let first = &manifests[0];
    let total = manifests.iter().map(|m| m.games).max().unwrap_or(0);
    let mut sessions: Vec<_> = manifests.iter().flat_map(|m| m.sessions.iter().cloned()).collect();
    sessions.sort_by(|a, b| a.started.cmp(&b.started));
    let manifest = Manifest {
        games: total,
        shard: Shard::WHOLE,
        format: "csv".into(),
        started: manifests.iter().map(|m| m.started.clone()).min().unwrap_or_default(),
        sessions,
        ..first.clone()
    };
    std::fs::create_dir_all(out).map_err(|e| Error::io(out, e))?;
    let mut csv = RecordFile::create(&out.join(GAMES_CSV))?;
    let mut pgn = PgnFile::append_to(&out.join(GAMES_PGN))?;
    for (rec, _) in games.values() {
        pgn.append(&texts[&rec.game_id])?;
        csv.append(rec)?;
    }
    csv.sync()?;
    pgn.sync()?;
    manifest.write(&out.join(MANIFEST))?;
    Ok(Merged {
        run_key: manifest.run_key.clone(),
        games: total,
        records: games.len() as u64,
        duplicates,
        missing: (0..total).filter(|i| !games.contains_key(i)).collect(),
        shards: manifests.iter().map(|m| m.shard).collect(),
    })
}
