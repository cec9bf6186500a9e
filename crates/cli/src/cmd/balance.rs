//! `stackchess balance`: the main job. A self-play batch of each variant, then the comparison
//! table on stdout and the HTML report.
//!
//! Each variant's batch lives in `DIR/<variant>/` (a normal self-play directory); running the
//! command again with the same settings reuses the finished games and plays only missing ones.

use crate::cmd::stats::{notes, warn_skipped, AnalysisArgs, OutputArgs};
use anyhow::{bail, Context, Result};
use indicatif::{ProgressBar, ProgressStyle};
use stackchess_analysis::{analyse, compare_sets, comparisons_table, load, render, write_all, Options, Table};
use stackchess_core::{Position, Rules};
use stackchess_search::{Limits, SearchConfig};
use stackchess_selfplay::{Adjudication, EngineSpec, GameRecord, Progress, ResignRule, RunConfig, RunEnd, Shard};
use stackchess_variants::{Variant, VariantArg, WithPosition};
use std::io::IsTerminal;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// Games per variant by default: with [`DEFAULT_NODES`], the whole job takes a few minutes on
/// two cores in a release build (see README).
pub const DEFAULT_GAMES: u64 = 1000;
/// Nodes per move by default.
pub const DEFAULT_NODES: u64 = 1000;

/// Flags of `balance`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// Variants to play and compare, comma-separated (the first is A in the comparison).
    #[arg(long, value_delimiter = ',', default_value = "malka,traditional")]
    pub variants: Vec<VariantArg>,
    /// Games per variant.
    #[arg(long, default_value_t = DEFAULT_GAMES)]
    pub games: u64,
    /// Search nodes per move.
    #[arg(long, default_value_t = DEFAULT_NODES)]
    pub nodes: u64,
    /// Output directory: one self-play directory per variant, report.html.
    #[arg(long, default_value = "balance-out")]
    pub dir: PathBuf,
    /// Base seed of the batches.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Openings: `random:K` (K random plies, so the deterministic engine plays different games), `start`, an LFEN file, or `book:FILE[:K]`.
    #[arg(long, default_value = "random:2")]
    pub openings: String,
    /// Adjudicate a draw after this many plies.
    #[arg(long, default_value_t = 300)]
    pub max_plies: u32,
    /// Adjudicate a loss when both sides' searches see one side down this many centipawns for 4 moves each (0: never).
    #[arg(long, default_value_t = 1000, value_name = "CP")]
    pub resign_score: i32,
    /// Worker threads (default: one per core).
    #[arg(long, default_value_t = 0)]
    pub threads: usize,
    /// No progress bar.
    #[arg(long, short)]
    pub quiet: bool,
    #[command(flatten)]
    pub output: OutputArgs,
    #[command(flatten)]
    pub analysis: AnalysisArgs,
}

/// A progress bar per batch (hidden when quiet or not on a terminal).
struct Bar(ProgressBar);

impl Bar {
    fn new(quiet: bool, variant: Variant) -> Bar {
        if quiet || !std::io::stderr().is_terminal() {
            return Bar(ProgressBar::hidden());
        }
        let bar = ProgressBar::new(0);
        let template =
            format!("{variant:>12} [{{elapsed_precise}}] {{bar:30.cyan/blue}} {{pos}}/{{len}} games (ETA {{eta}})");
        bar.set_style(ProgressStyle::with_template(&template).unwrap_or_else(|_| ProgressStyle::default_bar()));
        bar.enable_steady_tick(Duration::from_millis(500));
        Bar(bar)
    }
}

impl Progress for Bar {
    fn begin(&mut self, total: u64, done: u64) {
        self.0.set_length(total);
        self.0.set_position(done);
    }
    fn finished(&mut self, _record: &GameRecord) -> bool {
        self.0.inc(1);
        true
    }
}

/// Plays (or completes) one variant's batch in `dir`.
struct Batch<'a> {
    args: &'a Args,
    dir: &'a Path,
    variant: Variant,
}

impl WithPosition for Batch<'_> {
    type Output = Result<()>;
    fn call<P: Position>(self, rules: P::Rules) -> Result<()> {
        let a = self.args;
        let engine = EngineSpec {
            label: "default".into(),
            config: SearchConfig::for_variant(stackchess_variants::eval_name(rules.name())),
            limits: Limits::nodes(a.nodes),
        };
        let cfg = RunConfig {
            seed: a.seed,
            games: a.games,
            threads: a.threads,
            openings: crate::cmd::book::openings::<P>(rules, &a.openings, a.seed, a.games)?,
            opening_filter: None,
            paired: false,
            adjudication: Adjudication {
                max_plies: Some(a.max_plies),
                resign: (a.resign_score > 0).then_some(ResignRule { moves: 4, score: a.resign_score }),
                draw: None,
            },
            engines: vec![engine],
            event: "stackchess balance".into(),
            shard: Shard::WHOLE,
        };
        let resume = self.dir.join("manifest.json").exists();
        let mut bar = Bar::new(a.quiet, self.variant);
        // SIGINT, SIGTERM and SIGHUP stop the self-play cleanly; later they end the command at once.
        let run = crate::interrupt::run()?;
        let summary = stackchess_selfplay::run::<P>(rules, self.dir, &cfg, resume, &crate::interrupt::STOP, &mut bar);
        drop(run);
        bar.0.finish_and_clear();
        let summary = summary.with_context(|| {
            format!("self-play of {} in {} (remove the directory to start it afresh)", self.variant, self.dir.display())
        })?;
        if summary.end == RunEnd::Interrupted {
            bail!(
                "interrupted: {} of {} {} games recorded; run the same command again to complete",
                summary.done,
                summary.games,
                self.variant
            );
        }
        Ok(())
    }
}

/// Runs the command.
pub fn run(a: &Args) -> Result<()> {
    if a.variants.is_empty() {
        bail!("--variants names no variant");
    }
    let variants = a.variants.iter().map(VariantArg::load).collect::<Result<Vec<_>, _>>()?;
    let started = Instant::now();
    let mut dirs = Vec::new();
    for &v in &variants {
        let dir = a.dir.join(v.name());
        std::fs::create_dir_all(&dir).with_context(|| format!("creating {}", dir.display()))?;
        let t = Instant::now();
        v.with(Batch { args: a, dir: &dir, variant: v })?;
        eprintln!("{v}: {} games in {} ({:.1}s)", a.games, dir.display(), t.elapsed().as_secs_f64());
        dirs.push(dir.display().to_string());
    }
    let played = started.elapsed();
    let opts = a.analysis.options()?;
    let all = load(&dirs)?;
    let mut analysis = analyse(&all, &opts)?;
    warn_skipped(&analysis);
    let mut shown: Vec<Table> = vec![analysis.tables[0].clone()];
    let mut comparisons = Vec::new();
    let first = load(std::slice::from_ref(&dirs[0]))?;
    let no_extras = Options { pieces: None, opening_plies: vec![] };
    for other in dirs.iter().skip(1) {
        let (c, _) = compare_sets(&first, &load(std::slice::from_ref(other))?, &no_extras)?;
        shown.push(c.metrics_table()?);
        comparisons.push(c);
    }
    if !comparisons.is_empty() {
        analysis.tables.push(comparisons_table(&comparisons)?);
    }
    shown.extend(analysis.tables.iter().filter(|t| t.name == "pieces").cloned());
    print!("{}", render(&shown, a.output.format())?);
    if let Some(path) = &a.output.out {
        let files = write_all(&analysis.tables, path)?;
        eprintln!("wrote {}", files.iter().map(|f| f.display().to_string()).collect::<Vec<_>>().join(", "));
    }
    let report = a.output.report.clone().unwrap_or_else(|| a.dir.join("report.html"));
    let mut n = notes(&all, &dirs);
    n.insert(
        0,
        format!(
            "{} games per variant, {} nodes a move, openings {}, draw after {} plies, seed {}; self-play took {:.0}s",
            a.games,
            a.nodes,
            a.openings,
            a.max_plies,
            a.seed,
            played.as_secs_f64()
        ),
    );
    let html = analysis.report("stackchess balance: how balanced is each rule set?", n, comparisons.first())?;
    std::fs::write(&report, html).with_context(|| format!("writing the report {}", report.display()))?;
    eprintln!("wrote {} ({:.0}s in all)", report.display(), started.elapsed().as_secs_f64());
    Ok(())
}
