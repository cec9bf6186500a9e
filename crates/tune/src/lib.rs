//! Tuning: the evaluation fitted to scored self-play positions, and search constants tuned by play.
//!
//! The evaluation ([`tune`], docs/tuning.md): positions from a data file ([`stackchess_datagen`]:
//! quiet positions of games played by the current engine, labelled by a deeper search) become
//! rows of features ([`rows`]); [`fit`] finds the parameters whose predictions best match the
//! targets (a blend of the deep score and the game's result), pulled toward the rule set's preset
//! and kept within bounds; the preset and the fit are scored on the same held-out games, and the
//! bootstrap over games gives each term a standard error. [`Cache`] keeps results by rule-set id
//! and settings. [`spsa`] tunes any numeric parameter (the search's margins and reductions) by
//! playing `θ+δ` against `θ−δ`, as `OpenBench` and fishtest do. The library prints nothing: callers
//! follow it through hooks.

pub mod bootstrap;
pub mod cache;
pub mod fit;
mod pipeline;
pub mod rows;
pub mod spsa;
pub mod spsa_games;
pub mod synthetic;

pub use cache::Cache;
pub use fit::{best_k, fit, loss, Fit, FitError, FitOptions};
pub use pipeline::{tune, Hook, Losses, NoHook, Outcome, Settings};
pub use rows::Rows;

/// Why tuning failed.
#[derive(Debug, thiserror::Error)]
pub enum TuneError {
    /// The data could not be made or read.
    #[error(transparent)]
    Data(#[from] stackchess_datagen::Error),
    /// A position of the data that the rules refuse.
    #[error("the data: {0}")]
    Rows(String),
    /// The fit failed.
    #[error(transparent)]
    Fit(#[from] FitError),
    /// A file could not be written or read.
    #[error("{}: {message}", path.display())]
    Io {
        /// The path.
        path: std::path::PathBuf,
        /// What failed.
        message: String,
    },
}
