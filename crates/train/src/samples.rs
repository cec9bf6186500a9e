//! Training samples: each position's active inputs from both sides, its target and its game.

use stackchess_core::Color;
use stackchess_datagen::{Labels, Record};
use stackchess_nnue::Features;

/// Positions as the trainer reads them: per sample the side to move's active inputs and the
/// other side's (as [`Features`] numbers them), the mover's target and the game.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Samples {
    /// Inputs of every sample, the mover's then the other's, one after the other.
    inputs: Vec<u16>,
    /// Where sample `i`'s inputs start, and how many each side has (`offsets[i]`, `counts[i]`).
    offsets: Vec<u32>,
    counts: Vec<u8>,
    /// The mover's target: λ·σ(score) + (1 − λ)·result, from the side to move.
    pub target: Vec<f32>,
    /// The game of each sample.
    pub game: Vec<u64>,
}

impl Samples {
    /// The number of samples.
    #[must_use]
    pub fn len(&self) -> usize {
        self.target.len()
    }

    /// Whether there is none.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.target.is_empty()
    }

    /// Adds a sample.
    ///
    /// # Panics
    /// Never for a board of at most 255 pieces and inputs below 65,536 (`12 · 64 · 4 = 3072`).
    pub fn push(&mut self, us: &[u16], them: &[u16], target: f32, game: u64) {
        debug_assert_eq!(us.len(), them.len());
        self.offsets.push(self.inputs.len() as u32);
        self.counts.push(us.len().min(255) as u8);
        self.inputs.extend_from_slice(&us[..us.len().min(255)]);
        self.inputs.extend_from_slice(&them[..them.len().min(255)]);
        self.target.push(target);
        self.game.push(game);
    }

    /// Sample `i`'s inputs: the mover's and the other side's.
    #[inline]
    #[must_use]
    pub fn inputs(&self, i: usize) -> (&[u16], &[u16]) {
        let (at, n) = (self.offsets[i] as usize, usize::from(self.counts[i]));
        (&self.inputs[at..at + n], &self.inputs[at + n..at + 2 * n])
    }

    /// The samples for which `keep(i)` holds.
    #[must_use]
    pub fn filter(&self, keep: impl Fn(usize) -> bool) -> Samples {
        let mut out = Samples::default();
        for i in (0..self.len()).filter(|&i| keep(i)) {
            let (us, them) = self.inputs(i);
            out.push(us, them, self.target[i], self.game[i]);
        }
        out
    }
}

/// The samples of `records` for the board `features` numbers, labelled by `labels`.
#[must_use]
pub fn samples_of(features: &Features, records: &[Record], labels: Labels) -> Samples {
    let mut out = Samples::default();
    let (mut white, mut black) = (Vec::with_capacity(64), Vec::with_capacity(64));
    for r in records {
        white.clear();
        black.clear();
        r.position.for_each_piece(|cell, piece| {
            white.push(features.index(Color::White, piece, cell) as u16);
            black.push(features.index(Color::Black, piece, cell) as u16);
        });
        let t = labels.target(f64::from(r.score), r.result.points()) as f32;
        if r.position.turn == Color::White {
            out.push(&white, &black, t, r.game);
        } else {
            out.push(&black, &white, 1.0 - t, r.game);
        }
    }
    out
}
