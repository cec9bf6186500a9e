//! The network in floats: what training fits, the reference the quantised net is checked against.

use crate::net::{Net, QA, QB, SCALE};

/// The largest weight magnitude training keeps, so the quantised sums stay within their integers.
pub const CLIP: f32 = 1.98;

/// A float network `(inputs → hidden)×2 → 1` with a squared clipped `ReLU`.
#[derive(Clone, Debug, PartialEq)]
pub struct FloatNet {
    /// Inputs (`12 · 64 · levels`).
    pub inputs: usize,
    /// Neurons of the first layer.
    pub hidden: usize,
    /// `inputs × hidden`, one row per input.
    pub w1: Vec<f32>,
    /// `hidden`.
    pub b1: Vec<f32>,
    /// `2 · hidden`: the side to move's neurons, then the other's.
    pub w2: Vec<f32>,
    /// The output bias.
    pub b2: f32,
}

/// `clamp(x, 0, 1)²`.
#[inline]
#[must_use]
pub fn screlu(x: f32) -> f32 {
    let c = x.clamp(0.0, 1.0);
    c * c
}

impl FloatNet {
    /// A network with weights drawn uniformly from `±1/√32` (first layer) and `±1/√(2·hidden)`
    /// (output) from `seed`, biases 0: where training starts.
    #[must_use]
    pub fn random(inputs: usize, hidden: usize, seed: u64) -> FloatNet {
        let mut rng = stackchess_core::SplitMix64::for_item(seed, 0x4E4E);
        let mut u = move |a: f32| ((rng.next_u64() >> 40) as f32 / (1u64 << 24) as f32 * 2.0 - 1.0) * a;
        let (a1, a2) = (1.0 / 32f32.sqrt(), 1.0 / (2.0 * hidden as f32).sqrt());
        FloatNet {
            inputs,
            hidden,
            w1: (0..inputs * hidden).map(|_| u(a1)).collect(),
            b1: vec![0.0; hidden],
            w2: (0..2 * hidden).map(|_| u(a2)).collect(),
            b2: 0.0,
        }
    }

    /// The first layer's sums of a side whose active inputs are `active`.
    #[must_use]
    pub fn hidden_sums(&self, active: &[usize]) -> Vec<f32> {
        let mut h = self.b1.clone();
        for &i in active {
            for (a, w) in h.iter_mut().zip(&self.w1[i * self.hidden..(i + 1) * self.hidden]) {
                *a += w;
            }
        }
        h
    }

    /// The output (in units of [`SCALE`] centipawns) for the mover's active inputs `us` and the
    /// other side's `them`.
    #[must_use]
    pub fn forward(&self, us: &[usize], them: &[usize]) -> f32 {
        let (a, b) = (self.hidden_sums(us), self.hidden_sums(them));
        let (wa, wb) = self.w2.split_at(self.hidden);
        let dot = |h: &[f32], w: &[f32]| h.iter().zip(w).map(|(&x, &w)| screlu(x) * w).sum::<f32>();
        dot(&a, wa) + dot(&b, wb) + self.b2
    }

    /// The evaluation in centipawns.
    #[must_use]
    pub fn centipawns(&self, us: &[usize], them: &[usize]) -> f32 {
        self.forward(us, them) * SCALE as f32
    }

    /// The quantised net, for the rule set `rules_id` on `levels` levels (weights beyond
    /// [`CLIP`] are held at it).
    #[must_use]
    pub fn quantise(&self, rules_id: &str, levels: usize, about: &str) -> Net {
        let q = |x: f32, s: i32| (x.clamp(-CLIP, CLIP) * s as f32).round() as i16;
        Net {
            rules_id: rules_id.to_owned(),
            levels,
            hidden: self.hidden,
            about: about.to_owned(),
            base: String::new(),
            w1: self.w1.iter().map(|&x| q(x, QA)).collect(),
            b1: self.b1.iter().map(|&x| q(x, QA)).collect(),
            w2: self.w2.iter().map(|&x| q(x, QB)).collect(),
            b2: (self.b2 * (QA * QB) as f32).round() as i32,
        }
    }

    /// The float network a quantised net stands for (each weight divided by its scale): where
    /// training resumes from a net (`stackchess train --init`). Quantising it gives `net` back.
    #[must_use]
    pub fn from_net(net: &Net) -> FloatNet {
        let f = |x: i16, s: i32| f32::from(x) / s as f32;
        FloatNet {
            inputs: net.inputs(),
            hidden: net.hidden,
            w1: net.w1.iter().map(|&x| f(x, QA)).collect(),
            b1: net.b1.iter().map(|&x| f(x, QA)).collect(),
            w2: net.w2.iter().map(|&x| f(x, QB)).collect(),
            b2: net.b2 as f32 / (QA * QB) as f32,
        }
    }
}
