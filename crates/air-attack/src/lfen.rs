//! LFEN reading and writing (RULES.md §4), with validation that names the field at fault.

use crate::board::Board;
use crate::tables::Tables;
use crate::tables::LEVELS;
use stackchess_core::{parse_placement, split_lfen, Castling, Color, LfenError, LfenField, Piece, Position, Role};
use stackchess_geometry::Cell;

fn e(field: LfenField, msg: impl Into<String>) -> LfenError {
    LfenError::new(field, msg)
}

/// Reads an LFEN.
pub(crate) fn parse(t: &'static Tables, lfen: &str) -> Result<Board, LfenError> {
    let mut b = Board::empty(t);
    let f = split_lfen(lfen, LEVELS, b.t.rules.name)?;
    parse_placement(&f.levels, |c, p| b.put(c, p))?;
    b.turn = f.turn;
    validate_placement(&b)?;
    b.castling = parse_castling(&b, f.castling)?;
    b.ep = parse_ep(&b, f.ep)?;
    b.halfmove = f.halfmove;
    b.fullmove = f.fullmove;
    let them = b.turn.other();
    if b.attacked(b.king(them), b.turn, b.placed.by_color[b.turn.index()], b.occupied()) {
        return Err(e(LfenField::Position, format!("{them} is in check but it is {}'s move", b.turn)));
    }
    b.hash = b.hash_from_scratch();
    Ok(b)
}

fn validate_placement(b: &Board) -> Result<(), LfenError> {
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

fn parse_castling(b: &Board, s: &str) -> Result<Castling, LfenError> {
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
fn parse_ep(b: &Board, s: &str) -> Result<Option<(Cell, Cell)>, LfenError> {
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
