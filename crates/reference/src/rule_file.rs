//! Reading a rule file (docs/rule-files.md): the file as serde reads it, inheritance from a base,
//! the checks of the doc's "Validation" section in their order, and errors that name the key and
//! its line. What it yields is the rule set of [`crate::rules`].

use serde::de::{self, Deserializer, SeqAccess, Visitor};
use serde::Deserialize;
use std::fmt;

use crate::board::{parse_level, Cell, Color, Kind, Piece, Vec3};
use crate::movegen;
use crate::rules::{DrawRules, Group, PawnRules, Policy, Rules, Stalemate, TransferRules, Zone, SLIDE};

/// The built-in rule sets and their files (the crates' own rule files, compiled in).
pub const BUILTINS: [(&str, &str); 4] = [
    ("malka", include_str!("../../malka/malka.toml")),
    ("traditional", include_str!("../../traditional/traditional.toml")),
    ("fide", include_str!("../../traditional/fide.toml")),
    ("air-attack", include_str!("../../air-attack/air-attack.toml")),
];

/// The text of a built-in rule file.
pub fn builtin_text(name: &str) -> Option<&'static str> {
    BUILTINS.iter().find(|(n, _)| *n == name).map(|(_, text)| *text)
}

/// A range as read: `"slide"`, `"step"` or a positive integer (an integer above 7 is stored as 7).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
struct Range(u32);

impl<'de> Deserialize<'de> for Range {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Range, D::Error> {
        struct V;
        impl Visitor<'_> for V {
            type Value = Range;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a range: \"slide\", \"step\" or a positive integer")
            }
            fn visit_str<E: de::Error>(self, s: &str) -> Result<Range, E> {
                match s {
                    "slide" => Ok(Range(SLIDE)),
                    "step" => Ok(Range(1)),
                    _ => Err(E::custom(format!("a range is \"slide\", \"step\" or a positive integer, not {s:?}"))),
                }
            }
            fn visit_i64<E: de::Error>(self, n: i64) -> Result<Range, E> {
                if n >= 1 {
                    Ok(Range(n.min(i64::from(SLIDE)) as u32))
                } else {
                    Err(E::custom(format!("a range is \"slide\", \"step\" or a positive integer, not {n}")))
                }
            }
            fn visit_u64<E: de::Error>(self, n: u64) -> Result<Range, E> {
                self.visit_i64(i64::try_from(n).unwrap_or(i64::MAX))
            }
        }
        d.deserialize_any(V)
    }
}

// ---------------------------------------------------------------------------------------------
// The file as read
// ---------------------------------------------------------------------------------------------

#[derive(Deserialize, Default, Clone, Debug)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
struct RawFile {
    name: Option<String>,
    #[allow(dead_code)] // not a rule: read so that the key is known
    description: Option<String>,
    base: Option<String>,
    castling: Option<bool>,
    board: Option<RawBoard>,
    pieces: Option<RawPieces>,
    pawn: Option<RawPawn>,
    draws: Option<RawDraws>,
    transfer: Option<RawTransfer>,
}

#[derive(Deserialize, Default, Clone, Debug)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
struct RawBoard {
    levels: Option<i64>,
    white_home: Option<i64>,
    black_home: Option<i64>,
    white: Option<Vec<String>>,
    black: Option<RawArmy>,
}

/// `black`: an array of placements or `"mirror"`.
#[derive(Clone, Debug)]
enum RawArmy {
    Mirror,
    Levels(Vec<String>),
}

impl<'de> Deserialize<'de> for RawArmy {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<RawArmy, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = RawArmy;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("an array of placements, one per level, or \"mirror\"")
            }
            fn visit_str<E: de::Error>(self, s: &str) -> Result<RawArmy, E> {
                if s == "mirror" {
                    Ok(RawArmy::Mirror)
                } else {
                    Err(E::custom(format!("expected an array of placements or \"mirror\", not {s:?}")))
                }
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<RawArmy, A::Error> {
                let mut levels = Vec::new();
                while let Some(s) = seq.next_element::<String>()? {
                    levels.push(s);
                }
                Ok(RawArmy::Levels(levels))
            }
        }
        d.deserialize_any(V)
    }
}

#[derive(Deserialize, Default, Clone, Debug)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
struct RawPieces {
    king: Option<RawGroups>,
    queen: Option<RawGroups>,
    rook: Option<RawGroups>,
    bishop: Option<RawGroups>,
    knight: Option<RawGroups>,
}

#[derive(Deserialize, Default, Clone, Debug)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
struct RawGroups {
    planar_orthogonal: Option<Range>,
    vertical: Option<Range>,
    orthogonal_slant: Option<Range>,
    planar_diagonal: Option<Range>,
    triagonal: Option<Range>,
    planar_knight: Option<Range>,
    vertical_knight: Option<Range>,
}

impl RawGroups {
    /// The groups given, in the doc's order, with their ranges.
    fn groups(&self) -> Vec<(Group, u32)> {
        let given = [
            self.planar_orthogonal,
            self.vertical,
            self.orthogonal_slant,
            self.planar_diagonal,
            self.triagonal,
            self.planar_knight,
            self.vertical_knight,
        ];
        Group::ALL.into_iter().zip(given).filter_map(|(g, r)| r.map(|Range(r)| (g, r))).collect()
    }
}

#[derive(Deserialize, Default, Clone, Debug)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
struct RawPawn {
    steps: Option<Vec<[i64; 3]>>,
    captures: Option<Vec<[i64; 3]>>,
    double_step: Option<bool>,
    en_passant: Option<bool>,
    promotion_zone: Option<Zone>,
    promotion: Option<Policy>,
}

#[derive(Deserialize, Default, Clone, Debug)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
struct RawDraws {
    fifty_moves: Option<i64>,
    repetition: Option<i64>,
    stalemate: Option<Stalemate>,
    insufficient_material: Option<bool>,
}

#[derive(Deserialize, Default, Clone, Debug)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
struct RawTransfer {
    enabled: Option<bool>,
    range: Option<i64>,
    capture_ends_move: Option<bool>,
    knight_over_occupied: Option<bool>,
}

/// Reads the TOML text into the raw file, with errors that name the key and the line.
fn read_raw(text: &str) -> Result<RawFile, String> {
    toml::from_str::<RawFile>(text).map_err(|e| toml_error(text, &e))
}

/// The file's keys over its base's: a `[pieces]` entry replaces that piece's whole movement,
/// the fields of `[board]`, `[pawn]`, `[draws]` and `[transfer]` override one by one. A file that
/// gives `levels` without home levels gets the defaults (1 and `levels`), not the base's.
fn merge(file: RawFile, base: RawFile) -> RawFile {
    let fb = file.board.unwrap_or_default();
    let bb = base.board.unwrap_or_default();
    let new_levels = fb.levels.is_some();
    let board = RawBoard {
        levels: fb.levels.or(bb.levels),
        white_home: fb.white_home.or(if new_levels { None } else { bb.white_home }),
        black_home: fb.black_home.or(if new_levels { None } else { bb.black_home }),
        white: fb.white.or(bb.white),
        black: fb.black.or(bb.black),
    };
    let fp = file.pieces.unwrap_or_default();
    let bp = base.pieces.unwrap_or_default();
    let pieces = RawPieces {
        king: fp.king.or(bp.king),
        queen: fp.queen.or(bp.queen),
        rook: fp.rook.or(bp.rook),
        bishop: fp.bishop.or(bp.bishop),
        knight: fp.knight.or(bp.knight),
    };
    let fw = file.pawn.unwrap_or_default();
    let bw = base.pawn.unwrap_or_default();
    let pawn = RawPawn {
        steps: fw.steps.or(bw.steps),
        captures: fw.captures.or(bw.captures),
        double_step: fw.double_step.or(bw.double_step),
        en_passant: fw.en_passant.or(bw.en_passant),
        promotion_zone: fw.promotion_zone.or(bw.promotion_zone),
        promotion: fw.promotion.or(bw.promotion),
    };
    let fd = file.draws.unwrap_or_default();
    let bd = base.draws.unwrap_or_default();
    let draws = RawDraws {
        fifty_moves: fd.fifty_moves.or(bd.fifty_moves),
        repetition: fd.repetition.or(bd.repetition),
        stalemate: fd.stalemate.or(bd.stalemate),
        insufficient_material: fd.insufficient_material.or(bd.insufficient_material),
    };
    let ft = file.transfer.unwrap_or_default();
    let bt = base.transfer.unwrap_or_default();
    let transfer = RawTransfer {
        enabled: ft.enabled.or(bt.enabled),
        range: ft.range.or(bt.range),
        capture_ends_move: ft.capture_ends_move.or(bt.capture_ends_move),
        knight_over_occupied: ft.knight_over_occupied.or(bt.knight_over_occupied),
    };
    RawFile {
        name: file.name,
        description: file.description.or(base.description),
        base: file.base,
        castling: file.castling.or(base.castling),
        board: Some(board),
        pieces: Some(pieces),
        pawn: Some(pawn),
        draws: Some(draws),
        transfer: Some(transfer),
    }
}

// ---------------------------------------------------------------------------------------------
// Reading a file: inheritance, then every check of the doc's "Validation" section
// ---------------------------------------------------------------------------------------------

/// Reads a rule file. `base` gives the text of a built-in rule file by name; `user` is true for
/// a user's file, which may not take a built-in's name (unless it is that built-in's rules).
pub fn read(text: &str, base: &dyn Fn(&str) -> Option<String>, user: bool) -> Result<Rules, String> {
    let raw = read_raw(text)?;
    let merged = match raw.base.clone() {
        None => raw,
        Some(name) => {
            if builtin_text(&name).is_none() {
                return Err(key_error(
                    text,
                    "base",
                    &format!("{name:?} is not a built-in rule set (malka, traditional, air-attack or fide)"),
                ));
            }
            let base_text =
                base(&name).ok_or_else(|| key_error(text, "base", &format!("no text for the built-in {name:?}")))?;
            let base_raw = read_raw(&base_text).map_err(|e| format!("base {name:?}: {e}"))?;
            if base_raw.base.is_some() {
                return Err(key_error(text, "base", &format!("the base {name:?} has a base of its own")));
            }
            merge(raw, base_raw)
        }
    };
    let rules = resolve(merged, text)?;
    if user {
        if let Some(builtin_file) = builtin_text(&rules.name) {
            let builtin = read(builtin_file, &|n| builtin_text(n).map(str::to_string), false)?;
            if !builtin.same_rules(&rules) {
                return Err(key_error(
                    text,
                    "name",
                    &format!(
                        "{:?} is a built-in rule set's name; a user file with other rules needs its own",
                        rules.name
                    ),
                ));
            }
        }
    }
    Ok(rules)
}

/// A required key's value, or an error naming it.
fn required<T>(value: Option<T>, key: &str, text: &str) -> Result<T, String> {
    value.ok_or_else(|| key_error(text, key, "is missing (a file without `base` gives every rule key)"))
}

/// Every check of the "Validation" section, in its order, on the merged file.
// Long on purpose: the checks read in the doc's order, one after another, so that the oracle can
// be held against docs/rule-files.md line by line.
#[allow(clippy::too_many_lines)]
fn resolve(raw: RawFile, text: &str) -> Result<Rules, String> {
    let err = |key: &str, msg: String| key_error(text, key, &msg);

    // name
    let name = required(raw.name, "name", text)?;
    if name.is_empty() || !name.chars().all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_') {
        return Err(err("name", format!("{name:?}: a name is letters, digits, '-' and '_'")));
    }
    let castling = required(raw.castling, "castling", text)?;

    // [board]
    let board = raw.board.unwrap_or_default();
    let levels = required(board.levels, "board.levels", text)?;
    if !(1..=4).contains(&levels) {
        return Err(err("board.levels", format!("is {levels}; the board has 1 to 4 levels")));
    }
    let levels = levels as i32;
    let white_home = board.white_home.unwrap_or(1);
    let black_home = board.black_home.unwrap_or(i64::from(levels));
    for (key, home) in [("board.white-home", white_home), ("board.black-home", black_home)] {
        if !(1..=i64::from(levels)).contains(&home) {
            return Err(err(key, format!("level {home} does not exist on a board of {levels} level(s)")));
        }
    }
    let home = [white_home as i32 - 1, black_home as i32 - 1];
    let white = required(board.white, "board.white", text)?;
    let black = required(board.black, "board.black", text)?;
    let white_army = read_army(&white, Color::White, levels).map_err(|m| err("board.white", m))?;
    let black_army = match black {
        RawArmy::Mirror => white_army
            .iter()
            .map(|&(c, p)| (Cell::new(c.x, 7 - c.y, levels - 1 - c.z), Piece::new(Color::Black, p.kind)))
            .collect(),
        RawArmy::Levels(placements) => {
            read_army(&placements, Color::Black, levels).map_err(|m| err("board.black", m))?
        }
    };

    // [pieces]
    let pieces = raw.pieces.unwrap_or_default();
    let mut movement: [Vec<(Group, u32)>; 5] = Default::default();
    let entries = [
        ("knight", pieces.knight),
        ("bishop", pieces.bishop),
        ("rook", pieces.rook),
        ("queen", pieces.queen),
        ("king", pieces.king),
    ];
    for (slot, (piece, groups)) in movement.iter_mut().zip(entries) {
        let key = format!("pieces.{piece}");
        let groups = required(groups, &key, text)?.groups();
        if groups.is_empty() {
            return Err(err(&key, "has no direction group: a piece needs at least one".to_string()));
        }
        *slot = groups;
    }

    // [pawn]
    let pawn = raw.pawn.unwrap_or_default();
    let steps = required(pawn.steps, "pawn.steps", text)?;
    let steps = read_vectors(&steps).map_err(|m| err("pawn.steps", m))?;
    if steps.is_empty() {
        return Err(err("pawn.steps", "is empty: a pawn needs at least one step vector".to_string()));
    }
    let captures = required(pawn.captures, "pawn.captures", text)?;
    let captures = read_vectors(&captures).map_err(|m| err("pawn.captures", m))?;
    let double_step = required(pawn.double_step, "pawn.double-step", text)?;
    let en_passant = required(pawn.en_passant, "pawn.en-passant", text)?;
    if en_passant && !double_step {
        return Err(err("pawn.en-passant", "is on without pawn.double-step".to_string()));
    }
    let zone = required(pawn.promotion_zone, "pawn.promotion-zone", text)?;
    let policy = required(pawn.promotion, "pawn.promotion", text)?;

    // [draws]: defaults 50, 3, "draw", true
    let draws = raw.draws.unwrap_or_default();
    let fifty_moves = draws.fifty_moves.unwrap_or(50);
    let fifty_moves = u64::try_from(fifty_moves)
        .map_err(|_| err("draws.fifty-moves", format!("is {fifty_moves}; it is 0 or more")))?;
    let repetition = draws.repetition.unwrap_or(3);
    if repetition == 1 || repetition < 0 {
        return Err(err("draws.repetition", format!("is {repetition}; it is 0 (never) or 2 or more")));
    }
    let repetition = repetition as u64;

    // [transfer]: defaults false, 4, true, true
    let transfer = raw.transfer.unwrap_or_default();
    let enabled = transfer.enabled.unwrap_or(false);
    let range = transfer.range.unwrap_or(4);
    if !(0..=7).contains(&range) {
        return Err(err("transfer.range", format!("is {range}; it is 0 to 7")));
    }
    if enabled {
        if levels < 2 {
            return Err(err("transfer.enabled", "transfers need two levels or more".to_string()));
        }
        for ((piece, _), groups) in entries_names().iter().zip(&movement) {
            if let Some((g, _)) = groups.iter().find(|(g, _)| !g.in_level()) {
                return Err(err(
                    &format!("pieces.{piece}.{}", g.key()),
                    "leaves the level, which transfer.enabled forbids".to_string(),
                ));
            }
        }
        for (key, vectors) in [("pawn.steps", &steps), ("pawn.captures", &captures)] {
            if let Some(v) = vectors.iter().find(|v| v.2 != 0) {
                return Err(err(key, format!("{v:?} leaves the level, which transfer.enabled forbids")));
            }
        }
    }

    let rules = Rules {
        name,
        levels,
        home,
        castling,
        start: white_army.iter().chain(&black_army).copied().collect(),
        movement,
        pawn: PawnRules { steps, captures, double_step, en_passant, zone, policy },
        draws: DrawRules {
            fifty_moves,
            repetition,
            stalemate: draws.stalemate.unwrap_or(Stalemate::Draw),
            insufficient_material: draws.insufficient_material.unwrap_or(true),
        },
        transfer: TransferRules {
            enabled,
            range: range as u32,
            capture_ends_move: transfer.capture_ends_move.unwrap_or(true),
            knight_over_occupied: transfer.knight_over_occupied.unwrap_or(true),
        },
    };
    check_start(&rules, &white_army, &black_army).map_err(|(key, msg)| err(key, msg))?;
    Ok(rules)
}

/// Piece names in the order of [`Rules::movement`].
fn entries_names() -> [(&'static str, Kind); 5] {
    [
        ("knight", Kind::Knight),
        ("bishop", Kind::Bishop),
        ("rook", Kind::Rook),
        ("queen", Kind::Queen),
        ("king", Kind::King),
    ]
}

/// The start placement's checks: no overlap, one king a side, pawns where pawns may stand,
/// kings on their castling cells when castling is on, Black's king not capturable by White.
fn check_start(rules: &Rules, white: &[(Cell, Piece)], black: &[(Cell, Piece)]) -> Result<(), (&'static str, String)> {
    for (c, _) in black {
        if white.iter().any(|(w, _)| w == c) {
            return Err(("board.black", format!("Black's army overlaps White's on {c}")));
        }
    }
    for (key, army, color) in [("board.white", white, Color::White), ("board.black", black, Color::Black)] {
        let kings = army.iter().filter(|(_, p)| p.kind == Kind::King).count();
        if kings != 1 {
            return Err((key, format!("{} has {kings} kings; it needs exactly one", color.name())));
        }
        if let Some((c, _)) = army.iter().find(|&&(c, p)| p.kind == Kind::Pawn && !rules.pawn_may_stand(color, c)) {
            return Err((key, format!("a {} pawn on {c}, its first rank or its promotion zone", color.name())));
        }
        if rules.castling {
            let home = rules.king_home(color);
            if !army.iter().any(|&(c, p)| p.kind == Kind::King && c == home) {
                return Err((
                    "castling",
                    format!(
                        "is on, but the {} king does not start on {home} (file e of its back rank on its home level)",
                        color.name()
                    ),
                ));
            }
        }
    }
    let pos = rules.start_position();
    if movegen::king_attacked(rules, &pos, Color::Black) {
        return Err(("board.black", "White, to move, could capture Black's king at the start".to_string()));
    }
    Ok(())
}

/// An army: one placement per level, level 1 first, letters of `color` only.
fn read_army(placements: &[String], color: Color, levels: i32) -> Result<Vec<(Cell, Piece)>, String> {
    if placements.len() != levels as usize {
        return Err(format!("has {} placement(s); board.levels is {levels}", placements.len()));
    }
    let mut army = Vec::new();
    for (z, placement) in (0..).zip(placements) {
        for (c, p) in parse_level(placement, z).map_err(|m| format!("level {}: {m}", z + 1))? {
            if p.color != color {
                return Err(format!(
                    "level {}: {:?} on {c} is not a {} piece ({} letters only)",
                    z + 1,
                    p.to_char(),
                    color.name(),
                    if color == Color::White { "upper-case" } else { "lower-case" }
                ));
            }
            army.push((c, p));
        }
    }
    Ok(army)
}

/// Pawn vectors: none zero, no component above 7, none given twice.
fn read_vectors(raw: &[[i64; 3]]) -> Result<Vec<Vec3>, String> {
    let mut out: Vec<Vec3> = Vec::new();
    for v in raw {
        if v.iter().any(|c| !(-7..=7).contains(c)) {
            return Err(format!("{v:?} has a component above 7"));
        }
        if v.iter().all(|&c| c == 0) {
            return Err("[0, 0, 0] is the zero vector".to_string());
        }
        let d = (v[0] as i32, v[1] as i32, v[2] as i32);
        if out.contains(&d) {
            return Err(format!("{v:?} is given twice"));
        }
        out.push(d);
    }
    Ok(out)
}

// ---------------------------------------------------------------------------------------------
// Errors that name the key and the line
// ---------------------------------------------------------------------------------------------

/// An error about `key`, with the line where the file gives it (if it does).
fn key_error(text: &str, key: &str, msg: &str) -> String {
    match locate(text, key) {
        Some(line) => format!("rule file: `{key}` (line {line}) {msg}"),
        None => format!("rule file: `{key}` {msg}"),
    }
}

/// A toml error, with the key its position falls on and its line.
fn toml_error(text: &str, e: &toml::de::Error) -> String {
    let msg = e.message().trim();
    let Some(span) = e.span() else {
        return format!("rule file: {msg}");
    };
    let line = text.as_bytes().iter().take(span.start).filter(|&&b| b == b'\n').count() + 1;
    match key_at(text, span.start) {
        Some(key) => format!("rule file: `{key}` (line {line}): {msg}"),
        None => format!("rule file: line {line}: {msg}"),
    }
}

/// The table name of a header line (`[board]`, `[pieces.queen]`), if the line is one.
fn header(line: &str) -> Option<String> {
    let line = line.split('#').next().unwrap_or("").trim();
    let inner = line.strip_prefix('[')?.strip_suffix(']')?;
    let inner = inner.trim_start_matches('[').trim_end_matches(']').trim();
    let ok = !inner.is_empty() && inner.chars().all(|c| is_key_char(c) || c == ' ');
    ok.then(|| inner.split('.').map(str::trim).collect::<Vec<_>>().join("."))
}

fn is_key_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '-' || c == '_' || c == '.'
}

/// The keys enclosing the end of `prefix` (a line up to some column): `queen = { vertical = `
/// gives `queen`, `vertical`.
fn keys_on_line(prefix: &str) -> Vec<String> {
    let mut stack: Vec<(usize, String)> = Vec::new();
    let mut depth = 0usize;
    let mut word = String::new();
    let mut in_string: Option<char> = None;
    let mut escaped = false;
    let mut gap = false;
    for c in prefix.chars() {
        if let Some(q) = in_string {
            if escaped {
                escaped = false;
            } else if c == '\\' && q == '"' {
                escaped = true;
            } else if c == q {
                in_string = None;
            }
            continue;
        }
        match c {
            '"' | '\'' => {
                in_string = Some(c);
                word.clear();
            }
            '#' => break,
            '=' => {
                if !word.is_empty() {
                    stack.retain(|(d, _)| *d < depth);
                    stack.push((depth, std::mem::take(&mut word)));
                }
            }
            '{' => {
                depth += 1;
                word.clear();
            }
            '}' => {
                depth = depth.saturating_sub(1);
                stack.retain(|(d, _)| *d <= depth);
                word.clear();
            }
            c if c.is_whitespace() => gap = !word.is_empty(),
            c if is_key_char(c) => {
                if gap {
                    word.clear();
                    gap = false;
                }
                word.push(c);
            }
            _ => word.clear(),
        }
    }
    stack.into_iter().map(|(_, k)| k).collect()
}

/// The full key (table and keys) that byte `offset` of `text` falls on, as far as it can tell.
fn key_at(text: &str, offset: usize) -> Option<String> {
    let mut offset = offset.min(text.len());
    while !text.is_char_boundary(offset) {
        offset -= 1;
    }
    let before = text.get(..offset)?;
    let line_start = before.rfind('\n').map_or(0, |i| i + 1);
    let line_end = text.get(offset..)?.find('\n').map_or(text.len(), |i| offset + i);
    let line = text.get(line_start..line_end)?;
    if let Some(h) = header(line) {
        return Some(h);
    }
    let col = offset - line_start;
    let prefix = line.get(..col)?;
    // The position may be a key itself (an unknown or repeated key): read the line up to its `=`.
    let rest = line.get(col..)?;
    let word: String = rest.chars().take_while(|&c| is_key_char(c)).collect();
    let is_key = !word.is_empty() && rest.get(word.len()..).is_some_and(|r| r.trim_start().starts_with('='));
    let mut keys = if is_key { keys_on_line(&format!("{prefix}{word} =")) } else { keys_on_line(prefix) };
    let previous: Vec<&str> = text.get(..line_start)?.lines().collect();
    if keys.is_empty() {
        // A value continued from an earlier line: the nearest key above, in the same table.
        for l in previous.iter().rev() {
            if header(l).is_some() {
                break;
            }
            if let Some(k) = keys_on_line(l).into_iter().next() {
                keys.push(k);
                break;
            }
        }
    }
    if keys.is_empty() {
        return None;
    }
    let table = previous.iter().rev().find_map(|l| header(l));
    Some(table.into_iter().chain(keys).collect::<Vec<_>>().join("."))
}

/// The line (1-based) where `text` gives `key` (`board.levels`, `pieces.queen.vertical`).
fn locate(text: &str, key: &str) -> Option<usize> {
    let mut table = String::new();
    let mut header_line = None;
    for (n, line) in text.lines().enumerate() {
        if let Some(h) = header(line) {
            if h == key && header_line.is_none() {
                header_line = Some(n + 1);
            }
            table = h;
            continue;
        }
        if let Some(first) = keys_on_line(line).into_iter().next() {
            let full = if table.is_empty() { first } else { format!("{table}.{first}") };
            if key == full || key.starts_with(&format!("{full}.")) {
                return Some(n + 1);
            }
        }
    }
    header_line
}
