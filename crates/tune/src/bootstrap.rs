//! Standard errors by the bootstrap over games: refit on resamples of the games (with
//! replacement, each game's positions weighted by how often it was drawn).

use crate::fit::{fit, Fit, FitError, FitOptions};
use crate::rows::Rows;
use stackchess_core::SplitMix64;
use stackchess_search::EvalParams;
use std::collections::HashMap;

/// The standard error of every fitted parameter over `resamples` resamples of the games of
/// `rows` (0 for parameters not fitted), each refit from `fitted` (at most `max_iters`
/// iterations), drawn from `seed`. `on_resample` is called after each.
///
/// # Errors
/// A refit that fails.
pub fn standard_errors(
    rows: &Rows,
    fitted: &Fit,
    prior: &EvalParams,
    opts: &FitOptions,
    resamples: usize,
    seed: u64,
    on_resample: &mut dyn FnMut(usize),
) -> Result<[f64; EvalParams::COUNT], FitError> {
    let mut games: Vec<u64> = rows.game.clone();
    games.sort_unstable();
    games.dedup();
    let slot: HashMap<u64, usize> = games.iter().enumerate().map(|(i, &g)| (g, i)).collect();
    let mut sum = [0.0f64; EvalParams::COUNT];
    let mut sq = [0.0f64; EvalParams::COUNT];
    let opts = FitOptions { max_iters: opts.max_iters.min(150), ..opts.clone() };
    for r in 0..resamples {
        let mut rng = SplitMix64::for_item(seed ^ 0xB007_57A9, r as u64);
        let mut drawn = vec![0u32; games.len()];
        for _ in 0..games.len() {
            drawn[rng.below(games.len())] += 1;
        }
        let weights: Vec<f32> = rows.game.iter().map(|g| drawn[slot[g]] as f32).collect();
        let refit = fit(rows, Some(&weights), &fitted.params, prior, &opts)?;
        for (j, v) in refit.params.values().iter().enumerate() {
            let v = f64::from(*v);
            sum[j] += v;
            sq[j] += v * v;
        }
        on_resample(r + 1);
    }
    let n = resamples.max(2) as f64;
    Ok(std::array::from_fn(|j| {
        if !fitted.fitted[j] || resamples < 2 {
            return 0.0;
        }
        let mean = sum[j] / n;
        ((sq[j] / n - mean * mean).max(0.0) * n / (n - 1.0)).sqrt()
    }))
}
