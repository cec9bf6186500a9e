//! The trainer: mini-batch Adam on the float network, the first layer's gradient sparse.

use crate::samples::Samples;
use crate::TrainError;
use stackchess_core::SplitMix64;
use stackchess_nnue::{screlu, FloatNet, CLIP};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

/// Chunks a batch is cut into (fixed, so the sums do not depend on the threads).
const CHUNKS: usize = 16;
/// ln 10: the network's output is in units of 400 cp, and σ₄₀₀(400·y) = 1 / (1 + 10^−y).
const LN10: f32 = std::f32::consts::LN_10;

/// How to train.
#[derive(Clone, Debug, PartialEq)]
pub struct Options {
    /// Neurons of the first layer.
    pub hidden: usize,
    /// Passes over the training samples.
    pub epochs: usize,
    /// Samples a mini-batch.
    pub batch: usize,
    /// Adam's learning rate (a tenth of it for the last quarter of the epochs).
    pub lr: f32,
    /// Seed of the initial weights and the shuffles.
    pub seed: u64,
    /// Worker threads (0: every core).
    pub threads: usize,
    /// Train with shared inputs ([`Factors`]) on a board of this many levels (0: none).
    pub factor_levels: usize,
    /// Where training starts: this net's weights (of the same inputs and hidden size), else
    /// weights drawn from the seed.
    pub init: Option<FloatNet>,
}

impl Default for Options {
    fn default() -> Self {
        Options { hidden: 64, epochs: 12, batch: 16_384, lr: 0.001, seed: 1, threads: 0, factor_levels: 0, init: None }
    }
}

impl Options {
    /// Settings that cannot train: a hidden size of 0 or above 1024, a batch or epochs of 0, a
    /// learning rate that is not a positive number.
    ///
    /// # Errors
    /// [`TrainError::Config`] naming the setting.
    pub fn check(&self) -> Result<(), TrainError> {
        let bad = |what: String| Err(TrainError::Config(what));
        if !(1..=1024).contains(&self.hidden) {
            return bad(format!("hidden size {}: give 1 to 1024 neurons", self.hidden));
        }
        if self.batch == 0 || self.epochs == 0 {
            return bad(format!("batch {}, epochs {}: give a batch and an epoch", self.batch, self.epochs));
        }
        if !(self.lr.is_finite() && self.lr > 0.0) {
            return bad(format!("learning rate {}: give a positive number", self.lr));
        }
        if let Some(init) = self.init.as_ref().filter(|n| n.hidden != self.hidden) {
            return bad(format!("the starting net has {} neurons; this training has {}", init.hidden, self.hidden));
        }
        Ok(())
    }
}

/// Shared ("virtual") inputs that training adds to every real one, so that what many inputs have
/// in common is learnt from all their samples: the same piece on the same square of any level,
/// the piece anywhere (its material), and the piece anywhere on a level. A real input's row is
/// trained as the sum of its own and its shared rows, and the sum is what the net keeps
/// ([`Expansion::fold`]): the shared inputs cost nothing in the search.
#[derive(Clone, Debug)]
pub struct Expansion {
    /// Real inputs.
    inputs: usize,
    /// Rows a real input is trained as.
    per: usize,
    /// `inputs × per`: the rows of each real input, its own first.
    rows: Vec<u32>,
}

impl Expansion {
    /// Each input trained as itself alone.
    #[must_use]
    pub fn none(inputs: usize) -> Expansion {
        Expansion { inputs, per: 1, rows: (0..inputs as u32).collect() }
    }

    /// The shared inputs of a board of `levels` levels (inputs numbered as
    /// [`stackchess_nnue::Features`] numbers them: `(side · 6 + role) · cells + cell`).
    #[must_use]
    pub fn factors(levels: usize) -> Expansion {
        let cells = 64 * levels;
        let inputs = 12 * cells;
        let (planar, material, level) = (inputs, inputs + 12 * 64, inputs + 12 * 64 + 12);
        let mut rows = Vec::with_capacity(inputs * 4);
        for f in 0..inputs {
            let (piece, cell) = (f / cells, f % cells);
            let r = [f, planar + piece * 64 + cell % 64, material + piece, level + piece * levels + cell / 64];
            rows.extend(r.map(|x| x as u32));
        }
        Expansion { inputs, per: 4, rows }
    }

    /// Rows the trainer keeps (real and shared).
    #[must_use]
    pub fn rows(&self) -> usize {
        self.rows.iter().max().map_or(0, |&m| m as usize + 1)
    }

    /// The rows real input `f` is trained as.
    #[inline]
    fn of(&self, f: usize) -> &[u32] {
        &self.rows[f * self.per..(f + 1) * self.per]
    }

    /// The net of the real inputs: each row the sum of the rows it was trained as.
    #[must_use]
    pub fn fold(&self, net: &FloatNet) -> FloatNet {
        let h = net.hidden;
        let mut w1 = vec![0.0; self.inputs * h];
        for f in 0..self.inputs {
            let out = &mut w1[f * h..(f + 1) * h];
            for &r in self.of(f) {
                let r = r as usize;
                out.iter_mut().zip(&net.w1[r * h..(r + 1) * h]).for_each(|(a, w)| *a += w);
            }
        }
        FloatNet { inputs: self.inputs, w1, ..net.clone() }
    }
}

/// One epoch's report.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Epoch {
    /// From 1.
    pub epoch: usize,
    /// Mean squared error on the training samples (during the epoch).
    pub train: f64,
    /// Mean squared error on the held-out samples (after it).
    pub holdout: f64,
    /// Seconds it took.
    pub seconds: f64,
    /// The learning rate it used.
    pub lr: f32,
}

/// What a caller hears.
pub trait Hook {
    /// An epoch is done.
    fn epoch(&mut self, _e: &Epoch) {}
}

/// A [`Hook`] that does nothing.
pub struct NoHook;
impl Hook for NoHook {}

/// A trained network with its history.
#[derive(Clone, Debug, PartialEq)]
pub struct Trained {
    /// The network.
    pub net: FloatNet,
    /// Every epoch's losses.
    pub epochs: Vec<Epoch>,
}

/// Gradients of one chunk (the first layer's as touched rows).
struct Grad {
    w1: Vec<f32>,
    touched: Vec<bool>,
    rows: Vec<u32>,
    b1: Vec<f32>,
    w2: Vec<f32>,
    b2: f32,
    loss: f64,
}

impl Grad {
    fn new(inputs: usize, hidden: usize) -> Grad {
        Grad {
            w1: vec![0.0; inputs * hidden],
            touched: vec![false; inputs],
            rows: Vec::new(),
            b1: vec![0.0; hidden],
            w2: vec![0.0; 2 * hidden],
            b2: 0.0,
            loss: 0.0,
        }
    }

    fn clear(&mut self, hidden: usize) {
        for &r in &self.rows {
            let r = r as usize;
            self.w1[r * hidden..(r + 1) * hidden].fill(0.0);
            self.touched[r] = false;
        }
        self.rows.clear();
        self.b1.fill(0.0);
        self.w2.fill(0.0);
        self.b2 = 0.0;
        self.loss = 0.0;
    }
}

/// The prediction of sample `i` (the mover's expected score) with its hidden sums.
fn forward(net: &FloatNet, x: &Expansion, data: &Samples, i: usize, hu: &mut [f32], ht: &mut [f32]) -> (f32, f32) {
    let h = net.hidden;
    let (us, them) = data.inputs(i);
    hu.copy_from_slice(&net.b1);
    ht.copy_from_slice(&net.b1);
    for (hs, feats) in [(&mut *hu, us), (&mut *ht, them)] {
        for &f in feats {
            for &r in x.of(f as usize) {
                let row = &net.w1[r as usize * h..(r as usize + 1) * h];
                hs.iter_mut().zip(row).for_each(|(a, w)| *a += w);
            }
        }
    }
    let (wu, wt) = net.w2.split_at(h);
    let y: f32 = hu.iter().zip(wu).map(|(&x, &w)| screlu(x) * w).sum::<f32>()
        + ht.iter().zip(wt).map(|(&x, &w)| screlu(x) * w).sum::<f32>()
        + net.b2
        + data.base[i];
    (1.0 / (1.0 + (-y * LN10).exp()), y)
}

/// Adds sample `i`'s gradient of the squared error to `g`.
fn backward(net: &FloatNet, x: &Expansion, data: &Samples, i: usize, g: &mut Grad, hu: &mut [f32], ht: &mut [f32]) {
    let h = net.hidden;
    let (p, _) = forward(net, x, data, i, hu, ht);
    let t = data.target[i];
    let err = p - t;
    g.loss += f64::from(err * err);
    let dy = 2.0 * err * p * (1.0 - p) * LN10;
    g.b2 += dy;
    let (us, them) = data.inputs(i);
    for (side, (hs, feats)) in [(&*hu, us), (&*ht, them)].into_iter().enumerate() {
        let w2 = &net.w2[side * h..(side + 1) * h];
        let gw2 = &mut g.w2[side * h..(side + 1) * h];
        // dL/dh for this side, kept in the sums' buffer's place.
        let mut dh = [0.0f32; 1024];
        let dh = &mut dh[..h];
        for n in 0..h {
            let x = hs[n];
            gw2[n] += dy * screlu(x);
            dh[n] = if x > 0.0 && x < 1.0 { dy * w2[n] * 2.0 * x } else { 0.0 };
            g.b1[n] += dh[n];
        }
        for &f in feats {
            for &r in x.of(f as usize) {
                let r = r as usize;
                if !g.touched[r] {
                    g.touched[r] = true;
                    g.rows.push(r as u32);
                }
                g.w1[r * h..(r + 1) * h].iter_mut().zip(dh.iter()).for_each(|(a, d)| *a += d);
            }
        }
    }
}

/// Adam's moments.
struct Adam {
    m: Vec<f32>,
    v: Vec<f32>,
    t: i32,
}

impl Adam {
    fn new(n: usize) -> Adam {
        Adam { m: vec![0.0; n], v: vec![0.0; n], t: 0 }
    }
}

const B1: f32 = 0.9;
const B2: f32 = 0.999;
const EPS: f32 = 1e-8;

#[inline]
fn adam_step(p: &mut f32, g: f32, m: &mut f32, v: &mut f32, lr: f32, c1: f32, c2: f32) {
    *m = B1 * *m + (1.0 - B1) * g;
    *v = B2 * *v + (1.0 - B2) * g * g;
    *p -= lr * (*m / c1) / ((*v / c2).sqrt() + EPS);
    *p = p.clamp(-CLIP, CLIP);
}

/// The mean squared error of `net` on `data`.
#[must_use]
pub fn mse(net: &FloatNet, data: &Samples) -> f64 {
    let (mut hu, mut ht) = (vec![0.0; net.hidden], vec![0.0; net.hidden]);
    let x = Expansion::none(net.inputs);
    let sum: f64 = (0..data.len())
        .map(|i| {
            let (p, _) = forward(net, &x, data, i, &mut hu, &mut ht);
            f64::from((p - data.target[i]).powi(2))
        })
        .sum();
    sum / data.len().max(1) as f64
}

/// The mean squared error of the samples' bases alone (a residual net that adds nothing): for a
/// net measured against the linear evaluation it corrects, or would replace.
#[must_use]
pub fn base_mse(data: &Samples) -> f64 {
    let sum: f64 = (0..data.len())
        .map(|i| {
            let p = 1.0 / (1.0 + (-data.base[i] * LN10).exp());
            f64::from((p - data.target[i]).powi(2))
        })
        .sum();
    sum / data.len().max(1) as f64
}

/// Adam's state for every weight of the net.
struct Optimiser {
    a1: Adam,
    ab1: Adam,
    a2: Adam,
    ab2: Adam,
}

impl Optimiser {
    fn new(rows: usize, h: usize) -> Self {
        Optimiser { a1: Adam::new(rows * h), ab1: Adam::new(h), a2: Adam::new(2 * h), ab2: Adam::new(1) }
    }

    /// One Adam step from the chunks' gradients of a batch of `batch` samples, added in chunk
    /// order (the same sums on any number of threads); first-layer rows no sample touched keep
    /// their weights and moments.
    fn step(&mut self, net: &mut FloatNet, grads: &[Grad], batch: usize, lr: f32) {
        let h = net.hidden;
        let scale = 1.0 / batch as f32;
        self.a1.t += 1;
        let t = self.a1.t;
        let (c1, c2) = (1.0 - B1.powi(t), 1.0 - B2.powi(t));
        let mut rows: Vec<u32> = grads.iter().flat_map(|g| g.rows.iter().copied()).collect();
        rows.sort_unstable();
        rows.dedup();
        let mut sum = vec![0.0f32; h];
        for &r in &rows {
            let r = r as usize;
            sum.fill(0.0);
            for g in grads {
                if g.touched[r] {
                    sum.iter_mut().zip(&g.w1[r * h..(r + 1) * h]).for_each(|(a, b)| *a += b);
                }
            }
            for (n, g) in sum.iter().enumerate() {
                let k = r * h + n;
                adam_step(&mut net.w1[k], g * scale, &mut self.a1.m[k], &mut self.a1.v[k], lr, c1, c2);
            }
        }
        for n in 0..h {
            let gsum: f32 = grads.iter().map(|g| g.b1[n]).sum();
            adam_step(&mut net.b1[n], gsum * scale, &mut self.ab1.m[n], &mut self.ab1.v[n], lr, c1, c2);
        }
        for n in 0..2 * h {
            let gsum: f32 = grads.iter().map(|g| g.w2[n]).sum();
            adam_step(&mut net.w2[n], gsum * scale, &mut self.a2.m[n], &mut self.a2.v[n], lr, c1, c2);
        }
        let gsum: f32 = grads.iter().map(|g| g.b2).sum();
        adam_step(&mut net.b2, gsum * scale, &mut self.ab2.m[0], &mut self.ab2.v[0], lr, c1, c2);
    }
}

/// The net training starts from: [`Options::init`] when it fits `inputs` (its hidden size is
/// [`Options::check`]'s), else weights drawn from the seed.
fn start(inputs: usize, o: &Options) -> Result<FloatNet, TrainError> {
    let Some(init) = &o.init else { return Ok(FloatNet::random(inputs, o.hidden, o.seed)) };
    if init.inputs != inputs {
        return Err(TrainError::Config(format!(
            "the starting net has {} inputs; the data's board {inputs}",
            init.inputs
        )));
    }
    Ok(init.clone())
}

/// Trains a network on `train` for `inputs` inputs, reporting each epoch (held-out error on
/// `holdout`). Setting `halt` stops after the batch in progress (the network so far is returned).
///
/// # Errors
/// No samples, or settings [`Options::check`] refuses.
pub fn train(
    inputs: usize,
    train: &Samples,
    holdout: &Samples,
    o: &Options,
    halt: &AtomicBool,
    hook: &mut dyn Hook,
) -> Result<Trained, TrainError> {
    o.check()?;
    if train.is_empty() {
        return Err(TrainError::Config("no training samples".into()));
    }
    let threads =
        if o.threads == 0 { std::thread::available_parallelism().map_or(1, std::num::NonZero::get) } else { o.threads };
    let h = o.hidden;
    let x = if o.factor_levels == 0 { Expansion::none(inputs) } else { Expansion::factors(o.factor_levels) };
    if x.inputs != inputs {
        return Err(TrainError::Config(format!(
            "shared inputs for {} levels make {} inputs, not the {inputs} of the data's board",
            o.factor_levels, x.inputs
        )));
    }
    let rows = x.rows();
    let mut net = start(inputs, o)?;
    // The shared rows start at 0: the net starts as it would without them.
    net.w1.resize(rows * h, 0.0);
    net.inputs = rows;
    let mut grads: Vec<Grad> = (0..CHUNKS).map(|_| Grad::new(rows, h)).collect();
    let mut opt = Optimiser::new(rows, h);
    let mut order: Vec<usize> = (0..train.len()).collect();
    let mut epochs = Vec::new();
    for epoch in 1..=o.epochs {
        let began = Instant::now();
        let lr = if epoch * 4 > o.epochs * 3 { o.lr / 10.0 } else { o.lr };
        let mut rng = SplitMix64::for_item(o.seed ^ 0x7EA1, epoch as u64);
        for i in (1..order.len()).rev() {
            order.swap(i, rng.below(i + 1));
        }
        let mut loss = 0.0;
        for batch in order.chunks(o.batch) {
            if halt.load(Ordering::Relaxed) {
                break;
            }
            let per = batch.len().div_ceil(CHUNKS);
            let (net_ref, x) = (&net, &x);
            std::thread::scope(|s| {
                let mut slots: Vec<Vec<(usize, &mut Grad)>> = (0..threads).map(|_| Vec::new()).collect();
                for (c, g) in grads.iter_mut().enumerate() {
                    slots[c % threads].push((c, g));
                }
                for mine in slots {
                    s.spawn(move || {
                        let (mut hu, mut ht) = (vec![0.0; h], vec![0.0; h]);
                        for (c, g) in mine {
                            g.clear(h);
                            for &i in batch.iter().skip(c * per).take(per) {
                                backward(net_ref, x, train, i, g, &mut hu, &mut ht);
                            }
                        }
                    });
                }
            });
            opt.step(&mut net, &grads, batch.len(), lr);
            loss += grads.iter().map(|g| g.loss).sum::<f64>();
        }
        let e = Epoch {
            epoch,
            train: loss / train.len() as f64,
            holdout: if holdout.is_empty() { f64::NAN } else { mse(&x.fold(&net), holdout) },
            seconds: began.elapsed().as_secs_f64(),
            lr,
        };
        hook.epoch(&e);
        epochs.push(e);
        if halt.load(Ordering::Relaxed) {
            break;
        }
    }
    Ok(Trained { net: x.fold(&net), epochs })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A net trained with shared inputs and the same net folded give the same output.
    #[test]
    fn folding_keeps_the_output() {
        let x = Expansion::factors(2);
        let (inputs, h) = (12 * 128, 8);
        let mut net = FloatNet::random(x.rows(), h, 3);
        net.b1.iter_mut().enumerate().for_each(|(i, b)| *b = 0.05 * i as f32);
        let folded = x.fold(&net);
        assert_eq!((folded.inputs, folded.w1.len()), (inputs, inputs * h));
        let mut data = Samples::default();
        data.push(&[0, 70, 200, 1535], &[5, 64, 900, 1400], 0.5, 1);
        data.push(&[3], &[129], 0.2, 2);
        let (mut a, mut b) = (vec![0.0; h], vec![0.0; h]);
        for i in 0..data.len() {
            let (p, _) = forward(&net, &x, &data, i, &mut a, &mut b);
            let (q, _) = forward(&folded, &Expansion::none(inputs), &data, i, &mut a, &mut b);
            assert!((p - q).abs() < 1e-5, "sample {i}: {p} against {q}");
        }
        // Input 70 (piece 0 on cell 70 = level 1, square 6) is trained as itself, square 6 of
        // piece 0, piece 0's material and piece 0 on level 1.
        let n = 12 * 128;
        assert_eq!(x.of(70), [70, n as u32 + 6, (n + 768) as u32, (n + 768 + 12 + 1) as u32]);
    }
}
