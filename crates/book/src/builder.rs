//! Counting (position, move) pairs over finished games.

use crate::{Book, BookError, Entry};
use stackchess_core::{parse_coord, Color, Position, Rules};
use stackchess_records::GameRecord;
use stackchess_stats::Wdl;
use std::collections::HashMap;

/// What [`BookBuilder::add`] did with a game.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Added {
    /// Its opening plies were counted.
    Used,
    /// It starts away from the variant's start position, and other starts are not allowed.
    OtherStart,
}

/// Collects (position, move) statistics from games, then makes a [`Book`].
///
/// A position is keyed by [`Position::hash`], so games from any start position could be counted;
/// by default only games from the variant's start position are (see [`BookBuilder::any_start`]).
/// A move is counted when it is among the first `max_plies` plies of the game, the ply being read
/// from the position's move number and side to move (the start position is ply 0).
#[derive(Debug)]
pub struct BookBuilder<P: Position> {
    rules: P::Rules,
    max_plies: u32,
    any_start: bool,
    /// Per (position, move): the results of the side that played it.
    counts: HashMap<(u64, u32), Wdl>,
    games: u64,
}

impl<P: Position> BookBuilder<P> {
    /// A builder for games under `rules` that counts the first `max_plies` plies of each game.
    #[must_use]
    pub fn new(rules: P::Rules, max_plies: u32) -> BookBuilder<P> {
        BookBuilder { rules, max_plies, any_start: false, counts: HashMap::new(), games: 0 }
    }

    /// Also counts games that start away from the start position (off by default).
    #[must_use]
    pub fn any_start(mut self, allow: bool) -> BookBuilder<P> {
        self.any_start = allow;
        self
    }

    /// Games counted so far.
    #[must_use]
    pub fn games(&self) -> u64 {
        self.games
    }

    /// Replays a game with the move generator and counts its opening plies. A game with an error
    /// counts nothing.
    ///
    /// # Errors
    /// A bad start position, result, or an unparsable or illegal move (naming the game and ply).
    pub fn add(&mut self, game: &GameRecord) -> Result<Added, BookError> {
        let err = |ply: Option<u32>, message: String| BookError::Game { game: game.game_id.clone(), ply, message };
        let mut pos = self.rules.from_lfen(&game.start_lfen).map_err(|e| err(None, format!("start position: {e}")))?;
        if !self.any_start && pos.hash() != self.rules.startpos().hash() {
            return Ok(Added::OtherStart);
        }
        let white = match game.result.as_str() {
            "1-0" => Wdl { wins: 1, draws: 0, losses: 0 },
            "0-1" => Wdl { wins: 0, draws: 0, losses: 1 },
            "1/2-1/2" => Wdl { wins: 0, draws: 1, losses: 0 },
            other => return Err(err(None, format!("result '{other}' is not 1-0, 0-1 or 1/2-1/2"))),
        };
        let black = Wdl { wins: white.losses, draws: white.draws, losses: white.wins };
        let mut seen = Vec::new();
        for (i, text) in game.moves.split_whitespace().enumerate() {
            let ply = u32::try_from(i + 1).unwrap_or(u32::MAX);
            let m = parse_coord(&pos, text).map_err(|e| err(Some(ply), e.to_string()))?;
            if game_ply(&pos) < u64::from(self.max_plies) {
                seen.push((pos.hash(), m.to_u32(), if pos.turn() == Color::White { white } else { black }));
            }
            pos.play_unchecked(m);
        }
        self.games += 1;
        for (key, mv, wdl) in seen {
            let c = self.counts.entry((key, mv)).or_default();
            c.wins += wdl.wins;
            c.draws += wdl.draws;
            c.losses += wdl.losses;
        }
        Ok(Added::Used)
    }

    /// The book: every (position, move) seen in at least `min_games` games, sorted by key.
    #[must_use]
    pub fn finish(self, min_games: u32) -> Book<P> {
        let mut entries: Vec<Entry> = self
            .counts
            .into_iter()
            .filter(|(_, c)| c.games() >= u64::from(min_games))
            .filter_map(|((key, mv), c)| {
                Some(Entry {
                    key,
                    mv: stackchess_core::Move::from_u32(mv)?,
                    // The file's counts are 32 bits: larger ones are held at the largest.
                    wins: u32::try_from(c.wins).unwrap_or(u32::MAX),
                    draws: u32::try_from(c.draws).unwrap_or(u32::MAX),
                    losses: u32::try_from(c.losses).unwrap_or(u32::MAX),
                })
            })
            .collect();
        entries.sort_unstable_by_key(|e| (e.key, e.mv.to_u32()));
        Book::from_sorted(self.rules, entries)
    }
}

/// The ply of the game at `pos`, from its move number and side to move (0 at the start).
fn game_ply<P: Position>(pos: &P) -> u64 {
    2 * u64::from(pos.fullmove_number().saturating_sub(1)) + u64::from(pos.turn() == Color::Black)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plies_follow_move_numbers() {
        let mut p = stackchess_traditional::fide_startpos();
        assert_eq!(game_ply(&p), 0);
        for (i, m) in ["e2e4", "e7e5", "g1f3"].into_iter().enumerate() {
            let m = parse_coord(&p, m).unwrap();
            p.play_unchecked(m);
            assert_eq!(game_ply(&p), i as u64 + 1);
        }
    }
}
