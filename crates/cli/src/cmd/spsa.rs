//! `stackchess spsa`: tune numeric parameters (the search's margins, or evaluation keys) by play,
//! `θ+δ` against `θ−δ` in colour-swapped pairs, as `OpenBench` and fishtest run SPSA (docs/tuning.md).

use crate::common::EngineArgs;
use anyhow::{bail, Context, Result};
use stackchess_core::{Position, Rules};
use stackchess_search::Limits;
use stackchess_selfplay::TimeControl;
use stackchess_tune::spsa::{self, Param, SpsaError};
use stackchess_tune::spsa_games::{check, params_file, GameObjective, Games};
use stackchess_variants::{VariantArg, WithPosition};
use std::path::PathBuf;

/// Flags of `spsa`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// Variant: malka, traditional, fide, air-attack, or rules:FILE.
    #[arg(long, short, default_value = "malka")]
    pub variant: VariantArg,
    /// Games in all (two an iteration for each --pairs).
    #[arg(long, default_value_t = 2000)]
    pub games: u64,
    /// Game pairs an iteration.
    #[arg(long, default_value_t = 1)]
    pub pairs: u64,
    /// Nodes a move.
    #[arg(long)]
    pub nodes: Option<u64>,
    /// A time control instead, `40/60+0.6` or `10+0.1`.
    #[arg(long)]
    pub tc: Option<TimeControl>,
    /// The learning rate at the end (`OpenBench`'s `r_end`).
    #[arg(long, default_value_t = spsa::Settings::default().r_end)]
    pub r_end: f64,
    /// Random plies of each opening.
    #[arg(long, default_value_t = 8)]
    pub random_plies: u32,
    /// Games are drawn after this many plies.
    #[arg(long, default_value_t = 400)]
    pub max_plies: u32,
    /// Seed of the perturbations and openings.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Worker threads (default: one per core).
    #[arg(long, default_value_t = 0)]
    pub threads: usize,
    /// The state file (default: the --out file with .spsa); the same command resumes from it.
    #[arg(long)]
    pub state: Option<PathBuf>,
    /// The parameter file to write with the tuned values (`--params` reads it).
    #[arg(long)]
    pub out: PathBuf,
    /// No progress lines.
    #[arg(long, short)]
    pub quiet: bool,
    /// The engine both sides start from. Its `--param` is also the list to tune: a value
    /// `start,min,max,step` tunes that key (a search key such as `search.rfp_margin`, or an
    /// evaluation key; `step` is the last iteration's perturbation), a single value sets it.
    #[command(flatten)]
    pub engine: EngineArgs,
}

impl Args {
    /// The parameters to tune (the `--param` values with commas), and the engine with the other
    /// `--param` values alone.
    fn split(&self) -> Result<(Vec<Param>, EngineArgs)> {
        let (tuned, fixed): (Vec<&String>, Vec<&String>) = self.engine.param.iter().partition(|p| p.contains(','));
        let tuned =
            tuned.into_iter().map(|p| p.parse::<Param>().map_err(anyhow::Error::msg)).collect::<Result<Vec<_>>>()?;
        if tuned.is_empty() {
            bail!("give a parameter to tune: --param NAME=start,min,max,step");
        }
        let engine = EngineArgs { param: fixed.into_iter().cloned().collect(), ..self.engine.clone() };
        Ok((tuned, engine))
    }
}

struct Run<'a>(&'a Args);

impl WithPosition for Run<'_> {
    type Output = Result<()>;
    fn call<P: Position>(self, rules: P::Rules) -> Result<()> {
        let a = self.0;
        let (tuned, engine) = a.split()?;
        let base = engine.config(rules.name())?;
        check(&base, &tuned).map_err(anyhow::Error::msg)?;
        let limits = a.nodes.map_or_else(Limits::default, Limits::nodes);
        let threads = if a.threads == 0 {
            std::thread::available_parallelism().map_or(1, std::num::NonZero::get)
        } else {
            a.threads
        };
        let games = Games {
            base: base.clone(),
            limits,
            tc: a.tc,
            random_plies: a.random_plies,
            max_plies: a.max_plies,
            threads,
            seed: a.seed,
        };
        let settings = spsa::Settings {
            iterations: a.games / (2 * a.pairs),
            pairs: a.pairs,
            r_end: a.r_end,
            seed: a.seed,
            ..spsa::Settings::default()
        };
        let state = a.state.clone().unwrap_or_else(|| a.out.with_extension("spsa"));
        let _run = crate::interrupt::run()?;
        let mut progress = crate::progress::Progress::new(settings.iterations, 0, "iterations", a.quiet);
        let names: Vec<&str> = tuned.iter().map(|p| p.name.as_str()).collect();
        let mut objective = GameObjective::<P> { rules, games: &games, params: &tuned, halt: &crate::interrupt::STOP };
        let result = spsa::run(&tuned, &settings, &state, &mut objective, &crate::interrupt::STOP, &mut |s| {
            let values: Vec<String> = names.iter().zip(&s.theta).map(|(n, v)| format!("{n}={v:.1}")).collect();
            let last: f64 = s.results.iter().rev().take(100).sum();
            progress.inc(1);
            progress.message(&format!("{} (W-L of θ+ over the last 100: {last:+})", values.join(" ")), false);
        });
        progress.finish();
        let s = match result {
            Err(e @ SpsaError::Interrupted { .. }) => {
                eprintln!("{}: {e}", state.display());
                std::process::exit(1);
            }
            r => r?,
        };
        let command = std::env::args().collect::<Vec<_>>().join(" ");
        let header = vec![
            format!("{} of {} (rules {}), tuned by stackchess spsa", names.join(", "), rules.name(), rules.id()),
            format!("command: {command}"),
            format!("{} iterations of {} game pairs, state in {}", s.iteration, a.pairs, state.display()),
        ];
        std::fs::write(&a.out, params_file(&base, &tuned, &s.theta, &header))
            .with_context(|| format!("writing {}", a.out.display()))?;
        for (p, v) in tuned.iter().zip(&s.theta) {
            println!("{:<28} {:>8} -> {:>8.1}", p.name, p.start, v);
        }
        println!("wrote {}", a.out.display());
        Ok(())
    }
}

/// Runs `spsa`.
pub fn run(a: &Args) -> Result<()> {
    if a.nodes.is_none() && a.tc.is_none() {
        bail!("give --nodes N or --tc TC");
    }
    if a.pairs == 0 || a.games < 2 * a.pairs {
        bail!("--games {} --pairs {}: give at least one iteration (2 games a pair)", a.games, a.pairs);
    }
    a.variant.load()?.with(Run(a))
}
