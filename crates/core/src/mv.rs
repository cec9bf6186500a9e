//! Moves and move lists.

use crate::Role;
use arrayvec::ArrayVec;
use stackchess_geometry::Cell;

/// How a move changes the board beyond lifting and dropping one piece.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum MoveKind {
    /// An ordinary move or capture (also promotions).
    Normal = 0,
    /// A pawn's double step, which sets the en-passant cell.
    DoubleStep = 1,
    /// An en-passant capture.
    EnPassant = 2,
    /// Castling, given as the king's move.
    Castle = 3,
    /// An Air Attack transfer.
    Transfer = 4,
}

/// A move: from, to, promotion and kind. Four bytes.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Move {
    from: Cell,
    to: Cell,
    promotion: Option<Role>,
    kind: MoveKind,
}

impl Move {
    /// A move.
    #[must_use]
    pub const fn new(from: Cell, to: Cell, promotion: Option<Role>, kind: MoveKind) -> Move {
        Move { from, to, promotion, kind }
    }
    /// An ordinary move.
    #[must_use]
    pub const fn normal(from: Cell, to: Cell) -> Move {
        Move::new(from, to, None, MoveKind::Normal)
    }
    /// The cell left.
    #[must_use]
    pub const fn from(self) -> Cell {
        self.from
    }
    /// The cell reached (for castling, the king's).
    #[must_use]
    pub const fn to(self) -> Cell {
        self.to
    }
    /// The promotion role, if any.
    #[must_use]
    pub const fn promotion(self) -> Option<Role> {
        self.promotion
    }
    /// The kind.
    #[must_use]
    pub const fn kind(self) -> MoveKind {
        self.kind
    }
    /// Packs the move in 24 bits (for hash tables).
    #[must_use]
    pub fn to_u32(self) -> u32 {
        #[allow(clippy::cast_possible_truncation)]
        let p = self.promotion.map_or(0, |r| r as u32 + 1);
        self.from.index() as u32 | (self.to.index() as u32) << 8 | p << 16 | (self.kind as u32) << 20
    }
    /// Unpacks [`Move::to_u32`]; `None` for a value no move packs to.
    #[must_use]
    pub fn from_u32(v: u32) -> Option<Move> {
        let from = (v & 0xff) as usize;
        let to = (v >> 8 & 0xff) as usize;
        let p = (v >> 16 & 0xf) as usize;
        let kind = match v >> 20 {
            0 => MoveKind::Normal,
            1 => MoveKind::DoubleStep,
            2 => MoveKind::EnPassant,
            3 => MoveKind::Castle,
            4 => MoveKind::Transfer,
            _ => return None,
        };
        if from >= 256 || to >= 256 || p > 6 {
            return None;
        }
        let promotion = if p == 0 { None } else { Some(Role::ALL[p - 1]) };
        Some(Move::new(Cell::from_index(from), Cell::from_index(to), promotion, kind))
    }
}

/// The most legal moves any position of any variant can have, with margin.
///
/// Worst case on 8×8×3 (Traditional): nine queens reach at most 63 cells each, two rooks 34,
/// two bishops 29, two knights 24, the king 26: 824 in all, so 1024 suffices.
pub const MAX_MOVES: usize = 1024;

/// A list of moves on the stack.
pub type MoveList = ArrayVec<Move, MAX_MOVES>;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn packing_round_trips() {
        let m = Move::new(Cell::from_index(130), Cell::from_index(191), Some(Role::Knight), MoveKind::Normal);
        assert_eq!(Move::from_u32(m.to_u32()), Some(m));
        let c = Move::new(Cell::from_index(4), Cell::from_index(6), None, MoveKind::Castle);
        assert_eq!(Move::from_u32(c.to_u32()), Some(c));
        assert_eq!(std::mem::size_of::<Move>(), 4);
        assert_eq!(Move::from_u32(7 << 20), None);
    }
}
