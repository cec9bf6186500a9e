//! `stackchess balance --ladder` and `--precision` on a tiny budget: one row per variant and
//! rung, paired pentanomial counts that add up to the games, sign verdicts per difference, the
//! charts against strength in the report, and batches added until the precision or the cap.

use assert_cmd::Command;
use std::path::PathBuf;

fn tmp(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("stackchess-cli-ladder-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    d
}

/// The rows of table `name` in `balance --format csv` output, as maps of column to value.
fn table(csv: &str, name: &str) -> Vec<std::collections::HashMap<String, String>> {
    let section = csv.split(&format!("# {name}\n")).nth(1).unwrap_or_else(|| panic!("no table {name} in {csv}"));
    let mut lines = section.lines().take_while(|l| !l.starts_with("# ")).filter(|l| !l.is_empty());
    let header: Vec<String> = lines.next().unwrap().split(',').map(str::to_owned).collect();
    lines.map(|l| header.iter().cloned().zip(l.split(',').map(str::to_owned)).collect()).collect()
}

#[test]
fn a_ladder_gives_a_row_per_variant_and_rung() {
    let dir = tmp("ladder");
    let out = Command::cargo_bin("stackchess")
        .unwrap()
        .args(["balance", "--variants", "fide,malka", "--ladder", "60,30", "--games", "6", "--max-plies", "24"])
        .args(["--no-pieces", "-q", "--format", "csv", "--dir"])
        .arg(&dir)
        .output()
        .unwrap();
    let (stdout, stderr) = (String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
    assert!(out.status.success(), "{stderr}");
    let rows = table(&stdout, "ladder");
    assert_eq!(rows.len(), 4, "{stdout}");
    for (variant, nodes) in [("fide", "30"), ("fide", "60"), ("malka", "30"), ("malka", "60")] {
        let r = rows.iter().find(|r| r["variant"] == variant && r["nodes"] == nodes).unwrap();
        assert_eq!(r["games"], "6");
        let counts: Vec<u64> = r["ptnml"].split(' ').map(|c| c.parse().unwrap()).collect();
        assert_eq!(counts.len(), 5);
        assert_eq!(2 * counts.iter().sum::<u64>(), 6, "{r:?}");
        assert_eq!(r["pairs"], "3");
    }
    let diffs = table(&stdout, "ladder_diff");
    assert_eq!(diffs.len(), 2 * 3);
    let signs = table(&stdout, "ladder_sign");
    assert_eq!(signs.len(), 3);
    for s in &signs {
        assert_eq!((s["set_a"].as_str(), s["set_b"].as_str(), s["signs"].len()), ("fide", "malka", 2), "{s:?}");
        assert!(["yes", "no"].contains(&s["keeps_sign"].as_str()));
    }
    // The second game of each pair starts from the first one's opening with its colours swapped:
    // the board turned over (ranks in reverse order, colours exchanged), the same side to move.
    let games = std::fs::read_to_string(dir.join("30-nodes").join("fide").join("games.csv")).unwrap();
    // Rows in the order games finished: by game id (the run key, then the index, zero-padded).
    let mut rows: Vec<&str> = games.lines().skip(1).collect();
    rows.sort_unstable();
    let starts: Vec<&str> = rows.iter().map(|l| l.split(',').nth(8).unwrap()).collect();
    assert_eq!(starts.len(), 6);
    let board = |fen: &str| fen.split(' ').take(2).collect::<Vec<_>>().join(" ");
    let turned = |fen: &str| {
        let (placement, turn) = fen.split_once(' ').unwrap();
        let swapcase = |r: &str| {
            r.chars()
                .map(|c| if c.is_ascii_uppercase() { c.to_ascii_lowercase() } else { c.to_ascii_uppercase() })
                .collect::<String>()
        };
        let ranks: Vec<String> = placement.split('/').rev().map(swapcase).collect();
        format!("{} {}", ranks.join("/"), turn.split(' ').next().unwrap())
    };
    for k in 0..3 {
        assert_eq!(board(starts[2 * k + 1]), turned(starts[2 * k]), "pair {k}: {starts:?}");
    }
    let report = std::fs::read_to_string(dir.join("report.html")).unwrap();
    // The ladder section: a band per variant in each of its three charts (other sections of the
    // report draw bands of their own).
    let at = report.find("<h2>Against strength</h2>").expect("the ladder section");
    let section = &report[at..];
    let section = section[4..].find("<h2>").map_or(section, |end| &section[..end + 4]);
    assert_eq!(section.matches(r#"class="band""#).count(), 3 * 2);
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn precision_adds_batches_up_to_the_cap() {
    let dir = tmp("precision");
    let out = Command::cargo_bin("stackchess")
        .unwrap()
        .args([
            "balance",
            "--variants",
            "fide",
            "--nodes",
            "30",
            "--games",
            "2",
            "--max-plies",
            "200",
            "--resign-score",
            "200",
        ])
        .args(["--precision", "0.01", "--max-games", "6", "--no-pieces", "-q", "--format", "csv", "--dir"])
        .arg(&dir)
        .output()
        .unwrap();
    let (stdout, stderr) = (String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
    assert!(out.status.success(), "{stderr}");
    // Six drawn games have an interval of zero width, but too few games to trust it.
    assert!(stderr.contains("not yet within (--max-games reached)"), "{stderr}");
    let games = std::fs::read_to_string(dir.join("fide").join("games.csv")).unwrap();
    assert_eq!(games.lines().count(), 7, "{stdout}");
    let _ = std::fs::remove_dir_all(dir);
}

/// `--calibrate N`: a paired match between neighbouring rungs per variant, its Elo as the
/// match's own records give it, and each rung's Elo above the lowest.
#[test]
fn calibrate_measures_each_step_of_the_ladder_by_a_match() {
    let dir = tmp("calibrate");
    let out = Command::cargo_bin("stackchess")
        .unwrap()
        .args(["balance", "--variants", "fide", "--ladder", "20,40,80", "--games", "4", "--max-plies", "30"])
        .args(["--calibrate", "12", "--no-pieces", "--no-plies", "-q", "--dir"])
        .arg(&dir)
        .output()
        .unwrap();
    let (stdout, stderr) = (String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
    assert!(out.status.success(), "{stderr}");
    assert!(stdout.contains("Strength of the rungs (paired matches of 12 games"), "{stdout}");
    let rows: Vec<&str> = stdout.lines().filter(|l| l.starts_with("fide ") && l.contains('→')).collect();
    assert_eq!(rows.len(), 2, "{stdout}");
    let mut sum = 0.0;
    for (row, (hi, lo)) in rows.iter().zip([(40, 20), (80, 40)]) {
        assert!(row.contains(&format!("{lo}→{hi}")), "{row}");
        let records = stackchess_selfplay::read_records(
            &dir.join("calibration").join("fide").join(format!("{hi}-vs-{lo}")).join("games.csv"),
        )
        .unwrap();
        assert_eq!(records.len(), 12);
        let mut t = stackchess_selfplay::Tally::of(true, &format!("n{hi}"));
        for r in &records {
            t.add(r);
        }
        let e = stackchess_selfplay::monitor::estimate(&t).unwrap();
        sum += e.elo;
        let fields: Vec<&str> = row.split_whitespace().collect();
        assert_eq!(fields[3], format!("{:+.1}", e.elo), "the step is the match's Elo: {row}");
        assert_eq!(fields[6], format!("{sum:+.1}"), "the rung's Elo adds the steps: {row}");
    }
    let refused = Command::cargo_bin("stackchess")
        .unwrap()
        .args(["balance", "--variants", "fide", "--games", "4", "--calibrate", "12", "-q", "--dir"])
        .arg(tmp("calibrate-refused"))
        .output()
        .unwrap();
    assert!(String::from_utf8_lossy(&refused.stderr).contains("a --ladder of two or more rungs"));
    std::fs::remove_dir_all(dir).unwrap();
}

/// `--calibrate N --anchor SPEC`: the lowest rung also plays an external engine (here
/// `stackchess engine` itself, rated 1000 by `--anchor-elo`), and every rung's Elo is the
/// anchor's rating plus that match's Elo plus the steps; the report draws the metrics against it.
#[test]
fn an_anchor_places_the_rungs_on_its_rating_scale() {
    let dir = tmp("anchor");
    let bin = assert_cmd::cargo::cargo_bin("stackchess");
    let spec = format!("name=self,cmd={},arg=engine,nodes=20", bin.display());
    let out = Command::cargo_bin("stackchess")
        .unwrap()
        .args(["balance", "--variants", "fide", "--ladder", "20,40", "--games", "2", "--max-plies", "30"])
        .args(["--calibrate", "4", "--anchor", &spec, "--anchor-elo", "1000", "--no-pieces", "--no-plies", "-q"])
        .arg("--dir")
        .arg(&dir)
        .output()
        .unwrap();
    let (stdout, stderr) = (String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
    assert!(out.status.success(), "{stderr}");
    assert!(stdout.contains("Elo on the scale of self (rated 1000)"), "{stdout}");
    let elo_of = |sub: &str, a: &str| {
        let records = stackchess_selfplay::read_records(&dir.join("calibration/fide").join(sub).join("games.csv"));
        let mut t = stackchess_selfplay::Tally::of(true, a);
        for r in &records.unwrap() {
            t.add(r);
        }
        assert_eq!(t.games, 4, "{sub}");
        stackchess_selfplay::monitor::estimate(&t).unwrap().elo
    };
    let rows: Vec<Vec<&str>> =
        stdout.lines().filter(|l| l.starts_with("fide ")).map(|l| l.split_whitespace().collect()).collect();
    let anchor = rows.iter().find(|r| r[1..3] == ["20", "vs"]).unwrap_or_else(|| panic!("{stdout}"));
    let (a, step) = (elo_of("20-vs-self", "n20"), elo_of("40-vs-20", "n40"));
    assert_eq!(anchor[8], format!("{:+.1}", 1000.0 + a), "{anchor:?}");
    let above = rows.iter().find(|r| r[1] == "20→40").unwrap_or_else(|| panic!("{stdout}"));
    assert_eq!(above[6], format!("{:+.1}", 1000.0 + a + step), "{above:?}");
    let report = std::fs::read_to_string(dir.join("report.html")).unwrap();
    assert_eq!(report.matches("against Elo</title>").count(), 3);
    for (bad, says) in [
        ("name=b,nodes=20".to_owned(), "give an external engine"),
        (format!("name=self,cmd={}", bin.display()), "--anchor-elo"),
    ] {
        let refused = Command::cargo_bin("stackchess")
            .unwrap()
            .args(["balance", "--variants", "fide", "--ladder", "20,40", "--games", "2", "--calibrate", "4"])
            .args(["--anchor", &bad, "-q", "--dir"])
            .arg(tmp("anchor-refused"))
            .output()
            .unwrap();
        assert!(!refused.status.success());
        assert!(
            String::from_utf8_lossy(&refused.stderr).contains(says),
            "{bad}: {}",
            String::from_utf8_lossy(&refused.stderr)
        );
    }
    std::fs::remove_dir_all(dir).unwrap();
}
