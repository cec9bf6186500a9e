//! The quantised network: first-layer weights and biases as i16 at scale `QA`, output weights as
//! i16 at scale `QB`, the output bias as i32 at `QA·QB`; a squared clipped `ReLU` between.

use crate::accumulator::Accumulator;
use crate::features::Features;

/// The first layer's scale: an activation of 1.0 is `QA`.
pub const QA: i32 = 255;
/// The output layer's scale.
pub const QB: i32 = 1024;
/// Centipawns per unit of the network's output.
pub const SCALE: i32 = 400;

/// A network for one rule set.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Net {
    /// The rule set's id: a net is refused for any other rule set.
    pub rules_id: String,
    /// Levels of its board.
    pub levels: usize,
    /// Neurons of the first layer (per side).
    pub hidden: usize,
    /// What made it (command, seed, data), for the record.
    pub about: String,
    /// `inputs × hidden`, one row of `hidden` per input.
    pub(crate) w1: Vec<i16>,
    pub(crate) b1: Vec<i16>,
    /// `2 · hidden`: the side to move's neurons, then the other side's.
    pub(crate) w2: Vec<i16>,
    pub(crate) b2: i32,
}

impl Net {
    /// The number of inputs: `12 · 64 · levels`.
    #[must_use]
    pub fn inputs(&self) -> usize {
        12 * 64 * self.levels
    }

    /// The row of first-layer weights of input `i`.
    #[inline]
    pub(crate) fn row(&self, i: usize) -> &[i16] {
        &self.w1[i * self.hidden..(i + 1) * self.hidden]
    }

    /// The evaluation in centipawns for the side to move, from the accumulator (`white_to_move`
    /// says which of its halves is the mover's).
    #[must_use]
    pub fn evaluate(&self, acc: &Accumulator, white_to_move: bool) -> i32 {
        let (white, black) = acc.v.split_at(self.hidden);
        let (us, them) = if white_to_move { (white, black) } else { (black, white) };
        let (w_us, w_them) = self.w2.split_at(self.hidden);
        let sum = screlu_dot(us, w_us) + screlu_dot(them, w_them);
        let out = sum / i64::from(QA) + i64::from(self.b2);
        (out * i64::from(SCALE) / i64::from(QA * QB)) as i32
    }

    /// Checks that no first-layer sum can overflow its i16 on a board whose positions hold at most
    /// `pieces` pieces (the output is summed in i64: it cannot).
    ///
    /// # Errors
    /// The bound that fails.
    pub fn check_bounds(&self, pieces: usize) -> Result<(), String> {
        let max_w1 = (0..self.hidden)
            .map(|n| (0..self.inputs()).map(|i| i32::from(self.w1[i * self.hidden + n]).abs()).max().unwrap_or(0))
            .collect::<Vec<_>>();
        for (n, &w) in max_w1.iter().enumerate() {
            let bound = i64::from(self.b1[n]).abs() + pieces as i64 * i64::from(w);
            if bound > i64::from(i16::MAX) {
                return Err(format!(
                    "neuron {n} can reach {bound} with {pieces} pieces, beyond the i16 accumulator (weights too large)"
                ));
            }
        }
        Ok(())
    }

    /// The accumulator of `pos` from scratch.
    #[must_use]
    pub fn refresh<P: stackchess_core::Position>(&self, features: &Features, pos: &P) -> Accumulator {
        let mut acc = Accumulator::new(self);
        features.active(pos, |w, b| acc.add(self, w, b));
        acc
    }
}

/// `Σ clamp(a, 0, QA)² · w`: each product first as `clamp · w` (at most 255 · 32767, in i32), then
/// times `clamp` and summed in i64.
#[inline]
fn screlu_dot(a: &[i16], w: &[i16]) -> i64 {
    a.iter()
        .zip(w)
        .map(|(&a, &w)| {
            let c = i32::from(a).clamp(0, QA);
            i64::from(c * i32::from(w)) * i64::from(c)
        })
        .sum()
}
