//! LFEN (RULES.md §4): reading with validation, and writing, for any rule set. A one-level
//! rule set's LFEN is plain FEN (cells written without the level; the level-prefixed form is
//! accepted on input).

use crate::board::{parse_level, Cell, Color, Kind, Piece, Position};
use crate::movegen::king_attacked;
use crate::rules::{right_color, Rules};

const RIGHTS: [char; 4] = ['K', 'Q', 'k', 'q'];

/// Parses a cell: `2e3`, or `e3` on a one-level board. Returns the cell and the rest.
pub fn parse_cell_prefix(levels: i32, s: &str) -> Option<(Cell, &str)> {
    let b = s.as_bytes();
    let (z, rest) = match b.first() {
        Some(d @ b'1'..=b'9') => (i32::from(d - b'1'), b.get(1..)?),
        Some(_) if levels == 1 => (0, b),
        _ => return None,
    };
    let x = match rest.first() {
        Some(f @ b'a'..=b'h') => i32::from(f - b'a'),
        _ => return None,
    };
    let y = match rest.get(1) {
        Some(r @ b'1'..=b'8') => i32::from(r - b'1'),
        _ => return None,
    };
    if z >= levels {
        return None;
    }
    let used = b.len() - rest.len() + 2;
    Some((Cell::new(x, y, z), s.get(used..)?))
}

fn parse_cell(levels: i32, s: &str) -> Option<Cell> {
    match parse_cell_prefix(levels, s) {
        Some((c, "")) => Some(c),
        _ => None,
    }
}

/// A cell as LFEN writes it: level-prefixed, or plain on a one-level board.
pub fn write_cell(levels: i32, c: Cell) -> String {
    let s = c.to_string();
    if levels == 1 {
        s.get(1..).unwrap_or_default().to_string()
    } else {
        s
    }
}

/// Reads an LFEN and checks it against the rules of RULES.md §4 and the rule set.
pub fn parse(rules: &Rules, s: &str) -> Result<Position, String> {
    let fields: Vec<&str> = s.split_whitespace().collect();
    let [placement, side, castling, ep, clocks @ ..] = fields.as_slice() else {
        return Err(format!(
            "LFEN needs 4 or 6 fields (placement side castling en-passant [halfmove fullmove]), got {}",
            fields.len()
        ));
    };
    let mut pos = Position::empty(rules.levels);
    parse_placement(&mut pos, placement)?;
    pos.side = match *side {
        "w" => Color::White,
        "b" => Color::Black,
        other => return Err(format!("side to move must be w or b, got {other:?}")),
    };
    if *castling != "-" {
        for ch in castling.chars() {
            let i = RIGHTS.iter().position(|&r| r == ch).ok_or_else(|| format!("bad castling field {castling:?}"))?;
            if pos.castling[i] {
                return Err(format!("repeated castling right {ch:?}"));
            }
            pos.castling[i] = true;
        }
    }
    if *ep != "-" {
        let cell = parse_cell(rules.levels, ep).ok_or_else(|| format!("bad en-passant cell {ep:?}"))?;
        pos.ep = Some((cell, ep_victim(rules, &pos, cell)?));
    }
    match clocks {
        [] => {}
        [half, full] => {
            pos.halfmove = half.parse().map_err(|_| format!("bad halfmove clock {half:?}"))?;
            pos.fullmove = full.parse().map_err(|_| format!("bad fullmove number {full:?}"))?;
            if pos.fullmove == 0 {
                return Err("fullmove number must be at least 1".to_string());
            }
        }
        _ => return Err(format!("LFEN needs 4 or 6 fields, got {}", fields.len())),
    }
    validate(rules, &pos)?;
    Ok(pos)
}

fn parse_placement(pos: &mut Position, s: &str) -> Result<(), String> {
    let levels: Vec<&str> = s.split('|').collect();
    if levels.len() != pos.levels as usize {
        return Err(format!("placement needs {} level(s) joined by '|', got {}", pos.levels, levels.len()));
    }
    for (z, level) in (0..).zip(levels) {
        for (c, p) in parse_level(level, z).map_err(|m| format!("level {}: {m}", z + 1))? {
            pos.set(c, Some(p));
        }
    }
    Ok(())
}

/// The pawn that double-stepped past `ep`: a pawn of the side not to move on `ep + s` for one
/// of its step vectors `s`, whose start `ep - s` is on its home rank and empty, `ep` empty.
fn ep_victim(rules: &Rules, pos: &Position, ep: Cell) -> Result<Cell, String> {
    if !rules.pawn.en_passant {
        return Err(format!("en-passant cell {ep} in a rule set without en passant"));
    }
    let mover = pos.side.other();
    let f = mover.forward();
    let mut found: Vec<Cell> = Vec::new();
    for &(a, b, c) in &rules.pawn.steps {
        let s = (a, b * f, c * f);
        let victim = ep.step(s, 1);
        let start = ep.step(s, -1);
        let ok = pos.on_board(start)
            && rules.is_home_rank(mover, start)
            && pos.get(start).is_none()
            && pos.is_empty(ep)
            && pos.get(victim) == Some(Piece::new(mover, Kind::Pawn));
        if ok && !found.contains(&victim) {
            found.push(victim);
        }
    }
    match found.as_slice() {
        [victim] => Ok(*victim),
        [] => Err(format!("en-passant cell {ep} with no pawn that could just have double-stepped over it")),
        _ => Err(format!("en-passant cell {ep} is ambiguous: more than one pawn could have double-stepped over it")),
    }
}

fn validate(rules: &Rules, pos: &Position) -> Result<(), String> {
    for color in [Color::White, Color::Black] {
        let kings = pos.count(color, Kind::King);
        if kings != 1 {
            return Err(format!("{} has {kings} kings; a position needs exactly one a side", color.name()));
        }
    }
    for (c, p) in pos.pieces() {
        if p.kind == Kind::Pawn && !rules.pawn_may_stand(p.color, c) {
            return Err(format!("{} pawn on {c}: its first rank or its promotion zone", p.color.name()));
        }
    }
    for (i, right) in RIGHTS.iter().enumerate() {
        if !pos.castling.get(i).copied().unwrap_or(false) {
            continue;
        }
        if !rules.castling {
            return Err(format!("castling right {right:?} in a rule set without castling"));
        }
        let color = right_color(i);
        let king_ok = pos.get(rules.king_home(color)) == Some(Piece::new(color, Kind::King));
        let rook_ok = pos.get(rules.rook_home(i)) == Some(Piece::new(color, Kind::Rook));
        if !king_ok || !rook_ok {
            return Err(format!("castling right {right:?} without king and rook on their home cells"));
        }
    }
    if king_attacked(rules, pos, pos.side.other()) {
        return Err("the side not to move is in check".to_string());
    }
    Ok(())
}

/// Writes a position as LFEN (for a one-level rule set, standard FEN).
pub fn write(pos: &Position) -> String {
    let levels: Vec<String> = (0..pos.levels)
        .map(|z| {
            let ranks: Vec<String> = (0..8)
                .rev()
                .map(|y| {
                    let mut s = String::new();
                    let mut empty = 0;
                    for x in 0..8 {
                        match pos.get(Cell::new(x, y, z)) {
                            None => empty += 1,
                            Some(p) => {
                                if empty > 0 {
                                    s.push_str(&empty.to_string());
                                    empty = 0;
                                }
                                s.push(p.to_char());
                            }
                        }
                    }
                    if empty > 0 {
                        s.push_str(&empty.to_string());
                    }
                    s
                })
                .collect();
            ranks.join("/")
        })
        .collect();
    let side = if pos.side == Color::White { "w" } else { "b" };
    let castling: String = (0..4).filter(|&i| pos.castling[i]).map(|i| RIGHTS[i]).collect();
    let castling = if castling.is_empty() { "-".to_string() } else { castling };
    let ep = pos.ep.map_or_else(|| "-".to_string(), |(c, _)| write_cell(pos.levels, c));
    format!("{} {side} {castling} {ep} {} {}", levels.join("|"), pos.halfmove, pos.fullmove)
}
