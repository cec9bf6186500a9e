//! LFEN reading and writing (RULES.md §4), with validation that names the field at fault.

use crate::{Board, Variant};
use stackchess_core::{Castling, Color, LfenError, LfenField, Piece, Position, Role};
use stackchess_geometry::Cell;
use std::fmt::Write;

fn e(field: LfenField, msg: impl Into<String>) -> LfenError {
    LfenError::new(field, msg)
}

/// Reads one level's placement into `b`.
fn parse_level<const L: usize, V: Variant<L>>(b: &mut Board<L, V>, level: usize, text: &str) -> Result<(), LfenError> {
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
                    #[allow(clippy::cast_possible_wrap, clippy::cast_possible_truncation)]
                    let c = Cell::try_new(file as i32, rank as i32, level as i32, L).expect("on board");
                    b.put(c, p);
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

/// Reads an LFEN for the variant `V`.
pub(crate) fn parse<const L: usize, V: Variant<L>>(lfen: &str) -> Result<Board<L, V>, LfenError> {
    let fields: Vec<&str> = lfen.split_whitespace().collect();
    if fields.len() != 4 && fields.len() != 6 {
        return Err(e(
            LfenField::Fields,
            format!(
                "expected 4 or 6 space-separated fields (placement side castling en-passant [halfmove fullmove]), found {}",
                fields.len()
            ),
        ));
    }
    let mut b = Board::<L, V>::empty();
    let levels: Vec<&str> = fields[0].split('|').collect();
    if levels.len() != L {
        return Err(e(
            LfenField::Placement,
            format!(
                "{} has {L} level(s), the placement has {} (levels are joined by '|')",
                V::tables().rules.name,
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
    if b.is_attacked(b.king(them), b.turn, b.occupied()) {
        return Err(e(LfenField::Position, format!("{them} is in check but it is {}'s move", b.turn)));
    }
    b.hash = b.hash_from_scratch();
    Ok(b)
}

fn validate_placement<const L: usize, V: Variant<L>>(b: &Board<L, V>) -> Result<(), LfenError> {
    for c in Color::ALL {
        let n = b.pieces(c, Role::King).count();
        if n != 1 {
            return Err(e(LfenField::Placement, format!("{c} has {n} kings; exactly one is needed")));
        }
        let bad = b.pieces(c, Role::Pawn) & b.t.bad_pawn[c.index()];
        if let Some(cell) = bad.first() {
            return Err(e(
                LfenField::Placement,
                format!("{c} pawn on {}, a cell no {c} pawn can reach", cell.display(L > 1)),
            ));
        }
    }
    Ok(())
}

fn parse_castling<const L: usize, V: Variant<L>>(b: &Board<L, V>, s: &str) -> Result<Castling, LfenError> {
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
        let Some(cm) = b.t.castles[color.index()][usize::from(long)] else {
            return Err(e(LfenField::Castling, format!("{} has no castling", b.t.rules.name)));
        };
        let king = Piece { color, role: Role::King };
        let rook = Piece { color, role: Role::Rook };
        if b.piece_at(cm.king_from) != Some(king) {
            return Err(e(
                LfenField::Castling,
                format!("right '{ch}' but the {color} king is not on {}", cm.king_from.display(L > 1)),
            ));
        }
        if b.piece_at(cm.rook_from) != Some(rook) {
            return Err(e(
                LfenField::Castling,
                format!("right '{ch}' but no {color} rook is on {}", cm.rook_from.display(L > 1)),
            ));
        }
        if rights.0 & Castling::bit(color, long) != 0 {
            return Err(e(LfenField::Castling, format!("right '{ch}' is given twice")));
        }
        rights.0 |= Castling::bit(color, long);
    }
    Ok(rights)
}

fn parse_ep<const L: usize, V: Variant<L>>(b: &Board<L, V>, s: &str) -> Result<Option<(Cell, Cell)>, LfenError> {
    if s == "-" {
        return Ok(None);
    }
    let cell = Cell::parse(s, L).map_err(|err| e(LfenField::EnPassant, err.to_string()))?;
    if !b.t.rules.pawn.double_step {
        return Err(e(LfenField::EnPassant, format!("{} has no double step, so no en-passant cell", b.t.rules.name)));
    }
    let mover = b.turn.other();
    let occ = b.occupied();
    // The mover's pawn double-stepped over `cell`: find the step it took.
    for from in (0..64 * L).map(Cell::from_index) {
        for &(mid, to) in &b.t.pawn_doubles[mover.index()][from.index()] {
            if mid == cell && !occ.has(from) && !occ.has(mid) && b.pieces(mover, Role::Pawn).has(to) {
                return Ok(Some((cell, to)));
            }
        }
    }
    Err(e(
        LfenField::EnPassant,
        format!("no {mover} pawn can just have double-stepped over {s} (the start cell and {s} must be empty, the pawn beyond)"),
    ))
}

/// Writes the LFEN.
pub(crate) fn write<const L: usize, V: Variant<L>>(b: &Board<L, V>) -> String {
    let mut s = String::new();
    for level in 0..L {
        if level > 0 {
            s.push('|');
        }
        for rank in (0..8).rev() {
            let mut empty = 0;
            for file in 0..8 {
                let c = Cell::from_index(level * 64 + rank * 8 + file);
                match b.piece_at(c) {
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
    let ep = b.ep.map_or_else(|| "-".to_owned(), |(c, _)| c.display(L > 1).to_string());
    let _ = write!(s, " {} {} {ep} {} {}", b.turn.char(), b.castling, b.halfmove, b.fullmove);
    s
}
