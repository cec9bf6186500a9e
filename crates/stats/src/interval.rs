//! Intervals, clustered score variances, differences with z-tests, entropy.

use crate::elo::score_to_elo;
use crate::normal::normal_cdf;

/// A closed interval `[lo, hi]`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Interval {
    /// Lower end.
    pub lo: f64,
    /// Upper end.
    pub hi: f64,
}

/// Wilson score interval for a proportion of `successes` in `n` trials; `None` when `n == 0`.
#[must_use]
pub fn wilson(successes: u64, n: u64, z: f64) -> Option<Interval> {
    if n == 0 {
        return None;
    }
    let n = n as f64;
    let p = successes as f64 / n;
    let z2 = z * z;
    let centre = (p + z2 / (2.0 * n)) / (1.0 + z2 / n);
    let half = z / (1.0 + z2 / n) * (p * (1.0 - p) / n + z2 / (4.0 * n * n)).sqrt();
    Some(Interval { lo: (centre - half).max(0.0), hi: (centre + half).min(1.0) })
}

/// `mean ± z·se`, clamped to `[0, 1]` (a score).
#[must_use]
pub fn score_interval(mean: f64, se: f64, z: f64) -> Interval {
    Interval { lo: (mean - z * se).clamp(0.0, 1.0), hi: (mean + z * se).clamp(0.0, 1.0) }
}

/// Elo interval: the score interval's ends mapped through [`score_to_elo`] (monotone, so the
/// coverage is the score interval's).
#[must_use]
pub fn elo_interval(score: Interval) -> Interval {
    Interval { lo: score_to_elo(score.lo), hi: score_to_elo(score.hi) }
}

/// A mean score and the variance of that mean, from games grouped in clusters.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ClusteredScore {
    /// Points per game.
    pub mean: f64,
    /// Variance of `mean`.
    pub variance: f64,
    /// Games.
    pub games: u64,
    /// Clusters (pairs count once, unpaired games once each).
    pub clusters: u64,
}

impl ClusteredScore {
    /// Standard error of the mean.
    #[must_use]
    pub fn se(&self) -> f64 {
        self.variance.sqrt()
    }
    /// The `z` interval of the mean, clamped to `[0, 1]`.
    #[must_use]
    pub fn interval(&self, z: f64) -> Interval {
        score_interval(self.mean, self.se(), z)
    }
}

/// Mean score per game and its variance when games come in clusters of `(points, games)`:
/// the two games of a paired opening form one cluster, an unpaired game is a cluster of one.
///
/// `Var(mean) = Σ_c (points_c − games_c·mean)² / N²`. With only single games this is the
/// trinomial variance over `N`; with only pairs it is the pentanomial variance of the pair
/// score over the number of pairs. `None` without games.
#[must_use]
pub fn clustered_score(clusters: &[(f64, u32)]) -> Option<ClusteredScore> {
    let games: u64 = clusters.iter().map(|&(_, g)| u64::from(g)).sum();
    if games == 0 {
        return None;
    }
    let n = games as f64;
    let mean = clusters.iter().map(|&(p, _)| p).sum::<f64>() / n;
    let ss: f64 = clusters.iter().map(|&(p, g)| (p - f64::from(g) * mean).powi(2)).sum();
    Some(ClusteredScore { mean, variance: ss / (n * n), games, clusters: clusters.len() as u64 })
}

/// A difference `a − b` with its interval and a two-sided z-test of "no difference".
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Difference {
    /// `a − b`.
    pub diff: f64,
    /// Interval of the difference.
    pub interval: Interval,
    /// The test statistic; `None` when its standard error is zero.
    pub z: Option<f64>,
    /// Two-sided p-value; `None` when its standard error is zero.
    pub p_value: Option<f64>,
}

fn test(diff: f64, se_test: f64) -> (Option<f64>, Option<f64>) {
    if se_test > 0.0 {
        let z = diff / se_test;
        (Some(z), Some((2.0 * (1.0 - normal_cdf(z.abs()))).clamp(0.0, 1.0)))
    } else {
        (None, None)
    }
}

/// Difference of two independent means with variances `var_a`, `var_b` (of the means):
/// Wald interval and z-test.
#[must_use]
pub fn mean_difference(a: f64, var_a: f64, b: f64, var_b: f64, z: f64) -> Difference {
    let diff = a - b;
    let se = (var_a + var_b).sqrt();
    let (zs, p) = test(diff, se);
    Difference { diff, interval: Interval { lo: diff - z * se, hi: diff + z * se }, z: zs, p_value: p }
}

/// Difference of two proportions `x_a/n_a − x_b/n_b`: unpooled Wald interval, pooled two-proportion
/// z-test; `None` when a side has no trials.
#[must_use]
pub fn proportion_difference(x_a: u64, n_a: u64, x_b: u64, n_b: u64, z: f64) -> Option<Difference> {
    if n_a == 0 || n_b == 0 {
        return None;
    }
    let (na, nb) = (n_a as f64, n_b as f64);
    let (pa, pb) = (x_a as f64 / na, x_b as f64 / nb);
    let diff = pa - pb;
    let se = (pa * (1.0 - pa) / na + pb * (1.0 - pb) / nb).sqrt();
    let pooled = (x_a + x_b) as f64 / (na + nb);
    let (zs, p) = test(diff, (pooled * (1.0 - pooled) * (1.0 / na + 1.0 / nb)).sqrt());
    Some(Difference { diff, interval: Interval { lo: diff - z * se, hi: diff + z * se }, z: zs, p_value: p })
}

/// Shannon entropy in bits of the distribution given by `counts`; 0 for no or one outcome.
#[must_use]
pub fn entropy_bits(counts: impl IntoIterator<Item = u64>) -> f64 {
    let counts: Vec<u64> = counts.into_iter().filter(|&c| c > 0).collect();
    let n: u64 = counts.iter().sum();
    if n == 0 {
        return 0.0;
    }
    let n = n as f64;
    counts.iter().map(|&c| c as f64 / n).map(|p| -p * p.log2()).sum::<f64>().max(0.0)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Penta, Wdl, Z95};

    fn close(a: f64, b: f64, tol: f64) -> bool {
        (a - b).abs() <= tol
    }

    #[test]
    fn wilson_matches_hand_values() {
        // 5 of 10 at z = 1.96: centre 0.5, half = 1.96/1.38416 · sqrt(0.025 + 0.009604) = 0.26340.
        let i = wilson(5, 10, 1.96).unwrap();
        assert!(close(i.lo, 0.236_6, 1e-4) && close(i.hi, 0.763_4, 1e-4), "{i:?}");
        // 0 of 4: lower end 0, upper z²/(n+z²) = 3.8416/7.8416 = 0.48990.
        let i = wilson(0, 4, 1.96).unwrap();
        assert!(close(i.lo, 0.0, 1e-12) && close(i.hi, 0.489_9, 1e-4), "{i:?}");
        // 1 of 1: upper end 1, lower 1/(1+z²) = 0.20654.
        let i = wilson(1, 1, 1.96).unwrap();
        assert!(close(i.lo, 0.206_5, 1e-4) && close(i.hi, 1.0, 1e-12), "{i:?}");
        assert_eq!(wilson(0, 0, 1.96), None);
    }

    #[test]
    fn clustered_score_reduces_to_trinomial_and_pentanomial() {
        // Singles: 1, 1, ½, 0 → mean 5/8, trinomial var = ((3/8)²·2 + (1/8)² + (5/8)²)/4 = 0.171875; over N = 4.
        let singles = [(1.0, 1), (1.0, 1), (0.5, 1), (0.0, 1)];
        let c = clustered_score(&singles).unwrap();
        let w = Wdl { wins: 2, draws: 1, losses: 1 };
        assert!(close(c.mean, 0.625, 1e-15));
        assert!(close(c.variance, w.trinomial_variance().unwrap() / 4.0, 1e-15));
        assert!(close(c.variance, 0.171_875 / 4.0, 1e-15));
        // Pairs with totals 2, 1, 1½: mean 4.5/6 = 0.75; per-game pair scores 1, ½, ¾.
        let pairs = [(2.0, 2), (1.0, 2), (1.5, 2)];
        let c = clustered_score(&pairs).unwrap();
        assert!(close(c.mean, 0.75, 1e-15));
        let counts = Penta::from_pair_points(pairs.iter().map(|&(p, _)| p));
        assert_eq!(counts.0, [0, 0, 1, 1, 1]);
        // Var of {1, ½, ¾} = (1/16 + 1/16 + 0)/3 = 1/24; over 3 pairs: 1/72.
        assert!(close(counts.variance().unwrap(), 1.0 / 24.0, 1e-15));
        assert!(close(c.variance, 1.0 / 72.0, 1e-15));
        assert_eq!(c.clusters, 3);
        assert_eq!(clustered_score(&[]), None);
    }

    #[test]
    fn elo_intervals_map_the_ends() {
        let i = elo_interval(Interval { lo: 0.25, hi: 0.75 });
        assert!(close(i.lo, -190.848, 1e-3) && close(i.hi, 190.848, 1e-3));
    }

    #[test]
    fn differences_and_tests() {
        // 30/100 v 20/100 draws: diff 0.1; pooled 0.25, se_test = sqrt(0.25·0.75·0.02) = 0.061237,
        // z = 1.63299, p = 0.10247; Wald se = sqrt(0.0021 + 0.0016) = 0.060828.
        let d = proportion_difference(30, 100, 20, 100, Z95).unwrap();
        assert!(close(d.diff, 0.1, 1e-12));
        assert!(close(d.z.unwrap(), 1.632_99, 1e-4));
        assert!(close(d.p_value.unwrap(), 0.102_47, 1e-4));
        assert!(close(d.interval.lo, 0.1 - Z95 * 0.060_827_6, 1e-6));
        assert!(proportion_difference(1, 0, 1, 2, Z95).is_none());
        // Both all draws: no spread, no test.
        let d = proportion_difference(5, 5, 3, 3, Z95).unwrap();
        assert_eq!((d.diff, d.z, d.p_value), (0.0, None, None));
        // Means 0.6 (var 0.0009) v 0.5 (var 0.0016): se 0.05, z 2, p 0.0455.
        let d = mean_difference(0.6, 0.0009, 0.5, 0.0016, Z95);
        assert!(close(d.z.unwrap(), 2.0, 1e-12));
        assert!(close(d.p_value.unwrap(), 0.045_50, 1e-4));
        assert!(close(d.interval.hi, 0.1 + Z95 * 0.05, 1e-12));
    }

    #[test]
    fn entropy_of_counts() {
        assert_eq!(entropy_bits([]), 0.0);
        assert_eq!(entropy_bits([7]), 0.0);
        assert!(close(entropy_bits([1, 1, 1, 1]), 2.0, 1e-12));
        // {½, ¼, ¼}: 1.5 bits; zero counts are ignored.
        assert!(close(entropy_bits([2, 0, 1, 1]), 1.5, 1e-12));
    }
}
