//! Rows drawn from a known model, for the fitter's tests and benchmarks.

use crate::fit::C;
use crate::rows::Rows;
use stackchess_search::EvalParams;

/// Rows drawn from a known model, for tests and benchmarks: `n` rows of features shaped like real
/// ones (material differences of −2 to 2, other terms' differences of −6 to 6, each split between
/// the phases by a random game phase, a tempo of ±1, a tenth of the rows drawish), each with the
/// target the model gives: `σ(c·k·s)` for `params` (legal-move mobility and mop-up left out).
#[must_use]
pub fn synthetic(n: usize, params: &EvalParams, k: f64, seed: u64) -> Rows {
    use stackchess_core::SplitMix64;
    let mut rng = SplitMix64::for_item(seed, 0);
    let mut unit = move || (rng.next_u64() >> 11) as f64 / (1u64 << 53) as f64;
    let theta = params.values().map(f64::from);
    let terms = stackchess_search::TERMS.len();
    let tempo = EvalParams::single_index("tempo").unwrap_or(0);
    let mut rows = Rows::new();
    for i in 0..n {
        let mut f = [0.0f64; EvalParams::COUNT];
        let ph = (unit() * 25.0).floor().min(24.0) / 24.0;
        for t in 0..terms {
            let value = stackchess_search::TERMS[t].key.starts_with("value.");
            let d = if value {
                ((unit() * 5.0).floor() - 2.0) * f64::from(u8::from(unit() < 0.4))
            } else {
                (unit() * 13.0).floor() - 6.0
            };
            f[EvalParams::index(t, false)] = d * ph;
            f[EvalParams::index(t, true)] = d * (1.0 - ph);
        }
        f[tempo] = if unit() < 0.5 { 1.0 } else { -1.0 };
        let drawish = unit() < 0.1;
        let lin: f64 = (0..2 * terms).map(|j| f[j] * theta[j]).sum();
        let m = if drawish { f64::from(params.scale_drawish) / 64.0 } else { 1.0 };
        let s = m * lin + f[tempo] * theta[tempo];
        let target = 1.0 / (1.0 + (-C * k * s).exp());
        rows.push(&f, target, drawish, i as u64 / 20);
    }
    rows
}
