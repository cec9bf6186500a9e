//! Reproducibility, legality under random play, and converting a won ending.

mod common;

use stackchess_core::Rules as _;
use stackchess_core::{coord, Game, Position, SplitMix64, Termination};
use stackchess_search::{Engine, Limits, Report, SearchConfig};
use stackchess_variants::{AirAttack, Fide, Malka, Traditional};
use std::sync::atomic::AtomicBool;

fn search<P: Position>(e: &mut Engine<P>, pos: &P, history: &[u64], limits: &Limits) -> (Report, Vec<Report>) {
    let stop = AtomicBool::new(false);
    let mut iters = Vec::new();
    let r = e.search(pos, history, limits, &stop, &mut |r| iters.push(r.clone()));
    (r, iters)
}

/// Everything but the timing.
fn key(r: &Report) -> (u32, u32, String, u64, Vec<String>) {
    (r.depth, r.seldepth, r.score.to_string(), r.nodes, r.pv.iter().map(|m| format!("{m:?}")).collect())
}

/// A position after `plies` seeded random moves (fewer if the game ends).
fn random_position<P: Position>(rules: P::Rules, seed: u64, plies: usize) -> Game<P> {
    let mut rng = SplitMix64(seed);
    let mut g = Game::new(rules.startpos());
    for _ in 0..plies {
        let moves = g.position().moves();
        if moves.is_empty() || g.outcome().is_some() {
            break;
        }
        g.play(moves[rng.below(moves.len())]).expect("legal");
    }
    g
}

fn deterministic<P: Position>(rules: P::Rules) {
    let game = random_position::<P>(rules, 7, 12);
    let pos = game.position().clone();
    let history = &game.hashes()[..game.hashes().len() - 1];
    for limits in [Limits::depth(4), Limits::nodes(30_000)] {
        let mut a = Engine::<P>::new(rules, common::full(rules.name()));
        let (ra, ia) = search(&mut a, &pos, history, &limits);
        // The same engine again after new_game, and a fresh engine: identical reports, nodes included.
        a.new_game();
        let (rb, ib) = search(&mut a, &pos, history, &limits);
        let mut c = Engine::<P>::new(rules, common::full(rules.name()));
        let (rc, _) = search(&mut c, &pos, history, &limits);
        assert_eq!(key(&ra), key(&rb), "{} {limits:?}", rules.name());
        assert_eq!(key(&ra), key(&rc), "{} {limits:?}", rules.name());
        assert_eq!(ia.iter().map(key).collect::<Vec<_>>(), ib.iter().map(key).collect::<Vec<_>>());
        if let Some(n) = limits.nodes {
            assert!(ra.nodes <= n, "node limit exceeded: {} > {n}", ra.nodes);
        }
        assert!(pos.is_legal(ra.best_move().expect("a move")));
    }
}

#[test]
fn results_are_reproducible() {
    deterministic::<Fide>(stackchess_variants::traditional::fide_rules());
    deterministic::<Malka>(stackchess_variants::malka::rules());
    deterministic::<Traditional>(stackchess_variants::traditional::rules());
    deterministic::<AirAttack>(stackchess_variants::air_attack::rules());
}

fn always_legal<P: Position>(rules: P::Rules, games: u64) {
    let mut e = Engine::<P>::new(rules, SearchConfig { hash_mb: 1, ..common::full(rules.name()) });
    let mut plain = Engine::<P>::new(rules, SearchConfig::plain(common::preset(rules.name())));
    for seed in 0..games {
        let game = random_position::<P>(rules, seed, 20 + 7 * usize::try_from(seed).unwrap_or(0));
        let pos = game.position();
        let history = &game.hashes()[..game.hashes().len() - 1];
        let n = pos.count_legal_moves();
        // Tiny budgets included: even one node must yield a legal move.
        for limits in [Limits::nodes(1), Limits::nodes(50), Limits::nodes(3_000), Limits::depth(2)] {
            for engine in [&mut e, &mut plain] {
                let (r, _) = search(engine, pos, history, &limits);
                match r.best_move() {
                    Some(m) => {
                        assert!(pos.is_legal(m), "{} illegal {} in {}", rules.name(), coord::<P>(m), pos.to_lfen());
                    }
                    None => assert_eq!(n, 0, "{}: no move in {} with {n} legal", rules.name(), pos.to_lfen()),
                }
                // The whole PV is a legal line.
                let mut p = pos.clone();
                for &m in &r.pv {
                    assert!(p.is_legal(m), "PV not legal in {}", pos.to_lfen());
                    p.play_unchecked(m);
                }
            }
        }
    }
}

#[test]
fn never_an_illegal_move_or_none() {
    always_legal::<Fide>(stackchess_variants::traditional::fide_rules(), 12);
    always_legal::<Malka>(stackchess_variants::malka::rules(), 8);
    always_legal::<Traditional>(stackchess_variants::traditional::rules(), 8);
    always_legal::<AirAttack>(stackchess_variants::air_attack::rules(), 8);
}

#[test]
fn no_move_when_there_is_none() {
    let mated = stackchess_variants::traditional::fide_rules().from_lfen("7k/6Q1/6K1/8/8/8/8/8 b - - 0 1").unwrap();
    let stalemated = stackchess_variants::traditional::fide_rules().from_lfen("7k/8/6QK/8/8/8/8/8 b - - 0 1").unwrap();
    let mut e = Engine::<Fide>::new(stackchess_variants::traditional::fide_rules(), common::full("fide"));
    let (r, _) = search(&mut e, &mated, &[], &Limits::depth(3));
    assert_eq!((r.best_move(), r.score), (None, stackchess_search::Score::Mate(0)));
    let (r, _) = search(&mut e, &stalemated, &[], &Limits::depth(3));
    assert_eq!((r.best_move(), r.score), (None, stackchess_search::Score::Cp(0)));
}

/// Plays `start` out with the engine on both sides; returns how it ended and after how many plies.
fn play_out<P: Position>(
    rules: P::Rules,
    start: &str,
    limits: Limits,
    max_plies: usize,
) -> (Option<Termination>, usize) {
    let mut e = Engine::<P>::new(rules, common::full(rules.name()));
    let mut g = Game::new(rules.from_lfen(start).expect("valid"));
    for ply in 0..max_plies {
        if let Some(o) = g.outcome() {
            return (Some(o.reason), ply);
        }
        let history = g.hashes()[..g.hashes().len() - 1].to_vec();
        let (r, _) = search(&mut e, g.position(), &history, &limits);
        g.play(r.best_move().expect("a move")).expect("legal");
    }
    (g.outcome().map(|o| o.reason), max_plies)
}

#[test]
fn fide_queen_ending_is_mated_not_stalemated() {
    for start in ["8/8/8/4k3/8/8/8/1Q2K3 w - - 0 1", "k7/8/8/8/8/8/8/3QK3 w - - 0 1", "8/8/8/8/3K4/8/6Q1/k7 w - - 0 1"]
    {
        let (end, plies) =
            play_out::<Fide>(stackchess_variants::traditional::fide_rules(), start, Limits::nodes(20_000), 80);
        eprintln!("{start}: {end:?} after {plies} plies");
        assert_eq!(end, Some(Termination::Checkmate), "{start}: ended {end:?} after {plies} plies");
    }
}

#[test]
fn malka_won_endings_are_mated_not_stalemated() {
    // The Malka queen is a one-step piece, yet king and queen still mate, as do two rooks.
    for start in [
        "8/8/8/8/8/8/8/3QK3|8/8/8/8/8/8/8/8|8/8/8/3k4/8/8/8/8 w - - 0 1",
        "8/8/8/8/8/8/8/4K3|8/8/8/3k4/8/8/8/8|8/8/8/8/8/8/3Q4/8 w - - 0 1",
        "8/8/8/8/8/8/8/R3K2R|8/8/8/8/8/8/8/8|8/8/8/3k4/8/8/8/8 w - - 0 1",
    ] {
        let (end, plies) = play_out::<Malka>(stackchess_variants::malka::rules(), start, Limits::nodes(20_000), 120);
        eprintln!("{start}: {end:?} after {plies} plies");
        assert_eq!(end, Some(Termination::Checkmate), "{start}: ended {end:?} after {plies} plies");
    }
}
