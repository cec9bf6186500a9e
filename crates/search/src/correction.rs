//! Correction history: per side to move and a key of the pawns, a running average of what
//! searches found minus the static score, added to the static score (`search.corr_history`).

use crate::score::MATE_BOUND;
use crate::tt::Bound;
use stackchess_core::{CellSet, Color, Position, Role};

/// Slots a side (a power of two).
pub(crate) const SIZE: usize = 1 << 14;
/// Entries count 1/`GRAIN` of a centipawn.
const GRAIN: i32 = 256;

/// A 64-bit mix of `x` (splitmix64's finaliser).
fn mix(mut x: u64) -> u64 {
    x = x.wrapping_add(0x9e37_79b9_7f4a_7c15);
    x = (x ^ (x >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    x = (x ^ (x >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    x ^ (x >> 31)
}

/// The slot of `pos` in a table of `2 · SIZE` entries: its side to move and a key of its pawns.
pub(crate) fn slot<P: Position>(pos: &P) -> usize {
    let mut key = 0u64;
    for c in [Color::White, Color::Black] {
        pos.pieces(c, Role::Pawn).for_each(|cell| key ^= mix((c.index() * 1024 + cell.index()) as u64));
    }
    pos.turn().index() * SIZE + (key as usize & (SIZE - 1))
}

/// `score` corrected by the entry `entry`, `weight` hundredths of it, kept off the mate scores.
pub(crate) fn apply(entry: i32, weight: i32, score: i32) -> i32 {
    (score + entry * weight / (100 * GRAIN)).clamp(-MATE_BOUND + 1, MATE_BOUND - 1)
}

/// Moves `entry` toward what a search of `depth` found (`best`, a `bound`) minus the static score
/// (`raw`), where the result says something about the static score: not a mate, and not a bound
/// on the wrong side of the corrected score (`corrected`). Entries stay within `max` centipawns.
pub(crate) fn learn(entry: &mut i32, raw: i32, corrected: i32, best: i32, bound: Bound, depth: i32, max: i32) {
    let informative = match bound {
        Bound::Exact => true,
        Bound::Lower => best > corrected,
        Bound::Upper => best < corrected,
    };
    if !informative || best.abs() >= MATE_BOUND {
        return;
    }
    let max = max * GRAIN;
    let diff = ((best - raw) * GRAIN).clamp(-max, max);
    let w = ((depth + 1) * (depth + 1)).min(128);
    *entry = ((*entry * (1024 - w) + diff * w) / 1024).clamp(-max, max);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_entry_follows_what_searches_find_within_its_bounds() {
        let mut e = 0;
        // A depth-3 exact result 40 cp above the static score moves the entry 16/1024 of the way.
        learn(&mut e, 100, 100, 140, Bound::Exact, 3, 64);
        assert_eq!(e, 40 * GRAIN * 16 / 1024);
        assert_eq!(apply(e, 100, 100), 100 + e / GRAIN);
        // Repeated, it settles at the difference; a larger one stops at the cap.
        for _ in 0..2000 {
            learn(&mut e, 100, 100, 140, Bound::Exact, 12, 64);
        }
        assert!((apply(e, 100, 0) - 40).abs() <= 1, "{e}");
        for _ in 0..2000 {
            learn(&mut e, 0, 0, 500, Bound::Exact, 12, 64);
        }
        assert!((63 * GRAIN..=64 * GRAIN).contains(&e), "{e}");
        // Weight 0 applies nothing; half the weight half the correction.
        assert_eq!(apply(e, 0, 7), 7);
        assert_eq!(apply(e, 50, 0), e / (2 * GRAIN));
        // A lower bound below the corrected score, an upper bound above it, and mates teach nothing.
        let before = e;
        learn(&mut e, 0, 80, 50, Bound::Lower, 5, 64);
        learn(&mut e, 0, 80, 90, Bound::Upper, 5, 64);
        learn(&mut e, 0, 80, MATE_BOUND + 3, Bound::Exact, 5, 64);
        assert_eq!(e, before);
    }
}
