//! The transposition table: two-entry buckets, one kept by depth, one always replaced; shared by
//! the search threads without locks.

use stackchess_core::Move;
use std::sync::atomic::{AtomicU64, Ordering};

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

impl Bound {
    /// What a fail-soft search's `best` bounds, searched with the window (`alpha`, `beta`).
    pub(crate) fn of(best: i32, alpha: i32, beta: i32) -> Bound {
        if best >= beta {
            Bound::Lower
        } else if best > alpha {
            Bound::Exact
        } else {
            Bound::Upper
        }
    }
}

/// A table hit.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Hit {
    pub mv: Option<Move>,
    pub score: i32,
    pub depth: i32,
    pub bound: Bound,
    /// Stored by a search without unsound pruning (a mate search trusts only these for cutoffs).
    pub exact: bool,
}

/// A slot as two words: `data`, and `check = key ^ data`. Threads read and write the words without
/// locks; a slot torn by two writers (or read half-written) fails the key check and reads as a
/// miss, so a probe returns only what one writer stored for that key.
#[derive(Default)]
struct Slot {
    check: AtomicU64,
    data: AtomicU64,
}

#[derive(Clone, Copy, Default)]
struct Entry {
    key: u64,
    /// move: 24 bits | score: 16 | depth: 8 | bound: 2 | generation: 6 | exact: 1.
    data: u64,
}

/// The `exact` bit of an entry's data: stored by a search without unsound pruning.
const EXACT: u64 = 1 << 56;

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

impl Slot {
    fn load(&self) -> Entry {
        let data = self.data.load(Ordering::Relaxed);
        Entry { key: self.check.load(Ordering::Relaxed) ^ data, data }
    }
    fn save(&self, e: Entry) {
        self.check.store(e.key ^ e.data, Ordering::Relaxed);
        self.data.store(e.data, Ordering::Relaxed);
    }
}

/// A fixed-size table shared by the search threads; empty (size 0) is allowed and stores nothing.
pub(crate) struct Tt {
    buckets: Vec<[Slot; 2]>,
    generation: u8,
}

impl Tt {
    pub(crate) fn new(mb: usize) -> Tt {
        let n = mb.saturating_mul(1024 * 1024) / std::mem::size_of::<[Slot; 2]>();
        Tt { buckets: (0..n).map(|_| <[Slot; 2]>::default()).collect(), generation: 0 }
    }

    pub(crate) fn clear(&mut self) {
        for s in self.buckets.iter().flatten() {
            s.save(Entry::default());
        }
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
        let e = b.iter().map(Slot::load).find(|e| e.key == key && e.data != 0)?;
        let bound = match e.bound() {
            1 => Bound::Lower,
            2 => Bound::Upper,
            _ => Bound::Exact,
        };
        #[allow(clippy::cast_possible_truncation)]
        let score = i32::from((e.data >> 24) as u16 as i16);
        #[allow(clippy::cast_possible_truncation)]
        let mv = Move::from_u32((e.data & 0xff_ffff) as u32).filter(|_| e.data & 0xff_ffff != 0);
        Some(Hit { mv, score, depth: e.depth(), bound, exact: e.data & EXACT != 0 })
    }

    /// Stores a result; `exact` marks one of a search without unsound pruning (a mate search).
    pub(crate) fn store(&self, key: u64, mv: Option<Move>, score: i32, depth: i32, bound: Bound, exact: bool) {
        if self.buckets.is_empty() {
            return;
        }
        let g = self.generation;
        let b = &self.buckets[self.index(key)];
        let old = [b[0].load(), b[1].load()];
        #[allow(clippy::cast_sign_loss, clippy::cast_possible_truncation)]
        let d = depth.clamp(0, 255) as u64;
        let m = mv.map_or(0, |m| u64::from(m.to_u32()));
        #[allow(clippy::cast_sign_loss, clippy::cast_possible_truncation)]
        let s = u64::from(score.clamp(-32_767, 32_767) as i16 as u16);
        let x = if exact { EXACT } else { 0 };
        let entry = |m: u64| Entry { key, data: m | s << 24 | d << 40 | (bound as u64) << 48 | u64::from(g) << 50 | x };
        if let Some(j) = old.iter().position(|e| e.key == key) {
            // Same position: keep a deeper exact result from this search, and keep its move.
            let o = old[j];
            // (A quiescence result, of depth 0, never replaces a deeper one of this search.)
            let deeper = (o.depth() > depth + 2 && bound != Bound::Exact) || (depth == 0 && o.depth() > 0);
            if o.generation() == g && deeper {
                return;
            }
            b[j].save(entry(if m == 0 { o.data & 0xff_ffff } else { m }));
        } else if old[0].generation() != g || depth >= old[0].depth() {
            // The depth-preferred slot takes deeper results and anything from an older search;
            // its old content moves to the always-replace slot.
            b[1].save(old[0]);
            b[0].save(entry(m));
        } else {
            b[1].save(entry(m));
        }
    }
}
