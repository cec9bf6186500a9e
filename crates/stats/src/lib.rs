//! Statistics of game results, in plain functions with no dependencies: the one place for each.
//!
//! - [`normal`]: Φ, `erfc`, the 95% quantile.
//! - [`elo`]: W/D/L counts ([`Wdl`]), pentanomial pair counts ([`Penta`]), score ↔ Elo, and the
//!   match estimates of cutechess-cli and fastchess ([`EloEstimate`]: Elo ± interval, LOS, nElo).
//! - [`interval`]: Wilson and Wald intervals, clustered (pentanomial) score variances,
//!   differences of means and proportions with z-tests, entropy.
//! - [`sprt`]: the sequential probability ratio test in the normalized and logistic models.
//! - [`logistic`]: weighted logistic regression with fractional responses (Newton's method).
//! - [`ratings`]: maximum-likelihood ratings of N players from a results table (as Ordo and
//!   `BayesElo` do), with intervals.
//! - [`trend`]: a weighted straight-line fit through estimates with their errors (a metric
//!   against the log of the budget), its slope's interval and predictions marked when extrapolated.
//!
//! Every variance is the maximum-likelihood one (divided by the count), as in cutechess-cli and
//! fastchess; intervals are two-sided at the level given by `z` ([`Z95`] for 95%).

pub mod elo;
pub mod interval;
pub mod logistic;
pub mod normal;
pub mod ratings;
pub mod sprt;
pub mod trend;

pub use elo::{elo_to_score, score_to_elo, EloEstimate, Penta, Wdl};
pub use interval::{
    clustered_score, elo_interval, entropy_bits, mean_difference, proportion_difference, score_interval, wilson,
    ClusteredScore, Difference, Interval,
};
pub use normal::{erfc, normal_cdf, Z95};
pub use ratings::{fit_ratings, Anchor, DrawModel, RatingFit, RatingInterval, Results};
pub use sprt::{Sprt, SprtDecision, SprtModel};
pub use trend::{fit_line, Line, Point, Prediction};
