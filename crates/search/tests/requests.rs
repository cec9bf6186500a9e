//! What a UCI `go` can ask beyond limits: several lines (`MultiPV`), a restricted root
//! (`searchmoves`), a mate search, helper threads, a clock, pondering.

mod common;

use common::{mate_distance, mates_with, mirror};
use stackchess_core::Rules as _;
use stackchess_core::{coord, Cell, Move, Position};
use stackchess_search::{Clock, Engine, Limits, Report, Request, Score, SearchConfig};
use stackchess_variants::{Fide, Malka, Variant};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

fn fide() -> <Fide as Position>::Rules {
    stackchess_variants::traditional::fide_rules()
}

fn engine<P: Position>(rules: P::Rules) -> Engine<P> {
    let preset = rules.name().parse::<Variant>().ok().and_then(Variant::eval_params).expect("a built-in");
    Engine::new(rules, SearchConfig::preset(preset).expect("the preset reads"))
}

/// Runs `request` and returns the final report and every iteration's lines.
fn analyse<P: Position>(e: &mut Engine<P>, pos: &P, request: &Request<'_>) -> (Report, Vec<Vec<Report>>) {
    let mut iterations = Vec::new();
    let r = e.analyse(pos, &[], request, &mut |lines| iterations.push(lines.to_vec()));
    (r, iterations)
}

/// Everything but the timing.
fn key(r: &Report) -> (u32, u32, Score, u64, Vec<Move>) {
    (r.depth, r.seldepth, r.score, r.nodes, r.pv.clone())
}

/// A middlegame (the first fide bench position after the start).
const KIWIPETE: &str = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";

#[test]
fn one_line_through_analyse_is_the_plain_search() {
    let pos: Fide = fide().from_lfen(KIWIPETE).unwrap();
    let stop = AtomicBool::new(false);
    for limits in [Limits::depth(5), Limits::nodes(20_000)] {
        let mut a = engine::<Fide>(fide());
        let plain = a.search(&pos, &[], &limits, &stop, &mut |_| {});
        let mut b = engine::<Fide>(fide());
        let (r, iterations) = analyse(&mut b, &pos, &Request::new(limits, &stop));
        assert_eq!(key(&plain), key(&r), "{limits:?}");
        assert!(iterations.iter().all(|lines| lines.len() == 1));
    }
}

#[test]
fn multipv_reports_distinct_lines_best_first() {
    // White mates in one with Qg7 (only); every other move is worse.
    let pos: Fide = fide().from_lfen("6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1").unwrap();
    let stop = AtomicBool::new(false);
    let mut e = engine::<Fide>(fide());
    let (r, iterations) = analyse(&mut e, &pos, &Request { multipv: 3, ..Request::new(Limits::depth(4), &stop) });
    assert_eq!(iterations.len(), 4);
    for lines in &iterations {
        assert_eq!(lines.len(), 3);
        let firsts: Vec<Move> = lines.iter().map(|l| l.best_move().unwrap()).collect();
        assert!(firsts[0] != firsts[1] && firsts[1] != firsts[2] && firsts[0] != firsts[2], "{firsts:?}");
        assert!(lines.windows(2).all(|w| w[0].score.key() >= w[1].score.key()), "{lines:?}");
        for l in lines {
            assert!(pos.is_legal(l.best_move().unwrap()));
        }
    }
    let last = iterations.last().unwrap();
    assert_eq!(coord::<Fide>(last[0].best_move().unwrap()), "d1d8");
    assert_eq!(last[0].score, Score::Mate(1));
    assert!(last[1..].iter().all(|l| !l.score.is_mate()), "{last:?}");
    assert_eq!(r.pv, last[0].pv);
    // More lines than moves: one line per legal move.
    let few: Fide = fide().from_lfen("7k/8/8/8/8/8/8/K7 w - - 0 1").unwrap();
    let (_, iterations) = analyse(&mut e, &few, &Request { multipv: 10, ..Request::new(Limits::depth(2), &stop) });
    assert_eq!(iterations[1].len(), 3);
}

#[test]
fn searchmoves_restrict_the_root() {
    let pos: Fide = fide().from_lfen("6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1").unwrap();
    let stop = AtomicBool::new(false);
    let mv = |s: &str| stackchess_core::parse_move(&pos, s).unwrap();
    let allowed = [mv("h2h3"), mv("d1d2")];
    let mut e = engine::<Fide>(fide());
    let (r, iterations) =
        analyse(&mut e, &pos, &Request { searchmoves: &allowed, multipv: 5, ..Request::new(Limits::depth(4), &stop) });
    assert!(allowed.contains(&r.best_move().unwrap()));
    assert!(!r.score.is_mate());
    assert!(iterations.iter().all(|lines| lines.len() == 2));
    // The restricted root result is not stored as the position's value: a full search still mates.
    let full = e.search(&pos, &[], &Limits::depth(2), &stop, &mut |_| {});
    assert_eq!(full.score, Score::Mate(1));
    // No legal move among them: every move is searched.
    let foreign = [Move::normal(Cell::from_index(8), Cell::from_index(16))]; // a2a3: no pawn there
    assert!(!pos.is_legal(foreign[0]));
    let (r, _) = analyse(&mut e, &pos, &Request { searchmoves: &foreign, ..Request::new(Limits::depth(2), &stop) });
    assert_eq!(r.score, Score::Mate(1));
}

/// `go mate n` finds an exact mate in n, and a search for a shorter mate proves there is none.
fn mate_search<P: Position>(rules: P::Rules, cases: &[(u32, &str)]) {
    let stop = AtomicBool::new(false);
    for &(n, text) in cases {
        let original: P = rules.from_lfen(text).unwrap();
        for pos in [original.clone(), mirror(&original)] {
            assert_eq!(mate_distance(&pos, n), Some(n), "{text}");
            let mut e = engine::<P>(rules);
            let r = e.search(&pos, &[], &Limits::mate(n), &stop, &mut |_| {});
            assert_eq!(r.score, Score::Mate(n as i32), "{} {text}", rules.name());
            assert!(mates_with(&pos, r.best_move().unwrap(), n), "{text}");
            assert!(r.depth < 2 * n, "{text}: depth {}", r.depth);
            if n > 1 {
                let r = e.search(&pos, &[], &Limits::mate(n - 1), &stop, &mut |_| {});
                assert_eq!(r.depth, 2 * n - 3, "{text}: a mate search stops once it has proved there is none");
                assert!(!matches!(r.score, Score::Mate(k) if k > 0 && k < n as i32), "{text}: {:?}", r.score);
            }
        }
    }
}

#[test]
fn mate_search_finds_and_disproves_mates() {
    mate_search::<Fide>(
        fide(),
        &[
            (1, "6K1/8/7k/8/6Q1/8/4pB2/8 w - - 0 1"),
            (2, "8/8/5Q2/K7/8/8/8/2Nk4 w - - 0 1"),
            (2, "8/k7/7R/8/8/8/K2R4/8 w - - 0 1"),
            (3, "4R3/6p1/8/6R1/k7/8/8/6K1 w - - 0 1"),
            (3, "8/5p2/3R4/8/3K4/4R3/8/7k w - - 0 1"),
        ],
    );
    mate_search::<Malka>(
        stackchess_variants::malka::rules(),
        &[
            (2, "8/5BK1/8/3R4/8/8/8/8|8/R7/8/8/8/5N2/8/8|6k1/8/8/8/8/8/8/8 w - - 0 1"),
            (3, "8/8/8/8/8/5K2/8/7k|8/8/8/8/8/8/8/1R6|8/1R6/8/8/8/7B/8/8 w - - 0 1"),
        ],
    );
    // No mate in 2 from the start: the search stops after depth 3 with a normal score.
    let stop = AtomicBool::new(false);
    let r = engine::<Fide>(fide()).search(&fide().startpos(), &[], &Limits::mate(2), &stop, &mut |_| {});
    assert_eq!(r.depth, 3);
    assert!(matches!(r.score, Score::Cp(_)));
}

#[test]
fn helper_threads_search_and_one_thread_stays_reproducible() {
    let pos: Fide = fide().from_lfen(KIWIPETE).unwrap();
    let stop = AtomicBool::new(false);
    let mut single = engine::<Fide>(fide());
    let reference = single.search(&pos, &[], &Limits::depth(6), &stop, &mut |_| {});
    let mut e = engine::<Fide>(fide());
    e.set_threads(3);
    assert_eq!(e.threads(), 3);
    let mut depths = Vec::new();
    let r = e.search(&pos, &[], &Limits::depth(6), &stop, &mut |r| depths.push(r.depth));
    assert_eq!(depths, (1..=6).collect::<Vec<_>>());
    assert_eq!(r.depth, 6);
    assert!(pos.is_legal(r.best_move().unwrap()));
    // Node limits count every thread's nodes, however the threads are scheduled: threads publish
    // in steps of 1024, so the sum passes the limit by less than a step, each of the two other
    // threads can add one more step before it sees that, and the reporting thread has under a step
    // unpublished.
    e.new_game();
    let r = e.search(&pos, &[], &Limits::nodes(50_000), &stop, &mut |_| {});
    assert!(r.nodes < 50_000 + 1024 + 3 * 1024, "{}", r.nodes);
    // Back to one thread: the same results as an engine that never had helpers.
    e.set_threads(1);
    e.new_game();
    let again = e.search(&pos, &[], &Limits::depth(6), &stop, &mut |_| {});
    assert_eq!(key(&again), key(&reference));
}

#[test]
fn stop_ends_an_unlimited_search_on_every_thread() {
    let pos: Malka = stackchess_variants::malka::rules().startpos();
    let mut e = engine::<Malka>(stackchess_variants::malka::rules());
    e.set_threads(2);
    let stop = AtomicBool::new(false);
    let r = std::thread::scope(|s| {
        s.spawn(|| {
            std::thread::sleep(Duration::from_millis(300));
            stop.store(true, Ordering::Relaxed);
        });
        e.search(&pos, &[], &Limits::default(), &stop, &mut |_| {})
    });
    assert!(r.elapsed >= Duration::from_millis(300), "{:?}", r.elapsed);
    assert!(pos.is_legal(r.best_move().unwrap()));
}

#[test]
fn a_clock_search_stays_within_the_clock() {
    let pos: Fide = fide().from_lfen(KIWIPETE).unwrap();
    let stop = AtomicBool::new(false);
    let clock = Clock::new(Duration::from_secs(2), Duration::ZERO, None);
    let hard = clock.bounds().hard;
    let mut e = engine::<Fide>(fide());
    let started = Instant::now();
    let r = e.search(&pos, &[], &Limits::clock(clock), &stop, &mut |_| {});
    // The hard bound is about 130 ms; the clock is 2 s.
    assert!(hard < Duration::from_millis(200), "{hard:?}");
    assert!(started.elapsed() < Duration::from_secs(2), "{:?}", started.elapsed());
    assert!(pos.is_legal(r.best_move().unwrap()));
}

#[test]
fn pondering_suspends_the_clock_until_ponderhit() {
    let pos: Fide = fide().from_lfen(KIWIPETE).unwrap();
    let stop = AtomicBool::new(false);
    let pondering = AtomicBool::new(true);
    // 20 ms of hard bound at most, but the search ponders for 400 ms first.
    let limits = Limits::movetime(Duration::from_millis(20));
    let mut e = engine::<Fide>(fide());
    let r = std::thread::scope(|s| {
        s.spawn(|| {
            std::thread::sleep(Duration::from_millis(400));
            pondering.store(false, Ordering::Relaxed);
        });
        e.analyse(&pos, &[], &Request { pondering: Some(&pondering), ..Request::new(limits, &stop) }, &mut |_| {})
    });
    assert!(r.elapsed >= Duration::from_millis(400), "{:?}", r.elapsed);
    assert!(pos.is_legal(r.best_move().unwrap()));
}
