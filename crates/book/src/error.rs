//! What can go wrong building, reading or writing a book; each error names the file or game concerned.

use std::path::{Path, PathBuf};

/// A book error.
#[derive(Debug, thiserror::Error)]
pub enum BookError {
    /// Reading or writing the file failed (a missing file included).
    #[error("{}: {error}", path.display())]
    Io {
        /// The file.
        path: PathBuf,
        /// The cause (part of the message, so not also a `source`).
        error: std::io::Error,
    },
    /// The file does not start with the book's magic bytes.
    #[error("{}: not a stackchess book (wrong magic bytes)", path.display())]
    Magic {
        /// The file.
        path: PathBuf,
    },
    /// A format version this program does not read.
    #[error("{}: book format version {found} is not supported (this program reads version {supported})", path.display())]
    Version {
        /// The file.
        path: PathBuf,
        /// The version in the file.
        found: u16,
        /// The version this program reads and writes.
        supported: u16,
    },
    /// The header cannot be read, or the file's length does not match it (cut off, or bytes
    /// after the last entry).
    #[error("{}: damaged book: {message}", path.display())]
    Damaged {
        /// The file.
        path: PathBuf,
        /// What was wrong.
        message: String,
    },
    /// The book was built for another variant.
    #[error("{}: the book is for variant '{found}', not '{expected}'", path.display())]
    Variant {
        /// The file.
        path: PathBuf,
        /// The variant named in the file.
        found: String,
        /// The variant asked for.
        expected: String,
    },
    /// The book was built for other rules under the same name (a changed rule file).
    #[error(
        "{}: the book is for the rules with id {found}, but '{variant}' here has id {expected} \
         (another rule set under the same name; rebuild the book for these rules)",
        path.display()
    )]
    RulesId {
        /// The file.
        path: PathBuf,
        /// The variant's name.
        variant: String,
        /// The rules id in the file.
        found: String,
        /// The id of the rules asked for.
        expected: String,
    },
    /// The start position's hash differs from the one in the file: other Zobrist keys.
    #[error(
        "{}: key check {found:016x} differs from this program's start-position hash {expected:016x} \
         (the book was built with other Zobrist keys; rebuild it)",
        path.display()
    )]
    KeyCheck {
        /// The file.
        path: PathBuf,
        /// The key check in the file.
        found: u64,
        /// This program's hash of the start position.
        expected: u64,
    },
    /// An entry that cannot be right: out of order, an impossible move, no games.
    #[error("{}, entry {index}: {message}", path.display())]
    Entry {
        /// The file.
        path: PathBuf,
        /// The entry, from 0.
        index: u64,
        /// What was wrong.
        message: String,
    },
    /// A game fed to the builder that cannot be replayed.
    #[error("game {game}{}: {message}", ply.map_or(String::new(), |p| format!(", ply {p}")))]
    Game {
        /// The game's id (or its index in the input).
        game: String,
        /// The ply at fault, from 1; `None` for the start position or the result.
        ply: Option<u32>,
        /// What was wrong.
        message: String,
    },
}

impl BookError {
    pub(crate) fn io(path: &Path, error: std::io::Error) -> BookError {
        BookError::Io { path: path.to_owned(), error }
    }
}
