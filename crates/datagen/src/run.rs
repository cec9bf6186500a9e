//! A data run: games in batches, each batch's positions picked, labelled and committed whole.

use crate::format::{DataReader, DataWriter, Header, Record, WhiteResult};
use crate::pack::Packed;
use crate::sample::{candidates, pick, quiet_in_order, Candidate, Quiet};
use crate::Error;
use stackchess_core::{Position, Rules};
use stackchess_search::{Engine, Limits, Score, SearchConfig};
use stackchess_selfplay::{
    Adjudication, EngineSpec, GamePlayer, GameRecord, Openings, ResignRule, RunConfig, Shard, Timing,
};
use std::collections::HashSet;
use std::path::Path;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{mpsc, Mutex};
use std::time::{Duration, Instant};

/// What a data run plays and keeps.
#[derive(Clone, Debug, PartialEq)]
pub struct Settings {
    /// Games of the whole run (a shard plays its part of them).
    pub games: u64,
    /// Nodes a move in the games.
    pub nodes: u64,
    /// Positions kept a game at most (0: every quiet one).
    pub per_game: usize,
    /// Nodes of the search that labels each kept position (0: the game's own score of it).
    pub label_nodes: u64,
    /// Random plies that open each game (never in the data).
    pub random_plies: u32,
    /// Games longer than this are stopped, their positions labelled by score alone.
    pub max_plies: u32,
    /// Games where both searches see one side this many centipawns down for 4 moves each are
    /// lost by it (0: played out).
    pub resign: i32,
    /// The quiet filter.
    pub quiet: Quiet,
    /// Base seed: game `i` is a function of (settings, seed, i).
    pub seed: u64,
    /// The part of the run this process plays.
    pub shard: Shard,
    /// Worker threads (0: one per core).
    pub threads: usize,
    /// Games a committed batch (the unit of resumption; does not change the data).
    pub batch: u64,
    /// The transposition table of each label search, in MiB (cleared before each).
    pub label_hash_mb: usize,
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            games: 1000,
            nodes: 1000,
            per_game: 8,
            label_nodes: 10_000,
            random_plies: 8,
            max_plies: 400,
            resign: 1000,
            quiet: Quiet::default(),
            seed: 1,
            shard: Shard::WHOLE,
            threads: 0,
            batch: 128,
            label_hash_mb: 4,
        }
    }
}

impl Settings {
    /// The settings that decide each game's positions, on one line (the number of games, threads
    /// and batch left out: a run with more games extends the file); with the engine's
    /// description, what a resume must match.
    #[must_use]
    pub fn describe(&self, engine: &SearchConfig) -> String {
        format!(
            "nodes={} per_game={} label_nodes={} random_plies={} max_plies={} resign={} quiet_margin={} \
             quiet_nodes={} shard={} label_hash={} engine: {}",
            self.nodes,
            self.per_game,
            self.label_nodes,
            self.random_plies,
            self.max_plies,
            self.resign,
            self.quiet.margin,
            self.quiet.max_nodes,
            self.shard,
            self.label_hash_mb,
            engine.describe()
        )
    }

    fn run_config(&self, engine: &SearchConfig) -> RunConfig {
        RunConfig {
            seed: self.seed,
            games: self.games,
            threads: 1,
            openings: if self.random_plies == 0 {
                Openings::Start
            } else {
                Openings::Random { plies: self.random_plies }
            },
            opening_filter: None,
            paired: false,
            adjudication: Adjudication {
                max_plies: Some(self.max_plies),
                resign: (self.resign > 0).then_some(ResignRule { moves: 4, score: self.resign }),
                draw: None,
            },
            engines: vec![EngineSpec::builtin("datagen", engine.clone(), Limits::nodes(self.nodes))],
            event: "stackchess datagen".into(),
            shard: self.shard,
            timing: Timing::default(),
        }
    }
}

/// What a caller hears while the run goes on (on the thread that called [`generate`]).
pub trait Hook {
    /// Before the first game: the shard's games, those already in the file, its positions.
    fn begin(&mut self, _games: u64, _done: u64, _positions: u64) {}
    /// A game played (not yet committed).
    fn played(&mut self) {}
    /// A batch committed: games and positions in the file now.
    fn committed(&mut self, _games: u64, _positions: u64) {}
}

/// A [`Hook`] that does nothing.
pub struct NoHook;
impl Hook for NoHook {}

/// How a data run ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Summary {
    /// Games of this shard.
    pub games: u64,
    /// Positions in the file.
    pub positions: u64,
    /// Games played by this call.
    pub played: u64,
    /// Positions written by this call.
    pub written: u64,
    /// Wall time of this call.
    pub elapsed: Duration,
}

/// FNV-1a of a game id: the game key of its positions.
#[must_use]
pub fn game_key(game_id: &str) -> u64 {
    game_id.bytes().fold(0xcbf2_9ce4_8422_2325, |h, b| (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3))
}

/// White's result of a record (`None` for a game the move cap stopped).
fn white_result(rec: &GameRecord) -> Result<WhiteResult, Error> {
    if rec.termination == "max-plies" {
        return Ok(WhiteResult::None);
    }
    match rec.result.as_str() {
        "1-0" => Ok(WhiteResult::Win),
        "0-1" => Ok(WhiteResult::Loss),
        "1/2-1/2" => Ok(WhiteResult::Draw),
        other => Err(Error::Game(format!("game {}: result '{other}'", rec.game_id))),
    }
}

/// One game's part of a batch: its key, result and quiet positions.
struct Played<P> {
    key: u64,
    result: WhiteResult,
    candidates: Vec<Candidate<P>>,
}

/// Plays (or resumes) a data run into `out`, under `rules` with the engine `engine` for the
/// games, the quiet filter and the labels. `command` is recorded in the header. Setting `halt`
/// stops the run after the games in progress; the file keeps every committed batch.
///
/// # Errors
/// Bad settings, a file begun with other settings or of another rule set, a game that cannot be
/// played, a write that fails, or [`Error::Interrupted`].
pub fn generate<P: Position>(
    rules: P::Rules,
    engine: &SearchConfig,
    settings: &Settings,
    out: &Path,
    command: &str,
    halt: &AtomicBool,
    hook: &mut (impl Hook + ?Sized),
) -> Result<Summary, Error> {
    let start = Instant::now();
    if settings.nodes == 0 || settings.games == 0 || settings.batch == 0 {
        return Err(Error::Config("--games, --nodes and the batch must be at least 1".into()));
    }
    let header = Header {
        levels: P::LEVELS,
        rules_id: rules.id().to_owned(),
        variant: rules.name().to_owned(),
        seed: settings.seed,
        settings: settings.describe(engine),
        command: command.to_owned(),
    };
    let (mut writer, done) =
        if out.exists() { DataWriter::open(out, &header)? } else { (DataWriter::create(out, &header)?, 0) };
    if done > settings.games {
        return Err(Error::Config(format!(
            "{} holds {done} games, more than the {} asked for (--games)",
            out.display(),
            settings.games
        )));
    }
    let mut seen = read_hashes(out, &header.rules_id)?;
    let cfg = settings.run_config(engine);
    let ours: Vec<u64> = (0..settings.games).filter(|&i| settings.shard.has_pair(i)).collect();
    let total = ours.len() as u64;
    hook.begin(total, done, writer.positions());
    let threads = if settings.threads == 0 { rayon::current_num_threads() } else { settings.threads };
    let (mut played, mut written, mut at) = (0, 0, usize::try_from(done).unwrap_or(usize::MAX));
    while at < ours.len() {
        let batch = &ours[at..(at + settings.batch as usize).min(ours.len())];
        let games = play_batch(rules, engine, &cfg, settings, batch, threads, halt, hook)?;
        let Some(games) = games else {
            return Err(Error::Interrupted { done: writer.games(), games: total });
        };
        played += batch.len() as u64;
        let picked: Vec<(u64, WhiteResult, Vec<Candidate<P>>)> = games
            .into_iter()
            .zip(batch)
            .map(|(g, _)| (g.key, g.result, pick(g.candidates, settings.per_game, &mut seen)))
            .collect();
        let Some(records) = label_batch(rules, engine, settings, picked, threads, halt) else {
            return Err(Error::Interrupted { done: writer.games(), games: total });
        };
        writer.commit(&records, batch.len() as u64)?;
        written += records.len() as u64;
        at += batch.len();
        hook.committed(writer.games(), writer.positions());
    }
    Ok(Summary { games: total, positions: writer.positions(), played, written, elapsed: start.elapsed() })
}

/// The hashes of the positions already in `out`.
fn read_hashes(out: &Path, rules_id: &str) -> Result<HashSet<u64>, Error> {
    let mut r = DataReader::open_for(out, rules_id)?;
    let mut seen = HashSet::new();
    while let Some(rec) = r.next_record()? {
        seen.insert(rec.hash);
    }
    Ok(seen)
}

/// Runs `work(worker state, i)` for `i` in `0..n` on `threads` workers, results in order; `None`
/// if `halt` was set or any item gave `None`. `on_done` is called on this thread per item.
fn parallel<T: Send, S>(
    n: usize,
    threads: usize,
    halt: &AtomicBool,
    init: impl Fn() -> Result<S, Error> + Sync,
    work: impl Fn(&mut S, usize) -> Result<Option<T>, Error> + Sync,
    mut on_done: impl FnMut(),
) -> Result<Option<Vec<T>>, Error> {
    let slots: Vec<Mutex<Option<T>>> = (0..n).map(|_| Mutex::new(None)).collect();
    let next = AtomicUsize::new(0);
    let failed = AtomicBool::new(false);
    let result = std::thread::scope(|scope| {
        let (tx, rx) = mpsc::channel::<Result<(), Error>>();
        for _ in 0..threads.clamp(1, n.max(1)) {
            let (tx, next, slots, init, work, failed) = (tx.clone(), &next, &slots, &init, &work, &failed);
            scope.spawn(move || {
                let mut state = match init() {
                    Ok(s) => s,
                    Err(e) => {
                        failed.store(true, Ordering::Relaxed);
                        drop(tx.send(Err(e)));
                        return;
                    }
                };
                while !halt.load(Ordering::Relaxed) && !failed.load(Ordering::Relaxed) {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    if i >= n {
                        break;
                    }
                    match work(&mut state, i) {
                        Ok(Some(t)) => {
                            *slots[i].lock().unwrap_or_else(std::sync::PoisonError::into_inner) = Some(t);
                            drop(tx.send(Ok(())));
                        }
                        Ok(None) => break,
                        Err(e) => {
                            failed.store(true, Ordering::Relaxed);
                            drop(tx.send(Err(e)));
                        }
                    }
                }
            });
        }
        drop(tx);
        let mut first_error = None;
        for r in rx {
            match r {
                Ok(()) => on_done(),
                Err(e) => {
                    first_error.get_or_insert(e);
                }
            }
        }
        first_error
    });
    if let Some(e) = result {
        return Err(e);
    }
    let out: Option<Vec<T>> =
        slots.into_iter().map(|m| m.into_inner().unwrap_or_else(std::sync::PoisonError::into_inner)).collect();
    Ok(out)
}

/// Plays the games `batch` and finds their quiet positions, in batch order.
#[allow(clippy::too_many_arguments)]
fn play_batch<P: Position>(
    rules: P::Rules,
    engine: &SearchConfig,
    cfg: &RunConfig,
    settings: &Settings,
    batch: &[u64],
    threads: usize,
    halt: &AtomicBool,
    hook: &mut (impl Hook + ?Sized),
) -> Result<Option<Vec<Played<P>>>, Error> {
    let quiet_config = SearchConfig { hash_mb: 0, ..engine.clone() };
    parallel(
        batch.len(),
        threads,
        halt,
        || {
            let player = GamePlayer::<P>::new(rules, cfg).map_err(|e| Error::Config(e.to_string()))?;
            Ok((player, Engine::<P>::new(rules, quiet_config.clone())))
        },
        |(player, quiet_engine), i| {
            let Some((record, plies)) = player.play(batch[i], halt).map_err(|e| Error::Game(e.to_string()))? else {
                return Ok(None);
            };
            let result = white_result(&record)?;
            let all = candidates(rules, &record, &plies).map_err(Error::Game)?;
            let c = quiet_in_order(quiet_engine, all, settings.per_game, settings.quiet, settings.seed, batch[i]);
            Ok(Some(Played { key: game_key(&record.game_id), result, candidates: c }))
        },
        || hook.played(),
    )
}

/// Labels the picked positions (a search of `label_nodes` each, or their game scores) and makes
/// them records, in order; `None` if stopped.
fn label_batch<P: Position>(
    rules: P::Rules,
    engine: &SearchConfig,
    settings: &Settings,
    picked: Vec<(u64, WhiteResult, Vec<Candidate<P>>)>,
    threads: usize,
    halt: &AtomicBool,
) -> Option<Vec<Record>> {
    let flat: Vec<(u64, WhiteResult, Candidate<P>)> =
        picked.into_iter().flat_map(|(k, r, cs)| cs.into_iter().map(move |c| (k, r, c))).collect();
    let label_config = SearchConfig { hash_mb: settings.label_hash_mb, ..engine.clone() };
    let scored = parallel(
        flat.len(),
        threads,
        halt,
        || Ok(Engine::<P>::new(rules, label_config.clone())),
        |e, i| {
            let c = &flat[i].2;
            if settings.label_nodes == 0 {
                return Ok(Some(Some(c.score)));
            }
            e.new_game();
            let r = e.search(&c.position, &[], &Limits::nodes(settings.label_nodes), halt, &mut |_| {});
            if halt.load(Ordering::Relaxed) {
                return Ok(None);
            }
            let mover = match r.score {
                Score::Cp(cp) => cp,
                Score::Mate(_) => return Ok(Some(None)),
            };
            let white = if c.position.turn() == stackchess_core::Color::White { mover } else { -mover };
            Ok(Some(Some(white)))
        },
        || {},
    )
    .ok()??;
    let records = flat
        .into_iter()
        .zip(scored)
        .filter_map(|((game, result, c), score)| {
            let score = i16::try_from(score?.clamp(-32_000, 32_000)).ok()?;
            Some(Record { hash: c.position.hash(), game, ply: c.ply, score, result, position: Packed::of(&c.position) })
        })
        .collect();
    Some(records)
}

/// Joins data files of one rule set into `out` (which must not exist), leaving out positions
/// already taken from an earlier file (by hash). Returns the positions written.
///
/// # Errors
/// Files of different rule sets or boards, unreadable or damaged files, or a failed write.
pub fn merge(inputs: &[&Path], out: &Path, command: &str) -> Result<u64, Error> {
    let first = inputs.first().ok_or_else(|| Error::Config("merge: no data file given".into()))?;
    let head = DataReader::open(first)?.header;
    let mut settings = Vec::new();
    for p in inputs {
        let r = DataReader::open_for(p, &head.rules_id)?;
        settings.push(format!("[{}: seed {} {}]", p.display(), r.header.seed, r.header.settings));
    }
    let header = Header { settings: format!("merged {}", settings.join(" ")), command: command.to_owned(), ..head };
    let mut writer = DataWriter::create(out, &header)?;
    let mut seen = HashSet::new();
    for p in inputs {
        let mut r = DataReader::open_for(p, &header.rules_id)?;
        let games = r.games;
        let mut batch = Vec::new();
        while let Some(rec) = r.next_record()? {
            if seen.insert(rec.hash) {
                batch.push(rec);
            }
        }
        writer.commit(&batch, games)?;
    }
    Ok(writer.positions())
}
