//! `balance --ladder N1,N2,... --calibrate G [--anchor SPEC]`: each rung's strength measured, not
//! assumed. For every variant, a paired match of G games between each pair of neighbouring rungs
//! (the stronger as A, on the study's openings) in `DIR/calibration/<variant>/<hi>-vs-<lo>/`, then
//! the Elo of each step and of each rung above the lowest (the steps added; their 95% half-widths
//! added in quadrature, as for independent matches). With `--anchor`, the lowest rung also plays
//! that engine (an `--engine` spec: Stockfish with `UCI_LimitStrength`, say) in
//! `DIR/calibration/<variant>/<lo>-vs-<anchor>/`, and every rung is placed on the anchor's scale:
//! its rating (`--anchor-elo`, or the spec's `option.UCI_Elo`) plus the match's Elo plus the steps.

use super::Args;
use crate::common::{EngineArgs, Evaluation};
use crate::run_flags::Ui;
use anyhow::{bail, Context, Result};
use stackchess_analysis::ladder::Strength;
use stackchess_core::{Position, Rules};
use stackchess_search::Limits;
use stackchess_selfplay::monitor::estimate;
use stackchess_selfplay::spec::{EngineDef, EngineKind};
use stackchess_selfplay::{EngineSpec, Monitor, RunEnd, Shard};
use stackchess_variants::{Variant, WithPosition};
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

/// The anchor: its spec and its rating.
pub(super) struct Anchor {
    def: EngineDef,
    elo: f64,
}

/// What the calibration measured: the table's lines, and each rung's strength on its scale.
pub struct Calibration {
    pub lines: Vec<String>,
    pub strength: Vec<Strength>,
    pub scale: String,
}

/// A match of the calibration in `dir`: `hi` nodes as A against `opponent`.
struct Match<'a> {
    args: &'a Args,
    dir: &'a Path,
    hi: u64,
    opponent: Result<u64, &'a EngineDef>,
    eval: &'a Evaluation,
    variant: Variant,
}

impl WithPosition for Match<'_> {
    type Output = Result<(u64, f64, f64)>;
    fn call<P: Position>(self, rules: P::Rules) -> Result<(u64, f64, f64)> {
        let a = self.args;
        let config = EngineArgs::default().config_from(rules.name(), Some(self.eval))?;
        let engine = |nodes: u64| EngineSpec::builtin(&format!("n{nodes}"), config.clone(), Limits::nodes(nodes));
        let b = match self.opponent {
            Ok(lo) => engine(lo),
            Err(def) => crate::engine_spec::engine_spec(
                def,
                rules.name(),
                self.variant.name(),
                (Limits::nodes(self.hi), None),
                self.eval,
            )
            .with_context(|| format!("--anchor {def}"))?,
        };
        let (openings, _) = a.openings::<P>(rules, a.calibrate / 2)?;
        let cfg = a.run_config(
            vec![engine(self.hi), b],
            openings,
            a.calibrate,
            true,
            Shard::WHOLE,
            "stackchess balance --calibrate",
        );
        let resume = self.dir.join("manifest.json").exists();
        let mut ui = Ui::new(a.quiet, true, Monitor::new(true, None).counting(&format!("n{}", self.hi)));
        let run = crate::interrupt::run()?;
        let summary = stackchess_selfplay::run::<P>(rules, self.dir, &cfg, resume, &crate::interrupt::STOP, &mut ui);
        drop(run);
        let summary = summary.with_context(|| format!("the calibration match in {}", self.dir.display()))?;
        if summary.end == RunEnd::Interrupted {
            bail!("interrupted: run the same command again to complete the calibration");
        }
        let t = &ui.monitor.tally;
        let e = estimate(t).with_context(|| format!("{}: no Elo from {} games", self.dir.display(), t.games))?;
        Ok((t.games, e.elo, e.error))
    }
}

/// The anchor of `--anchor SPEC`: an external engine, rated by `--anchor-elo` or its
/// `option.UCI_Elo`.
pub(super) fn anchor(a: &Args) -> Result<Option<Anchor>> {
    let Some(text) = &a.anchor else { return Ok(None) };
    let def = stackchess_selfplay::spec::parse(text)?;
    let EngineKind::External { options, .. } = &def.kind else {
        bail!("--anchor {text}: give an external engine (a spec with cmd=...), whose rating is known");
    };
    let from_spec = options.iter().find(|(k, _)| k.eq_ignore_ascii_case("UCI_Elo")).map(|(_, v)| v.clone());
    let elo = match (a.anchor_elo, from_spec) {
        (Some(x), _) => x,
        (None, Some(v)) => v.parse().with_context(|| format!("--anchor {text}: option.UCI_Elo={v} is not a number"))?,
        (None, None) => bail!("--anchor {text}: give its rating with --anchor-elo (or option.UCI_Elo in the spec)"),
    };
    Ok(Some(Anchor { def, elo }))
}

/// Plays the calibration matches (and the anchor's, with `--anchor`).
pub fn run(a: &Args, variants: &[Variant], evals: &[Evaluation], rungs: &[u64]) -> Result<Calibration> {
    let anchor = anchor(a)?;
    let mut sorted = rungs.to_vec();
    sorted.sort_unstable();
    sorted.dedup();
    let mut steps = Vec::new();
    for (i, &v) in variants.iter().enumerate() {
        let dir_of = |name: String| {
            let dir = a.dir.join("calibration").join(v.name()).join(name);
            std::fs::create_dir_all(&dir).with_context(|| format!("creating {}", dir.display())).map(|()| dir)
        };
        let play =
            |hi: u64, opponent, dir: &Path| v.with(Match { args: a, dir, hi, opponent, eval: &evals[i], variant: v });
        if let Some(an) = &anchor {
            let lo = sorted[0];
            let dir = dir_of(format!("{lo}-vs-{}", an.def.name))?;
            let (games, elo, error) = play(lo, Err(&an.def), &dir)?;
            steps.push(Step {
                variant: v.to_string(),
                hi: lo,
                lo: Opponent::Anchor(an.def.name.clone()),
                games,
                elo,
                error,
            });
        }
        for pair in sorted.windows(2) {
            let (lo, hi) = (pair[0], pair[1]);
            let (games, elo, error) = play(hi, Ok(lo), &dir_of(format!("{hi}-vs-{lo}"))?)?;
            steps.push(Step { variant: v.to_string(), hi, lo: Opponent::Rung(lo), games, elo, error });
        }
    }
    let base = anchor.as_ref().map(|an| (an.def.name.as_str(), an.elo));
    let strength = strength(&steps, sorted[0], base.map(|b| b.1));
    let scale = match base {
        Some((name, elo)) => format!("Elo on the scale of {name} (rated {elo})"),
        None => format!("Elo above {} nodes", sorted[0]),
    };
    Ok(Calibration { lines: table(&steps, a.calibrate, &strength, &scale), strength, scale })
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
