//! The fitter recovers the parameters of a known logistic model (without the pull toward the
//! start, which biases toward it by design), the pull and the kept terms do what they say, and a fit is
//! deterministic and independent of the thread count.

use stackchess_search::EvalParams;
use stackchess_tune::data::synthetic;
use stackchess_tune::{fit, FitOptions};

/// The model the results are drawn from: every term away from the defaults.
fn truth() -> EvalParams {
    let mut p = EvalParams {
        value: [100, 410, 380, 620, 560],
        center: [7, 9, -4, 2, 5],
        center_level: [3, 8, -2, 6],
        king_home: 11,
        king_center: -5,
        king_center_level: 4,
        pawn_advance: 9,
        pawn_advance2: -3,
        passed: 15,
        bishop_pair: 45,
        tempo: 18,
        tropism: -6,
        mopup: 12,
        mopup_kings: 7,
        mobility: 0,
    };
    p.mobility = 0;
    p
}

#[test]
fn the_fit_recovers_a_known_model() {
    let truth = truth();
    let data = synthetic(400_000, &truth, 1.3, 5);
    let f = fit(&data, &EvalParams::default(), &FitOptions { ridge: 0.0, ..FitOptions::default() }).unwrap();
    println!("k {} iterations {}", f.k, f.iterations);
    for ((k, got), want) in EvalParams::KEYS.iter().zip(f.params.values()).zip(truth.values()) {
        println!("{k:22} {got:6} {want:6}");
    }
    assert!((f.k - 1.3).abs() < 0.03, "k {}", f.k);
    for ((k, got), want) in EvalParams::KEYS.iter().zip(f.params.values()).zip(truth.values()) {
        let tol = if k.starts_with("value.") { 12 } else { 2 };
        assert!((got - want).abs() <= tol, "{k}: fitted {got}, true {want}");
    }
    assert!(!f.fitted[EvalParams::KEYS.len() - 1], "mobility is not fitted unless asked");
    // Tolerance stated: K within 0.03, piece values within 12 cp, every other term within 2 cp.

    // A strong pull keeps the start's values (relative to the pawn), whatever the data say.
    let start = EvalParams::default();
    let held = fit(&data, &start, &FitOptions { ridge: 1e9, ..FitOptions::default() }).unwrap();
    for ((k, got), want) in EvalParams::KEYS.iter().zip(held.params.values()).zip(start.values()) {
        assert!((got - want).abs() <= 1, "{k}: {got} against the start's {want}");
    }

    // Kept terms stay at the start's values, the others still fit.
    let keep = vec!["mopup".to_owned(), "mopup_kings".to_owned()];
    let kept = fit(&data, &start, &FitOptions { ridge: 0.0, keep, ..FitOptions::default() }).unwrap();
    let at = |k: &str| EvalParams::KEYS.iter().position(|x| *x == k).unwrap();
    for k in ["mopup", "mopup_kings"] {
        assert!(!kept.fitted[at(k)], "{k} is kept");
        assert_eq!(kept.params.values()[at(k)], start.values()[at(k)], "{k}");
    }
    assert!(kept.fitted[at("passed")]);
    assert!((kept.params.values()[at("passed")] - truth.passed).abs() <= 3, "{:?}", kept.params);
}

#[test]
fn the_fit_is_deterministic_and_independent_of_threads() {
    let data = synthetic(60_000, &truth(), 1.0, 11);
    let one = fit(&data, &EvalParams::default(), &FitOptions { threads: 1, ..FitOptions::default() }).unwrap();
    let three = fit(&data, &EvalParams::default(), &FitOptions { threads: 3, ..FitOptions::default() }).unwrap();
    assert_eq!(one, three);
    assert_eq!(synthetic(1000, &truth(), 1.0, 11), synthetic(1000, &truth(), 1.0, 11));
    assert_ne!(synthetic(1000, &truth(), 1.0, 11), synthetic(1000, &truth(), 1.0, 12));
}
