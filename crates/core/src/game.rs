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
        let h = self.pos.hash();
        let window = (self.pos.halfmove_clock() as usize).min(self.hashes.len() - 1);
        let n = self.hashes.len();
        self.hashes[n - 1 - window..].iter().rev().step_by(2).filter(|&&x| x == h).count()
    }
    /// The outcome by the rules, if the game is over.
    pub fn outcome(&self) -> Option<Outcome> {
        // Mate and stalemate take precedence over the draw rules.
        let by_position = self.pos.outcome();
        if let Some(o) = by_position {
            if matches!(o.reason, Termination::Checkmate | Termination::Stalemate) {
                return Some(o);
            }
        }
        let count = self.pos.rules().draws().repetition;
        if count != 0 && self.repetitions() >= count as usize {
            return Some(Outcome { winner: None, reason: Termination::Repetition });
        }
        by_position
    }
}
