//! A small seeded generator for hash keys and reproducible randomness.

/// `SplitMix64`: tiny, fast, and good enough for Zobrist keys and seeding.
#[derive(Clone, Debug)]
pub struct SplitMix64(pub u64);

impl SplitMix64 {
    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    /// A value in `0..n` (`n > 0`), by multiply-shift.
    pub fn below(&mut self, n: usize) -> usize {
        #[allow(clippy::cast_possible_truncation)]
        {
            ((u128::from(self.next_u64()) * n as u128) >> 64) as usize
        }
    }
    /// The generator for item `index` of a run seeded with `seed`: independent of any other item.
    #[must_use]
    pub fn for_item(seed: u64, index: u64) -> SplitMix64 {
        let mut g = SplitMix64(seed ^ index.wrapping_mul(0xD6E8_FEB8_6659_FD93));
        g.next_u64();
        g
    }
}
