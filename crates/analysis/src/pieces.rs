//! Piece values estimated from games (ANCHORS §3.2): replay each game, sample the material
//! difference per role through it, regress the result on the differences, normalise to the pawn.
//!
//! **Model.** `P(White scores) = σ(β₀ + Σ_r β_r·Δ_r)`, where `Δ_r` is White's count of role `r`
//! minus Black's (pawn to queen) in a sampled position, fitted by maximum likelihood with the
//! game's result as a fractional response (win 1, draw ½, loss 0), as in Bååth's and Medvedev's
//! studies. A role's value is `β_r / β_pawn`; `β₀ / β_pawn` is White's first-move advantage in
//! pawns. Intervals are bootstrap percentiles over games (resampled whole, so the correlation of
//! positions within a game is kept), seeded and deterministic.
//!
//! **Sampling.** Positions after ply `skip_plies`, every `every` plies, leaving out positions in
//! check and positions right after a capture (a recapture is usually pending, so the count
//! difference is not yet the material balance).
//!
//! **Fit.** Newton's method in [`stackchess_stats::logistic`] (why not linfa-logistic: see there).
//! A light ridge penalty (`ridge`, on the slopes only) keeps the fit finite when a small sample
//! separates perfectly and gives a role that never differs a slope of zero.
//!
//! **Speed.** Sampled positions repeat: a variant's tens of thousands of positions hold a few
//! thousand distinct (differences, result) rows. Each is fitted once with its count as weight
//! (the same likelihood, so the same fit up to rounding), and a bootstrap resample is a new set
//! of counts over the same rows; the resamples are fitted on every core (each a function of its
//! seed and number, so the result does not depend on the threads).

use crate::load::GameRow;
use crate::stats::Interval;
use crate::table::Table;
use crate::Result;
use polars::prelude::*;
use stackchess_core::{parse_coord, Color, Position, Role, Rules, SplitMix64};
use stackchess_variants::{Variant, WithPosition};
use std::collections::{BTreeMap, HashMap};

/// The roles valued, in order: pawn, knight, bishop, rook, queen.
pub const ROLES: [Role; 5] = [Role::Pawn, Role::Knight, Role::Bishop, Role::Rook, Role::Queen];

/// Role names for tables.
const ROLE_NAMES: [&str; 5] = ["pawn", "knight", "bishop", "rook", "queen"];

/// How positions are sampled and the model fitted.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PieceOptions {
    /// Plies skipped at the start of each game.
    pub skip_plies: usize,
    /// Sample every this many plies.
    pub every: usize,
    /// Bootstrap resamples (0: no intervals).
    pub bootstrap: usize,
    /// Seed of the bootstrap.
    pub seed: u64,
    /// L2 penalty on the slopes (the log-likelihood is a sum over rows).
    pub ridge: f64,
    /// A role whose difference is non-zero in fewer sampled positions gets no value.
    pub min_nonzero: usize,
}

impl Default for PieceOptions {
    fn default() -> Self {
        PieceOptions { skip_plies: 8, every: 2, bootstrap: 200, seed: 1, ridge: 1.0, min_nonzero: 10 }
    }
}

/// A fitted model: intercept and one slope per role of [`ROLES`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Fit {
    /// β₀: White's advantage at equal material, in logits.
    pub intercept: f64,
    /// β per role, in logits per piece.
    pub slopes: [f64; 5],
}

impl Fit {
    /// Slopes divided by the pawn's, and the intercept in pawns; `None` unless the pawn's slope is
    /// positive.
    #[must_use]
    pub fn normalised(&self) -> Option<([f64; 5], f64)> {
        let p = self.slopes[0];
        (p > 0.0).then(|| (self.slopes.map(|b| b / p), self.intercept / p))
    }
}

/// Fits `P(White scores) = σ(β₀ + β·Δ)` to positions `x` with White's points `y` (1, ½ or 0):
/// see [`stackchess_stats::logistic::fit`].
///
/// # Errors
/// No positions, or a singular problem.
pub fn fit_logistic(x: &[[f64; 5]], y: &[f64], ridge: f64) -> Result<Fit, String> {
    let b = stackchess_stats::logistic::fit(x, y, ridge)?;
    Ok(Fit { intercept: b[0], slopes: [b[1], b[2], b[3], b[4], b[5]] })
}

/// [`fit_logistic`] with a weight (a count) per row.
///
/// # Errors
/// No positions, or a singular problem.
pub fn fit_logistic_weighted(x: &[[f64; 5]], y: &[f64], w: &[f64], ridge: f64) -> Result<Fit, String> {
    let b = stackchess_stats::logistic::fit_weighted(x, y, w, ridge)?;
    Ok(Fit { intercept: b[0], slopes: [b[1], b[2], b[3], b[4], b[5]] })
}

/// The sampled material differences of one game.
#[derive(Clone, Debug, PartialEq)]
pub struct GameSamples {
    /// White's points in the game.
    pub white_points: f64,
    /// Per sampled position: White's minus Black's count of each role of [`ROLES`].
    pub diffs: Vec<[i32; 5]>,
}

struct Replay<'a> {
    game: &'a GameRow,
    opts: PieceOptions,
}

impl WithPosition for Replay<'_> {
    type Output = Result<Vec<[i32; 5]>, String>;
    fn call<P: Position>(self, rules: P::Rules) -> Self::Output {
        let mut pos = if self.game.start_lfen.trim().is_empty() {
            rules.startpos()
        } else {
            rules.from_lfen(&self.game.start_lfen).map_err(|e| format!("start_lfen: {e}"))?
        };
        let mut out = Vec::new();
        for (i, text) in self.game.moves.split_whitespace().enumerate() {
            let m = parse_coord(&pos, text).map_err(|e| format!("ply {} ('{text}'): {}", i + 1, e.reason))?;
            let capture = pos.captured(m).is_some();
            pos.play_unchecked(m);
            let ply = i + 1;
            if ply >= self.opts.skip_plies && ply % self.opts.every.max(1) == 0 && !capture && !pos.is_check() {
                out.push(material_diff(&pos));
            }
        }
        Ok(out)
    }
}

/// White's minus Black's count of each role of [`ROLES`].
#[must_use]
pub fn material_diff<P: Position>(pos: &P) -> [i32; 5] {
    let mut d = [0; 5];
    pos.for_each_piece(|_, p| {
        if let Some(i) = ROLES.iter().position(|&r| r == p.role) {
            d[i] += if p.color == Color::White { 1 } else { -1 };
        }
    });
    d
}

/// Replays a game and samples it.
///
/// # Errors
/// An unknown variant, a bad start position, or a move that is not legal (naming the ply).
pub fn sample_game(game: &GameRow, opts: PieceOptions) -> Result<GameSamples, String> {
    let variant: Variant = game.variant.parse().map_err(|e: stackchess_variants::VariantError| e.to_string())?;
    let diffs = variant.with(Replay { game, opts })?;
    Ok(GameSamples { white_points: game.white_points, diffs })
}

/// Piece values of one variant.
#[derive(Clone, Debug, PartialEq)]
pub struct PieceValues {
    /// Variant name.
    pub variant: String,
    /// Games used.
    pub games: usize,
    /// Games that could not be replayed.
    pub skipped: usize,
    /// Why the first skipped game could not be replayed (`game_id: reason`).
    pub first_error: Option<String>,
    /// Sampled positions.
    pub positions: usize,
    /// Positions where each role's difference is non-zero.
    pub nonzero: [usize; 5],
    /// The fit on all games, or why it failed.
    pub fit: Result<Fit, String>,
    /// Bootstrap percentile intervals of the normalised values, and of the first-move advantage.
    pub intervals: Option<([Interval; 5], Interval)>,
    /// Bootstrap resamples that gave a usable fit.
    pub resamples: usize,
}

/// One bootstrap replicate: normalised values and first-move advantage.
type Draw = ([f64; 5], f64);

/// The distinct (differences, White's points) rows of a variant's samples, and each game's rows
/// as (row, count).
struct Compressed {
    x: Vec<[f64; 5]>,
    y: Vec<f64>,
    games: Vec<Vec<(usize, f64)>>,
}

impl Compressed {
    fn new(samples: &[GameSamples]) -> Compressed {
        let mut ids: HashMap<([i32; 5], u8), usize> = HashMap::new();
        let (mut x, mut y) = (Vec::new(), Vec::new());
        let games = samples
            .iter()
            .map(|g| {
                let mut counts: BTreeMap<usize, f64> = BTreeMap::new();
                let half = (g.white_points * 2.0).round() as u8;
                for d in &g.diffs {
                    let id = *ids.entry((*d, half)).or_insert_with(|| {
                        x.push(d.map(f64::from));
                        y.push(g.white_points);
                        x.len() - 1
                    });
                    *counts.entry(id).or_default() += 1.0;
                }
                counts.into_iter().collect()
            })
            .collect();
        Compressed { x, y, games }
    }

    /// The fit with each game counted `times[g]` times, over the rows with a positive count.
    fn fit(&self, times: impl Iterator<Item = (usize, f64)>, ridge: f64) -> Result<Fit, String> {
        let mut w = vec![0.0; self.x.len()];
        for (g, t) in times {
            for &(row, count) in &self.games[g] {
                w[row] += t * count;
            }
        }
        let used: Vec<usize> = (0..w.len()).filter(|&i| w[i] > 0.0).collect();
        let x: Vec<[f64; 5]> = used.iter().map(|&i| self.x[i]).collect();
        let y: Vec<f64> = used.iter().map(|&i| self.y[i]).collect();
        let w: Vec<f64> = used.iter().map(|&i| w[i]).collect();
        fit_logistic_weighted(&x, &y, &w, ridge)
    }
}

/// Bootstrap replicate `b`: games drawn with replacement from `SplitMix64::for_item(seed, b)`.
fn replicate(data: &Compressed, b: usize, opts: PieceOptions) -> Option<Draw> {
    let n = data.games.len();
    let mut rng = SplitMix64::for_item(opts.seed, b as u64);
    let mut times: BTreeMap<usize, f64> = BTreeMap::new();
    for _ in 0..n {
        *times.entry(rng.below(n)).or_default() += 1.0;
    }
    data.fit(times.into_iter(), opts.ridge).ok().and_then(|f| f.normalised())
}

/// The replicates `0..count`, computed on every core, in order.
fn bootstrap(data: &Compressed, count: usize, opts: PieceOptions) -> Vec<Option<Draw>> {
    let threads = std::thread::available_parallelism().map_or(1, std::num::NonZero::get).min(count.max(1));
    let mut out = vec![None; count];
    std::thread::scope(|scope| {
        let workers: Vec<_> = (0..threads)
            .map(|t| {
                scope.spawn(move || {
                    (t..count).step_by(threads).map(|b| (b, replicate(data, b, opts))).collect::<Vec<_>>()
                })
            })
            .collect();
        for w in workers {
            // A worker that panicked lost its replicates: they count as failed fits.
            for (b, d) in w.join().unwrap_or_default() {
                out[b] = d;
            }
        }
    });
    out
}

/// The `q` quantile of sorted values, linear interpolation.
fn quantile(sorted: &[f64], q: f64) -> f64 {
    let pos = q * (sorted.len() - 1) as f64;
    let (i, frac) = (pos.floor() as usize, pos.fract());
    match sorted.get(i + 1) {
        Some(next) => sorted[i] + frac * (next - sorted[i]),
        None => sorted[i],
    }
}

/// Estimates the piece values of one variant from its games' samples.
#[must_use]
pub fn estimate(
    variant: &str,
    samples: &[GameSamples],
    skipped: usize,
    first_error: Option<String>,
    opts: PieceOptions,
) -> PieceValues {
    let mut nonzero = [0; 5];
    let mut positions = 0;
    for d in samples.iter().flat_map(|g| &g.diffs) {
        positions += 1;
        for (n, v) in nonzero.iter_mut().zip(d) {
            *n += usize::from(*v != 0);
        }
    }
    let data = Compressed::new(samples);
    let fit = if positions == 0 {
        fit_logistic(&[], &[], opts.ridge)
    } else {
        data.fit((0..samples.len()).map(|g| (g, 1.0)), opts.ridge)
    };
    let draws: Vec<Draw> = if fit.is_ok() && !samples.is_empty() {
        bootstrap(&data, opts.bootstrap, opts).into_iter().flatten().collect()
    } else {
        Vec::new()
    };
    let intervals = (draws.len() >= 2).then(|| {
        let interval = |get: &dyn Fn(&Draw) -> f64| {
            let mut v: Vec<f64> = draws.iter().map(get).collect();
            v.sort_by(f64::total_cmp);
            Interval { lo: quantile(&v, 0.025), hi: quantile(&v, 0.975) }
        };
        let roles = [0, 1, 2, 3, 4].map(|i| interval(&|d| d.0[i]));
        (roles, interval(&|d| d.1))
    });
    PieceValues {
        variant: variant.to_owned(),
        games: samples.len(),
        skipped,
        first_error,
        positions,
        nonzero,
        fit,
        intervals,
        resamples: draws.len(),
    }
}

/// Piece values of every variant in `rows` (settings pooled). The games are taken in the order of
/// their ids, so that the bootstrap does not depend on the order they were written in (parallel
/// self-play writes them as they finish).
#[must_use]
pub fn piece_values(rows: &[GameRow], opts: PieceOptions) -> Vec<PieceValues> {
    let mut by_variant: BTreeMap<&str, (Vec<GameSamples>, usize, Option<String>)> = BTreeMap::new();
    let mut ordered: Vec<&GameRow> = rows.iter().collect();
    ordered.sort_by(|a, b| a.game_id.cmp(&b.game_id));
    for g in ordered {
        let entry = by_variant.entry(&g.variant).or_default();
        match sample_game(g, opts) {
            Ok(s) => entry.0.push(s),
            Err(e) => {
                entry.1 += 1;
                entry.2.get_or_insert_with(|| format!("{}: {e}", g.game_id));
            }
        }
    }
    by_variant.into_iter().map(|(v, (s, skipped, err))| estimate(v, &s, skipped, err, opts)).collect()
}

/// One row per variant and role (pawn = 1), and one for White's first-move advantage in pawns.
///
/// # Errors
/// A polars error.
pub fn pieces_table(values: &[PieceValues], opts: PieceOptions) -> Result<Table> {
    let mut variant = Vec::new();
    let mut role = Vec::new();
    let mut value = Vec::new();
    let (mut lo, mut hi, mut slope, mut nonzero) = (Vec::new(), Vec::new(), Vec::new(), Vec::new());
    let (mut games, mut positions) = (Vec::new(), Vec::new());
    for pv in values {
        let fit = pv.fit.as_ref().ok();
        let norm = fit.and_then(Fit::normalised);
        for i in 0..6 {
            variant.push(pv.variant.clone());
            games.push(pv.games as i64);
            positions.push(pv.positions as i64);
            let iv = pv.intervals.map(|(r, a)| if i < 5 { r[i] } else { a });
            if i < 5 {
                role.push(ROLE_NAMES[i]);
                let enough = pv.nonzero[i] >= opts.min_nonzero;
                value.push(norm.filter(|_| enough).map(|n| n.0[i]));
                lo.push(iv.filter(|_| enough).map(|v| v.lo));
                hi.push(iv.filter(|_| enough).map(|v| v.hi));
                slope.push(fit.map(|f| f.slopes[i]));
                nonzero.push(Some(pv.nonzero[i] as i64));
            } else {
                role.push("first-move");
                value.push(norm.map(|n| n.1));
                lo.push(iv.map(|v| v.lo));
                hi.push(iv.map(|v| v.hi));
                slope.push(fit.map(|f| f.intercept));
                nonzero.push(None);
            }
        }
    }
    let df = DataFrame::new_infer_height(vec![
        Column::new("variant".into(), variant),
        Column::new("role".into(), role),
        Column::new("value".into(), value),
        Column::new("value_lo".into(), lo),
        Column::new("value_hi".into(), hi),
        Column::new("logit".into(), slope),
        Column::new("nonzero_positions".into(), nonzero),
        Column::new("games".into(), games),
        Column::new("positions".into(), positions),
    ])?;
    let title = format!(
        "Piece values (pawn = 1; logistic regression of the result on material differences, {} bootstrap resamples, 95%)",
        opts.bootstrap
    );
    Ok(Table::new("pieces", title, df))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sigmoid(z: f64) -> f64 {
        1.0 / (1.0 + (-z).exp())
    }

    #[test]
    fn fit_recovers_exact_maximum_likelihood() {
        // x = 0: one win, one loss (p = ½); x_pawn = 1: three wins, one loss (p = ¾).
        // MLE: β₀ = 0, β_pawn = ln 3. Draws count as half a win: a draw at x = 0 keeps p = ½.
        let mut x = vec![[0.0; 5]; 3];
        let mut y = vec![1.0, 0.0, 0.5];
        for r in [1.0, 1.0, 1.0, 0.0] {
            x.push([1.0, 0.0, 0.0, 0.0, 0.0]);
            y.push(r);
        }
        let f = fit_logistic(&x, &y, 1e-9).unwrap();
        assert!(f.intercept.abs() < 1e-4, "{f:?}");
        assert!((f.slopes[0] - 3f64.ln()).abs() < 1e-4, "{f:?}");
        // Roles that never differ stay at zero.
        assert!(f.slopes[1..].iter().all(|b| b.abs() < 1e-6), "{f:?}");
        // Mirrored (losses now the majority): the slope changes sign, whichever class linfa calls positive.
        let y: Vec<f64> = y.iter().map(|r| 1.0 - r).collect();
        let g = fit_logistic(&x, &y, 1e-9).unwrap();
        assert!((g.slopes[0] + 3f64.ln()).abs() < 1e-4 && g.intercept.abs() < 1e-4, "{g:?}");
    }

    #[test]
    fn fit_recovers_a_simulated_model() {
        let truth = [0.5, 1.5, 1.6, 2.5, 4.5];
        let mut rng = SplitMix64(7);
        let (mut x, mut y) = (Vec::new(), Vec::new());
        for _ in 0..6000 {
            let row =
                [0, 1, 2, 3, 4].map(|i| rng.below(if i == 0 { 7 } else { 3 }) as f64 - if i == 0 { 3.0 } else { 1.0 });
            let z = 0.2 + row.iter().zip(truth).map(|(a, b)| a * b).sum::<f64>();
            let u = rng.next_u64() as f64 / u64::MAX as f64;
            x.push(row);
            y.push(if u < sigmoid(z) { 1.0 } else { 0.0 });
        }
        let f = fit_logistic(&x, &y, 1.0).unwrap();
        let (values, _) = f.normalised().unwrap();
        for (i, v) in values.iter().enumerate() {
            let want = truth[i] / truth[0];
            assert!((v - want).abs() < 0.25 * want, "role {i}: {v} v {want}; {f:?}");
        }
        assert!(fit_logistic(&[], &[], 1.0).is_err());
    }

    #[test]
    fn bootstrap_is_seeded_and_brackets_the_estimate() {
        let mut rng = SplitMix64(3);
        let games: Vec<GameSamples> = (0..80)
            .map(|_| {
                let d = rng.below(5) as i32 - 2;
                let p = sigmoid(0.8 * f64::from(d));
                let u = rng.next_u64() as f64 / u64::MAX as f64;
                let points = if u < p { 1.0 } else { 0.0 };
                GameSamples { white_points: points, diffs: vec![[d, 0, 0, 0, 0]; 3] }
            })
            .collect();
        let opts = PieceOptions { bootstrap: 30, ..PieceOptions::default() };
        let a = estimate("malka", &games, 0, None, opts);
        let b = estimate("malka", &games, 0, None, opts);
        assert_eq!(a, b);
        let (roles, first) = a.intervals.unwrap();
        assert!(roles[0].lo == 1.0 && roles[0].hi == 1.0, "pawn is the unit: {roles:?}");
        let (_, adv) = a.fit.as_ref().unwrap().normalised().unwrap();
        assert!(first.lo <= adv && adv <= first.hi, "{first:?} {adv}");
        assert_eq!((a.positions, a.nonzero[0], a.resamples), (240, a.nonzero[0], 30));
    }
}
