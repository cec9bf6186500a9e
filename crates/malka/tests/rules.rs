//! Malka as docs/rules.md states it: the start position's moves and the golden perft counts.

use stackchess_core::{check_perft_file, coord, Position};

#[test]
fn golden_perft_counts_up_to_two_million_nodes() {
    let text = include_str!("../../../data/perft/malka.perft");
    let checked = check_perft_file::<stackchess_malka::Malka>(stackchess_malka::rules(), text, 2_000_000);
    assert!(checked.unwrap_or_else(|e| panic!("malka.perft: {e}")) > 20);
}

#[test]
fn start_position_moves() {
    let p = stackchess_malka::startpos();
    let moves: Vec<String> = p.moves().iter().map(|&m| coord::<stackchess_malka::Malka>(m)).collect();
    // docs/rules.md §5: 70 = Traditional's 100 without the 24 double steps and 6 queen slides.
    assert_eq!(moves.len(), 70);
    // Each pawn steps forward, up, or both (8 × 3), never two cells.
    assert_eq!(moves.iter().filter(|m| m.as_bytes()[2] == b'2').count(), 24);
    // The one-step queen: the six cells above it and beside them on level 2.
    let queen: Vec<&String> = moves.iter().filter(|m| m.starts_with("1d1")).collect();
    assert_eq!(queen, ["1d12c1", "1d12d1", "1d12e1", "1d12c2", "1d12d2", "1d12e2"]);
}
