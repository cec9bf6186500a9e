//! A run: N games on a rayon pool, each a function of (settings, seed, game index), streamed to
//! `games.pgn`, `plies.csv` and `games.csv` as they finish, resumable after an interruption.

use crate::clock::DEFAULT_TIME_MARGIN;
use crate::engine::{describe_limits, EngineSpec};
use crate::external::External;
use crate::game::{play, Played, Setup};
use crate::manifest::{now_utc, EngineEntry, Manifest, RunSettings, Session};
use crate::player::Player;
use crate::run_files::{self, Expected, RunFiles};
use crate::{Adjudication, Error, GameRecord, Openings, Recovered, Shard, Version};
use stackchess_core::{Position, Rules};
use stackchess_search::{Engine, Limits, Score};
use std::path::Path;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc;
use std::time::Duration;

pub use stackchess_records::{GAMES_CSV, GAMES_PGN, MANIFEST, PLIES_CSV};

/// Rejects random openings that a short search finds lopsided.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct OpeningFilter {
    /// Largest accepted score, in centipawns either way (mates are always rejected).
    pub max_cp: i32,
    /// The short search's limits (run with the first engine's settings).
    pub limits: Limits,
}

/// How long a side may take beyond what it was given.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Timing {
    /// What a mover on a clock may exceed it by without losing on time (cutechess-cli's
    /// `timemargin`); part of the run's settings when an engine plays on a clock.
    pub margin: Duration,
    /// How long an external engine may take to answer when no clock bounds it: its handshake,
    /// `isready`, a move under node or depth limits (added to a `movetime`). Past it the engine
    /// has stalled and loses the game.
    pub stall: Duration,
}

/// The stall timeout by default.
pub const DEFAULT_STALL_TIMEOUT: Duration = Duration::from_secs(30);

impl Default for Timing {
    fn default() -> Timing {
        Timing { margin: DEFAULT_TIME_MARGIN, stall: DEFAULT_STALL_TIMEOUT }
    }
}

/// What a run plays.
#[derive(Clone, Debug)]
pub struct RunConfig {
    /// Base seed: game `i` depends on (seed, i) only.
    pub seed: u64,
    /// Games the run is to have.
    pub games: u64,
    /// Worker threads (0: one per core).
    pub threads: usize,
    /// Where games start.
    pub openings: Openings,
    /// Optional check of random openings.
    pub opening_filter: Option<OpeningFilter>,
    /// Each opening twice, colours swapped: games `2k` and `2k + 1` share opening `k`.
    pub paired: bool,
    /// Adjudication rules.
    pub adjudication: Adjudication,
    /// One engine (self-play: it plays both sides) or two (a match: A has White in even games).
    pub engines: Vec<EngineSpec>,
    /// The PGN `Event` tag.
    pub event: String,
    /// The part of the run this process plays ([`Shard::WHOLE`] for all of it). Not part of the
    /// run key: every shard of a run has the same key and game ids.
    pub shard: Shard,
    /// The time margin and the stall timeout.
    pub timing: Timing,
}

impl RunConfig {
    /// The settings that decide the games (hashed into the run key).
    #[must_use]
    pub fn settings(&self, variant: &str, rules_id: &str) -> RunSettings {
        RunSettings {
            variant: variant.to_owned(),
            rules_id: rules_id.to_owned(),
            seed: self.seed,
            openings: if self.swaps_colours() {
                format!("{} colour-swapped", self.openings.describe())
            } else {
                self.openings.describe()
            },
            opening_max_cp: self.opening_filter.map(|f| f.max_cp),
            opening_check: self.opening_filter.map(|f| describe_limits(&f.limits)),
            paired: self.paired,
            adjudication: self.adjudication,
            engines: self
                .engines
                .iter()
                .map(|e| EngineEntry { label: e.label.clone(), settings: e.describe() })
                .collect(),
            time_margin_ms: self
                .engines
                .iter()
                .any(|e| e.tc.is_some())
                .then(|| u64::try_from(self.timing.margin.as_millis()).unwrap_or(u64::MAX)),
        }
    }

    /// The `settings` column: one engine's description, or `A: ... | B: ...`.
    #[must_use]
    pub fn settings_column(&self) -> String {
        match self.engines.as_slice() {
            [e] => e.describe(),
            many => many.iter().map(|e| format!("{}: {}", e.label, e.describe())).collect::<Vec<_>>().join(" | "),
        }
    }

    /// Whether the second game of each pair plays the colour-swapped opening: paired self-play,
    /// where one engine plays both sides (a match swaps the engines instead).
    #[must_use]
    pub fn swaps_colours(&self) -> bool {
        self.paired && self.engines.len() == 1
    }

    /// The opening number of game `index`.
    #[must_use]
    pub fn pair_of(&self, index: u64) -> u64 {
        if self.paired {
            index / 2
        } else {
            index
        }
    }

    /// Which engine plays White and which Black in game `index` (positions in `engines`).
    #[must_use]
    pub fn seats(&self, index: u64) -> [usize; 2] {
        match self.engines.len() {
            1 => [0, 0],
            _ if index & 1 == 0 => [0, 1],
            _ => [1, 0],
        }
    }

    /// The worker threads a run uses: `threads`, or one per core for 0.
    #[must_use]
    pub fn worker_threads(&self) -> usize {
        if self.threads == 0 {
            rayon::current_num_threads()
        } else {
            self.threads
        }
    }

    /// Whether game `index` belongs to this run's shard.
    #[must_use]
    pub fn in_shard(&self, index: u64) -> bool {
        self.shard.has_pair(self.pair_of(index))
    }

    fn check(&self) -> Result<(), Error> {
        if !(1..=2).contains(&self.engines.len()) {
            return Err(Error::Config("a run has one engine (self-play) or two (a match)".into()));
        }
        if self.games == 0 {
            return Err(Error::Config("--games must be at least 1".into()));
        }
        if self.paired && self.games % 2 == 1 {
            return Err(Error::Config(format!("--paired needs an even number of games, not {}", self.games)));
        }
        for e in &self.engines {
            let l = e.limits;
            if l.depth.is_none() && l.nodes.is_none() && l.movetime.is_none() && e.tc.is_none() {
                return Err(Error::Config(format!("engine {}: give --nodes, --depth, --movetime or --tc", e.label)));
            }
        }
        if let [a, b] = self.engines.as_slice() {
            if a.label == b.label {
                return Err(Error::Config(format!("the two engines have the same name, {}", a.label)));
            }
        }
        if self.adjudication.max_plies == Some(0) {
            return Err(Error::Config("--max-plies must be at least 1".into()));
        }
        Ok(())
    }
}

/// Hooks the caller gets while a run goes on (the CLI draws its progress bar with them).
/// Called on the thread that called [`run`].
pub trait Progress {
    /// Before the first game: the run's size and how many of its games exist already.
    fn begin(&mut self, _total: u64, _done: u64) {}
    /// Each record found in the file when resuming, in file order.
    fn resumed(&mut self, _record: &GameRecord) {}
    /// Each game finished and written. Returning `false` ends the run early (for an SPRT).
    fn finished(&mut self, _record: &GameRecord) -> bool {
        true
    }
}

/// A [`Progress`] that does nothing.
pub struct NoProgress;
impl Progress for NoProgress {}

/// How a run ended.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum RunEnd {
    /// Every game of the run is recorded.
    Complete,
    /// Stopped by the stop flag: `--resume` completes it.
    Interrupted,
    /// Stopped because [`Progress::finished`] asked to.
    StoppedByHook,
}

/// What a call to [`run`] did.
#[derive(Clone, Debug)]
pub struct Summary {
    /// The run key.
    pub run_key: String,
    /// Games this directory is to have: the run's, or its shard's share of them.
    pub games: u64,
    /// Of those, the games recorded now.
    pub done: u64,
    /// The shard played.
    pub shard: Shard,
    /// Games played in this call.
    pub played: u64,
    /// What resuming found in `games.csv`.
    pub recovered: Recovered,
    /// What resuming found in `plies.csv` (`dropped`: rows of games that were never committed).
    pub recovered_plies: Recovered,
    /// The schema version of the run's `games.csv` (a resumed version-1 run stays version 1).
    pub version: Version,
    /// How it ended.
    pub end: RunEnd,
}

/// Runs (or with `resume`, continues) the run in `dir`. Setting `stop` stops handing out games,
/// drops the games in progress and returns [`RunEnd::Interrupted`] with every finished game on disk.
///
/// # Errors
/// Bad settings, a non-empty `dir` without `resume`, a resume with other settings, a damaged
/// record file, an I/O error, or an engine without a move.
pub fn run<P: Position>(
    rules: P::Rules,
    dir: &Path,
    cfg: &RunConfig,
    resume: bool,
    stop: &AtomicBool,
    progress: &mut dyn Progress,
) -> Result<Summary, Error> {
    cfg.check()?;
    probe_engines(cfg)?;
    let mut settings = cfg.settings(rules.name(), rules.id());
    if resume {
        // A run begun before rule sets had ids does not name its rules: it goes on as it was.
        if let Ok(old) = Manifest::read(&dir.join(MANIFEST)) {
            if old.settings.rules_id.is_empty() {
                settings.rules_id.clear();
            }
        }
    }
    let run_key = settings.run_key();
    let base = base_record(rules.name(), cfg, run_key.clone(), settings.rules_id.clone());
    let session =
        Session { started: now_utc(), threads: cfg.worker_threads(), version: env!("CARGO_PKG_VERSION").to_owned() };
    // The directory is this process's until the run returns: a second process is refused.
    let _lock = run_files::lock(dir, resume)?;
    let in_shard = |i| cfg.in_shard(i);
    let expected = Expected { games: cfg.games, shard: cfg.shard, in_shard: &in_shard };
    let mut files = if resume {
        RunFiles::resume(dir, &expected, &settings, &run_key, session, &mut |rec| progress.resumed(rec))?
    } else {
        RunFiles::create(dir, &expected, settings, &run_key, session)?
    };
    let version = files.games.version();
    let ours = (0..cfg.games).filter(|&i| cfg.in_shard(i)).count() as u64;
    let missing: Vec<u64> =
        (0..cfg.games).filter(|&i| cfg.in_shard(i) && !files.done[usize::try_from(i).unwrap_or(0)]).collect();
    let before = ours - missing.len() as u64;
    progress.begin(ours, before);
    let played = play_missing::<P>(rules, cfg, &missing, &base, &mut files, stop, progress);
    // Synced whatever happened; a failure during the run is the error to report.
    let synced = files.sync();
    let Tally { played, added, hook_stopped } = played?;
    let count = before + added;
    synced.map_err(|e| Error::Write(Box::new(e)))?;
    let end = if count == ours {
        RunEnd::Complete
    } else if hook_stopped {
        RunEnd::StoppedByHook
    } else {
        RunEnd::Interrupted
    };
    let (recovered, recovered_plies) = (files.recovered, files.recovered_plies);
    Ok(Summary {
        run_key,
        games: ours,
        done: count,
        shard: cfg.shard,
        played,
        recovered,
        recovered_plies,
        version,
        end,
    })
}

/// An external engine that cannot start or does not answer the handshake stops the run before
/// it begins (later failures lose games instead).
fn probe_engines(cfg: &RunConfig) -> Result<(), Error> {
    for e in &cfg.engines {
        if let Some(x) = &e.external {
            External::new(x.clone(), cfg.timing.stall)
                .probe()
                .map_err(|f| Error::Config(format!("engine {}: {}: {f}", e.label, x.cmd.display())))?;
        }
    }
    Ok(())
}

/// The columns every game of the run shares.
fn base_record(variant: &str, cfg: &RunConfig, run_key: String, rules_id: String) -> GameRecord {
    GameRecord {
        run_key,
        variant: variant.to_owned(),
        seed: cfg.seed,
        settings: cfg.settings_column(),
        version: env!("CARGO_PKG_VERSION").to_owned(),
        rules_id,
        ..GameRecord::default()
    }
}

/// What [`play_missing`] did.
struct Tally {
    /// Games played and written.
    played: u64,
    /// Of those, games of the run (not past `cfg.games`).
    added: u64,
    /// Whether the progress hook stopped the run.
    hook_stopped: bool,
}

/// Plays the `missing` games on the run's worker threads, each with its own pair of engines,
/// taking them in index order (so an interrupted run leaves nearly a prefix of the games done),
/// and writes each finished game as it comes.
fn play_missing<P: Position>(
    rules: P::Rules,
    cfg: &RunConfig,
    missing: &[u64],
    base: &GameRecord,
    files: &mut RunFiles,
    stop: &AtomicBool,
    progress: &mut dyn Progress,
) -> Result<Tally, Error> {
    let threads = cfg.worker_threads();
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .map_err(|e| Error::Config(format!("cannot start {threads} threads: {e}")))?;
    let halt = AtomicBool::new(false);
    let mut tally = Tally { played: 0, added: 0, hook_stopped: false };
    let mut failure = None;
    std::thread::scope(|scope| {
        let (tx, rx) = mpsc::channel::<Result<Played, Error>>();
        let halt = &halt;
        let next = AtomicUsize::new(0);
        scope.spawn(move || {
            pool.scope(|workers| {
                for _ in 0..threads {
                    let (tx, next) = (tx.clone(), &next);
                    workers.spawn(move |_| worker::<P>(rules, cfg, missing, next, halt, base, &tx));
                }
            });
            drop(tx);
        });
        loop {
            match rx.recv_timeout(Duration::from_millis(50)) {
                Ok(Ok(p)) if failure.is_none() => match files.append(&p) {
                    Ok(()) => {
                        tally.played += 1;
                        tally.added += u64::from(p.record.index < cfg.games);
                        if !progress.finished(&p.record) {
                            tally.hook_stopped = true;
                            halt.store(true, Ordering::Relaxed);
                        }
                    }
                    Err(e) => {
                        failure = Some(Error::Write(Box::new(e)));
                        halt.store(true, Ordering::Relaxed);
                    }
                },
                Ok(Ok(_)) | Err(mpsc::RecvTimeoutError::Timeout) => {}
                Ok(Err(e)) => {
                    failure.get_or_insert(e);
                }
                Err(mpsc::RecvTimeoutError::Disconnected) => break,
            }
            if stop.load(Ordering::Relaxed) {
                halt.store(true, Ordering::Relaxed);
            }
        }
    });
    failure.map_or(Ok(tally), Err)
}

/// One worker: plays the next missing game until there is none or the run halts.
fn worker<P: Position>(
    rules: P::Rules,
    cfg: &RunConfig,
    missing: &[u64],
    next: &AtomicUsize,
    halt: &AtomicBool,
    base: &GameRecord,
    tx: &mpsc::Sender<Result<Played, Error>>,
) {
    let side = |i: usize| Player::<P>::new(rules, &cfg.engines[i.min(cfg.engines.len() - 1)], cfg.timing.stall);
    let mut players = [side(0), side(1)];
    let mut checker = None;
    while !halt.load(Ordering::Relaxed) {
        let Some(&index) = missing.get(next.fetch_add(1, Ordering::Relaxed)) else { break };
        match play_index(rules, cfg, index, &mut players, &mut checker, halt, base) {
            Ok(Some(p)) => drop(tx.send(Ok(p))),
            Ok(None) => {}
            Err(e) => {
                halt.store(true, Ordering::Relaxed);
                drop(tx.send(Err(e)));
            }
        }
    }
}

/// Plays game `index` with this worker's players (`checker`: the worker's built-in engine for the
/// opening filter when the first player is an external engine).
fn play_index<P: Position>(
    rules: P::Rules,
    cfg: &RunConfig,
    index: u64,
    players: &mut [Player<P>; 2],
    checker: &mut Option<Engine<P>>,
    halt: &AtomicBool,
    base: &GameRecord,
) -> Result<Option<Played>, Error> {
    let pair = cfg.pair_of(index);
    let swap = cfg.swaps_colours();
    let mut opening = cfg.openings.opening(rules, cfg.seed, pair, |pos: &P| {
        (!swap || crate::swap::colour_swapped(pos).is_some())
            && match cfg.opening_filter {
                None => true,
                Some(f) => {
                    let e = match players[0].builtin() {
                        Some(e) => e,
                        None => checker.get_or_insert_with(|| Engine::new(rules, cfg.engines[0].config.clone())),
                    };
                    e.new_game();
                    let r = e.search(pos, &[], &f.limits, &AtomicBool::new(false), &mut |_| {});
                    matches!(r.score, Score::Cp(c) if c.abs() <= f.max_cp)
                }
            }
    })?;
    if swap && index % 2 == 1 {
        // The swapped opening's line from the start, where it has one (an even line whose pairs
        // do not answer each other): its end is the game's start. Otherwise the swapped position
        // is the start, with no opening moves.
        if let Some((line, end)) =
            opening.moves.as_deref().and_then(|m| crate::swap::colour_swapped_line(&opening.position, m))
        {
            opening.position = end;
            opening.moves = Some(line);
        } else {
            opening.position = crate::swap::colour_swapped(&opening.position).ok_or_else(|| {
                Error::Openings(format!("opening {pair}: its colours cannot be swapped (the side to move is in check, or the rules are not symmetric)"))
            })?;
            opening.moves = None;
        }
    }
    let seats = cfg.seats(index);
    let setup = Setup {
        index,
        pair,
        start: opening.position,
        opening: opening.moves,
        specs: [&cfg.engines[seats[0]], &cfg.engines[seats[1]]],
        adjudication: cfg.adjudication,
        time_margin: cfg.timing.margin,
    };
    // Player slot 0 holds the first spec's engine and slot 1 the last's; in self-play slot 0 is
    // White. Each player is readied for the game (restarted if it failed) by `play`.
    let [p0, p1] = players;
    let pair_of_players = if cfg.engines.len() == 2 && seats[0] == 1 { [p1, p0] } else { [p0, p1] };
    play(&setup, pair_of_players, halt, base, &cfg.event)
}

/// Plays the games of a run in memory, one at a time, without a run directory: game `index` is
/// exactly the game [`run`] records at that index (the same opening, players and adjudication),
/// so a caller that keeps something else of each game (`datagen`'s positions) plays the same
/// games a run would. One per thread.
pub struct GamePlayer<'a, P: Position> {
    rules: P::Rules,
    cfg: &'a RunConfig,
    players: [Player<P>; 2],
    checker: Option<Engine<P>>,
    base: GameRecord,
}

impl<'a, P: Position> GamePlayer<'a, P> {
    /// The players of `cfg` under `rules`.
    ///
    /// # Errors
    /// Bad settings (as [`run`] checks them).
    pub fn new(rules: P::Rules, cfg: &'a RunConfig) -> Result<Self, Error> {
        cfg.check()?;
        let settings = cfg.settings(rules.name(), rules.id());
        let base = base_record(rules.name(), cfg, settings.run_key(), settings.rules_id);
        let side = |i: usize| Player::<P>::new(rules, &cfg.engines[i.min(cfg.engines.len() - 1)], cfg.timing.stall);
        Ok(GamePlayer { rules, cfg, players: [side(0), side(1)], checker: None, base })
    }

    /// The run key of the games (as [`run`] would record them).
    #[must_use]
    pub fn run_key(&self) -> &str {
        &self.base.run_key
    }

    /// Plays game `index`: its record and one row per searched ply, or `None` if `halt` was set
    /// before it ended.
    ///
    /// # Errors
    /// An opening that cannot be drawn, or a game that cannot be played (as in [`run`]).
    pub fn play(
        &mut self,
        index: u64,
        halt: &AtomicBool,
    ) -> Result<Option<(GameRecord, Vec<crate::PlyRecord>)>, Error> {
        let played = play_index(self.rules, self.cfg, index, &mut self.players, &mut self.checker, halt, &self.base)?;
        Ok(played.map(|p| (p.record, p.plies)))
    }
}
