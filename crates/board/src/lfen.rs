//! LFEN reading and writing (docs/rules.md §1), with validation that names the field at fault.

use crate::{Board, Tables};
use stackchess_core::{parse_placement, split_lfen, Castling, Color, LfenError, LfenField, Piece, Position, Role};
use stackchess_geometry::Cell;

fn e(field: LfenField, msg: impl Into<String>) -> LfenError {
    LfenError::new(field, msg)
}

/// Reads an LFEN for the variant `V`.
pub(crate) fn parse<const L: usize>(t: &'static Tables<L>, lfen: &str) -> Result<Board<L>, LfenError> {
    let f = split_lfen(lfen, L, t.name)?;
    let mut b = Board::<L>::empty(t);
    parse_placement(&f.levels, |c, p| b.put(c, p))?;
    b.turn = f.turn;
    validate_placement(&b)?;
    b.castling = parse_castling(&b, f.castling)?;
    b.ep = parse_ep(&b, f.ep)?;
    b.halfmove = f.halfmove;
    b.fullmove = f.fullmove;
    let them = b.turn.other();
    if b.is_attacked(b.king(them), b.turn, b.occupied()) {
        return Err(e(LfenField::Position, format!("{them} is in check but it is {}'s move", b.turn)));
    }
    b.hash = b.hash_from_scratch();
    Ok(b)
}

fn validate_placement<const L: usize>(b: &Board<L>) -> Result<(), LfenError> {
    for c in Color::ALL {
        let n = b.pieces(c, Role::King).count();
        if n != 1 {
            return Err(e(LfenField::Placement, format!("{c} has {n} kings; exactly one is needed")));
        }
        let bad = b.pieces(c, Role::Pawn) & b.t.pawns.bad_pawn[c];
        if let Some(cell) = bad.first() {
            return Err(e(
                LfenField::Placement,
                format!("{c} pawn on {}, a cell no {c} pawn can reach", cell.display(L > 1)),
            ));
        }
    }
    Ok(())
}

fn parse_castling<const L: usize>(b: &Board<L>, s: &str) -> Result<Castling, LfenError> {
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
        let Some(cm) = b.t.castles.get(color, long) else {
            return Err(e(LfenField::Castling, format!("{} has no castling", b.t.name)));
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

fn parse_ep<const L: usize>(b: &Board<L>, s: &str) -> Result<Option<(Cell, Cell)>, LfenError> {
    if s == "-" {
        return Ok(None);
    }
    let cell = Cell::parse(s, L).map_err(|err| e(LfenField::EnPassant, err.to_string()))?;
    if !b.t.pawns.en_passant {
        return Err(e(LfenField::EnPassant, format!("{} has no en passant, so no en-passant cell", b.t.name)));
    }
    let mover = b.turn.other();
    let occ = b.occupied();
    // The mover's pawn double-stepped over `cell`: find the step it took.
    for from in (0..64 * L).map(Cell::from_index) {
        for &(mid, to) in &b.t.pawns.doubles[mover][from.index()] {
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
