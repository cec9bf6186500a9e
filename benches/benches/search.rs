//! Search speed per variant: the `stackchess bench` workload (start position plus the fixed bench
//! positions) at a reduced depth, reported as nodes per second (criterion's elements/s).
//!
//! The node count of each workload is measured once before timing (it is deterministic) and
//! checked on every timed run, so a change in search behaviour cannot pass as a change in speed.

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use stackchess_core::Position;
use stackchess_core::Rules as _;
use stackchess_search::{Bench, Engine, Limits, SearchConfig};
use stackchess_variants::{AirAttack, Fide, Malka, Traditional, Variant};
use std::hint::black_box;
use std::sync::atomic::AtomicBool;

/// Depth of the timed searches per variant (lower than `stackchess bench` to keep runs short).
fn depth(name: &str) -> u32 {
    if name == "fide" {
        8
    } else {
        5
    }
}

/// Searches every workload position after `new_game`; returns the total node count.
fn workload<P: Position>(engine: &mut Engine<P>, positions: &[P], depth: u32) -> u64 {
    let stop = AtomicBool::new(false);
    positions
        .iter()
        .map(|p| {
            engine.new_game();
            engine.search(p, &[], &Limits::depth(depth), &stop, &mut |_| {}).nodes
        })
        .sum()
}

/// The engines timed: the preset's full engine, and the same without the three features adopted on
/// 2026-12-03 (their cost in nodes a second: data/tuned/README.md). The first keeps the bench id
/// it always had, so saved baselines still compare.
fn engines(full: SearchConfig) -> [(&'static str, SearchConfig); 2] {
    let mut before = full.clone();
    before.switches.qs_tt = false;
    before.switches.cont_history = false;
    before.switches.see_pruning = false;
    [("", full), (" without qs_tt, cont_history, see_pruning", before)]
}

fn bench_variant<P: Position>(c: &mut Criterion, rules: P::Rules) {
    let name = rules.name();
    let mut positions = vec![rules.startpos()];
    let variant: Variant = name.parse().expect("a built-in variant");
    let bench = Bench::parse(variant.bench().expect("a bench file")).expect("a valid bench file");
    positions.extend(bench.positions.iter().map(|t| rules.from_lfen(t).expect("bench position")));
    let d = depth(name);
    let preset = SearchConfig::preset(variant.eval_params().expect("a preset")).expect("a valid preset");
    let mut group = c.benchmark_group("search");
    group.sample_size(10);
    for (label, config) in engines(preset) {
        let mut engine = Engine::<P>::new(rules, config);
        let nodes = workload(&mut engine, &positions, d);
        group.throughput(Throughput::Elements(nodes));
        group.bench_function(BenchmarkId::new(format!("{name}{label}"), format!("depth {d}")), |b| {
            b.iter(|| assert_eq!(black_box(workload(&mut engine, &positions, d)), nodes));
        });
    }
    group.finish();
}

fn benches(c: &mut Criterion) {
    bench_variant::<Malka>(c, stackchess_malka::rules());
    bench_variant::<Traditional>(c, stackchess_traditional::rules());
    bench_variant::<Fide>(c, stackchess_traditional::fide_rules());
    bench_variant::<AirAttack>(c, stackchess_air_attack::rules());
}

criterion_group!(search, benches);
criterion_main!(search);
