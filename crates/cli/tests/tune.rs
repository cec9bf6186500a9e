//! `stackchess tune` and `--tune` as a user runs them: the file `tune` writes is read back by
//! `--params` (and a malformed or incomplete one is refused naming its line); tuning is
//! deterministic for a seed; tuning a user-defined rule set twice reuses the cached parameters,
//! and a changed rule file is tuned afresh.

use assert_cmd::Command;
use stackchess_search::EvalParams;
use std::path::{Path, PathBuf};

fn tmp(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("stackchess-cli-tune-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

fn bin() -> Command {
    Command::cargo_bin("stackchess").unwrap()
}

/// Runs `stackchess args`; returns (success, stdout, stderr).
fn run(args: &[&str]) -> (bool, String, String) {
    let out = bin().args(args).output().unwrap();
    (out.status.success(), String::from_utf8_lossy(&out.stdout).into(), String::from_utf8_lossy(&out.stderr).into())
}

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

#[test]
fn the_file_tune_writes_round_trips_through_params() {
    let d = tmp("roundtrip");
    let (f, g) = (d.join("fide.params"), d.join("again.params"));
    let tune = |out: &Path| {
        let (ok, stdout, stderr) = run(&[
            "tune",
            "-v",
            "fide",
            "--games",
            "60",
            "--nodes",
            "200",
            "--per-game",
            "8",
            "--label-nodes",
            "1000",
            "--bootstrap",
            "2",
            "--seed",
            "3",
            "--out",
            s(out),
            "-q",
        ]);
        assert!(ok, "{stderr}");
        assert!(stdout.contains("games), ") && stdout.contains("held out") && stdout.contains("\nprior "), "{stdout}");
    };
    tune(&f);
    let text = std::fs::read_to_string(&f).unwrap();
    let tuned = EvalParams::parse(&text).unwrap();
    assert!(text.starts_with("# evaluation of fide") && text.contains("--seed 3"), "{text}");
    // Deterministic for a seed: the same settings give the same parameters (the data is made again
    // beside the second file).
    tune(&g);
    assert_eq!(EvalParams::parse(&std::fs::read_to_string(&g).unwrap()).unwrap(), tuned);

    // --params reads it: the engine plays with it and says so in the records.
    let out = d.join("games");
    let (ok, _, stderr) = run(&[
        "selfplay",
        "-v",
        "fide",
        "--games",
        "2",
        "--nodes",
        "100",
        "--max-plies",
        "20",
        "-q",
        "--params",
        s(&f),
        "--out",
        s(&out),
    ]);
    assert!(ok, "{stderr}");
    let csv = std::fs::read_to_string(out.join("games.csv")).unwrap();
    assert!(csv.contains(&format!("eval (file {}): {}", f.display(), tuned.describe())), "{csv}");

    // A malformed line and a file cut short are refused, naming the line.
    let lines: Vec<&str> = text.lines().collect();
    let at = lines.iter().position(|l| l.starts_with("tempo")).unwrap();
    let mut bad = lines.clone();
    bad[at] = "tempo 12";
    let bad_file = d.join("bad.params");
    std::fs::write(&bad_file, bad.join("\n")).unwrap();
    let (ok, _, stderr) = run(&["bench", "--only", "fide", "--depth", "1", "--params", s(&bad_file)]);
    assert!(!ok && stderr.contains(&format!("line {}: expected 'key = value'", at + 1)), "{stderr}");
    let cut_file = d.join("cut.params");
    // The last key, `drawish.rook`, may be left out (added after format 2); the two before may not.
    std::fs::write(&cut_file, lines[..lines.len() - 3].join("\n")).unwrap();
    let (ok, _, stderr) = run(&["bench", "--only", "fide", "--depth", "1", "--params", s(&cut_file)]);
    let want = format!("line {}: the file ends without scale.drawish, mobility", lines.len() - 2);
    assert!(!ok && stderr.contains(&want), "{stderr}");
    std::fs::remove_dir_all(&d).unwrap();
}

#[test]
fn a_user_defined_rule_set_is_tuned_once_per_rule_file() {
    let d = tmp("cache");
    let (rules, cache) = (d.join("no-castling.toml"), d.join("cache"));
    std::fs::write(&rules, "name = \"tune-test-no-castling\"\nbase = \"malka\"\ncastling = false\n").unwrap();
    let variant = format!("rules:{}", rules.display());
    let selfplay = |out: &str, tune: bool| {
        let out = d.join(out);
        let mut args = vec!["selfplay", "-v", &variant, "--games", "2", "--nodes", "100", "--max-plies", "30", "-q"];
        args.extend(["--out", s(&out)]);
        if tune {
            args.extend(["--tune", "--tune-games", "50", "--tune-nodes", "100", "--tune-label-nodes", "300"]);
            args.extend(["--tune-cache", s(&cache)]);
        }
        let (ok, _, stderr) = run(&args);
        assert!(ok, "{stderr}");
        let manifest = std::fs::read_to_string(out.join("manifest.json")).unwrap();
        (stderr, manifest)
    };
    // Without --tune it plays its base's preset, and says so on stderr and in the manifest.
    let (stderr, manifest) = selfplay("untuned", false);
    assert!(stderr.contains("plays with the evaluation preset of malka"), "{stderr}");
    assert!(manifest.contains("preset malka, the base of tune-test-no-castling"), "{manifest}");
    // The first --tune tunes, the second reuses; both play the same parameters, named by the entry.
    let (first, m1) = selfplay("first", true);
    assert!(first.contains("tuning its evaluation first"), "{first}");
    let (second, m2) = selfplay("second", true);
    assert!(second.contains("reusing its tuned parameters") && !second.contains("tuning its"), "{second}");
    assert!(m1.contains("eval (tuned ") && m1.contains("(rules "), "{m1}");
    let settings = |m: &str| m.lines().find(|l| l.contains("\"settings\": \"nodes=")).unwrap().to_owned();
    assert_eq!(settings(&m1), settings(&m2));
    let entries = std::fs::read_dir(&cache)
        .unwrap()
        .filter(|e| e.as_ref().unwrap().path().extension().is_some_and(|x| x == "params"))
        .count();
    assert_eq!(entries, 1);
    // A changed rule file is another rule set: tuned afresh, into another entry.
    std::fs::write(&rules, "name = \"tune-test-no-castling\"\nbase = \"malka\"\ncastling = false\n[pieces]\nqueen = { planar-orthogonal = \"slide\", vertical = \"slide\", orthogonal-slant = \"slide\", planar-diagonal = \"slide\", triagonal = \"slide\" }\n").unwrap();
    let (third, m3) = selfplay("third", true);
    assert!(third.contains("tuning its evaluation first"), "{third}");
    assert_ne!(settings(&m1), settings(&m3));
    std::fs::remove_dir_all(&d).unwrap();
}

#[test]
fn the_file_spsa_writes_names_what_it_tuned_keeps_what_it_fixed_and_loads() {
    let d = tmp("spsa");
    let out = d.join("fide-spsa.params");
    let (ok, stdout, stderr) = run(&[
        "spsa",
        "-v",
        "fide",
        "--param",
        "rook_open=10,0,40,4",
        "--param",
        "search.rfp_margin=100,10,400,15",
        "--param",
        "tempo=7",
        "--games",
        "4",
        "--nodes",
        "100",
        "--threads",
        "1",
        "--quiet",
        "--out",
        s(&out),
    ]);
    assert!(ok, "spsa failed: {stderr}");
    assert!(stdout.contains("wrote"), "{stdout}");
    let text = std::fs::read_to_string(&out).unwrap();
    let first = text.lines().next().unwrap();
    assert!(first.starts_with("# rook_open, search.rfp_margin of fide"), "{first}");
    assert!(text.lines().any(|l| l.starts_with("rook_open.mg = ")), "{text}");
    // A --param with one value is held fixed: the engine's, not a tuned one.
    assert!(text.lines().any(|l| l == "tempo = 7"), "{text}");
    assert!(!first.contains("tempo"), "{first}");
    // The engine reads the file back.
    let (ok, _, stderr) = run(&["bench", "--only", "fide", "-d", "2", "--params", s(&out)]);
    assert!(ok, "--params refused the file spsa wrote: {stderr}");
}

#[test]
fn spsa_without_a_parameter_to_tune_is_refused() {
    let d = tmp("spsa-none");
    let out = d.join("none.params");
    let (ok, _, stderr) =
        run(&["spsa", "-v", "fide", "--param", "tempo=7", "--games", "2", "--nodes", "50", "--out", s(&out)]);
    assert!(!ok, "spsa ran with nothing to tune");
    assert!(stderr.contains("give a parameter to tune: --param NAME=start,min,max,step"), "{stderr}");
    assert!(!out.exists());
}
