//! `stackchess nnue`: generations of nets for a rule set (data from the best player, train, gate
//! by a paired match, keep the winner), in one resumable directory (docs/nnue.md).

use crate::common::EngineArgs;
use anyhow::Result;
use stackchess_datagen::Labels;
use stackchess_search::Limits;
use stackchess_selfplay::TimeControl;
use stackchess_train::generations::Settings;
use stackchess_train::Options;
use stackchess_variants::VariantArg;
use std::path::PathBuf;

/// Flags of `nnue`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// Variant: malka, traditional, fide, air-attack, or rules:FILE.
    #[arg(long, short, default_value = "malka")]
    pub variant: VariantArg,
    /// Generations.
    #[arg(long, default_value_t = 2)]
    pub generations: usize,
    /// Positions of data a generation adds.
    #[arg(long, default_value_t = 500_000)]
    pub positions: u64,
    /// Nodes a move in the data games.
    #[arg(long, default_value_t = 5000)]
    pub nodes: u64,
    /// Quiet positions kept a game (0: all).
    #[arg(long, default_value_t = 0)]
    pub per_game: usize,
    /// Nodes of a deeper search that scores each position (0: the game's own score).
    #[arg(long, default_value_t = 0)]
    pub label_nodes: u64,
    /// Neurons of the first layer.
    #[arg(long, default_value_t = Options::default().hidden)]
    pub hidden: usize,
    /// Training epochs a generation.
    #[arg(long, default_value_t = Options::default().epochs)]
    pub epochs: usize,
    /// The weight of the search score in each target.
    #[arg(long, default_value_t = 0.75)]
    pub lambda: f64,
    /// Train residual nets: each net's output is added to the engine's linear evaluation (its
    /// `--params`, else the preset), which the net file carries (`train --base`).
    #[arg(long)]
    pub residual: bool,
    /// Train with shared inputs (`train --factorise`).
    #[arg(long)]
    pub factorise: bool,
    /// Games of each gate match (colour-swapped pairs).
    #[arg(long, default_value_t = 400)]
    pub gate_games: u64,
    /// Nodes a move in the gate matches.
    #[arg(long, default_value_t = 2000)]
    pub gate_nodes: u64,
    /// A clock for the gate matches instead (equal time), `10+0.1`.
    #[arg(long)]
    pub gate_tc: Option<TimeControl>,
    /// Base seed.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Worker threads (default: one per core).
    #[arg(long, default_value_t = 0)]
    pub threads: usize,
    /// The run's directory (the same command resumes it); the best net is DIR/best.nnue.
    #[arg(long)]
    pub dir: PathBuf,
    /// No progress display.
    #[arg(long, short)]
    pub quiet: bool,
    /// The linear engine the first generation's data is played by (and whose search all use).
    #[command(flatten)]
    pub engine: EngineArgs,
}

/// Runs `nnue`: the flags as generation settings, one library call, a line a generation.
pub fn run(a: &Args) -> Result<()> {
    let variant = a.variant.load()?;
    let base = a.engine.config(variant.name())?;
    let settings = Settings {
        generations: a.generations,
        positions: a.positions,
        data: stackchess_datagen::Settings {
            nodes: a.nodes,
            per_game: a.per_game,
            label_nodes: a.label_nodes,
            seed: a.seed,
            threads: a.threads,
            ..stackchess_datagen::Settings::default()
        },
        train: Options {
            hidden: a.hidden,
            epochs: a.epochs,
            seed: a.seed,
            threads: a.threads,
            factor_levels: if a.factorise { variant.levels() } else { 0 },
            ..Options::default()
        },
        labels: Labels { lambda: a.lambda, ..Labels::default() },
        holdout: 0.05,
        residual: a.residual,
        gate_games: a.gate_games,
        gate_limits: if a.gate_tc.is_some() { Limits::default() } else { Limits::nodes(a.gate_nodes) },
        gate_tc: a.gate_tc,
    };
    for g in crate::learned::run_generations(variant, &base, &a.dir, &settings, a.quiet)? {
        println!("{}", crate::learned::line(&g));
    }
    println!("best net: {}", a.dir.join("best.nnue").display());
    Ok(())
}
