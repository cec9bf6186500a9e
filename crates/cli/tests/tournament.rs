//! `stackchess tournament` as a user runs it: every pairing plays its games, the tables are
//! written, a rerun resumes without new games, and bad engine specs are refused clearly.

use assert_cmd::Command;
use stackchess_selfplay::read_records;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

fn tmp(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("stackchess-tourney-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    d
}

const ENGINES: [&str; 6] =
    ["--engine", "name=n50,nodes=50", "--engine", "name=n200,nodes=200", "--engine", "name=n800,nodes=800"];
const GAMES: u64 = 4;

fn tournament(out: &Path, extra: &[&str]) -> std::process::Output {
    Command::new(assert_cmd::cargo::cargo_bin("stackchess"))
        .args(["tournament", "-v", "fide", "--games-per-pair", &GAMES.to_string(), "--max-plies", "40"])
        .args(["--seed", "3", "--threads", "2", "-q"])
        .args(ENGINES)
        .args(extra)
        .arg("--out")
        .arg(out)
        .output()
        .unwrap()
}

/// The rows of a CSV file as maps column → value.
fn csv_rows(path: &Path) -> Vec<BTreeMap<String, String>> {
    let mut r = csv::Reader::from_path(path).unwrap();
    let header = r.headers().unwrap().clone();
    r.records().map(|x| header.iter().zip(x.unwrap().iter()).map(|(h, v)| (h.into(), v.into())).collect()).collect()
}

fn num(row: &BTreeMap<String, String>, key: &str) -> f64 {
    row[key].parse().unwrap_or_else(|_| panic!("{key} = {:?}", row[key]))
}

#[test]
fn round_robin_plays_every_pair_writes_the_tables_and_resumes() {
    let dir = tmp("rr");
    let first = tournament(&dir, &[]);
    let stdout = String::from_utf8_lossy(&first.stdout).to_string();
    assert!(first.status.success(), "{stdout}\n{}", String::from_utf8_lossy(&first.stderr));
    assert!(stdout.contains("(round robin) of 3 engines") && stdout.contains("12 played now"), "{stdout}");
    assert!(stdout.contains("the mean at 0"), "{stdout}");

    // Every pairing: its own run directory, GAMES games, each engine White in half of them.
    let names = ["n50", "n200", "n800"];
    let pairs = csv_rows(&dir.join("pairs.csv"));
    assert_eq!(pairs.len(), 3);
    let mut before = BTreeMap::new();
    for (row, (a, b)) in pairs.iter().zip([("n50", "n200"), ("n50", "n800"), ("n200", "n800")]) {
        assert_eq!((row["engine_a"].as_str(), row["engine_b"].as_str()), (a, b));
        let (w, d, l) = (num(row, "wins"), num(row, "draws"), num(row, "losses"));
        assert_eq!(w + d + l, GAMES as f64, "{row:?}");
        assert_eq!(num(row, "games"), GAMES as f64);
        assert!((num(row, "score") - (w + d / 2.0) / GAMES as f64).abs() < 1e-9, "{row:?}");
        let penta: f64 = (0..5).map(|k| num(row, &format!("penta_{k}"))).sum();
        assert_eq!(penta, GAMES as f64 / 2.0, "{row:?}");
        let records = read_records(&Path::new(&row["dir"]).join("games.csv")).unwrap();
        assert_eq!(records.len() as u64, GAMES);
        assert_eq!(records.iter().filter(|r| r.white == a && r.black == b).count() as u64, GAMES / 2);
        assert_eq!(records.iter().filter(|r| r.white == b && r.black == a).count() as u64, GAMES / 2);
        // The first engine's wins as the records tell them.
        let wins = records
            .iter()
            .filter(|r| (r.white == a && r.result == "1-0") || (r.black == a && r.result == "0-1"))
            .count();
        assert_eq!(wins as f64, w);
        assert!(stdout.contains(&format!("Score of {a} vs {b}: ")), "{stdout}");
        before.insert(row["dir"].clone(), records.into_iter().map(|r| r.without_timing()).collect::<Vec<_>>());
    }
    assert_eq!(stdout.matches("Ptnml(0-2): [").count(), 3, "{stdout}");

    // The Elo table: every engine once, ranked by Elo, the mean at 0, intervals around the rating.
    let ratings = csv_rows(&dir.join("ratings.csv"));
    assert_eq!(ratings.len(), 3);
    let mut seen: Vec<&str> = ratings.iter().map(|r| r["engine"].as_str()).collect();
    seen.sort_unstable();
    assert_eq!(seen, ["n200", "n50", "n800"]);
    let elos: Vec<f64> = ratings.iter().map(|r| num(r, "elo")).collect();
    assert!(elos.windows(2).all(|w| w[0] >= w[1]), "{elos:?}");
    assert!(elos.iter().sum::<f64>().abs() < 1e-6, "{elos:?}");
    let points: f64 = ratings.iter().map(|r| num(r, "points")).sum();
    assert_eq!(points, 3.0 * GAMES as f64, "every game gives one point");
    for (k, r) in ratings.iter().enumerate() {
        assert_eq!(num(r, "rank"), (k + 1) as f64);
        assert_eq!(num(r, "games"), 2.0 * GAMES as f64);
        assert!(num(r, "lower") < num(r, "elo") && num(r, "elo") < num(r, "upper"), "{r:?}");
        assert!(stdout.contains(&format!("{:.1}", num(r, "elo"))), "{stdout}");
    }
    let json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("tournament.json")).unwrap()).unwrap();
    assert_eq!(json["anchor"], "mean");
    assert_eq!(json["format"], "round-robin");
    assert_eq!(json["pairs"].as_array().unwrap().len(), 3);
    assert_eq!(json["ratings"].as_array().unwrap().len(), 3);
    assert_eq!(
        json["engines"].as_array().unwrap().iter().map(|e| e["name"].as_str().unwrap()).collect::<Vec<_>>(),
        names
    );

    // The same command again: nothing new is played, the games and the table are the same.
    let again = tournament(&dir, &[]);
    let stdout2 = String::from_utf8_lossy(&again.stdout).to_string();
    assert!(again.status.success(), "{}", String::from_utf8_lossy(&again.stderr));
    assert!(stdout2.contains("12 games in 3 pairings (0 played now"), "{stdout2}");
    for (d, records) in &before {
        let now: Vec<_> =
            read_records(&Path::new(d).join("games.csv")).unwrap().into_iter().map(|r| r.without_timing()).collect();
        assert_eq!(&now, records);
    }
    assert_eq!(csv_rows(&dir.join("ratings.csv")), ratings);
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn a_gauntlet_plays_the_first_engine_against_the_others_anchored_at_it() {
    let dir = tmp("gauntlet");
    let out = tournament(&dir, &["--format", "gauntlet", "--anchor", "n50", "--prior-draws", "1"]);
    let stdout = String::from_utf8_lossy(&out.stdout).to_string();
    assert!(out.status.success(), "{stdout}\n{}", String::from_utf8_lossy(&out.stderr));
    assert!(stdout.contains("n50 at 0, 1 virtual draws per pairing"), "{stdout}");
    let json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("tournament.json")).unwrap()).unwrap();
    assert_eq!((json["prior_draws"].as_u64(), json["format"].as_str()), (Some(1), Some("gauntlet")));
    let pairs = csv_rows(&dir.join("pairs.csv"));
    assert_eq!(
        pairs.iter().map(|p| (p["engine_a"].as_str(), p["engine_b"].as_str())).collect::<Vec<_>>(),
        [("n50", "n200"), ("n50", "n800")]
    );
    assert!(!dir.join("n200-vs-n800").exists());
    let ratings = csv_rows(&dir.join("ratings.csv"));
    let anchor = ratings.iter().find(|r| r["engine"] == "n50").unwrap();
    assert_eq!((num(anchor, "elo"), num(anchor, "se")), (0.0, 0.0));
    assert_eq!(num(anchor, "games"), 2.0 * GAMES as f64);
    for r in ratings.iter().filter(|r| r["engine"] != "n50") {
        assert_eq!(num(r, "games"), GAMES as f64);
        assert!(num(r, "se") > 0.0, "{r:?}");
    }
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn bad_engine_specs_are_refused_with_the_spec_and_key_named() {
    let dir = tmp("bad");
    let run = |engines: &[&str], extra: &[&str]| {
        let out = Command::new(assert_cmd::cargo::cargo_bin("stackchess"))
            .args(["tournament", "-v", "fide", "-q"])
            .args(engines.iter().flat_map(|e| ["--engine", e]))
            .args(extra)
            .arg("--out")
            .arg(&dir)
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr).to_string();
        assert_eq!(out.status.code(), Some(1), "{stderr}");
        assert!(!stderr.contains("panicked"), "{stderr}");
        stderr
    };
    let e = run(&["name=A,nodse=5", "name=B", "name=C"], &[]);
    assert!(e.contains("--engine name=A,nodse=5: key 'nodse': unknown key"), "{e}");
    let e = run(&["name=A", "name=B,nodes=ten", "name=C"], &[]);
    assert!(e.contains("--engine name=B,nodes=ten: key 'nodes': 'ten' is not a whole number"), "{e}");
    let e = run(&["name=A", "name=B"], &[]);
    assert!(e.contains("three or more engines"), "{e}");
    let e = run(&["name=A", "name=B", "name=A,nodes=9"], &[]);
    assert!(e.contains("two engines are named 'A'"), "{e}");
    let e = run(&["name=A", "name=B", "name=C,param=value.quen=1"], &[]);
    assert!(e.contains("--engine name=C,param=value.quen=1") && e.contains("value.quen"), "{e}");
    let e = run(&["name=A", "name=B", "name=C"], &["--anchor", "D"]);
    assert!(e.contains("--anchor D: no engine of that name"), "{e}");
    let e = run(&["name=A", "name=B", "name=C"], &["--games-per-pair", "3"]);
    assert!(e.contains("--games-per-pair 3"), "{e}");
    // Nothing was played.
    assert!(!dir.join("A-vs-B").exists());
}

#[test]
fn sigterm_stops_the_pairing_cleanly_and_a_rerun_completes_it() {
    let dir = tmp("signal");
    let args = |out: &Path| {
        let mut c = std::process::Command::new(assert_cmd::cargo::cargo_bin("stackchess"));
        c.args(["tournament", "-v", "fide", "--games-per-pair", "6", "--threads", "1", "-q"])
            .args(["--engine", "name=a,nodes=2000", "--engine", "name=b,nodes=3000", "--engine", "name=c,nodes=4000"])
            .arg("--out")
            .arg(out);
        c
    };
    let child = args(&dir).stdout(std::process::Stdio::piped()).stderr(std::process::Stdio::piped()).spawn().unwrap();
    let first = dir.join("a-vs-b").join("games.csv");
    let started = std::time::Instant::now();
    while std::fs::read_to_string(&first).map_or(0, |t| t.lines().count()) < 2 {
        assert!(started.elapsed() < std::time::Duration::from_mins(1), "no game finished");
        std::thread::sleep(std::time::Duration::from_millis(5));
    }
    let kill = std::process::Command::new("kill").args(["-TERM", &child.id().to_string()]).status().unwrap();
    assert!(kill.success());
    let out = child.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(stderr.contains("interrupted during a vs b") && stderr.contains("run the same command again"), "{stderr}");
    let kept: Vec<_> = read_records(&first).unwrap().into_iter().map(|r| r.without_timing()).collect();
    assert!(!kept.is_empty() && kept.len() < 6, "{} games kept", kept.len());
    assert!(!dir.join("a-vs-c").exists(), "no pairing begins after the signal");

    let again = args(&dir).output().unwrap();
    let stdout = String::from_utf8_lossy(&again.stdout);
    assert!(again.status.success(), "{}", String::from_utf8_lossy(&again.stderr));
    assert!(stdout.contains(&format!("18 games in 3 pairings ({} played now", 18 - kept.len())), "{stdout}");
    let all: Vec<_> = read_records(&first).unwrap().into_iter().map(|r| r.without_timing()).collect();
    assert_eq!(all.len(), 6);
    for g in &kept {
        assert!(all.contains(g), "game {} kept as it was", g.game_id);
    }
    std::fs::remove_dir_all(dir).unwrap();
}
