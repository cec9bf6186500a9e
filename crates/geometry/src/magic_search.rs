// The magic-number search, shared by the build script (which runs it once, at build time)
// and the tests (which check the numbers it produced).

/// Rook directions in a plane.
pub const ROOK: [(i32, i32); 4] = [(1, 0), (-1, 0), (0, 1), (0, -1)];
/// Bishop directions in a plane.
pub const BISHOP: [(i32, i32); 4] = [(1, 1), (-1, 1), (1, -1), (-1, -1)];

/// Slow ray walk: the attacks from `sq` along `dirs` given `occ`.
pub fn walk(sq: usize, occ: u64, dirs: &[(i32, i32)]) -> u64 {
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
pub fn mask(sq: usize, dirs: &[(i32, i32)]) -> u64 {
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

/// Every subset of `m` with its attack set.
pub fn subsets(sq: usize, m: u64, dirs: &[(i32, i32)]) -> Vec<(u64, u64)> {
    let mut out = Vec::with_capacity(1 << m.count_ones());
    let mut s = 0u64;
    loop {
        out.push((s, walk(sq, s, dirs)));
        s = s.wrapping_sub(m) & m;
        if s == 0 {
            return out;
        }
    }
}

/// Whether `magic` maps every subset of `sq`'s mask to a slot without a destructive collision.
pub fn is_magic(sq: usize, dirs: &[(i32, i32)], magic: u64) -> bool {
    let m = mask(sq, dirs);
    let shift = 64 - m.count_ones();
    let mut slots = vec![None; 1 << m.count_ones()];
    subsets(sq, m, dirs).into_iter().all(|(occ, att)| {
        #[allow(clippy::cast_possible_truncation)]
        let i = (occ.wrapping_mul(magic) >> shift) as usize;
        *slots[i].get_or_insert(att) == att
    })
}

/// The attack table of square `sq` for `magic`: its mask, its shift and, by magic index, the
/// attacks of every occupancy of the mask.
pub fn fill(sq: usize, dirs: &[(i32, i32)], magic: u64) -> (u64, u32, Vec<u64>) {
    let m = mask(sq, dirs);
    let shift = 64 - m.count_ones();
    let mut slots = vec![0u64; 1 << m.count_ones()];
    for (occ, att) in subsets(sq, m, dirs) {
        #[allow(clippy::cast_possible_truncation)]
        let i = (occ.wrapping_mul(magic) >> shift) as usize;
        slots[i] = att;
    }
    (m, shift, slots)
}

/// A magic number for every square, by a seeded search for sparse random candidates.
pub fn find_magics(dirs: &[(i32, i32)], seed: u64) -> Vec<u64> {
    let mut rng = seed;
    let mut next = move || {
        // xorshift64*
        rng ^= rng >> 12;
        rng ^= rng << 25;
        rng ^= rng >> 27;
        rng.wrapping_mul(0x2545_F491_4F6C_DD1D)
    };
    (0..64)
        .map(|sq| {
            let m = mask(sq, dirs);
            let bits = m.count_ones();
            let shift = 64 - bits;
            let subsets = subsets(sq, m, dirs);
            let mut slots = vec![0u64; 1 << bits];
            let mut used = vec![0u32; 1 << bits];
            let mut round = 0u32;
            loop {
                let magic = next() & next() & next();
                if (m.wrapping_mul(magic) >> 56).count_ones() < 6 {
                    continue;
                }
                round += 1;
                let ok = subsets.iter().all(|&(occ, att)| {
                    #[allow(clippy::cast_possible_truncation)]
                    let i = (occ.wrapping_mul(magic) >> shift) as usize;
                    if used[i] == round {
                        slots[i] == att
                    } else {
                        used[i] = round;
                        slots[i] = att;
                        true
                    }
                });
                if ok {
                    return magic;
                }
            }
        })
        .collect()
}
