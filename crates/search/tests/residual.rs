//! A residual net's evaluation is its base's linear evaluation plus the net's own output: with the
//! output layer zeroed it is the base exactly, and otherwise the plain net's score plus the base's,
//! on random positions of every built-in. A base that is not a parameter file is refused.

use stackchess_core::{Position, Rules, SplitMix64};
use stackchess_nnue::FloatNet;
use stackchess_search::{Evaluation, NetFile};
use stackchess_variants::{Variant, WithPosition};

struct Check(Variant);

impl WithPosition for Check {
    type Output = usize;
    fn call<P: Position>(self, rules: P::Rules) -> usize {
        let preset = stackchess_search::SearchConfig::preset(self.0.eval_params().unwrap()).unwrap().eval;
        let linear = Evaluation::new::<P>(rules, &preset);
        let float = FloatNet::random(12 * 64 * P::LEVELS, 16, 3);
        let mut silent = float.clone();
        silent.w2.fill(0.0);
        let load = |f: &FloatNet, base: &str| {
            let mut net = f.quantise(rules.id(), P::LEVELS, "test");
            base.clone_into(&mut net.base);
            NetFile::from_bytes::<P>(rules, &net.to_bytes(), "test").unwrap()
        };
        let (plain, residual, zero) =
            (load(&float, ""), load(&float, &preset.to_file()), load(&silent, &preset.to_file()));
        assert!(plain.base.is_none() && residual.base.is_some());
        let mut checked = 0;
        for game in 0..8u64 {
            let mut rng = SplitMix64::for_item(17, game);
            let mut pos = rules.startpos();
            for _ in 0..120 {
                if pos.outcome().is_some() {
                    break;
                }
                let base = linear.score(&pos);
                assert_eq!(zero.score(rules, &pos), base, "{}", pos.to_lfen());
                assert_eq!(residual.score(rules, &pos), plain.score(rules, &pos) + base, "{}", pos.to_lfen());
                checked += 1;
                let moves = pos.moves();
                pos.play_unchecked(moves[rng.below(moves.len())]);
            }
        }
        // A base that does not parse is refused, naming the net.
        let mut net = float.quantise(rules.id(), P::LEVELS, "test");
        "value.pawn = lots".clone_into(&mut net.base);
        let e = NetFile::from_bytes::<P>(rules, &net.to_bytes(), "bad.nnue").unwrap_err().to_string();
        assert!(e.contains("bad.nnue") && e.contains("base parameters"), "{e}");
        checked
    }
}

#[test]
fn a_residual_net_adds_its_base_evaluation() {
    for v in Variant::ALL {
        let n = v.with(Check(v));
        assert!(n > 300, "{v}: only {n} positions");
    }
}
