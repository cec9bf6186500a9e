//! Texel's method: the evaluation parameters that best predict game results.
//!
//! A position's evaluation is `e = x·θ` (the trace `x` of the position from White's side, the
//! parameters `θ`). The model says White scores with probability `σ(c·K·e)`, `c = ln 10 / 400`
//! (so at `K = 1`, 400 cp are ten-to-one odds). The fit minimises the mean logistic loss
//! (cross-entropy) `−[r ln p + (1 − r) ln(1 − p)]` over the positions, `r` the game's result for
//! White (1, ½, 0).
//!
//! Only `K·θ` is identified, so the pawn is the unit: `value.pawn` keeps its starting value and
//! `K` is fitted with the rest. Written as `w = K·θ` the problem is a logistic regression, convex,
//! and solved by L-BFGS (argmin, with a More–Thuente line search) on columns scaled to unit root
//! mean square. Parameters not fitted (mobility unless asked, terms that never vary in the data)
//! keep their values. The sums run over fixed blocks of positions on scoped threads and are
//! added in block order, so a fit is the same on any number of threads.

use crate::data::Dataset;
use argmin::core::{CostFunction, Executor, Gradient, State};
use argmin::solver::linesearch::MoreThuenteLineSearch;
use argmin::solver::quasinewton::LBFGS;
use stackchess_search::EvalParams;
use std::sync::Mutex;

/// `ln 10 / 400`: logit per centipawn at `K = 1`.
pub const C: f64 = std::f64::consts::LN_10 / 400.0;

/// Positions per block of the parallel sums (fixed, so results do not depend on the threads).
const BLOCK: usize = 8192;

/// The index of `value.pawn`, the unit.
const PAWN: usize = 0;

/// Options of a fit.
#[derive(Clone, Debug)]
pub struct FitOptions {
    /// Fit `mobility` too (its trace costs two move generations per position; off by default).
    pub mobility: bool,
    /// Worker threads for the sums (0: the machine's parallelism).
    pub threads: usize,
    /// L-BFGS iterations at most.
    pub max_iters: u64,
    /// Weight of a pull toward the starting parameters: `ridge · Σ_j (K·(θ_j − θ0_j)·s_j)²` is
    /// added to the summed loss, `s_j` the root mean square of term `j`'s coefficient (so each
    /// term's change counts by how much it moves evaluations, in centipawns at scale `K`; the
    /// pawn, the unit, is not pulled). Against the data it weighs less the more positions there
    /// are; it settles directions the data leave flat (terms that move together) and keeps a fit
    /// on few games near its start.
    pub ridge: f64,
    /// Terms held at their starting values (keys of `EvalParams::KEYS`; unknown keys hold
    /// nothing, the caller checks them).
    pub keep: Vec<String>,
}

impl Default for FitOptions {
    fn default() -> Self {
        FitOptions { mobility: false, threads: 0, max_iters: 500, ridge: DEFAULT_RIDGE, keep: default_keep() }
    }
}

/// The terms held by default: none. (`--keep mopup,mopup_kings` holds the mop-up, which guides the
/// search to mate rather than predicts results; holding it did not make Malka's fit play better:
/// docs/tuning.md.)
#[must_use]
pub fn default_keep() -> Vec<String> {
    Vec::new()
}

/// The default [`FitOptions::ridge`].
pub const DEFAULT_RIDGE: f64 = 0.1;

/// A fitted evaluation.
#[derive(Clone, Debug, PartialEq)]
pub struct Fit {
    /// The parameters, rounded to whole centipawns.
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
    /// Too few positions, or none with a decided game.
    #[error("nothing to fit: {0}")]
    NoData(String),
    /// The optimiser failed.
    #[error("the optimiser failed: {0}")]
    Optimiser(String),
    /// The result makes no sense as an evaluation.
    #[error("the fit gives pawns a value of {0:.4} per unit of scale: too few or too one-sided games?")]
    Degenerate(f64),
}

/// Sums of the loss and its gradient over `data` for the column weights `v` (logits per unit of
/// trace, so `l = c·x·v`), in fixed blocks on `threads` threads, added in block order.
fn loss_and_gradient<const GRAD: bool>(
    data: &Dataset,
    v: &[f64; EvalParams::COUNT],
    threads: usize,
) -> (f64, [f64; EvalParams::COUNT]) {
    let n = data.len();
    let blocks = n.div_ceil(BLOCK);
    let mut partial = vec![(0.0, [0.0; EvalParams::COUNT]); blocks];
    let threads = threads.clamp(1, blocks.max(1));
    std::thread::scope(|s| {
        for (t, out) in split_round_robin(&mut partial, threads).into_iter().enumerate() {
            s.spawn(move || {
                for (j, slot) in out {
                    let b = t + j * threads;
                    *slot = block_sums::<GRAD>(data, b * BLOCK..((b + 1) * BLOCK).min(n), v);
                }
            });
        }
    });
    let mut loss = 0.0;
    let mut grad = [0.0; EvalParams::COUNT];
    for (l, g) in &partial {
        loss += l;
        for (a, b) in grad.iter_mut().zip(g) {
            *a += b;
        }
    }
    (loss, grad)
}

/// Thread `t` of `threads` gets blocks `t, t + threads, ...`: their slots, numbered from 0.
fn split_round_robin<T>(slots: &mut [T], threads: usize) -> Vec<Vec<(usize, &mut T)>> {
    let mut per: Vec<Vec<(usize, &mut T)>> = (0..threads).map(|_| Vec::new()).collect();
    for (b, slot) in slots.iter_mut().enumerate() {
        let list = &mut per[b % threads];
        let j = list.len();
        list.push((j, slot));
    }
    per
}

/// The loss and (with `GRAD`) gradient sums of one block.
fn block_sums<const GRAD: bool>(
    data: &Dataset,
    range: std::ops::Range<usize>,
    v: &[f64; EvalParams::COUNT],
) -> (f64, [f64; EvalParams::COUNT]) {
    let mut loss = 0.0;
    let mut grad = [0.0; EvalParams::COUNT];
    for i in range {
        let x = data.row(i);
        let r = f64::from(data.result(i));
        let l: f64 = x.iter().zip(v).map(|(&a, &b)| f64::from(a) * b).sum::<f64>() * C;
        // ln(1 + e^l) − r·l, computed without overflow.
        loss += l.max(0.0) + (-l.abs()).exp().ln_1p() - r * l;
        if GRAD {
            let d = (sigmoid(l) - r) * C;
            for (g, &a) in grad.iter_mut().zip(x) {
                *g += d * f64::from(a);
            }
        }
    }
    (loss, grad)
}

fn sigmoid(l: f64) -> f64 {
    if l >= 0.0 {
        1.0 / (1.0 + (-l).exp())
    } else {
        let e = l.exp();
        e / (1.0 + e)
    }
}

/// The mean loss of `params` on `data` at scale `k` (`NaN` without data).
#[must_use]
pub fn loss(data: &Dataset, params: &EvalParams, k: f64, threads: usize) -> f64 {
    let v = params.values().map(|x| k * f64::from(x));
    loss_and_gradient::<false>(data, &v, threads_or_all(threads)).0 / data.len() as f64
}

/// The scale that fits `params` best on `data`: the loss is convex in `K`, so a golden-section
/// search on `ln K` over `[0.01, 100]` finds it (to a relative 1e-4).
#[must_use]
pub fn best_k(data: &Dataset, params: &EvalParams, threads: usize) -> f64 {
    let threads = threads_or_all(threads);
    let f = |lk: f64| loss(data, params, lk.exp(), threads);
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

fn threads_or_all(threads: usize) -> usize {
    if threads > 0 {
        threads
    } else {
        std::thread::available_parallelism().map_or(1, std::num::NonZero::get)
    }
}

/// A point, its loss and its gradient.
type Evaluated = (Vec<f64>, f64, Vec<f64>);

/// The fitting problem in scaled free weights `u` (`w_j = u_j / s_j` for each free column `j`).
struct Problem<'a> {
    data: &'a Dataset,
    start: [f64; EvalParams::COUNT],
    free: Vec<usize>,
    scale: Vec<f64>,
    threads: usize,
    /// Where the pawn is in `free`, and the pull toward the start.
    pawn_slot: usize,
    ridge: f64,
    /// The last point evaluated, with its loss and gradient: the line search asks for the cost
    /// and then the gradient at the same point, and one pass over the data gives both.
    last: Mutex<Option<Evaluated>>,
}

impl Problem<'_> {
    /// The column weights `v` of `u`: free columns `u_j / s_j`; the others `K·θ_j`, with
    /// `K = w_pawn / θ_pawn`.
    fn weights(&self, u: &[f64]) -> [f64; EvalParams::COUNT] {
        let mut v = [0.0; EvalParams::COUNT];
        for ((&j, &x), &s) in self.free.iter().zip(u).zip(&self.scale) {
            v[j] = x / s;
        }
        let k = v[PAWN] / self.start[PAWN];
        for (j, w) in v.iter_mut().enumerate() {
            if !self.free.contains(&j) {
                *w = k * self.start[j];
            }
        }
        v
    }

    fn evaluate(&self, u: &[f64]) -> (f64, Vec<f64>) {
        let mut last = self.last.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        if let Some((p, l, g)) = last.as_ref() {
            if p.as_slice() == u {
                return (*l, g.clone());
            }
        }
        let n = self.data.len() as f64;
        let (l, gv) = loss_and_gradient::<true>(self.data, &self.weights(u), self.threads);
        // Chain rule: the fixed columns move with the pawn's weight through K.
        let fixed: f64 = (0..EvalParams::COUNT)
            .filter(|j| !self.free.contains(j))
            .map(|j| gv[j] * self.start[j] / self.start[PAWN])
            .sum();
        // The pull toward the start, scale-free: each term's weight toward K times its starting
        // value (K = w_pawn / θ_pawn), in units of its root mean square over the positions.
        let k_s = |s: f64| s / self.start[PAWN] / self.scale[self.pawn_slot];
        let v_pawn = u[self.pawn_slot];
        let pulls: Vec<f64> = self
            .free
            .iter()
            .zip(u.iter().zip(&self.scale))
            .map(|(&j, (&x, &s))| if j == PAWN { 0.0 } else { x - k_s(s) * self.start[j] * v_pawn })
            .collect();
        let r = self.ridge / n;
        let mut g: Vec<f64> = self
            .free
            .iter()
            .zip(&self.scale)
            .zip(&pulls)
            .map(|((&j, &s), &p)| (gv[j] + if j == PAWN { fixed } else { 0.0 }) / s / n + 2.0 * r * p)
            .collect();
        g[self.pawn_slot] -= self
            .free
            .iter()
            .zip(&self.scale)
            .zip(&pulls)
            .map(|((&j, &s), &p)| 2.0 * r * p * k_s(s) * self.start[j])
            .sum::<f64>();
        let pull = r * pulls.iter().map(|p| p * p).sum::<f64>();
        let out = (l / n + pull, g);
        *last = Some((u.to_vec(), out.0, out.1.clone()));
        out
    }
}

impl CostFunction for Problem<'_> {
    type Param = Vec<f64>;
    type Output = f64;
    fn cost(&self, u: &Vec<f64>) -> Result<f64, argmin::core::Error> {
        Ok(self.evaluate(u).0)
    }
}

impl Gradient for Problem<'_> {
    type Param = Vec<f64>;
    type Gradient = Vec<f64>;
    fn gradient(&self, u: &Vec<f64>) -> Result<Vec<f64>, argmin::core::Error> {
        Ok(self.evaluate(u).1)
    }
}

/// Fits the parameters to `data`, starting from `start`.
///
/// # Errors
/// No data or no decided game, an optimiser failure, or a fit that gives the pawn no value.
pub fn fit(data: &Dataset, start: &EvalParams, opts: &FitOptions) -> Result<Fit, FitError> {
    if data.len() < 2 * EvalParams::COUNT {
        return Err(FitError::NoData(format!("{} positions", data.len())));
    }
    if (0..data.len()).all(|i| data.result(i) == 0.5) {
        return Err(FitError::NoData("every game was drawn".into()));
    }
    if start.value[PAWN] <= 0 {
        return Err(FitError::Degenerate(f64::from(start.value[PAWN])));
    }
    let threads = threads_or_all(opts.threads);
    let rms = data.column_rms();
    let mobility = EvalParams::KEYS.iter().position(|k| *k == "mobility").unwrap_or(usize::MAX);
    let kept = |j: usize| opts.keep.iter().any(|k| k == EvalParams::KEYS[j]);
    let free: Vec<usize> = (0..EvalParams::COUNT)
        .filter(|&j| rms[j] > 0.0 && (opts.mobility || j != mobility) && (j == PAWN || !kept(j)))
        .collect();
    if !free.contains(&PAWN) {
        return Err(FitError::NoData("no position with a difference in pawns".into()));
    }
    let k0 = best_k(data, start, threads);
    let theta0 = start.values().map(f64::from);
    let scale: Vec<f64> = free.iter().map(|&j| rms[j]).collect();
    let u0: Vec<f64> = free.iter().zip(&scale).map(|(&j, &s)| k0 * theta0[j] * s).collect();
    let problem = Problem {
        data,
        start: theta0,
        free: free.clone(),
        scale,
        threads,
        pawn_slot: free.iter().position(|&j| j == PAWN).unwrap_or(0),
        ridge: opts.ridge.max(0.0),
        last: Mutex::new(None),
    };
    let linesearch = MoreThuenteLineSearch::new();
    let solver = LBFGS::new(linesearch, 10)
        .with_tolerance_grad(1e-10)
        .and_then(|s| s.with_tolerance_cost(1e-12))
        .map_err(|e| FitError::Optimiser(e.to_string()))?;
    let result = Executor::new(problem, solver)
        .configure(|state| state.param(u0).max_iters(opts.max_iters))
        .run()
        .map_err(|e| FitError::Optimiser(e.to_string()))?;
    let iterations = result.state().get_iter();
    let u = result.state().get_best_param().cloned().ok_or_else(|| FitError::Optimiser("no result".into()))?;
    let problem = result.problem.problem.as_ref().ok_or_else(|| FitError::Optimiser("no problem".into()))?;
    let v = problem.weights(&u);
    let k = v[PAWN] / theta0[PAWN];
    if !(k.is_finite() && k > 0.0) {
        return Err(FitError::Degenerate(k));
    }
    let mut fitted = [false; EvalParams::COUNT];
    let mut values = start.values();
    for &j in &free {
        fitted[j] = true;
        let x = (v[j] / k).round().clamp(-100_000.0, 100_000.0);
        // Checked finite and clamped: the cast is exact.
        values[j] = x as i32;
    }
    Ok(Fit { params: EvalParams::from_values(&values), k, fitted, iterations })
}
