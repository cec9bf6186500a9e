//! The files of a run directory while it plays: its journals (`games.csv`, `plies.csv`,
//! `games.pgn`) and manifest, created for a new run or checked and repaired for a resumed one,
//! and the directory's lock.

use crate::game::Played;
use crate::manifest::{Manifest, RunSettings, Session};
use crate::pgn::{self, PgnFile};
use crate::{Error, GameRecord, GamesFile, PliesFile, Recovered, Shard, Version};
use stackchess_records::{RunLock, GAMES_CSV, GAMES_PGN, MANIFEST, PLIES_CSV};
use std::collections::HashMap;
use std::path::Path;

/// The games a run is to have: how many, the shard this process plays, and whether a game index
/// is in it.
pub(crate) struct Expected<'a> {
    pub games: u64,
    pub shard: Shard,
    pub in_shard: &'a dyn Fn(u64) -> bool,
}

/// A run's open journals, and which of its games are done.
pub(crate) struct RunFiles {
    pub games: GamesFile,
    /// `None` for a resumed version-1 run (it has no per-ply table).
    pub plies: Option<PliesFile>,
    pub pgn: PgnFile,
    /// Per game index: recorded already.
    pub done: Vec<bool>,
    /// What a resume cut off the end of `games.csv`.
    pub recovered: Recovered,
    /// What a resume cut off the end of `plies.csv`.
    pub recovered_plies: Recovered,
}

impl RunFiles {
    /// The files of a new run in the (empty, locked) `dir`: the manifest first.
    pub fn create(
        dir: &Path,
        cfg: &Expected<'_>,
        settings: RunSettings,
        run_key: &str,
        session: Session,
    ) -> Result<RunFiles, Error> {
        let done = not_done(cfg)?;
        let manifest = Manifest {
            program: "stackchess".into(),
            version: env!("CARGO_PKG_VERSION").into(),
            run_key: run_key.to_owned(),
            settings,
            games: cfg.games,
            format: "csv".into(),
            shard: cfg.shard,
            started: session.started.clone(),
            sessions: vec![session],
        };
        manifest.write(&dir.join(MANIFEST))?;
        let plies = PliesFile::create(&dir.join(PLIES_CSV))?;
        let games = GamesFile::create(&dir.join(GAMES_CSV))?;
        let pgn = PgnFile::append_to(&dir.join(GAMES_PGN))?;
        let (recovered, recovered_plies) = (Recovered::default(), Recovered::default());
        Ok(RunFiles { games, plies: Some(plies), pgn, done, recovered, recovered_plies })
    }

    /// The files of the run in `dir`, resumed: the manifest must be of the same settings and
    /// shard; each record read back is checked (and handed to `resumed`); the journals' cut-off
    /// ends are repaired; the manifest gains this session.
    pub fn resume(
        dir: &Path,
        cfg: &Expected<'_>,
        settings: &RunSettings,
        run_key: &str,
        session: Session,
        resumed: &mut dyn FnMut(&GameRecord),
    ) -> Result<RunFiles, Error> {
        let mut done = not_done(cfg)?;
        let (csv_path, pgn_path, manifest_path) = (dir.join(GAMES_CSV), dir.join(GAMES_PGN), dir.join(MANIFEST));
        let plies_path = dir.join(PLIES_CSV);
        let mut manifest = Manifest::read(&manifest_path)?;
        if manifest.shard != cfg.shard {
            return Err(Error::Config(format!(
                "{} holds shard {} of its run, not shard {}: resume it with --shard {}",
                dir.display(),
                manifest.shard,
                cfg.shard,
                manifest.shard
            )));
        }
        let differences = manifest.settings.differences(settings);
        if !differences.is_empty() || manifest.run_key != run_key {
            return Err(Error::SettingsDiffer { dir: dir.to_owned(), differences: differences.join("; ") });
        }
        let mut committed: HashMap<String, u32> = HashMap::new();
        let (games, recovered) = if csv_path.exists() {
            GamesFile::open(&csv_path, |rec| {
                check_resumed(&rec, run_key, cfg, &mut done)?;
                resumed(&rec);
                committed.insert(rec.game_id.clone(), rec.plies);
                Ok(())
            })?
        } else {
            (GamesFile::create(&csv_path)?, Recovered::default())
        };
        // A version-2 run keeps its plies beside its games; a version-1 run has none.
        let (plies, recovered_plies) = match games.version() {
            Version::V1 => (None, Recovered::default()),
            Version::V2 if plies_path.exists() => {
                let (file, r) = PliesFile::open(&plies_path, &committed)?;
                (Some(file), r)
            }
            Version::V2 if committed.is_empty() => (Some(PliesFile::create(&plies_path)?), Recovered::default()),
            Version::V2 => {
                return Err(Error::Config(format!(
                    "{} is missing, but {} holds {} games: restore it, or start the run afresh",
                    plies_path.display(),
                    csv_path.display(),
                    committed.len()
                )))
            }
        };
        pgn::repair(&pgn_path, |id| {
            id.strip_prefix(&format!("{run_key}-"))
                .and_then(|i| i.parse::<usize>().ok())
                .is_some_and(|i| done.get(i).copied().unwrap_or(true))
        })?;
        manifest.games = cfg.games;
        manifest.sessions.push(session);
        manifest.write(&manifest_path)?;
        let pgn = PgnFile::append_to(&pgn_path)?;
        Ok(RunFiles { games, plies, pgn, done, recovered, recovered_plies })
    }

    /// Writes a finished game: the PGN and the plies first, since the games.csv line commits it.
    pub fn append(&mut self, p: &Played) -> Result<(), Error> {
        self.pgn.append(&p.pgn)?;
        if let Some(plies) = self.plies.as_mut() {
            plies.append_game(&p.plies)?;
        }
        Ok(self.games.append(&p.record)?)
    }

    /// Syncs every journal to disk.
    pub fn sync(&self) -> Result<(), Error> {
        self.games.sync()?;
        if let Some(plies) = &self.plies {
            plies.sync()?;
        }
        self.pgn.sync()
    }
}

/// One `false` per game of the run.
fn not_done(cfg: &Expected<'_>) -> Result<Vec<bool>, Error> {
    let games = usize::try_from(cfg.games).map_err(|_| Error::Config("--games is too large".into()))?;
    Ok(vec![false; games])
}

/// Whether `dir` holds anything but its lock file and the temporary file of a manifest whose
/// first write was cut short (a kill before the run's first file: the run is still to begin).
fn has_files(dir: &Path) -> bool {
    std::fs::read_dir(dir).is_ok_and(|d| {
        d.flatten().any(|e| {
            let name = e.file_name();
            !stackchess_records::is_lock_file(&name) && !stackchess_files::is_temporary(&name)
        })
    })
}

/// Takes the lock of the run directory before anything of the run is read or written: for a
/// resume, of the run found there; for a new run, of an empty (or new) directory, checked again
/// once locked (another process may have begun a run there meanwhile).
pub(crate) fn lock(dir: &Path, resume: bool) -> Result<RunLock, Error> {
    if resume {
        if !dir.join(MANIFEST).exists() {
            return Err(Error::NothingToResume(dir.to_owned()));
        }
        return Ok(RunLock::acquire(dir)?);
    }
    if has_files(dir) {
        return Err(Error::NotEmpty(dir.to_owned()));
    }
    std::fs::create_dir_all(dir).map_err(|e| Error::io(dir, e))?;
    let lock = RunLock::acquire(dir)?;
    if has_files(dir) {
        return Err(Error::NotEmpty(dir.to_owned()));
    }
    Ok(lock)
}

/// Checks a record read on resume and marks its index done; says what is wrong otherwise.
fn check_resumed(rec: &GameRecord, run_key: &str, cfg: &Expected<'_>, done: &mut [bool]) -> Result<(), String> {
    if rec.run_key != run_key || rec.game_id != GameRecord::id(run_key, rec.index) {
        return Err(format!(
            "record {} belongs to another run (run key {}, expected {run_key})",
            rec.game_id, rec.run_key
        ));
    }
    if !(cfg.in_shard)(rec.index) {
        return Err(format!("record {} is not a game of shard {}", rec.game_id, cfg.shard));
    }
    if let Some(slot) = usize::try_from(rec.index).ok().and_then(|i| done.get_mut(i)) {
        if *slot {
            return Err(format!("game {} is recorded twice", rec.game_id));
        }
        *slot = true;
    }
    Ok(())
}
