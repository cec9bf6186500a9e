//! A tournament end to end on `fide` with tiny budgets: every pairing played in its directory,
//! the tables written, a second invocation resuming with nothing to play, a stop honoured
//! between pairings, and bad settings refused by name.

use stackchess_core::Rules as _;
use stackchess_search::{EvalParams, Limits, SearchConfig};
use stackchess_selfplay::tournament::{Format, Tournament, TournamentError};
use stackchess_selfplay::{EngineSpec, NoProgress, Openings};
use stackchess_traditional::{fide_rules, Fide};
use std::path::PathBuf;
use std::sync::atomic::AtomicBool;

fn tmp(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("stackchess-tournament-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    d
}

fn engine(label: &str, nodes: u64) -> EngineSpec {
    EngineSpec::builtin(
        label,
        SearchConfig { hash_mb: 1, ..SearchConfig::full(EvalParams::default()) },
        Limits::nodes(nodes),
    )
}

fn three(format: Format) -> Tournament {
    Tournament {
        format,
        engines: vec![engine("a", 40), engine("b", 80), engine("c", 160)],
        games_per_pair: 2,
        openings: Openings::parse::<Fide>(fide_rules(), "random:4").unwrap(),
        seed: 3,
        threads: 1,
        max_plies: Some(40),
        anchor: Some("a".into()),
        prior_draws: 1,
    }
}

#[test]
fn a_round_robin_plays_every_pairing_writes_its_tables_and_resumes() {
    let dir = tmp("round-robin");
    let t = three(Format::RoundRobin);
    let stop = AtomicBool::new(false);
    let played = t.play::<Fide>(fide_rules(), &dir, &stop, &mut NoProgress).unwrap();
    assert_eq!(played.interrupted, None);
    let names: Vec<(&str, &str)> = played.pairs.iter().map(|p| (p.a.as_str(), p.b.as_str())).collect();
    assert_eq!(names, [("a", "b"), ("a", "c"), ("b", "c")]);
    assert_eq!((played.played, played.total), (6, 6));
    for p in &played.pairs {
        assert_eq!(p.tally.games, 2);
        assert!(p.dir.join("games.csv").is_file(), "{}", p.dir.display());
    }
    let standings = t.standings(&dir, fide_rules().name(), &played).unwrap();
    assert_eq!(standings.pairs.len(), 3);
    assert_eq!(standings.ratings.len(), 3);
    let a = standings.ratings.iter().find(|r| r.engine == "a").unwrap();
    assert!(a.elo.abs() < 1e-9, "the anchor is at 0: {a:?}");
    assert_eq!(standings.ratings.iter().map(|r| r.games).sum::<u64>(), 12, "each game counted for both engines");
    for f in ["pairs.csv", "ratings.csv", "tournament.json"] {
        assert!(dir.join(f).is_file(), "{f}");
    }
    let text = t.table_lines(&standings.ratings).join("\n");
    assert!(text.contains("a at 0") && text.contains("1 virtual draws per pairing"), "{text}");
    // Again: every game is there, nothing is played, the tallies are the same.
    let again = t.play::<Fide>(fide_rules(), &dir, &stop, &mut NoProgress).unwrap();
    assert_eq!((again.played, again.total), (0, 6));
    for (x, y) in played.pairs.iter().zip(&again.pairs) {
        assert_eq!((x.tally.first, x.tally.penta), (y.tally.first, y.tally.penta));
    }
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn a_gauntlet_pairs_the_first_engine_and_a_stop_ends_it_between_pairings() {
    let dir = tmp("gauntlet");
    let t = three(Format::Gauntlet);
    let stop = AtomicBool::new(true);
    let played = t.play::<Fide>(fide_rules(), &dir, &stop, &mut NoProgress).unwrap();
    assert_eq!(played.interrupted, Some(("a".into(), "b".into())), "stopped before the first pairing");
    assert!(played.pairs.is_empty());
    assert_eq!(t.pairings(), [(0, 1), (0, 2)]);
    assert_eq!(t.games(), 4);
    std::fs::remove_dir_all(dir).unwrap();
}

/// A change to a good tournament's settings.
type Change = fn(&mut Tournament);

#[test]
fn bad_settings_are_refused_by_name() {
    let dir = tmp("refused");
    let stop = AtomicBool::new(false);
    let cases: [(Change, &str); 4] = [
        (|t| t.engines.truncate(2), "three or more engines"),
        (|t| t.engines[2].label = "a".into(), "two engines are named 'a'"),
        (|t| t.games_per_pair = 3, "--games-per-pair 3"),
        (|t| t.anchor = Some("z".into()), "--anchor z: no engine of that name (engines: a, b, c)"),
    ];
    for (change, message) in cases {
        let mut t = three(Format::RoundRobin);
        change(&mut t);
        let e = t.play::<Fide>(fide_rules(), &dir, &stop, &mut NoProgress).unwrap_err();
        assert!(matches!(e, TournamentError::Settings(_)), "{e}");
        assert!(e.to_string().contains(message), "{e}");
    }
    assert!(!dir.exists(), "nothing written for settings refused");
}
