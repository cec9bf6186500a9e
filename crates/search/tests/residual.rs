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

/// Which net `--eval default` plays when the rule set ships `shipped` and the engine's parameters
/// are `params`: the net's name, or `None` for the linear evaluation.
fn default_net(shipped: &[u8], params: &stackchess_search::EvalParams) -> Option<String> {
    use stackchess_search::EvalChoice;
    let rules = stackchess_variants::malka::rules();
    let net = EvalChoice::Default.net::<stackchess_variants::Malka>(rules, Some(shipped), "builtin:malka", params);
    net.unwrap().map(|n| n.path)
}

#[test]
fn a_shipped_residual_net_plays_only_with_the_parameters_it_corrects() {
    use stackchess_search::{EvalChoice, SearchConfig};
    type P = stackchess_variants::Malka;
    let rules = stackchess_variants::malka::rules();
    let preset = SearchConfig::preset(stackchess_variants::malka::EVAL_PARAMS).unwrap().eval;
    let mut tuned = preset.clone();
    tuned.set("value.queen", "600").unwrap();
    let bytes = |base: &str| {
        let mut net = FloatNet::random(12 * 64 * P::LEVELS, 8, 5).quantise(rules.id(), P::LEVELS, "test");
        base.clone_into(&mut net.base);
        net.to_bytes()
    };
    let (residual, plain) = (bytes(&preset.to_file()), bytes(""));
    let builtin = Some("builtin:malka".to_owned());
    assert_eq!(default_net(&residual, &preset), builtin, "the preset: the shipped net plays");
    assert_eq!(default_net(&residual, &tuned), None, "other parameters: the linear evaluation of them");
    assert_eq!(default_net(&plain, &tuned), builtin, "a plain net has no base to disagree with");
    let linear = EvalChoice::Linear.net::<P>(rules, Some(&residual), "builtin:malka", &preset).unwrap();
    assert!(linear.is_none());
}

struct Shipped(Variant);

impl WithPosition for Shipped {
    type Output = bool;
    fn call<P: Position>(self, rules: P::Rules) -> bool {
        let Some(bytes) = self.0.default_net() else { return false };
        let preset = stackchess_search::SearchConfig::preset(self.0.eval_params().unwrap()).unwrap().eval;
        let net = NetFile::from_bytes::<P>(rules, bytes, "shipped").unwrap_or_else(|e| panic!("{}: {e}", self.0));
        // A shipped residual net corrects exactly the preset, so `--eval default` plays it.
        assert!(net.base.as_deref().is_none_or(|b| *b == preset), "{}: the net's base is not the preset", self.0);
        let chosen = stackchess_search::EvalChoice::Default.net::<P>(rules, Some(bytes), "builtin", &preset);
        assert!(chosen.unwrap().is_some(), "{}", self.0);
        true
    }
}

#[test]
fn every_shipped_net_loads_and_is_what_the_default_plays() {
    let shipped: Vec<Variant> = Variant::ALL.into_iter().filter(|&v| v.with(Shipped(v))).collect();
    assert_eq!(shipped, [Variant::Malka, Variant::Traditional, Variant::Fide, Variant::AirAttack], "{shipped:?}");
}

/// A kept net (`data/nets/<variant>[-...].nnue`) of `.0`'s rule set, read as `--eval net:FILE` reads it.
struct Kept(Variant, std::path::PathBuf);

impl WithPosition for Kept {
    type Output = ();
    fn call<P: Position>(self, rules: P::Rules) {
        let net = NetFile::load::<P>(rules, &self.1).unwrap_or_else(|e| panic!("{}: {e}", self.1.display()));
        let preset = stackchess_search::SearchConfig::preset(self.0.eval_params().unwrap()).unwrap().eval;
        assert!(net.corrects(&preset), "{}: a residual net of another evaluation than the preset", self.1.display());
        assert!(net.net.about.contains("command: "), "{}: no training command in its header", self.1.display());
    }
}

#[test]
fn every_kept_net_loads_for_the_rule_set_its_name_gives_and_records_its_command() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../data/nets");
    let mut kept = Vec::new();
    for entry in std::fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        let Some(stem) =
            path.file_stem().and_then(|s| s.to_str()).filter(|_| path.extension().is_some_and(|e| e == "nnue"))
        else {
            continue;
        };
        let v = Variant::ALL.into_iter().filter(|v| stem.starts_with(v.name())).max_by_key(|v| v.name().len());
        let v = v.unwrap_or_else(|| panic!("{}: the name gives no rule set", path.display()));
        v.with(Kept(v, path.clone()));
        kept.push(stem.to_owned());
    }
    kept.sort();
    assert_eq!(
        kept,
        [
            "air-attack-gen2",
            "air-attack-gen3",
            "air-attack-gen4",
            "air-attack-gen5",
            "air-attack-gen6",
            "fide-gen1",
            "fide-gen2",
            "malka-gen1",
            "malka-gen2",
            "malka-gen3",
            "malka-gen4",
            "malka-gen5",
            "traditional-gen2",
            "traditional-gen3",
            "traditional-gen4",
            "traditional-gen5",
            "traditional-gen5-64",
            "traditional-gen6",
            "traditional-gen7",
            "traditional-gen8",
            "traditional-gen9"
        ]
    );
}
