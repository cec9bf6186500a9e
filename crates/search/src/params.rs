//! Evaluation parameters: per-variant defaults, overridable by `key=value` flags or a file.
//!
//! Every parameter has a stable key (see [`EvalParams::KEYS`]); [`EvalParams::describe`] writes
//! them all as `key=value` in that order, so a record names the exact evaluation it used.

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
    /// A good line with a bad key or value.
    #[error("line {line}: {source}")]
    Line {
        /// 1-based line number.
        line: usize,
        /// What was wrong.
        source: Box<ParamError>,
    },
}

/// All evaluation parameters, in centipawns unless noted. Indexed `[pawn, knight, bishop, rook, queen]`
/// where an array is per role.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EvalParams {
    /// Material value per role.
    pub value: [i32; 5],
    /// Centralisation per role: cp per unit of (file + rank + weighted level) distance nearer the
    /// centre of the stack.
    pub center: [i32; 5],
    /// Weight of the level axis in that distance, in percent of a file or rank step.
    pub center_level_pct: i32,
    /// Middlegame: cp lost per step the king stands from its home rank and home level.
    pub king_home: i32,
    /// Endgame: cp per unit of king centralisation.
    pub king_center: i32,
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
    /// cp per legal move more than the opponent (0 = off; costs two move generations per evaluation).
    pub mobility: i32,
    /// Whether pawns promote on the last rank of any level (Air Attack) rather than only on the
    /// enemy's home level (Nardeshir; irrelevant on one level).
    pub promo_any_level: bool,
}

impl Default for EvalParams {
    fn default() -> Self {
        EvalParams::for_variant("fide")
    }
}

impl EvalParams {
    /// Every key, in the order [`EvalParams::describe`] writes them.
    pub const KEYS: [&'static str; 23] = [
        "value.pawn",
        "value.knight",
        "value.bishop",
        "value.rook",
        "value.queen",
        "center.pawn",
        "center.knight",
        "center.bishop",
        "center.rook",
        "center.queen",
        "center_level_pct",
        "king_home",
        "king_center",
        "pawn_advance",
        "pawn_advance2",
        "passed",
        "bishop_pair",
        "tempo",
        "tropism",
        "mopup",
        "mopup_kings",
        "mobility",
        "promo_any_level",
    ];

    /// The defaults for a variant (`malka`, `traditional`, `fide`, `air-attack`; anything else gets
    /// the `fide` values). The reasoning behind each set is in the crate's README.
    #[must_use]
    pub fn for_variant(name: &str) -> EvalParams {
        let base = EvalParams {
            value: [100, 320, 330, 500, 900],
            center: [4, 6, 3, 1, 2],
            center_level_pct: 100,
            king_home: 8,
            king_center: 6,
            pawn_advance: 4,
            pawn_advance2: 1,
            passed: 12,
            bishop_pair: 30,
            tempo: 10,
            tropism: 3,
            mopup: 5,
            mopup_kings: 10,
            mobility: 0,
            promo_any_level: false,
        };
        // Material: standard values on one level; elsewhere each piece's standard value scaled by
        // the square root of its mean mobility on an empty board, relative to standard chess (see
        // the crate README for the table). The Malka queen steps like a king: scaled from the knight.
        match name {
            // Kings on the stack are better off without the "stay home" term (self-play, README).
            "traditional" => EvalParams { value: [100, 475, 425, 640, 1150], king_home: 0, ..base },
            "malka" => EvalParams { value: [100, 475, 425, 640, 570], center: [4, 6, 3, 1, 5], king_home: 0, ..base },
            "air-attack" => {
                EvalParams { value: [100, 450, 470, 690, 1240], promo_any_level: true, center_level_pct: 0, ..base }
            }
            _ => base,
        }
    }

    fn role_index(key: &str, prefix: &str) -> Option<usize> {
        let rest = key.strip_prefix(prefix)?;
        ["pawn", "knight", "bishop", "rook", "queen"].iter().position(|r| *r == rest)
    }

    /// Sets one parameter by key.
    ///
    /// # Errors
    /// An unknown key, or a value that is not an integer (`true`/`false` for `promo_any_level`).
    pub fn set(&mut self, key: &str, value: &str) -> Result<(), ParamError> {
        let key = key.trim();
        let value = value.trim();
        if key == "promo_any_level" {
            self.promo_any_level = match value {
                "true" | "1" => true,
                "false" | "0" => false,
                _ => {
                    return Err(ParamError::BadValue {
                        key: key.to_owned(),
                        value: value.to_owned(),
                        expected: "true or false",
                    })
                }
            };
            return Ok(());
        }
        let slot: &mut i32 = if let Some(i) = Self::role_index(key, "value.") {
            &mut self.value[i]
        } else if let Some(i) = Self::role_index(key, "center.") {
            &mut self.center[i]
        } else {
            match key {
                "center_level_pct" => &mut self.center_level_pct,
                "king_home" => &mut self.king_home,
                "king_center" => &mut self.king_center,
                "pawn_advance" => &mut self.pawn_advance,
                "pawn_advance2" => &mut self.pawn_advance2,
                "passed" => &mut self.passed,
                "bishop_pair" => &mut self.bishop_pair,
                "tempo" => &mut self.tempo,
                "tropism" => &mut self.tropism,
                "mopup" => &mut self.mopup,
                "mopup_kings" => &mut self.mopup_kings,
                "mobility" => &mut self.mobility,
                _ => return Err(ParamError::UnknownKey { key: key.to_owned(), known: Self::KEYS.join(", ") }),
            }
        };
        *slot = value.parse::<i32>().ok().filter(|v| v.abs() <= 100_000).ok_or_else(|| ParamError::BadValue {
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

    /// Applies a parameter file: `key = value` lines; blank lines and `#` comments are skipped.
    ///
    /// # Errors
    /// The first bad line, by number. Nothing is changed unless every line is good.
    pub fn apply_file(&mut self, text: &str) -> Result<(), ParamError> {
        apply_lines(self, text, EvalParams::set)
    }

    /// The value of a key, as text.
    #[must_use]
    pub fn get(&self, key: &str) -> Option<String> {
        if key == "promo_any_level" {
            return Some(self.promo_any_level.to_string());
        }
        if let Some(i) = Self::role_index(key, "value.") {
            return Some(self.value[i].to_string());
        }
        if let Some(i) = Self::role_index(key, "center.") {
            return Some(self.center[i].to_string());
        }
        let v = match key {
            "center_level_pct" => self.center_level_pct,
            "king_home" => self.king_home,
            "king_center" => self.king_center,
            "pawn_advance" => self.pawn_advance,
            "pawn_advance2" => self.pawn_advance2,
            "passed" => self.passed,
            "bishop_pair" => self.bishop_pair,
            "tempo" => self.tempo,
            "tropism" => self.tropism,
            "mopup" => self.mopup,
            "mopup_kings" => self.mopup_kings,
            "mobility" => self.mobility,
            _ => return None,
        };
        Some(v.to_string())
    }

    /// Every parameter as `key=value`, space-separated, in [`EvalParams::KEYS`] order.
    #[must_use]
    pub fn describe(&self) -> String {
        Self::KEYS.iter().filter_map(|k| self.get(k).map(|v| format!("{k}={v}"))).collect::<Vec<_>>().join(" ")
    }
}

/// `key=value` split at the first `=`.
pub(crate) fn split_pair(pair: &str) -> Result<(&str, &str), ParamError> {
    pair.split_once('=').ok_or_else(|| ParamError::Syntax { line: 1, text: pair.to_owned() })
}

/// Applies `key = value` lines to a copy of `target` with `set` (blank lines and `#` comments
/// skipped) and keeps the copy only if every line is good; errors name the line.
pub(crate) fn apply_lines<T: Clone>(
    target: &mut T,
    text: &str,
    set: impl Fn(&mut T, &str, &str) -> Result<(), ParamError>,
) -> Result<(), ParamError> {
    let mut next = target.clone();
    for (i, raw) in text.lines().enumerate() {
        let line = raw.split('#').next().unwrap_or("").trim();
        if line.is_empty() {
            continue;
        }
        let (k, v) = line.split_once('=').ok_or_else(|| ParamError::Syntax { line: i + 1, text: raw.to_owned() })?;
        set(&mut next, k, v).map_err(|e| ParamError::Line { line: i + 1, source: Box::new(e) })?;
    }
    *target = next;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn set_get_and_describe_round_trip() {
        let mut p = EvalParams::for_variant("malka");
        assert!(p.value[4] < EvalParams::for_variant("traditional").value[4]);
        p.set("value.queen", "777").unwrap();
        p.set_pair("tempo=-3").unwrap();
        assert_eq!(p.value[4], 777);
        assert_eq!(p.get("tempo").as_deref(), Some("-3"));
        let mut q = EvalParams::for_variant("fide");
        q.apply_file(&p.describe().replace(' ', "\n")).unwrap();
        assert_eq!(p, q);
    }

    #[test]
    fn bad_input_is_named() {
        let mut p = EvalParams::default();
        let e = p.set("value.king", "3").unwrap_err();
        assert!(e.to_string().contains("value.king"));
        let e = p.set("tempo", "x").unwrap_err();
        assert!(e.to_string().contains("'x'"));
        let before = p.clone();
        let e = p.apply_file("tempo = 5\n# c\n\nbishop_pair 3\n").unwrap_err();
        assert!(e.to_string().starts_with("line 4"), "{e}");
        let e = p.apply_file("tempo = 5\nfoo = 1").unwrap_err();
        assert!(e.to_string().starts_with("line 2") && e.to_string().contains("foo"), "{e}");
        assert_eq!(p, before);
    }
}
