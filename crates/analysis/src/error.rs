//! The one error type of the crate: every variant names the file (and line) it is about.

use std::path::PathBuf;

/// What went wrong, and where.
#[derive(Debug, thiserror::Error)]
pub enum AnalysisError {
    /// An input path does not exist.
    #[error("{}: no such file or directory", path.display())]
    NotFound {
        /// The path given.
        path: PathBuf,
    },
    /// A directory without `games.csv` or `games.parquet`.
    #[error("{}: directory has no games.csv or games.parquet (expected a self-play output directory)", path.display())]
    NoGamesFile {
        /// The directory.
        path: PathBuf,
    },
    /// A glob pattern that matches nothing, or is malformed.
    #[error("pattern '{pattern}': {detail}")]
    Pattern {
        /// The pattern.
        pattern: String,
        /// Why it gave nothing.
        detail: String,
    },
    /// Reading or writing a file failed.
    #[error("{}: {source}", path.display())]
    Io {
        /// The file.
        path: PathBuf,
        /// The cause.
        source: std::io::Error,
    },
    /// Games of two different rule sets under one variant name (a rule file changed between runs).
    #[error(
        "variant '{variant}': the games come from two different rule sets under this name (ids {first} and \
         {second}); analyse them separately, or rename one rule set"
    )]
    MixedRules {
        /// The variant name.
        variant: String,
        /// One rules id.
        first: String,
        /// Another.
        second: String,
    },
    /// A record file could not be read: the records crate names the file and line.
    #[error(transparent)]
    Records(#[from] stackchess_records::Error),
    /// A file with no bytes at all.
    #[error("{}: empty file (expected a games.csv header line starting with 'game_id,run_key')", path.display())]
    Empty {
        /// The file.
        path: PathBuf,
    },
    /// A header that is not the games.csv schema.
    #[error("{}: header does not match the games.csv schema: {detail}", path.display())]
    Schema {
        /// The file.
        path: PathBuf,
        /// Missing, extra or misplaced columns.
        detail: String,
    },
    /// A bad record.
    #[error("{}:{line}: {detail}", path.display())]
    Record {
        /// The file.
        path: PathBuf,
        /// 1-based line where the record starts.
        line: usize,
        /// What is wrong.
        detail: String,
    },
    /// A value polars could not parse.
    #[error("{}: {message}", path.display())]
    Parse {
        /// The file.
        path: PathBuf,
        /// polars' message.
        message: String,
    },
    /// The inputs hold no game at all.
    #[error("no games in {inputs}")]
    NoGames {
        /// The inputs, comma-separated.
        inputs: String,
    },
    /// An output file name whose extension names no format.
    #[error("{}: unknown output format (use .csv, .parquet or .json)", path.display())]
    OutputFormat {
        /// The file.
        path: PathBuf,
    },
    /// Writing a table failed.
    #[error("{}: cannot write: {message}", path.display())]
    Write {
        /// The file.
        path: PathBuf,
        /// The cause.
        message: String,
    },
    /// An internal polars error (not tied to an input file).
    #[error("polars: {0}")]
    Polars(#[from] polars::prelude::PolarsError),
}

/// The crate's result type.
pub type Result<T, E = AnalysisError> = std::result::Result<T, E>;
