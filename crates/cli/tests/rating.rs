//! `match --rating-interval N --sprt ...` in a batch job (stderr piped, no terminal): a rating line
//! every N games, and the SPRT kept in the run directory (`sprt.csv`, `sprt.json`), a resumed run
//! appending to it consistently.

use assert_cmd::Command;
use stackchess_selfplay::sprt_log::{read_rows, SprtState, SPRT_CSV};
use stackchess_selfplay::stats::{Sprt, SprtModel};
use stackchess_selfplay::{read_records, Tally};
use std::path::{Path, PathBuf};

fn tmp(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("stackchess-rating-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    d
}

fn run_match(dir: &Path, games: &str, extra: &[&str]) -> (String, String) {
    let out = Command::new(assert_cmd::cargo::cargo_bin("stackchess"))
        .args(["match", "-v", "fide", "--games", games, "--paired", "--nodes", "120", "--max-plies", "40"])
        .args(["--engine-b", "--plain --nodes 60", "--rating-interval", "2", "--sprt=-5,5,0.1,0.1"])
        .args(["--sprt-model", "logistic", "--seed", "9"])
        .args(extra)
        .arg("--out")
        .arg(dir)
        .assert()
        .success();
    let o = out.get_output();
    (String::from_utf8_lossy(&o.stdout).into_owned(), String::from_utf8_lossy(&o.stderr).into_owned())
}

/// Checks the log against the records: a row per game in `games.csv` order, each with the LLR of
/// the games up to it (computed here by `stackchess_stats` over a tally of the records).
fn check_log(dir: &Path, sprt: &Sprt) -> Vec<stackchess_selfplay::sprt_log::SprtRow> {
    let records = read_records(&dir.join("games.csv")).unwrap();
    let rows = read_rows(&dir.join(SPRT_CSV)).unwrap();
    assert_eq!(rows.len(), records.len());
    let mut tally = Tally::new(true);
    for (n, (row, rec)) in rows.iter().zip(&records).enumerate() {
        tally.add(rec);
        assert_eq!((row.games, row.game_id.as_str()), (n as u64 + 1, rec.game_id.as_str()));
        assert_eq!(row.wdl, [tally.first.wins, tally.first.draws, tally.first.losses]);
        assert!((row.llr - sprt.llr_pentanomial(&tally.penta)).abs() < 1e-5, "row {n}: {row:?}");
    }
    let state = SprtState::read(dir).unwrap();
    let last = rows.last().unwrap();
    assert_eq!((state.games, state.model.as_str(), state.pentanomial), (last.games, "logistic", true));
    assert!((state.llr - last.llr).abs() < 1e-5 && state.verdict == "no decision yet", "{state:?}");
    assert!((state.lower - sprt.lower()).abs() < 1e-12 && (state.upper - sprt.upper()).abs() < 1e-12);
    rows
}

#[test]
fn rating_lines_every_n_games_and_the_sprt_kept_with_the_run() {
    let dir = tmp("match");
    let sprt = Sprt::new(-5.0, 5.0, 0.1, 0.1, SprtModel::Logistic).unwrap();
    let (stdout, stderr) = run_match(&dir, "6", &[]);
    let rows = check_log(&dir, &sprt);
    let lines: Vec<&str> = stderr.lines().filter(|l| l.starts_with("Rating after ")).collect();
    assert_eq!(lines.len(), 3, "{stderr}");
    for (line, n) in lines.iter().zip([2, 4, 6]) {
        let row = &rows[n - 1];
        let [w, d, l] = row.wdl;
        let want = format!("Rating after {n} games: A +{w} ={d} -{l}, score ");
        assert!(line.starts_with(&want), "{line} / {want}");
        assert!(line.contains("Elo ") && line.contains("(95%)") && line.contains("Ptnml(0-2) ["), "{line}");
        let llr = format!("LLR {:.2} ({:.2}, {:.2}) [-5, 5]", row.llr, sprt.lower(), sprt.upper());
        assert!(line.ends_with(&llr), "{line} / {llr}");
    }
    assert!(stdout.contains(&format!("SPRT (logistic): llr {:.2}", rows[5].llr)), "{stdout}");

    // Extended by two games: the log keeps its rows and gains two; one more rating line.
    let (_, stderr) = run_match(&dir, "8", &["--resume"]);
    let more = check_log(&dir, &sprt);
    assert_eq!(&more[..6], &rows[..]);
    let lines: Vec<&str> = stderr.lines().filter(|l| l.starts_with("Rating after ")).collect();
    assert_eq!(lines.len(), 1, "{stderr}");
    assert!(lines[0].starts_with("Rating after 8 games"), "{}", lines[0]);

    // A damaged log is rewritten from the records on resume.
    std::fs::write(dir.join(SPRT_CSV), "garbage\n").unwrap();
    run_match(&dir, "8", &["--resume"]);
    assert_eq!(check_log(&dir, &sprt), more);
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn a_zero_rating_interval_is_refused() {
    let out = Command::new(assert_cmd::cargo::cargo_bin("stackchess"))
        .args(["match", "-v", "fide", "--games", "2", "--rating-interval", "0", "--out"])
        .arg(tmp("zero"))
        .assert()
        .failure();
    assert!(String::from_utf8_lossy(&out.get_output().stderr).contains("--rating-interval"));
}
