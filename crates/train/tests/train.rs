//! The trainer fits a known target (a linear function of the inputs, through the sigmoid) to a
//! stated error, and a run is a function of its seed: the same net twice, on one thread or two.

use stackchess_core::SplitMix64;
use stackchess_nnue::FloatNet;
use stackchess_train::{mse, train, NoHook, Options, Samples};
use std::sync::atomic::AtomicBool;

const INPUTS: usize = 768;

/// Fixed weights for `INPUTS` inputs, uniform in ±0.15, from `seed`.
fn weights(seed: u64) -> Vec<f64> {
    let mut rng = SplitMix64::for_item(seed, 0);
    (0..INPUTS).map(|_| ((rng.next_u64() >> 11) as f64 / (1u64 << 53) as f64 - 0.5) * 0.3).collect()
}

/// `n` samples of 10–29 random inputs a side, out of `inputs`, whose target is
/// `σ₄₀₀(400 · (Σ_us w(f) − Σ_them w(f)))`.
fn samples(n: usize, seed: u64, inputs: usize, w: impl Fn(usize) -> f64) -> Samples {
    let mut rng = SplitMix64::for_item(seed, 1);
    let mut out = Samples::default();
    for i in 0..n {
        let k = 10 + rng.below(20);
        let us: Vec<u16> = (0..k).map(|_| rng.below(inputs) as u16).collect();
        let them: Vec<u16> = (0..k).map(|_| rng.below(inputs) as u16).collect();
        let y: f64 = us.iter().map(|&f| w(f as usize)).sum::<f64>() - them.iter().map(|&f| w(f as usize)).sum::<f64>();
        out.push(&us, &them, (1.0 / (1.0 + 10f64.powf(-y))) as f32, i as u64);
    }
    out
}

/// Samples whose target is a fixed linear function of the inputs.
fn synthetic(n: usize, seed: u64) -> Samples {
    let a = weights(99);
    samples(n, seed, INPUTS, |f| a[f])
}

#[test]
fn the_trainer_fits_a_known_target_and_is_deterministic() {
    let (data, held) = (synthetic(60_000, 1), synthetic(5_000, 2));
    let var: f64 = {
        let m = held.target.iter().map(|&t| f64::from(t)).sum::<f64>() / held.len() as f64;
        held.target.iter().map(|&t| (f64::from(t) - m).powi(2)).sum::<f64>() / held.len() as f64
    };
    let o =
        Options { hidden: 32, epochs: 8, batch: 1024, lr: 0.003, seed: 5, threads: 2, factor_levels: 0, init: None };
    let go = AtomicBool::new(false);
    let t = train(INPUTS, &data, &held, &o, &go, &mut NoHook).unwrap();
    let err = mse(&t.net, &held);
    // The targets' variance is about 0.05; the fit explains all but a few percent of it.
    assert!(err < 0.06 * var, "held-out error {err} against a variance of {var}");
    assert!(t.epochs.last().unwrap().holdout < t.epochs[0].holdout);
    let again = train(INPUTS, &data, &held, &o, &go, &mut NoHook).unwrap();
    assert_eq!(t.net, again.net);
    let one = train(INPUTS, &data, &held, &Options { threads: 1, ..o.clone() }, &go, &mut NoHook).unwrap();
    assert_eq!(t.net, one.net);
}

/// The synthetic samples again, each with a random base (in the net's units) added inside the
/// target's sigmoid: what only a residual net, told the base, can fit.
fn on_bases(data: &Samples, seed: u64) -> Samples {
    let mut rng = SplitMix64::for_item(seed, 2);
    let mut out = Samples::default();
    for i in 0..data.len() {
        let b = ((rng.next_u64() >> 11) as f64 / (1u64 << 53) as f64 - 0.5) * 2.0;
        let t = f64::from(data.target[i]);
        let y = (t / (1.0 - t)).log10();
        let (us, them) = data.inputs(i);
        out.push_on(us, them, (1.0 / (1.0 + 10f64.powf(-(y + b)))) as f32, b as f32, data.game[i]);
    }
    out
}

#[test]
fn a_residual_net_learns_what_its_base_leaves() {
    let (data, held) = (on_bases(&synthetic(60_000, 1), 3), on_bases(&synthetic(5_000, 2), 4));
    let o =
        Options { hidden: 32, epochs: 8, batch: 1024, lr: 0.003, seed: 5, threads: 2, factor_levels: 0, init: None };
    let go = AtomicBool::new(false);
    let residual = mse(&train(INPUTS, &data, &held, &o, &go, &mut NoHook).unwrap().net, &held);
    // The same samples without their bases: the base is noise to the net, which cannot fit it.
    let strip = |s: &Samples| s.clone().without_base();
    let plain = train(INPUTS, &strip(&data), &strip(&held), &o, &go, &mut NoHook).unwrap();
    let plain = mse(&plain.net, &strip(&held));
    assert!(residual < 0.002 && plain > 10.0 * residual, "residual {residual}, plain {plain}");
}

/// Samples on a board of two levels whose target depends on each piece's square and kind but
/// not on its level: what the shared inputs (`factor_levels`) learn from every level's samples.
fn level_blind(n: usize, seed: u64) -> Samples {
    let a = weights(98);
    // Input f of the two-level board is piece f / 128 on cell f % 128; its square is that cell % 64.
    samples(n, seed, 2 * INPUTS, |f| a[(f / 128) * 64 + f % 64])
}

#[test]
fn shared_inputs_learn_from_every_level_and_fold_into_the_net() {
    let (data, held) = (level_blind(6_000, 1), level_blind(5_000, 2));
    let o = Options { hidden: 32, epochs: 8, batch: 256, lr: 0.003, seed: 5, threads: 2, factor_levels: 0, init: None };
    let go = AtomicBool::new(false);
    let plain = train(2 * INPUTS, &data, &held, &o, &go, &mut NoHook).unwrap();
    let shared = train(2 * INPUTS, &data, &held, &Options { factor_levels: 2, ..o.clone() }, &go, &mut NoHook).unwrap();
    // The folded net has the real inputs only, and its error is the one reported for the last epoch.
    assert_eq!(shared.net.inputs, 2 * INPUTS);
    let (p, s) = (mse(&plain.net, &held), mse(&shared.net, &held));
    assert!((s - shared.epochs.last().unwrap().holdout).abs() < 1e-9);
    // With few samples a cell, the shared rows see each square's samples of both levels.
    assert!(s < 0.7 * p, "shared {s}, plain {p}");
    // Shared inputs of a board that is not the data's are refused.
    let e = train(2 * INPUTS, &data, &held, &Options { factor_levels: 3, ..o.clone() }, &go, &mut NoHook).unwrap_err();
    assert!(e.to_string().contains("3 levels"), "{e}");
}

#[test]
fn training_from_a_net_starts_where_it_left_off() {
    let (data, held) = (synthetic(20_000, 1), synthetic(5_000, 2));
    let o =
        Options { hidden: 16, epochs: 2, batch: 1024, lr: 0.003, seed: 5, threads: 2, factor_levels: 0, init: None };
    let go = AtomicBool::new(false);
    let first = train(INPUTS, &data, &held, &o, &go, &mut NoHook).unwrap();
    // Through the quantised net, as `--init` reads a net file: quantising it again is exact.
    let q = first.net.quantise("test-rules", 1, "");
    let start = FloatNet::from_net(&q);
    assert_eq!(start.quantise("test-rules", 1, ""), q);
    // Steps too small to matter: the net trained from `start` is `start`, to a billionth.
    let still = Options { lr: 1e-12, epochs: 1, init: Some(start.clone()), ..o.clone() };
    let still = train(INPUTS, &data, &held, &still, &go, &mut NoHook).unwrap().net;
    let all = |n: &FloatNet| n.w1.iter().chain(&n.b1).chain(&n.w2).chain([&n.b2]).copied().collect::<Vec<f32>>();
    let moved = all(&still).iter().zip(all(&start)).map(|(a, b)| (a - b).abs()).fold(0.0, f32::max);
    assert!(moved < 1e-9, "a weight moved by {moved}");
    // Two more epochs from it do better than the first two did, and better than two from the seed.
    let more =
        train(INPUTS, &data, &held, &Options { init: Some(start.clone()), ..o.clone() }, &go, &mut NoHook).unwrap();
    let (before, after) = (mse(&start, &held), mse(&more.net, &held));
    assert!(after < before && after < first.epochs[1].holdout, "{before} then {after}");
    // A net of another hidden size is refused, naming both.
    let other = Options { hidden: 8, init: Some(start), ..o };
    let e = train(INPUTS, &data, &held, &other, &go, &mut NoHook).unwrap_err().to_string();
    assert!(e.contains("16 neurons; this training has 8"), "{e}");
}
