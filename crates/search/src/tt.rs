//! The transposition table: two-entry buckets, one kept by depth, one always replaced.

use stackchess_core::Move;

/// What a stored score bounds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Bound {
    /// The true score is at least this.
    Lower = 1,
    /// The true score is at most this.
    Upper = 2,
    /// The true score.
    Exact = 3,
}

/// A table hit.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Hit {
    pub mv: Option<Move>,
    pub score: i32,
    pub depth: i32,
    pub bound: Bound,
}

#[derive(Clone, Copy, Default)]
struct Entry {
    key: u64,
    /// move: 24 bits | score: 16 | depth: 8 | bound: 2 | generation: 6.
    data: u64,
}

impl Entry {
    fn depth(self) -> i32 {
        i32::from((self.data >> 40) as u8)
    }
    fn generation(self) -> u8 {
        (self.data >> 50) as u8 & 63
    }
    fn bound(self) -> u64 {
        self.data >> 48 & 3
    }
}

/// A fixed-size table; empty (size 0) is allowed and stores nothing.
pub(crate) struct Tt {
    buckets: Vec<[Entry; 2]>,
    generation: u8,
}

impl Tt {
    pub(crate) fn new(mb: usize) -> Tt {
        let n = mb.saturating_mul(1024 * 1024) / std::mem::size_of::<[Entry; 2]>();
        Tt { buckets: vec![[Entry::default(); 2]; n], generation: 0 }
    }

    pub(crate) fn clear(&mut self) {
        self.buckets.iter_mut().for_each(|b| *b = [Entry::default(); 2]);
        self.generation = 0;
    }

    /// Marks a new search: entries of older searches are replaced first.
    pub(crate) fn new_search(&mut self) {
        self.generation = (self.generation + 1) & 63;
    }

    fn index(&self, key: u64) -> usize {
        #[allow(clippy::cast_possible_truncation)]
        {
            ((u128::from(key) * self.buckets.len() as u128) >> 64) as usize
        }
    }

    pub(crate) fn probe(&self, key: u64) -> Option<Hit> {
        if self.buckets.is_empty() {
            return None;
        }
        let b = &self.buckets[self.index(key)];
        let e = b.iter().find(|e| e.key == key && e.data != 0)?;
        let bound = match e.bound() {
            1 => Bound::Lower,
            2 => Bound::Upper,
            _ => Bound::Exact,
        };
        #[allow(clippy::cast_possible_truncation)]
        let score = i32::from((e.data >> 24) as u16 as i16);
        #[allow(clippy::cast_possible_truncation)]
        let mv = Move::from_u32((e.data & 0xff_ffff) as u32).filter(|_| e.data & 0xff_ffff != 0);
        Some(Hit { mv, score, depth: e.depth(), bound })
    }

    pub(crate) fn store(&mut self, key: u64, mv: Option<Move>, score: i32, depth: i32, bound: Bound) {
        if self.buckets.is_empty() {
            return;
        }
        let g = self.generation;
        let i = self.index(key);
        let b = &mut self.buckets[i];
        #[allow(clippy::cast_sign_loss, clippy::cast_possible_truncation)]
        let d = depth.clamp(0, 255) as u64;
        let m = mv.map_or(0, |m| u64::from(m.to_u32()));
        #[allow(clippy::cast_sign_loss, clippy::cast_possible_truncation)]
        let s = u64::from(score.clamp(-32_767, 32_767) as i16 as u16);
        let slot = if let Some(j) = b.iter().position(|e| e.key == key) {
            // Same position: keep a deeper exact result from this search, and keep its move.
            let old = b[j];
            if old.generation() == g && old.depth() > depth + 2 && bound != Bound::Exact {
                return;
            }
            let m = if m == 0 { old.data & 0xff_ffff } else { m };
            b[j] = Entry { key, data: m | s << 24 | d << 40 | (bound as u64) << 48 | u64::from(g) << 50 };
            return;
        } else if b[0].generation() != g || depth >= b[0].depth() {
            // The depth-preferred slot takes deeper results and anything from an older search;
            // its old content moves to the always-replace slot.
            b[1] = b[0];
            0
        } else {
            1
        };
        b[slot] = Entry { key, data: m | s << 24 | d << 40 | (bound as u64) << 48 | u64::from(g) << 50 };
    }
}
