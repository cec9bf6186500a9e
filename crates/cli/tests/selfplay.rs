//! `stackchess selfplay` and `match` as a user runs them: Ctrl-C (SIGINT) then `--resume` gives the
//! same games as an uninterrupted run; a match reports score, Elo and pentanomial counts.

use assert_cmd::Command;
use stackchess_selfplay::{read_records, GameRecord};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

fn tmp(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("stackchess-cli-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    d
}

const RUN: [&str; 12] =
    ["selfplay", "--variant", "fide", "--games", "60", "--nodes", "300", "--max-plies", "60", "--seed", "5", "-q"];

fn records(dir: &Path) -> BTreeMap<u64, GameRecord> {
    read_records(&dir.join("games.csv")).unwrap().into_iter().map(|r| (r.index, r.without_timing())).collect()
}

#[test]
fn sigint_then_resume_equals_an_uninterrupted_run() {
    let (cut, whole) = (tmp("cut"), tmp("whole"));
    let bin = assert_cmd::cargo::cargo_bin("stackchess");
    let child = std::process::Command::new(&bin)
        .args(RUN)
        .args(["--threads", "2", "--out"])
        .arg(&cut)
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    // Wait for the first finished game, then interrupt as Ctrl-C would.
    let started = Instant::now();
    while std::fs::read_to_string(cut.join("games.csv")).map_or(0, |t| t.lines().count()) < 2 {
        assert!(started.elapsed() < Duration::from_mins(1), "no game finished");
        std::thread::sleep(Duration::from_millis(5));
    }
    let kill = std::process::Command::new("kill").args(["-INT", &child.id().to_string()]).status().unwrap();
    assert!(kill.success());
    let out = child.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(stderr.contains("interrupted") && stderr.contains("--resume"), "{stderr}");
    let partial = records(&cut);
    assert!(!partial.is_empty() && partial.len() < 60, "{} games before the interrupt", partial.len());

    Command::new(&bin).args(RUN).args(["--threads", "2", "--resume", "--out"]).arg(&cut).assert().success();
    Command::new(&bin).args(RUN).args(["--threads", "1", "--out"]).arg(&whole).assert().success();
    let (a, b) = (records(&cut), records(&whole));
    assert_eq!(a.len(), 60);
    assert_eq!(a, b);
    for (i, g) in &partial {
        assert_eq!(&a[i], g);
    }
    // A second run into the same directory without --resume is refused.
    let refused = Command::new(&bin).args(RUN).arg("--out").arg(&whole).assert().failure();
    assert!(String::from_utf8_lossy(&refused.get_output().stderr).contains("not empty"));
    std::fs::remove_dir_all(cut).unwrap();
    std::fs::remove_dir_all(whole).unwrap();
}

#[test]
fn match_reports_score_elo_and_pairs() {
    let dir = tmp("match");
    let out = Command::new(assert_cmd::cargo::cargo_bin("stackchess"))
        .args(["match", "--variant", "fide", "--games", "4", "--paired", "--nodes", "300", "--max-plies", "40"])
        .args(["--engine-b", "--plain --nodes 200", "--sprt", "0,10,0.05,0.05", "-q", "--out"])
        .arg(&dir)
        .assert()
        .success();
    let text = String::from_utf8_lossy(&out.get_output().stdout).to_string();
    assert!(text.contains("Score of A vs B: "), "{text}");
    assert!(text.contains("Elo difference: "), "{text}");
    assert!(text.contains("Ptnml(0-2): [") && text.contains("(2 complete pairs)"), "{text}");
    assert!(text.contains("SPRT (normalized): llr "), "{text}");
    assert!(text.contains("B: nodes=200 hash=0"), "{text}");
    let games = records(&dir);
    assert_eq!(games.len(), 4);
    assert!(games.values().all(|g| g.settings.contains("| B: nodes=200")));
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn shards_on_two_machines_merge_into_the_whole_run() {
    let root = tmp("shards");
    let bin = assert_cmd::cargo::cargo_bin("stackchess");
    let run = ["selfplay", "-v", "fide", "--games", "8", "--paired", "--nodes", "200", "--max-plies", "40", "-q"];
    for i in 0..2 {
        let out = Command::new(&bin)
            .args(run)
            .args(["--shard", &format!("{i}/2"), "--out"])
            .arg(root.join(format!("s{i}")))
            .assert()
            .success();
        let text = String::from_utf8_lossy(&out.get_output().stdout).to_string();
        assert!(text.contains(&format!("(shard {i}/2)")) && text.contains("4 of 4 games recorded"), "{text}");
    }
    Command::new(&bin).args(run).arg("--out").arg(root.join("whole")).assert().success();
    let out = Command::new(&bin)
        .args(["merge", "--out"])
        .arg(root.join("merged"))
        .arg(root.join("s1"))
        .arg(root.join("s0"))
        .assert()
        .success();
    let text = String::from_utf8_lossy(&out.get_output().stdout).to_string();
    assert!(text.contains("shards 1/2, 0/2") && text.contains("8 of 8 games"), "{text}");
    assert_eq!(records(&root.join("merged")), records(&root.join("whole")));

    // Bad shard flags and a merge of nothing fail with a message.
    let bad = Command::new(&bin).args(run).args(["--shard", "2/2", "--out"]).arg(root.join("x")).assert().failure();
    assert!(String::from_utf8_lossy(&bad.get_output().stderr).contains("shard 2/2: expected I/N"));
    let bad = Command::new(&bin).args(["merge", "--out"]).arg(root.join("y")).arg(root.join("nope")).assert().failure();
    assert!(String::from_utf8_lossy(&bad.get_output().stderr).contains("nope/manifest.json"));
    std::fs::remove_dir_all(root).unwrap();
}

/// Under `nohup` or a batch scheduler stderr is a file: a run says how far it is in time-stamped
/// lines (one at the start, then at most one every 30 s), and `-q` silences them.
#[test]
fn a_run_logging_to_a_file_writes_time_stamped_progress_lines() {
    let (loud, quiet) = (tmp("log-loud"), tmp("log-quiet"));
    let args = ["selfplay", "--variant", "fide", "--games", "2", "--nodes", "100", "--max-plies", "20", "--out"];
    let out = Command::cargo_bin("stackchess").unwrap().args(args).arg(&loud).output().unwrap();
    assert!(out.status.success());
    let stderr = String::from_utf8_lossy(&out.stderr);
    let first = stderr.lines().next().unwrap_or_default();
    assert!(
        first.len() > 11 && first.as_bytes()[0] == b'[' && first[9..].starts_with("] 0/2 games | "),
        "no progress line first in the log: {stderr}"
    );
    assert!(first.contains("games/min | ETA ") && first.contains("White 0 Draw 0 Black 0"), "{first}");
    let out = Command::cargo_bin("stackchess").unwrap().args(args).arg(&quiet).arg("-q").output().unwrap();
    assert!(out.status.success());
    assert!(!String::from_utf8_lossy(&out.stderr).contains(" games | "), "-q still logs progress");
    for d in [loud, quiet] {
        std::fs::remove_dir_all(d).unwrap();
    }
}
