//! The calibration (`balance --ladder N1,N2,... --calibrate G [--anchor SPEC]`): each rung's strength measured, not
//! assumed. For every variant, a paired match of G games between each pair of neighbouring rungs
//! (the stronger as A, on the study's openings) in `DIR/calibration/<variant>/<hi>-vs-<lo>/`, then
//! the Elo of each step and of each rung above the lowest (the steps added; their 95% half-widths
//! added in quadrature, as for independent matches). With `--anchor`, the lowest rung also plays
//! that engine (an `--engine` spec: Stockfish with `UCI_LimitStrength`, say) in
//! `DIR/calibration/<variant>/<lo>-vs-<anchor>/`, and every rung is placed on the anchor's scale:
//! its rating (`--anchor-elo`, or the spec's `option.UCI_Elo`) plus the match's Elo plus the steps.

use crate::batch::{play, run_config};
use crate::{Hooks, Setup, Study};
use anyhow::{bail, Context, Result};
use stackchess_analysis::ladder::Strength;
use stackchess_core::{Position, Rules};
use stackchess_search::Limits;
use stackchess_selfplay::monitor::estimate;
use stackchess_selfplay::spec::EngineDef;
use stackchess_selfplay::{EngineSpec, Monitor, RunEnd};
use stackchess_variants::WithPosition;
use std::fmt::Write as _;
use std::path::Path;

/// One match of the calibration: `hi` (nodes) against a lower rung or the anchor.
#[derive(Clone, Debug)]
struct Step {
    variant: String,
    /// The rung played as A.
    hi: u64,
    /// Its opponent: a rung, or the anchor's name.
    lo: Opponent,
    games: u64,
    /// `hi`'s Elo over `lo`, with its 95% interval half-width.
    elo: f64,
    error: f64,
}

/// Who the rung played.
#[derive(Clone, Debug, PartialEq)]
enum Opponent {
    Rung(u64),
    Anchor(String),
}

/// What the calibration measured: the table's lines, and each rung's strength on its scale.
pub struct Calibration {
    pub lines: Vec<String>,
    pub strength: Vec<Strength>,
    pub scale: String,
}

/// A match of the calibration in `dir`: `hi` nodes as A against `opponent`, for the `variant`-th
/// rule set.
struct Match<'a, S, H> {
    study: &'a Study,
    setup: &'a S,
    hooks: &'a mut H,
    dir: &'a Path,
    hi: u64,
    opponent: Result<u64, &'a EngineDef>,
    variant: usize,
}

impl<S: Setup, H: Hooks> WithPosition for Match<'_, S, H> {
    type Output = Result<(u64, f64, f64)>;
    fn call<P: Position>(self, rules: P::Rules) -> Result<(u64, f64, f64)> {
        let s = self.study;
        let config = self.setup.engine(self.variant, rules.name())?;
        let engine = |nodes: u64| EngineSpec::builtin(&format!("n{nodes}"), config.clone(), Limits::nodes(nodes));
        let b = match self.opponent {
            Ok(lo) => engine(lo),
            Err(def) => self
                .setup
                .anchor(self.variant, def, rules.name(), (Limits::nodes(self.hi), None))
                .with_context(|| format!("--anchor {def}"))?,
        };
        let (openings, _) = self.setup.openings::<P>(rules, s.calibrate / 2)?;
        let cfg =
            run_config(s, vec![engine(self.hi), b], openings, s.calibrate, true, "stackchess balance --calibrate");
        let first = format!("n{}", self.hi);
        let mut monitor = Monitor::new(true, None).counting(&first);
        let label = format!("{} n{} calibration", s.variants[self.variant], self.hi);
        let summary = play::<P>(rules, self.dir, &cfg, self.hooks, (&label, Some(&first)), Some(&mut monitor))
            .with_context(|| format!("the calibration match in {}", self.dir.display()))?;
        if summary.end == RunEnd::Interrupted {
            bail!("interrupted: run the same command again to complete the calibration");
        }
        let t = &monitor.tally;
        let e = estimate(t).with_context(|| format!("{}: no Elo from {} games", self.dir.display(), t.games))?;
        Ok((t.games, e.elo, e.error))
    }
}

/// Plays the calibration matches (and the anchor's, with one).
pub fn run(study: &Study, setup: &impl Setup, hooks: &mut impl Hooks) -> Result<Calibration> {
    let mut sorted = study.rungs.clone();
    sorted.sort_unstable();
    sorted.dedup();
    let mut steps = Vec::new();
    for (i, v) in study.variants.iter().enumerate() {
        let dir_of = |name: String| {
            let dir = study.dir.join("calibration").join(v.name()).join(name);
            std::fs::create_dir_all(&dir).with_context(|| format!("creating {}", dir.display())).map(|()| dir)
        };
        if let Some((def, _)) = &study.anchor {
            let lo = sorted[0];
            let dir = dir_of(format!("{lo}-vs-{}", def.name))?;
            let m = Match { study, setup, hooks: &mut *hooks, dir: &dir, hi: lo, opponent: Err(def), variant: i };
            let (games, elo, error) = v.with(m)?;
            let lo = Opponent::Anchor(def.name.clone());
            steps.push(Step { variant: v.to_string(), hi: sorted[0], lo, games, elo, error });
        }
        for pair in sorted.windows(2) {
            let (lo, hi) = (pair[0], pair[1]);
            let dir = dir_of(format!("{hi}-vs-{lo}"))?;
            let m = Match { study, setup, hooks: &mut *hooks, dir: &dir, hi, opponent: Ok(lo), variant: i };
            let (games, elo, error) = v.with(m)?;
            steps.push(Step { variant: v.to_string(), hi, lo: Opponent::Rung(lo), games, elo, error });
        }
    }
    let base = study.anchor.as_ref().map(|(def, elo)| (def.name.as_str(), *elo));
    let strength = strength(&steps, sorted[0], base.map(|b| b.1));
    let scale = match base {
        Some((name, elo)) => format!("Elo on the scale of {name} (rated {elo})"),
        None => format!("Elo above {} nodes", sorted[0]),
    };
    Ok(Calibration { lines: table(&steps, study.calibrate, &strength, &scale), strength, scale })
}

/// Each rung's Elo: the anchor's rating and match (or 0 at the lowest rung), then the steps added,
/// their half-widths in quadrature.
fn strength(steps: &[Step], lowest: u64, anchor_elo: Option<f64>) -> Vec<Strength> {
    let mut out: Vec<Strength> = Vec::new();
    let (mut variant, mut sum, mut var) = (String::new(), 0.0, 0.0);
    for s in steps {
        if s.variant != variant {
            (variant, sum, var) = (s.variant.clone(), 0.0, 0.0);
            if anchor_elo.is_none() {
                out.push(Strength { variant: variant.clone(), nodes: lowest, elo: (0.0, 0.0, 0.0) });
            }
        }
        sum += s.elo + if matches!(s.lo, Opponent::Anchor(_)) { anchor_elo.unwrap_or(0.0) } else { 0.0 };
        var += s.error * s.error;
        let e = var.sqrt();
        out.push(Strength { variant: variant.clone(), nodes: s.hi, elo: (sum, sum - e, sum + e) });
    }
    out
}

/// The table: one line per match, its Elo and the stronger rung's on the scale.
fn table(steps: &[Step], games: u64, strength: &[Strength], scale: &str) -> Vec<String> {
    let mut lines = vec![
        format!(
            "Strength of the rungs (paired matches of {games} games, the stronger rung as A; 95% intervals; last column: {scale})"
        ),
        format!("{:<12} {:>18} {:>6} {:>24} {:>24}", "variant", "match", "games", "elo [95%]", "rung_elo [95%]"),
    ];
    for s in steps {
        let rung = strength.iter().find(|x| x.variant == s.variant && x.nodes == s.hi);
        let band = |x: f64, lo: f64, hi: f64| format!("{x:+.1} [{lo:+.1}, {hi:+.1}]");
        let against = match &s.lo {
            Opponent::Rung(n) => format!("{}→{}", n, s.hi),
            Opponent::Anchor(name) => format!("{} vs {name}", s.hi),
        };
        let mut line = String::new();
        let _ = write!(
            line,
            "{:<12} {:>18} {:>6} {:>24} {:>24}",
            s.variant,
            against,
            s.games,
            band(s.elo, s.elo - s.error, s.elo + s.error),
            rung.map_or_else(|| "-".into(), |r| band(r.elo.0, r.elo.1, r.elo.2))
        );
        lines.push(line);
    }
    lines
}

#[cfg(test)]
mod tests {
    use super::*;

    fn step(hi: u64, lo: Opponent, elo: f64, error: f64) -> Step {
        Step { variant: "fide".into(), hi, lo, games: 100, elo, error }
    }

    #[test]
    fn rungs_above_the_lowest_add_the_steps_and_their_errors_in_quadrature() {
        let steps = [step(1000, Opponent::Rung(500), 100.0, 30.0), step(2000, Opponent::Rung(1000), 80.0, 40.0)];
        let s = strength(&steps, 500, None);
        assert_eq!(s.iter().map(|x| x.nodes).collect::<Vec<_>>(), [500, 1000, 2000]);
        assert_eq!(s[0].elo, (0.0, 0.0, 0.0));
        let lines = table(&steps, 100, &s, "Elo above 500 nodes");
        assert!(lines[2].contains("500→1000") && lines[2].ends_with("+100.0 [+70.0, +130.0]"), "{}", lines[2]);
        assert!(
            lines[3].contains("+80.0 [+40.0, +120.0]") && lines[3].ends_with("+180.0 [+130.0, +230.0]"),
            "{}",
            lines[3]
        );
    }

    #[test]
    fn an_anchor_places_every_rung_on_its_scale() {
        // The lowest rung scores +200 over an engine rated 1500; the step above adds 100 ± 40.
        let steps =
            [step(500, Opponent::Anchor("sf".into()), 200.0, 30.0), step(1000, Opponent::Rung(500), 100.0, 40.0)];
        let s = strength(&steps, 500, Some(1500.0));
        assert_eq!(s.len(), 2);
        assert_eq!(s[0].elo, (1700.0, 1670.0, 1730.0));
        assert_eq!(s[1].elo, (1800.0, 1750.0, 1850.0));
        let lines = table(&steps, 100, &s, "Elo on the scale of sf (rated 1500)");
        assert!(lines[2].contains("500 vs sf") && lines[2].ends_with("+1700.0 [+1670.0, +1730.0]"), "{}", lines[2]);
    }
}
