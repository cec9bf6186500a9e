//! Balanced opening suites, as testers use them: candidate openings (random plies, or lines
//! walked in a book) kept only when a search of a stated budget scores them within ±X
//! centipawns (never a mate), each position once. The suite depends on the candidates, the
//! search settings and the budget alone: candidates are scored in batches in parallel and kept
//! in index order, so a longer suite begins with a shorter one (a run that grows keeps its
//! openings).

use crate::{Error, Openings};
use rayon::prelude::*;
use stackchess_core::{Move, Position};
use stackchess_search::{Engine, Limits, Score, SearchConfig};
use std::collections::HashSet;
use std::sync::atomic::AtomicBool;

/// Candidates scored before giving up, per position asked for.
pub const TRIES_PER_POSITION: usize = 200;

/// How a suite is chosen.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SuiteSpec {
    /// Positions wanted.
    pub count: usize,
    /// Keep a candidate only if the search scores it within ±`max_cp` (never a mate).
    pub max_cp: u32,
    /// The search's node budget per candidate.
    pub nodes: u64,
    /// The seed of the candidates (random walks, book walks).
    pub seed: u64,
}

/// A kept opening: the moves from the start position (when the candidates know them), the
/// position, and its score from the mover's side.
#[derive(Clone, Debug)]
pub struct Kept<P> {
    /// The plies from the start position (`None` for candidates read from positions).
    pub moves: Option<Vec<Move>>,
    /// The position.
    pub position: P,
    /// The search's score, centipawns, from the side to move.
    pub cp: i32,
}

/// A suite and what making it cost.
#[derive(Clone, Debug)]
pub struct Suite<P> {
    /// The openings kept, in candidate order.
    pub kept: Vec<Kept<P>>,
    /// Candidates considered, up to the last one kept.
    pub tried: usize,
}

impl<P: Position> Suite<P> {
    /// Candidates scored and not kept (beyond the bound, a mate, or a position already kept).
    #[must_use]
    pub fn rejected(&self) -> usize {
        self.tried - self.kept.len()
    }
}

/// The suite of `spec.count` openings drawn from `candidates` (opening `k` with `spec.seed`),
/// scored by a search with `config` at `spec.nodes` nodes; `progress` sees (kept, tried) after
/// each batch.
///
/// # Errors
/// A candidate that cannot be drawn, or fewer than `count` positions within the bound after
/// [`TRIES_PER_POSITION`] candidates per position (naming the bound and the tries).
pub fn balanced<P: Position>(
    rules: P::Rules,
    candidates: &Openings,
    config: &SearchConfig,
    spec: &SuiteSpec,
    progress: &mut dyn FnMut(usize, usize),
) -> Result<Suite<P>, Error> {
    let budget = spec.count.saturating_mul(TRIES_PER_POSITION);
    let mut seen = HashSet::new();
    let mut suite = Suite { kept: Vec::new(), tried: 0 };
    let stop = AtomicBool::new(false);
    for start in (0..budget).step_by(64) {
        if suite.kept.len() >= spec.count {
            break;
        }
        let batch: Vec<u64> = (start..(start + 64).min(budget)).map(|k| k as u64).collect();
        // One engine per worker, forgotten before each candidate (`Engine::new_game`: a search
        // then depends on its arguments alone), rather than a table allocated per candidate.
        let scored: Vec<Result<Option<Kept<P>>, Error>> = batch
            .par_iter()
            .map_init(
                || Engine::<P>::new(rules, config.clone()),
                |engine, &k| {
                    let o = candidates.opening(rules, spec.seed, k, |_| true)?;
                    engine.new_game();
                    let r = engine.search(&o.position, &[], &Limits::nodes(spec.nodes), &stop, &mut |_| {});
                    Ok(match r.score {
                        Score::Cp(cp) if cp.unsigned_abs() <= spec.max_cp => {
                            Some(Kept { moves: o.moves, position: o.position, cp })
                        }
                        _ => None,
                    })
                },
            )
            .collect();
        for s in scored {
            // Candidates after the last one kept were scored but are not part of the suite.
            if suite.kept.len() >= spec.count {
                break;
            }
            suite.tried += 1;
            if let Some(kept) = s? {
                if suite.kept.len() < spec.count && seen.insert(kept.position.hash()) {
                    suite.kept.push(kept);
                }
            }
        }
        progress(suite.kept.len(), suite.tried);
    }
    if suite.kept.len() < spec.count {
        return Err(Error::Openings(format!(
            "only {} distinct positions within ±{} cp after {} candidates ({}): widen the bound or lower the count",
            suite.kept.len(),
            spec.max_cp,
            suite.tried,
            candidates.describe()
        )));
    }
    Ok(suite)
}

#[cfg(test)]
mod tests {
    use super::*;
    use stackchess_core::Rules as _;
    use stackchess_search::EvalParams;
    use stackchess_traditional::{fide_rules, Fide};

    fn config() -> SearchConfig {
        SearchConfig { hash_mb: 1, ..SearchConfig::full(EvalParams::default()) }
    }

    #[test]
    fn kept_openings_are_within_the_bound_distinct_and_a_longer_suite_extends_a_shorter_one() {
        let random = Openings::Random { plies: 4 };
        let spec = SuiteSpec { count: 12, max_cp: 40, nodes: 300, seed: 9 };
        let mut calls = 0;
        let long: Suite<Fide> = balanced(fide_rules(), &random, &config(), &spec, &mut |_, _| calls += 1).unwrap();
        assert!(calls > 0);
        assert_eq!(long.kept.len(), 12);
        let mut seen = HashSet::new();
        for k in &long.kept {
            assert!(k.cp.unsigned_abs() <= 40, "{}", k.cp);
            assert!(seen.insert(k.position.hash()), "a position kept twice");
            let moves = k.moves.as_ref().expect("random walks know their plies");
            assert_eq!(moves.len(), 4);
            let mut p = fide_rules().startpos();
            for &m in moves {
                p.play(m).unwrap();
            }
            assert_eq!(p.hash(), k.position.hash(), "the plies lead to the position");
        }
        let short: Suite<Fide> =
            balanced(fide_rules(), &random, &config(), &SuiteSpec { count: 5, ..spec }, &mut |_, _| {}).unwrap();
        let hashes = |s: &Suite<Fide>| s.kept.iter().map(|k| k.position.hash()).collect::<Vec<_>>();
        assert_eq!(hashes(&short), hashes(&long)[..5], "a shorter suite is a prefix of a longer one");
        assert_eq!(long.rejected(), long.tried - 12);
        // Each kept position scores within the bound when searched again at the same budget.
        for k in &long.kept {
            let mut engine = Engine::<Fide>::new(fide_rules(), config());
            let r = engine.search(&k.position, &[], &Limits::nodes(300), &AtomicBool::new(false), &mut |_| {});
            assert_eq!(r.score, Score::Cp(k.cp), "the same search, the same score");
        }
    }

    #[test]
    fn a_bound_no_candidate_meets_is_refused_naming_it() {
        // From the start a one-ply opening has at most 20 distinct positions.
        let spec = SuiteSpec { count: 25, max_cp: 1000, nodes: 50, seed: 1 };
        let e = balanced::<Fide>(fide_rules(), &Openings::Random { plies: 1 }, &config(), &spec, &mut |_, _| {})
            .unwrap_err();
        let text = e.to_string();
        assert!(text.contains("only 20 distinct positions within ±1000 cp") && text.contains("random:1"), "{text}");
    }
}
