//! Reports and scores out.

use stackchess_core::Move;
use std::fmt;
use std::time::Duration;

/// Internal score of the side to move being mated now; `-MATE + ply` is mated in `ply` plies.
pub(crate) const MATE: i32 = 32_000;
/// Scores at or beyond this magnitude are mate scores.
pub(crate) const MATE_BOUND: i32 = MATE - 1_000;
/// Larger than any score.
pub(crate) const INF: i32 = 32_500;

/// A score from the side to move's point of view.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Score {
    /// Centipawns.
    Cp(i32),
    /// Mate in `n` moves (the mover's); negative: the mover is mated in `-n` moves (`Mate(0)`: mated now).
    Mate(i32),
}

impl Score {
    /// From an internal score.
    #[must_use]
    pub(crate) fn from_internal(s: i32) -> Score {
        if s >= MATE_BOUND {
            Score::Mate((MATE - s + 1) / 2)
        } else if s <= -MATE_BOUND {
            Score::Mate(-((MATE + s) / 2))
        } else {
            Score::Cp(s)
        }
    }

    /// Whether this is a mate score.
    #[must_use]
    pub fn is_mate(self) -> bool {
        matches!(self, Score::Mate(_))
    }

    /// A total order for comparison: mates beyond any centipawn score, sooner mates better.
    #[must_use]
    pub fn key(self) -> i32 {
        match self {
            Score::Cp(c) => c,
            Score::Mate(n) if n > 0 => MATE - 2 * n + 1,
            Score::Mate(n) => -MATE - 2 * n,
        }
    }
}

impl fmt::Display for Score {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Score::Cp(c) => write!(f, "cp {c}"),
            Score::Mate(n) => write!(f, "mate {n}"),
        }
    }
}

/// The result of one completed iteration (or of the whole search).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Report {
    /// Nominal depth completed.
    pub depth: u32,
    /// Deepest ply reached, quiescence included.
    pub seldepth: u32,
    /// The score of the principal variation.
    pub score: Score,
    /// Nodes visited since the search began (all iterations).
    pub nodes: u64,
    /// Time since the search began.
    pub elapsed: Duration,
    /// The principal variation, best move first.
    pub pv: Vec<Move>,
}

impl Report {
    /// The move to play: the first of the PV.
    #[must_use]
    pub fn best_move(&self) -> Option<Move> {
        self.pv.first().copied()
    }

    /// Nodes per second (0 when no time has passed).
    #[must_use]
    pub fn nps(&self) -> u64 {
        (u128::from(self.nodes) * 1_000_000)
            .checked_div(self.elapsed.as_micros())
            .map_or(0, |v| u64::try_from(v).unwrap_or(u64::MAX))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mate_scores_convert_by_distance() {
        assert_eq!(Score::from_internal(MATE - 1), Score::Mate(1));
        assert_eq!(Score::from_internal(MATE - 3), Score::Mate(2));
        assert_eq!(Score::from_internal(MATE - 5), Score::Mate(3));
        assert_eq!(Score::from_internal(-MATE), Score::Mate(0));
        assert_eq!(Score::from_internal(-MATE + 2), Score::Mate(-1));
        assert_eq!(Score::from_internal(-MATE + 4), Score::Mate(-2));
        assert_eq!(Score::from_internal(35), Score::Cp(35));
        assert_eq!(Score::Mate(3).to_string(), "mate 3");
        assert_eq!(Score::Cp(-12).to_string(), "cp -12");
        assert!(Score::Mate(1).key() > Score::Mate(2).key());
        assert!(Score::Mate(2).key() > Score::Cp(5000).key());
        assert!(Score::Mate(-1).key() < Score::Mate(-3).key());
        assert!(Score::Mate(-5).key() < Score::Cp(-5000).key());
    }
}
