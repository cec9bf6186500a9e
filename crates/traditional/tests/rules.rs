//! Traditional and fide as docs/rules.md states them: the start positions' moves and the golden
//! perft counts (fide's are the published ones).

use stackchess_core::{check_perft_file, Position};
use stackchess_traditional::{Fide, Traditional};

#[test]
fn golden_perft_counts_up_to_two_million_nodes() {
    let text = include_str!("../../../data/perft/traditional.perft");
    let checked = check_perft_file::<Traditional>(stackchess_traditional::rules(), text, 2_000_000);
    assert!(checked.unwrap_or_else(|e| panic!("traditional.perft: {e}")) > 20);
    let text = include_str!("../../../data/perft/fide.perft");
    let checked = check_perft_file::<Fide>(stackchess_traditional::fide_rules(), text, 2_000_000);
    assert!(checked.unwrap_or_else(|e| panic!("fide.perft: {e}")) > 10);
}

#[test]
fn start_position_moves() {
    // docs/rules.md §5: pawns 48, knights 14, rooks 12, bishops 8, queen 12, king 6.
    assert_eq!(stackchess_traditional::startpos().count_legal_moves(), 100);
    assert_eq!(stackchess_traditional::fide_startpos().count_legal_moves(), 20);
}
