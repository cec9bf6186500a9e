//! `stackchess match`: engine A against engine B, with score, Elo ± 95% interval, LOS,
//! pentanomial counts for paired games, and an optional SPRT that stops the match early.
//!
//! The engines are given either cutechess-cli style, `--engine name=A,cmd=PATH,...` or
//! `--engine name=B,param=...` (exactly two; [`crate::engine_spec`]), which may be external
//! programs speaking UCI, or as strings of the built-in engine's flags, applied on top of the
//! shared limits: `--engine-a "--param tempo=20"`, `--engine-b "--plain --nodes 2000"`.
//! Empty (the default) is the full engine with the shared limits.

use crate::common::{EngineArgs, Evaluation};
use crate::run_flags::{execute, limits_or_default, print_run, unfinished, LimitArgs, RunArgs, Ui};
use anyhow::{bail, Context, Result};
use clap::Parser;
use stackchess_core::{Position, Rules};
use stackchess_search::Limits;
use stackchess_selfplay::monitor::estimate;
use stackchess_selfplay::stats::{Sprt, SprtDecision, SprtModel};
use stackchess_selfplay::{EngineSpec, TimeControl};
use stackchess_variants::WithPosition;
use std::time::Duration;

/// Flags of `match`.
#[derive(clap::Args, Debug)]
pub struct Args {
    #[command(flatten)]
    run: RunArgs,
    /// Limits for both engines (each may override them in its spec); default 5000 nodes.
    #[command(flatten)]
    limits: LimitArgs,
    /// An engine, cutechess-style (give exactly two): external
    /// `name=N,cmd=PATH[,arg=X]...[,option.Name=V]...` or built-in
    /// `name=N[,param=K=V]...[,params=FILE][,plain][,net=FILE|linear][,hash=MB]`; either may add
    /// `nodes=N`, `depth=N`, `movetime=MS`, `tc=TC` (see docs/match.md).
    #[arg(long = "engine", value_name = "SPEC", conflicts_with_all = ["engine_a", "engine_b"])]
    engines: Vec<String>,
    /// Engine A: engine flags (`--hash`, `--param K=V`, `--params FILE`, `--plain`, `--nodes`, `--depth`, `--movetime`, `--tc`).
    #[arg(long, default_value = "", allow_hyphen_values = true, value_name = "FLAGS")]
    engine_a: String,
    /// Engine B, as --engine-a.
    #[arg(long, default_value = "", allow_hyphen_values = true, value_name = "FLAGS")]
    engine_b: String,
    /// Seconds an external engine may take to answer when no clock bounds it (its start,
    /// `isready`, a move under node or depth limits, added to a movetime); past it, it has
    /// stalled and loses the game.
    #[arg(long, value_name = "SECS", default_value_t = 30.0)]
    stall_timeout: f64,
    /// Stop when an SPRT decides: `elo0,elo1,alpha,beta`, e.g. `0,10,0.05,0.05`.
    #[arg(long, value_name = "ELO0,ELO1,ALPHA,BETA")]
    sprt: Option<String>,
    /// How the SPRT's Elo bounds are meant: normalized (fastchess's default) or logistic.
    #[arg(long, default_value = "normalized")]
    sprt_model: SprtModel,
    /// Every N games, print the score, W/D/L, Elo ± 95% and the SPRT's LLR on stderr (a batch
    /// job's log too). The SPRT is kept in --out whatever this says (sprt.csv, sprt.json).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..))]
    rating_interval: Option<u64>,
}

/// One engine's flags, as given in `--engine-a` / `--engine-b`.
#[derive(Parser, Debug)]
#[command(no_binary_name = true)]
struct EngineFlags {
    #[command(flatten)]
    engine: EngineArgs,
    #[command(flatten)]
    limits: LimitArgs,
}

/// Engine `label` from its flag string, over the shared limits and evaluation.
fn engine<P: Position>(
    rules: P::Rules,
    label: &str,
    spec: &str,
    shared: (Limits, Option<TimeControl>),
    eval: &Evaluation,
) -> Result<EngineSpec> {
    let flags = EngineFlags::try_parse_from(spec.split_whitespace())
        .with_context(|| format!("--engine-{} \"{spec}\"", label.to_lowercase()))?;
    let (limits, tc) = flags.limits.given().unwrap_or(shared);
    Ok(EngineSpec {
        label: label.into(),
        config: flags.engine.config_from(rules.name(), Some(eval))?,
        limits,
        tc,
        external: None,
    })
}

/// Reads `elo0,elo1,alpha,beta`.
fn parse_sprt(text: &str, model: SprtModel) -> Result<Sprt> {
    let v: Vec<f64> = text
        .split(',')
        .map(|x| x.trim().parse::<f64>())
        .collect::<Result<_, _>>()
        .with_context(|| format!("--sprt {text}: expected four numbers elo0,elo1,alpha,beta"))?;
    let [elo0, elo1, alpha, beta] = v[..] else {
        anyhow::bail!("--sprt {text}: expected four numbers elo0,elo1,alpha,beta");
    };
    Sprt::new(elo0, elo1, alpha, beta, model).map_err(anyhow::Error::msg)
}

struct Run<'a>(&'a Args);

impl WithPosition for Run<'_> {
    type Output = Result<()>;
    fn call<P: Position>(self, rules: P::Rules) -> Result<()> {
        let a = self.0;
        let shared = limits_or_default(&a.limits);
        let eval = a.run.tune.evaluation(rules.name().parse()?, a.run.threads, a.run.quiet)?;
        let engines = if a.engines.is_empty() {
            vec![
                engine::<P>(rules, "A", &a.engine_a, shared, &eval)?,
                engine::<P>(rules, "B", &a.engine_b, shared, &eval)?,
            ]
        } else {
            if a.engines.len() != 2 {
                bail!("match plays two engines: give --engine exactly twice, not {} times", a.engines.len());
            }
            let mut engines = Vec::new();
            for text in &a.engines {
                let def = stackchess_selfplay::spec::parse(text)?;
                engines.push(crate::engine_spec::engine_spec(
                    &def,
                    rules.name(),
                    a.run.variant.as_str(),
                    shared,
                    &eval,
                )?);
            }
            engines
        };
        let stall = Duration::try_from_secs_f64(a.stall_timeout)
            .ok()
            .filter(|d| !d.is_zero())
            .with_context(|| format!("--stall-timeout {:?}: give a positive number of seconds", a.stall_timeout))?;
        let sprt = a.sprt.as_deref().map(|s| parse_sprt(s, a.sprt_model)).transpose()?;
        let mut cfg = a.run.config::<P>(rules, engines, "stackchess match")?;
        cfg.timing.stall = stall;
        // The tally counts the first engine by the name its records carry.
        let monitor = stackchess_selfplay::Monitor::new(cfg.paired, sprt)
            .counting(&cfg.engines[0].label)
            .reporting(a.rating_interval, &a.run.out);
        let mut ui = Ui::new(a.run.quiet, true, monitor);
        let summary = execute::<P>(rules, &a.run, &cfg, &mut ui)?;
        print_run(&a.run, &summary, &ui);
        let t = &ui.monitor.tally;
        let f = &t.first;
        if let Some(e) = estimate(t) {
            let (first, second) = (&cfg.engines[0].label, &cfg.engines[1].label);
            println!(
                "Score of {first} vs {second}: {} - {} - {}  [{:.3}] {}",
                f.wins,
                f.losses,
                f.draws,
                e.score,
                f.games()
            );
            println!("{e}");
        }
        if cfg.paired {
            println!("Ptnml(0-2): {} ({} complete pairs)", t.penta, t.penta.pairs());
        }
        if let (Some(s), Some(llr)) = (sprt, ui.monitor.llr()) {
            let verdict = match ui.monitor.decision {
                SprtDecision::H0 => "H0 was accepted",
                SprtDecision::H1 => "H1 was accepted",
                SprtDecision::Continue => "no decision yet",
            };
            println!(
                "SPRT ({}): llr {llr:.2}, lbound {:.2}, ubound {:.2} [{}, {}] - {verdict}",
                s.model.name(),
                s.lower(),
                s.upper(),
                s.elo0,
                s.elo1
            );
        }
        for e in &cfg.engines {
            println!("{}: {}", e.label, e.describe());
        }
        unfinished(&a.run, &summary)
    }
}

/// Runs the command.
pub fn run(a: &Args) -> Result<()> {
    a.run.variant.load()?.with(Run(a))
}
