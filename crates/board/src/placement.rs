//! Where the pieces stand: one bitboard per colour and one per role.

use stackchess_core::{ByColor, ByRole, Color, Piece, Role};
use stackchess_geometry::{Bitboard, Cell};

/// The pieces on a board of `L` levels: a cell holds a piece of colour `c` and role `r` when it
/// is in both `by_color[c]` and `by_role[r]`.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Placement<const L: usize> {
    /// The cells of each colour's pieces.
    pub by_color: ByColor<Bitboard<L>>,
    /// The cells of each role's pieces, both colours.
    pub by_role: ByRole<Bitboard<L>>,
}

impl<const L: usize> Default for Placement<L> {
    fn default() -> Self {
        Placement::EMPTY
    }
}

impl<const L: usize> Placement<L> {
    /// No pieces.
    pub const EMPTY: Placement<L> = Placement {
        by_color: ByColor::new(Bitboard::EMPTY, Bitboard::EMPTY),
        by_role: ByRole::from_array([Bitboard::EMPTY; 6]),
    };

    /// Every occupied cell.
    #[inline]
    #[must_use]
    pub fn occupied(&self) -> Bitboard<L> {
        self.by_color[Color::White] | self.by_color[Color::Black]
    }

    /// The pieces of colour `c` and role `r`.
    #[inline]
    #[must_use]
    pub fn pieces(&self, c: Color, r: Role) -> Bitboard<L> {
        self.by_color[c] & self.by_role[r]
    }

    /// The role of the piece on `cell`, if any.
    #[inline]
    #[must_use]
    pub fn role_at(&self, cell: Cell) -> Option<Role> {
        Role::ALL.into_iter().find(|&r| self.by_role[r].has(cell))
    }

    /// The piece on `cell`, if any.
    #[must_use]
    pub fn piece_at(&self, cell: Cell) -> Option<Piece> {
        let color = Color::ALL.into_iter().find(|&c| self.by_color[c].has(cell))?;
        self.role_at(cell).map(|role| Piece { color, role })
    }

    /// Calls `f` on every piece: White's then Black's, by role, lowest cell first.
    pub fn for_each_piece<F: FnMut(Cell, Piece)>(&self, mut f: F) {
        for color in Color::ALL {
            for role in Role::ALL {
                self.pieces(color, role).for_each(|c| f(c, Piece { color, role }));
            }
        }
    }

    /// Puts `p` on the empty cell `cell`.
    #[inline]
    pub fn insert(&mut self, cell: Cell, p: Piece) {
        self.by_color[p.color].insert(cell);
        self.by_role[p.role].insert(cell);
    }

    /// Takes `p` off `cell`, where it stands.
    #[inline]
    pub fn remove(&mut self, cell: Cell, p: Piece) {
        self.by_color[p.color].remove(cell);
        self.by_role[p.role].remove(cell);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pieces_go_on_and_off() {
        let mut p = Placement::<2>::EMPTY;
        let (a, b) = (Cell::from_index(3), Cell::from_index(70));
        let (wn, bq) =
            (Piece { color: Color::White, role: Role::Knight }, Piece { color: Color::Black, role: Role::Queen });
        p.insert(a, wn);
        p.insert(b, bq);
        assert_eq!((p.piece_at(a), p.piece_at(b), p.piece_at(Cell::from_index(4))), (Some(wn), Some(bq), None));
        assert_eq!(p.occupied().count(), 2);
        let mut seen = Vec::new();
        p.for_each_piece(|c, q| seen.push((c, q)));
        assert_eq!(seen, vec![(a, wn), (b, bq)]);
        p.remove(a, wn);
        assert_eq!((p.piece_at(a), p.role_at(b)), (None, Some(Role::Queen)));
        assert_eq!(
            p,
            Placement { by_color: ByColor::new(Bitboard::EMPTY, p.by_color[Color::Black]), by_role: p.by_role }
        );
    }
}
