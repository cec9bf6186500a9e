//! `--shard auto` in a job array: the shard comes from the spawned process's environment (Slurm
//! or a Kubernetes Indexed Job; never set on this test process), and a task started again on its
//! own directory resumes by itself.

use assert_cmd::Command;
use stackchess_selfplay::{read_records, GameRecord};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

fn tmp(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("stackchess-cluster-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    d
}

const VARS: [&str; 6] = [
    "SLURM_ARRAY_TASK_ID",
    "SLURM_ARRAY_TASK_COUNT",
    "SLURM_ARRAY_TASK_MIN",
    "SLURM_ARRAY_TASK_STEP",
    "JOB_COMPLETION_INDEX",
    "STACKCHESS_SHARD_COUNT",
];

/// The binary with `env` as its only job-array variables (whatever runs the tests).
fn bin(env: &[(&str, &str)]) -> Command {
    let mut c = Command::new(assert_cmd::cargo::cargo_bin("stackchess"));
    for v in VARS {
        c.env_remove(v);
    }
    for (k, v) in env {
        c.env(k, v);
    }
    c
}

/// Job-array variables of a case.
type Vars<'a> = &'a [(&'a str, &'a str)];

fn records(dir: &Path) -> BTreeMap<u64, GameRecord> {
    read_records(&dir.join("games.csv")).unwrap().into_iter().map(|r| (r.index, r.without_timing())).collect()
}

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

const SELFPLAY: [&str; 8] = ["selfplay", "-v", "fide", "--nodes", "100", "--max-plies", "30", "-q"];

#[test]
fn shard_auto_in_a_slurm_array_plays_its_shard_and_resumes_by_itself() {
    let root = tmp("slurm");
    let (dir, given) = (root.join("task"), root.join("given"));
    // `--array=3-5`: task 4 is shard 1 of 3.
    let slurm = [("SLURM_ARRAY_TASK_ID", "4"), ("SLURM_ARRAY_TASK_MIN", "3"), ("SLURM_ARRAY_TASK_COUNT", "3")];
    let out =
        bin(&slurm).args(SELFPLAY).args(["--games", "6", "--shard", "auto", "--out"]).arg(&dir).assert().success();
    let err = text(&out.get_output().stderr);
    assert!(err.contains("shard 1/3 (--shard auto: Slurm array task 4)"), "{err}");
    let first = records(&dir);
    assert_eq!(first.keys().copied().collect::<Vec<_>>(), vec![1, 4]);
    // The same games as the shard named by hand.
    bin(&[]).args(SELFPLAY).args(["--games", "6", "--shard", "1/3", "--out"]).arg(&given).assert().success();
    assert_eq!(records(&given), first);

    // Started again (a requeued task, or a larger --games): no --resume, the finished games kept.
    let out =
        bin(&slurm).args(SELFPLAY).args(["--games", "9", "--shard", "auto", "--out"]).arg(&dir).assert().success();
    let said = text(&out.get_output().stdout);
    assert!(said.contains("3 of 3 games recorded (1 played now"), "{said}");
    let second = records(&dir);
    assert_eq!(second.keys().copied().collect::<Vec<_>>(), vec![1, 4, 7]);
    assert!(first.iter().all(|(i, g)| &second[i] == g));
    // Run once more: nothing left to play.
    let out =
        bin(&slurm).args(SELFPLAY).args(["--games", "9", "--shard", "auto", "--out"]).arg(&dir).assert().success();
    assert!(text(&out.get_output().stdout).contains("(0 played now"));

    // Another task's shard, or another run, in this directory is refused.
    let other = [("SLURM_ARRAY_TASK_ID", "5"), ("SLURM_ARRAY_TASK_MIN", "3"), ("SLURM_ARRAY_TASK_COUNT", "3")];
    let out =
        bin(&other).args(SELFPLAY).args(["--games", "9", "--shard", "auto", "--out"]).arg(&dir).assert().failure();
    assert!(text(&out.get_output().stderr).contains("holds shard 1/3 of its run, not shard 2/3"));
    let out = bin(&slurm)
        .args(SELFPLAY)
        .args(["--games", "9", "--seed", "2", "--shard", "auto", "--out"])
        .arg(&dir)
        .assert()
        .failure();
    let err = text(&out.get_output().stderr);
    assert!(err.contains("settings differ") && err.contains("seed: 1 -> 2"), "{err}");
    assert_eq!(records(&dir), second);
    std::fs::remove_dir_all(root).unwrap();
}

#[test]
fn shard_auto_in_a_kubernetes_indexed_job() {
    let root = tmp("k8s");
    // A match: colour-swapped pairs stay in one shard (pair 1 of 0..3 is games 2 and 3).
    let out = bin(&[("JOB_COMPLETION_INDEX", "1")])
        .args(["match", "-v", "fide", "--games", "6", "--paired", "--nodes", "100", "--max-plies", "30", "-q"])
        .args(["--shard", "auto", "--shard-count", "2", "--out"])
        .arg(root.join("match"))
        .assert()
        .success();
    assert!(text(&out.get_output().stderr).contains("shard 1/2 (--shard auto: Kubernetes completion index 1)"));
    assert_eq!(records(&root.join("match")).keys().copied().collect::<Vec<_>>(), vec![2, 3]);
    // The count from the environment instead.
    let k8s = [("JOB_COMPLETION_INDEX", "0"), ("STACKCHESS_SHARD_COUNT", "2")];
    let dir = root.join("selfplay");
    for _ in 0..2 {
        bin(&k8s).args(SELFPLAY).args(["--games", "5", "--shard", "auto", "--out"]).arg(&dir).assert().success();
    }
    assert_eq!(records(&dir).keys().copied().collect::<Vec<_>>(), vec![0, 2, 4]);
    std::fs::remove_dir_all(root).unwrap();
}

#[test]
fn shard_auto_errors_name_the_variable_and_value() {
    let root = tmp("errors");
    let cases: [(Vars, &[&str], &str); 5] = [
        (&[], &[], "neither a Slurm array (SLURM_ARRAY_TASK_ID) nor a Kubernetes Indexed Job"),
        (&[("SLURM_ARRAY_TASK_ID", "4a"), ("SLURM_ARRAY_TASK_COUNT", "8")], &[], "SLURM_ARRAY_TASK_ID='4a'"),
        (&[("JOB_COMPLETION_INDEX", "3")], &[], "--shard-count N or set STACKCHESS_SHARD_COUNT"),
        (&[("JOB_COMPLETION_INDEX", "3")], &["--shard-count", "3"], "JOB_COMPLETION_INDEX=3 does not fit 3"),
        (&[("JOB_COMPLETION_INDEX", "0"), ("STACKCHESS_SHARD_COUNT", "two")], &[], "STACKCHESS_SHARD_COUNT='two'"),
    ];
    for (env, flags, want) in cases {
        let out = bin(env)
            .args(SELFPLAY)
            .args(["--games", "2", "--shard", "auto"])
            .args(flags)
            .arg("--out")
            .arg(root.join("x"))
            .assert()
            .failure();
        let err = text(&out.get_output().stderr);
        assert!(err.contains(want) && !err.contains("panicked"), "{env:?}: {err}");
    }
    let out = bin(&[])
        .args(SELFPLAY)
        .args(["--games", "2", "--shard-count", "2", "--out"])
        .arg(root.join("y"))
        .assert()
        .failure();
    assert!(text(&out.get_output().stderr).contains("--shard-count goes with --shard auto"));
    assert!(!root.join("x").exists() && !root.join("y").exists());
}

#[cfg(feature = "analysis")]
#[test]
fn balance_plays_its_shard_of_every_batch() {
    let root = tmp("balance");
    let k8s = [("JOB_COMPLETION_INDEX", "1"), ("STACKCHESS_SHARD_COUNT", "2")];
    let run = ["balance", "--variants", "fide", "--games", "4", "--nodes", "100", "--max-plies", "30", "-q"];
    let out = bin(&k8s).args(run).args(["--shard", "auto", "--dir"]).arg(&root).assert().success();
    let err = text(&out.get_output().stderr);
    assert!(err.contains("shard 1/2 of every batch played") && err.contains("merge"), "{err}");
    // Paired by default: pair 1 is games 2 and 3; no report for a shard.
    assert_eq!(records(&root.join("fide.shard-1")).keys().copied().collect::<Vec<_>>(), vec![2, 3]);
    assert!(!root.join("report.html").exists());
    bin(&k8s).args(run).args(["--shard", "auto", "--dir"]).arg(&root).assert().success();
    let out =
        bin(&k8s).args(run).args(["--shard", "auto", "--precision", "0.05", "--dir"]).arg(&root).assert().failure();
    assert!(text(&out.get_output().stderr).contains("--precision needs every game"));
    std::fs::remove_dir_all(root).unwrap();
}

/// `balance --plan`: pilots per rung, a row each whose games and core-hours follow from the
/// pilot, and a Slurm script whose tasks, run here with the array's variables, play shards that
/// `merge` joins into exactly the games of the study played whole.
#[cfg(feature = "analysis")]
#[test]
fn balance_plan_sizes_the_study_and_its_slurm_script_plays_it() {
    let root = tmp("plan");
    let (planned, whole) = (root.join("study"), root.join("whole"));
    let script = root.join("study.sbatch");
    std::fs::create_dir_all(&root).unwrap();
    let study =
        ["--variants", "fide", "--ladder", "30,60", "--max-plies", "24", "--openings", "random:2", "--no-pieces"];
    let out = bin(&[])
        .arg("balance")
        .args(study)
        .args(["--plan", "--pilot-games", "6", "--precision", "0.12", "--shards", "2", "-q", "--slurm"])
        .arg(&script)
        .arg("--dir")
        .arg(&planned)
        .assert()
        .success();
    let stdout = text(&out.get_output().stdout);
    let rows: Vec<Vec<&str>> =
        stdout.lines().filter(|l| l.starts_with("fide ")).map(|l| l.split_whitespace().collect()).collect();
    assert_eq!(rows.len(), 2, "a row per rung: {stdout}");
    let mut games = 0;
    for (row, nodes) in rows.iter().zip(["30", "60"]) {
        assert_eq!((row[1], row[2]), (nodes, "6"), "{stdout}");
        let (per_game, n, core_hours): (f64, u64, f64) =
            (row[3].parse().unwrap(), row[5].parse().unwrap(), row[6].parse().unwrap());
        // At least the games a ±0.12 interval needs to be trusted: (1.96·0.25/0.12)² → 17, even.
        assert!(n >= 18 && n % 2 == 0, "{stdout}");
        assert!((core_hours - n as f64 * per_game / 3600.0).abs() < 0.006, "{stdout}");
        games = games.max(n);
    }
    assert!(planned.join("plan/30-nodes/fide/games.csv").is_file());
    // The script's command, for each of its two tasks, then the merge and the report.
    let sbatch = std::fs::read_to_string(&script).unwrap();
    assert!(sbatch.contains("#SBATCH --array=0-1"), "{sbatch}");
    let line = sbatch.lines().find(|l| l.starts_with("stackchess balance ")).expect("the command");
    assert!(line.contains(&format!("--games {games} ")), "{line}");
    assert!(!line.contains("--plan") && !line.contains("--precision") && !line.contains("--slurm"), "{line}");
    let words: Vec<&str> = line.split_whitespace().skip(1).collect();
    for task in ["0", "1"] {
        bin(&[("SLURM_ARRAY_TASK_ID", task), ("SLURM_ARRAY_TASK_COUNT", "2")]).args(&words).assert().success();
    }
    for nodes in ["30", "60"] {
        let rung = planned.join(format!("{nodes}-nodes"));
        bin(&[])
            .args(["merge", "--out"])
            .arg(rung.join("fide"))
            .arg(rung.join("fide.shard-0"))
            .arg(rung.join("fide.shard-1"))
            .assert()
            .success();
    }
    let report = words.iter().position(|w| *w == "--shard").unwrap();
    let mut alone: Vec<&str> = words.clone();
    alone.drain(report..report + 2);
    bin(&[]).args(&alone).assert().success();
    let dir_at = alone.iter().position(|w| *w == "--dir").unwrap();
    alone[dir_at + 1] = whole.to_str().unwrap();
    bin(&[]).args(&alone).assert().success();
    for nodes in ["30", "60"] {
        let rung = format!("{nodes}-nodes");
        let merged = records(&planned.join(&rung).join("fide"));
        assert_eq!(merged.len() as u64, games);
        assert_eq!(merged, records(&whole.join(&rung).join("fide")), "the merged shards are the whole study");
    }
    assert!(planned.join("report.html").is_file());
    std::fs::remove_dir_all(root).unwrap();
}

/// `balance --plan --nnue`: the plan learns the net into the study's directory and names that
/// cache in the shards' command, so a shard reuses the plan's net (nothing learnt again, nothing
/// written to the user's cache).
#[cfg(feature = "analysis")]
#[test]
fn the_shards_of_a_plan_reuse_the_net_the_plan_learnt() {
    let root = tmp("plan-nnue");
    let (study, user_cache) = (root.join("study"), root.join("user-cache"));
    let script = root.join("study.sbatch");
    std::fs::create_dir_all(&user_cache).unwrap();
    let user = [("XDG_CACHE_HOME", user_cache.to_str().unwrap())];
    let nnue = ["--nnue", "--nnue-generations", "1", "--nnue-positions", "1500", "--nnue-nodes", "100"];
    bin(&user)
        .args(["balance", "--variants", "fide", "--nodes", "40", "--max-plies", "24", "--openings", "random:2"])
        .args(nnue)
        .args(["--nnue-gate-games", "2", "--nnue-hidden", "8", "--no-pieces", "-q"])
        .args(["--plan", "--pilot-games", "4", "--precision", "0.3", "--shards", "2", "--slurm"])
        .arg(&script)
        .arg("--dir")
        .arg(&study)
        .assert()
        .success();
    let cache = study.join("cache/nnue");
    let runs: Vec<PathBuf> = std::fs::read_dir(&cache).unwrap().map(|e| e.unwrap().path()).collect();
    assert_eq!(runs.len(), 1, "one learning run in the study's cache: {runs:?}");
    let net = runs[0].join("gen-1/net.nnue");
    let made = std::fs::metadata(&net).unwrap().modified().unwrap();
    let sbatch = std::fs::read_to_string(&script).unwrap();
    let line = sbatch.lines().find(|l| l.starts_with("stackchess balance ")).expect("the command");
    assert!(line.contains(&format!("--nnue-cache {}", cache.display())), "{line}");
    let words: Vec<&str> = line.split_whitespace().skip(1).collect();
    let task = [("SLURM_ARRAY_TASK_ID", "0"), ("SLURM_ARRAY_TASK_COUNT", "2"), user[0]];
    let out = bin(&task).args(&words).assert().success();
    let stderr = String::from_utf8_lossy(&out.get_output().stderr).into_owned();
    assert_eq!(std::fs::metadata(&net).unwrap().modified().unwrap(), made, "{stderr}");
    assert_eq!(std::fs::read_dir(&cache).unwrap().count(), 1, "{stderr}");
    assert_eq!(std::fs::read_dir(&user_cache).unwrap().count(), 0, "nothing in the user's cache: {stderr}");
    std::fs::remove_dir_all(root).unwrap();
}
