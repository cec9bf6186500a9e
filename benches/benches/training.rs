//! Samples a second of `stackchess train`: one epoch over 200,000 samples shaped like Nardeshir
//! positions (2,304 inputs, 32 active a side, targets near ½), for a 32- and a 64-neuron net on
//! one thread and on two. What counts is the sparse first layer: each sample touches 64 rows.
//! Run: `cargo bench -p stackchess-benches --bench training`.

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use stackchess_core::SplitMix64;
use stackchess_train::{train, NoHook, Options, Samples};
use std::hint::black_box;
use std::sync::atomic::AtomicBool;

const INPUTS: usize = 12 * 64 * 3;
const SAMPLES: usize = 200_000;

/// Samples with 32 distinct random inputs a side, one game per 60 samples.
fn samples(n: usize) -> Samples {
    let mut rng = SplitMix64(5);
    let mut out = Samples::default();
    let pick = |rng: &mut SplitMix64| {
        let mut v: Vec<u16> = Vec::with_capacity(32);
        while v.len() < 32 {
            let i = rng.below(INPUTS) as u16;
            if !v.contains(&i) {
                v.push(i);
            }
        }
        v
    };
    for i in 0..n {
        let (us, them) = (pick(&mut rng), pick(&mut rng));
        let t = 0.3 + 0.4 * (rng.below(1000) as f32 / 1000.0);
        out.push(&us, &them, t, (i / 60) as u64);
    }
    out
}

fn bench(c: &mut Criterion) {
    let data = samples(SAMPLES);
    let none = Samples::default();
    let halt = AtomicBool::new(false);
    let mut g = c.benchmark_group("train-epoch-200000");
    g.sample_size(10);
    g.throughput(Throughput::Elements(SAMPLES as u64));
    for hidden in [32, 64] {
        for threads in [1, 2] {
            let o = Options { hidden, epochs: 1, batch: 8192, threads, ..Options::default() };
            g.bench_function(BenchmarkId::new(format!("h{hidden}"), format!("{threads}-threads")), |b| {
                b.iter(|| train(INPUTS, black_box(&data), &none, &o, &halt, &mut NoHook).expect("trains"));
            });
        }
    }
    g.finish();
}

criterion_group!(training, bench);
criterion_main!(training);
