//! Perft speed: every variant from its start position, and `fide` side by side with
//! cozy-chess and shakmaty on the same positions in the same run.
//!
//! All three count the last ply in bulk (the number of legal moves, without making them).
//! Each bench checks its count before timing, so a fast wrong generator cannot pass.

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use stackchess_air_attack::AirAttack;
use stackchess_core::Position;
use stackchess_core::Rules as _;
use stackchess_malka::Malka;
use stackchess_traditional::{Fide, Traditional};
use std::hint::black_box;

/// Standard chess positions for the side-by-side bench: start and "Kiwipete".
const FIDE: [(&str, &str, u32); 2] = [
    ("start", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", 5),
    ("kiwipete", "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1", 4),
];

fn cozy_perft(b: &cozy_chess::Board, depth: u32) -> u64 {
    let mut n = 0;
    if depth == 1 {
        b.generate_moves(|m| {
            n += m.len() as u64;
            false
        });
        return n;
    }
    b.generate_moves(|ms| {
        for m in ms {
            let mut c = b.clone();
            c.play_unchecked(m);
            n += cozy_perft(&c, depth - 1);
        }
        false
    });
    n
}

fn shakmaty_perft(p: &shakmaty::Chess, depth: u32) -> u64 {
    use shakmaty::Position as _;
    let moves = p.legal_moves();
    if depth == 1 {
        return moves.len() as u64;
    }
    moves
        .iter()
        .map(|m| {
            let mut c = p.clone();
            c.play_unchecked(m);
            shakmaty_perft(&c, depth - 1)
        })
        .sum()
}

fn variant_bench<P: Position>(c: &mut Criterion, rules: P::Rules, depth: u32) {
    let pos = rules.startpos();
    let nodes = pos.perft(depth);
    let mut g = c.benchmark_group("perft-start");
    g.sample_size(10);
    g.throughput(Throughput::Elements(nodes));
    g.bench_function(BenchmarkId::new(rules.name(), depth), |b| b.iter(|| black_box(&pos).perft(depth)));
    g.finish();
}

fn variants(c: &mut Criterion) {
    variant_bench::<Fide>(c, stackchess_traditional::fide_rules(), 4);
    variant_bench::<Malka>(c, stackchess_malka::rules(), 3);
    variant_bench::<Traditional>(c, stackchess_traditional::rules(), 3);
    variant_bench::<AirAttack>(c, stackchess_air_attack::rules(), 3);
}

fn fide_side_by_side(c: &mut Criterion) {
    for (name, fen, depth) in FIDE {
        let ours = stackchess_traditional::fide_rules().from_lfen(fen).expect("valid FEN");
        let cozy: cozy_chess::Board = fen.parse().expect("valid FEN");
        let setup: shakmaty::fen::Fen = fen.parse().expect("valid FEN");
        let shak: shakmaty::Chess = setup.into_position(shakmaty::CastlingMode::Standard).expect("legal");
        let nodes = ours.perft(depth);
        assert_eq!(nodes, cozy_perft(&cozy, depth), "cozy-chess disagrees on {name}");
        assert_eq!(nodes, shakmaty_perft(&shak, depth), "shakmaty disagrees on {name}");
        let mut g = c.benchmark_group(format!("fide-{name}-d{depth}"));
        g.sample_size(10);
        g.throughput(Throughput::Elements(nodes));
        g.bench_function("stackchess", |b| b.iter(|| black_box(&ours).perft(depth)));
        g.bench_function("cozy-chess", |b| b.iter(|| cozy_perft(black_box(&cozy), depth)));
        g.bench_function("shakmaty", |b| b.iter(|| shakmaty_perft(black_box(&shak), depth)));
        g.finish();
    }
}

criterion_group!(benches, variants, fide_side_by_side);
criterion_main!(benches);
