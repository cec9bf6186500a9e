//! `stackchess selfplay`: one engine against itself, N games in parallel, streamed to a directory.

use crate::common::EngineArgs;
use crate::run_flags::{execute, limits_or_default, print_run, unfinished, LimitArgs, RunArgs, Ui};
use anyhow::Result;
use stackchess_core::{Position, Rules};
use stackchess_selfplay::stats::EloEstimate;
use stackchess_selfplay::{EngineSpec, Monitor};
use stackchess_variants::WithPosition;

/// Flags of `selfplay`.
#[derive(clap::Args, Debug)]
pub struct Args {
    #[command(flatten)]
    pub run: RunArgs,
    #[command(flatten)]
    pub limits: LimitArgs,
    #[command(flatten)]
    pub engine: EngineArgs,
}

struct Run<'a>(&'a Args);

impl WithPosition for Run<'_> {
    type Output = Result<()>;
    fn call<P: Position>(self, rules: P::Rules) -> Result<()> {
        let a = self.0;
        let eval = a.run.tune.evaluation(rules.name().parse()?, a.run.threads, a.run.quiet)?;
        let (limits, tc) = limits_or_default(&a.limits);
        let engine = EngineSpec {
            label: "default".into(),
            config: a.engine.config_from(rules.name(), Some(&eval))?,
            limits,
            tc,
            external: None,
        };
        let cfg = a.run.config::<P>(rules, vec![engine], "stackchess selfplay")?;
        let mut ui = Ui::new(a.run.quiet, false, Monitor::new(cfg.paired, None));
        let summary = execute::<P>(rules, &a.run, &cfg, &mut ui)?;
        print_run(&a.run, &summary, &ui);
        if let Some(e) = EloEstimate::trinomial(&ui.monitor.tally.first) {
            println!(
                "White score {:.1}% [{:.1}%, {:.1}%] (Elo {:+.1} ± {:.1})",
                e.score * 100.0,
                stackchess_selfplay::stats::elo_to_score(e.lower) * 100.0,
                stackchess_selfplay::stats::elo_to_score(e.upper) * 100.0,
                e.elo,
                e.error
            );
        }
        unfinished(&a.run, &summary)
    }
}

/// Runs the command.
pub fn run(a: &Args) -> Result<()> {
    a.run.variant.load()?.with(Run(a))
}
