//! Logistic regression with fractional responses and row weights, by Newton's method (IRLS) with
//! step halving.
//!
//! Rows that repeat (the same features and response) can be given once with their count as
//! weight: the likelihood is the same sum, so the fit is the same up to rounding, and a fit over a
//! few thousand distinct rows is much faster than over the hundred thousand positions they
//! stand for (the piece-value bootstrap of `stackchess stats` fits 200 resamples this way).
//!
//! Why not a crate: linfa-logistic (the obvious candidate) was tried first. Its L-BFGS with a
//! Moré–Thuente line search (argmin) hung without end on an ordinary bootstrap resample of a
//! real self-play batch (1329 rows, a moderate maximum), it takes only class labels (draws had
//! to be fed as a win row plus a loss row), and it gives the +1 label to the more frequent class
//! whatever the documentation says, so the sign of every slope depended on the sample. With six
//! parameters, Newton's method is a dozen lines, converges in a handful of steps, and is bounded
//! by construction: at most [`MAX_STEPS`] steps of at most [`MAX_HALVINGS`] halvings each.

/// Newton steps at most.
pub const MAX_STEPS: usize = 100;
/// Step halvings per step at most.
pub const MAX_HALVINGS: usize = 40;

/// Number of parameters: intercept and `K` slopes.
const fn dim<const K: usize>() -> usize {
    K + 1
}

/// `ln(1 + e^z)` without overflow.
fn softplus(z: f64) -> f64 {
    z.max(0.0) + (-z.abs()).exp().ln_1p()
}

fn sigmoid(z: f64) -> f64 {
    if z >= 0.0 {
        1.0 / (1.0 + (-z).exp())
    } else {
        let e = z.exp();
        e / (1.0 + e)
    }
}

/// The penalised negative log-likelihood.
fn loss<const K: usize>(x: &[[f64; K]], y: &[f64], w: Weights<'_>, beta: &[f64], ridge: f64) -> f64 {
    let mut l = 0.0;
    for (i, (row, &t)) in x.iter().zip(y).enumerate() {
        let z = beta[0] + row.iter().zip(&beta[1..]).map(|(a, b)| a * b).sum::<f64>();
        // −[t·ln σ(z) + (1 − t)·ln(1 − σ(z))] = t·softplus(−z) + (1 − t)·softplus(z)
        l += w.at(i) * (t * softplus(-z) + (1.0 - t) * softplus(z));
    }
    l + 0.5 * ridge * beta[1..].iter().map(|b| b * b).sum::<f64>()
}

/// A damped Newton step: the first of `x + d`, `x + d/2`, `x + d/4`, ... (at most `halvings`
/// tries) whose `f` is at most `fx`, with its `f` and the largest change of a coordinate; `None`
/// when none is (the optimum, up to rounding). Shared by the logistic and the rating fits.
pub(crate) fn halving_step(
    x: &[f64],
    d: &[f64],
    fx: f64,
    halvings: usize,
    mut f: impl FnMut(&[f64]) -> f64,
) -> Option<(Vec<f64>, f64, f64)> {
    let mut scale = 1.0;
    for _ in 0..halvings {
        let trial: Vec<f64> = x.iter().zip(d).map(|(a, s)| a + scale * s).collect();
        let ft = f(&trial);
        if ft <= fx {
            let size = d.iter().map(|s| (scale * s).abs()).fold(0.0, f64::max);
            return Some((trial, ft, size));
        }
        scale /= 2.0;
    }
    None
}

/// Solves `a·s = g` for a symmetric positive-definite `a` (Cholesky); `None` if it is not.
#[allow(clippy::needless_range_loop, reason = "matrix code reads best with indices")]
pub(crate) fn solve(mut a: Vec<Vec<f64>>, g: &[f64]) -> Option<Vec<f64>> {
    let n = g.len();
    for j in 0..n {
        for k in 0..j {
            let l = a[j][k];
            for i in j..n {
                a[i][j] -= a[i][k] * l;
            }
        }
        if a[j][j].is_nan() || a[j][j] <= 0.0 || a[j][j].is_infinite() {
            return None;
        }
        let d = a[j][j].sqrt();
        for row in a.iter_mut().skip(j) {
            row[j] /= d;
        }
        for r in a.iter_mut().take(j) {
            r[j] = 0.0;
        }
    }
    // a now holds L (lower); solve L·u = g, then Lᵀ·s = u.
    let mut u = g.to_vec();
    for i in 0..n {
        for k in 0..i {
            u[i] -= a[i][k] * u[k];
        }
        u[i] /= a[i][i];
    }
    for i in (0..n).rev() {
        for k in i + 1..n {
            u[i] -= a[k][i] * u[k];
        }
        u[i] /= a[i][i];
    }
    Some(u)
}

/// Row weights: all 1, or one per row.
#[derive(Clone, Copy)]
enum Weights<'a> {
    Ones,
    Given(&'a [f64]),
}

impl Weights<'_> {
    fn at(self, i: usize) -> f64 {
        match self {
            Weights::Ones => 1.0,
            Weights::Given(w) => w[i],
        }
    }
}

/// Maximises the likelihood of `P(y = 1) = σ(β₀ + β·x)` for responses `y` in `[0, 1]` (a draw is
/// ½), with an L2 penalty `ridge/2·|β|²` on the slopes (not the intercept). Returns
/// `[β₀, β₁, …, β_K]`.
///
/// # Errors
/// No rows, rows and responses of different lengths, a response outside `[0, 1]`, or a singular
/// problem (a slope that no row informs, with `ridge == 0`).
pub fn fit<const K: usize>(x: &[[f64; K]], y: &[f64], ridge: f64) -> Result<Vec<f64>, String> {
    newton(x, y, Weights::Ones, ridge)
}

/// [`fit`] with a weight per row: row `i` counts as `w[i]` rows (a weight of 0 leaves it out).
///
/// # Errors
/// As [`fit`]; also weights of another length than the rows, or negative or not finite.
pub fn fit_weighted<const K: usize>(x: &[[f64; K]], y: &[f64], w: &[f64], ridge: f64) -> Result<Vec<f64>, String> {
    if w.len() != x.len() {
        return Err(format!("{} rows but {} weights", x.len(), w.len()));
    }
    if w.iter().any(|v| !(v.is_finite() && *v >= 0.0)) {
        return Err("weights must be finite and not negative".into());
    }
    newton(x, y, Weights::Given(w), ridge)
}

#[allow(clippy::needless_range_loop, reason = "matrix code reads best with indices")]
fn newton<const K: usize>(x: &[[f64; K]], y: &[f64], w: Weights<'_>, ridge: f64) -> Result<Vec<f64>, String> {
    if x.is_empty() {
        return Err("no positions to fit".into());
    }
    if x.len() != y.len() {
        return Err(format!("{} rows but {} responses", x.len(), y.len()));
    }
    if y.iter().any(|t| !(0.0..=1.0).contains(t)) || x.iter().flatten().any(|v| !v.is_finite()) {
        return Err("responses must lie in [0, 1] and values be finite".into());
    }
    let n = dim::<K>();
    let mut beta = vec![0.0; n];
    let mut current = loss(x, y, w, &beta, ridge);
    for _ in 0..MAX_STEPS {
        let mut g = vec![0.0; n];
        let mut h = vec![vec![0.0; n]; n];
        for (r, (row, &t)) in x.iter().zip(y).enumerate() {
            let weight = w.at(r);
            let z = beta[0] + row.iter().zip(&beta[1..]).map(|(a, b)| a * b).sum::<f64>();
            let p = sigmoid(z);
            let curvature = weight * p * (1.0 - p);
            let slope = weight * (p - t);
            let feat = |i: usize| if i == 0 { 1.0 } else { row[i - 1] };
            for i in 0..n {
                g[i] += slope * feat(i);
                for j in 0..=i {
                    h[i][j] += curvature * feat(i) * feat(j);
                }
            }
        }
        for i in 1..n {
            g[i] += ridge * beta[i];
            h[i][i] += ridge;
        }
        for i in 0..n {
            for j in 0..i {
                h[j][i] = h[i][j];
            }
        }
        let step = solve(h, &g).ok_or("singular fit: a role never differs, or every result is the same")?;
        let descent: Vec<f64> = step.iter().map(|s| -s).collect();
        // Stop when no step lowers the loss (the optimum, up to rounding) or at a step too small
        // to matter.
        let Some((next, l, size)) = halving_step(&beta, &descent, current, MAX_HALVINGS, |b| loss(x, y, w, b, ridge))
        else {
            break;
        };
        (beta, current) = (next, l);
        if size < 1e-10 {
            break;
        }
    }
    if beta.iter().all(|b| b.is_finite()) {
        Ok(beta)
    } else {
        Err("the fit diverged".into())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn exact_maximum_of_two_groups() {
        // x = 0: a win, a loss and a draw (p = ½); x = 1: three wins, one loss (p = ¾).
        // Maximum: β₀ = 0, β₁ = ln 3.
        let x = [[0.0], [0.0], [0.0], [1.0], [1.0], [1.0], [1.0]];
        let y = [1.0, 0.0, 0.5, 1.0, 1.0, 1.0, 0.0];
        let b = fit(&x, &y, 0.0).unwrap();
        assert!(b[0].abs() < 1e-9 && (b[1] - 3f64.ln()).abs() < 1e-9, "{b:?}");
        // Mirrored results flip the signs.
        let y: Vec<f64> = y.iter().map(|t| 1.0 - t).collect();
        let b = fit(&x, &y, 0.0).unwrap();
        assert!(b[0].abs() < 1e-9 && (b[1] + 3f64.ln()).abs() < 1e-9, "{b:?}");
    }

    #[test]
    fn ridge_shrinks_and_keeps_separated_data_finite() {
        // Perfect separation: the unpenalised maximum is at infinity.
        let x = [[-1.0], [-1.0], [1.0], [1.0]];
        let y = [0.0, 0.0, 1.0, 1.0];
        let b = fit(&x, &y, 1.0).unwrap();
        assert!(b[1] > 0.5 && b[1] < 5.0, "{b:?}");
        // The stationarity condition at the optimum: Σ (p − y)·x + ridge·β = 0.
        let g: f64 = x.iter().zip(&y).map(|(r, t)| (sigmoid(b[0] + b[1] * r[0]) - t) * r[0]).sum::<f64>() + b[1];
        assert!(g.abs() < 1e-8, "{g}");
        // A feature that is always zero: singular without a ridge, zero with one.
        let x = [[0.0, 1.0], [0.0, -1.0], [0.0, 1.0]];
        let y = [1.0, 0.0, 0.5];
        assert!(fit(&x, &y, 0.0).unwrap_err().contains("singular"));
        assert_eq!(fit(&x, &y, 1.0).unwrap()[1], 0.0);
    }

    #[test]
    fn weights_count_rows() {
        // The rows of `exact_maximum_of_two_groups`, each distinct row once with its count.
        let x = [[0.0], [0.0], [0.0], [1.0], [1.0], [1.0]];
        let y = [1.0, 0.0, 0.5, 1.0, 0.0, 0.25];
        let w = [1.0, 1.0, 1.0, 3.0, 1.0, 0.0];
        let b = fit_weighted(&x, &y, &w, 0.0).unwrap();
        assert!(b[0].abs() < 1e-9 && (b[1] - 3f64.ln()).abs() < 1e-9, "{b:?}");
        let full = fit(&[[0.5], [0.0], [0.5], [1.0], [0.5]], &[1.0, 0.0, 1.0, 1.0, 0.0], 1.0).unwrap();
        let merged = fit_weighted(&[[0.5], [0.0], [1.0], [0.5]], &[1.0, 0.0, 1.0, 0.0], &[2.0, 1.0, 1.0, 1.0], 1.0);
        for (a, b) in full.iter().zip(merged.unwrap()) {
            assert!((a - b).abs() < 1e-9, "{full:?}");
        }
        assert!(fit_weighted(&x, &y, &w[..2], 0.0).is_err());
        assert!(fit_weighted(&x, &y, &[1.0, -1.0, 1.0, 1.0, 1.0, 1.0], 0.0).is_err());
    }

    #[test]
    fn bad_inputs_are_errors() {
        assert!(fit::<1>(&[], &[], 1.0).is_err());
        assert!(fit(&[[0.0]], &[1.0, 0.0], 1.0).is_err());
        assert!(fit(&[[0.0]], &[2.0], 1.0).is_err());
        assert!(fit(&[[f64::NAN]], &[1.0], 1.0).is_err());
    }
}
