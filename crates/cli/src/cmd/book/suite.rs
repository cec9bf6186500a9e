//! `stackchess book suite`: an opening suite as testers use them — N distinct positions reached by
//! K plies (random, or walked in a book), each scored within ±X centipawns by a search.

use crate::common::EngineArgs;
use anyhow::{bail, Context, Result};
use indicatif::{ProgressBar, ProgressStyle};
use rayon::prelude::*;
use stackchess_core::{Position, Rules};
use stackchess_search::{Engine, Limits, Score};
use stackchess_variants::{VariantArg, WithPosition};
use std::collections::HashSet;
use std::fmt::Write as _;
use std::path::PathBuf;
use std::sync::atomic::AtomicBool;

/// Flags of `book suite`.
#[derive(clap::Args, Debug)]
pub struct SuiteArgs {
    /// Variant (or rules:FILE).
    #[arg(long, short, default_value = "malka")]
    variant: VariantArg,
    /// Positions in the suite.
    #[arg(long, default_value_t = 100)]
    count: usize,
    /// Plies from the start position to each position.
    #[arg(long, default_value_t = 8)]
    plies: u32,
    /// Keep a position only if the search scores it within ±CP centipawns (never a mate).
    #[arg(long, default_value_t = 50, value_name = "CP")]
    max_cp: u32,
    /// The search's node budget per position.
    #[arg(long, default_value_t = 5000)]
    nodes: u64,
    /// Walk a book instead of random legal moves.
    #[arg(long, value_name = "FILE")]
    book: Option<PathBuf>,
    /// Seed of the walks.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// The suite file to write: LFEN lines (EPD for fide), each with its score.
    #[arg(long)]
    out: PathBuf,
    /// No progress bar.
    #[arg(long, short)]
    quiet: bool,
    #[command(flatten)]
    engine: EngineArgs,
}

/// Candidates drawn before giving up, per position asked for.
const TRIES_PER_POSITION: usize = 200;

struct Suite<'a>(&'a SuiteArgs);

impl WithPosition for Suite<'_> {
    type Output = Result<Vec<(String, i32)>>;
    fn call<P: Position>(self, rules: P::Rules) -> Result<Vec<(String, i32)>> {
        let a = self.0;
        let spec = match &a.book {
            Some(b) => format!("book:{}:{}", b.display(), a.plies),
            None => format!("random:{}", a.plies),
        };
        let budget = a.count * TRIES_PER_POSITION;
        let openings = crate::openings_flags::openings::<P>(rules, &spec, a.seed, budget as u64)?;
        let config = a.engine.config(rules.name())?;
        let bar = if a.quiet { ProgressBar::hidden() } else { ProgressBar::new(a.count as u64) };
        bar.set_style(
            ProgressStyle::with_template("{bar:40} {pos}/{len} positions, {msg}")
                .unwrap_or_else(|_| ProgressStyle::default_bar()),
        );
        let mut seen = HashSet::new();
        let mut out = Vec::new();
        let mut tried = 0usize;
        // Candidates in batches, scored in parallel, kept in index order: the suite depends on the
        // seed alone.
        for start in (0..budget).step_by(64) {
            let batch: Vec<u64> = (start..(start + 64).min(budget)).map(|k| k as u64).collect();
            let scored: Vec<Option<(P, i32)>> = batch
                .par_iter()
                .map(|&k| {
                    let pos: P = openings.opening(rules, a.seed, k, |_| true).ok()?.position;
                    let mut engine = Engine::<P>::new(rules, config.clone());
                    let r = engine.search(&pos, &[], &Limits::nodes(a.nodes), &AtomicBool::new(false), &mut |_| {});
                    match r.score {
                        Score::Cp(cp) if cp.unsigned_abs() <= a.max_cp => Some((pos, cp)),
                        _ => None,
                    }
                })
                .collect();
            tried += batch.len();
            for (pos, cp) in scored.into_iter().flatten() {
                if out.len() < a.count && seen.insert(pos.hash()) {
                    out.push((pos.to_lfen(), cp));
                    bar.inc(1);
                }
            }
            bar.set_message(format!("{tried} tried"));
            if out.len() == a.count {
                break;
            }
        }
        bar.finish_and_clear();
        if out.len() < a.count {
            bail!(
                "only {} distinct positions within ±{} cp after {tried} candidates of {} plies (raise --max-cp or --plies, or lower --count)",
                out.len(),
                a.max_cp,
                a.plies
            );
        }
        Ok(out)
    }
}

/// Runs `book suite`.
pub fn run(a: &SuiteArgs) -> Result<()> {
    let variant = a.variant.load()?;
    let suite = variant.with(Suite(a))?;
    let epd = variant.levels() == 1;
    let mut text = format!(
        "# stackchess opening suite: {} positions of {}, {} plies {}, scored within ±{} cp at {} nodes (seed {})\n",
        suite.len(),
        variant.name(),
        a.plies,
        a.book.as_ref().map_or("at random".to_owned(), |b| format!("walked in {}", b.display())),
        a.max_cp,
        a.nodes,
        a.seed
    );
    for (lfen, cp) in &suite {
        if epd {
            // EPD: the four position fields of FEN, then operations.
            let fields: Vec<&str> = lfen.split_whitespace().take(4).collect();
            let _ = writeln!(text, "{} ce {cp};", fields.join(" "));
        } else {
            let _ = writeln!(text, "{lfen} # ce {cp}");
        }
    }
    std::fs::write(&a.out, text).with_context(|| format!("writing {}", a.out.display()))?;
    eprintln!("{}: {} positions", a.out.display(), suite.len());
    Ok(())
}
