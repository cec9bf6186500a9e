//! Texel's method: the evaluation parameters that best predict each position's target.
//!
//! A row's score from White's side is `s = m·L + T`: `L` the tapered part (the features of every
//! term's middlegame and endgame values and of the mop-up, dotted with the parameters), `T` the
//! tempo and legal-move mobility, `m` the drawish scale (`scale.drawish / 64`) on rows where it
//! applies and 1 elsewhere. The model says White scores `σ(c·K·s)`, `c = ln 10 / 400`. The fit
//! minimises the mean cross-entropy against the targets (`λ·σ(score) + (1 − λ)·result`, from the
//! data), plus a pull toward the prior (the rule set's preset) and a penalty outside each
//! parameter's bounds, by L-BFGS (argmin, More–Thuente line search) on parameters scaled by their
//! features' root mean square. `value.pawn.mg` is the unit (held), so `K` is fitted with the rest;
//! the mop-up guidance is held; terms that never occur keep the prior's values. The sums run over
//! fixed blocks of rows on scoped threads, added in block order: a fit is the same on any number
//! of threads.

use crate::rows::Rows;
use argmin::core::{CostFunction, Executor, Gradient, State};
use argmin::solver::linesearch::MoreThuenteLineSearch;
use argmin::solver::quasinewton::LBFGS;
use stackchess_search::{EvalParams, TERMS};
use std::sync::Mutex;

/// `ln 10 / 400`: logit per centipawn at `K = 1`.
pub const C: f64 = std::f64::consts::LN_10 / 400.0;
/// Rows per block of the parallel sums (fixed, so results do not depend on the threads).
const BLOCK: usize = 8192;
/// The weight of a bound's penalty, against the mean loss (per unit of logit squared).
const BOUND_WEIGHT: f64 = 1e3;

/// The keys no fit moves: the unit, and the mop-up, which guides the search to mate rather than
/// predicts results.
pub const HELD: [&str; 4] = ["value.pawn.mg", "mopup", "mopup_kings", "drawish.rook"];

/// Options of a fit.
#[derive(Clone, Debug, PartialEq)]
pub struct FitOptions {
    /// Worker threads for the sums (0: the machine's parallelism).
    pub threads: usize,
    /// L-BFGS iterations at most.
    pub max_iters: u64,
    /// The pull toward the prior: `ridge · Σ_j (c·K₀·(θ_j − prior_j)·rms_j)²` is added to the
    /// mean loss (`K₀` the prior's scale, `rms_j` the root mean square of term `j`'s feature):
    /// each term's change counts by how much it moves evaluations.
    pub ridge: f64,
    /// A piece's value stays within this share of the prior's (0.5: from half to one and a half).
    pub band: f64,
    /// More keys held at their starting values.
    pub keep: Vec<String>,
    /// Fit `mobility` (legal moves; off by default: it costs two move generations an evaluation).
    pub legal_mobility: bool,
}

impl Default for FitOptions {
    fn default() -> Self {
        FitOptions {
            threads: 0,
            max_iters: 400,
            ridge: DEFAULT_RIDGE,
            band: 0.5,
            keep: Vec::new(),
            legal_mobility: false,
        }
    }
}

/// The default [`FitOptions::ridge`].
pub const DEFAULT_RIDGE: f64 = 1e-3;

/// A fitted evaluation.
#[derive(Clone, Debug, PartialEq)]
pub struct Fit {
    /// The parameters, rounded to whole centipawns and within their bounds.
    pub params: EvalParams,
    /// The fitted scale.
    pub k: f64,
    /// Which parameters were fitted, in [`EvalParams::KEYS`] order.
    pub fitted: [bool; EvalParams::COUNT],
    /// L-BFGS iterations done.
    pub iterations: u64,
}

/// Why a fit failed.
#[derive(Debug, thiserror::Error)]
pub enum FitError {
    /// Too few positions, or targets that say nothing.
    #[error("nothing to fit: {0}")]
    NoData(String),
    /// The optimiser failed.
    #[error("the optimiser failed: {0}")]
    Optimiser(String),
    /// The result makes no sense as an evaluation.
    #[error("the fit gives a scale of {0:.4}: too few or too one-sided positions?")]
    Degenerate(f64),
}

/// Where the single values the model treats apart are in [`EvalParams::KEYS`].
#[derive(Clone, Copy)]
struct Special {
    tempo: usize,
    mobility: usize,
    scale: usize,
}

impl Special {
    fn new() -> Special {
        let at = |k| EvalParams::single_index(k).unwrap_or(usize::MAX);
        Special { tempo: at("tempo"), mobility: at("mobility"), scale: at("scale.drawish") }
    }
    /// Whether feature `j` is outside the scaled part.
    fn unscaled(self, j: usize) -> bool {
        j == self.tempo || j == self.mobility || j == self.scale
    }
}

/// Sums over a block: the weighted loss, the weight, and (with `GRAD`) the gradient in θ, in K
/// and in the scale.
#[derive(Clone)]
struct Sums {
    loss: f64,
    weight: f64,
    grad: [f64; EvalParams::COUNT],
    grad_k: f64,
}

impl Sums {
    fn zero() -> Sums {
        Sums { loss: 0.0, weight: 0.0, grad: [0.0; EvalParams::COUNT], grad_k: 0.0 }
    }
    fn add(&mut self, o: &Sums) {
        self.loss += o.loss;
        self.weight += o.weight;
        self.grad_k += o.grad_k;
        for (a, b) in self.grad.iter_mut().zip(&o.grad) {
            *a += b;
        }
    }
}

fn sigmoid(l: f64) -> f64 {
    if l >= 0.0 {
        1.0 / (1.0 + (-l).exp())
    } else {
        let e = l.exp();
        e / (1.0 + e)
    }
}

fn block<const GRAD: bool>(
    rows: &Rows,
    weights: Option<&[f32]>,
    range: std::ops::Range<usize>,
    theta: &[f64; EvalParams::COUNT],
    k: f64,
) -> Sums {
    let sp = Special::new();
    let mut s = Sums::zero();
    let m_drawish = theta[sp.scale] / 64.0;
    for i in range {
        let w = weights.map_or(1.0, |w| f64::from(w[i]));
        if w == 0.0 {
            continue;
        }
        let x = rows.row(i);
        let (mut lin, mut un) = (0.0, 0.0);
        for (j, (&f, &t)) in x.iter().zip(theta).enumerate() {
            let v = f64::from(f) * t;
            if sp.unscaled(j) {
                un += v;
            } else {
                lin += v;
            }
        }
        let m = if rows.drawish[i] { m_drawish } else { 1.0 };
        let score = m * lin + un;
        let l = C * k * score;
        let t = f64::from(rows.target[i]);
        // ln(1 + e^l) − t·l, without overflow.
        s.loss += w * (l.max(0.0) + (-l.abs()).exp().ln_1p() - t * l);
        s.weight += w;
        if GRAD {
            let d = w * (sigmoid(l) - t);
            let dk = d * C * k;
            for (j, &f) in x.iter().enumerate() {
                let f = f64::from(f);
                s.grad[j] += if sp.unscaled(j) { dk * f } else { dk * m * f };
            }
            if rows.drawish[i] {
                s.grad[sp.scale] += dk * lin / 64.0;
            }
            s.grad_k += d * C * score;
        }
    }
    s
}

/// The sums over every row, in fixed blocks on `threads` threads, added in block order.
fn sums<const GRAD: bool>(
    rows: &Rows,
    weights: Option<&[f32]>,
    theta: &[f64; EvalParams::COUNT],
    k: f64,
    threads: usize,
) -> Sums {
    let n = rows.len();
    let blocks = n.div_ceil(BLOCK);
    let mut partial = vec![Sums::zero(); blocks];
    let threads = threads.clamp(1, blocks.max(1));
    std::thread::scope(|s| {
        let mut per: Vec<Vec<(usize, &mut Sums)>> = (0..threads).map(|_| Vec::new()).collect();
        for (b, slot) in partial.iter_mut().enumerate() {
            per[b % threads].push((b, slot));
        }
        for mine in per {
            s.spawn(move || {
                for (b, slot) in mine {
                    *slot = block::<GRAD>(rows, weights, b * BLOCK..((b + 1) * BLOCK).min(n), theta, k);
                }
            });
        }
    });
    let mut total = Sums::zero();
    for p in &partial {
        total.add(p);
    }
    total
}

fn theta_of(p: &EvalParams) -> [f64; EvalParams::COUNT] {
    p.values().map(f64::from)
}

fn threads_or_all(threads: usize) -> usize {
    if threads > 0 {
        threads
    } else {
        std::thread::available_parallelism().map_or(1, std::num::NonZero::get)
    }
}

/// The mean loss of `params` at scale `k` on `rows` (weighted by `weights` when given; `NaN`
/// without rows).
#[must_use]
pub fn loss(rows: &Rows, weights: Option<&[f32]>, params: &EvalParams, k: f64, threads: usize) -> f64 {
    let s = sums::<false>(rows, weights, &theta_of(params), k, threads_or_all(threads));
    s.loss / s.weight
}

/// The scale that fits `params` best on `rows`: the loss is convex in `K`, so a golden-section
/// search on `ln K` over `[0.01, 100]` finds it (to a relative 1e-4).
#[must_use]
pub fn best_k(rows: &Rows, weights: Option<&[f32]>, params: &EvalParams, threads: usize) -> f64 {
    let threads = threads_or_all(threads);
    let f = |lk: f64| loss(rows, weights, params, lk.exp(), threads);
    let (mut a, mut b) = (0.01f64.ln(), 100f64.ln());
    let g = (5f64.sqrt() - 1.0) / 2.0;
    let (mut x1, mut x2) = (b - g * (b - a), a + g * (b - a));
    let (mut f1, mut f2) = (f(x1), f(x2));
    while b - a > 1e-4 {
        if f1 <= f2 {
            (b, x2, f2) = (x2, x1, f1);
            x1 = b - g * (b - a);
            f1 = f(x1);
        } else {
            (a, x1, f1) = (x1, x2, f2);
            x2 = a + g * (b - a);
            f2 = f(x2);
        }
    }
    ((a + b) / 2.0).exp()
}

/// The bounds of each parameter: its file range, and for a piece's value the band around the prior.
#[must_use]
pub fn bounds(prior: &EvalParams, band: f64) -> [(f64, f64); EvalParams::COUNT] {
    let p = theta_of(prior);
    std::array::from_fn(|j| {
        let (lo, hi) = EvalParams::range(j);
        let (mut lo, mut hi) = (f64::from(lo), f64::from(hi));
        if EvalParams::KEYS[j].starts_with("value.") && j < 2 * TERMS.len() {
            lo = lo.max((p[j] * (1.0 - band)).floor());
            hi = hi.min((p[j] * (1.0 + band)).ceil());
        }
        (lo, hi)
    })
}

/// A point, its objective and gradient.
type Evaluated = (Vec<f64>, f64, Vec<f64>);

/// The problem in the optimiser's variables: `z_j = θ_j·rms_j/100` for each free term, then `K`,
/// then (when free) `scale.drawish / 64`.
struct Problem<'a> {
    rows: &'a Rows,
    weights: Option<&'a [f32]>,
    /// Values of the held parameters (and the start of the free ones).
    base: [f64; EvalParams::COUNT],
    prior: [f64; EvalParams::COUNT],
    bounds: [(f64, f64); EvalParams::COUNT],
    free: Vec<usize>,
    rms: [f64; EvalParams::COUNT],
    scale_free: bool,
    k0: f64,
    ridge: f64,
    threads: usize,
    last: Mutex<Option<Evaluated>>,
}

impl Problem<'_> {
    fn unpack(&self, x: &[f64]) -> ([f64; EvalParams::COUNT], f64) {
        let mut theta = self.base;
        for (&j, &z) in self.free.iter().zip(x) {
            theta[j] = 100.0 * z / self.rms[j];
        }
        let k = x[self.free.len()];
        if self.scale_free {
            theta[Special::new().scale] = 64.0 * x[self.free.len() + 1];
        }
        (theta, k)
    }

    fn pack(&self, theta: &[f64; EvalParams::COUNT], k: f64) -> Vec<f64> {
        let mut x: Vec<f64> = self.free.iter().map(|&j| theta[j] * self.rms[j] / 100.0).collect();
        x.push(k);
        if self.scale_free {
            x.push(theta[Special::new().scale] / 64.0);
        }
        x
    }

    fn evaluate(&self, x: &[f64]) -> (f64, Vec<f64>) {
        let mut last = self.last.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        if let Some((p, l, g)) = last.as_ref() {
            if p.as_slice() == x {
                return (*l, g.clone());
            }
        }
        let (theta, k) = self.unpack(x);
        let s = sums::<true>(self.rows, self.weights, &theta, k, self.threads);
        let w = s.weight.max(1e-300);
        let mut obj = s.loss / w;
        let mut g = Vec::with_capacity(x.len());
        let unit = C * self.k0;
        for &j in &self.free {
            let per = unit * self.rms[j];
            let (lo, hi) = self.bounds[j];
            let pull = per * (theta[j] - self.prior[j]);
            let viol = theta[j] - theta[j].clamp(lo, hi);
            obj += self.ridge * pull * pull + BOUND_WEIGHT * (per * viol).powi(2);
            let d_theta = s.grad[j] / w + 2.0 * self.ridge * pull * per + 2.0 * BOUND_WEIGHT * per * per * viol;
            g.push(d_theta * 100.0 / self.rms[j]);
        }
        g.push(s.grad_k / w);
        if self.scale_free {
            let j = Special::new().scale;
            let viol = (theta[j] - theta[j].clamp(0.0, 64.0)) / 64.0;
            obj += BOUND_WEIGHT * viol * viol;
            g.push(s.grad[j] / w * 64.0 + 2.0 * BOUND_WEIGHT * viol);
        }
        *last = Some((x.to_vec(), obj, g.clone()));
        (obj, g)
    }
}

impl CostFunction for Problem<'_> {
    type Param = Vec<f64>;
    type Output = f64;
    fn cost(&self, x: &Vec<f64>) -> Result<f64, argmin::core::Error> {
        Ok(self.evaluate(x).0)
    }
}

impl Gradient for Problem<'_> {
    type Param = Vec<f64>;
    type Gradient = Vec<f64>;
    fn gradient(&self, x: &Vec<f64>) -> Result<Vec<f64>, argmin::core::Error> {
        Ok(self.evaluate(x).1)
    }
}

/// Fits the parameters to `rows` (weighted by `weights` when given), starting from `start`,
/// pulled toward `prior`.
///
/// # Errors
/// Too few rows, an optimiser failure, or a fit whose scale is not a positive number.
pub fn fit(
    rows: &Rows,
    weights: Option<&[f32]>,
    start: &EvalParams,
    prior: &EvalParams,
    opts: &FitOptions,
) -> Result<Fit, FitError> {
    if rows.len() < 2 * EvalParams::COUNT {
        return Err(FitError::NoData(format!(
            "{} positions (the fit needs at least {}, twice the keys: make more data)",
            rows.len(),
            2 * EvalParams::COUNT
        )));
    }
    let threads = threads_or_all(opts.threads);
    let rms = rows.column_rms();
    let sp = Special::new();
    let held = |j: usize| {
        let key = EvalParams::KEYS[j];
        HELD.contains(&key) || opts.keep.iter().any(|k| k == key) || (j == sp.mobility && !opts.legal_mobility)
    };
    let free: Vec<usize> = (0..EvalParams::COUNT).filter(|&j| j != sp.scale && rms[j] > 0.0 && !held(j)).collect();
    let scale_free = !held(sp.scale) && rows.drawish.iter().any(|&d| d);
    let k0 = best_k(rows, weights, prior, threads);
    let problem = Problem {
        rows,
        weights,
        base: theta_of(start),
        prior: theta_of(prior),
        bounds: bounds(prior, opts.band),
        free: free.clone(),
        rms,
        scale_free,
        k0,
        ridge: opts.ridge.max(0.0),
        threads,
        last: Mutex::new(None),
    };
    let x0 = problem.pack(&theta_of(start), best_k(rows, weights, start, threads));
    let solver = LBFGS::new(MoreThuenteLineSearch::new(), 10)
        .with_tolerance_grad(1e-9)
        .and_then(|s| s.with_tolerance_cost(1e-12))
        .map_err(|e| FitError::Optimiser(e.to_string()))?;
    let result = Executor::new(problem, solver)
        .configure(|state| state.param(x0).max_iters(opts.max_iters))
        .run()
        .map_err(|e| FitError::Optimiser(e.to_string()))?;
    let iterations = result.state().get_iter();
    let x = result.state().get_best_param().cloned().ok_or_else(|| FitError::Optimiser("no result".into()))?;
    let problem = result.problem.problem.as_ref().ok_or_else(|| FitError::Optimiser("no problem".into()))?;
    let (theta, k) = problem.unpack(&x);
    if !(k.is_finite() && k > 0.0) {
        return Err(FitError::Degenerate(k));
    }
    let mut fitted = [false; EvalParams::COUNT];
    let mut values = start.values();
    for j in free.iter().copied().chain(scale_free.then_some(sp.scale)) {
        fitted[j] = true;
        let (lo, hi) = if j == sp.scale { (0.0, 64.0) } else { problem.bounds[j] };
        // Clamped into a range of i32: the cast is exact.
        values[j] = theta[j].round().clamp(lo, hi) as i32;
    }
    Ok(Fit { params: EvalParams::from_values(&values), k, fitted, iterations })
}
