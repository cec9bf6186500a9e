//! Generations of nets: data from the current best player, a net trained on all the data so far,
//! a paired match of the new net against the best, the winner kept; repeated.
//!
//! A run lives in one directory: `gen-G/data.data` (the generation's data), `gen-G/net.nnue`,
//! `gen-G/gate/` (the match's run directory), and `best.nnue` once a net has won. Every step
//! resumes: the data run and the match from their files, a trained net is not trained again.

use crate::{prepare, train, Options, Prepared, Split, TrainError};
use stackchess_core::{Position, Rules, SplitMix64};
use stackchess_datagen::{generate, DataReader, Labels};
use stackchess_nnue::Features;
use stackchess_search::{Limits, NetFile, SearchConfig};
use stackchess_selfplay::{
    Adjudication, EngineSpec, NoProgress, Openings, ResignRule, RunConfig, RunEnd, Shard, Tally, TimeControl, Timing,
};
use stackchess_stats::EloEstimate;
use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicBool;

/// How generations are run.
#[derive(Clone, Debug)]
pub struct Settings {
    /// Generations.
    pub generations: usize,
    /// Positions of data each generation adds (at least).
    pub positions: u64,
    /// The data runs (their seed is varied by generation; `games` is set from `positions`).
    pub data: stackchess_datagen::Settings,
    /// Training.
    pub train: Options,
    /// The targets.
    pub labels: Labels,
    /// Share of games held out of training.
    pub holdout: f64,
    /// Each net a residual of the players' linear evaluation (the base config's parameters).
    pub residual: bool,
    /// Games of each gate match (colour-swapped pairs).
    pub gate_games: u64,
    /// The match's limits a move.
    pub gate_limits: Limits,
    /// Or its clock.
    pub gate_tc: Option<TimeControl>,
}

/// A generation's outcome.
#[derive(Clone, Debug)]
pub struct Generation {
    /// From 1.
    pub generation: usize,
    /// Positions of all generations so far.
    pub positions: usize,
    /// The new net.
    pub net: PathBuf,
    /// The last epoch's held-out error.
    pub holdout: f64,
    /// The gate: the new net against the best, from the new net's side.
    pub gate: Option<EloEstimate>,
    /// Whether the new net became the best.
    pub adopted: bool,
}

/// What a caller hears.
pub trait Hook: stackchess_datagen::Hook + crate::Hook {
    /// A step of generation `g` begins (`data`, `train`, `gate`).
    fn step(&mut self, _g: usize, _what: &str) {}
    /// A generation is done.
    fn generation(&mut self, _g: &Generation) {}
}

/// Why a generation failed.
#[derive(Debug, thiserror::Error)]
pub enum GenerationError {
    /// Its data.
    #[error(transparent)]
    Data(#[from] stackchess_datagen::Error),
    /// Its training.
    #[error(transparent)]
    Train(#[from] TrainError),
    /// A net file.
    #[error(transparent)]
    Net(#[from] stackchess_nnue::NetError),
    /// The gate match.
    #[error("the gate match: {0}")]
    Match(String),
    /// A directory.
    #[error("{}: {message}", path.display())]
    Io {
        /// The path.
        path: PathBuf,
        /// What failed.
        message: String,
    },
    /// Stopped; every finished step is on disk.
    #[error("interrupted in generation {0}: run the same command again to resume")]
    Interrupted(usize),
}

fn io(path: &Path) -> impl Fn(std::io::Error) -> GenerationError + '_ {
    move |e| GenerationError::Io { path: path.to_owned(), message: e.to_string() }
}

/// Runs (or resumes) `settings.generations` generations in `dir`, the first one's data played by
/// `base` (its net when it has one, as a rule set's default does, else its linear evaluation),
/// each later one's by the best so far (with `base`'s search and piece values).
///
/// # Errors
/// Training settings that cannot work (before anything is played), a step that fails, or
/// [`GenerationError::Interrupted`].
pub fn run<P: Position>(
    rules: P::Rules,
    base: &SearchConfig,
    dir: &Path,
    settings: &Settings,
    command: &str,
    halt: &AtomicBool,
    hook: &mut dyn Hook,
) -> Result<Vec<Generation>, GenerationError> {
    settings.train.check()?;
    std::fs::create_dir_all(dir).map_err(io(dir))?;
    let best_path = dir.join("best.nnue");
    let mut out = Vec::new();
    let mut files: Vec<PathBuf> = Vec::new();
    // The best player so far, as each generation met it: a resumed run goes through the finished
    // generations again (their data, nets and matches are read back, not made again), so every
    // generation plays and is gated against the same player as the first time.
    let mut best = base.net.clone();
    for g in 1..=settings.generations {
        let gdir = dir.join(format!("gen-{g}"));
        std::fs::create_dir_all(&gdir).map_err(io(&gdir))?;
        let player = SearchConfig { net: best.clone(), ..base.clone() };
        hook.step(g, "data");
        let data = gdir.join("data.data");
        make_data::<P>(rules, &player, settings, g, &data, command, halt, hook)?;
        files.push(data);
        hook.step(g, "train");
        let net_path = gdir.join("net.nnue");
        let holdout = if net_path.exists() {
            f64::NAN
        } else {
            let linear = settings.residual.then_some(&base.eval);
            train_on::<P>(rules, &files, settings, linear, &net_path, command, halt, hook).map_err(|e| {
                if matches!(e, GenerationError::Interrupted(_)) {
                    GenerationError::Interrupted(g)
                } else {
                    e
                }
            })?
        };
        let positions = files.iter().map(|f| DataReader::open(f).map(|r| r.positions)).sum::<Result<u64, _>>()?;
        hook.step(g, "gate");
        let net = NetFile::load::<P>(rules, &net_path)?;
        let candidate = SearchConfig { net: Some(net.clone()), ..base.clone() };
        let gate = gate::<P>(rules, &candidate, &player, settings, g, &gdir.join("gate"), halt)?;
        let adopted = gate.as_ref().is_some_and(|e| e.score > 0.5);
        if adopted {
            std::fs::copy(&net_path, &best_path).map_err(io(&best_path))?;
            best = Some(net);
        }
        let report = Generation { generation: g, positions: positions as usize, net: net_path, holdout, gate, adopted };
        hook.generation(&report);
        out.push(report);
    }
    Ok(out)
}

/// Plays generation `g`'s data into `path` until it holds `settings.positions` positions.
#[allow(clippy::too_many_arguments)]
fn make_data<P: Position>(
    rules: P::Rules,
    player: &SearchConfig,
    settings: &Settings,
    g: usize,
    path: &Path,
    command: &str,
    halt: &AtomicBool,
    hook: &mut dyn Hook,
) -> Result<(), GenerationError> {
    let per_game = if settings.data.per_game == 0 { 60 } else { settings.data.per_game } as u64;
    let mut data = stackchess_datagen::Settings {
        seed: SplitMix64::for_item(settings.data.seed, g as u64).next_u64() >> 1,
        games: settings.positions.div_ceil(per_game).max(1),
        ..settings.data.clone()
    };
    if path.exists() {
        // A resumed generation: its file may already hold more games than the first guess.
        let r = DataReader::open(path)?;
        if r.positions >= settings.positions {
            return Ok(());
        }
        data.games = data.games.max(r.games);
    }
    loop {
        generate::<P>(rules, player, &data, path, command, halt, hook)?;
        let have = DataReader::open(path)?.positions;
        if have >= settings.positions {
            return Ok(());
        }
        // Fewer positions a game than guessed: more games, in proportion.
        let more = (settings.positions - have).saturating_mul(data.games).div_ceil(have.max(1)).max(1);
        data.games += more;
    }
}

/// Trains a net on `files` into `path` (a residual of `linear` when given); the last epoch's
/// held-out error.
#[allow(clippy::too_many_arguments)]
fn train_on<P: Position>(
    rules: P::Rules,
    files: &[PathBuf],
    settings: &Settings,
    linear: Option<&stackchess_search::EvalParams>,
    path: &Path,
    command: &str,
    halt: &AtomicBool,
    hook: &mut dyn Hook,
) -> Result<f64, GenerationError> {
    let prior = linear.cloned().unwrap_or_default();
    let split = Split {
        labels: settings.labels,
        holdout: settings.holdout,
        seed: settings.train.seed,
        linear: &prior,
        residual: linear.is_some(),
    };
    let Prepared { positions, train: tr, holdout: ho, .. } = prepare::<P>(rules, files, &split)?;
    let inputs = Features::of::<P>(rules).inputs();
    let t = train(inputs, &tr, &ho, &settings.train, halt, &mut Epochs(hook))?;
    if halt.load(std::sync::atomic::Ordering::Relaxed) {
        return Err(GenerationError::Interrupted(0));
    }
    let about = format!("command: {command}; {positions} positions ({} held out)", ho.len());
    let mut net = t.net.quantise(rules.id(), P::LEVELS, &about);
    net.base = linear.map(stackchess_search::EvalParams::to_file).unwrap_or_default();
    net.write(path)?;
    Ok(t.epochs.last().map_or(f64::NAN, |e| e.holdout))
}

/// The paired match of `candidate` against `best`: the estimate from the candidate's side.
fn gate<P: Position>(
    rules: P::Rules,
    candidate: &SearchConfig,
    best: &SearchConfig,
    settings: &Settings,
    g: usize,
    dir: &Path,
    halt: &AtomicBool,
) -> Result<Option<EloEstimate>, GenerationError> {
    let spec = |label: &str, c: &SearchConfig| EngineSpec {
        label: label.into(),
        config: c.clone(),
        limits: settings.gate_limits,
        tc: settings.gate_tc,
        external: None,
    };
    let cfg = RunConfig {
        seed: SplitMix64::for_item(settings.data.seed ^ 0x6A7E, g as u64).next_u64() >> 1,
        games: settings.gate_games,
        threads: settings.data.threads,
        openings: Openings::Random { plies: settings.data.random_plies },
        opening_filter: None,
        paired: true,
        adjudication: Adjudication {
            max_plies: Some(settings.data.max_plies),
            resign: Some(ResignRule { moves: 4, score: 1000 }),
            draw: None,
        },
        engines: vec![spec("new", candidate), spec("best", best)],
        event: format!("stackchess nnue gate {g}"),
        shard: Shard::WHOLE,
        timing: Timing::default(),
    };
    let resume = dir.join(stackchess_selfplay::run::MANIFEST).exists();
    let summary = stackchess_selfplay::run::<P>(rules, dir, &cfg, resume, halt, &mut NoProgress)
        .map_err(|e| GenerationError::Match(e.to_string()))?;
    if summary.end != RunEnd::Complete {
        return Err(GenerationError::Interrupted(g));
    }
    let records = stackchess_selfplay::read_records(&dir.join(stackchess_selfplay::run::GAMES_CSV))
        .map_err(|e| GenerationError::Match(e.to_string()))?;
    let mut tally = Tally::new(true);
    for r in &records {
        tally.add(r);
    }
    Ok(EloEstimate::pentanomial(&tally.penta))
}

struct Epochs<'a>(&'a mut dyn Hook);
impl crate::Hook for Epochs<'_> {
    fn epoch(&mut self, e: &crate::Epoch) {
        self.0.epoch(e);
    }
}
