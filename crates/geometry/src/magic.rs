//! In-plane slider attacks on one 8×8 level, by fancy magic bitboards.
//!
//! The magic numbers are found on first use by a seeded search, so nothing is
//! typed in and the tables are the same on every run.

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

const ROOK: [(i32, i32); 4] = [(1, 0), (-1, 0), (0, 1), (0, -1)];
const BISHOP: [(i32, i32); 4] = [(1, 1), (-1, 1), (1, -1), (-1, -1)];

/// Slow ray walk: the attacks from `sq` along `dirs` given `occ`.
fn walk(sq: usize, occ: u64, dirs: &[(i32, i32)]) -> u64 {
    let mut att = 0;
    #[allow(clippy::cast_possible_wrap, clippy::cast_possible_truncation)]
    let (f0, r0) = ((sq % 8) as i32, (sq / 8) as i32);
    for &(df, dr) in dirs {
        let (mut f, mut r) = (f0 + df, r0 + dr);
        while (0..8).contains(&f) && (0..8).contains(&r) {
            #[allow(clippy::cast_sign_loss)]
            let bit = 1u64 << (r * 8 + f) as u32;
            att |= bit;
            if occ & bit != 0 {
                break;
            }
            f += df;
            r += dr;
        }
    }
    att
}

/// The relevant-occupancy mask: the rays without their last cell.
fn mask(sq: usize, dirs: &[(i32, i32)]) -> u64 {
    let mut m = 0;
    #[allow(clippy::cast_possible_wrap, clippy::cast_possible_truncation)]
    let (f0, r0) = ((sq % 8) as i32, (sq / 8) as i32);
    for &(df, dr) in dirs {
        let (mut f, mut r) = (f0 + df, r0 + dr);
        while (0..8).contains(&(f + df)) && (0..8).contains(&(r + dr)) {
            #[allow(clippy::cast_sign_loss)]
            {
                m |= 1u64 << (r * 8 + f) as u32;
            }
            f += df;
            r += dr;
        }
    }
    m
}

fn build(dirs: &[(i32, i32)], seed: u64) -> Magics {
    let mut rng = seed;
    let mut next = move || {
        // xorshift64*
        rng ^= rng >> 12;
        rng ^= rng << 25;
        rng ^= rng >> 27;
        rng.wrapping_mul(0x2545_F491_4F6C_DD1D)
    };
    let mut table = Vec::new();
    let entries = std::array::from_fn(|sq| {
        let m = mask(sq, dirs);
        let bits = m.count_ones();
        let shift = 64 - bits;
        // Enumerate every subset of the mask (Carry-Rippler).
        let mut subsets = Vec::with_capacity(1 << bits);
        let mut s = 0u64;
        loop {
            subsets.push((s, walk(sq, s, dirs)));
            s = s.wrapping_sub(m) & m;
            if s == 0 {
                break;
            }
        }
        let mut slots = vec![0u64; 1 << bits];
        let mut used = vec![0u32; 1 << bits];
        let mut round = 0u32;
        let magic = loop {
            let magic = next() & next() & next();
            if (m.wrapping_mul(magic) >> 56).count_ones() < 6 {
                continue;
            }
            round += 1;
            let ok = subsets.iter().all(|&(occ, att)| {
                #[allow(clippy::cast_possible_truncation)]
                let i = (occ.wrapping_mul(magic) >> shift) as usize;
                if used[i] != round {
                    used[i] = round;
                    slots[i] = att;
                    true
                } else {
                    slots[i] == att
                }
            });
            if ok {
                break magic;
            }
        };
        let offset = table.len();
        table.extend_from_slice(&slots);
        Entry { mask: m, magic, shift, offset }
    });
    Magics { entries, table }
}

/// The rook tables, built on first use.
pub fn rook_magics() -> &'static Magics {
    static M: OnceLock<Magics> = OnceLock::new();
    M.get_or_init(|| build(&ROOK, 0x9E37_79B9_7F4A_7C15))
}

/// The bishop tables, built on first use.
pub fn bishop_magics() -> &'static Magics {
    static M: OnceLock<Magics> = OnceLock::new();
    M.get_or_init(|| build(&BISHOP, 0xD1B5_4A32_D192_ED03))
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
