//! The evaluation is linear in its parameters: on random positions of every variant, the trace's
//! coefficients dotted with the parameter vector give the evaluation, up to the stated rounding.

use stackchess_core::{Position, Rules, SplitMix64};
use stackchess_search::{EvalParams, Evaluation};
use stackchess_variants::{Variant, WithPosition};

/// Parameters drawn at random around the defaults; centralisation weights even (so that no
/// cell's centralisation is rounded) and mobility on.
fn random_params(rng: &mut SplitMix64) -> EvalParams {
    let base = EvalParams::default().values();
    let keys = EvalParams::KEYS;
    let values = std::array::from_fn(|i| {
        let spread: i32 = if keys[i].starts_with("value.") { 200 } else { 20 };
        let v = base[i] + i32::try_from(rng.below(2 * spread as usize + 1)).unwrap() - spread;
        let even = keys[i].starts_with("center") || keys[i].starts_with("king_center");
        if even {
            v & !1
        } else {
            v
        }
    });
    let mut p = EvalParams::from_values(&values);
    p.value[3] = p.value[3].max(200);
    p.mobility = 3;
    p
}

fn dot(coefs: &[f64; EvalParams::COUNT], p: &EvalParams) -> f64 {
    coefs.iter().zip(p.values()).map(|(c, v)| c * f64::from(v)).sum()
}

struct Check {
    variant: Variant,
    seed: u64,
}

impl WithPosition for Check {
    type Output = usize;
    fn call<P: Position>(self, rules: P::Rules) -> usize {
        let preset = EvalParams::parse(self.variant.eval_params().unwrap()).unwrap();
        let mut checked = 0;
        for game in 0..40u64 {
            let mut rng = SplitMix64::for_item(self.seed, game);
            let random = random_params(&mut rng);
            let (exact, rounded) = (Evaluation::new::<P>(rules, &random), Evaluation::new::<P>(rules, &preset));
            let mut pos = rules.startpos();
            for _ in 0..160 {
                if pos.outcome().is_some() {
                    break;
                }
                let (score, d) = (exact.score(&pos), dot(&exact.trace(&pos), &random));
                assert!((f64::from(score) - d).abs() < 2.0, "{}: {score} vs {d:.2}", pos.to_lfen());
                // With odd centralisation weights each piece's centralisation is rounded too.
                let mut pieces = 0;
                pos.for_each_piece(|_, _| pieces += 1);
                let (score, d) = (rounded.score(&pos), dot(&rounded.trace(&pos), &preset));
                let bound = 2.0 + 0.5 * f64::from(pieces);
                assert!((f64::from(score) - d).abs() < bound, "preset, {}: {score} vs {d:.2}", pos.to_lfen());
                checked += 1;
                let moves = pos.moves();
                pos.play_unchecked(moves[rng.below(moves.len())]);
            }
        }
        checked
    }
}

#[test]
fn the_trace_dotted_with_the_parameters_is_the_evaluation() {
    for (i, v) in Variant::ALL.into_iter().enumerate() {
        let n = v.with(Check { variant: v, seed: 9 + i as u64 });
        assert!(n > 2000, "{v}: only {n} positions");
    }
}

#[test]
fn a_parameter_moves_the_evaluation_by_its_coefficient() {
    // Raising one parameter by 10 moves the score by 10 times its coefficient (checked where the
    // term does not switch on by material, and with even weights so nothing is rounded).
    let rules = stackchess_variants::malka::rules();
    let pos = rules
        .from_lfen("8/8/8/8/3P4/8/PP3PPP/R1B1KB2|8/8/2p5/3n4/8/1N1N4/3Q4/8|r1bqkb1r/pp1ppppp/8/8/8/7R/8/8 w Qkq - 8 6")
        .unwrap();
    let base = EvalParams {
        center: [4, 6, 4, 2, 6],
        center_level: [6, 4, 2, 6],
        king_center_level: 6,
        ..EvalParams::default()
    };
    let coefs = Evaluation::new::<stackchess_variants::Malka>(rules, &base).trace(&pos);
    let s0 = Evaluation::new::<stackchess_variants::Malka>(rules, &base).score(&pos);
    for (i, key) in EvalParams::KEYS.iter().enumerate() {
        if key.starts_with("mopup") || *key == "value.rook" {
            continue;
        }
        let mut values = base.values();
        values[i] += 24;
        let s1 = Evaluation::new::<stackchess_variants::Malka>(rules, &EvalParams::from_values(&values)).score(&pos);
        let want = 24.0 * coefs[i];
        assert!((f64::from(s1 - s0) - want).abs() < 2.0, "{key}: moved {} for coefficient {}", s1 - s0, coefs[i]);
    }
}
