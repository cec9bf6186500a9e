//! Attack queries, normal and transfer (RULES.md §2.2, last bullet, and §3).

use crate::board::{Bb, Board};
use stackchess_core::{Color, Role};
use stackchess_geometry::{bishop_plane, rook_plane, Cell};

impl Board {
    /// One level's word of `by`'s pieces of `role` within `theirs` (a subset of `by`'s pieces).
    #[inline]
    fn word(&self, role: Role, theirs: Bb, level: usize) -> u64 {
        self.placed.by_role[role.index()].0[level] & theirs.0[level]
    }

    /// Whether any piece in `theirs` (pieces of `by`) could capture a piece on `c`, by a normal or
    /// a transfer move, given the occupancy `occ`. Attack is geometric: pins do not matter.
    pub(crate) fn attacked(&self, c: Cell, by: Color, theirs: Bb, occ: Bb) -> bool {
        let t = self.t;
        let tr = &t.rules.transfer;
        let (l, sq) = (c.level(), c.plane());
        let o = 1 - l;
        let occ_l = occ.0[l];
        let pawns_l = self.word(Role::Pawn, theirs, l);
        let knights_l = self.word(Role::Knight, theirs, l);
        let bishops_l = self.word(Role::Bishop, theirs, l);
        let rooks_l = self.word(Role::Rook, theirs, l);
        let queens_l = self.word(Role::Queen, theirs, l);
        let kings_l = self.word(Role::King, theirs, l);
        // The cells from which a pawn of `by` captures `sq` diagonally.
        let pawn_from = t.pawn_attacks[by.other().index()][sq];
        let rook = rook_plane(sq, occ_l);
        let bishop = bishop_plane(sq, occ_l);
        // Normal moves on the same level.
        if pawn_from & pawns_l != 0
            || t.knight[sq] & knights_l != 0
            || t.king[sq] & kings_l != 0
            || rook & (rooks_l | queens_l) != 0
            || bishop & (bishops_l | queens_l) != 0
        {
            return true;
        }
        // Transfers from the other level. Any piece but a knight captures on its transfer cell.
        let knights_o = self.word(Role::Knight, theirs, o);
        if (theirs.0[o] & !knights_o) >> sq & 1 != 0 {
            return true;
        }
        // A knight leaps on from its transfer cell, whatever stands there.
        if t.knight[sq] & knights_o != 0 {
            return true;
        }
        // The others continue only from an empty transfer cell, along a clear path.
        let empty_l = !occ_l;
        let queens_o = self.word(Role::Queen, theirs, o);
        let near = t.slider_reach[sq] & empty_l;
        if rook & near & (self.word(Role::Rook, theirs, o) | queens_o) != 0
            || bishop & near & (self.word(Role::Bishop, theirs, o) | queens_o) != 0
            || (rook | bishop) & t.king_reach[sq] & empty_l & self.word(Role::King, theirs, o) != 0
        {
            return true;
        }
        // A pawn in home position may capture diagonally forward from its transfer cell.
        o == t.rules.home_level
            && tr.home_pawn_capture
            && pawn_from & empty_l & self.word(Role::Pawn, theirs, o) & t.home_rank[by.index()] != 0
    }
}
