//! Ray tables for a board of `L` levels: slides, lines between cells, empty-board reach.

use crate::{bishop_plane, rook_plane, Bitboard, Cell, DirGroup, GroupSet};

/// Precomputed rays of every cell of an `L`-level board.
#[derive(Debug)]
pub struct Rays<const L: usize> {
    /// `between[a * N + b]`: the cells strictly between `a` and `b` when they share a line.
    between: Vec<Bitboard<L>>,
    /// `empty_slide[g][cell]`: the slide of group `g` on an empty board.
    empty_slide: [Vec<Bitboard<L>>; 5],
    /// `ring[(g - 2) * 3 + k - 1][sq]`: for a group `g` that leaves the level, the plane cells
    /// its rays from square `sq` cross `k` levels up or down (the same squares either way).
    ring: [[u64; 64]; 9],
}

impl<const L: usize> Rays<L> {
    /// Number of cells.
    pub const CELLS: usize = 64 * L;

    /// Builds the tables.
    #[must_use]
    pub fn new() -> Self {
        let n = Self::CELLS;
        let mut between = vec![Bitboard::EMPTY; n * n];
        let mut empty_slide: [Vec<Bitboard<L>>; 5] = std::array::from_fn(|_| vec![Bitboard::EMPTY; n]);
        for a in (0..n).map(Cell::from_index) {
            for g in DirGroup::ALL {
                for &d in g.dirs() {
                    let mut seen = Bitboard::EMPTY;
                    let mut c = a;
                    while let Some(next) = c.offset(d, L) {
                        between[a.index() * n + next.index()] = seen;
                        seen.insert(next);
                        empty_slide[g as usize][a.index()].insert(next);
                        c = next;
                    }
                }
            }
        }
        let mut ring = [[0u64; 64]; 9];
        for g in [DirGroup::Vertical, DirGroup::OrthoSlant, DirGroup::Triagonal] {
            for k in 1..=3i8 {
                for sq in 0..64i8 {
                    for d in g.dirs().iter().filter(|d| d.dl == 1) {
                        let (f, r) = (sq % 8 + k * d.df, sq / 8 + k * d.dr);
                        if (0..8).contains(&f) && (0..8).contains(&r) {
                            ring[(g as usize - 2) * 3 + k as usize - 1][sq as usize] |= 1 << (r * 8 + f);
                        }
                    }
                }
            }
        }
        Rays { between, empty_slide, ring }
    }

    /// Cells strictly between `a` and `b` on their common line; empty if they share none.
    #[inline]
    #[must_use]
    pub fn between(&self, a: Cell, b: Cell) -> Bitboard<L> {
        self.between[a.index() * Self::CELLS + b.index()]
    }

    /// Whether `a` and `b` lie on one of the 26 lines (and differ).
    #[inline]
    #[must_use]
    pub fn aligned(&self, a: Cell, b: Cell) -> bool {
        a != b && self.empty_slides(a, GroupSet::ALL).has(b)
    }

    /// The slide along the groups `gs` on an empty board.
    #[inline]
    #[must_use]
    pub fn empty_slides(&self, c: Cell, gs: GroupSet) -> Bitboard<L> {
        let mut r = Bitboard::EMPTY;
        for g in DirGroup::ALL {
            if gs.has(g) {
                r |= self.empty_slide[g as usize][c.index()];
            }
        }
        r
    }

    /// The cells a rook on plane square `sq` attacks within its level, given the level's occupancy.
    #[inline]
    #[must_use]
    pub fn rook_plane(&self, sq: usize, occ: u64) -> u64 {
        rook_plane(sq, occ)
    }

    /// The cells a bishop on plane square `sq` attacks within its level, given the level's occupancy.
    #[inline]
    #[must_use]
    pub fn bishop_plane(&self, sq: usize, occ: u64) -> u64 {
        bishop_plane(sq, occ)
    }

    /// The cells a slider on `c` moving along `gs` reaches, stopping at (and including) blockers in `occ`.
    #[inline]
    #[must_use]
    pub fn slides(&self, c: Cell, gs: GroupSet, occ: Bitboard<L>) -> Bitboard<L> {
        let (l, sq) = (c.level(), c.plane());
        let mut w = 0;
        if gs.has(DirGroup::OrthoPlane) {
            w |= rook_plane(sq, occ.word(l));
        }
        if gs.has(DirGroup::DiagPlane) {
            w |= bishop_plane(sq, occ.word(l));
        }
        let mut r = Bitboard::on_level(l, w);
        if L > 1 && gs.0 & !(GroupSet::ROOK_PLANE.0 | GroupSet::BISHOP_PLANE.0) != 0 {
            r |= self.cross_slides(c, gs, occ);
        }
        r
    }

    /// The part of [`Rays::slides`] that leaves the level. Level by level away from `c`, up and
    /// then down: the group's cells `k` levels away, less those behind a piece nearer on the same
    /// ray (a ray is known by its plane direction; pieces met on the way are few).
    #[must_use]
    pub fn cross_slides(&self, c: Cell, gs: GroupSet, occ: Bitboard<L>) -> Bitboard<L> {
        let (l, sq) = (c.level(), c.plane());
        #[allow(clippy::cast_possible_wrap, clippy::cast_possible_truncation)]
        let (f0, r0) = ((sq % 8) as i32, (sq / 8) as i32);
        let groups = [DirGroup::Vertical, DirGroup::OrthoSlant, DirGroup::Triagonal].map(|g| gs.has(g));
        let mut out = [0u64; L];
        for up in [true, false] {
            // Blocked plane directions (df, dr), as bit (dr + 1) * 3 + df + 1.
            let mut blocked = 0u32;
            for k in 1..L {
                let level = if up { l + k } else { l.wrapping_sub(k) };
                if level >= L {
                    break;
                }
                let mut reach = 0;
                for (g, &on) in groups.iter().enumerate() {
                    if on {
                        reach |= self.ring[g * 3 + k - 1][sq];
                    }
                }
                #[allow(clippy::cast_possible_wrap, clippy::cast_possible_truncation)]
                let ki = k as i32;
                let mut b = blocked;
                while b != 0 {
                    #[allow(clippy::cast_possible_wrap)]
                    let d = b.trailing_zeros() as i32;
                    b &= b - 1;
                    let (f, r) = (f0 + ki * (d % 3 - 1), r0 + ki * (d / 3 - 1));
                    if (0..8).contains(&f) && (0..8).contains(&r) {
                        reach &= !(1u64 << (r * 8 + f));
                    }
                }
                out[level] = reach;
                let mut hit = reach & occ.word(level);
                while hit != 0 {
                    #[allow(clippy::cast_possible_wrap)]
                    let x = hit.trailing_zeros() as i32;
                    hit &= hit - 1;
                    // On the ring `k` levels away each plane offset is 0 or ±k: its sign is the
                    // ray's direction (no division).
                    let (df, dr) = ((x % 8 - f0).signum(), (x / 8 - r0).signum());
                    blocked |= 1 << ((dr + 1) * 3 + df + 1);
                }
            }
        }
        Bitboard(out)
    }
}

impl<const L: usize> Default for Rays<L> {
    fn default() -> Self {
        Self::new()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Slow slide by walking each direction.
    fn walk<const L: usize>(c: Cell, gs: GroupSet, occ: Bitboard<L>) -> Bitboard<L> {
        let mut r = Bitboard::EMPTY;
        for d in gs.dirs() {
            let mut x = c;
            while let Some(n) = x.offset(d, L) {
                r.insert(n);
                if occ.has(n) {
                    break;
                }
                x = n;
            }
        }
        r
    }

    #[test]
    fn slides_equal_walks() {
        slides_equal_walks_on::<1>();
        slides_equal_walks_on::<2>();
        slides_equal_walks_on::<3>();
        slides_equal_walks_on::<4>();
    }

    fn slides_equal_walks_on<const L: usize>() {
        let rays = Rays::<L>::new();
        let mut x = 0x0123_4567_89AB_CDEFu64;
        for round in 0..200 {
            let mut occ = Bitboard::<L>::EMPTY;
            for w in &mut occ.0 {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                // Dense (about a quarter of the cells) and sparse (about a sixteenth) boards.
                *w = x & x.rotate_left(17);
                if round % 2 == 1 {
                    *w &= x.rotate_left(29) & x.rotate_left(41);
                }
            }
            for i in (0..64 * L).step_by(5) {
                let c = Cell::from_index(i);
                for gs in (0..32).map(GroupSet) {
                    assert_eq!(rays.slides(c, gs, occ), walk(c, gs, occ), "cell {c} groups {gs:?}");
                }
            }
        }
    }

    #[test]
    fn between_cells() {
        let rays = Rays::<3>::new();
        let a = Cell::parse("1a1", 3).unwrap();
        let b = Cell::parse("3c3", 3).unwrap();
        let mid = Cell::parse("2b2", 3).unwrap();
        assert_eq!(rays.between(a, b), Bitboard::from_cell(mid));
        assert!(rays.aligned(a, b));
        assert!(!rays.aligned(a, Cell::parse("2c2", 3).unwrap()));
        assert!(rays.between(a, Cell::parse("1b3", 3).unwrap()).is_empty());
        // The queen in the middle of the middle level sees every direction.
        assert_eq!(rays.empty_slides(Cell::parse("2d4", 3).unwrap(), GroupSet::ALL).count(), 27 + 18);
    }
}
