//! The inputs: one per (colour, role, cell) of a board of `L` levels, `12 · 64 · L` in all, seen
//! from each side. From White's side a piece is its own colour's; from Black's the board is turned
//! over ([`Mirror`]) and the colours exchanged, so that both sides see their own pieces first, on
//! their own half, as the rules mirror the board.

use stackchess_core::{Cell, Color, Mirror, Piece, Position};

/// The input numbering of one board shape.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Features {
    cells: usize,
    /// Each cell's mirror (for Black's side).
    mirror: Vec<u16>,
}

impl Features {
    /// The inputs of `rules`' board (mirrored as the rules mirror it; ranks alone when they do not).
    #[must_use]
    pub fn of<P: Position>(rules: P::Rules) -> Features {
        let m = Mirror::of::<P>(rules).unwrap_or_else(|| Mirror::ranks_only(P::LEVELS));
        let cells = 64 * P::LEVELS;
        Features { cells, mirror: (0..cells).map(|i| m.cell(Cell::from_index(i)).index() as u16).collect() }
    }

    /// The number of inputs.
    #[must_use]
    pub fn inputs(&self) -> usize {
        12 * self.cells
    }

    /// The input of `piece` on the cell of index `cell` as `side` sees it.
    #[inline]
    #[must_use]
    pub fn index(&self, side: Color, piece: Piece, cell: usize) -> usize {
        let (own, at) = if side == Color::White {
            (piece.color == Color::White, cell)
        } else {
            (piece.color == Color::Black, usize::from(self.mirror[cell]))
        };
        (usize::from(!own) * 6 + piece.role.index()) * self.cells + at
    }

    /// Calls `f` with the inputs of every piece of `pos`, from White's side and from Black's.
    pub fn active<P: Position>(&self, pos: &P, mut f: impl FnMut(usize, usize)) {
        pos.for_each_piece(|c, p| f(self.index(Color::White, p, c.index()), self.index(Color::Black, p, c.index())));
    }
}
