//! Quick checks of the search on start positions.

use stackchess_core::Position;
use stackchess_core::Rules as _;
use stackchess_search::{Engine, EvalParams, Limits, SearchConfig};
use stackchess_variants::{Fide, Malka, Traditional};
use std::sync::atomic::AtomicBool;

fn run<P: Position>(rules: P::Rules, depth: u32) {
    let pos = rules.startpos();
    let mut e = Engine::<P>::new(rules, SearchConfig::full(preset(rules.name())));
    let stop = AtomicBool::new(false);
    let mut iters = Vec::new();
    let r = e.search(&pos, &[], &Limits::depth(depth), &stop, &mut |r| iters.push(r.clone()));
    assert_eq!(iters.len(), depth as usize);
    let m = r.best_move().expect("a move");
    assert!(pos.is_legal(m));
    eprintln!("{} {:?} {} nodes {}", rules.name(), r.score, stackchess_core::coord::<P>(m), r.nodes);
}

#[test]
fn start_positions() {
    run::<Fide>(stackchess_variants::traditional::fide_rules(), 5);
    run::<Malka>(stackchess_variants::malka::rules(), 4);
    run::<Traditional>(stackchess_variants::traditional::rules(), 4);
}

/// The evaluation preset of the built-in variant `name`.
fn preset(name: &str) -> EvalParams {
    let v: stackchess_variants::Variant = name.parse().expect("a built-in variant");
    EvalParams::parse(v.eval_params().expect("a preset")).expect("a valid preset")
}
