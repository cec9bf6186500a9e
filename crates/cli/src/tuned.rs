//! Tuning as the commands use it: the progress of a tuning run, one call that tunes a rule set
//! (`tune`, and `--tune` on `balance`, `selfplay` and `match`, which caches the result by rule-set
//! id and settings), and the `--tune` flags.

use crate::common::{note, Evaluation};
use crate::progress::DataBar;
use anyhow::{Context, Result};
use stackchess_core::Position;
use stackchess_search::SearchConfig;
use stackchess_tune::{Cache, Outcome, Settings};
use stackchess_variants::{Variant, WithPosition};
use std::path::{Path, PathBuf};

/// The data run's games, then the fit and its bootstrap.
impl stackchess_tune::Hook for DataBar {
    fn fitting(&mut self, train: usize, holdout: usize) {
        self.finish();
        if !self.quiet {
            eprintln!("fitting {train} positions ({holdout} held out)");
        }
    }
    fn resampled(&mut self, done: usize, total: usize) {
        if !self.quiet && (done == total || done.is_multiple_of(5)) {
            eprintln!("bootstrap: {done}/{total} resamples refit");
        }
    }
}

/// Tunes `variant` from the prior `engine.eval` with `settings`, making the data in `data` when
/// `settings.from` is empty; SIGINT and SIGTERM stop the data run cleanly (the same call resumes).
pub fn tune(variant: Variant, engine: &SearchConfig, settings: &Settings, data: &Path, quiet: bool) -> Result<Outcome> {
    struct Run<'a>(&'a SearchConfig, &'a Settings, &'a Path, bool);
    impl WithPosition for Run<'_> {
        type Output = Result<Outcome>;
        fn call<P: Position>(self, rules: P::Rules) -> Result<Outcome> {
            let Run(engine, settings, data, quiet) = self;
            let _run = crate::interrupt::run()?;
            let command = std::env::args().collect::<Vec<_>>().join(" ");
            let mut ui = DataBar::new(quiet);
            let out =
                stackchess_tune::tune::<P>(rules, engine, settings, data, &command, &crate::interrupt::STOP, &mut ui);
            ui.finish();
            Ok(out?)
        }
    }
    variant.with(Run(engine, settings, data, quiet))
}

/// `--tune` and its settings, for `balance`, `selfplay` and `match`.
#[derive(clap::Args, Debug, Clone)]
pub struct TuneArgs {
    /// Tune the rule set's evaluation first (or reuse the cached result of the same rules and
    /// tuning settings) and play with it.
    #[arg(long)]
    pub tune: bool,
    /// Games of the tuning data.
    #[arg(long, default_value_t = Settings::default().data.games, value_name = "N")]
    pub tune_games: u64,
    /// Nodes a move in the tuning games.
    #[arg(long, default_value_t = Settings::default().data.nodes, value_name = "N")]
    pub tune_nodes: u64,
    /// Nodes of the search that labels each tuning position.
    #[arg(long, default_value_t = Settings::default().data.label_nodes, value_name = "N")]
    pub tune_label_nodes: u64,
    /// Seed of the tuning games.
    #[arg(long, default_value_t = Settings::default().data.seed, value_name = "S")]
    pub tune_seed: u64,
    /// Cache of tuned parameters (default: `$XDG_CACHE_HOME/stackchess/tuned` or `~/.cache/stackchess/tuned`;
    /// with `balance --plan`, `DIR/cache/tuned`, which its shards reuse).
    #[arg(long, value_name = "DIR")]
    pub tune_cache: Option<PathBuf>,
}

impl TuneArgs {
    fn settings(&self, threads: usize) -> Settings {
        let mut s = Settings::default();
        s.data.games = self.tune_games;
        s.data.nodes = self.tune_nodes;
        s.data.label_nodes = self.tune_label_nodes;
        s.data.seed = self.tune_seed;
        s.data.threads = threads;
        s.fit.threads = threads;
        s
    }

    /// The evaluation `variant` plays with: with `--tune`, its tuned parameters (from the cache,
    /// or tuned now and cached); without, its preset (a user-defined rule set's base's, said on
    /// stderr).
    pub fn evaluation(&self, variant: Variant, threads: usize, quiet: bool) -> Result<Evaluation> {
        let preset = Evaluation::preset(variant)?;
        if !self.tune {
            if let Some(text) = preset.borrowed() {
                note(&text);
            }
            return Ok(preset);
        }
        let cache = Cache::new(crate::common::cache_dir(self.tune_cache.as_deref(), "tuned", "--tune-cache")?);
        let settings = self.settings(threads);
        let engine = preset.engine.clone();
        let id = variant.rules_id();
        let key = Cache::key(id, preset.params(), &settings.describe(&engine));
        let path = cache.path(&key);
        let source = format!("tuned {key} (rules {id})");
        if let Some(params) = cache.get(&key)? {
            note(&format!("{variant}: reusing its tuned parameters {}", path.display()));
            return Ok(Evaluation {
                engine: SearchConfig { eval: params, ..engine },
                source,
                borrowed_from: None,
                variant,
            });
        }
        note(&format!("{variant}: tuning its evaluation first (from {}), cached as {}", preset.source, path.display()));
        std::fs::create_dir_all(cache.dir()).with_context(|| format!("creating {}", cache.dir().display()))?;
        let outcome = tune(variant, &engine, &settings, &cache.data_path(&key), quiet)?;
        let header = vec![
            format!("evaluation of {variant} (rules {id}), tuned by --tune from {}", preset.source),
            format!("settings: {}", settings.describe(&engine)),
        ];
        cache.put(&key, &outcome.to_file(&header))?;
        Ok(Evaluation { engine: SearchConfig { eval: outcome.params, ..engine }, source, borrowed_from: None, variant })
    }
}
