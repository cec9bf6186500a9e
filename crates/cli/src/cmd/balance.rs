//! `stackchess balance`: the main job. A self-play batch of each variant, then the comparison
//! table on stdout, the HTML report, and the viewer page of the games it links to.
//!
//! Openings are paired by default: each is played twice, the second time with its colours
//! swapped, and White's score gets pentanomial statistics. Each variant's batch lives in
//! `DIR/<variant>/` (a normal self-play directory), or with `--ladder N1,N2,...` in
//! `DIR/<N>-nodes/<variant>/` for each node budget; running the command again with the same
//! settings reuses the finished games and plays only missing ones. `--precision X` adds games in
//! batches (resuming the directories) until every White-score interval is within ±X or
//! `--max-games` is reached. `--tune` plays each rule set with its own tuned evaluation.

use crate::analysis_flags::{notes, warn_skipped, AnalysisArgs, OutputArgs};
use crate::common::{EngineArgs, Evaluation};
use crate::openings_flags::{Balanced, OpeningFileArgs, OpeningsOrder};
use crate::tuned::TuneArgs;
use anyhow::{bail, Context, Result};
use stackchess_analysis::ladder::insert_section;
use stackchess_analysis::plan::{Growth, Plan, Precision, Slot};
use stackchess_analysis::{
    analyse, compare_sets, comparisons_table, load, render, write_all, GameLink, Options, Table,
};
use stackchess_core::{Position, Rules};
use stackchess_search::Limits;
use stackchess_selfplay::{
    Adjudication, EngineSpec, GameRecord, Openings, Progress, ResignRule, RunConfig, RunEnd, Shard,
};
use stackchess_variants::{Variant, VariantArg, WithPosition};
use stackchess_view::{telling_games, GameSummary};
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

mod calibrate;
mod plan;

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

/// Plays (or completes, or extends) one variant's batch at one strength in `dir`.
struct Batch<'a> {
    args: &'a Args,
    dir: &'a Path,
    variant: Variant,
    nodes: u64,
    games: u64,
    eval: &'a Evaluation,
    shard: Shard,
}

impl WithPosition for Batch<'_> {
    /// The description of a balanced suite, when the batch plays one.
    type Output = Result<Option<String>>;
    fn call<P: Position>(self, rules: P::Rules) -> Result<Option<String>> {
        let a = self.args;
        let engine = EngineSpec {
            label: "default".into(),
            config: EngineArgs::default().config_from(rules.name(), Some(self.eval))?,
            limits: if a.tc.is_some() { Limits::default() } else { Limits::nodes(self.nodes) },
            tc: a.tc,
            external: None,
        };
        let paired = !a.unpaired;
        let (openings, suite) = a.openings::<P>(rules, if paired { self.games / 2 } else { self.games })?;
        let cfg = a.run_config(vec![engine], openings, self.games, paired, self.shard, "stackchess balance");
        let resume = self.dir.join("manifest.json").exists();
        let label = if a.ladder.is_empty() {
            format!("{} games", self.variant)
        } else {
            format!("{} games @{} nodes", self.variant, self.nodes)
        };
        let mut bar = Bar { label, quiet: a.quiet, shown: None };
        // SIGINT, SIGTERM and SIGHUP stop the self-play cleanly; later they end the command at once.
        let run = crate::interrupt::run()?;
        let summary = stackchess_selfplay::run::<P>(rules, self.dir, &cfg, resume, &crate::interrupt::STOP, &mut bar);
        drop(run);
        if let Some(p) = &bar.shown {
            p.finish();
        }
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
        Ok(suite)
    }
}

impl Args {
    /// The study's first `count` openings for `rules`, and the description of the balanced suite
    /// they come from, when they do (made once and kept in `DIR/openings/`).
    fn openings<P: Position>(&self, rules: P::Rules, count: u64) -> Result<(Openings, Option<String>)> {
        if let Some(b) = Balanced::parse(&self.openings) {
            let (o, text) = b?.openings::<P>(rules, self.seed, count, Some(&self.dir.join("openings")))?;
            return Ok((o, Some(text)));
        }
        let file = OpeningFileArgs { opening_plies: self.pgn_plies, openings_order: self.openings_order };
        Ok((crate::openings_flags::openings_with::<P>(rules, &self.openings, self.seed, count, &file)?, None))
    }

    /// A run of `games` games with the study's seed, adjudication and clock margin.
    fn run_config(
        &self,
        engines: Vec<EngineSpec>,
        openings: Openings,
        games: u64,
        paired: bool,
        shard: Shard,
        event: &str,
    ) -> RunConfig {
        RunConfig {
            seed: self.seed,
            games,
            threads: self.threads,
            openings,
            opening_filter: None,
            paired,
            adjudication: Adjudication {
                max_plies: Some(self.max_plies),
                resign: (self.resign_score > 0).then_some(ResignRule { moves: 4, score: self.resign_score }),
                draw: None,
            },
            engines,
            event: event.to_owned(),
            shard,
            timing: stackchess_selfplay::Timing {
                margin: Duration::from_millis(self.time_margin),
                ..stackchess_selfplay::Timing::default()
            },
        }
    }

    /// Plays (or completes, or extends) `slot`'s batch; the balanced suite's description when it
    /// plays one.
    fn play(&self, slot: &Slot, variants: &[Variant], evals: &[Evaluation], shard: Shard) -> Result<Option<String>> {
        std::fs::create_dir_all(&slot.dir).with_context(|| format!("creating {}", slot.dir.display()))?;
        let v = variants[slot.variant];
        v.with(Batch {
            args: self,
            dir: &slot.dir,
            variant: v,
            nodes: slot.nodes,
            games: slot.games,
            eval: &evals[slot.variant],
            shard,
        })
    }
}

/// Writes the viewer page of every game (`games.html` beside the report) and returns the links
/// to the games worth a look in each variant.
fn games_page(dirs: &[String], report: &Path) -> Result<Vec<GameLink>> {
    let inputs: Vec<PathBuf> = dirs.iter().map(PathBuf::from).collect();
    let (records, _) = crate::run_records::read_all(&inputs)?;
    let (mut games, mut skipped) = (Vec::new(), Vec::new());
    for g in crate::run_records::replay_all(&records)? {
        match g {
            Ok(g) => games.push(g),
            Err(e) => skipped.push(e),
        }
    }
    if let Some(first) = skipped.first() {
        eprintln!(
            "warning: {} game(s) could not be replayed and are not in the games page (first: {first})",
            skipped.len()
        );
    }
    let page = report.with_file_name("games.html");
    let notes = [format!("{} games of {}", games.len(), dirs.join(", "))];
    let html = stackchess_view::page("stackchess balance: the games", &notes, &games)?;
    std::fs::write(&page, html).with_context(|| format!("writing {}", page.display()))?;
    eprintln!("wrote {}", page.display());
    let name = page.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
    let summaries: Vec<GameSummary> = games
        .iter()
        .map(|g| GameSummary {
            id: &g.id,
            variant: &g.variant,
            result: &g.result,
            termination: &g.termination,
            plies: g.searched_plies() as u64,
        })
        .collect();
    Ok(telling_games(&summaries)
        .into_iter()
        .map(|p| GameLink {
            href: format!("{name}{}", stackchess_view::fragment(&p.id, 0)),
            detail: format!("{} plies, {} ({}), {}", p.plies, p.result, p.termination, p.id),
            label: p.reason.to_owned(),
            variant: p.variant,
        })
        .collect())
}

/// Runs the command.
pub fn run(a: &Args) -> Result<()> {
    check(a)?;
    let variants = a.variants.iter().map(VariantArg::load).collect::<Result<Vec<_>, _>>()?;
    let started = Instant::now();
    let evals =
        variants.iter().map(|&v| a.tune.evaluation(v, a.threads, a.quiet)).collect::<Result<Vec<Evaluation>>>()?;
    let shard = a.shard.resolve()?;
    if !shard.is_whole() && a.precision.is_some() {
        bail!("--precision needs every game of a batch: it cannot go with --shard {shard}");
    }
    let rungs = if a.ladder.is_empty() { vec![a.nodes] } else { a.ladder.clone() };
    if a.calibrate > 0 && (rungs.len() < 2 || !shard.is_whole() || a.calibrate % 2 == 1) {
        bail!(
            "--calibrate {}: give an even number of games, with a --ladder of two or more rungs and no --shard",
            a.calibrate
        );
    }
    // A bad --anchor is refused before any game is played.
    calibrate::anchor(a)?;
    if a.plan {
        if !shard.is_whole() {
            bail!("--plan plays its pilots whole: it cannot go with --shard {shard}");
        }
        if a.pilot_games < 4 || (!a.unpaired && a.pilot_games % 2 == 1) {
            bail!("--pilot-games {}: give at least 4 (even with paired openings)", a.pilot_games);
        }
        return plan::run(a, &variants, &evals, &rungs);
    }
    let Some(Batches { plan, suites, played }) = play_batches(a, &variants, &evals, shard, &rungs, started)? else {
        return Ok(());
    };
    report(a, &Study { plan, variants, evals, rungs, suites, played, started })
}

/// The flags that need no rule set, checked before anything is played.
fn check(a: &Args) -> Result<()> {
    if a.variants.is_empty() {
        bail!("--variants names no variant");
    }
    let paired = !a.unpaired;
    if paired && a.games % 2 == 1 {
        bail!("--games {}: paired openings need an even number (or --unpaired)", a.games);
    }
    if let Some(x) = a.precision {
        if !(x > 0.0 && x < 0.5) {
            bail!("--precision {x}: give a half-width between 0 and 0.5 (e.g. 0.02 for ±2%)");
        }
    }
    Ok(())
}

/// The batches played: where, each variant's balanced suite, and how long it took.
struct Batches {
    plan: Plan,
    suites: std::collections::BTreeMap<String, String>,
    played: std::time::Duration,
}

/// A study played: its batches, rule sets, evaluations, rungs, suites and times.
struct Study {
    plan: Plan,
    variants: Vec<Variant>,
    evals: Vec<Evaluation>,
    rungs: Vec<u64>,
    suites: std::collections::BTreeMap<String, String>,
    played: std::time::Duration,
    started: Instant,
}

/// Plays every batch (and, with --precision, more until the intervals are narrow enough); `None`
/// for a shard, whose report is made once the shards are merged.
fn play_batches(
    a: &Args,
    variants: &[Variant],
    evals: &[Evaluation],
    shard: Shard,
    rungs: &[u64],
    started: Instant,
) -> Result<Option<Batches>> {
    let paired = !a.unpaired;
    // A shard's batches live beside the merged ones: `<variant>.shard-I`.
    let name = |v: &Variant| {
        if shard.is_whole() {
            v.name().to_owned()
        } else {
            format!("{}.shard-{}", v.name(), shard.index)
        }
    };
    let names: Vec<String> = variants.iter().map(ToString::to_string).collect();
    let dir_names: Vec<String> = variants.iter().map(name).collect();
    let mut plan = Plan::new(&a.dir, &names, &dir_names, rungs, !a.ladder.is_empty(), a.games);
    // Each variant's balanced suite, as its last batch played it.
    let mut suites: std::collections::BTreeMap<String, String> = std::collections::BTreeMap::new();
    let played = loop {
        for s in &plan.slots {
            let t = Instant::now();
            let v = variants[s.variant];
            if let Some(text) = a.play(s, variants, evals, shard)? {
                suites.insert(v.to_string(), text);
            }
            eprintln!(
                "{v} at {} nodes: {} games in {} ({:.1}s)",
                s.nodes,
                s.games,
                s.dir.display(),
                t.elapsed().as_secs_f64()
            );
        }
        if !shard.is_whole() {
            eprintln!(
                "shard {shard} of every batch played; once all shards are done, merge each batch's shards \
                 (stackchess merge --out DIR/V DIR/V.shard-*, docs/cluster.md) and run balance again without --shard \
                 for the report"
            );
            return Ok(None);
        }
        let Some(x) = a.precision else { break started.elapsed() };
        let target = Precision { half_width: x, step: a.games, max_games: a.max_games, paired };
        if let Growth::Done { within, widest } = plan.grow(&plan.ladder()?, &target) {
            let verdict = if within { "within" } else { "not yet within (--max-games reached)" };
            eprintln!("every White-score interval {verdict} ±{x} (widest ±{widest:.4})");
            break started.elapsed();
        }
    };
    Ok(Some(Batches { plan, suites, played }))
}

/// The tables, the calibration, the files and the report of a played study.
fn report(a: &Args, st: &Study) -> Result<()> {
    let (plan, variants, evals, rungs, suites, played, started) =
        (&st.plan, &st.variants, &st.evals, &st.rungs, &st.suites, st.played, st.started);
    let dirs = plan.dirs();
    let opts = a.analysis.options()?;
    let all = load(&dirs)?;
    let mut analysis = analyse(&all, &opts)?;
    warn_skipped(&analysis);
    let mut shown: Vec<Table> = vec![analysis.tables[0].clone()];
    let mut comparisons = Vec::new();
    let mut ladder = if a.ladder.is_empty() {
        let first = load(std::slice::from_ref(&dirs[0]))?;
        let no_extras = Options { pieces: None, opening_plies: vec![], plies: None };
        for other in dirs.iter().skip(1) {
            let (c, _) = compare_sets(&first, &load(std::slice::from_ref(other))?, &no_extras)?;
            shown.push(c.metrics_table()?);
            comparisons.push(c);
        }
        if !comparisons.is_empty() {
            analysis.tables.push(comparisons_table(&comparisons)?);
        }
        None
    } else {
        let ladder = plan.ladder()?;
        let tables = ladder.tables()?;
        shown.extend(tables.iter().cloned());
        analysis.tables.extend(tables);
        Some(ladder)
    };
    shown.extend(analysis.tables.iter().filter(|t| matches!(t.name, "pieces" | "comebacks")).cloned());
    print!("{}", render(&shown, a.output.format())?);
    if a.calibrate > 0 {
        let c = calibrate::run(a, variants, evals, rungs)?;
        println!("\n{}", c.lines.join("\n"));
        ladder = ladder.map(|l| l.with_strength(c.strength, &c.scale));
    }
    if let Some(path) = &a.output.out {
        let files = write_all(&analysis.tables, path)?;
        eprintln!("wrote {}", files.iter().map(|f| f.display().to_string()).collect::<Vec<_>>().join(", "));
    }
    let report = a.output.report.clone().unwrap_or_else(|| a.dir.join("report.html"));
    let mut n = notes(&all, &dirs);
    let games = match a.precision {
        Some(x) => format!("games in batches of {} up to {} until White's score is within ±{x}", a.games, a.max_games),
        None => format!("{} games", a.games),
    };
    let nodes = rungs.iter().map(u64::to_string).collect::<Vec<_>>().join(", ");
    let pairing = if a.unpaired { "unpaired" } else { "paired (each opening twice, colours swapped)" };
    n.insert(
        0,
        format!(
            "{games} per variant and strength, {nodes} nodes a move, openings {} {pairing}, draw after {} plies, seed {}; self-play took {:.0}s",
            a.openings,
            a.max_plies,
            a.seed,
            played.as_secs_f64()
        ),
    );
    for (i, e) in evals.iter().enumerate() {
        n.insert(1 + i, format!("Evaluation of {}: {}", e.variant, e.source));
    }
    for (i, (variant, text)) in suites.iter().enumerate() {
        eprintln!("openings of {variant}: {text}");
        n.insert(1 + evals.len() + i, format!("Openings of {variant}: {text}"));
    }
    let links = games_page(&dirs, &report).unwrap_or_else(|e| {
        eprintln!("warning: no games page: {e:#}");
        Vec::new()
    });
    let title = "stackchess balance: how balanced is each rule set?";
    let mut html = analysis.report_with_games(title, n, comparisons.first(), &links)?;
    if let Some(l) = &ladder {
        html = insert_section(&html, &l.html());
    }
    std::fs::write(&report, html).with_context(|| format!("writing the report {}", report.display()))?;
    eprintln!("wrote {} ({:.0}s in all)", report.display(), started.elapsed().as_secs_f64());
    Ok(())
}
