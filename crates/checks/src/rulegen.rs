//! Random rule files drawn from the whole TOML space of docs/rule-files.md: levels and home
//! levels, armies (the built-ins' or random ones), every direction group with every kind of
//! range, pawn vectors, double step and en passant, promotion, castling, the draw rules and
//! transfers. Some draws break a rule of validation on purpose (an army without a king, a pawn on
//! its first rank, en passant without a double step, a vector leaving the level with transfers
//! on): those must be refused with the key named.
//!
//! (Its first form, 200 rule sets over the built-in boards in `stackchess-variants`' tests, found a
//! transfer attack the pin test missed, a miscounted promoting transfer, and two rule sets whose
//! en-passant cell is ambiguous, now refused. This form found castling with a king that reaches
//! g1 by its own move, now refused.)

use crate::input::Choices;
use std::fmt::Write as _;

const GROUPS: [&str; 7] = [
    "planar-orthogonal",
    "vertical",
    "orthogonal-slant",
    "planar-diagonal",
    "triagonal",
    "planar-knight",
    "vertical-knight",
];
const PLANAR: [&str; 3] = ["planar-orthogonal", "planar-diagonal", "planar-knight"];
const RANGES: [&str; 7] = ["\"step\"", "\"slide\"", "1", "2", "3", "5", "8"];
const PIECES: [&str; 5] = ["king", "queen", "rook", "bishop", "knight"];

fn pick<'a, T>(c: &mut impl Choices, items: &'a [T]) -> &'a T {
    &items[c.below(items.len())]
}

fn flag(c: &mut impl Choices) -> bool {
    c.below(2) == 1
}

/// A random rule file named `random-{id}`.
pub fn random_rule_file(c: &mut impl Choices, id: u64) -> String {
    let base = *pick(c, &["fide", "malka", "traditional", "air-attack", ""]);
    let base_levels = match base {
        "fide" => 1,
        "air-attack" => 2,
        _ => 3,
    };
    // A new board one time in three (always without a base), else the base's.
    let board = base.is_empty() || c.below(3) == 0;
    let levels = if board { 1 + c.below(4) } else { base_levels };
    let transfer = levels > 1 && c.below(3) == 0;
    let planar = transfer || levels == 1;
    let castling = flag(c);
    let mut s = format!("name = \"random-{id}\"\ndescription = \"a random rule set\"\n");
    if !base.is_empty() {
        let _ = writeln!(s, "base = \"{base}\"");
    }
    let _ = writeln!(s, "castling = {castling}");
    if board {
        s += &board_table(c, levels);
    }
    s += &pieces_table(c, planar, base.is_empty());
    s += &pawn_table(c, planar);
    s += &draws_table(c);
    if levels > 1 || c.below(8) == 0 {
        let _ = write!(
            s,
            "\n[transfer]\nenabled = {transfer}\nrange = {}\ncapture-ends-move = {}\nknight-over-occupied = {}\n",
            if c.below(16) == 0 { 8 } else { c.below(8) }, // 8 is refused
            flag(c),
            flag(c)
        );
    }
    s
}

/// `[board]`: the levels, home levels and armies.
fn board_table(c: &mut impl Choices, levels: usize) -> String {
    let mut s = format!("\n[board]\nlevels = {levels}\n");
    let (white_home, black_home) = match c.below(4) {
        0 => (1 + c.below(levels), 1 + c.below(levels)),
        _ => (1, levels),
    };
    let _ = writeln!(s, "white-home = {white_home}\nblack-home = {black_home}");
    let army = |c: &mut dyn FnMut(usize) -> usize, home: usize| -> Vec<String> {
        (1..=levels)
            .map(|level| {
                if level != home {
                    return if c(6) == 0 { "8/8/8/8/8/8/8/4N3".to_owned() } else { "8/8/8/8/8/8/8/8".to_owned() };
                }
                match c(16) {
                    0..=3 => "8/8/8/8/8/8/PPPP4/RN2K3".to_owned(),
                    4..=5 => "8/8/8/8/8/8/8/4K3".to_owned(),
                    6 => "8/8/8/8/8/8/PPPPPPPP/8".to_owned(), // no king: refused
                    _ => "8/8/8/8/8/8/PPPPPPPP/RNBQKBNR".to_owned(),
                }
            })
            .collect()
    };
    let mut draw = |n: usize| c.below(n);
    let white = army(&mut draw, white_home);
    let quoted = |v: &[String]| v.iter().map(|p| format!("\"{p}\"")).collect::<Vec<_>>().join(", ");
    let _ = writeln!(s, "white = [{}]", quoted(&white));
    if draw(3) == 0 {
        let black: Vec<String> = army(&mut draw, black_home)
            .iter()
            .map(|p| p.split('/').rev().collect::<Vec<_>>().join("/").to_lowercase())
            .collect();
        let _ = writeln!(s, "black = [{}]", quoted(&black));
    } else {
        s += "black = \"mirror\"\n";
    }
    s
}

/// `[pieces]`: each piece's groups and ranges (all five when there is no base to fill them).
fn pieces_table(c: &mut impl Choices, planar: bool, all: bool) -> String {
    let groups: &[&str] = if planar && c.below(6) != 0 { &PLANAR } else { &GROUPS };
    let mut s = "\n[pieces]\n".to_owned();
    for piece in PIECES {
        if !all && c.below(4) == 0 {
            continue;
        }
        let mut chosen: Vec<&str> = Vec::new();
        for _ in 0..=c.below(3) {
            let g = *pick(c, groups);
            if !chosen.contains(&g) {
                chosen.push(g);
            }
        }
        // The king keeps short ranges most of the time, so games stay games.
        let entries: Vec<String> = chosen
            .iter()
            .map(|g| {
                let r = if piece == "king" && c.below(8) != 0 { RANGES[0] } else { *pick(c, &RANGES) };
                format!("{g} = {r}")
            })
            .collect();
        let _ = writeln!(s, "{piece} = {{ {} }}", entries.join(", "));
    }
    s
}

/// A random vector list for the pawn, planar when `planar` (almost always).
fn vectors(c: &mut impl Choices, pool: &[[i8; 3]], planar: bool) -> String {
    let mut v: Vec<[i8; 3]> = Vec::new();
    for _ in 0..=c.below(3) {
        let d = *pick(c, pool);
        if !v.contains(&d) && (!planar || d[2] == 0 || c.below(16) == 0) {
            v.push(d);
        }
    }
    if v.is_empty() {
        v.push(pool[0]);
    }
    let parts: Vec<String> = v.iter().map(|d| format!("[{}, {}, {}]", d[0], d[1], d[2])).collect();
    format!("[{}]", parts.join(", "))
}

/// `[pawn]`: vectors, double step, en passant, promotion.
fn pawn_table(c: &mut impl Choices, planar: bool) -> String {
    let steps = vectors(c, &[[0, 1, 0], [0, 0, 1], [0, 1, 1], [1, 1, 0], [0, 2, 0], [-1, 1, 0]], planar);
    let captures = vectors(c, &[[1, 1, 0], [-1, 1, 0], [1, 1, 1], [-1, 1, -1], [1, 0, 0], [0, 1, 0]], planar);
    let double = c.below(3) != 0;
    // En passant without a double step one time in sixteen: refused; so is en passant with a
    // vector both a step and a capture, or two double steps that pass one cell.
    let ep = (double || c.below(16) == 0) && c.below(3) == 0;
    format!(
        "\n[pawn]\nsteps = {steps}\ncaptures = {captures}\ndouble-step = {double}\nen-passant = {ep}\n\
         promotion-zone = \"{}\"\npromotion = \"{}\"\n",
        pick(c, &["enemy-home", "every-level"]),
        pick(c, &["any", "lost"]),
    )
}

/// `[draws]`: every key, some left out.
fn draws_table(c: &mut impl Choices) -> String {
    let mut s = "\n[draws]\n".to_owned();
    if flag(c) {
        let _ = writeln!(s, "fifty-moves = {}", pick(c, &[0, 1, 3, 50, 75]));
    }
    if flag(c) {
        // 1 is refused.
        let _ = writeln!(s, "repetition = {}", if c.below(16) == 0 { 1 } else { *pick(c, &[0, 2, 3, 5]) });
    }
    let _ = writeln!(s, "stalemate = \"{}\"", pick(c, &["draw", "win", "loss"]));
    if flag(c) {
        let _ = writeln!(s, "insufficient-material = {}", flag(c));
    }
    s
}
