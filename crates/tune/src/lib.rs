//! Texel tuning: the evaluation parameters of a rule set, learned from its own self-play games.
//!
//! Each round plays games with the current parameters ([`stackchess_selfplay`]), samples the
//! quiet positions of every game so far ([`data::sample`]) and fits every evaluation term to the
//! game results by minimising the logistic loss ([`fit`]); the fitted parameters play the next
//! round. [`Cache`] keeps results by rule-set id and settings. The library prints nothing:
//! callers follow the rounds through [`Hook`]. Method and reading: docs/tuning.md.

pub mod cache;
pub mod data;
pub mod fit;
mod rounds;

pub use cache::Cache;
pub use data::{read_games, Dataset};
pub use fit::{fit, Fit, FitError, FitOptions};
pub use rounds::{round_dir, tune, Hook, NoHook, Round, Settings};

use std::path::PathBuf;

/// Why tuning failed.
#[derive(Debug, thiserror::Error)]
pub enum TuneError {
    /// Self-play of a round failed.
    #[error("round {round}: self-play: {message}")]
    SelfPlay {
        /// The round.
        round: u32,
        /// What failed.
        message: String,
    },
    /// Stopped during a round's games.
    #[error(
        "interrupted in round {round} with {done} of {games} games recorded: run the same command again to resume"
    )]
    Interrupted {
        /// The round.
        round: u32,
        /// Games recorded.
        done: u64,
        /// Games the round has.
        games: u64,
    },
    /// A record directory could not be read.
    #[error("reading the records of {}: {message}", dir.display())]
    Records {
        /// The directory.
        dir: PathBuf,
        /// What failed.
        message: String,
    },
    /// A record does not replay.
    #[error("{0}")]
    Replay(String),
    /// A file or directory could not be written or read.
    #[error("{}: {message}", path.display())]
    Io {
        /// The path.
        path: PathBuf,
        /// What failed.
        message: String,
    },
    /// The fit failed.
    #[error(transparent)]
    Fit(#[from] FitError),
}
