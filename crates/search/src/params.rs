//! Evaluation parameters: a generic default, parameter files (a rule set's preset, a tuned set,
//! `--params`), and `key=value` overrides.
//!
//! Every parameter has a stable key (see [`EvalParams::KEYS`]); [`EvalParams::describe`] writes
//! them all as `key=value` in that order, so a record names the exact evaluation it used. A
//! parameter file ([`EvalParams::parse`]) gives every key once, as `key = value` lines.

use std::fmt::Write as _;
use thiserror::Error;

/// A parameter that could not be set.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum ParamError {
    /// No parameter has this key.
    #[error("unknown evaluation parameter '{key}' (known: {known})")]
    UnknownKey {
        /// The key given.
        key: String,
        /// The known keys, comma-separated.
        known: String,
    },
    /// The value is not of the parameter's type.
    #[error("parameter '{key}': bad value '{value}' ({expected})")]
    BadValue {
        /// The key.
        key: String,
        /// The value given.
        value: String,
        /// What was expected.
        expected: &'static str,
    },
    /// A line that is not `key = value`.
    #[error("line {line}: expected 'key = value' (or a '#' comment), found '{text}'")]
    Syntax {
        /// 1-based line number.
        line: usize,
        /// The line.
        text: String,
    },
    /// A key given a second time.
    #[error("line {line}: '{key}' is given twice (first on line {first})")]
    Duplicate {
        /// 1-based line number of the repetition.
        line: usize,
        /// The key.
        key: String,
        /// The line that gave it first.
        first: usize,
    },
    /// A parameter file that ends before giving every key.
    #[error("line {line}: the file ends without {missing} (a parameter file gives every key)")]
    Missing {
        /// The line after the last one.
        line: usize,
        /// The keys not given, comma-separated.
        missing: String,
    },
    /// A good line with a bad key or value.
    #[error("line {line}: {source}")]
    Line {
        /// 1-based line number.
        line: usize,
        /// What was wrong.
        source: Box<ParamError>,
    },
}

/// All evaluation parameters, in centipawns. Indexed `[pawn, knight, bishop, rook, queen]` where
/// an array is per role (`[knight, bishop, rook, queen]` for `center_level`). The evaluation is
/// linear in them (see [`crate::Trace`]), so every one can be fitted to game results.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EvalParams {
    /// Material value per role.
    pub value: [i32; 5],
    /// Centralisation per role: cp per step (file or rank) nearer the centre of the board. For
    /// pawns, the file alone and in the middlegame only.
    pub center: [i32; 5],
    /// Centralisation across the levels per role (knight to queen): cp per level step nearer the
    /// central level (0 on fewer than three levels).
    pub center_level: [i32; 4],
    /// Middlegame: cp lost per step the king stands from its home rank and home level.
    pub king_home: i32,
    /// Endgame: cp per step (file or rank) the king stands nearer the centre of the board.
    pub king_center: i32,
    /// Endgame: cp per level step the king stands nearer the central level.
    pub king_center_level: i32,
    /// cp per step of a pawn's progress toward its promotion cells.
    pub pawn_advance: i32,
    /// cp per squared step of progress (rewards the last steps most).
    pub pawn_advance2: i32,
    /// Endgame cp per step of progress of a passed pawn (no enemy pawn ahead on its or an adjacent
    /// file, any level).
    pub passed: i32,
    /// Bonus for holding two bishops or more.
    pub bishop_pair: i32,
    /// Bonus for the side to move.
    pub tempo: i32,
    /// Middlegame: cp per king step a knight, bishop, rook or queen stands nearer the enemy king
    /// (out of 7; king tropism).
    pub tropism: i32,
    /// Mop-up, when one side is a rook's worth ahead and the other has no pawn: cp per half step
    /// the losing king stands from the centre of the stack.
    pub mopup: i32,
    /// Mop-up: cp per king step the winning king stands nearer the losing one (out of 7).
    pub mopup_kings: i32,
    /// cp per legal move more than the opponent, out of check (0 = off; costs two move
    /// generations per evaluation).
    pub mobility: i32,
}

/// One parameter: its key and its field.
struct Field {
    key: &'static str,
    get: fn(&EvalParams) -> i32,
    get_mut: fn(&mut EvalParams) -> &mut i32,
}

macro_rules! field {
    ($key:literal, $($path:tt)+) => {
        Field { key: $key, get: |p| p.$($path)+, get_mut: |p| &mut p.$($path)+ }
    };
}

/// Every parameter, in key order: the one table that keys, files, descriptions and the linear
/// model's vector read.
const FIELDS: [Field; EvalParams::COUNT] = [
    field!("value.pawn", value[0]),
    field!("value.knight", value[1]),
    field!("value.bishop", value[2]),
    field!("value.rook", value[3]),
    field!("value.queen", value[4]),
    field!("center.pawn", center[0]),
    field!("center.knight", center[1]),
    field!("center.bishop", center[2]),
    field!("center.rook", center[3]),
    field!("center.queen", center[4]),
    field!("center_level.knight", center_level[0]),
    field!("center_level.bishop", center_level[1]),
    field!("center_level.rook", center_level[2]),
    field!("center_level.queen", center_level[3]),
    field!("king_home", king_home),
    field!("king_center", king_center),
    field!("king_center_level", king_center_level),
    field!("pawn_advance", pawn_advance),
    field!("pawn_advance2", pawn_advance2),
    field!("passed", passed),
    field!("bishop_pair", bishop_pair),
    field!("tempo", tempo),
    field!("tropism", tropism),
    field!("mopup", mopup),
    field!("mopup_kings", mopup_kings),
    field!("mobility", mobility),
];

/// The generic base: the standard chess values, for any rule set without a preset of its own.
impl Default for EvalParams {
    fn default() -> Self {
        EvalParams {
            value: [100, 320, 330, 500, 900],
            center: [4, 6, 3, 1, 2],
            center_level: [6, 3, 1, 2],
            king_home: 8,
            king_center: 6,
            king_center_level: 6,
            pawn_advance: 4,
            pawn_advance2: 1,
            passed: 12,
            bishop_pair: 30,
            tempo: 10,
            tropism: 3,
            mopup: 5,
            mopup_kings: 10,
            mobility: 0,
        }
    }
}

impl EvalParams {
    /// The number of parameters.
    pub const COUNT: usize = 26;

    /// Every key, in the order [`EvalParams::describe`] and [`EvalParams::values`] use.
    pub const KEYS: [&'static str; EvalParams::COUNT] = {
        let mut keys = [""; EvalParams::COUNT];
        let mut i = 0;
        while i < keys.len() {
            keys[i] = FIELDS[i].key;
            i += 1;
        }
        keys
    };

    /// Every parameter, in [`EvalParams::KEYS`] order: the parameter vector of the linear model.
    #[must_use]
    pub fn values(&self) -> [i32; EvalParams::COUNT] {
        std::array::from_fn(|i| (FIELDS[i].get)(self))
    }

    /// The parameters of a vector in [`EvalParams::KEYS`] order.
    #[must_use]
    pub fn from_values(values: &[i32; EvalParams::COUNT]) -> EvalParams {
        let mut p = EvalParams::default();
        for (f, &v) in FIELDS.iter().zip(values) {
            *(f.get_mut)(&mut p) = v;
        }
        p
    }

    /// Reads a parameter file: `key = value` lines giving every key once (blank lines and `#`
    /// comments skipped). The rule sets' presets, `tune`'s output and `--params` files are such files.
    ///
    /// # Errors
    /// The first bad line by number: not `key = value`, an unknown key, a bad value, a key given
    /// twice, or (naming the line after the last) keys the file never gives.
    pub fn parse(text: &str) -> Result<EvalParams, ParamError> {
        let mut p = EvalParams::default();
        let mut seen: Vec<(String, usize)> = Vec::new();
        let mut lines = 0;
        for (i, raw) in text.lines().enumerate() {
            lines = i + 1;
            let line = raw.split('#').next().unwrap_or("").trim();
            if line.is_empty() {
                continue;
            }
            let (k, v) =
                line.split_once('=').ok_or_else(|| ParamError::Syntax { line: i + 1, text: raw.to_owned() })?;
            let k = k.trim();
            if let Some((_, first)) = seen.iter().find(|(s, _)| s == k) {
                return Err(ParamError::Duplicate { line: i + 1, key: k.to_owned(), first: *first });
            }
            p.set(k, v).map_err(|e| ParamError::Line { line: i + 1, source: Box::new(e) })?;
            seen.push((k.to_owned(), i + 1));
        }
        let missing: Vec<&str> = Self::KEYS.iter().copied().filter(|k| !seen.iter().any(|(s, _)| s == k)).collect();
        if !missing.is_empty() {
            return Err(ParamError::Missing { line: lines + 1, missing: missing.join(", ") });
        }
        Ok(p)
    }

    /// The parameters as a parameter file ([`EvalParams::parse`] reads it back): `key = value`
    /// lines in [`EvalParams::KEYS`] order.
    #[must_use]
    pub fn to_file(&self) -> String {
        FIELDS.iter().fold(String::new(), |mut out, f| {
            let _ = writeln!(out, "{} = {}", f.key, (f.get)(self));
            out
        })
    }

    /// Sets one parameter by key.
    ///
    /// # Errors
    /// An unknown key, or a value that is not an integer between -100000 and 100000.
    pub fn set(&mut self, key: &str, value: &str) -> Result<(), ParamError> {
        let (key, value) = (key.trim(), value.trim());
        let field = FIELDS
            .iter()
            .find(|f| f.key == key)
            .ok_or_else(|| ParamError::UnknownKey { key: key.to_owned(), known: Self::KEYS.join(", ") })?;
        *(field.get_mut)(self) =
            value.parse::<i32>().ok().filter(|v| v.abs() <= 100_000).ok_or_else(|| ParamError::BadValue {
                key: key.to_owned(),
                value: value.to_owned(),
                expected: "an integer between -100000 and 100000",
            })?;
        Ok(())
    }

    /// Sets a `key=value` pair (as given to `--param`).
    ///
    /// # Errors
    /// Text without `=`, or as [`EvalParams::set`].
    pub fn set_pair(&mut self, pair: &str) -> Result<(), ParamError> {
        let (k, v) = split_pair(pair)?;
        self.set(k, v)
    }

    /// The value of a key.
    #[must_use]
    pub fn get(&self, key: &str) -> Option<i32> {
        FIELDS.iter().find(|f| f.key == key).map(|f| (f.get)(self))
    }

    /// Every parameter as `key=value`, space-separated, in [`EvalParams::KEYS`] order.
    #[must_use]
    pub fn describe(&self) -> String {
        FIELDS.iter().map(|f| format!("{}={}", f.key, (f.get)(self))).collect::<Vec<_>>().join(" ")
    }
}

/// `key=value` split at the first `=`.
pub(crate) fn split_pair(pair: &str) -> Result<(&str, &str), ParamError> {
    pair.split_once('=').ok_or_else(|| ParamError::Syntax { line: 1, text: pair.to_owned() })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn set_get_and_describe_round_trip() {
        let mut p = EvalParams::default();
        p.set("value.queen", "777").unwrap();
        p.set_pair("tempo=-3").unwrap();
        assert_eq!(p.value[4], 777);
        assert_eq!(p.get("tempo"), Some(-3));
        assert_eq!(EvalParams::from_values(&p.values()), p);
        assert_eq!(EvalParams::parse(&p.describe().replace(' ', "\n")), Ok(p.clone()));
        assert_eq!(EvalParams::parse(&p.to_file()), Ok(p));
    }

    #[test]
    fn bad_input_is_named() {
        let mut p = EvalParams::default();
        let e = p.set("value.king", "3").unwrap_err();
        assert!(e.to_string().contains("value.king"));
        let e = p.set("tempo", "x").unwrap_err();
        assert!(e.to_string().contains("'x'"));
        let full = EvalParams::default().to_file();
        let e = EvalParams::parse(&format!("{full}# c\n\nbishop_pair 3\n")).unwrap_err();
        assert!(e.to_string().starts_with(&format!("line {}", EvalParams::KEYS.len() + 3)), "{e}");
        let e = EvalParams::parse(&format!("{full}foo = 1")).unwrap_err();
        assert!(
            e.to_string().starts_with(&format!("line {}", EvalParams::KEYS.len() + 1)) && e.to_string().contains("foo")
        );
        let e = EvalParams::parse(&format!("tempo = 4\n{full}")).unwrap_err();
        let line = EvalParams::KEYS.iter().position(|k| *k == "tempo").unwrap() + 2;
        assert_eq!(e, ParamError::Duplicate { line, key: "tempo".into(), first: 1 });
        // A file cut short: the missing keys are named, at the line where it ends.
        let cut = full.lines().take(5).collect::<Vec<_>>().join("\n");
        let e = EvalParams::parse(&cut).unwrap_err();
        assert!(e.to_string().starts_with("line 6: the file ends without center.pawn, "), "{e}");
    }
}
