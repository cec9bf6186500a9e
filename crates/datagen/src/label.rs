//! Training targets: a blend of what the search thought of a position and how its game ended.

/// The expected score of a position `cp` centipawns ahead: `1 / (1 + 10^(−cp / scale))` (at
/// `scale` 400, 400 cp are ten-to-one odds, as in the Elo formula).
#[must_use]
pub fn sigmoid(cp: f64, scale: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-cp / scale))
}

/// How positions are labelled.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Labels {
    /// The weight of the score: the target is `λ·σ(score) + (1 − λ)·result` (0: the result alone,
    /// Texel's original method; 1: the score alone).
    pub lambda: f64,
    /// The sigmoid's scale in centipawns ([`sigmoid`]).
    pub scale: f64,
}

/// The deep score alone: on Malka, fits with half the target from the results of 1000-node games
/// played 166 Elo weaker than the preset, the score-only fit level with it (data/tuned/README.md).
impl Default for Labels {
    fn default() -> Self {
        Labels { lambda: 1.0, scale: 400.0 }
    }
}

impl Labels {
    /// White's target for a position scored `score` cp for White whose game White scored
    /// `result` (1, ½, 0; `None` for a game stopped by the move cap, which is labelled by its score alone).
    #[must_use]
    pub fn target(&self, score: f64, result: Option<f64>) -> f64 {
        blend(score, result, self.lambda, self.scale)
    }
}

/// `λ·σ(score) + (1 − λ)·result`, or `σ(score)` when there is no result.
#[must_use]
pub fn blend(score: f64, result: Option<f64>, lambda: f64, scale: f64) -> f64 {
    let s = sigmoid(score, scale);
    match result {
        Some(r) => lambda * s + (1.0 - lambda) * r,
        None => s,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_won_position_of_a_lost_game_gets_the_blend() {
        // +400 cp for White is σ = 10/11; the game was lost (0): at λ = 0.75 the target is 0.75·10/11.
        let t = Labels { lambda: 0.75, scale: 400.0 }.target(400.0, Some(0.0));
        assert!((t - 0.75 * 10.0 / 11.0).abs() < 1e-12, "{t}");
        // λ = 0 is the result alone, λ = 1 the score alone; no result is the score alone.
        assert_eq!(blend(400.0, Some(0.0), 0.0, 400.0), 0.0);
        assert!((blend(400.0, Some(0.0), 1.0, 400.0) - 10.0 / 11.0).abs() < 1e-12);
        assert!((blend(-400.0, None, 0.3, 400.0) - 1.0 / 11.0).abs() < 1e-12);
        assert_eq!(sigmoid(0.0, 400.0), 0.5);
    }
}
