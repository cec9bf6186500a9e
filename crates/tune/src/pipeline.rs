//! Tuning end to end: the data (a data file, or a `datagen` run made for it), the rows, the
//! held-out split by game, the fit, the losses of the prior and the fit on the same held-out
//! games, and bootstrap standard errors.

use crate::bootstrap::standard_errors;
use crate::fit::{best_k, fit, loss, FitOptions, HELD};
use crate::rows::{rows, Rows};
use crate::TuneError;
use stackchess_core::{Position, Rules, SplitMix64};
use stackchess_datagen::{generate, DataReader, Labels};
use stackchess_search::{EvalParams, Evaluation, SearchConfig};
use std::collections::HashSet;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicBool;
use std::time::Instant;

/// How to tune.
#[derive(Clone, Debug, PartialEq)]
pub struct Settings {
    /// Data files to fit (of the rule set); when empty, a data run with [`Settings::data`] makes one.
    pub from: Vec<PathBuf>,
    /// The data run (when `from` is empty): games by the engine being tuned, a few quiet positions
    /// each, labelled by a deeper search.
    pub data: stackchess_datagen::Settings,
    /// The targets.
    pub labels: Labels,
    /// Share of games held out of the fit, to measure it.
    pub holdout: f64,
    /// Seed of the held-out split and the bootstrap.
    pub seed: u64,
    /// The fit.
    pub fit: FitOptions,
    /// Bootstrap resamples for the standard errors (0: none).
    pub bootstrap: usize,
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            from: Vec::new(),
            data: stackchess_datagen::Settings {
                games: 4000,
                nodes: 1000,
                per_game: 8,
                label_nodes: 10_000,
                ..Default::default()
            },
            labels: Labels::default(),
            holdout: 0.1,
            seed: 1,
            fit: FitOptions::default(),
            bootstrap: 20,
        }
    }
}

impl Settings {
    /// The settings that decide the result, on one line (threads left out): with the rule set's id
    /// and the prior, the key of a cached result.
    #[must_use]
    pub fn describe(&self, engine: &SearchConfig) -> String {
        let data = if self.from.is_empty() {
            format!("data: {} games, seed {} {}", self.data.games, self.data.seed, self.data.describe(engine))
        } else {
            let files: Vec<String> = self.from.iter().map(|p| p.display().to_string()).collect();
            format!("data: {}", files.join(" "))
        };
        format!(
            "{data}; lambda={} scale={} holdout={} seed={} ridge={} band={} keep={} legal_mobility={} bootstrap={} max_iters={}",
            self.labels.lambda,
            self.labels.scale,
            self.holdout,
            self.seed,
            self.fit.ridge,
            self.fit.band,
            if self.fit.keep.is_empty() { "none".to_owned() } else { self.fit.keep.join(",") },
            self.fit.legal_mobility,
            self.bootstrap,
            self.fit.max_iters
        )
    }
}

/// What a caller hears while tuning goes on.
pub trait Hook: stackchess_datagen::Hook {
    /// The data is read: positions to fit and held out.
    fn fitting(&mut self, _train: usize, _holdout: usize) {}
    /// A bootstrap resample is refit.
    fn resampled(&mut self, _done: usize, _total: usize) {}
}

/// A [`Hook`] that does nothing.
pub struct NoHook;
impl stackchess_datagen::Hook for NoHook {}
impl Hook for NoHook {}

/// The mean losses of the prior and the fit on the training positions and the held-out games'.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Losses {
    /// The prior at its best scale, on the training positions.
    pub prior_train: f64,
    /// The prior, on the held-out positions.
    pub prior_holdout: f64,
    /// The fit, on the training positions.
    pub fit_train: f64,
    /// The fit, on the held-out positions.
    pub fit_holdout: f64,
}

/// What tuning found.
#[derive(Clone, Debug, PartialEq)]
pub struct Outcome {
    /// The fitted parameters.
    pub params: EvalParams,
    /// The prior (the parameters the fit is pulled toward: the rule set's preset).
    pub prior: EvalParams,
    /// Which parameters were fitted.
    pub fitted: [bool; EvalParams::COUNT],
    /// Bootstrap standard errors (0 where not fitted); `None` without a bootstrap.
    pub errors: Option<[f64; EvalParams::COUNT]>,
    /// The fitted scale, and the prior's best one.
    pub k: f64,
    /// The prior's best scale on the training positions.
    pub prior_k: f64,
    /// The losses.
    pub losses: Losses,
    /// Positions fitted and held out.
    pub positions: (usize, usize),
    /// Games fitted and held out.
    pub games: (usize, usize),
    /// L-BFGS iterations.
    pub iterations: u64,
    /// Seconds of the fit and its bootstrap.
    pub fit_seconds: f64,
}

/// FNV-1a of a game key: where the split looks.
fn held_out(seed: u64, game: u64, share: f64) -> bool {
    share > 0.0 && (SplitMix64::for_item(seed, game).next_u64() >> 11) as f64 / (1u64 << 53) as f64 <= share
}

/// Tunes the evaluation of `rules` from the prior `engine.eval`: makes the data (when
/// `settings.from` is empty) in `data_path` with the engine `engine`, fits, and measures. Setting
/// `halt` stops the data run with every committed batch kept (the same call resumes it).
///
/// # Errors
/// Data that cannot be made or read, positions the rules refuse, or a failed fit.
pub fn tune<P: Position>(
    rules: P::Rules,
    engine: &SearchConfig,
    settings: &Settings,
    data_path: &Path,
    command: &str,
    halt: &AtomicBool,
    hook: &mut dyn Hook,
) -> Result<Outcome, TuneError> {
    let files = if settings.from.is_empty() {
        generate::<P>(rules, engine, &settings.data, data_path, command, halt, hook)?;
        vec![data_path.to_owned()]
    } else {
        settings.from.clone()
    };
    let records = DataReader::read_files(&files, rules.id())?;
    let prior = &engine.eval;
    let threads = if settings.fit.threads == 0 {
        std::thread::available_parallelism().map_or(1, std::num::NonZero::get)
    } else {
        settings.fit.threads
    };
    let all = rows::<P>(rules, &Evaluation::new::<P>(rules, prior), &records, settings.labels, threads)
        .map_err(TuneError::Rows)?;
    let out = |i: usize| held_out(settings.seed, all.game[i], settings.holdout);
    let (train, holdout) = (all.filter(|i| !out(i)), all.filter(out));
    hook.fitting(train.len(), holdout.len());
    let began = Instant::now();
    let fitted = fit(&train, None, prior, prior, &settings.fit)?;
    let prior_k = best_k(&train, None, prior, threads);
    let losses = Losses {
        prior_train: loss(&train, None, prior, prior_k, threads),
        prior_holdout: loss(&holdout, None, prior, prior_k, threads),
        fit_train: loss(&train, None, &fitted.params, fitted.k, threads),
        fit_holdout: loss(&holdout, None, &fitted.params, fitted.k, threads),
    };
    let total = settings.bootstrap;
    let errors = if total == 0 {
        None
    } else {
        Some(standard_errors(&train, &fitted, prior, &settings.fit, total, settings.seed, &mut |d| {
            hook.resampled(d, total);
        })?)
    };
    Ok(Outcome {
        params: fitted.params.clone(),
        prior: prior.clone(),
        fitted: fitted.fitted,
        errors,
        k: fitted.k,
        prior_k,
        losses,
        positions: (train.len(), holdout.len()),
        games: (games(&train), games(&holdout)),
        iterations: fitted.iterations,
        fit_seconds: began.elapsed().as_secs_f64(),
    })
}

fn games(rows: &Rows) -> usize {
    rows.game.iter().collect::<HashSet<_>>().len()
}

impl Outcome {
    /// The result as a parameter file (format 2; `--params` reads it): the `header` lines as
    /// comments, the losses, then each key with its value and a comment: its standard error, or
    /// why it was not fitted.
    #[must_use]
    pub fn to_file(&self, header: &[String]) -> String {
        let mut out = String::new();
        for h in header {
            let _ = writeln!(out, "# {h}");
        }
        let l = &self.losses;
        let _ = writeln!(
            out,
            "# {} positions fitted ({} games), {} held out ({} games)\n\
             # mean loss, training / held out: prior {:.5} / {:.5} (K {:.4}); fit {:.5} / {:.5} (K {:.4})\n\
             # each value: the fit, then its bootstrap standard error over games",
            self.positions.0,
            self.games.0,
            self.positions.1,
            self.games.1,
            l.prior_train,
            l.prior_holdout,
            self.prior_k,
            l.fit_train,
            l.fit_holdout,
            self.k
        );
        out.push_str("format = 2\n");
        for (j, (key, v)) in EvalParams::KEYS.iter().zip(self.params.values()).enumerate() {
            let note = if self.fitted[j] {
                self.errors.map_or_else(|| "fitted".to_owned(), |e| format!("± {:.1}", e[j]))
            } else if HELD.contains(key) {
                "held".to_owned()
            } else {
                "not fitted (held, or never in the data)".to_owned()
            };
            let _ = writeln!(out, "{key} = {v}  # {note}");
        }
        out
    }
}
