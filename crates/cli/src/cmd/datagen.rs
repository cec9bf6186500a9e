//! `stackchess datagen`: positions from self-play with a search score and the game's result, for
//! `tune --from` and `train --data` (docs/datagen.md).

use crate::common::EngineArgs;
use anyhow::{Context, Result};
use stackchess_core::{Position, Rules};
use stackchess_datagen::{generate, Error, Settings};
use stackchess_variants::{VariantArg, WithPosition};
use std::path::PathBuf;

/// Flags of `datagen`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// Variant: malka, traditional, fide, air-attack, or rules:FILE.
    #[arg(long, short, default_value = "malka")]
    pub variant: VariantArg,
    /// Games of the run (a shard plays its part).
    #[arg(long, default_value_t = Settings::default().games)]
    pub games: u64,
    /// Nodes a move in the games.
    #[arg(long, default_value_t = Settings::default().nodes)]
    pub nodes: u64,
    /// Quiet positions kept a game at most (0: all).
    #[arg(long, default_value_t = Settings::default().per_game)]
    pub per_game: usize,
    /// Nodes of the search that scores each kept position (0: the game's own score of it).
    #[arg(long, default_value_t = Settings::default().label_nodes)]
    pub label_nodes: u64,
    /// Random plies opening each game (never in the data).
    #[arg(long, default_value_t = Settings::default().random_plies)]
    pub random_plies: u32,
    /// Games stopped after this many plies (their positions labelled by score alone).
    #[arg(long, default_value_t = Settings::default().max_plies)]
    pub max_plies: u32,
    /// A position is quiet when static and quiescence scores agree within CP for both sides to move.
    #[arg(long, default_value_t = Settings::default().quiet.margin, value_name = "CP")]
    pub quiet_margin: i32,
    /// Base seed of the games.
    #[arg(long, default_value_t = Settings::default().seed)]
    pub seed: u64,
    /// Worker threads (default: one per core).
    #[arg(long, default_value_t = 0)]
    pub threads: usize,
    /// Games a committed batch: what an interruption can lose.
    #[arg(long, default_value_t = Settings::default().batch)]
    pub batch: u64,
    /// The data file (appended to when it exists: the same command resumes it).
    #[arg(long)]
    pub out: PathBuf,
    /// No progress display.
    #[arg(long, short)]
    pub quiet: bool,
    #[command(flatten)]
    pub shard: crate::shard::ShardArgs,
    #[command(flatten)]
    pub engine: EngineArgs,
}

struct Gen<'a>(&'a Args, Settings);

impl WithPosition for Gen<'_> {
    type Output = Result<()>;
    fn call<P: Position>(self, rules: P::Rules) -> Result<()> {
        let Gen(a, settings) = self;
        let engine = a.engine.config(rules.name())?;
        let command = std::env::args().collect::<Vec<_>>().join(" ");
        let _run = crate::interrupt::run()?;
        let mut ui = crate::progress::DataBar::new(a.quiet);
        let result = generate::<P>(rules, &engine, &settings, &a.out, &command, &crate::interrupt::STOP, &mut ui);
        ui.finish();
        let s = match result {
            Err(e @ Error::Interrupted { .. }) => {
                eprintln!("{}: {e}", a.out.display());
                std::process::exit(1);
            }
            r => r.with_context(|| format!("datagen into {}", a.out.display()))?,
        };
        let secs = s.elapsed.as_secs_f64().max(1e-9);
        println!(
            "{}: {} positions from {} games ({} played now, {} positions written in {:.0} s: {:.1} positions/s)",
            a.out.display(),
            s.positions,
            s.games,
            s.played,
            s.written,
            secs,
            s.written as f64 / secs
        );
        Ok(())
    }
}

/// Runs `datagen`.
pub fn run(a: &Args) -> Result<()> {
    let variant = a.variant.load()?;
    let settings = Settings {
        games: a.games,
        nodes: a.nodes,
        per_game: a.per_game,
        label_nodes: a.label_nodes,
        random_plies: a.random_plies,
        max_plies: a.max_plies,
        quiet: stackchess_datagen::sample::Quiet { margin: a.quiet_margin, ..Settings::default().quiet },
        seed: a.seed,
        shard: a.shard.resolve()?,
        threads: a.threads,
        batch: a.batch,
        ..Settings::default()
    };
    variant.with(Gen(a, settings))
}
