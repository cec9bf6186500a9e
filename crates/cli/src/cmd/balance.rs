//! `stackchess balance`: the main job. A self-play batch of each variant, then the comparison
//! table on stdout, the HTML report, and the viewer page of the games it links to.
//!
//! Openings are paired by default: each is played twice, the second time with its colours
//! swapped, and White's score gets pentanomial statistics. Each variant's batch lives in
//! `DIR/<variant>/` (a normal self-play directory), or with `--ladder N1,N2,...` in
//! `DIR/<N>-nodes/<variant>/` for each node budget; running the command again with the same
//! settings reuses the finished games and plays only missing ones. `--precision X` adds games in
//! batches (resuming the directories) until every White-score interval is within ±X or
//! `--max-games` is reached. `--tune` plays each rule set with its own tuned evaluation, `--nnue`
//! with a net learnt for it (over the tuned evaluation when both are given).

use crate::analysis_flags::{AnalysisArgs, OutputArgs};
use crate::common::{EngineArgs, Evaluation};
use crate::learned::NnueArgs;
use crate::openings_flags::{Balanced, OpeningFileArgs, OpeningsOrder};
use crate::run_flags::Ui;
use crate::tuned::TuneArgs;
use anyhow::{bail, Context, Result};
use stackchess_core::Position;
use stackchess_search::{Limits, SearchConfig};
use stackchess_selfplay::spec::{EngineDef, EngineKind};
use stackchess_selfplay::{EngineSpec, GameRecord, Monitor, Openings, Progress, TimeControl};
use stackchess_study::{PilotPlan, Study};
use stackchess_variants::VariantArg;
use std::path::PathBuf;
use std::sync::atomic::AtomicBool;

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
    /// Games per variant (and per rung of a ladder); with --precision, the size of each batch.
    #[arg(long, default_value_t = DEFAULT_GAMES)]
    pub games: u64,
    /// Search nodes per move.
    #[arg(long, default_value_t = DEFAULT_NODES)]
    pub nodes: u64,
    /// Play on a clock instead of a node budget: a time control, cutechess-style (seconds),
    /// `40/60+0.6`, `60+0.6`, `10` (results then depend on the machine).
    #[arg(long, value_name = "TC", conflicts_with_all = ["nodes", "ladder"])]
    pub tc: Option<stackchess_selfplay::TimeControl>,
    /// Milliseconds a mover on a clock may exceed it by without losing on time.
    #[arg(long, value_name = "MS", default_value_t = 50)]
    pub time_margin: u64,
    /// Play every variant at each of these node budgets (replaces --nodes) and report balance
    /// against strength: per rung and variant, and whether each difference keeps its sign.
    #[arg(long, value_delimiter = ',', value_name = "N1,N2,...")]
    pub ladder: Vec<u64>,
    /// Add games in batches of --games until every White-score interval is within ±X.
    #[arg(long, value_name = "X")]
    pub precision: Option<f64>,
    /// With --precision: the most games per variant and rung.
    #[arg(long, default_value_t = 20_000, value_name = "N")]
    pub max_games: u64,
    /// Unpaired openings (by default each opening is played twice, colours swapped).
    #[arg(long)]
    pub unpaired: bool,
    /// Output directory: one self-play directory per variant, report.html, games.html (the viewer).
    #[arg(long, default_value = "balance-out")]
    pub dir: PathBuf,
    /// Base seed of the batches.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Openings: `balanced[:K[:X[:N]]]` (K random plies, 4, kept when a search of N nodes, 4000,
    /// scores them within ±X cp, 75; made once per rule set and kept in DIR/openings/),
    /// `random:K` (K random plies), `start`, an LFEN or EPD file, a PGN file (`*.pgn`), or
    /// `book:FILE[:K]`.
    #[arg(long, default_value = "balanced")]
    pub openings: String,
    /// With PGN openings: keep only the first K moves of each game (`--opening-plies` of
    /// `selfplay`; here that name is the analysis's opening diversity).
    #[arg(long, value_name = "K")]
    pub pgn_plies: Option<u32>,
    /// Openings from a file in the file's order, or shuffled by the seed.
    #[arg(long, value_enum, default_value_t = OpeningsOrder::Sequential)]
    pub openings_order: OpeningsOrder,
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
    pub shard: crate::shard::ShardArgs,
    #[command(flatten)]
    pub output: OutputArgs,
    #[command(flatten)]
    pub analysis: AnalysisArgs,
    #[command(flatten)]
    pub tune: TuneArgs,
    #[command(flatten)]
    pub nnue: NnueArgs,
    /// Plan the study instead of playing it: a pilot batch per variant and rung in DIR/plan/,
    /// then the games each needs for White's score within ±--precision (0.02 if not given),
    /// core-hours and hours here.
    #[arg(long)]
    pub plan: bool,
    /// Games of each pilot batch (--plan).
    #[arg(long, default_value_t = 40, value_name = "N", requires = "plan")]
    pub pilot_games: u64,
    /// With --plan: write the Slurm array job that plays the planned study to FILE.
    #[arg(long, value_name = "FILE", requires = "plan")]
    pub slurm: Option<PathBuf>,
    /// With --ladder: measure each rung's strength by a paired match of N games between every
    /// pair of neighbouring rungs (the table of Elo steps follows the results).
    #[arg(long, default_value_t = 0, value_name = "N")]
    pub calibrate: u64,
    /// With --calibrate: the lowest rung also plays this engine (an --engine spec, e.g.
    /// `name=sf,cmd=/usr/games/stockfish,option.UCI_LimitStrength=true,option.UCI_Elo=1500,tc=10+0.1`),
    /// and every rung is placed on its rating scale.
    #[arg(long, value_name = "SPEC", requires = "calibrate")]
    pub anchor: Option<String>,
    /// The anchor's rating (by default its `option.UCI_Elo`).
    #[arg(long, value_name = "ELO", requires = "anchor")]
    pub anchor_elo: Option<f64>,
    /// With --plan: write the Kubernetes Indexed Job that plays the planned study to FILE.
    #[arg(long, value_name = "FILE", requires = "plan")]
    pub k8s: Option<PathBuf>,
    /// Tasks of that array job, or pods of that Indexed Job.
    #[arg(long, default_value_t = 10, value_name = "N", requires = "plan", value_parser = clap::value_parser!(u64).range(1..))]
    pub shards: u64,
}

/// Runs the command: the flags as a [`Study`], the rule sets' evaluations (tuned first with
/// `--tune`, a net learnt over them with `--nnue`), then [`stackchess_study::run`].
pub fn run(a: &Args) -> Result<()> {
    let variants = a.variants.iter().map(VariantArg::load).collect::<Result<Vec<_>, _>>()?;
    let (tune, nnue) = learning(a);
    let mut study = Study {
        evaluations: Vec::new(),
        variants: variants.clone(),
        games: a.games,
        rungs: if a.ladder.is_empty() { vec![a.nodes] } else { a.ladder.clone() },
        ladder: !a.ladder.is_empty(),
        tc: a.tc,
        time_margin_ms: a.time_margin,
        precision: a.precision,
        max_games: a.max_games,
        paired: !a.unpaired,
        dir: a.dir.clone(),
        seed: a.seed,
        openings: a.openings.clone(),
        max_plies: a.max_plies,
        resign_score: a.resign_score,
        threads: a.threads,
        shard: a.shard.resolve()?,
        calibrate: a.calibrate,
        anchor: anchor(a)?,
        pilot: a.plan.then(|| PilotPlan {
            games: a.pilot_games,
            slurm: a.slurm.clone(),
            k8s: a.k8s.clone(),
            shards: a.shards,
            flags: shard_flags(a, &tune, &nnue),
        }),
        analysis: a.analysis.options()?,
        format: a.output.format(),
        out: a.output.out.clone(),
        report: a.output.report.clone(),
    };
    // Bad settings are refused before any rule set is tuned.
    stackchess_study::check(&study)?;
    let evals = variants
        .iter()
        .map(|&v| nnue.evaluation(tune.evaluation(v, a.threads, a.quiet)?, a.threads, a.quiet))
        .collect::<Result<Vec<Evaluation>>>()?;
    study.evaluations = evals.iter().map(|e| e.source.clone()).collect();
    stackchess_study::run(&study, &Flags { args: a, evals }, &mut Shell { quiet: a.quiet })
}

/// `--tune` and `--nnue` as they run: with `--plan` and no cache given, they learn into the
/// study's directory (`DIR/cache/`), which every shard of a cluster job reaches, so that the
/// shards reuse what the plan learnt instead of each learning it again.
fn learning(a: &Args) -> (TuneArgs, NnueArgs) {
    let (mut tune, mut nnue) = (a.tune.clone(), a.nnue.clone());
    if a.plan {
        tune.tune_cache.get_or_insert_with(|| a.dir.join("cache").join("tuned"));
        nnue.nnue_cache.get_or_insert_with(|| a.dir.join("cache").join("nnue"));
    }
    (tune, nnue)
}

/// The shards' flags: the plan's, with the caches `--tune` and `--nnue` learn into (`learning`) named.
fn shard_flags(a: &Args, tune: &TuneArgs, nnue: &NnueArgs) -> Vec<String> {
    let mut flags = stackchess_study::study_flags(std::env::args());
    let caches = [(a.tune.tune, "--tune-cache", &tune.tune_cache), (a.nnue.nnue, "--nnue-cache", &nnue.nnue_cache)];
    for (on, flag, dir) in caches {
        if let Some(dir) = dir.as_ref().filter(|_| on) {
            stackchess_study::pin_flag(&mut flags, flag, &dir.to_string_lossy());
        }
    }
    flags
}

/// The anchor of `--anchor SPEC`: an external engine, rated by `--anchor-elo` or its
/// `option.UCI_Elo`.
fn anchor(a: &Args) -> Result<Option<(EngineDef, f64)>> {
    let Some(text) = &a.anchor else { return Ok(None) };
    let def = stackchess_selfplay::spec::parse(text)?;
    let EngineKind::External { options, .. } = &def.kind else {
        bail!("--anchor {text}: give an external engine (a spec with cmd=...), whose rating is known");
    };
    let from_spec = options.iter().find(|(k, _)| k.eq_ignore_ascii_case("UCI_Elo")).map(|(_, v)| v.clone());
    let elo = match (a.anchor_elo, from_spec) {
        (Some(x), _) => x,
        (None, Some(v)) => v.parse().with_context(|| format!("--anchor {text}: option.UCI_Elo={v} is not a number"))?,
        (None, None) => bail!("--anchor {text}: give its rating with --anchor-elo (or option.UCI_Elo in the spec)"),
    };
    Ok(Some((def, elo)))
}

/// The study's engines and openings as the flags give them.
struct Flags<'a> {
    args: &'a Args,
    evals: Vec<Evaluation>,
}

impl stackchess_study::Setup for Flags<'_> {
    fn engine(&self, variant: usize, rules_name: &str) -> Result<SearchConfig> {
        EngineArgs::default().config_from(rules_name, Some(&self.evals[variant]))
    }

    fn anchor(
        &self,
        variant: usize,
        def: &EngineDef,
        rules_name: &str,
        shared: (Limits, Option<TimeControl>),
    ) -> Result<EngineSpec> {
        let name = self.evals[variant].variant.name().to_owned();
        crate::engine_spec::engine_spec(def, rules_name, &name, shared, &self.evals[variant])
    }

    fn openings<P: Position>(&self, rules: P::Rules, count: u64) -> Result<(Openings, Option<String>)> {
        let a = self.args;
        if let Some(b) = Balanced::parse(&a.openings) {
            let (o, text) = b?.openings::<P>(rules, a.seed, count, Some(&a.dir.join("openings")))?;
            return Ok((o, Some(text)));
        }
        let file = OpeningFileArgs { opening_plies: a.pgn_plies, openings_order: a.openings_order };
        Ok((crate::openings_flags::openings_with::<P>(rules, &a.openings, a.seed, count, &file)?, None))
    }
}

/// Progress bars (or log lines) on stderr, tables on stdout, signals stopping a run cleanly.
struct Shell {
    quiet: bool,
}

impl stackchess_study::Hooks for Shell {
    fn run(&mut self, label: &str, first: Option<&str>) -> Result<Box<dyn Progress>> {
        let guard = crate::interrupt::run()?;
        let shown: Box<dyn Progress> = match first {
            Some(name) => Box::new(Ui::new(self.quiet, true, Monitor::new(true, None).counting(name))),
            None => Box::new(Bar { label: label.to_owned(), quiet: self.quiet, shown: None }),
        };
        Ok(Box::new(Guarded { shown, _guard: guard }))
    }
    fn print(&mut self, text: &str) {
        print!("{text}");
    }
    fn say(&mut self, line: &str) {
        eprintln!("{line}");
    }
    fn stop(&self) -> &AtomicBool {
        &crate::interrupt::STOP
    }
}

/// A run's display and the signal guard that lives as long as it.
struct Guarded {
    shown: Box<dyn Progress>,
    _guard: crate::interrupt::Run,
}

impl Progress for Guarded {
    fn begin(&mut self, total: u64, done: u64) {
        self.shown.begin(total, done);
    }
    fn resumed(&mut self, record: &GameRecord) {
        self.shown.resumed(record);
    }
    fn finished(&mut self, record: &GameRecord) -> bool {
        self.shown.finished(record)
    }
}

/// The progress of one batch (`crate::progress`: a bar, or time-stamped lines in a log).
struct Bar {
    label: String,
    quiet: bool,
    shown: Option<crate::progress::Progress>,
}

impl Progress for Bar {
    fn begin(&mut self, total: u64, done: u64) {
        let mut p = crate::progress::Progress::new(total, done, &self.label, self.quiet);
        p.message("", true);
        self.shown = Some(p);
    }
    fn finished(&mut self, _record: &GameRecord) -> bool {
        if let Some(p) = &mut self.shown {
            p.inc(1);
            p.message("", false);
        }
        true
    }
}

impl Drop for Bar {
    fn drop(&mut self) {
        if let Some(p) = &self.shown {
            p.finish();
        }
    }
}
