//! In-plane slider attacks on one 8×8 level, by fancy magic bitboards.
//!
//! The magic numbers are found by a seeded search in the build script (`build.rs`, sharing
//! `magic_search.rs`), so nothing is typed in, the numbers are the same on every build, and
//! start-up only fills the tables.

use std::sync::OnceLock;

#[derive(Debug)]
struct Entry {
    mask: u64,
    magic: u64,
    shift: u32,
    offset: usize,
}

/// Fancy magic tables for one slider kind on an 8×8 plane.
#[derive(Debug)]
pub struct Magics {
    entries: [Entry; 64],
    table: Vec<u64>,
}

use crate::magic_search::{mask, subsets, BISHOP, ROOK};

include!(concat!(env!("OUT_DIR"), "/magics.rs"));

fn build(dirs: &[(i32, i32)], magics: &[u64; 64]) -> Magics {
    let mut table = Vec::new();
    let entries = std::array::from_fn(|sq| {
        let m = mask(sq, dirs);
        let shift = 64 - m.count_ones();
        let mut slots = vec![0u64; 1 << m.count_ones()];
        for (occ, att) in subsets(sq, m, dirs) {
            #[allow(clippy::cast_possible_truncation)]
            let i = (occ.wrapping_mul(magics[sq]) >> shift) as usize;
            slots[i] = att;
        }
        let offset = table.len();
        table.extend_from_slice(&slots);
        Entry { mask: m, magic: magics[sq], shift, offset }
    });
    Magics { entries, table }
}

/// The rook tables, built on first use.
pub fn rook_magics() -> &'static Magics {
    static M: OnceLock<Magics> = OnceLock::new();
    M.get_or_init(|| build(&ROOK, &ROOK_MAGICS))
}

/// The bishop tables, built on first use.
pub fn bishop_magics() -> &'static Magics {
    static M: OnceLock<Magics> = OnceLock::new();
    M.get_or_init(|| build(&BISHOP, &BISHOP_MAGICS))
}

impl Magics {
    /// The attacks from plane square `sq` (0..64) given the plane's occupancy.
    #[inline]
    #[must_use]
    pub fn attacks(&self, sq: usize, occ: u64) -> u64 {
        let e = &self.entries[sq & 63];
        #[allow(clippy::cast_possible_truncation)]
        let i = ((occ & e.mask).wrapping_mul(e.magic) >> e.shift) as usize;
        self.table[e.offset + i]
    }
}

#[inline]
fn lookup(m: &Magics, sq: usize, occ: u64) -> u64 {
    m.attacks(sq, occ)
}

/// Cells a rook on plane square `sq` (0..64) attacks within its level, given the level's occupancy.
#[inline]
#[must_use]
pub fn rook_plane(sq: usize, occ: u64) -> u64 {
    lookup(rook_magics(), sq, occ)
}

/// Cells a bishop on plane square `sq` (0..64) attacks within its level, given the level's occupancy.
#[inline]
#[must_use]
pub fn bishop_plane(sq: usize, occ: u64) -> u64 {
    lookup(bishop_magics(), sq, occ)
}

#[cfg(test)]
mod tests {
    use super::*;

    use crate::magic_search::{is_magic, walk};

    #[test]
    fn build_time_numbers_are_magic() {
        for sq in 0..64 {
            assert!(is_magic(sq, &ROOK, ROOK_MAGICS[sq]), "rook {sq}");
            assert!(is_magic(sq, &BISHOP, BISHOP_MAGICS[sq]), "bishop {sq}");
        }
    }

    #[test]
    fn magic_lookup_equals_ray_walk() {
        let mut x = 0x1234_5678_9ABC_DEF1u64;
        for _ in 0..2000 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let occ = x & (x >> 3);
            for sq in 0..64 {
                assert_eq!(rook_plane(sq, occ), walk(sq, occ, &ROOK));
                assert_eq!(bishop_plane(sq, occ), walk(sq, occ, &BISHOP));
            }
        }
        assert_eq!(rook_plane(0, 0).count_ones(), 14);
        assert_eq!(bishop_plane(27, 0).count_ones(), 13);
    }
}
