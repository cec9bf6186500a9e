//! `merge`: the directories of one run's shards (or of any runs with the same run key) made into
//! one run directory, as if one process had played every game.
//!
//! The output has the lowest schema version of the inputs (a version-1 shard makes a version-1
//! run); a version-2 output carries every game's plies, checked against the game.

use crate::manifest::Manifest;
use crate::pgn::{self, PgnFile};
use crate::run::{GAMES_CSV, GAMES_PGN, MANIFEST, PLIES_CSV};
use crate::{Error, GameRecord, GamesFile, PliesFile, PlyRecord, Shard, Version};
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
    /// The schema version written.
    pub version: Version,
}

/// Merges the run directories `inputs` into the new directory `out`: games sorted by index, each
/// once, their plies and PGN games likewise, and a manifest of the whole run with every input's
/// sessions.
///
/// # Errors
/// A non-empty `out`, an input without a manifest or records, inputs of different runs, an
/// incomplete last record (resume that shard first), a game recorded differently in two inputs,
/// a game without its PGN text or (version 2) without its plies, or an I/O error. Nothing is
/// written to `out` on error unless the failure is an I/O error while writing.
// Every check of the inputs before anything is written, in order: split, the "nothing written on
// error" rule would span functions.
#[allow(clippy::too_many_lines)]
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
    let mut plies: HashMap<String, Vec<PlyRecord>> = HashMap::new();
    let mut version = Version::CURRENT;
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
        let read = stackchess_records::read_games(&csv)?;
        version = version.min(read.version);
        if read.version == Version::V2 {
            let path = dir.join(PLIES_CSV);
            if path.exists() {
                for p in stackchess_records::read_plies(&path)? {
                    plies.entry(p.game_id.clone()).or_default().push(p);
                }
            }
        }
        for (line, rec) in read.lines.into_iter().zip(read.records) {
            if rec.run_key != manifest.run_key || rec.game_id != GameRecord::id(&manifest.run_key, rec.index) {
                let message = format!("record {} does not belong to run {}", rec.game_id, manifest.run_key);
                return Err(Error::corrupt(&csv, line, message));
            }
            // Version-2 columns are compared only when both copies have them.
            let same = |a: &GameRecord, b: &GameRecord| match version {
                Version::V1 => a.as_v1().without_timing() == b.as_v1().without_timing(),
                Version::V2 => a.without_timing() == b.without_timing(),
            };
            match games.get(&rec.index) {
                Some((seen, from)) if !same(seen, &rec) => {
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
        if version == Version::V2 {
            // Each copy of a game wrote the same plies; keep the first copy's.
            let rows = plies.get(&rec.game_id).map_or(&[][..], Vec::as_slice);
            let first: Vec<&PlyRecord> = rows.iter().take(rec.plies as usize).collect();
            let whole = first.len() == rec.plies as usize && first.iter().zip(1..).all(|(p, i)| p.ply == i);
            if !whole {
                return Err(Error::Config(format!(
                    "{}: game {} does not have its {} plies (resume that run to repair its plies.csv)",
                    dir.join(PLIES_CSV).display(),
                    rec.game_id,
                    rec.plies
                )));
            }
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
    let mut csv = GamesFile::create_version(&out.join(GAMES_CSV), version)?;
    let mut ply_file = match version {
        Version::V2 => Some(PliesFile::create(&out.join(PLIES_CSV))?),
        Version::V1 => None,
    };
    let mut pgn = PgnFile::append_to(&out.join(GAMES_PGN))?;
    for (rec, _) in games.values() {
        pgn.append(&texts[&rec.game_id])?;
        if let Some(file) = ply_file.as_mut() {
            file.append_game(&plies[&rec.game_id][..rec.plies as usize])?;
        }
        csv.append(rec)?;
    }
    csv.sync()?;
    if let Some(file) = &ply_file {
        file.sync()?;
    }
    pgn.sync()?;
    manifest.write(&out.join(MANIFEST))?;
    Ok(Merged {
        run_key: manifest.run_key.clone(),
        games: total,
        records: games.len() as u64,
        duplicates,
        missing: (0..total).filter(|i| !games.contains_key(i)).collect(),
        shards: manifests.iter().map(|m| m.shard).collect(),
        version,
    })
}
