//! The piece-value regression of `stackchess stats`: one logistic fit of 60,000 sampled positions
//! (small material differences, results 0, ½, 1), row by row and as its distinct rows weighted by
//! their counts. Both give the same estimate (checked here); the bootstrap fits 200 resamples
//! the weighted way.

use criterion::{criterion_group, criterion_main, Criterion};
use stackchess_core::SplitMix64;
use stackchess_stats::logistic::{fit, fit_weighted};
use std::collections::HashMap;
use std::hint::black_box;

/// Positions like a self-play batch's: differences of -3..3 pawns and -1..1 of each piece, the
/// result drawn from a logistic model.
fn sample(n: usize) -> (Vec<[f64; 5]>, Vec<f64>) {
    let mut rng = SplitMix64(11);
    let (mut x, mut y) = (Vec::with_capacity(n), Vec::with_capacity(n));
    for _ in 0..n {
        let row =
            [0, 1, 2, 3, 4].map(|i| rng.below(if i == 0 { 7 } else { 3 }) as f64 - if i == 0 { 3.0 } else { 1.0 });
        let z = 0.2 + 0.4 * row[0] + 0.9 * row[1] + 0.9 * row[2] + 1.3 * row[3] + 2.5 * row[4];
        let u = rng.next_u64() as f64 / u64::MAX as f64;
        let p = 1.0 / (1.0 + (-z).exp());
        y.push(if u < 0.8 * p {
            1.0
        } else if u < p + 0.1 {
            0.5
        } else {
            0.0
        });
        x.push(row);
    }
    (x, y)
}

/// The distinct rows of `(x, y)` with their counts.
fn distinct(x: &[[f64; 5]], y: &[f64]) -> (Vec<[f64; 5]>, Vec<f64>, Vec<f64>) {
    let mut ids: HashMap<([i64; 5], i64), usize> = HashMap::new();
    let (mut dx, mut dy, mut w) = (Vec::new(), Vec::new(), Vec::new());
    for (row, &t) in x.iter().zip(y) {
        let key = (row.map(|v| v as i64), (t * 2.0) as i64);
        let i = *ids.entry(key).or_insert_with(|| {
            dx.push(*row);
            dy.push(t);
            w.push(0.0);
            dx.len() - 1
        });
        w[i] += 1.0;
    }
    (dx, dy, w)
}

fn bench(c: &mut Criterion) {
    let (x, y) = sample(60_000);
    let (dx, dy, w) = distinct(&x, &y);
    let (a, b) = (fit(&x, &y, 1.0).expect("fit"), fit_weighted(&dx, &dy, &w, 1.0).expect("fit"));
    assert!(a.iter().zip(&b).all(|(p, q)| (p - q).abs() < 1e-9), "{a:?} v {b:?}");
    let mut g = c.benchmark_group(format!("logistic-60000-rows-{}-distinct", dx.len()));
    g.sample_size(10);
    g.bench_function("rows", |bch| bch.iter(|| fit(black_box(&x), black_box(&y), 1.0)));
    g.bench_function("distinct-weighted", |bch| {
        bch.iter(|| fit_weighted(black_box(&dx), black_box(&dy), black_box(&w), 1.0));
    });
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
