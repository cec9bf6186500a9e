//! Training data from self-play, for `tune` (the linear evaluation) and `train` (the network).
//!
//! A run plays games with the engine ([`stackchess_selfplay::GamePlayer`]: the games a self-play
//! run would record), keeps a few quiet positions of each ([`sample`]: not in check, no capture
//! or promotion played, static and quiescence scores within a margin for both sides to move,
//! no opening ply, no mate score, de-duplicated by hash), labels each with a deeper search
//! or the game's own search score, and appends them to a data file ([`format`]) with the game's
//! result. Games are played in batches, each committed whole, so a stopped run resumes at the
//! first batch not committed and writes exactly the file an uninterrupted run writes. Layout
//! and reading: docs/datagen.md.

pub mod format;
pub mod label;
pub mod pack;
mod run;
pub mod sample;

pub use format::{DataFile, DataReader, DataWriter, Header, Record, WhiteResult};
pub use label::{blend, sigmoid, Labels};
pub use pack::Packed;
pub use run::{generate, merge, Hook, NoHook, Settings, Summary};

use std::path::PathBuf;

/// Why reading or writing data failed.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// A file could not be read or written.
    #[error("{}: {message}", path.display())]
    Io {
        /// The file.
        path: PathBuf,
        /// What failed.
        message: String,
    },
    /// A file that is not a data file, or is damaged.
    #[error("{}: {message}", path.display())]
    Format {
        /// The file.
        path: PathBuf,
        /// What is wrong, and where.
        message: String,
    },
    /// A data file of another rule set.
    #[error("{}: the data is of rule set {found}, not {expected} (the rule set asked for)", path.display())]
    OtherRules {
        /// The file.
        path: PathBuf,
        /// The rule-set id of the file.
        found: String,
        /// The rule-set id asked for.
        expected: String,
    },
    /// Settings that cannot work, or a resume with other settings.
    #[error("{0}")]
    Config(String),
    /// A game could not be played or replayed.
    #[error("{0}")]
    Game(String),
    /// Stopped before every game was done; the file holds every committed batch.
    #[error("interrupted with {done} of {games} games in the data file: run the same command again to resume")]
    Interrupted {
        /// Games committed.
        done: u64,
        /// Games asked for.
        games: u64,
    },
}

impl Error {
    pub(crate) fn io(path: &std::path::Path, e: &std::io::Error) -> Error {
        Error::Io { path: path.to_owned(), message: e.to_string() }
    }
}
