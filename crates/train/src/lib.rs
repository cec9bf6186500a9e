//! Training the neural evaluation on the CPU (docs/nnue.md).
//!
//! Positions of data files become samples ([`Samples`]: each side's active inputs and a target,
//! `λ·σ(score) + (1 − λ)·result`); [`train`] fits a [`stackchess_nnue::FloatNet`] by Adam on
//! mini-batches, the first layer sparse (a position touches only its pieces' rows), with a
//! learning rate that falls by a tenth for the last quarter of the epochs, a held-out split by
//! game, and the loss of every epoch reported. A batch is cut into a fixed number of chunks whose
//! gradients are added in order, so a run is the same for a seed on any number of threads.

pub mod generations;
mod samples;
mod trainer;

pub use samples::{base_scores, prepare, samples_of, Prepared, Samples, Split};
pub use trainer::{base_mse, mse, train, Epoch, Expansion, Hook, NoHook, Options, Trained};

/// Why training failed.
#[derive(Debug, thiserror::Error)]
pub enum TrainError {
    /// The data could not be read.
    #[error(transparent)]
    Data(#[from] stackchess_datagen::Error),
    /// Settings that cannot work.
    #[error("{0}")]
    Config(String),
}
