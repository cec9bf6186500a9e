//! What can go wrong in a run; each error names the file, line or setting concerned.

use std::path::{Path, PathBuf};

/// A self-play error.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// Reading or writing a file failed.
    #[error("{}: {error}", path.display())]
    Io {
        /// The file.
        path: PathBuf,
        /// The cause (part of the message, so not also a `source`).
        error: std::io::Error,
    },
    /// A record file or game file is damaged before its last record.
    #[error("{}, line {line}: {message} (the file is damaged; repair or remove it)", path.display())]
    Corrupt {
        /// The file.
        path: PathBuf,
        /// The line, from 1.
        line: u64,
        /// What was wrong.
        message: String,
    },
    /// Reading or writing a record file failed (the file and line are named).
    #[error(transparent)]
    Records(#[from] stackchess_records::Error),
    /// The manifest could not be read or written.
    #[error("{}: {message}", path.display())]
    Manifest {
        /// The file.
        path: PathBuf,
        /// What was wrong.
        message: String,
    },
    /// Writing the run's files failed (a full disk, a file-size limit, a read-only file system):
    /// the run stopped with every game written before it kept.
    #[error(
        "{0}: the run stopped; the games written before are kept, and resuming the run once writing \
         works again plays the rest"
    )]
    Write(Box<Error>),
    /// `--resume` with settings that differ from the run being resumed.
    #[error("cannot resume the run in {}: its settings differ ({differences}); use the same settings or a new directory", dir.display())]
    SettingsDiffer {
        /// The run's directory.
        dir: PathBuf,
        /// Which settings differ, `name: old -> new`.
        differences: String,
    },
    /// The output directory holds a run already.
    #[error("{} is not empty: pass --resume to continue the run there, or choose a new directory", .0.display())]
    NotEmpty(PathBuf),
    /// `--resume` on a directory without a run.
    #[error("nothing to resume in {}: no manifest.json", .0.display())]
    NothingToResume(PathBuf),
    /// A bad opening specification or opening file.
    #[error("openings: {0}")]
    Openings(String),
    /// A bad setting.
    #[error("{0}")]
    Config(String),
    /// A game could not be played (an engine returned no move in a position with legal moves).
    #[error("game {index}: {message}")]
    Game {
        /// The game index.
        index: u64,
        /// What went wrong.
        message: String,
    },
}

impl Error {
    pub(crate) fn io(path: &Path, error: std::io::Error) -> Error {
        Error::Io { path: path.to_owned(), error }
    }
    pub(crate) fn corrupt(path: &Path, line: u64, message: impl Into<String>) -> Error {
        Error::Corrupt { path: path.to_owned(), line, message: message.into() }
    }
}
