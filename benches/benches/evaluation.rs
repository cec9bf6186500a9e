//! Nodes a second of the search with each evaluation of a rule set: its preset, the tuned
//! parameters (`data/tuned/<variant>.params`, when there), the net (the rule set's default net,
//! else `data/nets/<variant>.nnue`, else a random net of 64 neurons: the cost of a net does not
//! depend on its weights), and a residual net (a random one whose output is added to the preset's
//! evaluation). The preset line is the linear evaluation even where the default plays a net.
//! Each workload searches the bench positions to a fixed node budget; criterion reports
//! nodes a second (elements/s), and the ratio of two lines of one run is the relative cost of a
//! node. Run: `cargo bench -p stackchess-benches --bench evaluation`.

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use stackchess_core::{Position, Rules as _};
use stackchess_nnue::FloatNet;
use stackchess_search::{Bench, Engine, Limits, NetFile, SearchConfig};
use stackchess_variants::{AirAttack, Fide, Malka, Traditional, Variant};
use std::hint::black_box;
use std::path::Path;
use std::sync::atomic::AtomicBool;

const NODES: u64 = 200_000;

fn workload<P: Position>(engine: &mut Engine<P>, positions: &[P]) -> u64 {
    let stop = AtomicBool::new(false);
    positions
        .iter()
        .map(|p| {
            engine.new_game();
            engine.search(p, &[], &Limits::nodes(NODES), &stop, &mut |_| {}).nodes
        })
        .sum()
}

fn root() -> &'static Path {
    Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/.."))
}

fn bench_variant<P: Position>(c: &mut Criterion, rules: P::Rules) {
    let name = rules.name();
    let variant: Variant = name.parse().expect("a built-in variant");
    let mut positions = vec![rules.startpos()];
    let bench = Bench::parse(variant.bench().expect("a bench file")).expect("a valid bench file");
    positions.extend(bench.positions.iter().map(|t| rules.from_lfen(t).expect("bench position")));
    let engine = SearchConfig::preset(variant.eval_params().expect("a preset")).expect("a valid preset");
    let preset = engine.eval.clone();
    let mut configs = vec![("preset", engine.clone())];
    let tuned = root().join(format!("data/tuned/{name}.params"));
    if let Ok(text) = std::fs::read_to_string(&tuned) {
        let mut c = engine.clone();
        c.apply_file(&text).expect("the tuned parameters load");
        configs.push(("tuned", c));
    }
    let shipped = root().join(format!("data/nets/{name}.nnue"));
    let random = |base: String| {
        let mut net = FloatNet::random(12 * 64 * P::LEVELS, 64, 1).quantise(rules.id(), P::LEVELS, "bench");
        net.base = base;
        NetFile::from_bytes::<P>(rules, &net.to_bytes(), "random").expect("a random net loads")
    };
    let net = match variant.default_net() {
        Some(bytes) => NetFile::from_bytes::<P>(rules, bytes, "default").expect("the default net loads"),
        None => NetFile::load::<P>(rules, &shipped).unwrap_or_else(|_| random(String::new())),
    };
    configs.push(("net", SearchConfig { net: Some(net), ..engine.clone() }));
    // The same cost with the linear evaluation added: a residual net.
    configs.push(("residual", SearchConfig { net: Some(random(preset.to_file())), ..engine }));
    let mut group = c.benchmark_group(format!("evaluation/{name}"));
    group.sample_size(10);
    for (label, config) in configs {
        let mut engine = Engine::<P>::new(rules, config);
        let nodes = workload(&mut engine, &positions);
        group.throughput(Throughput::Elements(nodes));
        group.bench_function(BenchmarkId::from_parameter(label), |b| {
            b.iter(|| assert_eq!(black_box(workload(&mut engine, &positions)), nodes));
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

criterion_group!(evaluation, benches);
criterion_main!(evaluation);
