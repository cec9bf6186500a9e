//! Evaluation parameters: a generic default, parameter files (a rule set's preset, a tuned set,
//! `--params`), and `key=value` overrides.
//!
//! Every positional and material term has a middlegame and an endgame value (`value.knight.mg`,
//! `value.knight.eg`), tapered by the game phase; a few parameters are single values (`tempo`,
//! the mop-up guidance, the drawish-material scale, legal-move mobility). [`EvalParams::KEYS`]
//! lists every key; [`EvalParams::describe`] writes them all as `key=value` in that order, so a
//! record names the exact evaluation it used.
//!
//! A parameter file ([`EvalParams::parse`]) has `key = value` lines. Files that begin with a
//! `format = 2` line give every key. Older files (format 1, no such line) give the 26 terms of
//! the first evaluation by their bare names (`value.knight`, `passed`): a bare name sets the
//! phases that term had (both, or only the middlegame or only the endgame one, the other then
//! 0), and the terms added since keep their defaults (off), so an old file evaluates exactly as it
//! did. Every value has a range; a value outside it is refused, naming the line.

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
    /// The value is not of the parameter's type or range.
    #[error("parameter '{key}': bad value '{value}' ({expected})")]
    BadValue {
        /// The key.
        key: String,
        /// The value given.
        value: String,
        /// What was expected.
        expected: String,
    },
    /// A line that is not `key = value`.
    #[error("line {line}: expected 'key = value' (or a '#' comment), found '{text}'")]
    Syntax {
        /// 1-based line number.
        line: usize,
        /// The line.
        text: String,
    },
    /// A key given a second time (a bare term name and one of its phases count as the same key).
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

/// Which phases a term of the first evaluation (parameter files of format 1) had.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Legacy {
    /// Both phases: a bare name sets both.
    Both,
    /// The middlegame only: a bare name sets it, the endgame value is 0.
    Mg,
    /// The endgame only.
    Eg,
    /// Added after format 1: off in files of that format.
    New,
}

/// One tapered term: its key, its place in format-1 files, its range and its generic default.
#[derive(Clone, Copy, Debug)]
pub struct TermDef {
    /// The key (`value.knight`; its phases are `value.knight.mg` and `value.knight.eg`).
    pub key: &'static str,
    /// Its phases in format-1 files.
    pub legacy: Legacy,
    /// The values a file may give.
    pub range: (i32, i32),
    /// The generic default (middlegame, endgame).
    pub default: (i32, i32),
    /// What it scores.
    pub doc: &'static str,
}

const fn term(key: &'static str, legacy: Legacy, range: (i32, i32), default: (i32, i32), doc: &'static str) -> TermDef {
    TermDef { key, legacy, range, default, doc }
}

const VALUE: (i32, i32) = (1, 5000);
const POS: (i32, i32) = (-500, 500);

/// The tapered terms, in key order (their numbers are [`t`]'s).
pub const TERMS: [TermDef; t::COUNT] = [
    term("value.pawn", Legacy::Both, VALUE, (100, 100), "material: a pawn"),
    term("value.knight", Legacy::Both, VALUE, (320, 320), "material: a knight"),
    term("value.bishop", Legacy::Both, VALUE, (330, 330), "material: a bishop"),
    term("value.rook", Legacy::Both, VALUE, (500, 500), "material: a rook"),
    term("value.queen", Legacy::Both, VALUE, (900, 900), "material: a queen"),
    term("center.pawn", Legacy::Mg, POS, (4, 0), "a pawn: per step of its file nearer the centre (0 to 3)"),
    term("center.knight", Legacy::Both, POS, (6, 6), "per step (file or rank) nearer the centre of the board"),
    term("center.bishop", Legacy::Both, POS, (3, 3), "per step nearer the centre of the board"),
    term("center.rook", Legacy::Both, POS, (1, 1), "per step nearer the centre of the board"),
    term("center.queen", Legacy::Both, POS, (2, 2), "per step nearer the centre of the board"),
    term("center_level.knight", Legacy::Both, POS, (6, 6), "per level step nearer the central level"),
    term("center_level.bishop", Legacy::Both, POS, (3, 3), "per level step nearer the central level"),
    term("center_level.rook", Legacy::Both, POS, (1, 1), "per level step nearer the central level"),
    term("center_level.queen", Legacy::Both, POS, (2, 2), "per level step nearer the central level"),
    term("king_home", Legacy::Mg, POS, (8, 0), "lost per step the king stands from its home rank and level"),
    term("king_center", Legacy::Eg, POS, (0, 6), "the king: per step nearer the centre of the board"),
    term("king_center_level", Legacy::Eg, POS, (0, 6), "the king: per level step nearer the central level"),
    term("pawn_advance", Legacy::Both, POS, (4, 4), "per step of a pawn's progress toward promotion"),
    term("pawn_advance2", Legacy::Both, (-100, 100), (1, 1), "per squared step of progress"),
    term("passed", Legacy::Eg, POS, (0, 12), "a passed pawn, per step of progress"),
    term("bishop_pair", Legacy::Both, POS, (30, 30), "two bishops or more"),
    term("tropism", Legacy::Mg, (-100, 100), (3, 0), "a piece, per king step nearer the enemy king (of 7)"),
    term(
        "mobility.knight",
        Legacy::New,
        (-100, 100),
        (0, 0),
        "per cell a knight attacks: not ours, not guarded by an enemy pawn",
    ),
    term("mobility.bishop", Legacy::New, (-100, 100), (0, 0), "per cell a bishop attacks (as mobility.knight)"),
    term("mobility.rook", Legacy::New, (-100, 100), (0, 0), "per cell a rook attacks (as mobility.knight)"),
    term("mobility.queen", Legacy::New, (-100, 100), (0, 0), "per cell a queen attacks (as mobility.knight)"),
    term("mobility.king", Legacy::New, (-100, 100), (0, 0), "per cell the king attacks (as mobility.knight)"),
    term("king_attack.knight", Legacy::New, (-200, 200), (0, 0), "per cell next to the enemy king a knight attacks"),
    term("king_attack.bishop", Legacy::New, (-200, 200), (0, 0), "per cell next to the enemy king a bishop attacks"),
    term("king_attack.rook", Legacy::New, (-200, 200), (0, 0), "per cell next to the enemy king a rook attacks"),
    term("king_attack.queen", Legacy::New, (-200, 200), (0, 0), "per cell next to the enemy king a queen attacks"),
    term("shelter", Legacy::New, (-200, 200), (0, 0), "a pawn in front of its king (its level and the next)"),
    term("doubled", Legacy::New, POS, (0, 0), "a pawn behind another of its side on its file and level"),
    term("isolated", Legacy::New, POS, (0, 0), "a pawn with no pawn of its side on the files next to it"),
    term("rook_open", Legacy::New, POS, (0, 0), "a rook on a file of its level without pawns"),
    term("rook_semiopen", Legacy::New, POS, (0, 0), "a rook on a file of its level without pawns of its side"),
    term("queen_open", Legacy::New, POS, (0, 0), "a queen on a file of its level without pawns"),
];

/// The numbers of the tapered terms (indices into [`EvalParams::mg`] and [`EvalParams::eg`]).
pub mod t {
    /// `value.pawn`; the roles pawn to queen follow.
    pub const VALUE: usize = 0;
    /// `center.pawn`; the roles pawn to queen follow.
    pub const CENTER: usize = 5;
    /// `center_level.knight`; the roles knight to queen follow.
    pub const CENTER_LEVEL: usize = 10;
    /// `king_home`.
    pub const KING_HOME: usize = 14;
    /// `king_center`.
    pub const KING_CENTER: usize = 15;
    /// `king_center_level`.
    pub const KING_CENTER_LEVEL: usize = 16;
    /// `pawn_advance`.
    pub const PAWN_ADVANCE: usize = 17;
    /// `pawn_advance2`.
    pub const PAWN_ADVANCE2: usize = 18;
    /// `passed`.
    pub const PASSED: usize = 19;
    /// `bishop_pair`.
    pub const BISHOP_PAIR: usize = 20;
    /// `tropism`.
    pub const TROPISM: usize = 21;
    /// `mobility.knight`; bishop, rook, queen and king follow.
    pub const MOBILITY: usize = 22;
    /// `king_attack.knight`; bishop, rook and queen follow.
    pub const KING_ATTACK: usize = 27;
    /// `shelter`.
    pub const SHELTER: usize = 31;
    /// `doubled`.
    pub const DOUBLED: usize = 32;
    /// `isolated`.
    pub const ISOLATED: usize = 33;
    /// `rook_open`.
    pub const ROOK_OPEN: usize = 34;
    /// `rook_semiopen`.
    pub const ROOK_SEMIOPEN: usize = 35;
    /// `queen_open`.
    pub const QUEEN_OPEN: usize = 36;
    /// The number of tapered terms.
    pub const COUNT: usize = 37;
}

/// One single-valued parameter.
#[derive(Clone, Copy, Debug)]
pub struct SingleDef {
    /// Its key.
    pub key: &'static str,
    /// Whether format-1 files give it.
    pub legacy: bool,
    /// Whether format-2 files may leave it out (a key added after them: its default).
    pub optional: bool,
    /// The values a file may give.
    pub range: (i32, i32),
    /// The generic default.
    pub default: i32,
    /// What it does.
    pub doc: &'static str,
    get: fn(&EvalParams) -> i32,
    get_mut: fn(&mut EvalParams) -> &mut i32,
}

macro_rules! single {
    ($key:literal, $field:ident, $legacy:expr, $range:expr, $default:expr, $doc:literal) => {
        single!($key, $field, $legacy, false, $range, $default, $doc)
    };
    ($key:literal, $field:ident, $legacy:expr, $optional:expr, $range:expr, $default:expr, $doc:literal) => {
        SingleDef {
            key: $key,
            legacy: $legacy,
            optional: $optional,
            range: $range,
            default: $default,
            doc: $doc,
            get: |p| p.$field,
            get_mut: |p| &mut p.$field,
        }
    };
}

/// The single-valued parameters, in key order.
pub const SINGLES: [SingleDef; 6] = [
    single!("tempo", tempo, true, (-200, 200), 10, "for the side to move"),
    single!("mopup", mopup, true, (0, 500), 5, "guidance, one side a rook ahead and the other without pawns: per half step the losing king stands from the centre (never fitted)"),
    single!("mopup_kings", mopup_kings, true, (0, 500), 10, "guidance: per king step the winning king stands nearer the losing one (never fitted)"),
    single!("scale.drawish", scale_drawish, false, (0, 64), 64, "64ths of the score kept when the side ahead has no pawn and leads by a bishop or less"),
    single!("mobility", mobility, true, (-100, 100), 0, "per legal move more than the opponent, out of check (costs two move generations; 0 = off)"),
    single!("drawish.rook", drawish_rook, false, true, (0, 1), 0, "1: a side ahead with no pawn and a lone rook also takes scale.drawish (where K+R cannot mate K; never fitted)"),
];

/// All evaluation parameters, in centipawns.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EvalParams {
    /// Each tapered term's middlegame value, numbered as [`t`].
    pub mg: [i32; t::COUNT],
    /// Each tapered term's endgame value.
    pub eg: [i32; t::COUNT],
    /// `tempo`.
    pub tempo: i32,
    /// `mopup`.
    pub mopup: i32,
    /// `mopup_kings`.
    pub mopup_kings: i32,
    /// `scale.drawish`, in 64ths.
    pub scale_drawish: i32,
    /// `mobility` (legal moves).
    pub mobility: i32,
    /// `drawish.rook`: 1 where a lone rook cannot mate.
    pub drawish_rook: i32,
}

/// The generic base: the standard chess values, for any rule set without a preset of its own.
impl Default for EvalParams {
    fn default() -> Self {
        let mut p = EvalParams {
            mg: [0; t::COUNT],
            eg: [0; t::COUNT],
            tempo: 0,
            mopup: 0,
            mopup_kings: 0,
            scale_drawish: 0,
            mobility: 0,
            drawish_rook: 0,
        };
        for (i, d) in TERMS.iter().enumerate() {
            (p.mg[i], p.eg[i]) = d.default;
        }
        for s in SINGLES {
            *(s.get_mut)(&mut p) = s.default;
        }
        p
    }
}

/// Where a key points.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Slot {
    /// A term's middlegame (false) or endgame (true) value.
    Phase(usize, bool),
    /// A term by its bare name: the phases it had in format 1.
    Bare(usize),
    /// A single value.
    Single(usize),
}

impl Slot {
    fn of(key: &str) -> Option<Slot> {
        if let Some(i) = SINGLES.iter().position(|s| s.key == key) {
            return Some(Slot::Single(i));
        }
        if let Some(i) = TERMS.iter().position(|d| d.key == key) {
            return Some(Slot::Bare(i));
        }
        let (base, phase) = key.rsplit_once('.')?;
        let eg = match phase {
            "mg" => false,
            "eg" => true,
            _ => return None,
        };
        TERMS.iter().position(|d| d.key == base).map(|i| Slot::Phase(i, eg))
    }

    /// The term or single it belongs to (a bare name and its phases are one parameter in files).
    fn owner(self) -> (bool, usize) {
        match self {
            Slot::Phase(i, _) | Slot::Bare(i) => (false, i),
            Slot::Single(i) => (true, i),
        }
    }

    fn range(self) -> (i32, i32) {
        match self {
            Slot::Phase(i, _) | Slot::Bare(i) => TERMS[i].range,
            Slot::Single(i) => SINGLES[i].range,
        }
    }
}

impl EvalParams {
    /// The number of parameters: two a tapered term, then the single values.
    pub const COUNT: usize = 2 * t::COUNT + SINGLES.len();

    /// Every key, in the order [`EvalParams::describe`] and [`EvalParams::values`] use: each
    /// term's `.mg` and `.eg`, then the single values.
    pub const KEYS: [&'static str; EvalParams::COUNT] = {
        let mut keys = [""; EvalParams::COUNT];
        let mut i = 0;
        while i < t::COUNT {
            keys[2 * i] = PHASE_KEYS[2 * i];
            keys[2 * i + 1] = PHASE_KEYS[2 * i + 1];
            i += 1;
        }
        let mut j = 0;
        while j < SINGLES.len() {
            keys[2 * t::COUNT + j] = SINGLES[j].key;
            j += 1;
        }
        keys
    };

    /// The index in [`EvalParams::KEYS`] of a term's phase.
    #[must_use]
    pub const fn index(term: usize, eg: bool) -> usize {
        2 * term + eg as usize
    }

    /// The index in [`EvalParams::KEYS`] of the single value `key`.
    #[must_use]
    pub fn single_index(key: &str) -> Option<usize> {
        SINGLES.iter().position(|s| s.key == key).map(|j| 2 * t::COUNT + j)
    }

    /// Every parameter, in [`EvalParams::KEYS`] order.
    #[must_use]
    pub fn values(&self) -> [i32; EvalParams::COUNT] {
        let mut v = [0; EvalParams::COUNT];
        for i in 0..t::COUNT {
            v[2 * i] = self.mg[i];
            v[2 * i + 1] = self.eg[i];
        }
        for (j, s) in SINGLES.iter().enumerate() {
            v[2 * t::COUNT + j] = (s.get)(self);
        }
        v
    }

    /// The parameters of a vector in [`EvalParams::KEYS`] order.
    #[must_use]
    pub fn from_values(values: &[i32; EvalParams::COUNT]) -> EvalParams {
        let mut p = EvalParams::default();
        for i in 0..t::COUNT {
            p.mg[i] = values[2 * i];
            p.eg[i] = values[2 * i + 1];
        }
        for (j, s) in SINGLES.iter().enumerate() {
            *(s.get_mut)(&mut p) = values[2 * t::COUNT + j];
        }
        p
    }

    /// The range a file may give the parameter at `index` of [`EvalParams::KEYS`].
    #[must_use]
    pub fn range(index: usize) -> (i32, i32) {
        if index < 2 * t::COUNT {
            TERMS[index / 2].range
        } else {
            SINGLES[index - 2 * t::COUNT].range
        }
    }

    /// Reads a parameter file (the module's documentation gives the formats): `key = value`
    /// lines, blank lines and `#` comments skipped.
    ///
    /// # Errors
    /// The first bad line by number: not `key = value`, an unknown key, a bad or out-of-range
    /// value, a key given twice, or (naming the line after the last) keys the file never gives.
    pub fn parse(text: &str) -> Result<EvalParams, ParamError> {
        let mut p = EvalParams::default();
        let mut format = 1;
        let mut seen: Vec<(String, usize, Slot)> = Vec::new();
        let mut lines = 0;
        let mut first = true;
        for (i, raw) in text.lines().enumerate() {
            lines = i + 1;
            let line = raw.split('#').next().unwrap_or("").trim();
            if line.is_empty() {
                continue;
            }
            let (k, v) =
                line.split_once('=').ok_or_else(|| ParamError::Syntax { line: i + 1, text: raw.to_owned() })?;
            let (k, v) = (k.trim(), v.trim());
            let at = |e: ParamError| ParamError::Line { line: i + 1, source: Box::new(e) };
            if k == "format" {
                if !first || !matches!(v, "1" | "2") {
                    let expected = "'format = 1' or 'format = 2', on the first line".to_owned();
                    return Err(at(ParamError::BadValue { key: k.into(), value: v.into(), expected }));
                }
                format = if v == "2" { 2 } else { 1 };
                first = false;
                continue;
            }
            first = false;
            let slot = Slot::of(k).ok_or_else(|| at(unknown(k)))?;
            if let Some((_, line, _)) = seen.iter().find(|(_, _, s)| clash(*s, slot)) {
                return Err(ParamError::Duplicate { line: i + 1, key: k.to_owned(), first: *line });
            }
            p.set_slot(slot, k, v).map_err(at)?;
            seen.push((k.to_owned(), i + 1, slot));
        }
        let mut missing = missing_keys(format, &seen);
        if !missing.is_empty() {
            if missing.len() > 10 {
                let more = missing.len() - 10;
                missing.truncate(10);
                missing.push(format!("and {more} more"));
            }
            return Err(ParamError::Missing { line: lines + 1, missing: missing.join(", ") });
        }
        Ok(p)
    }

    /// The parameters as a parameter file of format 2 ([`EvalParams::parse`] reads it back).
    #[must_use]
    pub fn to_file(&self) -> String {
        let mut out = String::from("format = 2\n");
        for (k, v) in Self::KEYS.iter().zip(self.values()) {
            let _ = writeln!(out, "{k} = {v}");
        }
        out
    }

    fn set_slot(&mut self, slot: Slot, key: &str, value: &str) -> Result<(), ParamError> {
        let (lo, hi) = slot.range();
        let v = value.parse::<i32>().ok().filter(|v| (lo..=hi).contains(v)).ok_or_else(|| ParamError::BadValue {
            key: key.to_owned(),
            value: value.to_owned(),
            expected: format!("an integer from {lo} to {hi}"),
        })?;
        match slot {
            Slot::Phase(i, false) => self.mg[i] = v,
            Slot::Phase(i, true) => self.eg[i] = v,
            Slot::Bare(i) => {
                let (mg, eg) = match TERMS[i].legacy {
                    Legacy::Both | Legacy::New => (v, v),
                    Legacy::Mg => (v, 0),
                    Legacy::Eg => (0, v),
                };
                (self.mg[i], self.eg[i]) = (mg, eg);
            }
            Slot::Single(j) => *(SINGLES[j].get_mut)(self) = v,
        }
        Ok(())
    }

    /// Sets one parameter by key: a phase (`value.queen.mg`), a term by its bare name (both
    /// phases, or for a term of one phase in format 1 that phase: `passed` is the endgame's), or
    /// a single value.
    ///
    /// # Errors
    /// An unknown key, or a value that is not an integer in the key's range.
    pub fn set(&mut self, key: &str, value: &str) -> Result<(), ParamError> {
        let (key, value) = (key.trim(), value.trim());
        let slot = Slot::of(key).ok_or_else(|| unknown(key))?;
        self.set_slot(slot, key, value)
    }

    /// Sets a `key=value` pair (as given to `--param`).
    ///
    /// # Errors
    /// Text without `=`, or as [`EvalParams::set`].
    pub fn set_pair(&mut self, pair: &str) -> Result<(), ParamError> {
        let (k, v) = split_pair(pair)?;
        self.set(k, v)
    }

    /// The value of a key (a phase or a single value; a bare term name gives its middlegame
    /// value, or for an endgame-only term of format 1 its endgame value).
    #[must_use]
    pub fn get(&self, key: &str) -> Option<i32> {
        match Slot::of(key)? {
            Slot::Phase(i, eg) => Some(if eg { self.eg[i] } else { self.mg[i] }),
            Slot::Bare(i) => Some(if TERMS[i].legacy == Legacy::Eg { self.eg[i] } else { self.mg[i] }),
            Slot::Single(j) => Some((SINGLES[j].get)(self)),
        }
    }

    /// Every parameter as `key=value`, space-separated, in [`EvalParams::KEYS`] order.
    #[must_use]
    pub fn describe(&self) -> String {
        Self::KEYS.iter().zip(self.values()).map(|(k, v)| format!("{k}={v}")).collect::<Vec<_>>().join(" ")
    }
}

/// The names of each term's phases, `2i` the middlegame's and `2i + 1` the endgame's.
const PHASE_KEYS: [&str; 2 * t::COUNT] = phase_keys();

/// `TERMS[i].key` with `.mg` and `.eg`, made at compile time.
const fn phase_keys() -> [&'static str; 2 * t::COUNT] {
    // The keys are spelt out: const code cannot concatenate strings.
    [
        "value.pawn.mg",
        "value.pawn.eg",
        "value.knight.mg",
        "value.knight.eg",
        "value.bishop.mg",
        "value.bishop.eg",
        "value.rook.mg",
        "value.rook.eg",
        "value.queen.mg",
        "value.queen.eg",
        "center.pawn.mg",
        "center.pawn.eg",
        "center.knight.mg",
        "center.knight.eg",
        "center.bishop.mg",
        "center.bishop.eg",
        "center.rook.mg",
        "center.rook.eg",
        "center.queen.mg",
        "center.queen.eg",
        "center_level.knight.mg",
        "center_level.knight.eg",
        "center_level.bishop.mg",
        "center_level.bishop.eg",
        "center_level.rook.mg",
        "center_level.rook.eg",
        "center_level.queen.mg",
        "center_level.queen.eg",
        "king_home.mg",
        "king_home.eg",
        "king_center.mg",
        "king_center.eg",
        "king_center_level.mg",
        "king_center_level.eg",
        "pawn_advance.mg",
        "pawn_advance.eg",
        "pawn_advance2.mg",
        "pawn_advance2.eg",
        "passed.mg",
        "passed.eg",
        "bishop_pair.mg",
        "bishop_pair.eg",
        "tropism.mg",
        "tropism.eg",
        "mobility.knight.mg",
        "mobility.knight.eg",
        "mobility.bishop.mg",
        "mobility.bishop.eg",
        "mobility.rook.mg",
        "mobility.rook.eg",
        "mobility.queen.mg",
        "mobility.queen.eg",
        "mobility.king.mg",
        "mobility.king.eg",
        "king_attack.knight.mg",
        "king_attack.knight.eg",
        "king_attack.bishop.mg",
        "king_attack.bishop.eg",
        "king_attack.rook.mg",
        "king_attack.rook.eg",
        "king_attack.queen.mg",
        "king_attack.queen.eg",
        "shelter.mg",
        "shelter.eg",
        "doubled.mg",
        "doubled.eg",
        "isolated.mg",
        "isolated.eg",
        "rook_open.mg",
        "rook_open.eg",
        "rook_semiopen.mg",
        "rook_semiopen.eg",
        "queen_open.mg",
        "queen_open.eg",
    ]
}

fn unknown(key: &str) -> ParamError {
    ParamError::UnknownKey { key: key.to_owned(), known: EvalParams::KEYS.join(", ") }
}

/// Whether two keys set the same value: the same key, or a term's bare name and one of its phases.
fn clash(a: Slot, b: Slot) -> bool {
    a == b || (a.owner() == b.owner() && (matches!(a, Slot::Bare(_)) || matches!(b, Slot::Bare(_))))
}

/// The keys a file of `format` must give and did not.
fn missing_keys(format: u32, seen: &[(String, usize, Slot)]) -> Vec<String> {
    let given = |s: Slot| seen.iter().any(|(_, _, x)| clash(*x, s));
    let mut missing = Vec::new();
    for (i, d) in TERMS.iter().enumerate() {
        if format == 1 {
            if d.legacy != Legacy::New && !given(Slot::Bare(i)) {
                missing.push(d.key.to_owned());
            }
        } else {
            for eg in [false, true] {
                if !given(Slot::Phase(i, eg)) {
                    missing.push(PHASE_KEYS[2 * i + usize::from(eg)].to_owned());
                }
            }
        }
    }
    for (j, s) in SINGLES.iter().enumerate() {
        if ((format == 2 && !s.optional) || s.legacy) && !given(Slot::Single(j)) {
            missing.push(s.key.to_owned());
        }
    }
    missing
}

/// `key=value` split at the first `=`.
pub(crate) fn split_pair(pair: &str) -> Result<(&str, &str), ParamError> {
    pair.split_once('=').ok_or_else(|| ParamError::Syntax { line: 1, text: pair.to_owned() })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_follow_the_terms() {
        for (i, d) in TERMS.iter().enumerate() {
            assert_eq!(EvalParams::KEYS[2 * i], format!("{}.mg", d.key));
            assert_eq!(EvalParams::KEYS[2 * i + 1], format!("{}.eg", d.key));
        }
        let at = |k: &str| TERMS.iter().position(|d| d.key == k).unwrap();
        assert_eq!(at("value.pawn"), t::VALUE);
        assert_eq!(at("center.pawn"), t::CENTER);
        assert_eq!(at("center_level.knight"), t::CENTER_LEVEL);
        assert_eq!(at("king_home"), t::KING_HOME);
        assert_eq!(at("king_center"), t::KING_CENTER);
        assert_eq!(at("king_center_level"), t::KING_CENTER_LEVEL);
        assert_eq!(at("pawn_advance"), t::PAWN_ADVANCE);
        assert_eq!(at("pawn_advance2"), t::PAWN_ADVANCE2);
        assert_eq!(at("passed"), t::PASSED);
        assert_eq!(at("bishop_pair"), t::BISHOP_PAIR);
        assert_eq!(at("tropism"), t::TROPISM);
        assert_eq!(at("mobility.knight"), t::MOBILITY);
        assert_eq!(at("king_attack.knight"), t::KING_ATTACK);
        assert_eq!(at("shelter"), t::SHELTER);
        assert_eq!(at("doubled"), t::DOUBLED);
        assert_eq!(at("isolated"), t::ISOLATED);
        assert_eq!(at("rook_open"), t::ROOK_OPEN);
        assert_eq!(at("rook_semiopen"), t::ROOK_SEMIOPEN);
        assert_eq!(at("queen_open"), t::QUEEN_OPEN);
        for (k, v) in EvalParams::KEYS.iter().zip(EvalParams::default().values()) {
            let (lo, hi) = EvalParams::range(EvalParams::KEYS.iter().position(|x| x == k).unwrap());
            assert!((lo..=hi).contains(&v), "{k}: default {v} out of its range");
        }
    }

    #[test]
    fn set_get_and_describe_round_trip() {
        let mut p = EvalParams::default();
        p.set("value.queen", "777").unwrap();
        p.set("passed", "21").unwrap();
        p.set_pair("tempo=-3").unwrap();
        p.set("mobility.rook.eg", "4").unwrap();
        assert_eq!((p.mg[t::VALUE + 4], p.eg[t::VALUE + 4]), (777, 777));
        assert_eq!((p.mg[t::PASSED], p.eg[t::PASSED]), (0, 21));
        assert_eq!(p.get("tempo"), Some(-3));
        assert_eq!(p.get("passed"), Some(21));
        assert_eq!(p.get("mobility.rook.eg"), Some(4));
        assert_eq!(EvalParams::from_values(&p.values()), p);
        assert_eq!(EvalParams::parse(&p.to_file()), Ok(p.clone()));
        let described = format!("format=2 {}", p.describe()).replace(' ', "\n");
        assert_eq!(EvalParams::parse(&described), Ok(p));
    }

    /// A file of the first evaluation, as the presets and `tune` wrote them.
    const FORMAT_1: &str = "value.pawn = 100\nvalue.knight = 475\nvalue.bishop = 425\nvalue.rook = 640\n\
        value.queen = 570\ncenter.pawn = 4\ncenter.knight = 6\ncenter.bishop = 3\ncenter.rook = 1\n\
        center.queen = 5\ncenter_level.knight = 6\ncenter_level.bishop = 3\ncenter_level.rook = 1\n\
        center_level.queen = 5\nking_home = 0\nking_center = 6\nking_center_level = 6\npawn_advance = 4\n\
        pawn_advance2 = 1\npassed = 12\nbishop_pair = 30\ntempo = 10\ntropism = 3\nmopup = 5\n\
        mopup_kings = 10\nmobility = 0\n";

    #[test]
    fn old_files_load_as_they_evaluated() {
        let p = EvalParams::parse(FORMAT_1).unwrap();
        assert_eq!((p.mg[t::VALUE + 1], p.eg[t::VALUE + 1]), (475, 475));
        // One-phase terms keep their phase; the other is 0.
        assert_eq!((p.mg[t::CENTER], p.eg[t::CENTER]), (4, 0));
        assert_eq!((p.mg[t::PASSED], p.eg[t::PASSED]), (0, 12));
        assert_eq!((p.mg[t::KING_CENTER], p.eg[t::KING_CENTER]), (0, 6));
        assert_eq!((p.mg[t::TROPISM], p.eg[t::TROPISM]), (3, 0));
        // The terms added since are off, the scale keeps the whole score.
        assert_eq!((p.mg[t::MOBILITY], p.eg[t::SHELTER]), (0, 0));
        assert_eq!(p.scale_drawish, 64);
        assert_eq!(p.drawish_rook, 0);
        // A format-2 file written before `drawish.rook` was added loads with it off.
        let mut q = p.clone();
        q.drawish_rook = 1;
        let file = q.to_file();
        let kept: Vec<&str> = file.lines().filter(|l| !l.starts_with("drawish.rook")).collect();
        let older = kept.join("\n") + "\n";
        assert_eq!(EvalParams::parse(&older), Ok(p.clone()));
        assert_eq!(EvalParams::parse(&q.to_file()), Ok(q));
        // A format-1 file must still give every term of format 1.
        let e = EvalParams::parse(&FORMAT_1.replace("passed = 12\n", "")).unwrap_err();
        assert!(e.to_string().contains("without passed"), "{e}");
    }

    #[test]
    fn bad_input_is_named() {
        let mut p = EvalParams::default();
        let e = p.set("value.king", "3").unwrap_err();
        assert!(e.to_string().contains("value.king"));
        let e = p.set("tempo", "x").unwrap_err();
        assert!(e.to_string().contains("'x'"));
        let full = EvalParams::default().to_file();
        let n = full.lines().count();
        let e = EvalParams::parse(&format!("{full}# c\n\nbishop_pair 3\n")).unwrap_err();
        assert!(e.to_string().starts_with(&format!("line {}", n + 3)), "{e}");
        let e = EvalParams::parse(&format!("{full}foo = 1")).unwrap_err();
        assert!(e.to_string().starts_with(&format!("line {}", n + 1)) && e.to_string().contains("foo"));
        // A phase and the bare name of its term are one parameter.
        let e = EvalParams::parse(&format!("{full}tempo = 4\n")).unwrap_err();
        let line = full.lines().position(|l| l.starts_with("tempo ")).unwrap() + 1;
        assert_eq!(e, ParamError::Duplicate { line: n + 1, key: "tempo".into(), first: line });
        let e = EvalParams::parse("value.pawn = 100\nvalue.pawn.eg = 90\n").unwrap_err();
        assert!(matches!(e, ParamError::Duplicate { line: 2, first: 1, .. }), "{e}");
        // A file cut short: the missing keys are named, at the line where it ends.
        let cut = full.lines().take(5).collect::<Vec<_>>().join("\n");
        let e = EvalParams::parse(&cut).unwrap_err();
        assert!(e.to_string().starts_with("line 6: the file ends without value.bishop.mg, value.bishop.eg, "), "{e}");
        assert!(e.to_string().contains(", and 65 more ("), "{e}");
        // Out of range: refused, naming the line and the range.
        let e = EvalParams::parse(&full.replace("mopup = 5", "mopup = -43")).unwrap_err().to_string();
        let line = full.lines().position(|l| l.starts_with("mopup =")).unwrap() + 1;
        assert!(e.starts_with(&format!("line {line}: ")) && e.contains("from 0 to 500"), "{e}");
        let e = EvalParams::parse(&full.replace("value.queen.mg = 900", "value.queen.mg = 0")).unwrap_err();
        assert!(e.to_string().contains("from 1 to 5000"), "{e}");
        // `format` only on the first line.
        assert!(EvalParams::parse(&format!("{full}format = 2\n")).is_err());
    }
}
