//! SIGTERM (what `timeout`, Slurm and Kubernetes send) stops a run as cleanly as Ctrl-C: the
//! finished games are kept, the journal and the Parquet copy are written, the exit status is 1,
//! and `--resume` completes the run.
#![cfg(unix)]

use assert_cmd::Command;
use stackchess_selfplay::{read_records, GameRecord};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::time::{Duration, Instant};

fn tmp(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("stackchess-signals-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    d
}

const RUN: [&str; 14] = [
    "selfplay",
    "--variant",
    "fide",
    "--games",
    "40",
    "--nodes",
    "400",
    "--max-plies",
    "80",
    "--seed",
    "9",
    "--format",
    "parquet",
    "-q",
];

fn records(dir: &Path) -> BTreeMap<u64, GameRecord> {
    read_records(&dir.join("games.csv")).unwrap().into_iter().map(|r| (r.index, r.without_timing())).collect()
}

#[test]
fn sigterm_keeps_the_finished_games_and_resume_completes_the_run() {
    let dir = tmp("term");
    let bin = assert_cmd::cargo::cargo_bin("stackchess");
    let child = std::process::Command::new(&bin)
        .args(RUN)
        .args(["--threads", "2", "--out"])
        .arg(&dir)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let started = Instant::now();
    while std::fs::read_to_string(dir.join("games.csv")).map_or(0, |t| t.lines().count()) < 3 {
        assert!(started.elapsed() < Duration::from_mins(1), "no game finished");
        std::thread::sleep(Duration::from_millis(5));
    }
    let kill = std::process::Command::new("kill").args(["-TERM", &child.id().to_string()]).status().unwrap();
    assert!(kill.success());
    let out = child.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "not the clean stop's status: {stderr}");
    assert!(stderr.contains("interrupted") && stderr.contains("--resume"), "{stderr}");
    let kept = records(&dir);
    assert!(kept.len() >= 2 && kept.len() < 40, "{} games kept", kept.len());
    // The session's end was written as SIGINT's is: the Parquet copy and the manifest's format.
    assert!(dir.join("games.parquet").exists(), "no Parquet copy after SIGTERM");
    let manifest = std::fs::read_to_string(dir.join("manifest.json")).unwrap();
    assert!(manifest.contains("csv+parquet"), "{manifest}");

    Command::new(&bin).args(RUN).args(["--threads", "2", "--resume", "--out"]).arg(&dir).assert().success();
    let all = records(&dir);
    assert_eq!(all.keys().copied().collect::<Vec<u64>>(), (0..40).collect::<Vec<u64>>());
    for (i, game) in &kept {
        assert_eq!(&all[i], game, "game {i} changed on resume");
    }
    let _ = std::fs::remove_dir_all(&dir);
}
