//! The quantised network: first-layer weights and biases as i16 at scale `QA`, output weights as
//! i16 at scale `QB`, the output bias as i32 at `QA·QB`; a squared clipped `ReLU` between.

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
    /// The linear evaluation the net corrects, as the text of its parameter file: the net's
    /// output is added to that evaluation's score (a residual net). Empty for a net that
    /// evaluates alone.
    pub base: String,
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
}
