//! LFEN reading and writing (RULES.md §4), with validation that names the field at fault.

use crate::board::{AirRules, Board};
use crate::tables::LEVELS;
use stackchess_core::{Castling, Color, LfenError, LfenField, Piece, Position, Role};
use stackchess_geometry::Cell;
use std::fmt::Write;

fn e(field: LfenField, msg: impl Into<String>) -> LfenError {
    LfenError::new(field, msg)
}

/// Reads one level's placement into `b`.
fn parse_level<V: AirRules>(b: &mut Board<V>, level: usize, text: &str) -> Result<(), LfenError> {
    let field = LfenField::Level(level + 1);
    let ranks: Vec<&str> = text.split('/').collect();
    if ranks.len() != 8 {
        return Err(e(field, format!("expected 8 ranks separated by '/', found {} in '{text}'", ranks.len())));
    }
    for (i, rank_text) in ranks.iter().enumerate() {
        let rank = 7 - i;
        let mut file = 0usize;
        for ch in rank_text.chars() {
            if let Some(d) = ch.to_digit(10) {
                if d == 0 || d > 8 {
                    return Err(e(field, format!("rank {}: bad empty-cell count '{ch}'", rank + 1)));
                }
                file += d as usize;
            } else {
                let p = Piece::from_char(ch)
                    .ok_or_else(|| e(field, format!("rank {}: '{ch}' is not a piece letter", rank + 1)))?;
                if file < 8 {
                    b.put(Cell::from_index(level * 64 + rank * 8 + file), p);
                }
                file += 1;
            }
            if file > 8 {
                return Err(e(field, format!("rank {} has more than 8 cells: '{rank_text}'", rank + 1)));
            }
        }
        if file != 8 {
            return Err(e(field, format!("rank {} has {file} cells, not 8: '{rank_text}'", rank + 1)));
        }
    }
    Ok(())
}

/// Reads an LFEN.
pub(crate) fn parse<V: AirRules>(lfen: &str) -> Result<Board<V>, LfenError> {
    let fields: Vec<&str> = lfen.split_whitespace().collect();
    if !(4..=6).contains(&fields.len()) {
        return Err(e(
            LfenField::Fields,
            format!("expected 4 to 6 space-separated fields (placement side castling en-passant [halfmove fullmove]), found {}", fields.len()),
        ));
    }
    let mut b = Board::<V>::empty();
    let levels: Vec<&str> = fields[0].split('|').collect();
    if levels.len() != LEVELS {
        return Err(e(
            LfenField::Placement,
            format!(
                "{} has {LEVELS} levels, the placement has {} (levels are joined by '|')",
                b.t.rules.name,
                levels.len()
            ),
        ));
    }
    for (l, text) in levels.iter().enumerate() {
        parse_level(&mut b, l, text)?;
    }
    b.turn = match fields[1] {
        "w" => Color::White,
        "b" => Color::Black,
        s => return Err(e(LfenField::Side, format!("expected 'w' or 'b', found '{s}'"))),
    };
    validate_placement(&b)?;
    b.castling = parse_castling(&b, fields[2])?;
    b.ep = parse_ep(&b, fields[3])?;
    let num = |i: usize, field, default: u32| -> Result<u32, LfenError> {
        fields.get(i).map_or(Ok(default), |s| {
            s.parse::<u32>().map_err(|_| e(field, format!("'{s}' is not a non-negative integer")))
        })
    };
    b.halfmove = num(4, LfenField::Halfmove, 0)?;
    b.fullmove = num(5, LfenField::Fullmove, 1)?;
    if b.fullmove == 0 {
        return Err(e(LfenField::Fullmove, "must be at least 1"));
    }
    let them = b.turn.other();
    if b.attacked(b.king(them), b.turn, b.by_color[b.turn.index()], b.occupied()) {
        return Err(e(LfenField::Position, format!("{them} is in check but it is {}'s move", b.turn)));
    }
    b.hash = b.hash_from_scratch();
    Ok(b)
}

fn validate_placement<V: AirRules>(b: &Board<V>) -> Result<(), LfenError> {
    for c in Color::ALL {
        let n = b.pieces(c, Role::King).count();
        if n != 1 {
            return Err(e(LfenField::Placement, format!("{c} has {n} kings; exactly one is needed")));
        }
        let bad = b.pieces(c, Role::Pawn) & b.t.bad_pawn[c.index()];
        if let Some(cell) = bad.first() {
            return Err(e(
                LfenField::Placement,
                format!(
                    "{c} pawn on {cell}, a cell no {c} pawn can reach (it would have promoted, or it is behind its start)"
                ),
            ));
        }
    }
    Ok(())
}

fn parse_castling<V: AirRules>(b: &Board<V>, s: &str) -> Result<Castling, LfenError> {
    let mut rights = Castling::NONE;
    if s == "-" {
        return Ok(rights);
    }
    for ch in s.chars() {
        let (color, long) = match ch {
            'K' => (Color::White, false),
            'Q' => (Color::White, true),
            'k' => (Color::Black, false),
            'q' => (Color::Black, true),
            _ => return Err(e(LfenField::Castling, format!("'{ch}' is not one of K Q k q or '-'"))),
        };
        if rights.has(color, long) {
            return Err(e(LfenField::Castling, format!("right '{ch}' is given twice")));
        }
        let Some(cm) = b.t.castles[color.index()][usize::from(long)] else {
            return Err(e(LfenField::Castling, format!("{} has no castling", b.t.rules.name)));
        };
        if b.piece_at(cm.king_from) != Some(Piece { color, role: Role::King }) {
            return Err(e(
                LfenField::Castling,
                format!("right '{ch}' but the {color} king is not on {}", cm.king_from),
            ));
        }
        if b.piece_at(cm.rook_from) != Some(Piece { color, role: Role::Rook }) {
            return Err(e(LfenField::Castling, format!("right '{ch}' but no {color} rook is on {}", cm.rook_from)));
        }
        rights.0 |= Castling::bit(color, long);
    }
    Ok(rights)
}

/// The en-passant cell: the middle of a double step the side not to move has just made.
fn parse_ep<V: AirRules>(b: &Board<V>, s: &str) -> Result<Option<(Cell, Cell)>, LfenError> {
    if s == "-" {
        return Ok(None);
    }
    let cell = Cell::parse(s, LEVELS).map_err(|err| e(LfenField::EnPassant, err.to_string()))?;
    let mover = b.turn.other();
    let t = b.t;
    let occ = b.occupied();
    // The mover's pawn started two cells behind `cell`, in home position, and stands one beyond.
    let (start, to) = match mover {
        Color::White => (cell.index().checked_sub(8), cell.index() + 8),
        Color::Black => (Some(cell.index() + 8), cell.index().wrapping_sub(8)),
    };
    let ok = t.rules.double_step
        && cell.level() == t.rules.home_level
        && start.is_some_and(|s| {
            let s = Cell::from_index(s);
            s.level() == cell.level() && b.home_position(mover, s) && !occ.has(s)
        })
        && !occ.has(cell)
        && to < 64 * LEVELS
        && Cell::from_index(to).level() == cell.level()
        && b.pieces(mover, Role::Pawn).has(Cell::from_index(to));
    if ok {
        Ok(Some((cell, Cell::from_index(to))))
    } else {
        Err(e(
            LfenField::EnPassant,
            format!("no {mover} pawn can just have double-stepped over {s} (the start cell and {s} must be empty, the pawn beyond)"),
        ))
    }
}

/// Writes the LFEN.
pub(crate) fn write<V: AirRules>(b: &Board<V>) -> String {
    let mut s = String::new();
    for level in 0..LEVELS {
        if level > 0 {
            s.push('|');
        }
        for rank in (0..8).rev() {
            let mut empty = 0;
            for file in 0..8 {
                match b.piece_at(Cell::from_index(level * 64 + rank * 8 + file)) {
                    Some(p) => {
                        if empty > 0 {
                            let _ = write!(s, "{empty}");
                            empty = 0;
                        }
                        s.push(p.char());
                    }
                    None => empty += 1,
                }
            }
            if empty > 0 {
                let _ = write!(s, "{empty}");
            }
            if rank > 0 {
                s.push('/');
            }
        }
    }
    let ep = b.ep.map_or_else(|| "-".to_owned(), |(c, _)| c.to_string());
    let _ = write!(s, " {} {} {ep} {} {}", b.turn.char(), b.castling, b.halfmove, b.fullmove);
    s
}
