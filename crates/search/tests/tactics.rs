//! The WAC suite (data/tactics/wac.epd) at a fixed node budget. Slow in a debug build: run with
//! `cargo test -p stackchess-search --release --test tactics -- --ignored`.
//! `stackchess bench --tactics data/tactics/wac.epd --nodes 100000` prints the same per position.

mod common;

use stackchess_core::Rules as _;
use stackchess_search::{parse_epd, Engine, Limits};
use stackchess_variants::Fide;
use std::sync::atomic::AtomicBool;

/// Solved cases of the suite at `nodes` per position.
fn solve(nodes: u64) -> (usize, usize) {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../data/tactics/wac.epd");
    let cases = parse_epd(&std::fs::read_to_string(path).expect("data/tactics/wac.epd")).expect("valid EPD");
    let mut engine = Engine::<Fide>::new(stackchess_variants::traditional::fide_rules(), common::full("fide"));
    let stop = AtomicBool::new(false);
    let solved = cases
        .iter()
        .filter(|c| {
            let pos = stackchess_variants::traditional::fide_rules().from_lfen(&c.lfen).expect("valid FEN");
            engine.new_game();
            let r = engine.search(&pos, &[], &Limits::nodes(nodes), &stop, &mut |_| {});
            r.best_move().is_some_and(|m| c.solved_by(&pos, m))
        })
        .count();
    (solved, cases.len())
}

#[test]
#[ignore = "slow: 300 searches of 100k nodes"]
fn wac_solve_rate_at_100k_nodes() {
    let (solved, total) = solve(100_000);
    eprintln!("WAC: {solved}/{total} at 100000 nodes");
    assert_eq!(total, 300);
    // 83.7% measured when written (see the crate README); below 80% means a regression.
    assert!(solved * 100 >= total * 80, "only {solved}/{total} solved");
}
