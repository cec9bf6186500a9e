//! The evaluation is a function of its trace: on random positions of every variant, with random
//! parameters (middlegame and endgame values apart, every optional term on, the drawish scale
//! below 64), the trace's score is the evaluation the search uses, to the centipawn; and the
//! trace's linear features give it up to the taper's rounding.

use stackchess_core::{Position, Rules, SplitMix64};
use stackchess_search::{term, EvalParams, Evaluation};
use stackchess_variants::{Variant, WithPosition};

mod common;
use common::without_pawns;

/// Parameters drawn at random within their ranges' middle, middlegame and endgame apart.
fn random_params(rng: &mut SplitMix64) -> EvalParams {
    let base = EvalParams::default().values();
    let mut values = base;
    for (i, v) in values.iter_mut().enumerate() {
        let key = EvalParams::KEYS[i];
        let spread: i32 = if key.starts_with("value.") { 150 } else { 15 };
        let (lo, hi) = EvalParams::range(i);
        *v = (base[i] + i32::try_from(rng.below(2 * spread as usize + 1)).unwrap() - spread).clamp(lo, hi);
    }
    let mut p = EvalParams::from_values(&values);
    p.mg[term::VALUE + 3] = p.mg[term::VALUE + 3].max(200);
    p.scale_drawish = i32::try_from(rng.below(64)).unwrap();
    p.mobility = 3;
    p
}

struct Check {
    variant: Variant,
    seed: u64,
}

impl WithPosition for Check {
    type Output = (usize, usize);
    fn call<P: Position>(self, rules: P::Rules) -> (usize, usize) {
        let preset = stackchess_search::SearchConfig::preset(self.variant.eval_params().unwrap()).unwrap().eval;
        let (mut checked, mut drawish) = (0, 0);
        for game in 0..40u64 {
            let mut rng = SplitMix64::for_item(self.seed, game);
            let random = random_params(&mut rng);
            for p in [&random, &preset] {
                let e = Evaluation::new::<P>(rules, p);
                let mut pos = rules.startpos();
                for _ in 0..200 {
                    if pos.outcome().is_some() {
                        break;
                    }
                    let pawnless = rules.from_lfen(&without_pawns(&pos.to_lfen())).ok();
                    for q in std::iter::once(&pos).chain(pawnless.as_ref()) {
                        let trace = e.trace(q);
                        let score = e.score(q);
                        assert_eq!(trace.score(p), score, "{}", q.to_lfen());
                        // The features: White's evaluation before the taper's rounding (under
                        // 2 cp) and without the drawish scale.
                        if !trace.drawish {
                            let linear: f64 =
                                trace.features().iter().zip(p.values()).map(|(f, v)| f * f64::from(v)).sum();
                            let white = if q.turn() == stackchess_core::Color::White { score } else { -score };
                            assert!((f64::from(white) - linear).abs() < 2.0, "{}: {white} vs {linear:.2}", q.to_lfen());
                        }
                        drawish += usize::from(trace.drawish);
                        checked += 1;
                    }
                    let moves = pos.moves();
                    pos.play_unchecked(moves[rng.below(moves.len())]);
                }
            }
        }
        (checked, drawish)
    }
}

#[test]
fn the_trace_gives_the_evaluation_to_the_centipawn() {
    for (i, v) in Variant::ALL.into_iter().enumerate() {
        let (n, drawish) = v.with(Check { variant: v, seed: 9 + i as u64 });
        assert!(n > 4000, "{v}: only {n} positions");
        assert!(drawish > 0, "{v}: the drawish scale never applied");
    }
}

#[test]
fn the_optional_terms_count_what_they_say() {
    // fide: White's rook on the open e-file, a knight on d5 attacking the king's cells next to
    // e7, a doubled pair on c2/c3 that is also isolated, two pawns sheltering the king on g1.
    let rules = stackchess_variants::traditional::fide_rules();
    let pos = rules.from_lfen("4r1k1/4pppp/8/3N4/8/2P5/2P2PP1/4R1K1 w - - 0 1").unwrap();
    let tr = Evaluation::new::<stackchess_variants::Fide>(rules, &EvalParams::default()).trace(&pos);
    let (w, b) = (&tr.counts[0], &tr.counts[1]);
    assert_eq!((w[term::DOUBLED], w[term::ISOLATED]), (1, 2));
    assert_eq!((b[term::DOUBLED], b[term::ISOLATED]), (0, 0));
    // The e-file has Black's e7 pawn: half-open for White's rook, and Black's rook has its own pawn.
    assert_eq!((w[term::ROOK_OPEN], w[term::ROOK_SEMIOPEN]), (0, 1));
    assert_eq!((b[term::ROOK_OPEN], b[term::ROOK_SEMIOPEN]), (0, 0));
    assert_eq!(w[term::SHELTER], 2);
    assert_eq!(b[term::SHELTER], 3);
    // The knight on d5 attacks none of the cells of the king on g8 (f7 f8 g7 g8 h7 h8).
    assert_eq!(w[term::KING_ATTACK], 0);
    // Knight mobility: d5 attacks b4 b6 c3 c7 e3 e7 f4 f6; c3 holds our pawn and black pawns
    // guard f6; e7 (a capture) counts.
    assert_eq!(w[term::MOBILITY], 6);
}
