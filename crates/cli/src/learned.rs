//! Nets as the commands learn them: the progress of a generations run, one call that runs one
//! (`nnue`, and `--nnue` on `balance`, which keeps the run by rule-set id and settings and plays
//! its best net), and the `--nnue` flags.

use crate::common::{note, EngineArgs, Evaluation};
use crate::progress::DataBar;
use anyhow::{Context, Result};
use stackchess_core::Position;
use stackchess_datagen::Labels;
use stackchess_search::{Limits, NetFile, SearchConfig};
use stackchess_train::generations::{self, Generation, Settings};
use stackchess_train::{Epoch, Options};
use stackchess_variants::{Variant, WithPosition};
use std::path::{Path, PathBuf};

impl stackchess_train::Hook for DataBar {
    fn epoch(&mut self, e: &Epoch) {
        if !self.quiet {
            eprintln!("  epoch {:>3}: train {:.6} held out {:.6} ({:.1} s)", e.epoch, e.train, e.holdout, e.seconds);
        }
    }
}

impl generations::Hook for DataBar {
    fn step(&mut self, g: usize, what: &str) {
        self.finish();
        if !self.quiet {
            eprintln!("generation {g}: {what}");
        }
    }
    fn generation(&mut self, r: &Generation) {
        self.finish();
        if !self.quiet {
            eprintln!("{}", line(r));
        }
    }
}

/// One generation's line: its data, held-out error, gate match and verdict.
#[must_use]
pub fn line(r: &Generation) -> String {
    let gate = r
        .gate
        .as_ref()
        .map_or_else(|| "no games".to_owned(), |e| format!("{:+.1} [{:+.1}, {:+.1}] Elo", e.elo, e.lower, e.upper));
    format!(
        "generation {}: {} positions in all, held-out error {:.6}; against the best: {gate}; {}",
        r.generation,
        r.positions,
        r.holdout,
        if r.adopted { "adopted" } else { "kept the best" }
    )
}

/// Runs (or resumes) the generations of `settings` for `variant` in `dir`, from the engine
/// `base`; SIGINT and SIGTERM stop it cleanly (the same call resumes).
pub fn run_generations(
    variant: Variant,
    base: &SearchConfig,
    dir: &Path,
    settings: &Settings,
    quiet: bool,
) -> Result<Vec<Generation>> {
    struct Run<'a>(&'a SearchConfig, &'a Path, &'a Settings, bool);
    impl WithPosition for Run<'_> {
        type Output = Result<Vec<Generation>>;
        fn call<P: Position>(self, rules: P::Rules) -> Self::Output {
            let Run(base, dir, settings, quiet) = self;
            let command = std::env::args().collect::<Vec<_>>().join(" ");
            let _run = crate::interrupt::run()?;
            let mut ui = DataBar::new(quiet);
            let out = generations::run::<P>(rules, base, dir, settings, &command, &crate::interrupt::STOP, &mut ui);
            ui.finish();
            Ok(out?)
        }
    }
    variant.with(Run(base, dir, settings, quiet))
}

/// `--nnue` and its settings, for `balance`.
#[derive(clap::Args, Debug, Clone)]
pub struct NnueArgs {
    /// Learn a net for each rule set first (residual nets over its evaluation, generations of
    /// data from the best player gated by matches; or reuse the run of the same rules and
    /// settings) and play with the best one.
    #[arg(long)]
    pub nnue: bool,
    /// Generations of the learning run.
    #[arg(long, default_value_t = 2, value_name = "G")]
    pub nnue_generations: usize,
    /// Positions of data each generation adds.
    #[arg(long, default_value_t = 1_000_000, value_name = "N")]
    pub nnue_positions: u64,
    /// Nodes a move in the data games.
    #[arg(long, default_value_t = 500, value_name = "N")]
    pub nnue_nodes: u64,
    /// Neurons of the nets' first layer.
    #[arg(long, default_value_t = 32, value_name = "H")]
    pub nnue_hidden: usize,
    /// Games of each gate match (colour-swapped pairs, at 2000 nodes a move).
    #[arg(long, default_value_t = 400, value_name = "N")]
    pub nnue_gate_games: u64,
    /// Seed of the learning run.
    #[arg(long, default_value_t = 1, value_name = "S")]
    pub nnue_seed: u64,
    /// Where learning runs are kept (default: `$XDG_CACHE_HOME/stackchess/nnue` or
    /// `~/.cache/stackchess/nnue`; with `balance --plan`, `DIR/cache/nnue`, which its shards reuse).
    #[arg(long, value_name = "DIR")]
    pub nnue_cache: Option<PathBuf>,
}

impl NnueArgs {
    /// The settings of the learning run, the nets' training on `threads` workers.
    fn settings(&self, threads: usize) -> Settings {
        Settings {
            generations: self.nnue_generations,
            positions: self.nnue_positions,
            data: stackchess_datagen::Settings {
                nodes: self.nnue_nodes,
                per_game: 0,
                label_nodes: 0,
                seed: self.nnue_seed,
                threads,
                ..stackchess_datagen::Settings::default()
            },
            train: Options {
                hidden: self.nnue_hidden,
                epochs: 8,
                batch: 8192,
                seed: self.nnue_seed,
                threads,
                ..Options::default()
            },
            labels: Labels { lambda: 1.0, ..Labels::default() },
            holdout: 0.05,
            residual: true,
            gate_games: self.nnue_gate_games,
            gate_limits: Limits::nodes(2000),
            gate_tc: None,
        }
    }

    /// The learning settings as text, for the run's key (threads left out: they change nothing).
    fn describe(&self) -> String {
        format!(
            "nnue generations={} positions={} nodes={} hidden={} gate_games={} seed={} residual lambda=1 epochs=8",
            self.nnue_generations,
            self.nnue_positions,
            self.nnue_nodes,
            self.nnue_hidden,
            self.nnue_gate_games,
            self.nnue_seed
        )
    }

    /// The evaluation `eval` of its rule set plays with: without `--nnue`, itself; with, its
    /// best learnt net over it (a run in the cache, resumed or reused), or itself when no
    /// generation's net beat it (stderr says which).
    pub fn evaluation(&self, eval: Evaluation, threads: usize, quiet: bool) -> Result<Evaluation> {
        if !self.nnue {
            return Ok(eval);
        }
        let variant = eval.variant;
        let base = EngineArgs::default().config_from(variant.name(), Some(&eval))?;
        let root = crate::common::cache_dir(self.nnue_cache.as_deref(), "nnue", "--nnue-cache")?;
        let id = variant.rules_id();
        let key = stackchess_tune::Cache::key(id, &base.eval, &format!("{}\n{}", self.describe(), base.describe()));
        let dir = root.join(&key);
        let start = match &base.net {
            Some(n) => format!("{} with the net {}", eval.source, n.path),
            None => eval.source.clone(),
        };
        note(&format!("{variant}: learning its net (from {start}) in {}", dir.display()));
        let gens = run_generations(variant, &base, &dir, &self.settings(threads), quiet)?;
        let best = dir.join("best.nnue");
        if !best.exists() {
            note(&format!("{variant}: no generation's net beat {start} in its gate; playing it"));
            return Ok(eval);
        }
        let net = load(variant, &best)?;
        let won = gens.iter().rev().find(|g| g.adopted).map_or(0, |g| g.generation);
        note(&format!("{variant}: playing its learnt net {} (generation {won})", best.display()));
        let source = format!("{} with the learnt net {key} (rules {id})", eval.source);
        Ok(Evaluation { engine: SearchConfig { net: Some(net), ..base }, source, ..eval })
    }
}

/// The net file `path`, read for `variant`.
fn load(variant: Variant, path: &Path) -> Result<NetFile> {
    struct Load<'a>(&'a Path);
    impl WithPosition for Load<'_> {
        type Output = Result<NetFile, stackchess_nnue::NetError>;
        fn call<P: Position>(self, rules: P::Rules) -> Self::Output {
            NetFile::load::<P>(rules, self.0)
        }
    }
    variant.with(Load(path)).with_context(|| format!("the learnt net {}", path.display()))
}
