//! Properties every variant must hold, on positions reached by seeded random play:
//! LFEN write→read round trip, incremental hash = hash from scratch (via a re-read
//! position), copy-make leaves the original unchanged, notation round trips.

use proptest::prelude::*;
use stackchess_core::Rules as _;
use stackchess_core::{coord, parse_coord, parse_move, san, Move, Position, SplitMix64};
use stackchess_variants::{Variant, WithPosition};

struct Walk {
    seed: u64,
    plies: usize,
}

impl WithPosition for Walk {
    type Output = ();
    fn call<P: Position>(self, rules: P::Rules) {
        let mut rng = SplitMix64(self.seed);
        let mut pos = rules.startpos();
        for _ in 0..self.plies {
            let lfen = pos.to_lfen();
            let back = rules.from_lfen(&lfen).expect("own LFEN reads back");
            assert_eq!(back.to_lfen(), lfen, "LFEN round trip");
            // The re-read position's hash is computed from scratch.
            assert_eq!(back.hash(), pos.hash(), "incremental hash differs from scratch in {lfen}");
            let moves = pos.moves();
            if moves.is_empty() {
                break;
            }
            let m: Move = moves[rng.below(moves.len())];
            assert_eq!(parse_coord(&pos, &coord::<P>(m)), Ok(m), "coordinate round trip in {lfen}");
            assert_eq!(parse_move(&pos, &san(&pos, m)), Ok(m), "SAN round trip of {} in {lfen}", san(&pos, m));
            let before = pos.clone();
            let mut next = pos.clone();
            next.play_unchecked(m);
            assert_eq!(pos.to_lfen(), before.to_lfen(), "copy-make changed the original");
            assert_eq!(pos.hash(), before.hash());
            if !next.is_check() {
                let mut null = next.clone();
                null.play_null();
                let reread = rules.from_lfen(&null.to_lfen()).expect("null-move LFEN reads back");
                assert_eq!(null.hash(), reread.hash(), "hash after a null move");
            }
            pos = next;
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]
    #[test]
    fn random_play_keeps_every_invariant(seed in any::<u64>(), v in 0usize..4) {
        Variant::ALL[v].with(Walk { seed, plies: 120 });
    }
}
