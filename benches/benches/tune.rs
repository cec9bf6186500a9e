//! The Texel fit of `stackchess tune` on a million positions (synthetic rows shaped like real
//! ones, results drawn from a known logistic model): the whole fit, the scale included, on every
//! core. One position's row is what sampling a record gives, so this is the fit's cost at the
//! scale the issue asks for ("a million positions in well under a minute on two cores").

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use stackchess_search::EvalParams;
use stackchess_tune::synthetic::synthetic;
use stackchess_tune::{fit, FitOptions};
use std::hint::black_box;

fn benches(c: &mut Criterion) {
    let mut truth = EvalParams { tempo: 18, ..EvalParams::default() };
    truth.mg[stackchess_search::term::VALUE + 1] = 410;
    truth.eg[stackchess_search::term::VALUE + 1] = 450;
    let n = 1_000_000;
    let data = synthetic(n, &truth, 1.2, 1);
    let mut group = c.benchmark_group("tune");
    group.sample_size(10);
    group.throughput(Throughput::Elements(n as u64));
    group.bench_function("fit 1M positions", |b| {
        let prior = EvalParams::default();
        b.iter(|| fit(black_box(&data), None, &prior, &prior, &FitOptions::default()).expect("a fit"));
    });
    group.finish();
}

criterion_group!(tune, benches);
criterion_main!(tune);
