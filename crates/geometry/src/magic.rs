//! In-plane slider attacks on one 8×8 level, by fancy magic bitboards.
//!
//! The magic numbers are found by a seeded search in the build script (`build.rs`, sharing
//! `magic_search.rs`), which also fills the tables: nothing is typed in, the numbers are the same
//! on every build, and the lookups read statics.

/// One square's entry: the relevant-occupancy mask, the magic number, the shift and the offset of
/// its attack sets in the table.
struct Entry {
    mask: u64,
    magic: u64,
    shift: u32,
    offset: usize,
}

#[cfg(test)]
use crate::magic_search::{BISHOP, ROOK};

include!(concat!(env!("OUT_DIR"), "/magics.rs"));

/// The attacks from plane square `sq` (0..64), given the plane's occupancy, in one slider's
/// tables.
#[inline]
fn lookup(entries: &[Entry; 64], table: &[u64], sq: usize, occ: u64) -> u64 {
    let e = &entries[sq & 63];
    #[allow(clippy::cast_possible_truncation)]
    let i = ((occ & e.mask).wrapping_mul(e.magic) >> e.shift) as usize;
    table[e.offset + i]
}

/// Cells a rook on plane square `sq` (0..64) attacks within its level, given the level's occupancy.
#[inline]
#[must_use]
pub fn rook_plane(sq: usize, occ: u64) -> u64 {
    lookup(&ROOK_ENTRIES, &ROOK_TABLE, sq, occ)
}

/// Cells a bishop on plane square `sq` (0..64) attacks within its level, given the level's occupancy.
#[inline]
#[must_use]
pub fn bishop_plane(sq: usize, occ: u64) -> u64 {
    lookup(&BISHOP_ENTRIES, &BISHOP_TABLE, sq, occ)
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
