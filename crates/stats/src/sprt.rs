//! The sequential probability ratio test of cutechess-cli, fastchess and fishtest.
//!
//! The LLR is the generalised SPRT of Michel Van den Bergh ("Comments on Normalized Elo"): the
//! likelihood ratio of the two maximum-likelihood distributions whose expected score (logistic
//! model) or normalised score (normalized model) equals the hypothesis. Formulas as in fastchess
//! (`sprt.cpp`).

use crate::elo::{elo_to_score, mean_var, Penta, Wdl, NELO, PENTA_SCORES, TRI_SCORES};

/// The Elo model an SPRT's hypotheses are stated in.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub enum SprtModel {
    /// Normalised Elo (fastchess's default, `OpenBench`'s bounds).
    #[default]
    Normalized,
    /// Logistic Elo (fishtest's GSPRT, cutechess's and fastchess's `logistic`).
    Logistic,
}

impl SprtModel {
    /// `normalized` or `logistic`.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            SprtModel::Normalized => "normalized",
            SprtModel::Logistic => "logistic",
        }
    }
}

impl std::str::FromStr for SprtModel {
    type Err = String;
    fn from_str(s: &str) -> Result<SprtModel, String> {
        match s {
            "normalized" => Ok(SprtModel::Normalized),
            "logistic" => Ok(SprtModel::Logistic),
            _ => Err(format!("unknown SPRT model '{s}' (expected normalized or logistic)")),
        }
    }
}

/// A sequential probability ratio test of H0: Elo = `elo0` against H1: Elo = `elo1`.
#[derive(Clone, Copy, PartialEq, Debug)]
pub struct Sprt {
    /// Elo under H0.
    pub elo0: f64,
    /// Elo under H1.
    pub elo1: f64,
    /// Probability of accepting H1 when H0 holds.
    pub alpha: f64,
    /// Probability of accepting H0 when H1 holds.
    pub beta: f64,
    /// How the Elo bounds are meant.
    pub model: SprtModel,
}

/// Where an SPRT stands.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum SprtDecision {
    /// Neither bound reached.
    Continue,
    /// The lower bound reached: H0 accepted.
    H0,
    /// The upper bound reached: H1 accepted.
    H1,
}

impl Sprt {
    /// A test; checks that `elo0 < elo1`, and `alpha`, `beta` and their sum are in (0, 1).
    ///
    /// # Errors
    /// Says which parameter is out of range.
    pub fn new(elo0: f64, elo1: f64, alpha: f64, beta: f64, model: SprtModel) -> Result<Sprt, String> {
        if elo0.partial_cmp(&elo1) != Some(std::cmp::Ordering::Less) {
            return Err(format!("SPRT: elo0 ({elo0}) must be less than elo1 ({elo1})"));
        }
        if !(alpha > 0.0 && alpha < 1.0 && beta > 0.0 && beta < 1.0 && alpha + beta < 1.0) {
            return Err(format!("SPRT: alpha ({alpha}) and beta ({beta}) must be in (0, 1) and sum to less than 1"));
        }
        Ok(Sprt { elo0, elo1, alpha, beta, model })
    }
    /// The lower bound, `ln(beta / (1 - alpha))`: H0 is accepted at or below it.
    #[must_use]
    pub fn lower(&self) -> f64 {
        (self.beta / (1.0 - self.alpha)).ln()
    }
    /// The upper bound, `ln((1 - beta) / alpha)`: H1 is accepted at or above it.
    #[must_use]
    pub fn upper(&self) -> f64 {
        ((1.0 - self.beta) / self.alpha).ln()
    }
    /// The decision for a log-likelihood ratio.
    #[must_use]
    pub fn decide(&self, llr: f64) -> SprtDecision {
        if llr >= self.upper() {
            SprtDecision::H1
        } else if llr <= self.lower() {
            SprtDecision::H0
        } else {
            SprtDecision::Continue
        }
    }
    /// The log-likelihood ratio of single games.
    #[must_use]
    pub fn llr_trinomial(&self, wdl: &Wdl) -> f64 {
        self.llr(&TRI_SCORES, &wdl.counts(), 1.0)
    }
    /// The log-likelihood ratio of game pairs.
    #[must_use]
    pub fn llr_pentanomial(&self, penta: &Penta) -> f64 {
        self.llr(&PENTA_SCORES, &penta.0, std::f64::consts::SQRT_2)
    }

    fn llr(&self, values: &[f64], counts: &[u64], nelo_scale: f64) -> f64 {
        if counts.iter().all(|&c| c == 0) {
            return 0.0;
        }
        // Empty classes get a small count, as fastchess does, so every MLE stays inside the simplex.
        let regular: Vec<f64> = counts.iter().map(|&c| if c == 0 { 1e-3 } else { c as f64 }).collect();
        let total: f64 = regular.iter().sum();
        let probs: Vec<f64> = regular.iter().map(|c| c / total).collect();
        let (p0, p1) = match self.model {
            SprtModel::Logistic => (
                mle_with_mean(values, &probs, elo_to_score(self.elo0)),
                mle_with_mean(values, &probs, elo_to_score(self.elo1)),
            ),
            SprtModel::Normalized => (
                mle_with_t(values, &probs, nelo_scale * self.elo0 / NELO),
                mle_with_t(values, &probs, nelo_scale * self.elo1 / NELO),
            ),
        };
        total * probs.iter().zip(p0.iter().zip(&p1)).map(|(p, (q0, q1))| p * (q1.ln() - q0.ln())).sum::<f64>()
    }
}

/// The root of the decreasing function `f` on the open interval (`lo`, `hi`), by bisection.
fn root(f: impl Fn(f64) -> f64, mut lo: f64, mut hi: f64) -> f64 {
    for _ in 0..200 {
        let mid = 0.5 * (lo + hi);
        if mid <= lo || mid >= hi {
            break;
        }
        if f(mid) > 0.0 {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    0.5 * (lo + hi)
}

/// The distribution on `values` nearest to `probs` (maximum likelihood) whose mean is `s`.
fn mle_with_mean(values: &[f64], probs: &[f64], s: f64) -> Vec<f64> {
    let (first, last) = (values[0], values[values.len() - 1]);
    let f = |th: f64| -> f64 { values.iter().zip(probs).map(|(a, p)| p * (a - s) / (1.0 + th * (a - s))).sum() };
    let th = root(f, -1.0 / (last - s), -1.0 / (first - s));
    values.iter().zip(probs).map(|(a, p)| p / (1.0 + th * (a - s))).collect()
}

/// The distribution on `values` nearest to `probs` whose normalised score `(mu - 1/2) / sigma` is
/// `t` (fixed-point iteration, section 4.1 of Van den Bergh's note).
fn mle_with_t(values: &[f64], probs: &[f64], t: f64) -> Vec<f64> {
    #[allow(clippy::cast_precision_loss)]
    let mut p = vec![1.0 / values.len() as f64; values.len()];
    for _ in 0..1000 {
        let (mu, var) = mean_var(values, &p);
        let sigma = var.sqrt();
        let phi: Vec<f64> =
            values.iter().map(|a| a - 0.5 - 0.5 * t * sigma * (1.0 + ((a - mu) / sigma).powi(2))).collect();
        let (u, v) = phi.iter().fold((f64::INFINITY, f64::NEG_INFINITY), |(u, v), &x| (u.min(x), v.max(x)));
        let f = |th: f64| -> f64 { probs.iter().zip(&phi).map(|(q, x)| q * x / (1.0 + th * x)).sum() };
        let th = root(f, -1.0 / v, -1.0 / u);
        let next: Vec<f64> = probs.iter().zip(&phi).map(|(q, x)| q / (1.0 + th * x)).collect();
        let diff = next.iter().zip(&p).map(|(a, b)| (a - b).abs()).fold(0.0, f64::max);
        p = next;
        if diff < 1e-9 {
            break;
        }
    }
    p
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64, tol: f64) -> bool {
        (a - b).abs() <= tol
    }

    #[test]
    fn sprt_bounds_are_the_usual_ones() {
        let s = Sprt::new(0.0, 5.0, 0.05, 0.05, SprtModel::Normalized).unwrap();
        assert!(close(s.upper(), 2.944_438_98, 1e-8) && close(s.lower(), -2.944_438_98, 1e-8));
        assert_eq!(s.decide(3.0), SprtDecision::H1);
        assert_eq!(s.decide(-3.0), SprtDecision::H0);
        assert_eq!(s.decide(0.0), SprtDecision::Continue);
        assert!(Sprt::new(5.0, 0.0, 0.05, 0.05, SprtModel::Logistic).is_err());
        assert!(Sprt::new(0.0, 5.0, 0.6, 0.5, SprtModel::Logistic).is_err());
    }

    #[test]
    fn normalized_pentanomial_llr_matches_a_published_test() {
        // OpenBench-style report: "LLR 2.96 (-2.94, 2.94) [0.00, 3.00] ... Penta [398, 4112, 7672, 4336, 430]".
        let s = Sprt::new(0.0, 3.0, 0.05, 0.05, SprtModel::Normalized).unwrap();
        let llr = s.llr_pentanomial(&Penta([398, 4112, 7672, 4336, 430]));
        assert!(close(llr, 2.958, 0.005), "{llr}");
        assert_eq!(s.decide(llr), SprtDecision::H1);
    }

    #[test]
    fn mle_distributions_meet_their_constraints() {
        let probs = [0.1, 0.25, 0.4, 0.2, 0.05];
        let p = mle_with_mean(&PENTA_SCORES, &probs, 0.52);
        let (mu, _) = mean_var(&PENTA_SCORES, &p);
        assert!(close(p.iter().sum::<f64>(), 1.0, 1e-9) && close(mu, 0.52, 1e-9));
        let q = mle_with_t(&PENTA_SCORES, &probs, 0.1);
        let (mu, var) = mean_var(&PENTA_SCORES, &q);
        assert!(close(q.iter().sum::<f64>(), 1.0, 1e-6) && close((mu - 0.5) / var.sqrt(), 0.1, 1e-6));
    }

    #[test]
    fn logistic_llr_agrees_with_the_normal_approximation() {
        // For many games, LLR ~ N (s1 - s0)(2 s - s0 - s1) / (2 var) (fishtest's approximation).
        let wdl = Wdl { wins: 3100, draws: 4000, losses: 2900 };
        let s = Sprt::new(0.0, 10.0, 0.05, 0.05, SprtModel::Logistic).unwrap();
        let llr = s.llr_trinomial(&wdl);
        let (s0, s1) = (0.5, elo_to_score(10.0));
        let (n, mean) = (10_000.0, 0.51);
        let var = (3100.0 * 0.49f64.powi(2) + 4000.0 * 0.01f64.powi(2) + 2900.0 * 0.51f64.powi(2)) / n;
        let approx = n * (s1 - s0) * (2.0 * mean - s0 - s1) / (2.0 * var);
        assert!(close(llr, approx, 0.02 * approx.abs() + 0.01), "{llr} vs {approx}");
        // A result exactly at elo1 favours H1, one at elo0 favours H0.
        assert!(s.llr_trinomial(&Wdl { wins: 3000, draws: 4000, losses: 3000 }) < 0.0);
    }
}
