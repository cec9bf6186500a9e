//! Training data: positions as rows of evaluation coefficients (from White's side) with the
//! results of their games; quiet positions sampled from self-play records.

use stackchess_core::{parse_coord, Color, Position, Rules, SplitMix64};
use stackchess_search::{EvalParams, Evaluation};
use stackchess_selfplay::GameRecord;
use std::path::Path;

/// Positions for a fit: each a row of [`EvalParams::COUNT`] coefficients and White's result.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Dataset {
    rows: Vec<f32>,
    results: Vec<f32>,
}

impl Dataset {
    /// No positions.
    #[must_use]
    pub fn new() -> Dataset {
        Dataset::default()
    }

    /// Adds a position: its coefficients from White's side and White's result (1, ½ or 0).
    pub fn push(&mut self, coefs: &[f64; EvalParams::COUNT], result: f32) {
        // Coefficients are small integers and halves (centralisation), tapered by n/24: f32 keeps them.
        self.rows.extend(coefs.iter().map(|&c| c as f32));
        self.results.push(result);
    }

    /// The number of positions.
    #[must_use]
    pub fn len(&self) -> usize {
        self.results.len()
    }

    /// Whether there is no position.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.results.is_empty()
    }

    /// The coefficients of position `i`.
    #[must_use]
    pub fn row(&self, i: usize) -> &[f32] {
        &self.rows[i * EvalParams::COUNT..(i + 1) * EvalParams::COUNT]
    }

    /// White's result in the game of position `i`.
    #[must_use]
    pub fn result(&self, i: usize) -> f32 {
        self.results[i]
    }

    /// The root mean square of each column (0 for a term that never appears).
    #[must_use]
    pub fn column_rms(&self) -> [f64; EvalParams::COUNT] {
        let mut sum = [0.0f64; EvalParams::COUNT];
        for row in self.rows.chunks_exact(EvalParams::COUNT) {
            for (s, &x) in sum.iter_mut().zip(row) {
                *s += f64::from(x) * f64::from(x);
            }
        }
        let n = self.len().max(1) as f64;
        sum.map(|s| (s / n).sqrt())
    }

    /// Adds every position of `other`.
    pub fn extend(&mut self, other: &Dataset) {
        self.rows.extend_from_slice(&other.rows);
        self.results.extend_from_slice(&other.results);
    }
}

/// Positions of self-play games, split by game into training and held-out positions.
#[derive(Clone, Debug, Default)]
pub struct Split {
    /// Positions to fit.
    pub train: Dataset,
    /// Positions of the held-out games.
    pub holdout: Dataset,
    /// Games read.
    pub games: usize,
    /// Of those, games held out.
    pub held_out_games: usize,
}

/// Reads the game records of a self-play directory: the one place `tune` reads records.
///
/// # Errors
/// A missing or damaged record file.
pub fn read_games(dir: &Path) -> Result<Vec<GameRecord>, stackchess_selfplay::Error> {
    stackchess_selfplay::read_records(&dir.join(stackchess_selfplay::run::GAMES_CSV))
}

/// White's score in a game: `1-0` 1, `1/2-1/2` ½, `0-1` 0.
fn white_score(result: &str) -> Option<f32> {
    match result {
        "1-0" => Some(1.0),
        "1/2-1/2" => Some(0.5),
        "0-1" => Some(0.0),
        _ => None,
    }
}

/// FNV-1a of a game id: where the split looks.
fn fnv1a(text: &str) -> u64 {
    text.bytes().fold(0xcbf2_9ce4_8422_2325, |h, b| (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3))
}

/// Whether the game `id` is held out: a `share` of games, drawn from `seed` and the id alone.
#[must_use]
pub fn held_out(seed: u64, id: &str, share: f64) -> bool {
    (SplitMix64::for_item(seed, fnv1a(id)).next_u64() >> 11) as f64 / (1u64 << 53) as f64 <= share && share > 0.0
}

/// Samples the quiet positions of `records` and splits them by game (a `holdout` share of games,
/// drawn from `seed`): every position of a game before a move that is neither a capture nor a
/// promotion, with the mover not in check (a position in the middle of a tactic says little
/// about its static value). Each is traced with `eval` from White's side.
///
/// # Errors
/// A record whose start position or moves do not replay, or whose result is not a result.
pub fn sample<P: Position>(
    rules: P::Rules,
    eval: &Evaluation,
    records: &[GameRecord],
    seed: u64,
    holdout: f64,
) -> Result<Split, String> {
    let mut split = Split::default();
    for rec in records {
        let id = &rec.game_id;
        let result = white_score(&rec.result).ok_or_else(|| format!("game {id}: result '{}'", rec.result))?;
        let mut pos = rules.from_lfen(&rec.start_lfen).map_err(|e| format!("game {id}: start position: {e}"))?;
        let out = if held_out(seed, id, holdout) {
            split.held_out_games += 1;
            &mut split.holdout
        } else {
            &mut split.train
        };
        split.games += 1;
        for (i, text) in rec.moves.split_whitespace().enumerate() {
            let m = parse_coord(&pos, text).map_err(|e| format!("game {id}: move {}: {e}", i + 1))?;
            if !pos.is_check() && pos.captured(m).is_none() && m.promotion().is_none() {
                let mut coefs = eval.trace(&pos);
                if pos.turn() == Color::Black {
                    coefs = coefs.map(|c| -c);
                }
                out.push(&coefs, result);
            }
            pos.play_unchecked(m);
        }
    }
    Ok(split)
}

/// Positions drawn from a known model, for tests and benchmarks: `n` rows of coefficients
/// shaped like real ones (material differences, centralisation sums, king and pawn terms,
/// a tempo of ±1), each with a decisive result drawn with White's probability
/// `σ(c·k·x·θ)` for `params` (mobility left out).
#[must_use]
pub fn synthetic(n: usize, params: &EvalParams, k: f64, seed: u64) -> Dataset {
    let mut rng = SplitMix64::for_item(seed, 0);
    let mut uniform = move || (rng.next_u64() >> 11) as f64 / (1u64 << 53) as f64;
    let theta = params.values().map(f64::from);
    let mut data = Dataset::new();
    for _ in 0..n {
        let mut x = [0.0f64; EvalParams::COUNT];
        for (j, key) in EvalParams::KEYS.iter().enumerate() {
            // Material: a difference of −2 to 2, mostly 0; other terms: spread like sums of a
            // few pieces' terms (halves included), some signed, some mostly one way.
            let u = uniform();
            x[j] = if key.starts_with("value.") {
                ((u * 5.0).floor() - 2.0) * f64::from(u8::from(uniform() < 0.4))
            } else if *key == "tempo" {
                if u < 0.5 {
                    1.0
                } else {
                    -1.0
                }
            } else if *key == "mobility" {
                0.0
            } else {
                ((u - 0.5) * 24.0).round() / 2.0
            };
        }
        let e: f64 = x.iter().zip(&theta).map(|(a, b)| a * b).sum();
        let p = 1.0 / (1.0 + (-crate::fit::C * k * e).exp());
        data.push(&x, if uniform() < p { 1.0 } else { 0.0 });
    }
    data
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_split_is_by_game_and_seeded() {
        let ids: Vec<String> = (0..2000).map(|i| format!("abc-{i:06}")).collect();
        let held = |seed| ids.iter().filter(|id| held_out(seed, id, 0.1)).count();
        assert!((150..250).contains(&held(1)), "{}", held(1));
        assert_eq!(held(1), held(1));
        let same = ids.iter().filter(|id| held_out(1, id, 0.1) == held_out(2, id, 0.1)).count();
        assert!(same < 2000, "another seed holds out other games");
        assert_eq!(ids.iter().filter(|id| held_out(1, id, 0.0)).count(), 0);
    }
}
