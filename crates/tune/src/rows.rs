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
