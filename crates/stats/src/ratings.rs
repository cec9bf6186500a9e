//! Ratings of N players from a results table by maximum likelihood, as Ordo and `BayesElo` fit
//! them.
//!
//! **Model.** Player `i` scores against player `j` with expectation
//! `E = 1 / (1 + 10^(−(r_i − r_j)/400))` (the logistic Elo curve). Draws count either as half a
//! win and half a loss ([`DrawModel::HalfPoint`], Ordo's default), or through a draw parameter θ
//! fitted with the ratings ([`DrawModel::DrawElo`], `BayesElo`'s): `P(win) = f(r_i − r_j − θ)`,
//! `P(loss) = f(r_j − r_i − θ)`, `P(draw) = 1 − P(win) − P(loss)` with `f(d) = 1/(1 + 10^(−d/400))`.
//!
//! **Anchor.** Only differences are identified: the ratings are shifted so that their mean is 0
//! ([`Anchor::Mean`]) or so that one player is at 0 ([`Anchor::Player`], Ordo's `-A`).
//!
//! **Intervals.** From the observed information (the negative Hessian of the log-likelihood at
//! the maximum): its inverse is the covariance of the free ratings, carried through the
//! anchoring; each rating's 95% interval is `r ± 1.96·sd` (the anchored player's is 0 wide).

use crate::logistic::{halving_step, solve};
use crate::normal::Z95;
use crate::Wdl;

/// How draws enter the likelihood.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum DrawModel {
    /// A draw is half a win and half a loss (Ordo).
    #[default]
    HalfPoint,
    /// A draw has its own probability through a fitted draw parameter θ, in Elo (`BayesElo`'s
    /// `drawelo`).
    DrawElo,
}

/// Where the ratings' zero is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Anchor {
    /// The mean of all ratings is 0.
    #[default]
    Mean,
    /// This player (an index into [`Results::players`]) is at 0.
    Player(usize),
}

/// A results table: the players, and the games between pairs of them.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Results {
    /// The players' names.
    pub players: Vec<String>,
    /// `(a, b, results of a against b)`, `a` and `b` indices into `players`.
    pub pairs: Vec<(usize, usize, Wdl)>,
}

impl Results {
    /// An empty table of these players.
    #[must_use]
    pub fn new(players: Vec<String>) -> Results {
        Results { players, pairs: Vec::new() }
    }

    /// Counts one game of `a` against `b` in which `a` scored `half_points` (0, 1 or 2).
    pub fn add(&mut self, a: usize, b: usize, half_points: u8) {
        let (a, b, half) = if a <= b { (a, b, half_points) } else { (b, a, 2 - half_points.min(2)) };
        if let Some((_, _, wdl)) = self.pairs.iter_mut().find(|(x, y, _)| (*x, *y) == (a, b)) {
            wdl.add(half);
        } else {
            let mut wdl = Wdl::default();
            wdl.add(half);
            self.pairs.push((a, b, wdl));
        }
    }

    /// The table with `draws` virtual draws added to every pair that met (`BayesElo`'s `prior`):
    /// a player who won or lost every game then has a finite rating, and every rating is pulled
    /// a little towards its opponents'.
    #[must_use]
    pub fn with_virtual_draws(&self, draws: u64) -> Results {
        let mut r = self.clone();
        for (_, _, w) in &mut r.pairs {
            if w.games() > 0 {
                w.draws += draws;
            }
        }
        r
    }

    /// Each player's games and points.
    #[must_use]
    pub fn totals(&self) -> Vec<(u64, f64)> {
        let mut t = vec![(0u64, 0.0); self.players.len()];
        for &(a, b, w) in &self.pairs {
            let points = w.wins as f64 + 0.5 * w.draws as f64;
            t[a].0 += w.games();
            t[a].1 += points;
            t[b].0 += w.games();
            t[b].1 += w.games() as f64 - points;
        }
        t
    }
}

/// One player's rating and its 95% interval.
#[derive(Clone, Debug, PartialEq)]
pub struct RatingInterval {
    /// The player.
    pub player: String,
    /// Rating, Elo, relative to the fit's [`Anchor`].
    pub rating: f64,
    /// Standard error.
    pub se: f64,
    /// Lower end of the 95% interval.
    pub lo: f64,
    /// Upper end of the 95% interval.
    pub hi: f64,
    /// Games played.
    pub games: u64,
    /// Points scored.
    pub points: f64,
}

/// The fitted ratings.
#[derive(Clone, Debug, PartialEq)]
pub struct RatingFit {
    /// Per player, in the order of [`Results::players`].
    pub ratings: Vec<RatingInterval>,
    /// Where the ratings' zero is.
    pub anchor: Anchor,
    /// The draw parameter θ in Elo ([`DrawModel::DrawElo`] only).
    pub draw_elo: Option<f64>,
    /// The log-likelihood at the maximum.
    pub log_likelihood: f64,
}

/// `ln(10) / 400`: logits per Elo.
const C: f64 = std::f64::consts::LN_10 / 400.0;

/// `ln σ(z)` without overflow.
fn ln_sigmoid(z: f64) -> f64 {
    -(z.max(0.0) - z) - (-z.abs()).exp().ln_1p()
}

fn sigmoid(z: f64) -> f64 {
    if z >= 0.0 {
        1.0 / (1.0 + (-z).exp())
    } else {
        let e = z.exp();
        e / (1.0 + e)
    }
}

/// The log-likelihood and its gradient in the free parameters: ratings of players 1..N (player 0
/// at 0), then θ for the draw model.
fn loglik(results: &Results, model: DrawModel, p: &[f64]) -> (f64, Vec<f64>) {
    let n = results.players.len();
    let rating = |i: usize| if i == 0 { 0.0 } else { p[i - 1] };
    let mut grad = vec![0.0; p.len()];
    let mut l = 0.0;
    let add = |i: usize, v: f64, grad: &mut [f64]| {
        if i > 0 {
            grad[i - 1] += v;
        }
    };
    for &(a, b, w) in &results.pairs {
        let d = rating(a) - rating(b);
        let (wins, draws, losses) = (w.wins as f64, w.draws as f64, w.losses as f64);
        match model {
            DrawModel::HalfPoint => {
                let (s, games) = (wins + 0.5 * draws, wins + draws + losses);
                l += s * ln_sigmoid(C * d) + (games - s) * ln_sigmoid(-C * d);
                let e = sigmoid(C * d);
                let g = C * (s - games * e);
                add(a, g, &mut grad);
                add(b, -g, &mut grad);
            }
            DrawModel::DrawElo => {
                let theta = p[n - 1];
                let (pw, pl) = (sigmoid(C * (d - theta)), sigmoid(C * (-d - theta)));
                let pd = (1.0 - pw - pl).max(f64::MIN_POSITIVE);
                l += wins * ln_sigmoid(C * (d - theta)) + losses * ln_sigmoid(C * (-d - theta));
                if draws > 0.0 {
                    l += draws * pd.ln();
                }
                // d/dx ln σ(x) = 1 − σ(x); d/dx σ(x) = σ(x)(1 − σ(x)).
                let (dw, dl) = (C * pw * (1.0 - pw), C * pl * (1.0 - pl));
                let gd = wins * C * (1.0 - pw) - losses * C * (1.0 - pl) + draws * (-dw + dl) / pd;
                let gt = -wins * C * (1.0 - pw) - losses * C * (1.0 - pl) + draws * (dw + dl) / pd;
                add(a, gd, &mut grad);
                add(b, -gd, &mut grad);
                grad[n - 1] += gt;
            }
        }
    }
    (l, grad)
}

/// The negative Hessian of the log-likelihood, by central differences of the gradient.
#[allow(clippy::needless_range_loop, reason = "matrix code reads best with indices")]
fn information(results: &Results, model: DrawModel, p: &[f64]) -> Vec<Vec<f64>> {
    let k = p.len();
    let h = 1e-3;
    let mut m = vec![vec![0.0; k]; k];
    for j in 0..k {
        let (mut up, mut down) = (p.to_vec(), p.to_vec());
        up[j] += h;
        down[j] -= h;
        let (gu, gd) = (loglik(results, model, &up).1, loglik(results, model, &down).1);
        for i in 0..k {
            m[i][j] = -(gu[i] - gd[i]) / (2.0 * h);
        }
    }
    // Symmetrise away the rounding.
    for i in 0..k {
        for j in 0..i {
            let v = 0.5 * (m[i][j] + m[j][i]);
            m[i][j] = v;
            m[j][i] = v;
        }
    }
    m
}

/// The representative of `i`'s group (union-find with path halving).
fn root(group: &mut [usize], mut i: usize) -> usize {
    while group[i] != i {
        group[i] = group[group[i]];
        i = group[i];
    }
    i
}

/// Fits the ratings of `results` by maximum likelihood, their zero at `anchor`.
///
/// # Errors
/// An anchor naming no player, fewer than two players, a game naming no player, a player without games or with a perfect
/// (or zero) score against everyone (the likelihood has no finite maximum), players in groups
/// that never met, or, for the draw model, no draws or no decisive games.
pub fn fit_ratings(results: &Results, model: DrawModel, anchor: Anchor) -> Result<RatingFit, String> {
    let n = results.players.len();
    if n < 2 {
        return Err("a rating fit needs at least two players".into());
    }
    if let Anchor::Player(i) = anchor {
        if i >= n {
            return Err(format!("the anchor is player {i} of {n}: no such player"));
        }
    }
    if let Some(&(a, b, _)) = results.pairs.iter().find(|&&(a, b, _)| a >= n || b >= n || a == b) {
        return Err(format!("a game between players {a} and {b} of {n}: no such pair"));
    }
    let totals = results.totals();
    for (name, &(games, points)) in results.players.iter().zip(&totals) {
        if games == 0 {
            return Err(format!("player {name} has no games"));
        }
        if points == 0.0 || points == games as f64 {
            return Err(format!("player {name} scored {points} of {games}: the rating has no finite maximum"));
        }
    }
    let mut group: Vec<usize> = (0..n).collect();
    for &(a, b, _) in &results.pairs {
        let (ra, rb) = (root(&mut group, a), root(&mut group, b));
        group[ra] = rb;
    }
    if let Some(i) = (1..n).find(|&i| root(&mut group, i) != root(&mut group, 0)) {
        return Err(format!(
            "players {} and {} are not connected by games: their ratings cannot be compared",
            results.players[0], results.players[i]
        ));
    }
    if model == DrawModel::DrawElo {
        let (draws, games): (u64, u64) =
            results.pairs.iter().fold((0, 0), |(d, g), (_, _, w)| (d + w.draws, g + w.games()));
        if draws == 0 || draws == games {
            return Err("the draw model needs both draws and decisive games".into());
        }
    }
    let k = n - 1 + usize::from(model == DrawModel::DrawElo);
    let mut p = vec![0.0; k];
    if model == DrawModel::DrawElo {
        p[k - 1] = 100.0;
    }
    let (mut current, _) = loglik(results, model, &p);
    for _ in 0..200 {
        let (_, grad) = loglik(results, model, &p);
        let info = information(results, model, &p);
        let step = solve(info, &grad).ok_or("singular fit: some players are not connected by games to the others")?;
        // Maximise the log-likelihood: minimise its negative (a draw width must stay positive).
        let negative = |trial: &[f64]| {
            let valid = model == DrawModel::HalfPoint || trial[k - 1] > 0.0;
            if valid {
                -loglik(results, model, trial).0
            } else {
                f64::INFINITY
            }
        };
        let Some((next, l, size)) = halving_step(&p, &step, -current, 60, negative) else {
            break;
        };
        (p, current) = (next, -l);
        if size < 1e-9 {
            break;
        }
    }
    let info = information(results, model, &p);
    // The covariance of the free parameters: the inverse of the information, column by column.
    let cov: Vec<Vec<f64>> = (0..k)
        .map(|j| {
            let mut e = vec![0.0; k];
            e[j] = 1.0;
            solve(info.clone(), &e).ok_or("singular information matrix at the maximum")
        })
        .collect::<Result<_, _>>()?;
    // Full ratings (player 0 at 0), then anchored: r' = r − (w·r)·1, with w the anchor's weights
    // (1/N each for the mean, the unit vector of the anchored player).
    let full: Vec<f64> = (0..n).map(|i| if i == 0 { 0.0 } else { p[i - 1] }).collect();
    let nf = n as f64;
    let w: Vec<f64> = match anchor {
        Anchor::Mean => vec![1.0 / nf; n],
        Anchor::Player(a) => (0..n).map(|i| if i == a { 1.0 } else { 0.0 }).collect(),
    };
    let zero: f64 = w.iter().zip(&full).map(|(w, r)| w * r).sum();
    let cov_full = |i: usize, j: usize| if i == 0 || j == 0 { 0.0 } else { cov[i - 1][j - 1] };
    // (C·w)_i and wᵀ·C·w.
    let cw: Vec<f64> = (0..n).map(|i| (0..n).map(|j| cov_full(i, j) * w[j]).sum::<f64>()).collect();
    let wcw: f64 = w.iter().zip(&cw).map(|(w, c)| w * c).sum();
    let ratings = (0..n)
        .map(|i| {
            // Var(r_i − w·r) = C_ii − 2·(C·w)_i + wᵀ·C·w.
            let var = (cov_full(i, i) - 2.0 * cw[i] + wcw).max(0.0);
            let (rating, se) = (full[i] - zero, var.sqrt());
            RatingInterval {
                player: results.players[i].clone(),
                rating,
                se,
                lo: rating - Z95 * se,
                hi: rating + Z95 * se,
                games: totals[i].0,
                points: totals[i].1,
            }
        })
        .collect();
    let draw_elo = (model == DrawModel::DrawElo).then(|| p[k - 1]);
    Ok(RatingFit { ratings, anchor, draw_elo, log_likelihood: current })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64, tol: f64) -> bool {
        (a - b).abs() <= tol
    }

    /// A beats B 2-0 with 2 draws, B beats C 3-1, A beats C 9-1: every pair's score is the
    /// logistic expectation of ratings 400·log10(3) apart (3/4, 3/4, and 9/10 for twice the gap),
    /// so the maximum fits every pair exactly.
    fn three() -> Results {
        let mut r = Results::new(vec!["A".into(), "B".into(), "C".into()]);
        for h in [2, 2, 1, 1] {
            r.add(0, 1, h);
        }
        for h in [2, 2, 2, 0] {
            r.add(2, 1, 2 - h);
        }
        for h in [2, 2, 2, 2, 2, 2, 2, 2, 2, 0] {
            r.add(0, 2, h);
        }
        r
    }

    #[test]
    fn three_players_half_points_match_hand_values() {
        let fit = fit_ratings(&three(), DrawModel::HalfPoint, Anchor::Mean).unwrap();
        let gap = 400.0 * 3f64.log10(); // 190.849
        let r: Vec<f64> = fit.ratings.iter().map(|x| x.rating).collect();
        assert!(close(r[0], gap, 1e-6) && close(r[1], 0.0, 1e-6) && close(r[2], -gap, 1e-6), "{r:?}");
        // Information (free ratings of A and C, B fixed), in units of c² = (ln 10 / 400)²:
        // n·E·(1 − E) per pair is 4·3/16 = 0.75 (A–B, B–C) and 10·0.09 = 0.9 (A–C), so
        // I = [[1.65, −0.9], [−0.9, 1.65]], det 1.9125, and I⁻¹ = [[0.862745, 0.470588], ...].
        // Mean-0 anchoring: Var(r_A') = (4·C_AA − 4·C_AC + C_CC)/9 = 0.270153/c²,
        // Var(r_B') = (C_AA + 2·C_AC + C_CC)/9 = 0.296296/c².
        let c2 = C * C;
        let (va, vb) = ((4.0 * 1.65 - 4.0 * 0.9 + 1.65) / 1.9125 / 9.0 / c2, (2.0 * 1.65 + 1.8) / 1.9125 / 9.0 / c2);
        assert!(close(fit.ratings[0].se, va.sqrt(), 1e-3), "{} v {}", fit.ratings[0].se, va.sqrt());
        assert!(close(fit.ratings[0].se, 90.29, 0.01), "{}", fit.ratings[0].se);
        assert!(close(fit.ratings[1].se, vb.sqrt(), 1e-3) && close(fit.ratings[1].se, 94.56, 0.01));
        assert!(close(fit.ratings[2].se, fit.ratings[0].se, 1e-6));
        let a = &fit.ratings[0];
        assert!(close(a.hi - a.rating, Z95 * a.se, 1e-9) && close(a.rating - a.lo, Z95 * a.se, 1e-9));
        assert_eq!((a.games, a.points), (14, 12.0));
        assert!(fit.draw_elo.is_none());
    }

    #[test]
    fn two_players_draw_elo_matches_hand_values() {
        // 4 wins, 4 draws, 2 losses: P(win) = 0.4 = σ(c(d − θ)), P(loss) = 0.2 = σ(c(−d − θ)), so
        // d = (logit 0.4 − logit 0.2)/(2c) = 85.19 and θ = −(logit 0.4 + logit 0.2)/(2c) = 155.63.
        let mut r = Results::new(vec!["x".into(), "y".into()]);
        for h in [2, 2, 2, 2, 1, 1, 1, 1, 0, 0] {
            r.add(0, 1, h);
        }
        let fit = fit_ratings(&r, DrawModel::DrawElo, Anchor::Mean).unwrap();
        let logit = |p: f64| (p / (1.0 - p)).ln();
        let d = (logit(0.4) - logit(0.2)) / (2.0 * C);
        let theta = -(logit(0.4) + logit(0.2)) / (2.0 * C);
        assert!(close(d, 85.19, 0.01) && close(theta, 155.63, 0.01));
        assert!(close(fit.ratings[0].rating, d / 2.0, 1e-4) && close(fit.ratings[1].rating, -d / 2.0, 1e-4));
        assert!(close(fit.draw_elo.unwrap(), theta, 1e-4), "{:?}", fit.draw_elo);
        // The half-point model puts the same pair at the score's Elo: 6/10 → 70.44 apart.
        let half = fit_ratings(&r, DrawModel::HalfPoint, Anchor::Mean).unwrap();
        let gap = half.ratings[0].rating - half.ratings[1].rating;
        assert!(close(gap, -400.0 * (1.0 / 0.6 - 1.0f64).log10(), 1e-6), "{gap}");
    }

    #[test]
    fn anchoring_at_a_player_puts_it_at_zero_with_hand_intervals() {
        let gap = 400.0 * 3f64.log10();
        let fit = fit_ratings(&three(), DrawModel::HalfPoint, Anchor::Player(0)).unwrap();
        assert_eq!(fit.anchor, Anchor::Player(0));
        let r: Vec<f64> = fit.ratings.iter().map(|x| x.rating).collect();
        assert!(close(r[0], 0.0, 1e-9) && close(r[1], -gap, 1e-6) && close(r[2], -2.0 * gap, 1e-6), "{r:?}");
        // With A fixed, the free ratings are B and C; in units of c² the information is
        // B: 0.75 (A–B) + 0.75 (B–C) = 1.5, C: 0.75 + 0.9 (A–C) = 1.65, B–C: −0.75; det 1.9125.
        // I⁻¹: Var(r_B) = 1.65/1.9125 = 0.862745/c², Var(r_C) = 1.5/1.9125 = 0.784314/c², so
        // sd 161.36 and 153.85 Elo; A's is 0.
        let c = C;
        let (sb, sc) = ((1.65f64 / 1.9125).sqrt() / c, (1.5f64 / 1.9125).sqrt() / c);
        assert!(close(sb, 161.36, 0.01) && close(sc, 153.85, 0.01), "{sb} {sc}");
        assert!(close(fit.ratings[0].se, 0.0, 1e-9) && close(fit.ratings[0].lo, 0.0, 1e-9));
        assert!(close(fit.ratings[1].se, sb, 1e-3), "{}", fit.ratings[1].se);
        assert!(close(fit.ratings[2].se, sc, 1e-3), "{}", fit.ratings[2].se);
        // Anchoring moves the zero, not the differences or the likelihood.
        let mean = fit_ratings(&three(), DrawModel::HalfPoint, Anchor::Mean).unwrap();
        for (x, y) in fit.ratings.iter().zip(&mean.ratings) {
            assert!(close(x.rating - fit.ratings[2].rating, y.rating - mean.ratings[2].rating, 1e-6));
        }
        assert!(close(fit.log_likelihood, mean.log_likelihood, 1e-9));
        assert!(fit_ratings(&three(), DrawModel::HalfPoint, Anchor::Player(3)).unwrap_err().contains("no such player"));
    }

    #[test]
    fn virtual_draws_give_a_perfect_score_a_finite_rating() {
        // A beats B twice: no finite maximum. One virtual draw makes it 2.5 of 3, so the gap is
        // the Elo of a 5/6 score: 400·log10(5) = 279.59.
        let mut r = Results::new(vec!["A".into(), "B".into(), "C".into()]);
        r.add(0, 1, 2);
        r.add(0, 1, 2);
        assert!(fit_ratings(&r, DrawModel::HalfPoint, Anchor::Mean).is_err());
        let two = Results { players: r.players[..2].to_vec(), pairs: r.pairs.clone() };
        let fit = fit_ratings(&two.with_virtual_draws(1), DrawModel::HalfPoint, Anchor::Player(1)).unwrap();
        assert!(close(fit.ratings[0].rating, 400.0 * 5f64.log10(), 1e-6), "{:?}", fit.ratings);
        assert!(close(400.0 * 5f64.log10(), 279.59, 0.01));
        // Only pairs that met get draws: C, who met no one, still has no games.
        let prior = r.with_virtual_draws(2);
        assert_eq!(prior.pairs, vec![(0, 1, Wdl { wins: 2, draws: 2, losses: 0 })]);
        assert!(fit_ratings(&prior, DrawModel::HalfPoint, Anchor::Mean).unwrap_err().contains("player C has no games"));
    }

    #[test]
    fn tables_without_a_finite_maximum_are_errors() {
        let mut r = Results::new(vec!["a".into(), "b".into()]);
        assert!(fit_ratings(&r, DrawModel::HalfPoint, Anchor::Mean).unwrap_err().contains("no games"));
        r.add(0, 1, 2);
        assert!(fit_ratings(&r, DrawModel::HalfPoint, Anchor::Mean).unwrap_err().contains("no finite maximum"));
        r.add(0, 1, 0);
        assert!(fit_ratings(&r, DrawModel::DrawElo, Anchor::Mean).unwrap_err().contains("draws"));
        assert!(fit_ratings(&Results::new(vec!["solo".into()]), DrawModel::HalfPoint, Anchor::Mean).is_err());
        // Two pairs that never meet.
        let mut r = Results::new(vec!["a".into(), "b".into(), "c".into(), "d".into()]);
        for (x, y) in [(0, 1), (2, 3)] {
            r.add(x, y, 2);
            r.add(x, y, 0);
        }
        assert!(fit_ratings(&r, DrawModel::HalfPoint, Anchor::Mean).unwrap_err().contains("not connected"));
    }
}
