//! `search.net_endgame`: with a net, a position without pawns is scored by the linear evaluation
//! alone (a residual net's base, else the engine's parameters), and every other position by the
//! net as before; with the switch off the net scores everything. Random positions of every
//! built-in, from its start with and without the pawns.

use stackchess_core::{Position, Rules, SplitMix64};
use stackchess_nnue::FloatNet;
use stackchess_search::{Engine, Evaluation, NetFile, SearchConfig};
use stackchess_variants::{Variant, WithPosition};

mod common;
use common::without_pawns;

struct Check(Variant);

impl WithPosition for Check {
    type Output = (usize, usize);
    fn call<P: Position>(self, rules: P::Rules) -> (usize, usize) {
        let config = SearchConfig::preset(self.0.eval_params().unwrap()).unwrap();
        assert!(config.switches.net_endgame, "on in the full engine");
        let linear = Evaluation::new::<P>(rules, &config.eval);
        let mut base = config.eval.clone();
        base.mg[0] += 37;
        let base_eval = Evaluation::new::<P>(rules, &base);
        let float = FloatNet::random(12 * 64 * P::LEVELS, 16, 5);
        let load = |base: &str| {
            let mut net = float.quantise(rules.id(), P::LEVELS, "test");
            base.clone_into(&mut net.base);
            NetFile::from_bytes::<P>(rules, &net.to_bytes(), "test").unwrap()
        };
        let (plain, residual) = (load(""), load(&base.to_file()));
        let engine = |net: &NetFile, on: bool| {
            let mut c = SearchConfig { net: Some(net.clone()), ..config.clone() };
            c.switches.net_endgame = on;
            Engine::<P>::new(rules, c)
        };
        let (plain_on, plain_off) = (engine(&plain, true), engine(&plain, false));
        let (res_on, res_off) = (engine(&residual, true), engine(&residual, false));
        let start = rules.startpos();
        let pawnless_start = rules.from_lfen(&without_pawns(&start.to_lfen())).unwrap();
        let (mut pawnless, mut with_pawns) = (0, 0);
        for (k, from) in [start, pawnless_start].into_iter().enumerate() {
            for game in 0..6u64 {
                let mut rng = SplitMix64::for_item(23 + k as u64, game);
                let mut pos = from.clone();
                for _ in 0..60 {
                    if pos.outcome().is_some() {
                        break;
                    }
                    let at = pos.to_lfen();
                    let (net, res) = (plain.score(rules, &pos), residual.score(rules, &pos));
                    assert_eq!(plain_off.evaluate(&pos), net, "{at}");
                    assert_eq!(res_off.evaluate(&pos), res, "{at}");
                    let no_pawns = !at.split(' ').next().unwrap().contains(['p', 'P']);
                    if no_pawns {
                        assert_eq!(plain_on.evaluate(&pos), linear.score(&pos), "{at}");
                        assert_eq!(res_on.evaluate(&pos), base_eval.score(&pos), "{at}");
                        pawnless += 1;
                    } else {
                        assert_eq!(plain_on.evaluate(&pos), net, "{at}");
                        assert_eq!(res_on.evaluate(&pos), res, "{at}");
                        with_pawns += 1;
                    }
                    let moves = pos.moves();
                    pos.play_unchecked(moves[rng.below(moves.len())]);
                }
            }
        }
        (pawnless, with_pawns)
    }
}

#[test]
fn positions_without_pawns_are_the_linear_evaluations() {
    for v in Variant::ALL {
        let (pawnless, with_pawns) = v.with(Check(v));
        assert!(pawnless > 200 && with_pawns > 200, "{v}: {pawnless} without pawns, {with_pawns} with");
    }
}
