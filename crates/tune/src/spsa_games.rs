//! SPSA's objective in games: θ+ and θ− as two engines whose settings differ only in the tuned
//! keys, playing colour-swapped pairs of random openings drawn from the seed and the iteration.

use crate::spsa::{Objective, Param};
use stackchess_core::{Position, SplitMix64};
use stackchess_search::{Limits, SearchConfig};
use stackchess_selfplay::{
    Adjudication, EngineSpec, GamePlayer, Openings, ResignRule, RunConfig, Shard, TimeControl, Timing,
};
use std::fmt::Write as _;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Mutex;

/// How the games of an iteration are played.
#[derive(Clone, Debug)]
pub struct Games {
    /// The engine both sides start from (the tuned keys are set on it).
    pub base: SearchConfig,
    /// Limits of each move.
    pub limits: Limits,
    /// A clock instead (or with the limits).
    pub tc: Option<TimeControl>,
    /// Random plies of each opening.
    pub random_plies: u32,
    /// Games are adjudicated drawn after this many plies.
    pub max_plies: u32,
    /// Worker threads.
    pub threads: usize,
    /// Base seed of the openings.
    pub seed: u64,
}

/// `base` with the tuned keys set to `values`, each rounded to the integer the engine takes. When
/// an evaluation key is tuned, a residual net is set aside at every value (it would ignore the
/// keys), so that θ+ and θ− always play the same kind of evaluation.
fn config(base: &SearchConfig, params: &[Param], values: &[f64]) -> Result<SearchConfig, String> {
    let mut c = base.clone();
    for (p, v) in params.iter().zip(values) {
        c.set(&p.name, &format!("{}", v.round() as i64)).map_err(|e| e.to_string())?;
    }
    let evaluation_tuned = params.iter().any(|p| !p.name.starts_with("search."));
    if evaluation_tuned && c.net.as_ref().is_some_and(|n| n.base.is_some()) {
        c.net = None;
    }
    Ok(c)
}

/// Checks that every parameter can be set on `base` at both ends of its range.
///
/// # Errors
/// A key the engine does not know, or a range beyond the key's own.
pub fn check(base: &SearchConfig, params: &[Param]) -> Result<(), String> {
    for p in params {
        for v in [p.min, p.start, p.max] {
            config(base, std::slice::from_ref(p), &[v]).map_err(|e| format!("--param {p}: {e}"))?;
        }
    }
    Ok(())
}

/// The tuned values as a parameter file the engine reads (`--params`): the search keys as
/// `search.<name> = v` lines; when an evaluation key is tuned, the whole evaluation too.
#[must_use]
pub fn params_file(base: &SearchConfig, params: &[Param], values: &[f64], header: &[String]) -> String {
    let mut out = String::new();
    for h in header {
        let _ = writeln!(out, "# {h}");
    }
    let tuned = config(base, params, values).unwrap_or_else(|_| base.clone());
    let mut eval_tuned = false;
    for (p, v) in params.iter().zip(values) {
        if p.name.starts_with("search.") {
            let _ = writeln!(out, "{} = {}", p.name, v.round() as i64);
        } else {
            eval_tuned = true;
        }
    }
    if eval_tuned {
        out.push_str(&tuned.eval.to_file());
    }
    out
}

/// The objective of [`crate::spsa::run`] for positions of type `P`.
pub struct GameObjective<'a, P: Position> {
    /// The rules.
    pub rules: P::Rules,
    /// How to play.
    pub games: &'a Games,
    /// The tuned keys.
    pub params: &'a [Param],
    /// Stops the games in progress.
    pub halt: &'a AtomicBool,
}

impl<P: Position> Objective for GameObjective<'_, P> {
    fn play(&mut self, plus: &[f64], minus: &[f64], k: u64, pairs: u64) -> Result<Option<f64>, String> {
        let g = self.games;
        let spec = |label: &str, values: &[f64]| -> Result<EngineSpec, String> {
            Ok(EngineSpec {
                label: label.into(),
                config: config(&g.base, self.params, values)?,
                limits: g.limits,
                tc: g.tc,
                external: None,
            })
        };
        let cfg = RunConfig {
            seed: SplitMix64::for_item(g.seed, k).next_u64() >> 1,
            games: 2 * pairs,
            threads: 1,
            openings: Openings::Random { plies: g.random_plies },
            opening_filter: None,
            paired: true,
            adjudication: Adjudication {
                max_plies: Some(g.max_plies),
                resign: Some(ResignRule { moves: 4, score: 1000 }),
                draw: None,
            },
            engines: vec![spec("plus", plus)?, spec("minus", minus)?],
            event: "stackchess spsa".into(),
            shard: Shard::WHOLE,
            timing: Timing::default(),
        };
        let next = AtomicUsize::new(0);
        let total = Mutex::new(Some(0.0f64));
        let failure = Mutex::new(None::<String>);
        std::thread::scope(|s| {
            for _ in 0..g.threads.clamp(1, usize::try_from(2 * pairs).unwrap_or(1)) {
                s.spawn(|| {
                    let mut player = match GamePlayer::<P>::new(self.rules, &cfg) {
                        Ok(p) => p,
                        Err(e) => {
                            *failure.lock().unwrap_or_else(std::sync::PoisonError::into_inner) = Some(e.to_string());
                            return;
                        }
                    };
                    loop {
                        let i = next.fetch_add(1, Ordering::Relaxed) as u64;
                        if i >= 2 * pairs {
                            break;
                        }
                        let outcome = match player.play(i, self.halt) {
                            Ok(p) => p,
                            Err(e) => {
                                *failure.lock().unwrap_or_else(std::sync::PoisonError::into_inner) =
                                    Some(e.to_string());
                                break;
                            }
                        };
                        let mut t = total.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
                        match outcome {
                            // Even games: plus has White.
                            Some((rec, _)) => {
                                let white = rec.white_points().unwrap_or(0.5);
                                let plus_points = if i.is_multiple_of(2) { white } else { 1.0 - white };
                                if let Some(x) = t.as_mut() {
                                    *x += 2.0 * plus_points - 1.0;
                                }
                            }
                            None => *t = None,
                        }
                    }
                });
            }
        });
        if let Some(e) = failure.into_inner().unwrap_or_else(std::sync::PoisonError::into_inner) {
            return Err(e);
        }
        Ok(total.into_inner().unwrap_or_else(std::sync::PoisonError::into_inner))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use stackchess_search::NetFile;

    #[test]
    fn tuning_an_evaluation_key_sets_a_residual_net_aside_and_a_search_key_keeps_it() {
        type P = stackchess_variants::Malka;
        let rules = stackchess_variants::malka::rules();
        let net = NetFile::from_bytes::<P>(rules, stackchess_variants::malka::NET.unwrap(), "builtin:malka").unwrap();
        let base =
            SearchConfig { net: Some(net), ..SearchConfig::preset(stackchess_variants::malka::EVAL_PARAMS).unwrap() };
        let param = |text: &str| text.parse::<Param>().unwrap();
        let queen = config(&base, &[param("value.queen=900,500,1300,50")], &[950.0]).unwrap();
        assert!(queen.net.is_none(), "the net would ignore value.queen");
        let searched = config(&base, &[param("search.hash=16,1,64,1")], &[8.0]).unwrap();
        assert!(searched.net.is_some(), "search keys leave the net's evaluation alone");
        // At the preset's own value too: a side whose values round back to the preset must not
        // play the net while the other plays the linear evaluation.
        let at_preset = f64::from(base.eval.get("value.queen").unwrap());
        assert!(config(&base, &[param("value.queen=900,500,1300,50")], &[at_preset]).unwrap().net.is_none());
    }
}
