//! The text layer of LFEN (docs/rules.md §1), shared by every variant: field splitting, placement
//! rows, side, clocks, and writing. Rule-specific checks (kings, pawns, castling, en passant,
//! check) stay with each variant.

use crate::{Castling, Color, LfenError, LfenField, Piece};
use stackchess_geometry::Cell;
use std::fmt::Write;

fn e(field: LfenField, msg: impl Into<String>) -> LfenError {
    LfenError::new(field, msg)
}

/// The fields of an LFEN, split and read as far as no rule is needed.
#[derive(Clone, Debug)]
pub struct LfenFields<'a> {
    /// Each level's placement text, level 1 first.
    pub levels: Vec<&'a str>,
    /// Side to move.
    pub turn: Color,
    /// The castling field, unread.
    pub castling: &'a str,
    /// The en-passant field, unread.
    pub ep: &'a str,
    /// Halfmove clock (0 when omitted).
    pub halfmove: u32,
    /// Fullmove number (1 when omitted).
    pub fullmove: u32,
}

/// Splits an LFEN of a `levels`-level variant called `variant` into its fields.
///
/// # Errors
/// A field count other than 4 or 6, the wrong number of levels, a bad side or clock.
pub fn split_lfen<'a>(lfen: &'a str, levels: usize, variant: &str) -> Result<LfenFields<'a>, LfenError> {
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
    let placement: Vec<&str> = fields[0].split('|').collect();
    if placement.len() != levels {
        return Err(e(
            LfenField::Placement,
            format!(
                "{variant} has {levels} level(s), the placement has {} (levels are joined by '|')",
                placement.len()
            ),
        ));
    }
    let turn = match fields[1] {
        "w" => Color::White,
        "b" => Color::Black,
        s => return Err(e(LfenField::Side, format!("expected 'w' or 'b', found '{s}'"))),
    };
    let num = |i: usize, field, default: u32| -> Result<u32, LfenError> {
        fields.get(i).map_or(Ok(default), |s| {
            s.parse::<u32>().map_err(|_| e(field, format!("'{s}' is not a non-negative integer")))
        })
    };
    let halfmove = num(4, LfenField::Halfmove, 0)?;
    let fullmove = num(5, LfenField::Fullmove, 1)?;
    if fullmove == 0 {
        return Err(e(LfenField::Fullmove, "must be at least 1"));
    }
    Ok(LfenFields { levels: placement, turn, castling: fields[2], ep: fields[3], halfmove, fullmove })
}

/// Reads the placement of every level, calling `put` for each piece.
///
/// # Errors
/// Names the level and rank: a bad letter or digit, or a rank of other than 8 cells.
pub fn parse_placement(levels: &[&str], mut put: impl FnMut(Cell, Piece)) -> Result<(), LfenError> {
    for (level, text) in levels.iter().enumerate() {
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
                        put(Cell::from_index(level * 64 + rank * 8 + file), p);
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
    }
    Ok(())
}

/// The state written after the placement.
#[derive(Clone, Copy, Debug)]
pub struct LfenState {
    /// Side to move.
    pub turn: Color,
    /// Castling rights.
    pub castling: Castling,
    /// En-passant cell.
    pub ep: Option<Cell>,
    /// Halfmove clock.
    pub halfmove: u32,
    /// Fullmove number.
    pub fullmove: u32,
}

/// Writes an LFEN; cells carry their level unless `levels == 1` (then it is plain FEN).
#[must_use]
pub fn write_lfen(levels: usize, piece_at: impl Fn(Cell) -> Option<Piece>, st: LfenState) -> String {
    let mut s = String::new();
    for level in 0..levels {
        if level > 0 {
            s.push('|');
        }
        for rank in (0..8).rev() {
            let mut empty = 0;
            for file in 0..8 {
                match piece_at(Cell::from_index(level * 64 + rank * 8 + file)) {
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
    let ep = st.ep.map_or_else(|| "-".to_owned(), |c| c.display(levels > 1).to_string());
    let _ = write!(s, " {} {} {ep} {} {}", st.turn.char(), st.castling, st.halfmove, st.fullmove);
    s
}
