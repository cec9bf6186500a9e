//! Match statistics as cutechess-cli and fastchess report them: score, Elo difference with a 95%
//! interval, LOS, nElo, pentanomial counts, and the SPRT log-likelihood ratio.
//!
//! Results are counted from the first engine's (A's) side. The formulas follow fastchess
//! (`elo_wdl.cpp`, `elo_pentanomial.cpp`, `sprt.cpp`): the interval is the score's normal
//! interval mapped through the logistic Elo curve; the LLR is the generalised SPRT of Michel Van
//! den Bergh ("Comments on Normalized Elo"), the likelihood ratio of the two maximum-likelihood
//! distributions whose expected score (logistic model) or normalised score (normalized model)
//! equals the hypothesis.

use crate::GameRecord;
use std::collections::{BTreeMap, HashMap};
use std::fmt;

/// The 97.5% quantile of the standard normal distribution (two-sided 95% interval).
pub const Z95: f64 = 1.959_963_984_540_054;

/// Wins, draws and losses of one engine.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub struct Wdl {
    /// Games won.
    pub wins: u64,
    /// Games drawn.
    pub draws: u64,
    /// Games lost.
    pub losses: u64,
}

impl Wdl {
    /// Counts one game scored 0, 0.5 or 1, given in half points (0, 1, 2).
    pub fn add(&mut self, half_points: u8) {
        match half_points {
            0 => self.losses += 1,
            1 => self.draws += 1,
            _ => self.wins += 1,
        }
    }
    /// Games counted.
    #[must_use]
    pub fn games(&self) -> u64 {
        self.wins + self.draws + self.losses
    }
    /// Counts in score order: losses, draws, wins.
    #[must_use]
    pub fn counts(&self) -> [u64; 3] {
        [self.losses, self.draws, self.wins]
    }
}

/// Game pairs (one opening, colours swapped) by the pair's score: LL, LD, DD+WL, WD, WW.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub struct Penta(pub [u64; 5]);

impl Penta {
    /// Counts one pair scoring `half_points` (0 to 4) over its two games.
    pub fn add(&mut self, half_points: u8) {
        self.0[usize::from(half_points.min(4))] += 1;
    }
    /// Pairs counted.
    #[must_use]
    pub fn pairs(&self) -> u64 {
        self.0.iter().sum()
    }
}

impl fmt::Display for Penta {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let [ll, ld, dd, wd, ww] = self.0;
        write!(f, "[{ll}, {ld}, {dd}, {wd}, {ww}]")
    }
}

/// The expected score of an Elo difference (logistic curve).
#[must_use]
pub fn elo_to_score(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

/// The Elo difference of an expected score: infinite at 0 and 1, `NaN` outside `[0, 1]`.
#[must_use]
pub fn score_to_elo(score: f64) -> f64 {
    // Adding 0 turns the -0 of an even score into 0.
    -400.0 * (1.0 / score - 1.0).log10() + 0.0
}

/// `800 / ln 10`: nElo per unit of the normalised score.
const NELO: f64 = 800.0 / std::f64::consts::LN_10;

/// An Elo estimate from a sample of games or of game pairs.
#[derive(Clone, Copy, PartialEq, Debug)]
pub struct EloEstimate {
    /// Mean score per game, 0 to 1.
    pub score: f64,
    /// Elo difference.
    pub elo: f64,
    /// Half the width of the 95% Elo interval (as `Elo difference: X +/- Y`).
    pub error: f64,
    /// Lower end of the 95% Elo interval.
    pub lower: f64,
    /// Upper end of the 95% Elo interval.
    pub upper: f64,
    /// Likelihood of superiority: the probability that the true score is above one half.
    pub los: f64,
    /// Normalised Elo (Elo scaled by the score's spread).
    pub nelo: f64,
    /// Share of drawn games (of drawn pairs DD+WL for pentanomial estimates).
    pub draw_ratio: f64,
}

impl EloEstimate {
    /// From the distribution of a score that takes `values` with counts `counts`, where a sample
    /// item is a game (trinomial) or a pair (pentanomial). `None` without data.
    fn from_distribution(values: &[f64], counts: &[u64], nelo_scale: f64, draw_ratio: f64) -> Option<EloEstimate> {
        let n: u64 = counts.iter().sum();
        if n == 0 {
            return None;
        }
        #[allow(clippy::cast_precision_loss)]
        let (n, probs) = (n as f64, counts.iter().map(|&c| c as f64 / n as f64).collect::<Vec<_>>());
        let (score, var) = mean_var(values, &probs);
        let sd = (var / n).sqrt();
        let (lo, hi) = ((score - Z95 * sd).max(0.0), (score + Z95 * sd).min(1.0));
        let (lower, upper) = (score_to_elo(lo), score_to_elo(hi));
        let los = if sd > 0.0 {
            normal_cdf((score - 0.5) / sd)
        } else if score > 0.5 {
            1.0
        } else if score < 0.5 {
            0.0
        } else {
            0.5
        };
        let nelo = if var > 0.0 { (score - 0.5) / (nelo_scale * var).sqrt() * NELO } else { 0.0 };
        Some(EloEstimate {
            score,
            elo: score_to_elo(score),
            error: (upper - lower) / 2.0,
            lower,
            upper,
            los,
            nelo,
            draw_ratio,
        })
    }

    /// From single games (trinomial model), as cutechess-cli and fastchess without pairs.
    #[must_use]
    pub fn trinomial(wdl: &Wdl) -> Option<EloEstimate> {
        #[allow(clippy::cast_precision_loss)]
        let draws = wdl.draws as f64 / wdl.games().max(1) as f64;
        EloEstimate::from_distribution(&TRI_SCORES, &wdl.counts(), 1.0, draws)
    }

    /// From game pairs (pentanomial model), as fastchess with `-report penta=true`.
    #[must_use]
    pub fn pentanomial(penta: &Penta) -> Option<EloEstimate> {
        #[allow(clippy::cast_precision_loss)]
        let draws = penta.0[2] as f64 / penta.pairs().max(1) as f64;
        EloEstimate::from_distribution(&PENTA_SCORES, &penta.0, 2.0, draws)
    }
}

impl fmt::Display for EloEstimate {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "Elo difference: {:.1} +/- {:.1} [{:.1}, {:.1}], LOS: {:.1} %, nElo: {:.1}, DrawRatio: {:.1} %",
            self.elo,
            self.error,
            self.lower,
            self.upper,
            self.los * 100.0,
            self.nelo,
            self.draw_ratio * 100.0
        )
    }
}

const TRI_SCORES: [f64; 3] = [0.0, 0.5, 1.0];
const PENTA_SCORES: [f64; 5] = [0.0, 0.25, 0.5, 0.75, 1.0];

fn mean_var(values: &[f64], probs: &[f64]) -> (f64, f64) {
    let mu: f64 = values.iter().zip(probs).map(|(a, p)| a * p).sum();
    let var = values.iter().zip(probs).map(|(a, p)| p * (a - mu) * (a - mu)).sum();
    (mu, var)
}

/// The standard normal distribution function.
#[must_use]
pub fn normal_cdf(x: f64) -> f64 {
    0.5 * erfc(-x / std::f64::consts::SQRT_2)
}

/// The complementary error function (Numerical Recipes' Chebyshev fit, relative error < 1.2e-7).
#[must_use]
pub fn erfc(x: f64) -> f64 {
    let z = x.abs();
    let t = 1.0 / (1.0 + 0.5 * z);
    let poly = -z * z - 1.265_512_23
        + t * (1.000_023_68
            + t * (0.374_091_96
                + t * (0.096_784_18
                    + t * (-0.186_288_06
                        + t * (0.278_868_07
                            + t * (-1.135_203_98 + t * (1.488_515_87 + t * (-0.822_152_23 + t * 0.170_872_77))))))));
    let r = t * poly.exp();
    if x >= 0.0 {
        r
    } else {
        2.0 - r
    }
}

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
        #[allow(clippy::cast_precision_loss)]
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

/// Running counts over the records of a run: results by colour, the first engine's (`A`'s, or
/// White's in self-play) results and pentanomial pairs, and terminations.
#[derive(Clone, Debug, Default)]
pub struct Tally {
    /// Games counted.
    pub games: u64,
    /// Games White won.
    pub white_wins: u64,
    /// Games drawn.
    pub draws: u64,
    /// Games Black won.
    pub black_wins: u64,
    /// Results of engine `A` (in self-play: of White).
    pub first: Wdl,
    /// Complete pairs of a paired run, from `A`'s side.
    pub penta: Penta,
    /// Games by termination reason.
    pub terminations: BTreeMap<String, u64>,
    /// Plies over all games.
    pub plies: u64,
    /// Whether games come in colour-swapped pairs.
    paired: bool,
    /// `A`'s half points in the first game of pairs not complete yet.
    open_pairs: HashMap<u64, u8>,
}

impl Tally {
    /// An empty tally; `paired` counts pentanomial pairs.
    #[must_use]
    pub fn new(paired: bool) -> Tally {
        Tally { paired, ..Tally::default() }
    }

    /// Counts one game.
    pub fn add(&mut self, rec: &GameRecord) {
        let white_half: u8 = match rec.result.as_str() {
            "1-0" => 2,
            "0-1" => 0,
            _ => 1,
        };
        self.games += 1;
        match white_half {
            2 => self.white_wins += 1,
            0 => self.black_wins += 1,
            _ => self.draws += 1,
        }
        self.plies += u64::from(rec.plies);
        *self.terminations.entry(rec.termination.clone()).or_default() += 1;
        let half = if rec.black == "A" { 2 - white_half } else { white_half };
        self.first.add(half);
        if self.paired {
            match self.open_pairs.remove(&rec.pair) {
                Some(other) => self.penta.add(other + half),
                None => {
                    self.open_pairs.insert(rec.pair, half);
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64, tol: f64) -> bool {
        (a - b).abs() <= tol
    }

    #[test]
    fn elo_of_a_trinomial_sample_matches_hand_computation() {
        // 10 wins, 20 draws, 5 losses: score 20/35 = 4/7, Elo = -400 log10(3/4) = 49.98.
        let wdl = Wdl { wins: 10, draws: 20, losses: 5 };
        let e = EloEstimate::trinomial(&wdl).unwrap();
        assert!(close(e.score, 4.0 / 7.0, 1e-12));
        assert!(close(e.elo, 49.9755, 1e-3), "{}", e.elo);
        // Per-game variance: (10 (3/7)^2 + 20 (1/14)^2 + 5 (4/7)^2) / 35 = 5/49.
        let sd = (5.0 / 49.0 / 35.0_f64).sqrt();
        assert!(close(e.lower, score_to_elo(4.0 / 7.0 - Z95 * sd), 1e-6));
        assert!(close(e.upper, score_to_elo(4.0 / 7.0 + Z95 * sd), 1e-6));
        assert!(close(e.lower, -23.94, 0.01) && close(e.upper, 128.76, 0.01), "{e}");
        // LOS = Phi((4/7 - 1/2) / sd) = Phi(sqrt(7) / 2) = 0.90706.
        assert!(close(e.los, 0.907_06, 1e-4), "{}", e.los);
        assert!(close(e.draw_ratio, 20.0 / 35.0, 1e-12));
    }

    #[test]
    fn even_score_is_zero_elo_and_even_los() {
        let e = EloEstimate::pentanomial(&Penta([3, 10, 20, 10, 3])).unwrap();
        assert!(close(e.elo, 0.0, 1e-9) && close(e.los, 0.5, 1e-7));
        assert!(close(e.lower, -e.upper, 1e-9));
        assert!(EloEstimate::trinomial(&Wdl::default()).is_none());
    }

    #[test]
    fn pentanomial_uses_the_variance_of_pair_scores() {
        // Pairs LL..WW = 1, 2, 4, 2, 1 around 1/2: pair scores vary by (2 (1/2)^2 + 4 (1/4)^2) / 10.
        let e = EloEstimate::pentanomial(&Penta([1, 2, 4, 2, 1])).unwrap();
        let var: f64 = (2.0 * 0.25 + 4.0 * 0.0625) / 10.0;
        let sd = (var / 10.0).sqrt();
        assert!(close(e.upper, score_to_elo(0.5 + Z95 * sd), 1e-9));
        assert!(close(e.error, score_to_elo(0.5 + Z95 * sd), 1e-9));
    }

    #[test]
    fn normal_cdf_matches_tables() {
        assert!(close(normal_cdf(0.0), 0.5, 1e-7));
        assert!(close(normal_cdf(Z95), 0.975, 1e-7));
        assert!(close(normal_cdf(-1.0), 0.158_655_25, 1e-7));
        assert!(close(normal_cdf(3.0), 0.998_650_10, 1e-7));
    }

    #[test]
    fn tally_counts_from_a_s_side_and_pairs_games() {
        let rec = |index: u64, white: &str, result: &str| GameRecord {
            variant: "fide".into(),
            index,
            pair: index / 2,
            white: white.into(),
            black: if white == "A" { "B".into() } else { "A".into() },
            result: result.into(),
            termination: "checkmate".into(),
            plies: 10,
            ..GameRecord::default()
        };
        let mut t = Tally::new(true);
        // Pair 0: A wins with White, then wins with Black (WW). Pair 1: A wins, then draws (WD).
        // Pair 2: only its first game, a loss for A.
        for r in
            [rec(0, "A", "1-0"), rec(3, "B", "1/2-1/2"), rec(1, "B", "0-1"), rec(2, "A", "1-0"), rec(4, "A", "0-1")]
        {
            t.add(&r);
        }
        assert_eq!((t.games, t.white_wins, t.draws, t.black_wins, t.plies), (5, 2, 1, 2, 50));
        assert_eq!(t.first, Wdl { wins: 3, draws: 1, losses: 1 });
        assert_eq!(t.penta, Penta([0, 0, 0, 1, 1]));
        assert_eq!(t.terminations["checkmate"], 5);
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
