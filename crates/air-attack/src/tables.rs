//! Bitboard tables built once from [`Rules`]: leaps, pawn vectors, transfer reaches, castling, keys.

use crate::Rules;
use stackchess_core::{Castling, Color, Role, SplitMix64};
use stackchess_geometry::{Bitboard, Cell};

/// Number of levels of an Air Attack board.
pub const LEVELS: usize = 2;
/// Number of cells.
pub(crate) const CELLS: usize = 64 * LEVELS;

/// One castling move's cells.
#[derive(Clone, Copy, Debug)]
pub(crate) struct CastleMove {
    pub king_from: Cell,
    pub king_to: Cell,
    pub rook_from: Cell,
    pub rook_to: Cell,
    /// Cells that must be empty (between king and rook).
    pub empty: Bitboard<LEVELS>,
    /// The cell the king crosses.
    pub cross: Cell,
}

/// Everything the generator looks up, derived from [`Rules`]. Plane tables are indexed by the
/// square within a level (0..64) and hold one level's cells as a `u64`.
pub struct Tables {
    /// The rules these tables were built from.
    pub rules: Rules,
    pub(crate) knight: [u64; 64],
    pub(crate) king: [u64; 64],
    /// One pawn step forward, by colour.
    pub(crate) pawn_push: [[u64; 64]; 2],
    /// Pawn capture targets, by colour.
    pub(crate) pawn_attacks: [[u64; 64]; 2],
    /// Cells within the transfer range of a queen, rook or bishop (Chebyshev distance 1..=range).
    pub(crate) slider_reach: [u64; 64],
    /// Cells within the king's transfer range.
    pub(crate) king_reach: [u64; 64],
    /// Each side's pawn home rank, as a plane mask (meaningful on the home level).
    pub(crate) home_rank: [u64; 2],
    /// Promotion cells by colour.
    pub(crate) promo: [Bitboard<LEVELS>; 2],
    /// Cells no pawn of a colour can stand on.
    pub(crate) bad_pawn: [Bitboard<LEVELS>; 2],
    /// Castling moves by colour, king side first.
    pub(crate) castles: [[Option<CastleMove>; 2]; 2],
    /// Castling rights to clear when a move leaves or reaches a cell.
    pub(crate) castle_clear: [u8; CELLS],
    z_piece: Vec<u64>,
    pub(crate) z_side: u64,
    pub(crate) z_castle: [u64; 16],
    pub(crate) z_ep: [u64; CELLS],
}

/// The plane square at `(file, rank)` if on the board.
fn sq(file: i32, rank: i32) -> Option<usize> {
    #[allow(clippy::cast_sign_loss)]
    ((0..8).contains(&file) && (0..8).contains(&rank)).then(|| (rank * 8 + file) as usize)
}

/// For each square, the squares one of `vectors` away.
fn leap(vectors: &[(i32, i32)]) -> [u64; 64] {
    std::array::from_fn(|s| {
        #[allow(clippy::cast_possible_wrap, clippy::cast_possible_truncation)]
        let (f, r) = ((s % 8) as i32, (s / 8) as i32);
        vectors.iter().filter_map(|&(df, dr)| sq(f + df, r + dr)).fold(0, |b, t| b | 1 << t)
    })
}

/// For each square, the squares at Chebyshev distance 1..=`range`.
fn reach(range: u8) -> [u64; 64] {
    std::array::from_fn(|s| {
        (0..64)
            .filter(|&t| t != s && (s % 8).abs_diff(t % 8).max((s / 8).abs_diff(t / 8)) <= range.into())
            .fold(0, |b, t| b | 1 << t)
    })
}

fn cell(file: usize, rank: usize, level: usize) -> Cell {
    Cell::from_index(level * 64 + rank * 8 + file)
}

fn rank_cells(rank: usize, levels: impl Iterator<Item = usize> + Clone) -> Bitboard<LEVELS> {
    levels.flat_map(|l| (0..8).map(move |f| cell(f, rank, l))).collect()
}

impl Tables {
    /// Builds the tables. Precondition: `rules.home_level < LEVELS`.
    #[must_use]
    pub fn new(rules: Rules) -> Self {
        let knight = leap(&[(1, 2), (2, 1), (2, -1), (1, -2), (-1, -2), (-2, -1), (-2, 1), (-1, 2)]);
        let king = leap(&[(1, 0), (1, 1), (0, 1), (-1, 1), (-1, 0), (-1, -1), (0, -1), (1, -1)]);
        let pawn_push = [leap(&[(0, 1)]), leap(&[(0, -1)])];
        let pawn_attacks = [leap(&[(-1, 1), (1, 1)]), leap(&[(-1, -1), (1, -1)])];
        let home = rules.home_level;
        let home_rank = [0xffu64 << 8, 0xffu64 << 48];
        // White promotes on rank 8, Black on rank 1: of every level, or of the home level only.
        let promo_levels = if rules.promote_on_every_level { 0..LEVELS } else { home..home + 1 };
        let promo = [rank_cells(7, promo_levels.clone()), rank_cells(0, promo_levels)];
        // A pawn never moves backward, so its own first rank is out of reach on every level.
        let bad_pawn = [rank_cells(0, 0..LEVELS) | promo[0], rank_cells(7, 0..LEVELS) | promo[1]];

        let mut castles = [[None; 2]; 2];
        let mut castle_clear = [0u8; CELLS];
        if rules.castling {
            for c in Color::ALL {
                let rk = [0, 7][c.index()];
                let king_from = cell(4, rk, home);
                castle_clear[king_from.index()] |= Castling::bit(c, false) | Castling::bit(c, true);
                for (long, rook_file, king_file, rook_to_file) in [(false, 7, 6, 5), (true, 0, 2, 3)] {
                    let rook_from = cell(rook_file, rk, home);
                    castle_clear[rook_from.index()] |= Castling::bit(c, long);
                    let (lo, hi) = (rook_file.min(4) + 1, rook_file.max(4));
                    castles[c.index()][usize::from(long)] = Some(CastleMove {
                        king_from,
                        king_to: cell(king_file, rk, home),
                        rook_from,
                        rook_to: cell(rook_to_file, rk, home),
                        empty: (lo..hi).map(|f| cell(f, rk, home)).collect(),
                        cross: cell(rook_to_file, rk, home),
                    });
                }
            }
        }

        let mut rng = SplitMix64(0x4169_7241_7474_6163);
        let z_piece = (0..12 * CELLS).map(|_| rng.next_u64()).collect();
        let z_side = rng.next_u64();
        let bits: [u64; 4] = std::array::from_fn(|_| rng.next_u64());
        let z_castle = std::array::from_fn(|i| (0..4).filter(|b| i >> b & 1 != 0).fold(0, |acc, b| acc ^ bits[b]));
        let z_ep = std::array::from_fn(|_| rng.next_u64());

        Tables {
            rules,
            knight,
            king,
            pawn_push,
            pawn_attacks,
            slider_reach: reach(rules.transfer.slider_range),
            king_reach: reach(rules.transfer.king_range),
            home_rank,
            promo,
            bad_pawn,
            castles,
            castle_clear,
            z_piece,
            z_side,
            z_castle,
            z_ep,
        }
    }

    /// Zobrist key of a piece on a cell.
    #[inline]
    pub(crate) fn zp(&self, color: Color, role: Role, c: Cell) -> u64 {
        self.z_piece[(color.index() * 6 + role.index()) * CELLS + c.index()]
    }
}

impl std::fmt::Debug for Tables {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Tables({})", self.rules.name)
    }
}

/// Two handles are equal when they are the same tables.
impl PartialEq for Tables {
    fn eq(&self, other: &Self) -> bool {
        std::ptr::eq(self, other)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::AIR_ATTACK;

    #[test]
    fn tables_follow_the_rules() {
        let t = Tables::new(AIR_ATTACK);
        assert_eq!(t.knight[0].count_ones(), 2);
        assert_eq!(t.king[27].count_ones(), 8);
        // From d4 every other cell is within four; from a1, a 5×5 corner.
        assert_eq!(t.slider_reach[27].count_ones(), 63);
        assert_eq!(t.slider_reach[0].count_ones(), 24);
        assert_eq!(t.king_reach[0], t.king[0]);
        assert_eq!(t.promo[0].count(), 16);
        assert_eq!(t.bad_pawn[1].count(), 32);
        let ck = t.castles[0][1].expect("white long castle");
        assert_eq!(ck.empty.count(), 3);
        assert_eq!(ck.cross.to_string(), "1d1");
    }
}
