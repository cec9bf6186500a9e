//! `games.csv`: one row per finished game, in schema version 1 or 2.

use crate::columns::{col, Column, Kind, Value};
use serde::{Deserialize, Serialize};

/// The schema version of a `games.csv` (its header says which).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Version {
    /// 25 columns, `game_id` to `version`.
    V1,
    /// Version 1's columns, then `rules_id` and `opening_moves`; with a `plies.csv` beside it.
    V2,
}

impl Version {
    /// The version new runs write.
    pub const CURRENT: Version = Version::V2;

    /// Its columns, in file order.
    #[must_use]
    pub fn columns(self) -> &'static [Column] {
        match self {
            Version::V1 => &GAME_COLUMNS[..25],
            Version::V2 => &GAME_COLUMNS,
        }
    }

    /// `1` or `2`.
    #[must_use]
    pub const fn number(self) -> u32 {
        match self {
            Version::V1 => 1,
            Version::V2 => 2,
        }
    }

    /// The version whose columns `header` is exactly; otherwise what differs from the nearest one.
    ///
    /// # Errors
    /// Names the missing, unexpected or misplaced columns.
    pub fn of_header(header: &[String]) -> Result<Version, String> {
        let names: Vec<&str> = header.iter().map(|s| s.trim().trim_start_matches('\u{feff}')).collect();
        for v in [Version::V2, Version::V1] {
            if names.iter().copied().eq(v.columns().iter().map(|c| c.name)) {
                return Ok(v);
            }
        }
        let v2 = names.iter().any(|n| matches!(*n, "rules_id" | "opening_moves"));
        let nearest = if v2 { Version::V2 } else { Version::V1 };
        Err(crate::columns::header_difference(nearest.columns(), header))
    }
}

/// The columns of `games.csv` version 2, in order; version 1 is the first 25.
pub const GAME_COLUMNS: [Column; 27] = [
    col("game_id", Kind::Text),
    col("run_key", Kind::Text),
    col("variant", Kind::Text),
    col("seed", Kind::UInt),
    col("index", Kind::Int),
    col("pair", Kind::Int),
    col("white", Kind::Text),
    col("black", Kind::Text),
    col("start_lfen", Kind::Text),
    col("moves", Kind::Text),
    col("result", Kind::Text),
    col("termination", Kind::Text),
    col("plies", Kind::Int),
    col("material_white", Kind::Int),
    col("material_black", Kind::Int),
    col("level_changes_white", Kind::Int),
    col("level_changes_black", Kind::Int),
    col("captures_white", Kind::Int),
    col("captures_black", Kind::Int),
    col("checks_white", Kind::Int),
    col("checks_black", Kind::Int),
    col("nodes", Kind::Int),
    col("duration_ms", Kind::Int),
    col("settings", Kind::Text),
    col("version", Kind::Text),
    col("rules_id", Kind::Text),
    col("opening_moves", Kind::Text),
];

/// One game: the columns of `games.csv`, in order (version 2; a version-1 row leaves the last two
/// empty).
#[derive(Clone, PartialEq, Eq, Debug, Default, Serialize, Deserialize)]
pub struct GameRecord {
    /// `<run_key>-<index:06>`: unique across runs with different settings.
    pub game_id: String,
    /// 16 hex digits: the hash of the settings that decide the games.
    pub run_key: String,
    /// Variant name (`malka`, `fide`, ...).
    pub variant: String,
    /// The run's base seed.
    pub seed: u64,
    /// Game number in the run, from 0.
    pub index: u64,
    /// Opening number: both games of a colour-swapped pair share it; equals `index` unpaired.
    pub pair: u64,
    /// Label of the engine playing White (`default`, `A`, `B`).
    pub white: String,
    /// Label of the engine playing Black.
    pub black: String,
    /// The position the game started from (after the opening plies).
    pub start_lfen: String,
    /// The moves, in coordinate notation, space-separated.
    pub moves: String,
    /// `1-0`, `0-1` or `1/2-1/2`.
    pub result: String,
    /// Why the game ended (`checkmate`, `resign`, ...).
    pub termination: String,
    /// Number of moves in `moves`.
    pub plies: u32,
    /// White's material at the end (P 1, N 3, B 3, R 5, Q 9; kings excluded).
    pub material_white: u32,
    /// Black's material at the end.
    pub material_black: u32,
    /// White's moves that changed level.
    pub level_changes_white: u32,
    /// Black's moves that changed level.
    pub level_changes_black: u32,
    /// White's captures.
    pub captures_white: u32,
    /// Black's captures.
    pub captures_black: u32,
    /// White's moves that gave check.
    pub checks_white: u32,
    /// Black's moves that gave check.
    pub checks_black: u32,
    /// Search nodes of both sides over the game.
    pub nodes: u64,
    /// Wall time of the game in milliseconds.
    pub duration_ms: u64,
    /// Engine settings (for a match `A: ... | B: ...`).
    pub settings: String,
    /// Version of the program that played the game.
    pub version: String,
    /// Version 2: 16 hex digits identifying the effective rules, or empty when not known.
    #[serde(default)]
    pub rules_id: String,
    /// Version 2: the coordinate moves from the rule set's start position to `start_lfen`,
    /// space-separated; empty when the game starts at the start position, or when the plies are
    /// not known (openings from a position file: then `start_lfen` is not the start position).
    #[serde(default)]
    pub opening_moves: String,
}

impl GameRecord {
    /// The game id of game `index` of run `run_key`.
    #[must_use]
    pub fn id(run_key: &str, index: u64) -> String {
        format!("{run_key}-{index:06}")
    }

    /// The same record with its time column zeroed (for comparing runs).
    #[must_use]
    pub fn without_timing(&self) -> GameRecord {
        GameRecord { duration_ms: 0, ..self.clone() }
    }

    /// The same record as version 1 holds it (the version-2 columns emptied).
    #[must_use]
    pub fn as_v1(&self) -> GameRecord {
        GameRecord { rules_id: String::new(), opening_moves: String::new(), ..self.clone() }
    }

    /// White's points: 1, ½ or 0 (`None` for a result that is none of `1-0`, `0-1`, `1/2-1/2`).
    #[must_use]
    pub fn white_points(&self) -> Option<f64> {
        match self.result.as_str() {
            "1-0" => Some(1.0),
            "0-1" => Some(0.0),
            "1/2-1/2" => Some(0.5),
            _ => None,
        }
    }

    /// The game's moves from the rule set's start position, whose LFEN is `startpos_lfen`: the
    /// opening plies, then `moves`. `None` when the game starts elsewhere and its opening plies
    /// are not known (version-1 records of random or book openings, openings from a file).
    #[must_use]
    pub fn moves_from_start(&self, startpos_lfen: &str) -> Option<Vec<&str>> {
        if self.opening_moves.trim().is_empty() && self.start_lfen != startpos_lfen {
            return None;
        }
        Some(self.opening_moves.split_whitespace().chain(self.moves.split_whitespace()).collect())
    }

    /// The cell of column `i` of [`GAME_COLUMNS`].
    ///
    /// # Panics
    /// If `i` is 27 or more.
    #[must_use]
    pub fn value(&self, i: usize) -> Value<'_> {
        let int = |n: u32| Value::Int(i64::from(n));
        let big = |n: u64| Value::Int(n as i64);
        match i {
            0 => Value::Text(&self.game_id),
            1 => Value::Text(&self.run_key),
            2 => Value::Text(&self.variant),
            3 => Value::UInt(self.seed),
            4 => big(self.index),
            5 => big(self.pair),
            6 => Value::Text(&self.white),
            7 => Value::Text(&self.black),
            8 => Value::Text(&self.start_lfen),
            9 => Value::Text(&self.moves),
            10 => Value::Text(&self.result),
            11 => Value::Text(&self.termination),
            12 => int(self.plies),
            13 => int(self.material_white),
            14 => int(self.material_black),
            15 => int(self.level_changes_white),
            16 => int(self.level_changes_black),
            17 => int(self.captures_white),
            18 => int(self.captures_black),
            19 => int(self.checks_white),
            20 => int(self.checks_black),
            21 => big(self.nodes),
            22 => big(self.duration_ms),
            23 => Value::Text(&self.settings),
            24 => Value::Text(&self.version),
            25 => Value::Text(&self.rules_id),
            26 => Value::Text(&self.opening_moves),
            _ => panic!("games.csv has {} columns, not {}", GAME_COLUMNS.len(), i + 1),
        }
    }

    /// The record as one CSV line of schema `version`, newline included.
    pub(crate) fn to_line(&self, version: Version) -> Result<Vec<u8>, String> {
        crate::columns::csv_line((0..version.columns().len()).map(|i| self.value(i).to_field()))
    }

    /// Checks what the types alone do not: a game id, a known result, a `rules_id` of 16 hex
    /// digits or none.
    pub(crate) fn check(&self) -> Result<(), String> {
        if self.game_id.is_empty() {
            return Err("empty game_id".into());
        }
        if self.white_points().is_none() {
            return Err(format!("result '{}' is not 1-0, 0-1 or 1/2-1/2", self.result));
        }
        let hex16 = self.rules_id.len() == 16 && self.rules_id.bytes().all(|b| b.is_ascii_hexdigit());
        if !(self.rules_id.is_empty() || hex16) {
            return Err(format!("rules_id '{}' is not 16 hex digits", self.rules_id));
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn serde_fields_are_the_columns_in_order() {
        let mut w = csv::Writer::from_writer(Vec::new());
        w.serialize(GameRecord::default()).unwrap();
        let text = String::from_utf8(w.into_inner().unwrap()).unwrap();
        let header = text.lines().next().unwrap();
        let names: Vec<&str> = GAME_COLUMNS.iter().map(|c| c.name).collect();
        assert_eq!(header, names.join(","));
        // `value` agrees with serde, column by column.
        let rec = GameRecord { seed: u64::MAX, plies: 7, opening_moves: "e2e4 e7e5".into(), ..GameRecord::default() };
        let mut w = csv::WriterBuilder::new().has_headers(false).from_writer(Vec::new());
        w.serialize(&rec).unwrap();
        let serde_line = w.into_inner().unwrap();
        assert_eq!(rec.to_line(Version::V2).unwrap(), serde_line);
        let v1 = String::from_utf8(rec.to_line(Version::V1).unwrap()).unwrap();
        assert_eq!(v1.trim_end().split(',').count(), 25);
    }

    #[test]
    fn headers_decide_the_version() {
        let names = |v: Version| v.columns().iter().map(|c| c.name.to_owned()).collect::<Vec<_>>();
        assert_eq!(Version::of_header(&names(Version::V1)), Ok(Version::V1));
        assert_eq!(Version::of_header(&names(Version::V2)), Ok(Version::V2));
        let mut h = names(Version::V2);
        h.pop();
        assert!(Version::of_header(&h).unwrap_err().contains("missing column(s) opening_moves"));
        let mut h = names(Version::V1);
        h.swap(0, 1);
        assert!(Version::of_header(&h).unwrap_err().contains("out of order"));
    }

    #[test]
    fn moves_from_the_start() {
        let start = "S w - - 0 1";
        let rec = GameRecord { start_lfen: "X".into(), moves: "a b".into(), ..GameRecord::default() };
        assert_eq!(rec.moves_from_start(start), None);
        let known = GameRecord { opening_moves: "o p".into(), ..rec.clone() };
        assert_eq!(known.moves_from_start(start), Some(vec!["o", "p", "a", "b"]));
        let at_start = GameRecord { start_lfen: start.into(), ..rec };
        assert_eq!(at_start.moves_from_start(start), Some(vec!["a", "b"]));
    }
}
