//! Quick checks of the search on start positions.

mod common;

use stackchess_core::Position;
use stackchess_core::Rules as _;
use stackchess_search::{Engine, Limits};
use stackchess_variants::{Fide, Malka, Traditional};
use std::sync::atomic::AtomicBool;

fn run<P: Position>(rules: P::Rules, depth: u32) {
    let pos = rules.startpos();
    let mut e = Engine::<P>::new(rules, common::full(rules.name()));
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

/// The nodes and best move of a depth-`depth` search of `rules`' start position with `settings`
/// on top of the full engine.
fn nodes_with<P: Position>(rules: P::Rules, depth: u32, settings: &[&str]) -> (u64, String) {
    let mut c = common::full(rules.name());
    for s in settings {
        c.set_pair(s).expect("a known setting");
    }
    let mut e = Engine::<P>::new(rules, c);
    let stop = AtomicBool::new(false);
    let pos = rules.startpos();
    let r = e.search(&pos, &[], &Limits::depth(depth), &stop, &mut |_| {});
    (r.nodes, stackchess_core::coord::<P>(r.best_move().expect("a move")))
}

#[test]
fn correction_history_changes_the_tree_and_repeats() {
    // With the switch on, the static scores the prunings see move with what the searches found,
    // so the same search visits another number of nodes; run twice, it visits the same ones.
    let malka = stackchess_variants::malka::rules();
    let on = nodes_with::<Malka>(malka, 5, &["search.corr_history=true"]);
    assert_eq!(on, nodes_with::<Malka>(malka, 5, &["search.corr_history=true"]));
    assert_ne!(on.0, nodes_with::<Malka>(malka, 5, &[]).0);
    // A correction of weight 0 is none: the tree of the switch off.
    let off = nodes_with::<Fide>(stackchess_variants::traditional::fide_rules(), 6, &[]);
    let zero = nodes_with::<Fide>(
        stackchess_variants::traditional::fide_rules(),
        6,
        &["search.corr_history=true", "search.corr_weight=0"],
    );
    assert_eq!(off, zero);
}

#[test]
fn the_history_bonus_margins_change_the_tree_and_default_to_today() {
    // A larger bonus reorders quiet moves once the gravity or the reductions' history term tell
    // apart what a plain scaling would not (a depth-8 fide search); the defaults spelt out are the
    // search of no setting.
    let fide = stackchess_variants::traditional::fide_rules();
    let plain = nodes_with::<Fide>(fide, 8, &[]);
    assert_eq!(plain, nodes_with::<Fide>(fide, 8, &["search.history_scale=1", "search.history_max=400"]));
    assert_ne!(plain.0, nodes_with::<Fide>(fide, 8, &["search.history_scale=32", "search.history_max=1536"]).0);
}
