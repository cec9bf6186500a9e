//! `stackchess book suite`: an opening suite as testers use them — N distinct positions reached by
//! K plies (random, or walked in a book), each scored within ±X centipawns by a search.

use crate::common::EngineArgs;
use anyhow::{Context, Result};
use stackchess_core::{Position, Rules};
use stackchess_selfplay::suite::{balanced, SuiteSpec, TRIES_PER_POSITION};
use stackchess_variants::{VariantArg, WithPosition};
use std::fmt::Write as _;
use std::path::PathBuf;

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
        let candidates = crate::openings_flags::openings::<P>(rules, &spec, a.seed, budget as u64)?;
        let config = a.engine.config(rules.name())?;
        let mut bar = crate::progress::Progress::new(a.count as u64, 0, "positions", a.quiet);
        let mut shown = 0;
        let suite_spec = SuiteSpec { count: a.count, max_cp: a.max_cp, nodes: a.nodes, seed: a.seed };
        let suite = balanced::<P>(rules, &candidates, &config, &suite_spec, &mut |kept, tried| {
            bar.inc((kept - shown) as u64);
            shown = kept;
            bar.message(&format!("{tried} tried"), false);
        });
        bar.finish();
        let suite =
            suite.with_context(|| format!("{} plies (raise --max-cp or --plies, or lower --count)", a.plies))?;
        eprintln!(
            "{} candidates scored for {} positions, {} rejected",
            suite.tried,
            suite.kept.len(),
            suite.rejected()
        );
        Ok(suite.kept.iter().map(|k| (k.position.to_lfen(), k.cp)).collect())
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
