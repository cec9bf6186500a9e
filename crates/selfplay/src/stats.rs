//! Match statistics of a run: the running [`Tally`] of its records, and (re-exported) the
//! statistics of `stackchess-stats` that the CLI reports with it (Elo, pentanomial, SPRT).

use crate::GameRecord;
pub use stackchess_stats::{
    elo_to_score, erfc, normal_cdf, score_to_elo, EloEstimate, Penta, Sprt, SprtDecision, SprtModel, Wdl, Z95,
};
use std::collections::{BTreeMap, HashMap};

/// Running counts over the records of a run: results by colour, the first engine's (`A`'s, or
/// White's in self-play) results and pentanomial pairs, and terminations.
#[derive(Clone, Debug, Default)]
pub struct Tally {
    /// Games counted.
    pub games: u64,
    /// Games White won.
    pub white_wins: u64,
    /// Games drawn.
    pub draws: u64,
    /// Games Black won.
    pub black_wins: u64,
    /// Results of engine `A` (in self-play: of White).
    pub first: Wdl,
    /// Complete pairs of a paired run, from `A`'s side.
    pub penta: Penta,
    /// Games by termination reason.
    pub terminations: BTreeMap<String, u64>,
    /// Plies over all games.
    pub plies: u64,
    /// Whether games come in colour-swapped pairs.
    paired: bool,
    /// `A`'s half points in the first game of pairs not complete yet.
    open_pairs: HashMap<u64, u8>,
    /// The first engine's label when it is not `A` (a match of engines named with `--engine`).
    first_label: Option<String>,
}

impl Tally {
    /// An empty tally; `paired` counts pentanomial pairs.
    #[must_use]
    pub fn new(paired: bool) -> Tally {
        Tally { paired, ..Tally::default() }
    }

    /// The same tally counting `first` (a match engine's name) as the first engine instead of `A`.
    #[must_use]
    pub fn with_first(self, first: &str) -> Tally {
        Tally { first_label: Some(first.to_owned()), ..self }
    }

    /// Counts one game.
    pub fn add(&mut self, rec: &GameRecord) {
        let white_half: u8 = match rec.result.as_str() {
            "1-0" => 2,
            "0-1" => 0,
            _ => 1,
        };
        self.games += 1;
        match white_half {
            2 => self.white_wins += 1,
            0 => self.black_wins += 1,
            _ => self.draws += 1,
        }
        self.plies += u64::from(rec.plies);
        *self.terminations.entry(rec.termination.clone()).or_default() += 1;
        let half = if rec.black == self.first_label.as_deref().unwrap_or("A") { 2 - white_half } else { white_half };
        self.first.add(half);
        if self.paired {
            match self.open_pairs.remove(&rec.pair) {
                Some(other) => self.penta.add(other + half),
                None => {
                    self.open_pairs.insert(rec.pair, half);
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tally_counts_from_a_s_side_and_pairs_games() {
        let rec = |index: u64, white: &str, result: &str| GameRecord {
            variant: "fide".into(),
            index,
            pair: index / 2,
            white: white.into(),
            black: if white == "A" { "B".into() } else { "A".into() },
            result: result.into(),
            termination: "checkmate".into(),
            plies: 10,
            ..GameRecord::default()
        };
        let mut t = Tally::new(true);
        // Pair 0: A wins with White, then wins with Black (WW). Pair 1: A wins, then draws (WD).
        // Pair 2: only its first game, a loss for A.
        for r in
            [rec(0, "A", "1-0"), rec(3, "B", "1/2-1/2"), rec(1, "B", "0-1"), rec(2, "A", "1-0"), rec(4, "A", "0-1")]
        {
            t.add(&r);
        }
        assert_eq!((t.games, t.white_wins, t.draws, t.black_wins, t.plies), (5, 2, 1, 2, 50));
        assert_eq!(t.first, Wdl { wins: 3, draws: 1, losses: 1 });
        assert_eq!(t.penta, Penta([0, 0, 0, 1, 1]));
        assert_eq!(t.terminations["checkmate"], 5);
    }
}
