//! Errors of reading and writing records; each names the file, and the line where there is one.

use std::path::{Path, PathBuf};

/// A records error.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// Reading or writing a file failed.
    #[error("{}: {error}", path.display())]
    Io {
        /// The file.
        path: PathBuf,
        /// The cause.
        error: std::io::Error,
    },
    /// A file with no bytes (or only blanks).
    #[error("{}: empty file (expected a header line starting with '{expected}')", path.display())]
    Empty {
        /// The file.
        path: PathBuf,
        /// The start of the header expected.
        expected: &'static str,
    },
    /// A header that is no schema version's.
    #[error("{}: header does not match the {table} schema: {detail}", path.display())]
    Header {
        /// The file.
        path: PathBuf,
        /// `games.csv` or `plies.csv`.
        table: &'static str,
        /// Missing, extra or misplaced columns.
        detail: String,
    },
    /// A bad record.
    #[error("{}:{line}: {detail}", path.display())]
    Record {
        /// The file.
        path: PathBuf,
        /// 1-based line where the record starts.
        line: u64,
        /// What is wrong.
        detail: String,
    },
    /// A run directory another process is writing.
    #[error(
        "{}: in use by {holder} (its lock {} is held): two processes cannot write one run; wait for it \
         to finish or stop it (a lock left by a killed process is free and taken over by itself)",
        dir.display(),
        path.display()
    )]
    Locked {
        /// The run directory.
        dir: PathBuf,
        /// Its lock file.
        path: PathBuf,
        /// Who holds it, as the lock file says.
        holder: String,
    },
    /// Two files of a run that disagree (plies that do not match their games).
    #[error("{}: {detail}", path.display())]
    Inconsistent {
        /// The file at fault.
        path: PathBuf,
        /// What disagrees.
        detail: String,
    },
}

impl Error {
    pub(crate) fn io(path: &Path, error: std::io::Error) -> Error {
        Error::Io { path: path.to_owned(), error }
    }
    pub(crate) fn record(path: &Path, line: u64, detail: impl Into<String>) -> Error {
        Error::Record { path: path.to_owned(), line, detail: detail.into() }
    }
}
