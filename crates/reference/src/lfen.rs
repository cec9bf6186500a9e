//! LFEN (RULES §4): reading with validation, and writing.

use crate::board::{right_color, Cell, Color, Kind, Piece, Position, Variant};
use crate::movegen::king_attacked;

/// Start position of a variant (RULES §4).
pub fn start(variant: Variant) -> &'static str {
    match variant {
        Variant::Malka | Variant::Traditional => {
            "8/8/8/8/8/8/PPPPPPPP/RNBQKBNR|8/8/8/8/8/8/8/8|rnbqkbnr/pppppppp/8/8/8/8/8/8 w KQkq - 0 1"
        }
        Variant::AirAttack => "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR|8/8/8/8/8/8/8/8 w KQkq - 0 1",
        Variant::Fide => "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    }
}

/// Parses a cell: `2e3`, or `e3` on a single-level board. Returns the cell and the rest.
pub fn parse_cell_prefix(variant: Variant, s: &str) -> Option<(Cell, &str)> {
    let b = s.as_bytes();
    let (z, rest) = match b.first() {
        Some(d @ b'1'..=b'9') => (i32::from(d - b'1'), b.get(1..)?),
        Some(_) if variant.levels() == 1 => (0, b),
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
    if z >= variant.levels() {
        return None;
    }
    let used = b.len() - rest.len() + 2;
    Some((Cell::new(x, y, z), s.get(used..)?))
}

fn parse_cell(variant: Variant, s: &str) -> Option<Cell> {
    match parse_cell_prefix(variant, s) {
        Some((c, "")) => Some(c),
        _ => None,
    }
}

/// The en-passant cell as written: level-prefixed, or plain for fide.
fn write_cell(variant: Variant, c: Cell) -> String {
    let s = c.to_string();
    if variant == Variant::Fide {
        s.get(1..).unwrap_or_default().to_string()
    } else {
        s
    }
}

/// Reads an LFEN and checks it against the rules of RULES §4.
pub fn parse(variant: Variant, s: &str) -> Result<Position, String> {
    let fields: Vec<&str> = s.split_whitespace().collect();
    if fields.len() != 4 && fields.len() != 6 {
        return Err(format!(
            "LFEN needs 4 or 6 fields (placement side castling en-passant [halfmove fullmove]), got {}",
            fields.len()
        ));
    }
    let mut pos = Position::empty(variant);
    parse_placement(&mut pos, fields[0])?;
    pos.side = match fields[1] {
        "w" => Color::White,
        "b" => Color::Black,
        other => return Err(format!("side to move must be w or b, got {other:?}")),
    };
    if fields[2] != "-" {
        for ch in fields[2].chars() {
            let i = match ch {
                'K' => 0,
                'Q' => 1,
                'k' => 2,
                'q' => 3,
                _ => return Err(format!("bad castling field {:?}", fields[2])),
            };
            if pos.castling[i] {
                return Err(format!("repeated castling right {ch:?}"));
            }
            pos.castling[i] = true;
        }
    }
    if fields[3] != "-" {
        let ep = parse_cell(variant, fields[3]).ok_or_else(|| format!("bad en-passant cell {:?}", fields[3]))?;
        pos.ep = Some((ep, ep_victim(&pos, ep)?));
    }
    if fields.len() == 6 {
        pos.halfmove = fields[4].parse().map_err(|_| format!("bad halfmove clock {:?}", fields[4]))?;
        pos.fullmove = fields[5].parse().map_err(|_| format!("bad fullmove number {:?}", fields[5]))?;
        if pos.fullmove == 0 {
            return Err("fullmove number must be at least 1".to_string());
        }
    }
    validate(&pos)?;
    Ok(pos)
}

fn parse_placement(pos: &mut Position, s: &str) -> Result<(), String> {
    let variant = pos.variant;
    let levels: Vec<&str> = s.split('|').collect();
    if levels.len() as i32 != variant.levels() {
        return Err(format!("placement needs {} level(s) joined by '|', got {}", variant.levels(), levels.len()));
    }
    for (z, level) in (0..).zip(levels) {
        let ranks: Vec<&str> = level.split('/').collect();
        if ranks.len() != 8 {
            return Err(format!("level {} needs 8 ranks, got {}", z + 1, ranks.len()));
        }
        for (y, rank) in (0..8).rev().zip(ranks) {
            let mut x = 0;
            for ch in rank.chars() {
                if let Some(d) = ch.to_digit(10).filter(|d| (1..=8).contains(d)) {
                    x += d as i32;
                } else if let Some(p) = Piece::from_char(ch) {
                    if x < 8 {
                        pos.set(Cell::new(x, y, z), Some(p));
                    }
                    x += 1;
                } else {
                    return Err(format!("bad character {ch:?} in placement"));
                }
                if x > 8 {
                    return Err(format!("rank {} of level {} is too long", y + 1, z + 1));
                }
            }
            if x != 8 {
                return Err(format!("rank {} of level {} is too short", y + 1, z + 1));
            }
        }
    }
    Ok(())
}

/// The pawn that double-stepped past `ep`: the opponent of the side to move, from its start
/// cell on the same file, along one of its double-step vectors.
fn ep_victim(pos: &Position, ep: Cell) -> Result<Cell, String> {
    let variant = pos.variant;
    let err = || format!("en-passant cell {ep} with no pawn that could just have made it");
    if variant == Variant::Malka {
        return Err("Malka has no en passant".to_string());
    }
    let mover = pos.side.other();
    let start_rank = if mover == Color::White { 1 } else { 6 };
    let start = Cell::new(ep.x, start_rank, variant.home_level(mover));
    let v = (0, ep.y - start.y, ep.z - start.z);
    let f = mover.forward();
    // The step vectors of the mover, as in §1.4 / §2.2.
    let allowed: &[(i32, i32, i32)] = if variant.is_air() { &[(0, 1, 0)] } else { &[(0, 1, 0), (0, 0, 1), (0, 1, 1)] };
    if !allowed.iter().any(|&(a, b, c)| (a, b * f, c * f) == v) {
        return Err(err());
    }
    let victim = ep.step(v, 1);
    let ok = pos.on_board(victim)
        && pos.get(victim) == Some(Piece::new(mover, Kind::Pawn))
        && pos.get(ep).is_none()
        && pos.get(start).is_none();
    if ok {
        Ok(victim)
    } else {
        Err(err())
    }
}

fn validate(pos: &Position) -> Result<(), String> {
    let variant = pos.variant;
    for color in [Color::White, Color::Black] {
        if pos.count(color, Kind::King) > 1 {
            return Err(format!("{color:?} has more than one king"));
        }
    }
    for c in pos.all_cells() {
        if let Some(p) = pos.get(c) {
            let own_back = Variant::back_rank(p.color);
            if p.kind == Kind::Pawn && (c.y == own_back || variant.is_promotion_cell(p.color, c)) {
                return Err(format!("{:?} pawn on {c}, which no such pawn can reach", p.color));
            }
        }
    }
    for i in 0..4 {
        if !pos.castling[i] {
            continue;
        }
        let color = right_color(i);
        let king_ok = pos.get(variant.king_home(color)) == Some(Piece::new(color, Kind::King));
        let rook_ok = pos.get(variant.rook_home(i)) == Some(Piece::new(color, Kind::Rook));
        if !king_ok || !rook_ok {
            return Err(format!(
                "castling right {:?} without king and rook on their home cells",
                ['K', 'Q', 'k', 'q'][i]
            ));
        }
    }
    if king_attacked(pos, pos.side.other()) {
        return Err("the side not to move is in check".to_string());
    }
    Ok(())
}

/// Writes a position as LFEN (for fide, standard FEN).
pub fn write(pos: &Position) -> String {
    let variant = pos.variant;
    let levels: Vec<String> = (0..variant.levels())
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
    let castling: String = (0..4).filter(|&i| pos.castling[i]).map(|i| ['K', 'Q', 'k', 'q'][i]).collect();
    let castling = if castling.is_empty() { "-".to_string() } else { castling };
    let ep = pos.ep.map_or_else(|| "-".to_string(), |(c, _)| write_cell(variant, c));
    format!("{} {side} {castling} {ep} {} {}", levels.join("|"), pos.halfmove, pos.fullmove)
}
