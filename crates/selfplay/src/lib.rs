//! Self-play and engine matches, generic over [`stackchess_core::Position`].
//!
//! A run plays N games on a rayon pool. Game `i` is a function of the run's settings, its seed and
//! `i` alone (engines are reset before every game, openings come from `SplitMix64::for_item`), so
//! the same seed gives the same games on any number of threads. Each finished game is appended
//! to `games.csv` (schema: docs/records.md) and `games.pgn` at once; an interrupted run is
//! completed with `resume`, which repairs a cut-off last record and plays only the missing games.
//! The library prints nothing: callers follow a run through [`Progress`].

pub mod adjudication;
pub mod clock;
pub mod engine;
mod error;
pub mod external;
pub mod game;
pub mod manifest;
pub mod merge;
pub mod monitor;
pub mod openings;
pub mod pgn;
pub mod pgn_read;
pub mod player;
pub mod replay;
pub mod run;
mod run_files;
pub mod shard;
pub mod spec;
pub mod sprt_log;
pub mod stats;
pub mod suite;
pub mod swap;
pub mod tournament;
pub mod turn;

/// The record formats (re-exported: selfplay writes through them).
pub use stackchess_records as records;

pub use adjudication::{Adjudication, Adjudicator, DrawRule, Ending, ResignRule};
pub use clock::{TimeControl, DEFAULT_TIME_MARGIN};
pub use engine::EngineSpec;
pub use error::Error;
pub use external::ExternalSpec;
pub use manifest::{Manifest, RunSettings};
pub use merge::{merge, Merged};
pub use monitor::Monitor;
pub use openings::{Opening, Openings};
pub use player::Player;
pub use replay::replay;
pub use run::{
    run, GamePlayer, NoProgress, OpeningFilter, Progress, RunConfig, RunEnd, Summary, Timing, DEFAULT_STALL_TIMEOUT,
};
pub use shard::Shard;
pub use stackchess_records::{GameRecord, GamesFile, PliesFile, PlyRecord, Recovered, Version};
pub use stats::Tally;
pub use swap::{colour_swapped, colour_swapped_line};
pub use turn::Failure;

/// Reads every record of a `games.csv` (either schema version) without changing it.
///
/// # Errors
/// As [`stackchess_records::read_games`].
pub fn read_records(path: &std::path::Path) -> Result<Vec<GameRecord>, Error> {
    Ok(stackchess_records::read_games(path)?.records)
}
