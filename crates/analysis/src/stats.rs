//! The statistics the tables use. They live in `stackchess-stats` (one definition each, shared
//! with self-play and tested there against hand-computed values); this module names them for the
//! analysis: `elo` is `−400·log10(1/s − 1)`, ±∞ at 0 and 1 and `NaN` outside `[0, 1]`.

pub use stackchess_stats::{
    clustered_score, elo_interval, entropy_bits, erfc, mean_difference, normal_cdf, proportion_difference,
    score_interval, score_to_elo as elo, wilson, ClusteredScore, Difference, Interval, Penta, Wdl, Z95,
};
