//! Ray tables for a board of `L` levels: slides, lines between cells, empty-board reach.

use crate::{bishop_magics, rook_magics, Bitboard, Cell, DirGroup, GroupSet, Magics};

/// A ray leaving the level: its cells in order (at most `MAX_LEVELS - 1`).
#[derive(Clone, Copy, Debug)]
struct CrossRay {
    cells: [u8; 3],
    len: u8,
}

/// Precomputed rays of every cell of an `L`-level board.
#[derive(Debug)]
pub struct Rays<const L: usize> {
    /// `between[a * N + b]`: the cells strictly between `a` and `b` when they share a line.
    between: Vec<Bitboard<L>>,
    /// `empty_slide[g][cell]`: the slide of group `g` on an empty board.
    empty_slide: [Vec<Bitboard<L>>; 5],
    /// Cross-level rays, flat; `cross_index[cell * 3 + g - 2]` gives the range for group `g`.
    cross: Vec<CrossRay>,
    cross_index: Vec<(u16, u16)>,
    rook: &'static Magics,
    bishop: &'static Magics,
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
        let mut cross = Vec::new();
        let mut cross_index = vec![(0, 0); n * 3];
        for a in (0..n).map(Cell::from_index) {
            for g in DirGroup::ALL {
                let start = cross.len();
                for &d in g.dirs() {
                    let mut seen = Bitboard::EMPTY;
                    let mut ray = CrossRay { cells: [0; 3], len: 0 };
                    let mut c = a;
                    while let Some(next) = c.offset(d, L) {
                        between[a.index() * n + next.index()] = seen;
                        seen.insert(next);
                        empty_slide[g as usize][a.index()].insert(next);
                        if !g.in_plane() {
                            #[allow(clippy::cast_possible_truncation)]
                            {
                                ray.cells[ray.len as usize] = next.index() as u8;
                            }
                            ray.len += 1;
                        }
                        c = next;
                    }
                    if ray.len > 0 {
                        cross.push(ray);
                    }
                }
                if !g.in_plane() {
                    #[allow(clippy::cast_possible_truncation)]
                    {
                        cross_index[a.index() * 3 + g as usize - 2] = (start as u16, cross.len() as u16);
                    }
                }
            }
        }
        Rays { between, empty_slide, cross, cross_index, rook: rook_magics(), bishop: bishop_magics() }
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
        self.rook.attacks(sq, occ)
    }

    /// The cells a bishop on plane square `sq` attacks within its level, given the level's occupancy.
    #[inline]
    #[must_use]
    pub fn bishop_plane(&self, sq: usize, occ: u64) -> u64 {
        self.bishop.attacks(sq, occ)
    }

    /// The cells a slider on `c` moving along `gs` reaches, stopping at (and including) blockers in `occ`.
    #[inline]
    #[must_use]
    pub fn slides(&self, c: Cell, gs: GroupSet, occ: Bitboard<L>) -> Bitboard<L> {
        let (l, sq) = (c.level(), c.plane());
        let mut w = 0;
        if gs.has(DirGroup::OrthoPlane) {
            w |= self.rook.attacks(sq, occ.word(l));
        }
        if gs.has(DirGroup::DiagPlane) {
            w |= self.bishop.attacks(sq, occ.word(l));
        }
        let mut r = Bitboard::on_level(l, w);
        if L > 1 && gs.0 & !(GroupSet::ROOK_PLANE.0 | GroupSet::BISHOP_PLANE.0) != 0 {
            r |= self.cross_slides(c, gs, occ);
        }
        r
    }

    /// The part of [`Rays::slides`] that leaves the level.
    #[must_use]
    pub fn cross_slides(&self, c: Cell, gs: GroupSet, occ: Bitboard<L>) -> Bitboard<L> {
        // Word by word in memory: the set is read back once, not per cell.
        let mut r = [0u64; L];
        for g in [DirGroup::Vertical, DirGroup::OrthoSlant, DirGroup::Triagonal] {
            if gs.has(g) {
                let (s, e) = self.cross_index[c.index() * 3 + g as usize - 2];
                for ray in &self.cross[s as usize..e as usize] {
                    for &i in &ray.cells[..ray.len as usize] {
                        let cell = Cell::from_index(i as usize);
                        r[cell.level()] |= 1 << cell.plane();
                        if occ.has(cell) {
                            break;
                        }
                    }
                }
            }
        }
        Bitboard(r)
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
        let rays = Rays::<3>::new();
        let mut x = 0x0123_4567_89AB_CDEFu64;
        for _ in 0..200 {
            let mut occ = Bitboard::<3>::EMPTY;
            for w in &mut occ.0 {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                *w = x & x.rotate_left(17);
            }
            for i in (0..192).step_by(7) {
                let c = Cell::from_index(i);
                for gs in [GroupSet::ROOK, GroupSet::BISHOP, GroupSet::ALL, GroupSet(4), GroupSet(8)] {
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
