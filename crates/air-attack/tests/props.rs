//! Properties over random play from the start, and the fast generator against the slow
//! reference generator (`crates/reference`, written from the rules alone) on many positions.

use proptest::prelude::*;
use stackchess_air_attack::AirAttack;
use stackchess_core::Rules as _;
use stackchess_core::{Color, Move, Position, SplitMix64};
use stackchess_reference::Reference;
use std::sync::OnceLock;

/// The reference generator of Air Attack.
fn reference() -> &'static Reference {
    static R: OnceLock<Reference> = OnceLock::new();
    R.get_or_init(|| Reference::builtin("air-attack").expect("the reference reads Air Attack"))
}

/// Level-prefixed coordinate text, as the reference writes moves.
fn text(m: Move) -> String {
    let mut s = format!("{}{}", m.from(), m.to());
    if let Some(r) = m.promotion() {
        s.push(r.lower());
    }
    s
}

/// The fast generator's legal moves of `p`, as the reference writes them, sorted.
fn fast_moves(p: &AirAttack) -> Vec<String> {
    let mut v: Vec<String> = p.moves().iter().map(|&m| text(m)).collect();
    v.sort();
    v
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

    /// LFEN write→read round trip, incremental hash == hash from scratch, copy-make leaves the
    /// original unchanged, and counting agrees with generating.
    #[test]
    fn random_play_keeps_invariants(seed in any::<u64>(), plies in 1usize..120) {
        let mut rng = SplitMix64::for_item(seed, 0);
        let mut p = stackchess_air_attack::startpos();
        for _ in 0..plies {
            prop_assert_eq!(stackchess_air_attack::rules().from_lfen(&p.to_lfen()), Ok(p));
            prop_assert_eq!(p.hash(), p.hash_from_scratch());
            let moves = p.moves();
            prop_assert_eq!(p.count_legal_moves(), moves.len());
            if moves.is_empty() {
                break;
            }
            let m = moves[rng.below(moves.len())];
            let before = p;
            let lfen = p.to_lfen();
            let mut next = p;
            next.play_unchecked(m);
            prop_assert_eq!(p, before);
            prop_assert_eq!(p.to_lfen(), lfen);
            if !p.is_check() {
                let mut null = p;
                null.play_null();
                prop_assert_eq!(null.hash(), null.hash_from_scratch());
            }
            p = next;
        }
    }
}

/// Plays random games from `start` and compares both generators at every ply.
fn compare_from(start: &AirAttack, games: u64, plies: usize, seed: u64) -> usize {
    let mut checked = 0;
    for g in 0..games {
        let mut rng = SplitMix64::for_item(seed, g);
        let mut p = *start;
        for _ in 0..plies {
            let lfen = p.to_lfen();
            let slow = reference().legal_moves(&lfen).expect("the reference reads our LFEN");
            assert_eq!(fast_moves(&p), slow, "move sets differ in {lfen}");
            let check = reference().in_check(&lfen).expect("the reference reads our LFEN");
            assert_eq!(p.is_check(), check, "check in {lfen}");
            checked += 1;
            let moves = p.moves();
            if moves.is_empty() {
                break;
            }
            // Prefer captures a little, so games reach sparse, tactical positions.
            let caps: Vec<_> = moves.iter().copied().filter(|&m| p.captured(m).is_some()).collect();
            let m = if !caps.is_empty() && rng.below(3) == 0 {
                caps[rng.below(caps.len())]
            } else {
                moves[rng.below(moves.len())]
            };
            p.play_unchecked(m);
        }
    }
    checked
}

/// Positions with pieces on both levels, castling rights, en passant and pawns near promotion.
const STARTS: &[&str] = &[
    stackchess_air_attack::START,
    "r3k2r/pp1n1ppp/8/2pPp3/8/8/PP3PPP/R3K2R|8/2q5/4b3/8/3N4/5B2/8/8 w KQkq 1c6 0 1",
    "4k3/1P4p1/8/8/8/8/6p1/R3K3|1r6/8/8/3q4/8/4Q3/1P6/8 w Q - 0 1",
    "r3k3/8/8/8/8/8/8/4K2R|8/4n3/8/5b2/8/8/2N5/8 b Kq - 0 1",
];

#[test]
fn fast_generator_equals_the_slow_one() {
    let mut n = 0;
    for (i, s) in STARTS.iter().enumerate() {
        let p = stackchess_air_attack::rules().from_lfen(s).expect("valid start");
        n += compare_from(&p, 6, 70, i as u64);
    }
    assert!(n > 1000, "only {n} positions compared");
}

#[test]
#[ignore = "slow: many more random games"]
fn fast_generator_equals_the_slow_one_deep() {
    for (i, s) in STARTS.iter().enumerate() {
        let p = stackchess_air_attack::rules().from_lfen(s).expect("valid start");
        compare_from(&p, 200, 150, 1000 + i as u64);
    }
}

#[test]
fn black_to_move_start_is_the_mirror() {
    // Mirror the start by playing a transfer and its mirror: the counts must match.
    let mut p = stackchess_air_attack::startpos();
    p.play_unchecked(p.moves().iter().copied().find(|m| m.to().to_string() == "2a3").expect("N2a3"));
    let black = p.count_legal_moves();
    assert_eq!(p.turn(), Color::Black);
    assert_eq!(black, 99, "Black's start moves: the knight on 2a3 blocks nothing of Black's");
}

/// Perft by the reference generator.
fn slow_perft(p: &AirAttack, depth: u32) -> u64 {
    reference().perft(&p.to_lfen(), depth).expect("the reference reads our LFEN")
}

#[test]
fn perft_2_equals_the_slow_count() {
    for s in STARTS {
        let p = stackchess_air_attack::rules().from_lfen(s).expect("valid start");
        assert_eq!(p.perft(2), slow_perft(&p, 2), "{s}");
    }
}

#[test]
#[ignore = "slow: the slow generator at depth 3"]
fn perft_3_equals_the_slow_count() {
    for s in STARTS {
        let p = stackchess_air_attack::rules().from_lfen(s).expect("valid start");
        assert_eq!(p.perft(3), slow_perft(&p, 3), "{s}");
    }
}

/// The positions of `data/perft/air-attack.positions`, each after its `# comment` line.
fn data_positions() -> Vec<(String, AirAttack)> {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../data/perft/air-attack.positions");
    let text = std::fs::read_to_string(path).expect("the positions file");
    let mut out = Vec::new();
    let mut comment = None;
    for line in text.lines().map(str::trim).filter(|l| !l.is_empty()) {
        if let Some(c) = line.strip_prefix('#') {
            comment = Some(c.trim().to_owned());
        } else {
            let p = stackchess_air_attack::rules().from_lfen(line).unwrap_or_else(|e| panic!("{line}: {e}"));
            assert_eq!(p.to_lfen(), line, "round trip");
            out.push((comment.take().expect("a comment line before each position"), p));
        }
    }
    out
}

#[test]
fn data_positions_agree_with_the_slow_generator() {
    let positions = data_positions();
    assert!(positions.len() >= 11);
    for (i, (what, p)) in positions.iter().enumerate() {
        assert_eq!(p.perft(2), slow_perft(p, 2), "{what}");
        compare_from(p, 2, 40, 500 + i as u64);
    }
}
