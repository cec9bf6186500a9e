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
}

impl Default for Options {
    fn default() -> Self {
        Options { hidden: 64, epochs: 12, batch: 16_384, lr: 0.001, seed: 1, threads: 0 }
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
fn forward(net: &FloatNet, data: &Samples, i: usize, hu: &mut [f32], ht: &mut [f32]) -> (f32, f32) {
    let h = net.hidden;
    let (us, them) = data.inputs(i);
    hu.copy_from_slice(&net.b1);
    ht.copy_from_slice(&net.b1);
    for &f in us {
        let row = &net.w1[f as usize * h..(f as usize + 1) * h];
        hu.iter_mut().zip(row).for_each(|(a, w)| *a += w);
    }
    for &f in them {
        let row = &net.w1[f as usize * h..(f as usize + 1) * h];
        ht.iter_mut().zip(row).for_each(|(a, w)| *a += w);
    }
    let (wu, wt) = net.w2.split_at(h);
    let y: f32 = hu.iter().zip(wu).map(|(&x, &w)| screlu(x) * w).sum::<f32>()
        + ht.iter().zip(wt).map(|(&x, &w)| screlu(x) * w).sum::<f32>()
        + net.b2
        + data.base[i];
    (1.0 / (1.0 + (-y * LN10).exp()), y)
}

/// Adds sample `i`'s gradient of the squared error to `g`.
fn backward(net: &FloatNet, data: &Samples, i: usize, g: &mut Grad, hu: &mut [f32], ht: &mut [f32]) {
    let h = net.hidden;
    let (p, _) = forward(net, data, i, hu, ht);
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
            let f = f as usize;
            if !g.touched[f] {
                g.touched[f] = true;
                g.rows.push(f as u32);
            }
            g.w1[f * h..(f + 1) * h].iter_mut().zip(dh.iter()).for_each(|(a, d)| *a += d);
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
    let sum: f64 = (0..data.len())
        .map(|i| {
            let (p, _) = forward(net, data, i, &mut hu, &mut ht);
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

/// Trains a network on `train` for `inputs` inputs, reporting each epoch (held-out error on
/// `holdout`). Setting `halt` stops after the batch in progress (the network so far is returned).
///
/// # Errors
/// Settings that cannot work (no samples, a hidden size of 0 or above 1024, a batch of 0).
pub fn train(
    inputs: usize,
    train: &Samples,
    holdout: &Samples,
    o: &Options,
    halt: &AtomicBool,
    hook: &mut dyn Hook,
) -> Result<Trained, TrainError> {
    if train.is_empty() || !(1..=1024).contains(&o.hidden) || o.batch == 0 || o.epochs == 0 {
        return Err(TrainError::Config(format!(
            "{} samples, hidden {}, batch {}, epochs {}: give samples, a hidden size from 1 to 1024, a batch and an epoch",
            train.len(),
            o.hidden,
            o.batch,
            o.epochs
        )));
    }
    let threads =
        if o.threads == 0 { std::thread::available_parallelism().map_or(1, std::num::NonZero::get) } else { o.threads };
    let h = o.hidden;
    let mut net = FloatNet::random(inputs, h, o.seed);
    let mut grads: Vec<Grad> = (0..CHUNKS).map(|_| Grad::new(inputs, h)).collect();
    let (mut a1, mut ab1, mut a2, mut ab2) = (Adam::new(inputs * h), Adam::new(h), Adam::new(2 * h), Adam::new(1));
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
            let net_ref = &net;
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
                                backward(net_ref, train, i, g, &mut hu, &mut ht);
                            }
                        }
                    });
                }
            });
            // The chunks' gradients, added in chunk order, then one Adam step.
            let scale = 1.0 / batch.len() as f32;
            a1.t += 1;
            let t = a1.t;
            let (c1, c2) = (1.0 - B1.powi(t), 1.0 - B2.powi(t));
            let mut rows: Vec<u32> = grads.iter().flat_map(|g| g.rows.iter().copied()).collect();
            rows.sort_unstable();
            rows.dedup();
            let mut sum = vec![0.0f32; h];
            for &r in &rows {
                let r = r as usize;
                sum.fill(0.0);
                for g in &grads {
                    if g.touched[r] {
                        sum.iter_mut().zip(&g.w1[r * h..(r + 1) * h]).for_each(|(a, b)| *a += b);
                    }
                }
                for (n, g) in sum.iter().enumerate() {
                    let k = r * h + n;
                    adam_step(&mut net.w1[k], g * scale, &mut a1.m[k], &mut a1.v[k], lr, c1, c2);
                }
            }
            for n in 0..h {
                let gsum: f32 = grads.iter().map(|g| g.b1[n]).sum();
                adam_step(&mut net.b1[n], gsum * scale, &mut ab1.m[n], &mut ab1.v[n], lr, c1, c2);
            }
            for n in 0..2 * h {
                let gsum: f32 = grads.iter().map(|g| g.w2[n]).sum();
                adam_step(&mut net.w2[n], gsum * scale, &mut a2.m[n], &mut a2.v[n], lr, c1, c2);
            }
            let gsum: f32 = grads.iter().map(|g| g.b2).sum();
            adam_step(&mut net.b2, gsum * scale, &mut ab2.m[0], &mut ab2.v[0], lr, c1, c2);
            loss += grads.iter().map(|g| g.loss).sum::<f64>();
        }
        let e = Epoch {
            epoch,
            train: loss / train.len() as f64,
            holdout: if holdout.is_empty() { f64::NAN } else { mse(&net, holdout) },
            seconds: began.elapsed().as_secs_f64(),
            lr,
        };
        hook.epoch(&e);
        epochs.push(e);
        if halt.load(Ordering::Relaxed) {
            break;
        }
    }
    Ok(Trained { net, epochs })
}
