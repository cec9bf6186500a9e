//! Mates in 1, 2 and 3 in every variant (malka, traditional, fide, air-attack): each position's mate distance is verified by exhaustive
//! search here, for it and for its colour-mirrored twin, and the engine must find a mating move
//! with the exact mate score. (Positions were found by random sampling with the same solver.)

mod common;

use common::{mate_distance, mates_with, mirror, search_depth_with};
use stackchess_core::Rules as _;
use stackchess_core::{coord, Position};
use stackchess_search::{Score, SearchConfig};
use stackchess_variants::{AirAttack, Fide, Malka, Traditional};

fn check<P: Position>(rules: P::Rules, cases: &[(u32, &str)]) {
    let name = rules.name();
    check_with::<P>(rules, cases, &|| common::full(name));
}

fn check_with<P: Position>(rules: P::Rules, cases: &[(u32, &str)], config: &dyn Fn() -> SearchConfig) {
    for &(n, text) in cases {
        let original = rules.from_lfen(text).unwrap_or_else(|e| panic!("{text}: {e}"));
        for pos in [original.clone(), mirror(&original)] {
            let lfen = pos.to_lfen();
            assert_eq!(mate_distance(&pos, n), Some(n), "{} {lfen}: not an exact mate in {n}", rules.name());
            // Reductions make quiet mating moves need a few plies more than the mate length.
            let r = search_depth_with(&pos, 2 * n + 4, config());
            let m = r.best_move().unwrap_or_else(|| panic!("no move in {lfen}"));
            assert!(
                mates_with(&pos, m, n),
                "{} {lfen}: engine played {} which does not mate in {n}",
                rules.name(),
                coord::<P>(m)
            );
            assert_eq!(r.score, Score::Mate(n as i32), "{} {lfen}: score", rules.name());
        }
    }
}

#[test]
fn fide_mates() {
    check::<Fide>(
        stackchess_variants::traditional::fide_rules(),
        &[
            (1, "6K1/8/7k/8/6Q1/8/4pB2/8 w - - 0 1"),
            (1, "8/8/6R1/2K5/8/7k/3p4/4R3 w - - 0 1"),
            (2, "8/8/5Q2/K7/8/8/8/2Nk4 w - - 0 1"),
            (2, "8/k7/7R/8/8/8/K2R4/8 w - - 0 1"),
            (3, "4R3/6p1/8/6R1/k7/8/8/6K1 w - - 0 1"),
            (3, "8/5p2/3R4/8/3K4/4R3/8/7k w - - 0 1"),
        ],
    );
}

#[test]
fn malka_mates() {
    check::<Malka>(
        stackchess_variants::malka::rules(),
        &[
            (1, "8/8/8/8/8/k7/3K4/1R6|8/8/8/4p3/8/2Q5/8/8|8/8/8/8/8/8/8/8 w - - 0 1"),
            (1, "8/8/8/4k3/8/1R6/8/8|8/8/8/8/8/8/8/8|8/8/8/5K2/5Q2/8/4R3/8 w - - 0 1"),
            (2, "8/5BK1/8/3R4/8/8/8/8|8/R7/8/8/8/5N2/8/8|6k1/8/8/8/8/8/8/8 w - - 0 1"),
            (2, "2K5/8/8/8/8/8/8/8|2B5/8/8/1R6/8/8/8/8|k7/8/8/8/8/8/1R3N2/8 w - - 0 1"),
            (3, "8/8/8/8/8/5K2/8/7k|8/8/8/8/8/8/8/1R6|8/1R6/8/8/8/7B/8/8 w - - 0 1"),
            (3, "8/8/3p4/8/8/8/8/8|6R1/8/8/8/8/8/1R6/8|8/7k/R7/7K/8/8/8/8 w - - 0 1"),
        ],
    );
}

#[test]
fn traditional_mates() {
    check::<Traditional>(
        stackchess_variants::traditional::rules(),
        &[
            (1, "8/4Q3/8/8/8/3p4/8/8|5K2/8/8/8/8/8/8/8|7k/8/8/8/8/8/5R2/8 w - - 0 1"),
            (1, "8/8/8/8/8/p4Q2/8/8|8/8/2K5/8/8/8/R7/7k|8/8/8/8/8/8/8/8 w - - 0 1"),
            (2, "8/8/8/8/8/8/8/8|8/8/8/8/8/5Q2/8/8|2K5/8/8/8/8/2Q5/7k/8 w - - 0 1"),
            (2, "8/8/8/8/8/8/8/2K5|8/3Q4/7R/8/8/8/8/k7|8/p7/8/8/8/8/8/8 w - - 0 1"),
            (3, "6k1/8/8/8/8/8/8/8|8/8/8/8/8/8/3Q4/8|8/4K3/8/8/8/8/8/8 w - - 0 1"),
            (3, "8/8/8/8/8/k7/8/8|5Q2/8/8/8/8/8/2K5/8|8/8/8/8/8/8/8/8 w - - 0 1"),
        ],
    );
}

#[test]
fn air_attack_mates() {
    check::<AirAttack>(
        stackchess_variants::air_attack::rules(),
        &[
            (1, "8/1R6/8/8/7K/8/8/8|4k3/8/8/8/8/8/8/7R w - - 0 1"),
            (1, "8/8/8/8/8/k7/8/K7|8/5p2/8/3B4/8/8/8/1Q6 w - - 0 1"),
            (2, "1k6/6Q1/8/8/8/8/6K1/8|8/8/8/8/8/7R/8/8 w - - 0 1"),
            (2, "7k/8/4K3/8/8/8/8/8|Q7/8/8/8/4R3/8/8/8 w - - 0 1"),
            (3, "8/7K/8/8/8/5R2/8/8|8/8/8/8/8/2R5/8/3k4 w - - 0 1"),
            (3, "8/6p1/8/8/4B3/8/5K2/8|8/8/8/7k/8/3Q4/8/8 w - - 0 1"),
        ],
    );
}

/// Every switch that is off by default (from the one table of them), and the margins that are 0
/// (off) by default with a value that turns each on (`rfp_improving` acts only with `improving`).
fn off_by_default() -> Vec<String> {
    let switches = SearchConfig::SWITCHES.iter().filter(|s| !s.in_full).map(|s| format!("search.{}=true", s.name));
    let margins = ["search.history_prune=1", "search.lmr_cut=1", "search.nmp_eval=20", "search.rfp_improving=50"];
    switches.chain(margins.map(str::to_owned)).collect()
}

/// The full engine with the settings `pairs` on top.
fn full_with<S: AsRef<str>>(name: &str, pairs: &[S]) -> SearchConfig {
    let mut c = common::full(name);
    for p in pairs.iter().map(AsRef::as_ref) {
        c.set_pair(p).unwrap_or_else(|e| panic!("{p}: {e}"));
    }
    c
}

#[test]
fn every_feature_on_still_mates() {
    // The features kept off by default are still sound where they apply: with all of them on,
    // the engine finds the same exact mates.
    check_with::<Fide>(
        stackchess_variants::traditional::fide_rules(),
        &[(1, "6K1/8/7k/8/6Q1/8/4pB2/8 w - - 0 1"), (2, "8/8/5Q2/K7/8/8/8/2Nk4 w - - 0 1")],
        &|| full_with("fide", &off_by_default()),
    );
    check_with::<Malka>(
        stackchess_variants::malka::rules(),
        &[(2, "8/5BK1/8/3R4/8/8/8/8|8/R7/8/8/8/5N2/8/8|6k1/8/8/8/8/8/8/8 w - - 0 1")],
        &|| full_with("malka", &off_by_default()),
    );
}

#[test]
fn every_feature_off_by_default_changes_the_tree() {
    // Each one is wired in: turned on (alone, or `rfp_improving` beside `improving`), it changes
    // the nodes of a fixed-depth search of a middlegame (a switch that changed nothing would be
    // measured as level in every match).
    let rules = stackchess_variants::traditional::fide_rules();
    let pos =
        rules.from_lfen("r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP1B1PPP/R2QKB1R w KQ - 0 8").expect("a valid FEN");
    let nodes = |pairs: &[&str]| search_depth_with(&pos, 7, full_with("fide", pairs)).nodes;
    let (defaults, improving) = (nodes(&[]), nodes(&["search.improving=true"]));
    let features = off_by_default();
    assert!(features.len() >= 9, "{features:?}");
    for p in &features {
        let (with, without) = if p.starts_with("search.rfp_improving") {
            (nodes(&["search.improving=true", p]), improving)
        } else {
            (nodes(&[p]), defaults)
        };
        assert_ne!(with, without, "{p} searched the same tree as without it");
    }
}
