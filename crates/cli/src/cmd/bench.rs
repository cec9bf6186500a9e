//! `stackchess bench`: a fixed search workload, and tactical test suites.
//!
//! Without `--tactics`: searches the start position and the fixed positions of every built-in
//! variant's bench file (`Variant::bench`; or of `--only`) to the file's depth (`--depth`
//! overrides it), each after `new_game`, and prints one line per variant, then
//! `total nodes N nps X`. The node total is a signature of search behaviour: it changes only when
//! the search or evaluation does.
//!
//! With `--tactics FILE`: searches each EPD position of the suite at `--nodes` (default 100000)
//! and prints one line per position and `solved K/N (P%)`.

use crate::common::EngineArgs;
use anyhow::{Context, Result};
use stackchess_core::{san, Position, Rules};
use stackchess_search::{parse_epd, Bench, Engine, Limits};
use stackchess_variants::{Variant, VariantArg, WithPosition};
use std::path::PathBuf;
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

/// Flags of `bench`.
#[derive(clap::Args, Debug)]
pub struct Args {
    #[command(flatten)]
    engine: EngineArgs,
    /// Search every bench position to this depth instead of the variant's fixed depth.
    #[arg(long, short)]
    depth: Option<u32>,
    /// Only this variant.
    #[arg(long)]
    only: Option<Variant>,
    /// An EPD test suite to solve instead (e.g. data/tactics/wac.epd).
    #[arg(long, value_name = "FILE")]
    tactics: Option<PathBuf>,
    /// Variant of the suite's positions (with --tactics).
    #[arg(long, default_value = "fide")]
    variant: VariantArg,
    /// Node budget per suite position (with --tactics).
    #[arg(long, default_value_t = 100_000)]
    nodes: u64,
}

/// Totals of one variant's workload.
struct Totals {
    depth: u32,
    nodes: u64,
    time: Duration,
    positions: usize,
}

struct Workload<'a>(&'a Args);

impl WithPosition for Workload<'_> {
    type Output = Result<Totals>;
    fn call<P: Position>(self, rules: P::Rules) -> Result<Totals> {
        let a = self.0;
        let name = rules.name();
        let mut engine = Engine::<P>::new(rules, a.engine.config(name)?);
        let variant: Variant = name.parse()?;
        let bench = Bench::parse(variant.bench().with_context(|| format!("{name} has no bench workload"))?)
            .with_context(|| format!("the bench file of {name}"))?;
        let depth = a.depth.unwrap_or(bench.depth);
        let mut positions = vec![rules.startpos()];
        for text in &bench.positions {
            positions.push(rules.from_lfen(text).with_context(|| format!("bench position of {name}: {text}"))?);
        }
        let stop = AtomicBool::new(false);
        let mut totals = Totals { depth, nodes: 0, time: Duration::ZERO, positions: positions.len() };
        for pos in &positions {
            engine.new_game();
            let start = Instant::now();
            let r = engine.search(pos, &[], &Limits::depth(depth), &stop, &mut |_| {});
            totals.time += start.elapsed();
            totals.nodes += r.nodes;
        }
        Ok(totals)
    }
}

fn nps(nodes: u64, time: Duration) -> u64 {
    u64::try_from(u128::from(nodes) * 1000 / time.as_millis().max(1)).unwrap_or(u64::MAX)
}

struct Tactics<'a>(&'a Args, &'a str);

impl WithPosition for Tactics<'_> {
    type Output = Result<()>;
    fn call<P: Position>(self, rules: P::Rules) -> Result<()> {
        let (a, text) = (self.0, self.1);
        let cases = parse_epd(text)?;
        let mut engine = Engine::<P>::new(rules, a.engine.config(rules.name())?);
        let stop = AtomicBool::new(false);
        let (mut solved, mut nodes, mut time) = (0usize, 0u64, Duration::ZERO);
        for case in &cases {
            let pos = rules.from_lfen(&case.lfen).with_context(|| format!("position of {}", case.id))?;
            engine.new_game();
            let start = Instant::now();
            let r = engine.search(&pos, &[], &Limits::nodes(a.nodes), &stop, &mut |_| {});
            time += start.elapsed();
            nodes += r.nodes;
            let (ok, played) = match r.best_move() {
                Some(m) => (case.solved_by(&pos, m), san(&pos, m)),
                None => (false, "(none)".to_owned()),
            };
            solved += usize::from(ok);
            let want = if case.best.is_empty() { format!("am {}", case.avoid.join(" ")) } else { case.best.join(" ") };
            println!(
                "{} {} {played} (want {want}) {} depth {}",
                case.id,
                if ok { "ok  " } else { "FAIL" },
                r.score,
                r.depth
            );
        }
        #[allow(clippy::cast_precision_loss)]
        let pct = 100.0 * solved as f64 / cases.len().max(1) as f64;
        println!(
            "solved {solved}/{} ({pct:.1}%) at {} nodes; total nodes {nodes} nps {}",
            cases.len(),
            a.nodes,
            nps(nodes, time)
        );
        Ok(())
    }
}

/// Runs the command.
pub fn run(a: &Args) -> Result<()> {
    if let Some(path) = &a.tactics {
        let text = std::fs::read_to_string(path).with_context(|| format!("reading {}", path.display()))?;
        return a.variant.load()?.with(Tactics(a, &text));
    }
    let (mut nodes, mut time) = (0u64, Duration::ZERO);
    for v in Variant::ALL.into_iter().filter(|v| a.only.is_none_or(|o| o == *v)) {
        let t = v.with(Workload(a))?;
        println!(
            "{:<12} positions {} depth {} nodes {} time {} nps {}",
            v.name(),
            t.positions,
            t.depth,
            t.nodes,
            t.time.as_millis(),
            nps(t.nodes, t.time)
        );
        nodes += t.nodes;
        time += t.time;
    }
    println!("total nodes {nodes} nps {}", nps(nodes, time));
    Ok(())
}
