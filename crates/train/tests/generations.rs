//! The generations loop: a finished generation is resumed without being played or trained again,
//! its data file holding more games than the first guess included, and the next one is added;
//! the first generation's data is played by the base engine's own net when it has one.

use stackchess_core::Rules as _;
use stackchess_datagen::{DataReader, Labels};
use stackchess_search::{Limits, NetFile, SearchConfig};
use stackchess_train::generations::{run, Settings};
use stackchess_train::Options;
use std::sync::atomic::AtomicBool;

struct Quiet;
impl stackchess_datagen::Hook for Quiet {}
impl stackchess_train::Hook for Quiet {}
impl stackchess_train::generations::Hook for Quiet {}

fn settings(generations: usize) -> Settings {
    Settings {
        generations,
        positions: 1500,
        data: stackchess_datagen::Settings {
            nodes: 100,
            per_game: 0,
            label_nodes: 0,
            seed: 3,
            threads: 2,
            ..Default::default()
        },
        train: Options { hidden: 8, epochs: 1, batch: 256, threads: 2, ..Options::default() },
        labels: Labels { lambda: 1.0, ..Labels::default() },
        holdout: 0.1,
        residual: true,
        gate_games: 2,
        gate_limits: Limits::nodes(200),
        gate_tc: None,
    }
}

type P = stackchess_variants::Fide;

/// A fide run in a fresh temporary directory named after `name`: its rules, directory, base
/// engine and halt flag.
fn fixture(name: &str) -> (<P as stackchess_core::Position>::Rules, std::path::PathBuf, SearchConfig, AtomicBool) {
    let dir = std::env::temp_dir().join(format!("stackchess-generations-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let base = SearchConfig::preset(stackchess_variants::traditional::FIDE_EVAL_PARAMS).unwrap();
    (stackchess_variants::traditional::fide_rules(), dir, base, AtomicBool::new(false))
}

#[test]
fn a_finished_generation_resumes_as_it_was_and_the_next_is_added() {
    let (rules, dir, base, halt) = fixture("resume");
    let first = run::<P>(rules, &base, &dir, &settings(1), "test", &halt, &mut Quiet).unwrap();
    assert_eq!(first.len(), 1);
    let (data, net) = (dir.join("gen-1/data.data"), dir.join("gen-1/net.nnue"));
    let reader = DataReader::open(&data).unwrap();
    assert!(reader.positions >= 1500, "{} positions", reader.positions);
    // Fewer positions a game than the loop's first guess (60): it played more games than that.
    assert!(reader.games > 1500u64.div_ceil(60), "{} games", reader.games);
    let made = |p: &std::path::Path| std::fs::metadata(p).unwrap().modified().unwrap();
    let before = (made(&data), made(&net), std::fs::read(&net).unwrap());
    let both = run::<P>(rules, &base, &dir, &settings(2), "test", &halt, &mut Quiet).unwrap();
    assert_eq!(both.len(), 2);
    // Generation 1 is gated again against the player it first met, with the same outcome (its
    // net won here, so a resume that took the current best would gate it against itself).
    assert!(first[0].adopted);
    let elo = |g: &stackchess_train::generations::Generation| g.gate.as_ref().map(|e| (e.elo, e.lower, e.upper));
    assert_eq!((both[0].adopted, elo(&both[0])), (first[0].adopted, elo(&first[0])));
    assert_eq!((made(&data), made(&net), std::fs::read(&net).unwrap()), before, "generation 1 was made again");
    assert!(
        dir.join("gen-2/net.nnue").exists()
            && DataReader::open(&dir.join("gen-2/data.data")).unwrap().positions >= 1500
    );
    // Each net is for these rules and a residual of the base's parameters.
    let n = NetFile::load::<P>(rules, &dir.join("gen-2/net.nnue")).unwrap();
    assert!(n.corrects(&base.eval) && n.net.rules_id == rules.id());
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn settings_that_cannot_train_are_refused_before_anything_is_played() {
    let (rules, dir, base, halt) = fixture("bad");
    for (train, named) in [
        (Options { hidden: 0, ..settings(1).train }, "hidden size 0"),
        (Options { hidden: 2000, ..settings(1).train }, "hidden size 2000"),
        (Options { epochs: 0, ..settings(1).train }, "epochs 0"),
        (Options { lr: f32::NAN, ..settings(1).train }, "learning rate NaN"),
    ] {
        let s = Settings { train, ..settings(1) };
        let e = run::<P>(rules, &base, &dir, &s, "test", &halt, &mut Quiet).unwrap_err().to_string();
        assert!(e.contains(named), "{e}");
        assert!(!dir.exists(), "{e}: the run began");
    }
}
