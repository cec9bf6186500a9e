//! Self-play throughput: a batch of Malka games at a fixed node budget, on 1 thread and on 2.
//! The ratio of the two times is the harness's parallel scaling (the target is at least 1.8).
//!
//! Each iteration plays the batch into a new directory, records and PGN included, and checks
//! that every game was recorded before the time counts.

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use stackchess_malka::Malka;
use stackchess_search::{Limits, SearchConfig};
use stackchess_selfplay::{run, Adjudication, EngineSpec, NoProgress, Openings, RunConfig, RunEnd, Shard};
use std::sync::atomic::AtomicBool;

const GAMES: u64 = 8;

fn config(threads: usize) -> RunConfig {
    RunConfig {
        seed: 1,
        games: GAMES,
        threads,
        openings: Openings::Random { plies: 8 },
        opening_filter: None,
        paired: false,
        adjudication: Adjudication { max_plies: Some(200), ..Adjudication::default() },
        engines: vec![EngineSpec {
            label: "default".into(),
            config: SearchConfig::preset(stackchess_malka::EVAL_PARAMS).expect("the malka preset"),
            limits: Limits::nodes(1000),
            tc: None,
            external: None,
        }],
        event: "bench".into(),
        shard: Shard::WHOLE,
        timing: stackchess_selfplay::Timing::default(),
    }
}

fn selfplay(c: &mut Criterion) {
    let mut g = c.benchmark_group("selfplay_malka_1000_nodes");
    g.sample_size(10);
    g.throughput(Throughput::Elements(GAMES));
    let root = std::env::temp_dir().join(format!("stackchess-bench-selfplay-{}", std::process::id()));
    for threads in [1, 2] {
        let mut n = 0;
        g.bench_with_input(BenchmarkId::from_parameter(format!("{threads}_threads")), &threads, |b, &t| {
            b.iter(|| {
                n += 1;
                let dir = root.join(format!("{t}-{n}"));
                let s = run::<Malka>(
                    stackchess_malka::rules(),
                    &dir,
                    &config(t),
                    false,
                    &AtomicBool::new(false),
                    &mut NoProgress,
                )
                .unwrap();
                assert_eq!((s.end, s.done), (RunEnd::Complete, GAMES));
                std::fs::remove_dir_all(&dir).unwrap();
            });
        });
    }
    g.finish();
    let _ = std::fs::remove_dir_all(root);
}

criterion_group!(benches, selfplay);
criterion_main!(benches);
