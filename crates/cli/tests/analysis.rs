//! `stackchess stats`, `compare` and `balance` as a user runs them.
#![cfg(feature = "analysis")]

use assert_cmd::Command;
use std::path::PathBuf;

const FIXTURES: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../analysis/tests/fixtures");

fn tmp(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("stackchess-cli-analysis-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

fn stackchess() -> Command {
    Command::cargo_bin("stackchess").unwrap()
}

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

#[test]
fn stats_prints_every_table_and_writes_files() {
    let dir = tmp("stats");
    let out = stackchess()
        .args(["stats", &format!("{FIXTURES}/basic/*"), &format!("{FIXTURES}/more"), "--bootstrap", "5"])
        .arg("--out")
        .arg(dir.join("t.csv"))
        .arg("--report")
        .arg(dir.join("r.html"))
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", text(&out.stderr));
    let (stdout, stderr) = (text(&out.stdout), text(&out.stderr));
    assert!(stderr.contains("read 15 games from 3 files (2 duplicate game ids dropped)"), "{stderr}");
    for title in ["Results per variant", "Game length", "Termination reasons", "Opening diversity", "Piece values"] {
        assert!(stdout.contains(title), "{title} missing:\n{stdout}");
    }
    assert!(stdout.contains("0.667 [0.314, 1.000]"), "{stdout}");
    for f in ["t.csv", "t.lengths.csv", "t.terminations.csv", "t.openings.csv", "t.pieces.csv", "r.html"] {
        assert!(dir.join(f).is_file(), "{f} not written");
    }
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn stats_json_is_one_object_of_tables() {
    let out = stackchess()
        .args(["stats", &format!("{FIXTURES}/basic/malka"), "--format", "json", "--no-pieces", "--opening-plies", "1"])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", text(&out.stderr));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["summary"].as_array().unwrap().len(), 2);
    assert!(v.get("pieces").is_none());
    assert_eq!(v["openings"].as_array().unwrap().len(), 2);
}

#[test]
fn bad_inputs_fail_naming_the_file() {
    for (case, want) in [
        ("truncated", "truncated/games.csv:3: truncated last line"),
        ("empty", "empty/games.csv: empty file"),
        ("missing_column", "missing column(s) checks_black"),
        ("no_such_dir", "no_such_dir: no such file or directory"),
    ] {
        let out = stackchess().args(["stats", &format!("{FIXTURES}/errors/{case}")]).output().unwrap();
        assert!(!out.status.success(), "{case} succeeded");
        let err = text(&out.stderr);
        assert!(err.starts_with("error: ") && err.contains(want), "{case}: {err}");
    }
}

#[test]
fn compare_two_sets() {
    let out = stackchess()
        .args([
            "compare",
            &format!("{FIXTURES}/basic/malka"),
            &format!("{FIXTURES}/basic/traditional"),
            "--format",
            "csv",
        ])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", text(&out.stderr));
    let csv = text(&out.stdout);
    assert!(csv.starts_with("# compare\nmetric,a,a_lo,a_hi,b,b_lo,b_hi,diff,diff_lo,diff_hi,z,p_value\n"), "{csv}");
    assert!(csv.contains("\nwhite_score,") && csv.contains("\ndraw_rate,") && csv.contains("# sides"), "{csv}");
}

#[test]
fn balance_plays_both_variants_and_writes_the_report() {
    let dir = tmp("balance");
    let run = |extra: &[&str]| {
        stackchess()
            .args(["balance", "--games", "4", "--nodes", "40", "--max-plies", "30", "--bootstrap", "3", "-q", "--dir"])
            .arg(&dir)
            .args(extra)
            .output()
            .unwrap()
    };
    let out = run(&[]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let stdout = text(&out.stdout);
    assert!(stdout.contains("Results per variant") && stdout.contains("A = malka"), "{stdout}");
    assert!(stdout.contains("white_score") && stdout.contains("draw_rate"), "{stdout}");
    let report = std::fs::read_to_string(dir.join("report.html")).unwrap();
    assert!(report.contains("<h2>Comparison</h2>") && report.contains("<svg"));
    // The games to look at link into the viewer page written beside the report.
    let page = std::fs::read_to_string(dir.join("games.html")).unwrap();
    let section = &report[report.find("<h2>Games to look at</h2>").expect("the section")..];
    for v in ["malka", "traditional"] {
        assert!(section.contains(&format!("<b>{v}</b>")), "{section}");
    }
    let ids: Vec<&str> = section.split("href=\"games.html#game=").skip(1).map(|s| &s[..s.find('&').unwrap()]).collect();
    assert!(ids.len() >= 2 && section.matches("typical length</a>").count() == 2, "{section}");
    for id in ids {
        assert!(page.contains(&format!("\"id\":\"{id}\"")), "{id} is in the page");
    }
    for v in ["malka", "traditional"] {
        let games = std::fs::read_to_string(dir.join(v).join("games.csv")).unwrap();
        assert_eq!(games.lines().count(), 5, "{v}");
    }
    // Again: the games are reused, not replayed, and the tables are the same.
    let again = run(&[]);
    assert!(again.status.success());
    assert_eq!(text(&again.stdout), stdout);
    let _ = std::fs::remove_dir_all(dir);
}

/// `stats` of a file, as CSV tables without piece values, and the games count it read.
fn stats_csv(path: &std::path::Path) -> (String, String) {
    let out = stackchess().arg("stats").arg(path).args(["--format", "csv", "--no-pieces"]).output().unwrap();
    assert!(out.status.success(), "{}", text(&out.stderr));
    (text(&out.stdout), text(&out.stderr))
}

#[test]
fn selfplay_keeps_a_parquet_copy_that_reads_as_the_csv() {
    let dir = tmp("parquet").join("run");
    let run = ["selfplay", "-v", "fide", "--nodes", "200", "--max-plies", "40", "-q", "--threads", "2"];
    let played = stackchess().args(run).args(["--games", "4", "--format", "parquet", "--out"]).arg(&dir).output();
    let played = played.unwrap();
    assert!(played.status.success(), "{}", text(&played.stderr));
    let manifest = std::fs::read_to_string(dir.join("manifest.json")).unwrap();
    assert!(manifest.contains(r#""format": "csv+parquet""#), "{manifest}");
    let (csv, parquet) = (stats_csv(&dir.join("games.csv")), stats_csv(&dir.join("games.parquet")));
    assert!(csv.1.contains("read 4 games") && parquet.1.contains("read 4 games"), "{}\n{}", csv.1, parquet.1);
    assert_eq!(csv.0, parquet.0);

    // Resumed without the flag, the run keeps its copy up to date.
    let more = stackchess().args(run).args(["--games", "6", "--resume", "--out"]).arg(&dir).output().unwrap();
    assert!(more.status.success(), "{}", text(&more.stderr));
    let (csv, parquet) = (stats_csv(&dir.join("games.csv")), stats_csv(&dir.join("games.parquet")));
    assert!(parquet.1.contains("read 6 games"), "{}", parquet.1);
    assert_eq!(csv.0, parquet.0);
    let _ = std::fs::remove_dir_all(dir.parent().unwrap());
}

#[test]
fn balance_compares_a_user_defined_rule_set_with_its_base() {
    let dir = tmp("rules");
    let rules = dir.join("malka-slider.toml");
    let slider =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../../data/rules/malka-slider.toml")).unwrap();
    std::fs::write(&rules, slider).unwrap();
    let spec = format!("rules:{}", rules.display());
    // The generator plays it: more first moves than Malka's (the queen is boxed in at the start,
    // so compare two plies deep), fewer than Traditional's.
    let perft = |v: &str| {
        let out = stackchess().args(["perft", "-v", v, "-d", "3"]).output().unwrap();
        assert!(out.status.success(), "{}", text(&out.stderr));
        text(&out.stdout).trim().parse::<u64>().unwrap()
    };
    let (malka, slider, traditional) = (perft("malka"), perft(&spec), perft("traditional"));
    assert!(malka < slider && slider < traditional, "{malka} {slider} {traditional}");

    let out = stackchess()
        .args(["balance", "--games", "4", "--nodes", "40", "--max-plies", "30", "--no-pieces", "-q", "--variants"])
        .arg(format!("malka,{spec}"))
        .arg("--dir")
        .arg(dir.join("out"))
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", text(&out.stderr));
    let stdout = text(&out.stdout);
    assert!(stdout.contains("A = malka") && stdout.contains("B = malka-slider"), "{stdout}");
    let games = std::fs::read_to_string(dir.join("out").join("malka-slider").join("games.csv")).unwrap();
    assert_eq!(games.lines().count(), 5);
    assert!(games.lines().nth(1).unwrap().contains(",malka-slider,"));
    // `stats` replays the games of a rule set it is given (else it says it could not).
    let stats = |extra: &[&std::ffi::OsStr]| {
        let mut cmd = stackchess();
        let out = cmd.arg("stats").arg(dir.join("out/malka-slider")).arg("--bootstrap=2").args(extra).output().unwrap();
        assert!(out.status.success(), "{}", text(&out.stderr));
        text(&out.stderr)
    };
    let without = stats(&[]);
    assert!(without.contains("4 game(s) could not be replayed") && without.contains("unknown variant"), "{without}");
    let with = stats(&["--rules".as_ref(), rules.as_os_str()]);
    assert!(!with.contains("could not be replayed"), "{with}");
    let bad = stackchess().args(["perft", "-v", "rules:/nowhere.toml", "-d", "1"]).output().unwrap();
    assert!(!bad.status.success() && text(&bad.stderr).contains("rule file /nowhere.toml"), "{}", text(&bad.stderr));
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn two_rule_sets_under_one_name_are_never_mixed() {
    let dir = tmp("mixed-rules");
    let file = dir.join("x.toml");
    let play = |out: &str| {
        let spec = format!("rules:{}", file.display());
        let args = ["selfplay", "-v", &spec, "--games", "2", "--nodes", "80", "--max-plies", "12", "-q", "--out"];
        stackchess().args(args).arg(dir.join(out)).output().unwrap()
    };
    std::fs::write(&file, "name = \"x\"\nbase = \"fide\"\n").unwrap();
    assert!(play("a").status.success());
    // The same name, other rules: stalemate wins.
    std::fs::write(&file, "name = \"x\"\nbase = \"fide\"\n[draws]\nstalemate = \"win\"\n").unwrap();
    assert!(play("b").status.success());
    let out = stackchess().arg("stats").arg(dir.join("a")).arg(dir.join("b")).output().unwrap();
    let e = text(&out.stderr);
    assert!(!out.status.success() && e.contains("two different rule sets") && e.contains("'x'"), "{e}");
    // A resume under the changed file is another run.
    let spec = format!("rules:{}", file.display());
    let args =
        ["selfplay", "-v", &spec, "--games", "4", "--nodes", "80", "--max-plies", "12", "-q", "--resume", "--out"];
    let out = stackchess().args(args).arg(dir.join("a")).output().unwrap();
    let e = text(&out.stderr);
    assert!(!out.status.success() && e.contains("rules_id"), "{e}");
    // A book of the changed rules refuses the old games.
    let book = dir.join("x.book");
    let args = ["book", "build", "-v", &spec, "--out", book.to_str().unwrap()];
    let out = stackchess().args(args).arg(dir.join("a")).output().unwrap();
    let e = text(&out.stderr);
    assert!(!out.status.success() && e.contains("other rules named 'x'"), "{e}");
    // Merging the two directories is refused too (different settings, different run keys).
    let out = stackchess()
        .args(["merge", "--out"])
        .arg(dir.join("m"))
        .arg(dir.join("a"))
        .arg(dir.join("b"))
        .output()
        .unwrap();
    assert!(!out.status.success(), "{}", text(&out.stdout));
}
