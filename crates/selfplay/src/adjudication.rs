//! How a game ends: by the rules, or by an optional adjudication (cutechess-cli's `-maxmoves`,
//! `-resign`, `-draw`; fastchess's two-sided resign).

use serde::{Deserialize, Serialize};
use stackchess_core::{Color, Termination};

/// Why a game ended, as written in the `termination` column.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Ending {
    /// By the rules: mate, stalemate, repetition, 50 moves, dead material.
    Rule(Termination),
    /// The ply limit was reached (a draw).
    MaxPlies,
    /// Both engines agreed that one side is lost.
    Resign,
    /// Both engines saw a level game for long enough.
    DrawAdjudication,
    /// The mover's clock fell below minus the time margin: it loses.
    TimeForfeit,
    /// The mover's engine exited, closed its output, or could not be started: it loses.
    Crashed,
    /// The mover's engine gave no move in time (not even after `stop`): it loses.
    Stalled,
    /// The mover's engine answered with a move that is not legal (or not a move): it loses. The
    /// record's termination names the text, `illegal move e2e5`.
    IllegalMove,
}

impl Ending {
    /// The name in records: `checkmate`, `stalemate`, `repetition`, `fifty-moves`,
    /// `dead-material`, `max-plies`, `resign`, `draw-adjudication`, `time forfeit`,
    /// `engine crashed`, `stalled`, `illegal move` (the termination adds the move sent).
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Ending::Rule(t) => t.name(),
            Ending::MaxPlies => "max-plies",
            Ending::Resign => "resign",
            Ending::DrawAdjudication => "draw-adjudication",
            Ending::TimeForfeit => "time forfeit",
            Ending::Crashed => "engine crashed",
            Ending::Stalled => "stalled",
            Ending::IllegalMove => "illegal move",
        }
    }

    /// Whether the side to move lost without a move of its own (on time, or by its engine's fault).
    #[must_use]
    pub const fn is_forfeit(self) -> bool {
        matches!(self, Ending::TimeForfeit | Ending::Crashed | Ending::Stalled | Ending::IllegalMove)
    }

    /// Every ending, for parsing and documentation.
    pub const ALL: [Ending; 12] = [
        Ending::Rule(Termination::Checkmate),
        Ending::Rule(Termination::Stalemate),
        Ending::Rule(Termination::Repetition),
        Ending::Rule(Termination::FiftyMoves),
        Ending::Rule(Termination::DeadMaterial),
        Ending::MaxPlies,
        Ending::Resign,
        Ending::DrawAdjudication,
        Ending::TimeForfeit,
        Ending::Crashed,
        Ending::Stalled,
        Ending::IllegalMove,
    ];
    /// The ending of a record's termination (`illegal move e2e5` is [`Ending::IllegalMove`]).
    #[must_use]
    pub fn from_name(name: &str) -> Option<Ending> {
        if name.starts_with("illegal move") {
            return Some(Ending::IllegalMove);
        }
        Ending::ALL.into_iter().find(|e| e.name() == name)
    }
}

/// Resign when both sides' scores agree that one side is at least `score` centipawns behind for
/// `moves` moves each (`2 * moves` plies in a row). Mate scores count as beyond any threshold.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Serialize, Deserialize)]
pub struct ResignRule {
    /// Moves of each side.
    pub moves: u32,
    /// Threshold in centipawns.
    pub score: i32,
}

/// Draw when, after move `after_move`, both sides' scores stay within `score` centipawns of 0 for
/// `moves` moves each; a capture or pawn move restarts the count (as in cutechess-cli).
#[derive(Clone, Copy, PartialEq, Eq, Debug, Serialize, Deserialize)]
pub struct DrawRule {
    /// The full-move number the position must have passed.
    pub after_move: u32,
    /// Moves of each side.
    pub moves: u32,
    /// Band half-width in centipawns.
    pub score: i32,
}

/// Which adjudications apply. The rules (mate, stalemate, repetition, 50 moves, dead material)
/// always do, and come first.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default, Serialize, Deserialize)]
pub struct Adjudication {
    /// A draw after this many plies of the game (not counting the opening).
    pub max_plies: Option<u32>,
    /// Resign adjudication.
    pub resign: Option<ResignRule>,
    /// Draw adjudication.
    pub draw: Option<DrawRule>,
}

/// A score beyond every centipawn score, standing for a mate.
pub const MATE_CP: i32 = 100_000;

/// The running counters of one game's adjudication.
#[derive(Clone, Debug)]
pub struct Adjudicator {
    rules: Adjudication,
    /// Plies in a row with White at least the resign threshold ahead.
    white_ahead: u32,
    /// Plies in a row with Black at least the resign threshold ahead.
    black_ahead: u32,
    /// Plies in a row within the draw band.
    level: u32,
}

impl Adjudicator {
    /// Counters at the start of a game.
    #[must_use]
    pub fn new(rules: Adjudication) -> Adjudicator {
        Adjudicator { rules, white_ahead: 0, black_ahead: 0, level: 0 }
    }

    /// Takes the score the mover's engine gave for its move (`white_cp`: from White's side, mates
    /// as `±MATE_CP`) and the position after the move; returns the verdict if one applies.
    /// `plies` counts the game's moves so far.
    pub fn update(
        &mut self,
        white_cp: i32,
        halfmove_clock: u32,
        fullmove: u32,
        plies: u32,
    ) -> Option<(Option<Color>, Ending)> {
        if let Some(r) = self.rules.resign {
            self.white_ahead = if white_cp >= r.score { self.white_ahead + 1 } else { 0 };
            self.black_ahead = if white_cp <= -r.score { self.black_ahead + 1 } else { 0 };
            if self.white_ahead >= 2 * r.moves {
                return Some((Some(Color::White), Ending::Resign));
            }
            if self.black_ahead >= 2 * r.moves {
                return Some((Some(Color::Black), Ending::Resign));
            }
        }
        if let Some(d) = self.rules.draw {
            if halfmove_clock == 0 {
                self.level = 0;
            }
            self.level = if white_cp.abs() <= d.score { self.level + 1 } else { 0 };
            if self.level >= 2 * d.moves && fullmove > d.after_move {
                return Some((None, Ending::DrawAdjudication));
            }
        }
        self.max_plies(plies)
    }

    /// As [`Adjudicator::update`] for a move whose engine gave no score: the resign and draw
    /// counts restart; the ply limit still applies.
    pub fn update_unscored(&mut self, plies: u32) -> Option<(Option<Color>, Ending)> {
        (self.white_ahead, self.black_ahead, self.level) = (0, 0, 0);
        self.max_plies(plies)
    }

    fn max_plies(&self, plies: u32) -> Option<(Option<Color>, Ending)> {
        match self.rules.max_plies {
            Some(m) if plies >= m => Some((None, Ending::MaxPlies)),
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip() {
        for e in Ending::ALL {
            assert_eq!(Ending::from_name(e.name()), Some(e));
        }
        assert_eq!(Ending::from_name("timeout"), None);
        assert_eq!(Ending::from_name("illegal move 1e21e5"), Some(Ending::IllegalMove));
        assert!(Ending::from_name("stalled").is_some_and(Ending::is_forfeit));
    }

    #[test]
    fn resign_needs_both_sides_for_the_full_count() {
        let rules = Adjudication { resign: Some(ResignRule { moves: 2, score: 500 }), ..Adjudication::default() };
        let mut a = Adjudicator::new(rules);
        // Three plies beyond -500, then one back above: the count restarts.
        for _ in 0..3 {
            assert_eq!(a.update(-600, 5, 20, 10), None);
        }
        assert_eq!(a.update(-400, 5, 20, 10), None);
        for _ in 0..3 {
            assert_eq!(a.update(-MATE_CP, 5, 20, 10), None);
        }
        assert_eq!(a.update(-700, 5, 20, 10), Some((Some(Color::Black), Ending::Resign)));
    }

    #[test]
    fn draw_waits_for_the_move_number_and_restarts_on_captures() {
        let rules =
            Adjudication { draw: Some(DrawRule { after_move: 30, moves: 2, score: 10 }), ..Adjudication::default() };
        let mut a = Adjudicator::new(rules);
        for _ in 0..6 {
            assert_eq!(a.update(5, 3, 30, 40), None, "move 30 is not past move 30");
        }
        assert_eq!(a.update(5, 3, 31, 41).map(|v| v.1), Some(Ending::DrawAdjudication));
        let mut a = Adjudicator::new(rules);
        for clock in [1, 2, 3, 0, 1, 2] {
            assert_eq!(a.update(0, clock, 40, 50), None, "the capture at clock 0 restarts the count");
        }
        assert_eq!(a.update(0, 3, 40, 50).map(|v| v.1), Some(Ending::DrawAdjudication));
        assert_eq!(a.clone().update(11, 4, 40, 50), None);
    }

    #[test]
    fn max_plies_draws() {
        let mut a = Adjudicator::new(Adjudication { max_plies: Some(4), ..Adjudication::default() });
        assert_eq!(a.update(900, 1, 2, 3), None);
        assert_eq!(a.update(900, 1, 3, 4), Some((None, Ending::MaxPlies)));
    }
}
