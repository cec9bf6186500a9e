//! `plies.csv`: one row per searched ply of every game of a version-2 run.
//!
//! Files written before clocks have the first ten columns (no `clock_ms`); they are read as
//! they are (`clock_ms` empty) and a resumed run goes on appending ten columns.

use crate::columns::{col, Column, Kind, Value};
use serde::{Deserialize, Serialize};

/// The columns of `plies.csv`, in order.
pub const PLY_COLUMNS: [Column; 11] = [
    col("game_id", Kind::Text),
    col("ply", Kind::Int),
    col("move", Kind::Text),
    col("san", Kind::Text),
    col("score_cp", Kind::OptInt),
    col("mate", Kind::OptInt),
    col("depth", Kind::Int),
    col("seldepth", Kind::Int),
    col("nodes", Kind::Int),
    col("time_ms", Kind::Int),
    col("clock_ms", Kind::OptInt),
];

/// Columns of a `plies.csv` written before `clock_ms` existed.
pub const PLY_COLUMNS_BEFORE_CLOCKS: usize = 10;

/// A search result as recorded for a ply, from the view of the side that played it.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Score {
    /// Centipawns.
    Cp(i32),
    /// Mate in this many moves (negative: the mover is mated).
    Mate(i32),
}

/// One searched ply: the move a side played and what its search said.
#[derive(Clone, PartialEq, Eq, Debug, Default, Serialize, Deserialize)]
pub struct PlyRecord {
    /// The game (`games.csv`'s `game_id`).
    pub game_id: String,
    /// 1-based index into the game's `moves`.
    pub ply: u32,
    /// The move, in coordinate notation.
    #[serde(rename = "move")]
    pub mv: String,
    /// The move in SAN.
    pub san: String,
    /// The mover's score in centipawns, from the mover's side; `None` when the score is a mate,
    /// or when the engine gave no score (an external engine that sent no `info ... score`).
    pub score_cp: Option<i32>,
    /// Moves to mate from the mover's side (positive: the mover mates); `None` unless a mate.
    pub mate: Option<i32>,
    /// Depth of the last completed iteration.
    pub depth: u32,
    /// Selective depth.
    pub seldepth: u32,
    /// Nodes searched.
    pub nodes: u64,
    /// Milliseconds the move took: the search's wall time (for an external engine, from `go` to
    /// `bestmove`). Under a time control this is what the mover's clock was charged.
    pub time_ms: u64,
    /// Under a time control: the mover's clock after the move, in milliseconds (the move's time
    /// taken off, before the increment is added; negative when the mover used part of the time
    /// margin). Empty without a clock, and in files written before clocks.
    #[serde(default)]
    pub clock_ms: Option<i64>,
}

impl PlyRecord {
    /// The cell of column `i` of [`PLY_COLUMNS`].
    ///
    /// # Panics
    /// If `i` is 11 or more.
    #[must_use]
    pub fn value(&self, i: usize) -> Value<'_> {
        match i {
            0 => Value::Text(&self.game_id),
            1 => Value::Int(i64::from(self.ply)),
            2 => Value::Text(&self.mv),
            3 => Value::Text(&self.san),
            4 => Value::OptInt(self.score_cp.map(i64::from)),
            5 => Value::OptInt(self.mate.map(i64::from)),
            6 => Value::Int(i64::from(self.depth)),
            7 => Value::Int(i64::from(self.seldepth)),
            8 => Value::Int(self.nodes as i64),
            9 => Value::Int(self.time_ms as i64),
            10 => Value::OptInt(self.clock_ms),
            _ => panic!("plies.csv has {} columns, not {}", PLY_COLUMNS.len(), i + 1),
        }
    }

    /// The mover's score as recorded: a mate, centipawns, or `None` when the engine gave none.
    #[must_use]
    pub fn score(&self) -> Option<Score> {
        match (self.mate, self.score_cp) {
            (Some(m), _) => Some(Score::Mate(m)),
            (None, Some(cp)) => Some(Score::Cp(cp)),
            (None, None) => None,
        }
    }

    /// The mover's score in centipawns with mates as ±`mate_cp` (positive: good for the mover).
    #[must_use]
    pub fn mover_cp(&self, mate_cp: i32) -> Option<i32> {
        match (self.score_cp, self.mate) {
            (Some(cp), _) => Some(cp),
            (None, Some(m)) if m > 0 => Some(mate_cp),
            (None, Some(_)) => Some(-mate_cp),
            (None, None) => None,
        }
    }

    /// The row as one CSV line of the first `columns` columns, newline included.
    pub(crate) fn to_line(&self, columns: usize) -> Result<Vec<u8>, String> {
        crate::columns::csv_line((0..columns).map(|i| self.value(i).to_field()))
    }

    /// Checks what the types alone do not.
    pub(crate) fn check(&self) -> Result<(), String> {
        if self.game_id.is_empty() {
            return Err("empty game_id".into());
        }
        if self.ply == 0 {
            return Err("ply 0 (plies count from 1)".into());
        }
        if self.score_cp.is_some() && self.mate.is_some() {
            return Err("score_cp and mate are both given (at most one may be)".into());
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn serde_fields_are_the_columns_in_order() {
        let p = PlyRecord { game_id: "g".into(), ply: 3, mv: "e2e4".into(), mate: Some(-2), ..PlyRecord::default() };
        let mut w = csv::Writer::from_writer(Vec::new());
        w.serialize(&p).unwrap();
        let text = String::from_utf8(w.into_inner().unwrap()).unwrap();
        let mut lines = text.lines();
        let names: Vec<&str> = PLY_COLUMNS.iter().map(|c| c.name).collect();
        assert_eq!(lines.next().unwrap(), names.join(","));
        assert_eq!(format!("{}\n", lines.next().unwrap()).into_bytes(), p.to_line(PLY_COLUMNS.len()).unwrap());
        assert_eq!(p.mover_cp(30000), Some(-30000));
        assert_eq!(p.score(), Some(Score::Mate(-2)));
        assert_eq!(PlyRecord { score_cp: Some(12), mate: None, ..p.clone() }.score(), Some(Score::Cp(12)));
        assert_eq!(PlyRecord { mate: None, ..p }.score(), None);
    }
}
