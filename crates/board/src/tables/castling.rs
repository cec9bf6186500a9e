//! Castling: each side's two castling moves, and the rights a move clears.

use super::vectors::cell;
use stackchess_core::{ByColor, Castling, Color};
use stackchess_geometry::{Bitboard, Cell, CellTable, Rays};
use stackchess_rules::RuleSet;

/// One castling move's cells.
#[derive(Clone, Copy, Debug)]
pub(crate) struct CastleMove<const L: usize> {
    pub king_from: Cell,
    pub king_to: Cell,
    pub rook_from: Cell,
    pub rook_to: Cell,
    /// Cells that must be empty (between king and rook).
    pub empty: Bitboard<L>,
    /// The cell the king crosses.
    pub cross: Cell,
}

/// The castling tables (none when the rules have no castling).
#[derive(Debug)]
pub(crate) struct Castles<const L: usize> {
    /// Castling moves by colour, king side first.
    pub moves: ByColor<[Option<CastleMove<L>>; 2]>,
    /// Castling rights (bits of [`Castling`]) to clear when a move leaves or reaches a cell.
    pub clear: CellTable<u8>,
}

impl<const L: usize> Castles<L> {
    /// The castling tables: each side's king on file e and rooks on files a and h of its back
    /// rank, on its home level.
    pub(super) fn new(rules: &RuleSet, rays: &Rays<L>) -> Self {
        let mut moves: ByColor<[Option<CastleMove<L>>; 2]> = ByColor::default();
        let mut clear = vec![0u8; 64 * L];
        if rules.castling {
            let home_level = ByColor::new(rules.board.white_home, rules.board.black_home);
            let back_rank = ByColor::new(0, 7);
            for c in Color::ALL {
                let (lv, rk) = (home_level[c], back_rank[c]);
                let king_from = cell::<L>(4, rk, lv);
                clear[king_from.index()] |= Castling::bit(c, false) | Castling::bit(c, true);
                for (long, (rook_file, king_file, rook_to_file)) in [(false, (7, 6, 5)), (true, (0, 2, 3))] {
                    let rook_from = cell::<L>(rook_file, rk, lv);
                    clear[rook_from.index()] |= Castling::bit(c, long);
                    moves[c][usize::from(long)] = Some(CastleMove {
                        king_from,
                        king_to: cell::<L>(king_file, rk, lv),
                        rook_from,
                        rook_to: cell::<L>(rook_to_file, rk, lv),
                        empty: rays.between(king_from, rook_from),
                        cross: cell::<L>(rook_to_file, rk, lv),
                    });
                }
            }
        }
        Castles { moves, clear: CellTable::from_fn(64 * L, |c| clear[c.index()]) }
    }

    /// The king-side (`long == false`) or queen-side castling move of `color`, if the rules have it.
    #[inline]
    pub fn get(&self, color: Color, long: bool) -> Option<CastleMove<L>> {
        self.moves[color][usize::from(long)]
    }
}
