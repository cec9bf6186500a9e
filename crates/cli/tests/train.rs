//! `datagen`, `train` and `--eval net:` as a user runs them, for a plain net and a residual one
//! (`--base`): the residual net file carries its base and plays; `train` prints the linear
//! evaluation's held-out error beside the net's; a bad `--base` is refused naming it.

use assert_cmd::Command;
use std::path::{Path, PathBuf};

fn tmp(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("stackchess-cli-train-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// Runs `stackchess args`; returns (success, stdout, stderr).
fn run(args: &[&str]) -> (bool, String, String) {
    let out = Command::cargo_bin("stackchess").unwrap().args(args).output().unwrap();
    (out.status.success(), String::from_utf8_lossy(&out.stdout).into(), String::from_utf8_lossy(&out.stderr).into())
}

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

#[test]
fn a_residual_net_is_trained_carries_its_base_and_plays() {
    let d = tmp("residual");
    let data = d.join("fide.data");
    let mut args: Vec<&str> =
        "datagen -v fide --games 12 --nodes 150 --per-game 0 --label-nodes 0 --seed 4 -q --out".split(' ').collect();
    args.push(s(&data));
    let (ok, _, err) = run(&args);
    assert!(ok, "{err}");
    let train = |out: &Path, base: &[&str]| {
        let mut args =
            vec!["train", "-v", "fide", "--data", s(&data), "--out", s(out), "--hidden", "8", "--epochs", "2"];
        args.extend_from_slice(base);
        let (ok, stdout, err) = run(&args);
        assert!(ok, "{err}");
        let alone = stdout.lines().find(|l| l.starts_with("held out, the linear evaluation alone: ")).expect(&stdout);
        (alone.to_owned(), stdout)
    };
    let (plain, residual) = (d.join("plain.nnue"), d.join("residual.nnue"));
    let (alone_plain, _) = train(&plain, &[]);
    let (alone_residual, stdout) = train(&residual, &["--base", "preset"]);
    // The same held-out games, the same linear evaluation: the same error, printed for both.
    assert_eq!(alone_plain, alone_residual, "{stdout}");
    // The residual net's file holds the preset's parameter file; the plain one's does not.
    let (p, r) = (std::fs::read(&plain).unwrap(), std::fs::read(&residual).unwrap());
    let has = |b: &[u8]| b.windows(13).any(|w| w == b"value.pawn.mg");
    assert!(!has(&p) && has(&r));
    for net in [&plain, &residual] {
        let (ok, stdout, err) = run(&["analyse", "-v", "fide", "--eval", &format!("net:{}", s(net)), "--nodes", "500"]);
        assert!(ok && stdout.contains("bestmove"), "{stdout}{err}");
    }
    // Training resumes from a net (`--init`), its hidden size the net's, with the base it corrects.
    let more = d.join("more.nnue");
    let init = |net: &Path, base: &[&str]| {
        let mut args =
            vec!["train", "-v", "fide", "--data", s(&data), "--out", s(&more), "--epochs", "1", "--init", s(net)];
        args.extend_from_slice(base);
        run(&args)
    };
    let (ok, stdout, err) = init(&residual, &["--base", "preset"]);
    assert!(ok && stdout.contains("(8 neurons, 1 epochs"), "{stdout}{err}");
    let (ok, _, err) = init(&residual, &[]);
    assert!(!ok && err.contains("is a residual net: give the --base it was trained with"), "{err}");
    let (ok, _, err) = init(&plain, &["--base", "preset"]);
    assert!(!ok && err.contains("is a plain net"), "{err}");
    let (ok, _, err) = init(&residual, &["--base", "preset", "--hidden", "16"]);
    assert!(!ok && err.contains("8 neurons; this training has 16"), "{err}");
    let malka = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../data/nets/malka-gen2.nnue");
    let (ok, _, err) = init(&malka, &["--base", "preset"]);
    assert!(!ok && err.contains("--init") && err.contains("malka-gen2.nnue"), "{err}");
    // A --base that is not a parameter file: refused, naming it, before anything is trained.
    let bad = d.join("bad.params");
    std::fs::write(&bad, "value.pawn = lots\n").unwrap();
    let (ok, _, err) =
        run(&["train", "-v", "fide", "--data", s(&data), "--out", s(&d.join("x.nnue")), "--base", s(&bad)]);
    assert!(!ok && err.contains("--base") && err.contains("bad.params"), "{err}");
    assert!(!d.join("x.nnue").exists());
    std::fs::remove_dir_all(&d).unwrap();
}

#[test]
fn balance_learns_a_net_per_rule_set_once_then_plays_and_reuses_it() {
    let d = tmp("balance-nnue");
    let cache = d.join("cache");
    let balance = |dir: &str| {
        let out = d.join(dir);
        let mut args = vec!["balance", "--variants", "fide", "--games", "2", "--nodes", "100", "--max-plies", "40"];
        args.extend(["--openings", "random:4", "--no-pieces", "-q", "--nnue", "--nnue-generations", "1"]);
        args.extend([
            "--nnue-positions",
            "2000",
            "--nnue-nodes",
            "100",
            "--nnue-gate-games",
            "4",
            "--nnue-hidden",
            "8",
        ]);
        args.extend(["--nnue-cache", s(&cache), "--dir", s(&out)]);
        let (ok, stdout, stderr) = run(&args);
        assert!(ok, "{stderr}");
        (stdout, stderr)
    };
    let (stdout, stderr) = balance("first");
    assert!(stderr.contains("fide: learning its net"), "{stderr}");
    // One run, keyed by the rule set and the settings, with its generation's data, net and gate.
    let runs: Vec<PathBuf> = std::fs::read_dir(&cache).unwrap().map(|e| e.unwrap().path()).collect();
    assert_eq!(runs.len(), 1, "{runs:?}");
    let net = runs[0].join("gen-1/net.nnue");
    assert!(net.exists() && runs[0].join("gen-1/data.data").exists() && runs[0].join("gen-1/gate").exists());
    // What stderr says was played is what the settings line names.
    let settings = stdout.lines().find(|l| l.trim_start().starts_with("#1 nodes=100 = ")).expect(&stdout).to_owned();
    let best = runs[0].join("best.nnue");
    if best.exists() {
        assert!(stderr.contains("playing its learnt net") && settings.contains(s(&best)), "{stderr}{settings}");
    } else {
        // The start it did not beat: fide's default, its shipped net.
        assert!(stderr.contains("no generation's net beat preset fide with the net builtin:fide"), "{stderr}");
        assert!(!settings.contains(s(&cache)) && settings.contains("net=builtin:fide"), "{settings}");
    }
    // The second run reuses it: nothing is played or trained again, and the same engine plays.
    let made = |p: &Path| std::fs::metadata(p).unwrap().modified().unwrap();
    let (net_time, data_time) = (made(&net), made(&runs[0].join("gen-1/data.data")));
    let (stdout2, _) = balance("second");
    assert_eq!((made(&net), made(&runs[0].join("gen-1/data.data"))), (net_time, data_time));
    assert!(stdout2.contains(&settings), "{stdout2}");
    std::fs::remove_dir_all(&d).unwrap();
}

#[test]
fn training_settings_that_cannot_work_are_refused_before_any_data_is_read_or_played() {
    let d = tmp("bad-settings");
    let (cache, out) = (d.join("cache"), d.join("out"));
    let mut args = vec!["balance", "--variants", "fide", "--games", "2", "--nodes", "100", "-q", "--nnue"];
    args.extend(["--nnue-hidden", "0", "--nnue-cache", s(&cache), "--dir", s(&out)]);
    let (ok, _, err) = run(&args);
    assert!(!ok && err.contains("hidden size 0"), "{err}");
    let played = walk(&cache).into_iter().filter(|p| p.extension().is_some_and(|e| e == "data")).count();
    assert_eq!(played, 0, "{err}");
    // `train` names the setting before it looks at the data (here a file that is not there).
    let missing = d.join("missing.data");
    let (ok, _, err) =
        run(&["train", "-v", "fide", "--data", s(&missing), "--out", s(&d.join("x.nnue")), "--epochs", "0"]);
    assert!(!ok && err.contains("epochs 0") && !err.contains("missing.data"), "{err}");
    std::fs::remove_dir_all(&d).unwrap();
}

/// Every file under `dir` (none when it is not there).
fn walk(dir: &Path) -> Vec<PathBuf> {
    let Ok(entries) = std::fs::read_dir(dir) else { return Vec::new() };
    entries
        .flat_map(|e| {
            let p = e.unwrap().path();
            if p.is_dir() {
                walk(&p)
            } else {
                vec![p]
            }
        })
        .collect()
}
