//! Errors for bad input: each says what was wrong and where.

use std::fmt;

/// The LFEN field an error is about.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum LfenField {
    /// The whole text (field count).
    Fields,
    /// The placement of one level (1-based).
    Level(usize),
    /// The placement as a whole (level count, kings, pawns).
    Placement,
    /// Side to move.
    Side,
    /// Castling rights.
    Castling,
    /// En-passant cell.
    EnPassant,
    /// Halfmove clock.
    Halfmove,
    /// Fullmove number.
    Fullmove,
    /// The position as a whole (for example: the side not to move is in check).
    Position,
}

impl fmt::Display for LfenField {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            LfenField::Fields => f.write_str("field count"),
            LfenField::Level(l) => write!(f, "placement of level {l}"),
            LfenField::Placement => f.write_str("placement"),
            LfenField::Side => f.write_str("side to move (field 2)"),
            LfenField::Castling => f.write_str("castling rights (field 3)"),
            LfenField::EnPassant => f.write_str("en-passant cell (field 4)"),
            LfenField::Halfmove => f.write_str("halfmove clock (field 5)"),
            LfenField::Fullmove => f.write_str("fullmove number (field 6)"),
            LfenField::Position => f.write_str("position"),
        }
    }
}

/// A position text that could not be read.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct LfenError {
    /// Where.
    pub field: LfenField,
    /// What was wrong.
    pub message: String,
}

impl LfenError {
    /// An error about `field`.
    pub fn new(field: LfenField, message: impl Into<String>) -> LfenError {
        LfenError { field, message: message.into() }
    }
}

impl fmt::Display for LfenError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "invalid LFEN, {}: {}", self.field, self.message)
    }
}

impl std::error::Error for LfenError {}

/// A move text that could not be read in a position.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct ParseMoveError {
    /// The text given.
    pub text: String,
    /// What was wrong.
    pub reason: String,
}

impl fmt::Display for ParseMoveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "bad move '{}': {}", self.text, self.reason)
    }
}

impl std::error::Error for ParseMoveError {}

/// A move that is not legal in the position it was played in.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct IllegalMove {
    /// The move in coordinate notation.
    pub mv: String,
    /// The position, as LFEN.
    pub lfen: String,
}

impl fmt::Display for IllegalMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "illegal move {} in position {}", self.mv, self.lfen)
    }
}

impl std::error::Error for IllegalMove {}
