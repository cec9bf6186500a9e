//! From the text of a rule file to a valid [`RuleSet`]: the base merged in, defaults filled, every
//! rule of docs/rule-files.md ("Validation") checked.

use crate::file::{Army, BoardFile, File, MovementFile, PromotionFile, RangeFile, StalemateFile, ZoneFile};
use crate::{Board, Group, Movement, Pawn, Pieces, Promotion, PromotionZone, Range, RuleError, RuleSet, Transfer};
use stackchess_core::{parse_placement, Color, DrawRules, Piece, Role, StalemateValue};
use stackchess_geometry::{Cell, Dir};
use toml::Spanned;

/// A value and the line it was given on (none when it came from the base or a default).
type At<T> = (T, Option<usize>);

/// Line numbers of byte offsets in the text (none for a base's text: its lines are not the file's).
struct Lines<'a> {
    text: &'a str,
    keep: bool,
}

impl Lines<'_> {
    fn of<T>(&self, s: &Spanned<T>) -> Option<usize> {
        let start = s.span().start.min(self.text.len());
        self.keep.then(|| self.text[..start].bytes().filter(|&b| b == b'\n').count() + 1)
    }
    fn at<T: Clone>(&self, s: &Spanned<T>) -> At<T> {
        (s.get_ref().clone(), self.of(s))
    }
}

fn err(key: &str, line: Option<usize>, message: impl Into<String>) -> RuleError {
    RuleError::new(key, line, message)
}

/// The rule set being assembled: the base's rules (or nothing), then the file's.
#[derive(Default)]
struct Draft {
    name: Option<At<String>>,
    description: Option<String>,
    castling: Option<At<bool>>,
    levels: Option<At<i64>>,
    white_home: Option<At<i64>>,
    black_home: Option<At<i64>>,
    white: Option<At<Vec<String>>>,
    black: Option<At<Army>>,
    pieces: [Option<At<Movement>>; 5],
    steps: Option<At<Vec<[i64; 3]>>>,
    captures: Option<At<Vec<[i64; 3]>>>,
    double_step: Option<At<bool>>,
    en_passant: Option<At<bool>>,
    zone: Option<PromotionZone>,
    promotion: Option<Promotion>,
    draws: DrawRules,
    transfer: Transfer,
    transfer_lines: [Option<usize>; 1],
}

/// The piece keys of `[pieces]`, in [`Draft::pieces`] order.
const PIECE_KEYS: [&str; 5] = ["king", "queen", "rook", "bishop", "knight"];

pub(crate) fn parse(text: &str, base: &dyn Fn(&str) -> Option<String>) -> Result<RuleSet, RuleError> {
    let file = read(text)?;
    let lines = Lines { text, keep: true };
    let mut d = Draft { draws: DrawRules::FIDE, transfer: Transfer::OFF, ..Draft::default() };
    if let Some(b) = &file.base {
        let line = lines.of(b);
        let name = b.get_ref();
        let base_text = base(name).ok_or_else(|| {
            err("base", line, format!("'{name}' is not a built-in rule set (malka, traditional, air-attack, fide)"))
        })?;
        let base_file = read(&base_text).map_err(|e| err("base", line, format!("the built-in '{name}': {e}")))?;
        if base_file.base.is_some() {
            return Err(err("base", line, format!("the built-in '{name}' has a base of its own")));
        }
        // The base as written (its `"mirror"` stays a mirror of whatever army the file gives),
        // its lines not the file's.
        d.apply(&base_file, &Lines { text: &base_text, keep: false })?;
        // The name and the description are the file's own.
        d.name = None;
        d.description = None;
    }
    d.apply(&file, &lines)?;
    d.finish()
}

/// Parses the text into the file's structure; syntax and type errors name the key and line.
fn read(text: &str) -> Result<File, RuleError> {
    toml::from_str::<File>(text).map_err(|e| {
        let line = e.span().map(|s| text[..s.start.min(text.len())].bytes().filter(|&b| b == b'\n').count() + 1);
        let key = e
            .span()
            .map(|s| {
                let rest = &text[s.start.min(text.len())..];
                rest.split(|c: char| c == '=' || c == '\n' || c.is_whitespace()).next().unwrap_or("").to_owned()
            })
            .unwrap_or_default();
        let key = key.trim_matches(|c| c == '[' || c == ']' || c == '"').to_owned();
        RuleError { key, line, message: e.message().trim().to_owned() }
    })
}

impl Draft {
    /// Applies the file's keys over what is there.
    fn apply(&mut self, f: &File, l: &Lines<'_>) -> Result<(), RuleError> {
        if let Some(v) = &f.name {
            self.name = Some(l.at(v));
        }
        if let Some(v) = &f.description {
            self.description = Some(v.get_ref().clone());
        }
        if let Some(v) = &f.castling {
            self.castling = Some(l.at(v));
        }
        if let Some(b) = &f.board {
            self.apply_board(b, l);
        }
        if let Some(p) = &f.pieces {
            for ((slot, m), key) in
                self.pieces.iter_mut().zip([&p.king, &p.queen, &p.rook, &p.bishop, &p.knight]).zip(PIECE_KEYS)
            {
                if let Some(m) = m {
                    *slot = Some((movement(m, &format!("pieces.{key}"), l.of(m))?, l.of(m)));
                }
            }
        }
        if let Some(p) = &f.pawn {
            if let Some(v) = &p.steps {
                self.steps = Some(l.at(v));
            }
            if let Some(v) = &p.captures {
                self.captures = Some(l.at(v));
            }
            if let Some(v) = &p.double_step {
                self.double_step = Some(l.at(v));
            }
            if let Some(v) = &p.en_passant {
                self.en_passant = Some(l.at(v));
            }
            if let Some(v) = &p.promotion_zone {
                self.zone = Some(match v.get_ref() {
                    ZoneFile::EnemyHome => PromotionZone::EnemyHome,
                    ZoneFile::EveryLevel => PromotionZone::EveryLevel,
                });
            }
            if let Some(v) = &p.promotion {
                self.promotion = Some(match v.get_ref() {
                    PromotionFile::Any => Promotion::Any,
                    PromotionFile::Lost => Promotion::Lost,
                });
            }
        }
        if let Some(dr) = &f.draws {
            if let Some(v) = &dr.fifty_moves {
                self.draws.fifty_moves = u32::try_from(*v.get_ref())
                    .map_err(|_| err("draws.fifty-moves", l.of(v), "must be 0 (never) or a number of moves"))?;
            }
            if let Some(v) = &dr.repetition {
                self.draws.repetition = u32::try_from(*v.get_ref())
                    .ok()
                    .filter(|&n| n != 1)
                    .ok_or_else(|| err("draws.repetition", l.of(v), "must be 0 (never) or at least 2"))?;
            }
            if let Some(v) = &dr.stalemate {
                self.draws.stalemate = match v.get_ref() {
                    StalemateFile::Draw => StalemateValue::Draw,
                    StalemateFile::Win => StalemateValue::Win,
                    StalemateFile::Loss => StalemateValue::Loss,
                };
            }
            if let Some(v) = &dr.insufficient_material {
                self.draws.insufficient_material = *v.get_ref();
            }
        }
        if let Some(t) = &f.transfer {
            if let Some(v) = &t.enabled {
                self.transfer.enabled = *v.get_ref();
                self.transfer_lines[0] = l.of(v);
            }
            if let Some(v) = &t.range {
                self.transfer.range = u8::try_from(*v.get_ref())
                    .ok()
                    .filter(|&n| n <= 7)
                    .ok_or_else(|| err("transfer.range", l.of(v), "must be 0 to 7"))?;
            }
            if let Some(v) = &t.capture_ends_move {
                self.transfer.capture_ends_move = *v.get_ref();
            }
            if let Some(v) = &t.knight_over_occupied {
                self.transfer.knight_over_occupied = *v.get_ref();
            }
        }
        Ok(())
    }

    fn apply_board(&mut self, b: &BoardFile, l: &Lines<'_>) {
        if let Some(v) = &b.levels {
            self.levels = Some(l.at(v));
            // A new level count brings its own default homes: 1 and `levels`.
            self.white_home = Some((1, None));
            self.black_home = Some((*v.get_ref(), None));
        }
        if let Some(v) = &b.white_home {
            self.white_home = Some(l.at(v));
        }
        if let Some(v) = &b.black_home {
            self.black_home = Some(l.at(v));
        }
        if let Some(v) = &b.white {
            self.white = Some(l.at(v));
        }
        if let Some(v) = &b.black {
            self.black = Some(l.at(v));
        }
    }

    /// Checks everything and builds the rule set.
    fn finish(self) -> Result<RuleSet, RuleError> {
        let missing = |key: &str| err(key, None, "missing (give it, or a base = \"...\" that has it)");
        let (name, name_line) =
            self.name.clone().ok_or_else(|| err("name", None, "missing: every rule set needs a name"))?;
        if name.is_empty() || !name.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_') {
            return Err(err("name", name_line, format!("'{name}': use ASCII letters, digits, '-' and '_'")));
        }
        let (castling, castling_line) = self.castling.ok_or_else(|| missing("castling"))?;
        let board = self.board()?;
        let mut pieces: Vec<Movement> = Vec::new();
        for (slot, key) in self.pieces.iter().zip(PIECE_KEYS) {
            let (m, line) = slot.clone().ok_or_else(|| missing(&format!("pieces.{key}")))?;
            if m.0.is_empty() {
                return Err(err(&format!("pieces.{key}"), line, "no direction group: every piece needs one"));
            }
            pieces.push(m);
        }
        let [king, queen, rook, bishop, knight]: [Movement; 5] = pieces.try_into().map_err(|_| missing("pieces"))?;
        let pieces = Pieces { king, queen, rook, bishop, knight };
        let pawn = self.pawn()?;
        let transfer = self.transfer;
        let rules = RuleSet {
            name,
            description: self.description.unwrap_or_default(),
            castling,
            board,
            pieces,
            pawn,
            draws: self.draws,
            transfer,
        };
        check_transfers(&rules, self.transfer_lines[0])?;
        check_armies(&rules)?;
        if castling {
            check_castling(&rules, castling_line)?;
        }
        Ok(rules)
    }

    fn board(&self) -> Result<Board, RuleError> {
        let missing = |key: &str| err(key, None, "missing (give it, or a base = \"...\" that has it)");
        let (levels, line) = self.levels.ok_or_else(|| missing("board.levels"))?;
        if !(1..=4).contains(&levels) {
            return Err(err("board.levels", line, format!("{levels}: a board has 1 to 4 levels")));
        }
        let levels = levels as usize;
        let home = |v: Option<At<i64>>, key: &str| -> Result<usize, RuleError> {
            let (h, line) = v.ok_or_else(|| missing(key))?;
            if h < 1 || h > levels as i64 {
                return Err(err(key, line, format!("level {h} does not exist on a board of {levels} level(s)")));
            }
            Ok(h as usize - 1)
        };
        let white_home = home(self.white_home, "board.white-home")?;
        let black_home = home(self.black_home, "board.black-home")?;
        let (white, wline) = self.white.clone().ok_or_else(|| missing("board.white"))?;
        check_army(&white, levels, Color::White, "board.white", wline)?;
        let (black, bline) = self.black.clone().ok_or_else(|| missing("board.black"))?;
        let black = match black {
            Army::Mirror => mirror(&white),
            Army::Levels(v) => {
                check_army(&v, levels, Color::Black, "board.black", bline)?;
                v
            }
        };
        Ok(Board { levels, white_home, black_home, white, black })
    }

    fn pawn(&self) -> Result<Pawn, RuleError> {
        let missing = |key: &str| err(key, None, "missing (give it, or a base = \"...\" that has it)");
        let vectors = |v: &Option<At<Vec<[i64; 3]>>>, key: &str| -> Result<Vec<Dir>, RuleError> {
            let (v, line) = v.clone().ok_or_else(|| missing(key))?;
            let mut out: Vec<Dir> = Vec::new();
            for [f, r, l] in v {
                if [f, r, l] == [0, 0, 0] {
                    return Err(err(key, line, "[0, 0, 0] is not a move"));
                }
                if [f, r, l].iter().any(|c| c.abs() > 7) {
                    return Err(err(key, line, format!("[{f}, {r}, {l}]: components are -7 to 7")));
                }
                let d = Dir::new(f as i8, r as i8, l as i8);
                if out.contains(&d) {
                    return Err(err(key, line, format!("[{f}, {r}, {l}] is given twice")));
                }
                out.push(d);
            }
            out.sort_by_key(vector_order);
            Ok(out)
        };
        let steps = vectors(&self.steps, "pawn.steps")?;
        if steps.is_empty() {
            return Err(err("pawn.steps", self.steps.as_ref().and_then(|s| s.1), "a pawn needs a step vector"));
        }
        let captures = vectors(&self.captures, "pawn.captures")?;
        let (double_step, _) = self.double_step.ok_or_else(|| missing("pawn.double-step"))?;
        let (en_passant, ep_line) = self.en_passant.ok_or_else(|| missing("pawn.en-passant"))?;
        if en_passant && !double_step {
            return Err(err("pawn.en-passant", ep_line, "en passant needs the double step (pawn.double-step = true)"));
        }
        // Two double steps that differ only in file pass one cell from two pawns of the home
        // rank: the en-passant cell (all a position records) would not say which pawn to take.
        let same_cell = steps.iter().enumerate().find_map(|(i, a)| {
            steps[i + 1..].iter().find(|b| a.dr == b.dr && a.dl == b.dl && a.df.abs_diff(b.df) < 8).map(|b| (a, b))
        });
        // A vector both a step and a capture reaches the (empty) en-passant cell both ways: two
        // moves with one text.
        if let (true, Some(d)) = (en_passant, captures.iter().find(|d| steps.contains(d))) {
            return Err(err(
                "pawn.en-passant",
                ep_line,
                format!(
                    "[{}, {}, {}] is both a step and a capture, so a pawn could step or capture en passant onto the \
                     en-passant cell with one move: turn en passant off or drop it from one list",
                    d.df, d.dr, d.dl
                ),
            ));
        }
        if let (true, Some((a, b))) = (en_passant, same_cell) {
            return Err(err(
                "pawn.en-passant",
                ep_line,
                format!(
                    "the double steps along [{}, {}, {}] and [{}, {}, {}] pass the same cell from two pawns, so \
                     an en-passant cell would not say which pawn to take: turn en passant off or drop a vector",
                    a.df, a.dr, a.dl, b.df, b.dr, b.dl
                ),
            ));
        }
        Ok(Pawn {
            steps,
            captures,
            double_step,
            en_passant,
            promotion_zone: self.zone.ok_or_else(|| missing("pawn.promotion-zone"))?,
            promotion: self.promotion.ok_or_else(|| missing("pawn.promotion"))?,
        })
    }
}

/// The canonical order of pawn vectors (the order of a file means nothing): within the level
/// first, then by how far they rise, then by rank (for the Nardeshir pawn: forward, up,
/// forward and up). Moves are generated in this order, so it keeps search results stable.
#[allow(clippy::trivially_copy_pass_by_ref, reason = "the key function of `sort_by_key`")]
pub(crate) fn vector_order(d: &Dir) -> (u8, u8, u8, i8, i8, i8) {
    (d.dl.unsigned_abs(), d.dr.unsigned_abs(), d.df.unsigned_abs(), d.df, d.dr, d.dl)
}

/// A `[pieces]` entry: known groups, valid ranges, in the order of [`Group::ALL`].
fn movement(m: &MovementFile, key: &str, line: Option<usize>) -> Result<Movement, RuleError> {
    let mut out = Vec::new();
    for (g, r) in m.get_ref() {
        let names: Vec<&str> = Group::ALL.iter().map(|g| g.name()).collect();
        let group = Group::from_name(g)
            .ok_or_else(|| err(key, line, format!("unknown direction group '{g}' (groups: {})", names.join(", "))))?;
        let range = match r {
            RangeFile::Slide => Some(Range::SLIDE),
            RangeFile::Step => Some(Range::STEP),
            RangeFile::Count(n) => u64::try_from(*n).ok().and_then(Range::at_most),
        }
        .ok_or_else(|| err(key, line, format!("{g}: a range is \"slide\", \"step\" or a positive integer")))?;
        out.push((group, range));
    }
    out.sort();
    Ok(Movement(out))
}

/// Builds White's army reflected: rank r → 9 − r, level l → levels + 1 − l, colours swapped.
fn mirror(white: &[String]) -> Vec<String> {
    white.iter().rev().map(|level| level.split('/').rev().collect::<Vec<_>>().join("/").to_ascii_lowercase()).collect()
}

/// One army's placement: the right number of levels, valid FEN ranks, its own colour's letters.
fn check_army(army: &[String], levels: usize, color: Color, key: &str, line: Option<usize>) -> Result<(), RuleError> {
    if army.len() != levels {
        return Err(err(key, line, format!("{} placement(s) for a board of {levels} level(s)", army.len())));
    }
    let texts: Vec<&str> = army.iter().map(String::as_str).collect();
    let mut wrong = None;
    parse_placement(&texts, |c, p: Piece| {
        if p.color != color && wrong.is_none() {
            wrong = Some(c);
        }
    })
    .map_err(|e| err(key, line, e.to_string()))?;
    if let Some(c) = wrong {
        let case = if color == Color::White { "upper" } else { "lower" };
        return Err(err(
            key,
            line,
            format!("a piece of the other colour on {} (use {case}-case letters)", c.display(true)),
        ));
    }
    Ok(())
}

/// The two armies placed together, one FEN placement per level.
pub(crate) fn merge_armies(b: &Board) -> Vec<String> {
    let expand = |fen: &str| -> Vec<char> {
        let mut cells = Vec::with_capacity(64);
        for rank in fen.split('/') {
            for ch in rank.chars() {
                match ch.to_digit(10) {
                    Some(n) => cells.extend(std::iter::repeat_n('.', n as usize)),
                    None => cells.push(ch),
                }
            }
        }
        cells
    };
    b.white
        .iter()
        .zip(&b.black)
        .map(|(w, k)| {
            let (w, k) = (expand(w), expand(k));
            let cells: Vec<char> = w.iter().zip(&k).map(|(&a, &b)| if a == '.' { b } else { a }).collect();
            cells
                .chunks(8)
                .map(|rank| {
                    let mut s = String::new();
                    let mut run = 0;
                    for &c in rank {
                        if c == '.' {
                            run += 1;
                        } else {
                            if run > 0 {
                                s.push_str(&run.to_string());
                                run = 0;
                            }
                            s.push(c);
                        }
                    }
                    if run > 0 {
                        s.push_str(&run.to_string());
                    }
                    s
                })
                .collect::<Vec<_>>()
                .join("/")
        })
        .collect()
}

/// The armies together: no overlap, one king each, pawns where pawns may stand.
fn check_armies(r: &RuleSet) -> Result<(), RuleError> {
    let b = &r.board;
    let mut cells: Vec<(Cell, Piece)> = Vec::new();
    for army in [&b.white, &b.black] {
        let texts: Vec<&str> = army.iter().map(String::as_str).collect();
        parse_placement(&texts, |c, p| cells.push((c, p))).map_err(|e| err("board", None, e.to_string()))?;
    }
    let mut seen = std::collections::HashSet::new();
    for (c, _) in &cells {
        if !seen.insert(*c) {
            return Err(err("board.black", None, format!("the armies overlap on {}", c.display(b.levels > 1))));
        }
    }
    for color in Color::ALL {
        let key = if color == Color::White { "board.white" } else { "board.black" };
        let kings = cells.iter().filter(|(_, p)| *p == Piece { color, role: Role::King }).count();
        if kings != 1 {
            return Err(err(key, None, format!("{color} has {kings} kings; exactly one is needed")));
        }
        for (c, _) in cells.iter().filter(|(_, p)| *p == Piece { color, role: Role::Pawn }) {
            if !pawn_may_stand(r, color, *c) {
                let cell = c.display(b.levels > 1);
                return Err(err(key, None, format!("a {color} pawn on {cell}, its first rank or its promotion zone")));
            }
        }
    }
    Ok(())
}

/// Whether a pawn of `color` may stand on `c`: not on its first rank, not in its promotion zone.
pub(crate) fn pawn_may_stand(r: &RuleSet, color: Color, c: Cell) -> bool {
    let (first, last) = if color == Color::White { (0, 7) } else { (7, 0) };
    let enemy_home = r.home_level(color.other());
    let in_zone = c.rank() == last && (r.pawn.promotion_zone == PromotionZone::EveryLevel || c.level() == enemy_home);
    c.rank() != first && !in_zone
}

/// Castling needs each king on file e of its back rank on its home level, and a king that does
/// not reach two cells along its rank by a move of its own: e1g1 would be both a castle and a
/// king move, and the move text would not say which (found by the random rule sets of
/// `stackchess-checks`).
fn check_castling(r: &RuleSet, line: Option<usize>) -> Result<(), RuleError> {
    if let Some(range) = r.pieces.king.range(Group::PlanarOrthogonal).filter(|r| r.get() >= 2) {
        return Err(err(
            "castling",
            line,
            format!(
                "castling = true, but the king moves {} cells along its rank (pieces.king planar-orthogonal): \
                 e1g1 would be both a castle and a king move; give the king a range of 1 there or turn castling off",
                if range.is_slide() { "any number of".to_owned() } else { format!("up to {}", range.get()) }
            ),
        ));
    }
    let b = &r.board;
    for (color, army, home, rank) in
        [(Color::White, &b.white, b.white_home, 0), (Color::Black, &b.black, b.black_home, 7)]
    {
        let texts: Vec<&str> = army.iter().map(String::as_str).collect();
        let mut king = None;
        parse_placement(&texts, |c, p| {
            if p.role == Role::King {
                king = Some(c);
            }
        })
        .map_err(|e| err("board", None, e.to_string()))?;
        let want = Cell::try_new(4, rank, home as i32, b.levels);
        if king.is_none() || king != want {
            let at = king.map_or_else(|| "nowhere".to_owned(), |c| c.display(b.levels > 1).to_string());
            let want = want.map_or_else(String::new, |c| c.display(b.levels > 1).to_string());
            return Err(err(
                "castling",
                line,
                format!("castling = true, but the {color} king starts on {at}, not on {want} (file e of its back rank on its home level)"),
            ));
        }
    }
    Ok(())
}

/// With transfers, every move stays within a level, on a board of two levels or more.
fn check_transfers(r: &RuleSet, line: Option<usize>) -> Result<(), RuleError> {
    for (key, m) in
        PIECE_KEYS.iter().zip([&r.pieces.king, &r.pieces.queen, &r.pieces.rook, &r.pieces.bishop, &r.pieces.knight])
    {
        for (g, _) in &m.0 {
            if r.transfer.enabled && !g.planar() {
                return Err(err(
                    &format!("pieces.{key}"),
                    None,
                    format!("{} leaves the level, but transfers are on: moves must stay within a level", g.name()),
                ));
            }
        }
    }
    if r.transfer.enabled {
        if r.board.levels < 2 {
            return Err(err("transfer.enabled", line, "transfers need two levels or more"));
        }
        if r.pawn.steps.iter().chain(&r.pawn.captures).any(|d| d.dl != 0) {
            return Err(err(
                "pawn",
                None,
                "a pawn vector leaves the level, but transfers are on: moves must stay within a level",
            ));
        }
    }
    Ok(())
}
