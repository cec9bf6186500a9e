//! A game: a start position, the moves played, and the outcome including repetition.

use crate::{IllegalMove, Move, Outcome, Position, Rules, Termination};

/// A game in progress: enough history to detect repetition.
#[derive(Clone, Debug)]
pub struct Game<P: Position> {
    start: P,
    pos: P,
    moves: Vec<Move>,
    /// Hash of every position since the start, the current one last.
    hashes: Vec<u64>,
}

impl<P: Position> Game<P> {
    /// A game from `start`.
    pub fn new(start: P) -> Self {
        let hashes = vec![start.hash()];
        Game { pos: start.clone(), start, moves: Vec::new(), hashes }
    }
    /// The starting position.
    pub fn start(&self) -> &P {
        &self.start
    }
    /// The current position.
    pub fn position(&self) -> &P {
        &self.pos
    }
    /// The moves played.
    pub fn moves(&self) -> &[Move] {
        &self.moves
    }
    /// Hashes of the positions so far, current last (for repetition-aware search).
    pub fn hashes(&self) -> &[u64] {
        &self.hashes
    }
    /// Plays a legal move.
    ///
    /// # Errors
    /// When the move is not legal.
    pub fn play(&mut self, m: Move) -> Result<(), IllegalMove> {
        self.pos.play(m)?;
        self.moves.push(m);
        self.hashes.push(self.pos.hash());
        Ok(())
    }
    /// How often the current position has occurred, this time included.
    pub fn repetitions(&self) -> usize {
        repetitions(&self.pos, &self.hashes)
    }
    /// The outcome by the rules, if the game is over.
    pub fn outcome(&self) -> Option<Outcome> {
        outcome_in_game(&self.pos, &self.hashes)
    }
}

/// How often `pos` has occurred in a game whose positions had the Zobrist hashes `hashes`, oldest
/// first, `pos`'s own last (this time included; only positions with the same side to move, and
/// since the last capture or pawn move unless the rules let a pawn move be undone, can repeat it).
///
/// # Panics
/// If `hashes` is empty (it holds at least `pos`'s own).
pub fn repetitions<P: Position>(pos: &P, hashes: &[u64]) -> usize {
    let h = pos.hash();
    let window = repetition_window(pos, hashes.len() - 1);
    let n = hashes.len();
    hashes[n - 1 - window..].iter().rev().step_by(2).filter(|&&x| x == h).count()
}

/// How many of the `earlier` positions before `pos` might repeat it: those since the last capture
/// or pawn move (the halfmove clock), or all of them where a pawn move may be undone.
pub fn repetition_window<P: Position>(pos: &P, earlier: usize) -> usize {
    if pos.rules().pawn_moves_reversible() {
        earlier
    } else {
        (pos.halfmove_clock() as usize).min(earlier)
    }
}

/// The outcome by the rules of `pos`, reached in a game whose positions had the hashes `hashes`
/// (as for [`repetitions`]): mate and stalemate first, then repetition, then the fifty-move rule
/// and dead material. What [`Game::outcome`] answers, for callers that keep the history
/// themselves.
///
/// # Panics
/// If `hashes` is empty.
pub fn outcome_in_game<P: Position>(pos: &P, hashes: &[u64]) -> Option<Outcome> {
    // Mate and stalemate take precedence over the draw rules.
    let by_position = pos.outcome();
    if let Some(o) = by_position {
        if matches!(o.reason, Termination::Checkmate | Termination::Stalemate) {
            return Some(o);
        }
    }
    let count = pos.rules().draws().repetition;
    if count != 0 && repetitions(pos, hashes) >= count as usize {
        return Some(Outcome { winner: None, reason: Termination::Repetition });
    }
    by_position
}
