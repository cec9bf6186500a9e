//! What a side is asked and what it answers: the turn (the position, its history and the
//! clocks), the thought (its move and what it said about it), and why it gave no move.

use stackchess_core::{Move, Position};
use stackchess_search::{Limits, Score};
use std::time::Duration;

/// What a side's engine said about its move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Thought {
    /// The move (legal in the position).
    pub mv: Move,
    /// The mover's score, if the engine gave one.
    pub score: Option<Score>,
    /// Depth of the last completed iteration (0 if not said).
    pub depth: u32,
    /// Selective depth (0 if not said).
    pub seldepth: u32,
    /// Nodes searched (0 if not said).
    pub nodes: u64,
    /// Wall time from asking to the answer.
    pub elapsed: Duration,
}

/// Why a side gave no move.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum Failure {
    /// The process exited, closed its output or could not be started or written to.
    #[error("crashed: {0}")]
    Crashed(String),
    /// No answer in time (after `stop`, under a clock).
    #[error("stalled: {0}")]
    Stalled(String),
    /// The answer was not a legal move in coordinate notation (the text sent).
    #[error("illegal move {0}")]
    Illegal(String),
    /// The run is stopping: the game is dropped.
    #[error("the run is stopping")]
    Halted,
    /// The built-in engine gave no move in a position with legal moves (a bug: the run stops).
    #[error("{0}")]
    Internal(String),
}

/// The position and clocks a side is asked to move in.
pub struct Turn<'a, P: Position> {
    /// The game's start position.
    pub start: &'a P,
    /// The moves from `start`, in coordinate notation.
    pub moves: &'a [String],
    /// The position now.
    pub position: &'a P,
    /// Hashes of the positions before it, for repetitions.
    pub history: &'a [u64],
    /// The mover's limits (with its clock, if it plays on one).
    pub limits: Limits,
    /// White's and Black's clocks: milliseconds left and increment, for those on a clock.
    pub clocks: [Option<(i64, u64)>; 2],
    /// The mover's moves until the next time control, if its control has periods.
    pub moves_to_go: Option<u32>,
    /// When the mover has lost on time if it has not answered (an external engine is stopped
    /// then).
    pub clock_deadline: Option<Duration>,
}
