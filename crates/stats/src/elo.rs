//! W/D/L and pentanomial counts, the Elo curve, and the match estimates cutechess-cli and
//! fastchess report: score, Elo difference with a 95% interval, LOS, nElo.
//!
//! The formulas follow fastchess (`elo_wdl.cpp`, `elo_pentanomial.cpp`): the interval is the
//! score's normal interval mapped through the logistic Elo curve.

use crate::normal::{normal_cdf, Z95};
use std::fmt;

/// Wins, draws and losses, from one side's point of view.
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
    pub const fn games(self) -> u64 {
        self.wins + self.draws + self.losses
    }
    /// Counts in score order: losses, draws, wins.
    #[must_use]
    pub const fn counts(self) -> [u64; 3] {
        [self.losses, self.draws, self.wins]
    }
    /// Points per game (win 1, draw ½); `None` without games.
    #[must_use]
    pub fn score(self) -> Option<f64> {
        let n = self.games();
        (n > 0).then(|| (self.wins as f64 + 0.5 * self.draws as f64) / n as f64)
    }
    /// Share of drawn games; `None` without games.
    #[must_use]
    pub fn draw_rate(self) -> Option<f64> {
        let n = self.games();
        (n > 0).then(|| self.draws as f64 / n as f64)
    }
    /// Variance of one game's points around the mean (the trinomial model); `None` without games.
    #[must_use]
    pub fn trinomial_variance(self) -> Option<f64> {
        let s = self.score()?;
        let n = self.games() as f64;
        let dev = |x: f64| (x - s) * (x - s);
        Some((self.wins as f64 * dev(1.0) + self.draws as f64 * dev(0.5) + self.losses as f64 * dev(0.0)) / n)
    }
}

/// Game pairs (one opening, colours swapped) by the pair's points: LL, LD, DD+WL, WD, WW
/// (0, ½, 1, 1½, 2).
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub struct Penta(pub [u64; 5]);

impl Penta {
    /// Counts one pair scoring `half_points` (0 to 4) over its two games.
    pub fn add(&mut self, half_points: u8) {
        self.0[usize::from(half_points.min(4))] += 1;
    }
    /// The counts of pairs with the given total points (0, ½, 1, 1½ or 2 each).
    #[must_use]
    pub fn from_pair_points(pair_points: impl IntoIterator<Item = f64>) -> Penta {
        let mut p = Penta::default();
        for points in pair_points {
            p.add((points * 2.0).round().clamp(0.0, 4.0) as u8);
        }
        p
    }
    /// Pairs counted.
    #[must_use]
    pub fn pairs(&self) -> u64 {
        self.0.iter().sum()
    }
    /// Variance of the per-game score of one pair (`Var(T/2)` for a pair total `T`); `None`
    /// without pairs.
    #[must_use]
    pub fn variance(&self) -> Option<f64> {
        let pairs = self.pairs();
        if pairs == 0 {
            return None;
        }
        let n = pairs as f64;
        Some(mean_var(&PENTA_SCORES, &self.0.map(|c| c as f64 / n)).1)
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

/// The Elo difference of an expected score, `−400·log10(1/s − 1)`: infinite at 0 and 1, `NaN`
/// outside `[0, 1]`.
#[must_use]
pub fn score_to_elo(score: f64) -> f64 {
    // Adding 0 turns the -0 of an even score into 0.
    -400.0 * (1.0 / score - 1.0).log10() + 0.0
}

/// `800 / ln 10`: nElo per unit of the normalised score.
pub(crate) const NELO: f64 = 800.0 / std::f64::consts::LN_10;

/// Per-game scores of the trinomial classes: loss, draw, win.
pub(crate) const TRI_SCORES: [f64; 3] = [0.0, 0.5, 1.0];
/// Per-game scores of the pentanomial classes.
pub(crate) const PENTA_SCORES: [f64; 5] = [0.0, 0.25, 0.5, 0.75, 1.0];

/// Mean and variance of a distribution on `values` with probabilities `probs`.
pub(crate) fn mean_var(values: &[f64], probs: &[f64]) -> (f64, f64) {
    let mu: f64 = values.iter().zip(probs).map(|(a, p)| a * p).sum();
    let var = values.iter().zip(probs).map(|(a, p)| p * (a - mu) * (a - mu)).sum();
    (mu, var)
}

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
        let draws = wdl.draws as f64 / wdl.games().max(1) as f64;
        EloEstimate::from_distribution(&TRI_SCORES, &wdl.counts(), 1.0, draws)
    }

    /// From game pairs (pentanomial model), as fastchess with `-report penta=true`.
    #[must_use]
    pub fn pentanomial(penta: &Penta) -> Option<EloEstimate> {
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

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64, tol: f64) -> bool {
        (a - b).abs() <= tol
    }

    #[test]
    fn wdl_score_draws_and_trinomial_variance() {
        // 3 wins, 2 draws, 1 loss: score (3 + 1) / 6 = 2/3.
        let w = Wdl { wins: 3, draws: 2, losses: 1 };
        assert_eq!(w.games(), 6);
        assert_eq!(w.counts(), [1, 2, 3]);
        assert!(close(w.score().unwrap(), 2.0 / 3.0, 1e-15));
        assert!(close(w.draw_rate().unwrap(), 1.0 / 3.0, 1e-15));
        // (3·(1/3)² + 2·(1/6)² + 1·(2/3)²) / 6 = (1/3 + 1/18 + 4/9) / 6 = (15/18) / 6 = 5/36.
        assert!(close(w.trinomial_variance().unwrap(), 5.0 / 36.0, 1e-15));
        assert_eq!(Wdl::default().score(), None);
        // All draws: no spread at all.
        assert_eq!(Wdl { wins: 0, draws: 4, losses: 0 }.trinomial_variance(), Some(0.0));
        let mut v = Wdl::default();
        for h in [0, 1, 2, 2] {
            v.add(h);
        }
        assert_eq!(v, Wdl { wins: 2, draws: 1, losses: 1 });
    }

    #[test]
    fn pentanomial_counts_and_variance() {
        // Pair totals 2, 1, 1½: per-game pair scores 1, ½, ¾; Var = (1/16 + 1/16 + 0)/3 = 1/24.
        let p = Penta::from_pair_points([2.0, 1.0, 1.5]);
        assert_eq!(p, Penta([0, 0, 1, 1, 1]));
        assert!(close(p.variance().unwrap(), 1.0 / 24.0, 1e-15));
        assert_eq!(Penta::default().variance(), None);
        assert_eq!(p.to_string(), "[0, 0, 1, 1, 1]");
    }

    #[test]
    fn elo_of_scores() {
        assert!(close(score_to_elo(0.5), 0.0, 1e-12) && score_to_elo(0.5).is_sign_positive());
        // 0.75 → −400·log10(1/3) = 190.848.
        assert!(close(score_to_elo(0.75), 190.848, 1e-3));
        assert!(close(score_to_elo(0.25), -190.848, 1e-3));
        assert_eq!(score_to_elo(1.0), f64::INFINITY);
        assert_eq!(score_to_elo(0.0), f64::NEG_INFINITY);
        assert!(score_to_elo(1.5).is_nan());
        assert!(close(elo_to_score(score_to_elo(0.3)), 0.3, 1e-12));
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
}
