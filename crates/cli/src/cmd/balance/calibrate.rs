//! `balance --ladder N1,N2,... --calibrate G`: each rung's strength measured, not assumed. For
//! every variant, a paired match of G games between each pair of neighbouring rungs (the
//! stronger as A, on the study's openings) in `DIR/calibration/<variant>/<hi>-vs-<lo>/`, then the
//! Elo of each step and of each rung above the lowest (the steps added; their 95% half-widths
//! added in quadrature, as for independent matches).

use super::Args;
use crate::common::{EngineArgs, Evaluation};
use crate::run_flags::Ui;
use anyhow::{Context, Result};
use stackchess_core::{Position, Rules};
use stackchess_search::Limits;
use stackchess_selfplay::monitor::estimate;
use stackchess_selfplay::{EngineSpec, Monitor, RunEnd, Shard};
use stackchess_variants::{Variant, WithPosition};
use std::fmt::Write as _;
use std::path::Path;

/// One step of the ladder: `hi` nodes against `lo` nodes.
#[derive(Clone, Debug)]
struct Step {
    variant: String,
    lo: u64,
    hi: u64,
    games: u64,
    /// `hi`'s Elo over `lo`, with its 95% interval half-width.
    elo: f64,
    error: f64,
}

/// A match between two rungs.
struct Match<'a> {
    args: &'a Args,
    dir: &'a Path,
    lo: u64,
    hi: u64,
    eval: &'a Evaluation,
}

impl WithPosition for Match<'_> {
    type Output = Result<(u64, f64, f64)>;
    fn call<P: Position>(self, rules: P::Rules) -> Result<(u64, f64, f64)> {
        let a = self.args;
        let config = EngineArgs::default().config_from(rules.name(), Some(self.eval))?;
        let engine = |nodes: u64| EngineSpec::builtin(&format!("n{nodes}"), config.clone(), Limits::nodes(nodes));
        let (openings, _) = a.openings::<P>(rules, a.calibrate / 2)?;
        let engines = vec![engine(self.hi), engine(self.lo)];
        let cfg = a.run_config(engines, openings, a.calibrate, true, Shard::WHOLE, "stackchess balance --calibrate");
        let resume = self.dir.join("manifest.json").exists();
        let mut ui = Ui::new(a.quiet, true, Monitor::new(true, None).counting(&format!("n{}", self.hi)));
        let run = crate::interrupt::run()?;
        let summary = stackchess_selfplay::run::<P>(rules, self.dir, &cfg, resume, &crate::interrupt::STOP, &mut ui);
        drop(run);
        let summary = summary.with_context(|| format!("the calibration match in {}", self.dir.display()))?;
        if summary.end == RunEnd::Interrupted {
            anyhow::bail!("interrupted: run the same command again to complete the calibration");
        }
        let t = &ui.monitor.tally;
        let e = estimate(t).with_context(|| format!("{}: no Elo from {} games", self.dir.display(), t.games))?;
        Ok((t.games, e.elo, e.error))
    }
}

/// Plays the calibration matches and returns the table's lines.
pub fn run(a: &Args, variants: &[Variant], evals: &[Evaluation], rungs: &[u64]) -> Result<Vec<String>> {
    let mut sorted = rungs.to_vec();
    sorted.sort_unstable();
    sorted.dedup();
    let mut steps = Vec::new();
    for (i, v) in variants.iter().enumerate() {
        for pair in sorted.windows(2) {
            let (lo, hi) = (pair[0], pair[1]);
            let dir = a.dir.join("calibration").join(v.name()).join(format!("{hi}-vs-{lo}"));
            std::fs::create_dir_all(&dir).with_context(|| format!("creating {}", dir.display()))?;
            let (games, elo, error) = v.with(Match { args: a, dir: &dir, lo, hi, eval: &evals[i] })?;
            steps.push(Step { variant: v.to_string(), lo, hi, games, elo, error });
        }
    }
    Ok(table(&steps, a.calibrate))
}

/// The steps and the rungs' Elo above each variant's lowest rung.
fn table(steps: &[Step], games: u64) -> Vec<String> {
    let mut lines = vec![
        format!(
            "Strength of the rungs (paired matches of {games} games between neighbouring rungs, the stronger as A; 95% intervals)"
        ),
        format!("{:<12} {:>15} {:>6} {:>24} {:>24}", "variant", "rungs", "games", "elo_step [95%]", "elo_above_lowest [95%]"),
    ];
    let (mut variant, mut sum, mut var) = (String::new(), 0.0, 0.0);
    for s in steps {
        if s.variant != variant {
            (variant, sum, var) = (s.variant.clone(), 0.0, 0.0);
        }
        sum += s.elo;
        var += s.error * s.error;
        let band = |x: f64, e: f64| format!("{x:+.1} [{:+.1}, {:+.1}]", x - e, x + e);
        let mut line = String::new();
        let _ = write!(
            line,
            "{:<12} {:>15} {:>6} {:>24} {:>24}",
            s.variant,
            format!("{}→{}", s.lo, s.hi),
            s.games,
            band(s.elo, s.error),
            band(sum, var.sqrt())
        );
        lines.push(line);
    }
    lines
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rungs_above_the_lowest_add_the_steps_and_their_errors_in_quadrature() {
        let step = |lo, hi, elo, error| Step { variant: "malka".into(), lo, hi, games: 100, elo, error };
        let lines = table(&[step(500, 1000, 100.0, 30.0), step(1000, 2000, 80.0, 40.0)], 100);
        assert!(lines[2].contains("500→1000") && lines[2].ends_with("+100.0 [+70.0, +130.0]"), "{}", lines[2]);
        assert!(
            lines[3].contains("+80.0 [+40.0, +120.0]") && lines[3].ends_with("+180.0 [+130.0, +230.0]"),
            "{}",
            lines[3]
        );
    }
}
