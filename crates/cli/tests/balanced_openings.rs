//! `balance` plays balanced openings by default: a suite of random openings a search scored
//! within the bound, made once per rule set and kept in DIR/openings/, named in the report, and
//! every game replays from the start through its opening.

use assert_cmd::Command;
use stackchess_selfplay::read_records;
use std::path::{Path, PathBuf};

fn tmp(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("stackchess-balanced-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    d
}

fn balance(dir: &Path, extra: &[&str]) -> std::process::Output {
    let games = if extra.contains(&"--games") { &[][..] } else { &["--games", "6"][..] };
    Command::cargo_bin("stackchess")
        .unwrap()
        .args(["balance", "--variants", "fide", "--nodes", "40", "--max-plies", "30"])
        .args(games)
        .args(["--no-pieces", "--no-plies", "-q", "--dir"])
        .arg(dir)
        .args(extra)
        .output()
        .unwrap()
}

/// The one cached suite file under DIR/openings/.
fn suite_file(dir: &Path) -> PathBuf {
    let files: Vec<PathBuf> = std::fs::read_dir(dir.join("openings")).unwrap().flatten().map(|e| e.path()).collect();
    assert_eq!(files.len(), 1, "{files:?}");
    files[0].clone()
}

#[test]
fn the_default_openings_are_a_cached_balanced_suite_named_in_the_report() {
    let dir = tmp("default");
    let out = balance(&dir, &["--openings", "balanced:4:60:300"]);
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    assert!(out.status.success(), "{stderr}");
    assert!(stderr.contains("openings of fide: balanced:4:60:300 (3 openings of 4 random plies"), "{stderr}");
    let file = suite_file(&dir);
    let name = file.file_name().unwrap().to_string_lossy().into_owned();
    assert!(name.starts_with("fide-") && name.contains("-balanced-4-60-300-seed1-"), "{name}");
    let cached = std::fs::read_to_string(&file).unwrap();
    let lines: Vec<&str> = cached.lines().filter(|l| !l.starts_with('#')).collect();
    assert_eq!(lines.len(), 3, "{cached}");
    assert!(lines.iter().all(|l| l.split_whitespace().count() == 4), "{cached}");
    let report = std::fs::read_to_string(dir.join("report.html")).unwrap();
    assert!(report.contains("Openings of fide: balanced:4:60:300"), "the report names the suite");
    // Every game starts from the start position through four plies (the swapped game through
    // the mirrored ones, when its opening has them), and the first game of each pair through
    // the suite's line.
    let games = read_records(&dir.join("fide").join("games.csv")).unwrap();
    assert_eq!(games.len(), 6);
    for g in games.iter().filter(|g| g.index % 2 == 0) {
        assert_eq!(g.opening_moves.split_whitespace().count(), 4, "{}", g.game_id);
        assert!(lines.contains(&g.opening_moves.as_str()), "{} is not a suite line", g.opening_moves);
    }
    // Again, with more games: the suite is read back and extended, its first lines kept.
    let more = balance(&dir, &["--openings", "balanced:4:60:300", "--games", "10"]);
    assert!(more.status.success(), "{}", String::from_utf8_lossy(&more.stderr));
    let extended = std::fs::read_to_string(suite_file(&dir)).unwrap();
    let longer: Vec<&str> = extended.lines().filter(|l| !l.starts_with('#')).collect();
    assert_eq!(longer.len(), 5);
    assert_eq!(&longer[..3], &lines[..], "a longer suite begins with the shorter one");
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn a_damaged_suite_file_is_named_and_bad_specs_are_refused() {
    let dir = tmp("damaged");
    assert!(balance(&dir, &["--openings", "balanced:2:200:100"]).status.success());
    let file = suite_file(&dir);
    std::fs::write(&file, "# tried 3\n1e2e4 zz9\n").unwrap();
    let out = balance(&dir, &["--openings", "balanced:2:200:100"]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success());
    assert!(stderr.contains(&file.display().to_string()) && stderr.contains("line 2"), "{stderr}");
    for (spec, message) in [
        ("balanced:x", "'x' is not a whole number"),
        ("balanced:0", "plies and nodes must be at least 1"),
        ("balanced:1:2:3:4", "give balanced[:PLIES[:MAX_CP[:NODES]]]"),
    ] {
        let out = balance(&tmp("bad-spec"), &["--openings", spec]);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(!out.status.success() && stderr.contains(message), "{spec}: {stderr}");
    }
    let _ = std::fs::remove_dir_all(tmp("bad-spec"));
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn selfplay_takes_a_balanced_suite_on_request() {
    let dir = tmp("selfplay");
    let out = Command::cargo_bin("stackchess")
        .unwrap()
        .args(["selfplay", "-v", "fide", "--games", "4", "--paired", "--nodes", "40", "--max-plies", "20", "-q"])
        .args(["--openings", "balanced:2:300:100", "--out"])
        .arg(&dir)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let games = read_records(&dir.join("games.csv")).unwrap();
    assert_eq!(games.len(), 4);
    assert!(games.iter().all(|g| g.opening_moves.split_whitespace().count() == 2), "{games:?}");
    assert!(!dir.join("openings").exists(), "selfplay keeps no suite cache in its run directory");
    std::fs::remove_dir_all(dir).unwrap();
}
