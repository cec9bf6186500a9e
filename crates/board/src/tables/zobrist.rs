//! Zobrist keys by level count.

use stackchess_core::{ByColor, ByRole, Color, Role, SplitMix64};
use stackchess_geometry::{Cell, CellTable};

/// The keys a position's hash is the exclusive or of.
#[derive(Debug)]
pub(crate) struct Zobrist {
    /// By piece and cell.
    pub pieces: ByColor<ByRole<CellTable<u64>>>,
    /// Black to move.
    pub side: u64,
    /// By castling rights (the four bits of [`stackchess_core::Castling`]).
    pub castle: [u64; 16],
    /// By en-passant cell (when a capture there is possible).
    pub ep: CellTable<u64>,
}

impl Zobrist {
    /// The keys of a board of `L` levels, drawn in a fixed order: pieces (White's pawns first, cells
    /// in order), side, the four castling bits, en-passant cells.
    pub(super) fn new<const L: usize>() -> Self {
        let n = 64 * L;
        // Two levels keep the seed Air Attack's own board had, so its hashes (book key checks, the
        // bench signature) did not change with the shared board.
        let seed = if L == 2 { 0x4169_7241_7474_6163 } else { 0x5374_6163_6B43_6865 ^ L as u64 };
        let mut rng = SplitMix64(seed);
        let keys: Vec<u64> = (0..12 * n).map(|_| rng.next_u64()).collect();
        let pieces = ByColor::from_fn(|c| {
            ByRole::from_fn(|r| CellTable::from_fn(n, |x| keys[(c.index() * 6 + r.index()) * n + x.index()]))
        });
        let side = rng.next_u64();
        let bits: [u64; 4] = std::array::from_fn(|_| rng.next_u64());
        let castle = std::array::from_fn(|i| (0..4).filter(|b| i >> b & 1 != 0).fold(0, |acc, b| acc ^ bits[b]));
        let eps: Vec<u64> = (0..n).map(|_| rng.next_u64()).collect();
        Zobrist { pieces, side, castle, ep: CellTable::from_fn(n, |c| eps[c.index()]) }
    }

    /// The key of a piece on a cell.
    #[inline]
    pub fn piece(&self, color: Color, role: Role, c: Cell) -> u64 {
        self.pieces[color][role][c]
    }
}
