//! Quick checks of the search on start positions.

use stackchess_core::Position;
use stackchess_search::{Engine, Limits, SearchConfig};
use stackchess_variants::{Fide, Malka, Traditional};
use std::sync::atomic::AtomicBool;

fn run<P: Position>(depth: u32) {
    let pos = P::startpos();
    let mut e = Engine::<P>::new(SearchConfig::for_variant(P::variant_name()));
    let stop = AtomicBool::new(false);
    let mut iters = Vec::new();
    let r = e.search(&pos, &[], &Limits::depth(depth), &stop, &mut |r| iters.push(r.clone()));
    assert_eq!(iters.len(), depth as usize);
    let m = r.best_move().expect("a move");
    assert!(pos.is_legal(m));
    eprintln!("{} {:?} {} nodes {}", P::variant_name(), r.score, stackchess_core::coord::<P>(m), r.nodes);
}

#[test]
fn start_positions() {
    run::<Fide>(5);
    run::<Malka>(4);
    run::<Traditional>(4);
}
