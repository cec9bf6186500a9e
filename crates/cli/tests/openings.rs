//! Openings from PGN files: a run's own `games.pgn` read back as openings reaches the same
//! positions (fide SAN, 3D SAN, `[FEN]` starts), `--opening-plies K` cuts each game,
//! `--openings-order random` shuffles by the seed, and bad PGN is an error naming the game and move.

use assert_cmd::Command;
use stackchess_selfplay::{read_records, GameRecord};
use std::path::{Path, PathBuf};

fn tmp(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("stackchess-openings-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

fn bin() -> Command {
    Command::new(assert_cmd::cargo::cargo_bin("stackchess"))
}

/// Plays `games` games of `variant` into `out` with these openings flags.
fn selfplay(variant: &str, out: &Path, games: &str, openings: &[&str]) -> Vec<GameRecord> {
    bin()
        .args(["selfplay", "-v", variant, "--games", games, "--nodes", "60", "--max-plies", "12", "-q"])
        // One thread: games.pgn in game order.
        .args(["--threads", "1"])
        .args(openings)
        .arg("--out")
        .arg(out)
        .assert()
        .success();
    let mut records = read_records(&out.join("games.csv")).unwrap();
    records.sort_by_key(|r| r.index);
    records
}

fn starts(records: &[GameRecord]) -> Vec<String> {
    records.iter().map(|r| r.start_lfen.clone()).collect()
}

fn pgn(dir: &Path) -> String {
    dir.join("games.pgn").display().to_string()
}

#[test]
fn our_pgn_cut_after_the_random_plies_gives_the_same_openings() {
    for variant in ["fide", "malka"] {
        let root = tmp(&format!("cut-{variant}"));
        let first = selfplay(variant, &root.join("a"), "5", &["--openings", "random:6"]);
        let again =
            selfplay(variant, &root.join("b"), "5", &["--openings", &pgn(&root.join("a")), "--opening-plies", "6"]);
        assert_eq!(starts(&again), starts(&first), "{variant}");
        // The plies from the start position come along.
        let moves = |r: &[GameRecord]| r.iter().map(|g| g.opening_moves.clone()).collect::<Vec<_>>();
        assert_eq!(moves(&again), moves(&first), "{variant}");
        assert!(first.iter().all(|g| g.opening_moves.split_whitespace().count() == 6));
        std::fs::remove_dir_all(root).unwrap();
    }
}

#[test]
fn whole_games_and_fen_starts_read_back() {
    let root = tmp("whole");
    // EPD openings: the games carry [SetUp] and [FEN] tags.
    let epd = root.join("o.epd");
    std::fs::write(
        &epd,
        "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - id \"e4\";\n\
         rnbqkbnr/pppppppp/8/8/3P4/8/PPP1PPPP/RNBQKBNR b KQkq - ce 10;\n",
    )
    .unwrap();
    let first = selfplay("fide", &root.join("a"), "2", &["--openings", epd.to_str().unwrap()]);
    let text = std::fs::read_to_string(root.join("a/games.pgn")).unwrap();
    assert!(text.contains("[SetUp \"1\"]") && text.contains("[FEN \""));
    // Cut at 0 plies: the recorded starts; uncut: where each game ended.
    let zero = selfplay("fide", &root.join("b"), "2", &["--openings", &pgn(&root.join("a")), "--opening-plies", "0"]);
    assert_eq!(starts(&zero), starts(&first));
    let whole = selfplay("fide", &root.join("c"), "2", &["--openings", &pgn(&root.join("a"))]);
    for (w, g) in whole.iter().zip(&first) {
        let out = bin()
            .args(["apply", "-v", "fide", "--lfen", &g.start_lfen])
            .args(g.moves.split_whitespace())
            .assert()
            .success();
        let end = String::from_utf8_lossy(&out.get_output().stdout).trim().to_owned();
        assert_eq!(w.start_lfen, end);
    }
    std::fs::remove_dir_all(root).unwrap();
}

#[test]
fn random_order_is_a_seeded_shuffle() {
    let root = tmp("order");
    let first = selfplay("fide", &root.join("a"), "8", &["--openings", "random:4", "--seed", "3"]);
    let suite = pgn(&root.join("a"));
    let flags = |seed: &'static str, order: &'static str| {
        vec![
            "--openings".to_owned(),
            suite.clone(),
            "--opening-plies".into(),
            "4".into(),
            "--seed".into(),
            seed.into(),
            "--openings-order".into(),
            order.into(),
        ]
    };
    let run = |dir: &str, f: Vec<String>| {
        let f: Vec<&str> = f.iter().map(String::as_str).collect();
        starts(&selfplay("fide", &root.join(dir), "8", &f))
    };
    let sequential = run("s", flags("3", "sequential"));
    let shuffled = run("r1", flags("3", "random"));
    let again = run("r2", flags("3", "random"));
    let other_seed = run("r3", flags("4", "random"));
    assert_eq!(sequential, starts(&first));
    assert_eq!(shuffled, again, "the same seed gives the same order");
    assert_ne!(shuffled, sequential);
    assert_ne!(shuffled, other_seed);
    let (mut a, mut b) = (shuffled.clone(), sequential.clone());
    a.sort();
    b.sort();
    assert_eq!(a, b, "a shuffle plays the same openings");
    std::fs::remove_dir_all(root).unwrap();
}

#[test]
fn bad_pgn_and_misused_flags_are_named() {
    let root = tmp("bad");
    let f = root.join("bad.pgn");
    std::fs::write(&f, "[Event \"x\"]\n\n1. e4 e5 *\n\n[Event \"y\"]\n\n1. d4 d5\n2. Nf3 Qd6d5 *\n").unwrap();
    let fails = |args: &[&str]| {
        let out = bin()
            .args(["selfplay", "-v", "fide", "--games", "2", "--nodes", "50", "-q"])
            .args(args)
            .arg("--out")
            .arg(root.join("out"))
            .assert()
            .failure();
        String::from_utf8_lossy(&out.get_output().stderr).into_owned()
    };
    let e = fails(&["--openings", f.to_str().unwrap()]);
    assert!(e.contains("bad.pgn, game 2 (line 5): move 2 'Qd6d5' (line 8)") && !e.contains("panicked"), "{e}");
    let e = fails(&["--openings", "random:4", "--opening-plies", "2"]);
    assert!(e.contains("a limit of opening plies applies to PGN files"), "{e}");
    let e = fails(&["--openings", "random:4", "--openings-order", "random"]);
    assert!(e.contains("--openings-order random applies to openings from a file"), "{e}");
    std::fs::write(&f, "1. e4 {unclosed\n").unwrap();
    let e = fails(&["--openings", f.to_str().unwrap()]);
    assert!(e.contains("bad.pgn, line 1: a comment"), "{e}");
    assert!(!root.join("out").exists());
    std::fs::remove_dir_all(root).unwrap();
}
