//! Evaluation parameters: a generic default, parameter files (a rule set's preset, a tuned set,
//! `--params`), and `key=value` overrides.
//!
//! Every parameter has a stable key (see [`EvalParams::KEYS`]); [`EvalParams::describe`] writes
//! them all as `key=value` in that order, so a record names the exact evaluation it used. A
//! parameter file ([`EvalParams::parse`]) gives every key once, as `key = value` lines.

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

/// The generic base: the standard chess values, for any rule set without a preset of its own.
impl Default for EvalParams {
    fn default() -> Self {
        EvalParams {
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
        }
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
        Self::KEYS.iter().filter_map(|k| self.get(k).map(|v| format!("{k} = {v}\n"))).collect()
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn set_get_and_describe_round_trip() {
        let mut p = EvalParams::default();
        p.set("value.queen", "777").unwrap();
        p.set_pair("tempo=-3").unwrap();
        assert_eq!(p.value[4], 777);
        assert_eq!(p.get("tempo").as_deref(), Some("-3"));
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
