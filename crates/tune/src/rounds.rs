//! Rounds of tuning: play games with the current parameters, refit on every game so far, repeat.

use crate::data::{read_games, sample, Split};
use crate::fit::{best_k, fit, loss, FitOptions};
use crate::TuneError;
use stackchess_core::{Position, SplitMix64};
use stackchess_search::{EvalParams, Evaluation, Limits, SearchConfig};
use stackchess_selfplay::{
    Adjudication, EngineSpec, GameRecord, Openings, Progress, ResignRule, RunConfig, RunEnd, Shard,
};
use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicBool;
use std::time::Instant;

/// How to tune.
#[derive(Clone, Debug, PartialEq)]
pub struct Settings {
    /// Self-play games per round (0: fit on `--from` records alone).
    pub games: u64,
    /// Search nodes per move in those games.
    pub nodes: u64,
    /// Rounds of play and fit.
    pub rounds: u32,
    /// Base seed: each round's games, and which games are held out.
    pub seed: u64,
    /// Share of games held out of the fit, to measure it.
    pub holdout: f64,
    /// Random plies of each game's opening.
    pub opening_plies: u32,
    /// Games longer than this are adjudicated drawn.
    pub max_plies: u32,
    /// Both searches see one side down this many centipawns for 4 moves each: a loss (0: never).
    pub resign_score: i32,
    /// Fit `mobility` too.
    pub mobility: bool,
    /// The pull toward the starting parameters ([`FitOptions::ridge`]).
    pub ridge: f64,
    /// Terms held at their starting values ([`FitOptions::keep`]).
    pub keep: Vec<String>,
    /// Worker threads for play and fit (0: one per core).
    pub threads: usize,
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            games: 1000,
            nodes: 1000,
            rounds: 2,
            seed: 1,
            holdout: 0.1,
            opening_plies: 8,
            max_plies: 300,
            resign_score: 1000,
            mobility: false,
            ridge: crate::fit::DEFAULT_RIDGE,
            keep: crate::fit::default_keep(),
            threads: 0,
        }
    }
}

impl Settings {
    /// The settings that decide the result, on one line (threads left out): with the rule set's
    /// id and the starting parameters, the key of a cached result.
    #[must_use]
    pub fn describe(&self) -> String {
        format!(
            "games={} nodes={} rounds={} seed={} holdout={} openings=random:{} max_plies={} resign={} mobility={} ridge={}{}",
            self.games,
            self.nodes,
            self.rounds,
            self.seed,
            self.holdout,
            self.opening_plies,
            self.max_plies,
            self.resign_score,
            self.mobility,
            self.ridge,
            // Said only when terms are held, so the keys of earlier results stay as they were.
            if self.keep.is_empty() { String::new() } else { format!(" keep={}", self.keep.join(",")) }
        )
    }
}

/// What one round did.
#[derive(Clone, Debug, PartialEq)]
pub struct Round {
    /// From 1.
    pub round: u32,
    /// Games the fit read (every round's so far, and the `from` directories'), and of those
    /// held out.
    pub games: usize,
    /// Held-out games.
    pub held_out_games: usize,
    /// Positions fitted.
    pub train_positions: usize,
    /// Positions held out.
    pub holdout_positions: usize,
    /// The scale that fits the round's starting parameters best, and their mean losses.
    pub start_k: f64,
    /// Training loss of the starting parameters (at `start_k`).
    pub start_train: f64,
    /// Held-out loss of the starting parameters (at `start_k`).
    pub start_holdout: f64,
    /// The fitted scale.
    pub k: f64,
    /// Training loss of the fitted parameters (rounded, at `k`).
    pub train: f64,
    /// Held-out loss of the fitted parameters.
    pub holdout: f64,
    /// L-BFGS iterations.
    pub iterations: u64,
    /// Seconds the fit took (sampling excluded).
    pub fit_seconds: f64,
    /// The fitted parameters.
    pub params: EvalParams,
}

/// Hooks while tuning goes on (the CLI draws its progress bar with them).
pub trait Hook {
    /// A round's games begin: how many the round has, and how many exist already.
    fn games(&mut self, _round: u32, _total: u64, _done: u64) {}
    /// A game finished.
    fn game(&mut self) {}
    /// The fit of a round begins, on so many positions.
    fn fitting(&mut self, _round: u32, _positions: usize) {}
    /// A round is done.
    fn round(&mut self, _report: &Round) {}
}

/// A [`Hook`] that does nothing.
pub struct NoHook;
impl Hook for NoHook {}

/// Forwards self-play progress to the hook.
struct Games<'a>(&'a mut dyn Hook, u32);

impl Progress for Games<'_> {
    fn begin(&mut self, total: u64, done: u64) {
        self.0.games(self.1, total, done);
    }
    fn finished(&mut self, _record: &GameRecord) -> bool {
        self.0.game();
        true
    }
}

/// The directory of round `r`'s games under `dir`, played with `params`: `round-R-<8 hex digits
/// of the parameters>`, so a run with other settings (whose later rounds play other parameters)
/// never meets another's games, and the same run resumes its own.
#[must_use]
pub fn round_dir(dir: &Path, r: u32, params: &EvalParams) -> PathBuf {
    let h = params
        .describe()
        .bytes()
        .fold(0xcbf2_9ce4_8422_2325u64, |h, b| (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3));
    dir.join(format!("round-{r}-{:08x}", h >> 32))
}

/// Tunes the evaluation of `rules` from `start`: `settings.rounds` rounds, each playing
/// `settings.games` self-play games with the current parameters in [`round_dir`] (resumed when
/// they exist) and fitting on every game so far plus the records in `from`. Setting `stop` ends
/// the games in progress with every finished one on disk: the same call again resumes.
///
/// # Errors
/// Self-play errors, unreadable records, an interruption, or a failed fit.
pub fn tune<P: Position>(
    rules: P::Rules,
    start: &EvalParams,
    settings: &Settings,
    dir: &Path,
    from: &[PathBuf],
    stop: &AtomicBool,
    hook: &mut dyn Hook,
) -> Result<Vec<Round>, TuneError> {
    let mut records = Vec::new();
    for d in from {
        records.extend(read_games(d).map_err(|e| TuneError::Records { dir: d.clone(), message: e.to_string() })?);
    }
    let mut params = start.clone();
    let mut rounds = Vec::new();
    for r in 1..=settings.rounds {
        if settings.games > 0 {
            let rd = round_dir(dir, r, &params);
            play::<P>(rules, &params, settings, r, &rd, stop, hook)?;
            records
                .extend(read_games(&rd).map_err(|e| TuneError::Records { dir: rd.clone(), message: e.to_string() })?);
        }
        let eval = Evaluation::new::<P>(rules, &params);
        let Split { train, holdout, games, held_out_games } =
            sample::<P>(rules, &eval, &records, settings.seed, settings.holdout).map_err(TuneError::Replay)?;
        hook.fitting(r, train.len());
        let began = Instant::now();
        let start_k = best_k(&train, &params, settings.threads);
        let opts = FitOptions {
            mobility: settings.mobility,
            threads: settings.threads,
            ridge: settings.ridge,
            keep: settings.keep.clone(),
            ..FitOptions::default()
        };
        let fitted = fit(&train, &params, &opts)?;
        let fit_seconds = began.elapsed().as_secs_f64();
        let report = Round {
            round: r,
            games,
            held_out_games,
            train_positions: train.len(),
            holdout_positions: holdout.len(),
            start_k,
            start_train: loss(&train, &params, start_k, settings.threads),
            start_holdout: loss(&holdout, &params, start_k, settings.threads),
            k: fitted.k,
            train: loss(&train, &fitted.params, fitted.k, settings.threads),
            holdout: loss(&holdout, &fitted.params, fitted.k, settings.threads),
            iterations: fitted.iterations,
            fit_seconds,
            params: fitted.params.clone(),
        };
        hook.round(&report);
        rounds.push(report);
        params = fitted.params;
    }
    Ok(rounds)
}

/// Plays (or completes) round `r`'s games with `params`.
fn play<P: Position>(
    rules: P::Rules,
    params: &EvalParams,
    settings: &Settings,
    r: u32,
    dir: &Path,
    stop: &AtomicBool,
    hook: &mut dyn Hook,
) -> Result<(), TuneError> {
    std::fs::create_dir_all(dir).map_err(|e| TuneError::Io { path: dir.to_owned(), message: e.to_string() })?;
    let engine = EngineSpec {
        label: "default".into(),
        config: SearchConfig::full(params.clone()).with_source(format!("tune round {r}")),
        limits: Limits::nodes(settings.nodes),
        tc: None,
        external: None,
    };
    let cfg = RunConfig {
        // Each round its own openings.
        seed: SplitMix64::for_item(settings.seed, u64::from(r)).next_u64() >> 1,
        games: settings.games,
        threads: settings.threads,
        openings: Openings::Random { plies: settings.opening_plies },
        opening_filter: None,
        paired: false,
        adjudication: Adjudication {
            max_plies: Some(settings.max_plies),
            resign: (settings.resign_score > 0).then_some(ResignRule { moves: 4, score: settings.resign_score }),
            draw: None,
        },
        engines: vec![engine],
        event: format!("stackchess tune round {r}"),
        shard: Shard::WHOLE,
        timing: stackchess_selfplay::Timing::default(),
    };
    let resume = dir.join(stackchess_selfplay::run::MANIFEST).exists();
    let summary = stackchess_selfplay::run::<P>(rules, dir, &cfg, resume, stop, &mut Games(hook, r))
        .map_err(|e| TuneError::SelfPlay { round: r, message: e.to_string() })?;
    if summary.end == RunEnd::Interrupted {
        return Err(TuneError::Interrupted { round: r, done: summary.done, games: summary.games });
    }
    Ok(())
}
