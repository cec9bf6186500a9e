//! The `stackchess bench` workload without the CLI (and without polars): every bench position of
//! each variant (or of the variants named) searched to the bench depth after `new_game`, with the
//! same per-variant lines and `total nodes` signature:
//! `cargo run --release -p stackchess-benches --example search_bench -- [VARIANT...]`.

use stackchess_core::{Position, Rules};
use stackchess_search::{Bench, Engine, Limits, SearchConfig};
use stackchess_variants::{Variant, WithPosition};
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

struct Workload(Variant);

impl WithPosition for Workload {
    type Output = (u64, Duration, usize);
    fn call<P: Position>(self, rules: P::Rules) -> (u64, Duration, usize) {
        let preset = SearchConfig::preset(self.0.eval_params().expect("a preset")).expect("the preset reads");
        let bench = Bench::parse(self.0.bench().expect("a bench")).expect("the bench file reads");
        let mut engine = Engine::<P>::new(rules, preset);
        let mut positions = vec![rules.startpos()];
        positions.extend(bench.positions.iter().map(|t| rules.from_lfen(t).expect("bench position")));
        let stop = AtomicBool::new(false);
        let (mut nodes, mut time) = (0, Duration::ZERO);
        for pos in &positions {
            engine.new_game();
            let start = Instant::now();
            nodes += engine.search(pos, &[], &Limits::depth(bench.depth), &stop, &mut |_| {}).nodes;
            time += start.elapsed();
        }
        (nodes, time, positions.len())
    }
}

fn nps(nodes: u64, time: Duration) -> u64 {
    u64::try_from(u128::from(nodes) * 1000 / time.as_millis().max(1)).unwrap_or(u64::MAX)
}

fn main() {
    let only: Vec<String> = std::env::args().skip(1).collect();
    let (mut nodes, mut time) = (0u64, Duration::ZERO);
    for v in Variant::ALL.into_iter().filter(|v| only.is_empty() || only.iter().any(|o| o == v.name())) {
        let (n, t, count) = v.with(Workload(v));
        let depth = Bench::parse(v.bench().expect("a bench")).expect("the bench file reads").depth;
        println!("{:<12} positions {count} depth {depth} nodes {n} time {} nps {}", v.name(), t.as_millis(), nps(n, t));
        nodes += n;
        time += t;
    }
    println!("total nodes {nodes} nps {}", nps(nodes, time));
}
