//! The record formats of a run directory, in one place (schema: docs/records.md).
//!
//! - [`GameRecord`] and [`Version`]: one row of `games.csv`, in schema version 1 (25 columns) or
//!   2 (those and `rules_id`, `opening_moves`); the header says which.
//! - [`PlyRecord`]: one row of `plies.csv`, one searched ply of a game (version 2 runs); files
//!   written before clocks lack the last column, `clock_ms`, and are read and appended as they are.
//! - [`GamesFile`], [`PliesFile`]: the durable, append-only journals a run writes, checked and
//!   repaired on resume (a line cut off by a kill is dropped; plies of games that never reached
//!   `games.csv` are dropped).
//! - [`RunLock`]: the lock of a run directory (`run.lock`, the kernel's `flock`), so two
//!   processes never write one run; a lock left by a killed process is free.
//! - [`read_games`], [`read_plies`], [`read_run`]: the strict readers every tool uses (the csv
//!   crate; errors name the file and line). [`RunRecords`] is a run directory's games with their
//!   plies, for analyses; [`read_recorded`] gives each [`RecordedGame`] with whatever plies it has,
//!   for viewers, books and replays: the one type of a recorded game every tool takes.
//! - [`Column`], [`Kind`], [`Value`]: the columns and their types, for tools that build tables
//!   (polars frames, Parquet) from the records.

mod columns;
mod error;
mod games;
mod journal;
mod lock;
mod plies;
mod read;

pub use columns::{Column, Kind, Value};
pub use error::Error;
pub use games::{GameRecord, Version, GAME_COLUMNS};
pub use journal::{append_whole, GamesFile, PliesFile, Recovered};
pub use lock::{is_lock_file, RunLock, RUN_LOCK};
pub use plies::{PlyRecord, Score, PLY_COLUMNS, PLY_COLUMNS_BEFORE_CLOCKS};
pub use read::{read_games, read_plies, read_recorded, read_run, Games, RecordedGame, RunRecords};

/// The record file of a run directory: one line per finished game (the commit point).
pub const GAMES_CSV: &str = "games.csv";
/// The per-ply table of a run directory (schema version 2).
pub const PLIES_CSV: &str = "plies.csv";
/// The Parquet copy of `games.csv` (`selfplay --format parquet`).
pub const GAMES_PARQUET: &str = "games.parquet";
/// The Parquet copy of `plies.csv`.
pub const PLIES_PARQUET: &str = "plies.parquet";
/// The games as PGN.
pub const GAMES_PGN: &str = "games.pgn";
/// The run's settings.
pub const MANIFEST: &str = "manifest.json";
