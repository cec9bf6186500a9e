//! The fitter's data: each position of a data file as its linear features, its target and its game.

use stackchess_core::Position;
use stackchess_datagen::{Labels, Record};
use stackchess_search::{EvalParams, Evaluation};

/// Positions as rows of features ([`stackchess_search::Trace::features`], White's side), with a
/// target, whether the drawish scale applies, and the key of their game.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Rows {
    features: Vec<f32>,
    /// White's target: λ·σ(score) + (1 − λ)·result.
    pub target: Vec<f32>,
    /// Whether the drawish scale applies to the row.
    pub drawish: Vec<bool>,
    /// The row's game (held-out splits and bootstraps go by game).
    pub game: Vec<u64>,
}

impl Rows {
    /// No rows.
    #[must_use]
    pub fn new() -> Rows {
        Rows::default()
    }

    /// Adds a row.
    pub fn push(&mut self, features: &[f64; EvalParams::COUNT], target: f64, drawish: bool, game: u64) {
        // Features are small integers tapered by n/24: f32 keeps them to a few parts in 10^7.
        self.features.extend(features.iter().map(|&x| x as f32));
        self.target.push(target as f32);
        self.drawish.push(drawish);
        self.game.push(game);
    }

    /// The number of rows.
    #[must_use]
    pub fn len(&self) -> usize {
        self.target.len()
    }

    /// Whether there is no row.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.target.is_empty()
    }

    /// The features of row `i`.
    #[must_use]
    pub fn row(&self, i: usize) -> &[f32] {
        &self.features[i * EvalParams::COUNT..(i + 1) * EvalParams::COUNT]
    }

    /// The rows for which `keep(i)` holds.
    #[must_use]
    pub fn filter(&self, keep: impl Fn(usize) -> bool) -> Rows {
        let mut out = Rows::new();
        for i in (0..self.len()).filter(|&i| keep(i)) {
            out.features.extend_from_slice(self.row(i));
            out.target.push(self.target[i]);
            out.drawish.push(self.drawish[i]);
            out.game.push(self.game[i]);
        }
        out
    }

    /// The root mean square of each feature over the rows (0 for a term that never occurs).
    #[must_use]
    pub fn column_rms(&self) -> [f64; EvalParams::COUNT] {
        let mut sum = [0.0f64; EvalParams::COUNT];
        for row in self.features.chunks_exact(EvalParams::COUNT) {
            for (s, &x) in sum.iter_mut().zip(row) {
                *s += f64::from(x) * f64::from(x);
            }
        }
        let n = self.len().max(1) as f64;
        sum.map(|s| (s / n).sqrt())
    }
}

/// One chunk's rows, filled by the thread that takes it.
type Slot = Option<Result<Rows, String>>;

/// The rows of `records` under `rules`, traced with `eval` (whose parameters decide the terms that
/// switch on by material) and labelled by `labels`.
///
/// # Errors
/// A record whose position the rules refuse (its number named).
pub fn rows<P: Position>(
    rules: P::Rules,
    eval: &Evaluation,
    records: &[Record],
    labels: Labels,
    threads: usize,
) -> Result<Rows, String> {
    const CHUNK: usize = 4096;
    let chunks: Vec<&[Record]> = records.chunks(CHUNK).collect();
    let mut parts: Vec<Slot> = (0..chunks.len()).map(|_| None).collect();
    let threads = threads.clamp(1, chunks.len().max(1));
    std::thread::scope(|s| {
        let mut slots: Vec<Vec<(usize, &mut Slot)>> = (0..threads).map(|_| Vec::new()).collect();
        for (i, slot) in parts.iter_mut().enumerate() {
            slots[i % threads].push((i, slot));
        }
        for mine in slots {
            let chunks = &chunks;
            s.spawn(move || {
                for (i, slot) in mine {
                    *slot = Some(chunk_rows::<P>(rules, eval, chunks[i], i * CHUNK, labels));
                }
            });
        }
    });
    let mut out = Rows::new();
    for part in parts.into_iter().flatten() {
        let part = part?;
        out.features.extend_from_slice(&part.features);
        out.target.extend_from_slice(&part.target);
        out.drawish.extend_from_slice(&part.drawish);
        out.game.extend_from_slice(&part.game);
    }
    Ok(out)
}

fn chunk_rows<P: Position>(
    rules: P::Rules,
    eval: &Evaluation,
    records: &[Record],
    first: usize,
    labels: Labels,
) -> Result<Rows, String> {
    let mut out = Rows::new();
    for (i, r) in records.iter().enumerate() {
        let pos: P = r.position.position(rules).map_err(|e| format!("position {}: {e}", first + i + 1))?;
        let trace = eval.trace(&pos);
        let target = labels.target(f64::from(r.score), r.result.points());
        out.push(&trace.features(), target, trace.drawish, r.game);
    }
    Ok(out)
}

/// Rows drawn from a known model, for tests and benchmarks: `n` rows of features shaped like real
/// ones (material differences of −2 to 2, other terms' differences of −6 to 6, each split between
/// the phases by a random game phase, a tempo of ±1, a tenth of the rows drawish), each with the
/// target the model gives: `σ(c·k·s)` for `params` (legal-move mobility and mop-up left out).
#[must_use]
pub fn synthetic(n: usize, params: &EvalParams, k: f64, seed: u64) -> Rows {
    use stackchess_core::SplitMix64;
    let mut rng = SplitMix64::for_item(seed, 0);
    let mut unit = move || (rng.next_u64() >> 11) as f64 / (1u64 << 53) as f64;
    let theta = params.values().map(f64::from);
    let terms = stackchess_search::TERMS.len();
    let tempo = EvalParams::single_index("tempo").unwrap_or(0);
    let mut rows = Rows::new();
    for i in 0..n {
        let mut f = [0.0f64; EvalParams::COUNT];
        let ph = (unit() * 25.0).floor().min(24.0) / 24.0;
        for t in 0..terms {
            let value = stackchess_search::TERMS[t].key.starts_with("value.");
            let d = if value {
                ((unit() * 5.0).floor() - 2.0) * f64::from(u8::from(unit() < 0.4))
            } else {
                (unit() * 13.0).floor() - 6.0
            };
            f[EvalParams::index(t, false)] = d * ph;
            f[EvalParams::index(t, true)] = d * (1.0 - ph);
        }
        f[tempo] = if unit() < 0.5 { 1.0 } else { -1.0 };
        let drawish = unit() < 0.1;
        let lin: f64 = (0..2 * terms).map(|j| f[j] * theta[j]).sum();
        let m = if drawish { f64::from(params.scale_drawish) / 64.0 } else { 1.0 };
        let s = m * lin + f[tempo] * theta[tempo];
        let target = 1.0 / (1.0 + (-crate::fit::C * k * s).exp());
        rows.push(&f, target, drawish, i as u64 / 20);
    }
    rows
}
