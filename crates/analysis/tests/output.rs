//! Tables as text, CSV, JSON and files; the HTML report.

use polars::prelude::*;
use polars_io::prelude::{ParquetReader, SerReader};
use stackchess_analysis::{
    analyse, compare_sets, load, render, write_all, Format, GameLink, Games, Options, PieceOptions,
};
use std::path::PathBuf;

const DIR: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures");

fn basic() -> Games {
    load(&[format!("{DIR}/basic/*")]).unwrap()
}

fn scratch(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("stackchess-analysis-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

fn quick() -> Options {
    Options {
        opening_plies: vec![1, 2],
        pieces: Some(PieceOptions { bootstrap: 5, skip_plies: 2, every: 1, ..Default::default() }),
        plies: Some(stackchess_analysis::plies::PlyOptions::default()),
    }
}

#[test]
fn text_csv_and_json_renderings() {
    let a = analyse(&basic(), &Options { pieces: None, opening_plies: vec![], plies: None }).unwrap();
    let text = render(&a.tables[..1], Format::Table).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert!(lines[0].starts_with("Results per variant"), "{text}");
    assert!(lines[1].starts_with("variant") && lines[1].contains("white_score"), "{text}");
    assert_eq!(lines.len(), 3 + 4, "{text}");
    assert!(lines[1].contains("white_score [95%]") && !lines[1].contains("white_score_lo"), "{text}");
    assert!(text.contains("0.667 [0.314, 1.000]") && text.contains("120.4 [-135.9, +inf]"), "{text}");

    let csv = render(&a.tables[..1], Format::Csv).unwrap();
    assert_eq!(csv.lines().count(), 5);
    assert!(csv.lines().next().unwrap().starts_with("variant,settings,games,white_wins"), "{csv}");
    assert!(csv.contains("\"nodes=50,plain\""), "{csv}");
    let several = render(&a.tables, Format::Csv).unwrap();
    assert!(several.starts_with("# summary\n") && several.contains("\n# terminations\n"), "{several}");

    let json: serde_json::Value = serde_json::from_str(&render(&a.tables, Format::Json).unwrap()).unwrap();
    let summary = json["summary"].as_array().unwrap();
    assert_eq!(summary.len(), 4);
    let one = summary.iter().find(|r| r["settings"] == "nodes=50").unwrap();
    assert_eq!(one["white_score"], 0.0);
    assert!(one["white_elo"].is_null(), "−∞ has no JSON number: {one}");
    assert_eq!(json["lengths"].as_array().unwrap().len(), 4);
}

#[test]
fn files_by_extension() {
    let dir = scratch("files");
    let a = analyse(&basic(), &Options { pieces: None, opening_plies: vec![1], plies: None }).unwrap();
    let files = write_all(&a.tables, &dir.join("stats.csv")).unwrap();
    let names: Vec<String> = files.iter().map(|f| f.file_name().unwrap().to_string_lossy().into_owned()).collect();
    assert_eq!(names, ["stats.csv", "stats.lengths.csv", "stats.terminations.csv", "stats.openings.csv"]);
    let back = load(&[format!("{DIR}/basic/*")]).unwrap(); // unchanged inputs
    assert_eq!(back.len(), 14);
    assert!(std::fs::read_to_string(&files[0]).unwrap().starts_with("variant,settings,games"));

    let files = write_all(&a.tables, &dir.join("stats.parquet")).unwrap();
    let df = ParquetReader::new(std::fs::File::open(&files[0]).unwrap()).finish().unwrap();
    assert_eq!(df.shape(), a.tables[0].df.shape());
    assert_eq!(df.column("white_wins").unwrap().i64().unwrap().sum(), Some(6));

    let files = write_all(&a.tables, &dir.join("stats.json")).unwrap();
    assert_eq!(files.len(), 1);
    let v: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(&files[0]).unwrap()).unwrap();
    assert_eq!(v["openings"].as_array().unwrap().len(), 4);

    let e = write_all(&a.tables, &dir.join("stats.xlsx")).unwrap_err();
    assert!(e.to_string().contains("stats.xlsx: unknown output format"), "{e}");
    let e = write_all(&a.tables, &dir.join("missing-dir/stats.csv")).unwrap_err();
    assert!(e.to_string().contains("missing-dir/stats.csv: cannot write"), "{e}");
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn report_holds_every_chart_and_table() {
    let a = analyse(&basic(), &quick()).unwrap();
    let html = a.report("Fixture report", vec!["notes <here>".into()], None).unwrap();
    assert!(html.starts_with("<!DOCTYPE html>") && html.trim_end().ends_with("</html>"));
    assert!(html.contains("notes &lt;here&gt;"));
    // Self-contained: no script, no external resource.
    for bad in ["<script", "http://", "https://", "<link", "src="] {
        let allowed =
            bad == "http://" && html.matches(bad).count() == html.matches("http://www.w3.org/2000/svg").count();
        assert!(!html.contains(bad) || allowed, "found {bad}");
    }
    // W/D/L bars (3 segments x 2 groups + 2 + 1 + ...), score intervals, 4 histograms, terminations, piece values.
    let piece_charts = html.matches("<title>Piece values: ").count();
    assert_eq!(piece_charts + html.matches("no piece values").count(), 2, "one per variant");
    assert_eq!(html.matches("<svg").count(), 1 + 1 + 4 + 1 + piece_charts);
    assert!(html.contains("Results: White wins / draws / Black wins"));
    assert!(html.contains("White&#39;s score with 95% interval") || html.contains("White's score with 95% interval"));
    assert_eq!(html.matches("<title>Game length: ").count(), 4);
    assert!(html.contains("How games end"));
    assert!(html.contains("class=\"dot\"") && html.contains("class=\"whisker\""));
    assert!(html.contains("<h2>Piece values</h2>"));
    for t in ["t-summary", "t-lengths", "t-terminations", "t-openings", "t-pieces"] {
        assert!(html.contains(t), "table {t}");
    }
}

#[test]
fn report_links_the_games_to_look_at_by_variant() {
    let a = analyse(&basic(), &quick()).unwrap();
    assert!(!a.report("r", vec![], None).unwrap().contains("Games to look at"), "no links, no section");
    let link = |variant: &str, label: &str, id: &str| GameLink {
        variant: variant.into(),
        label: label.into(),
        href: format!("games.html#game={id}&ply=0"),
        detail: format!("12 plies <{id}>"),
    };
    let links = [link("traditional", "longest draw", "t-1"), link("malka", "shortest White win", "m-1")];
    let html = a.report_with_games("r", vec![], None, &links).unwrap();
    let section = &html[html.find("<h2>Games to look at</h2>").expect("the section")..];
    let (m, t) = (section.find("<b>malka</b>").unwrap(), section.find("<b>traditional</b>").unwrap());
    assert!(m < t, "variants in name order");
    assert!(section
        .contains("<li><a href=\"games.html#game=m-1&amp;ply=0\">shortest White win</a>: 12 plies &lt;m-1&gt;</li>"));
    assert!(html.find("<h2>How games end</h2>").unwrap() < html.find("<h2>Games to look at</h2>").unwrap());
}

#[test]
fn comparison_report_and_piece_values_per_set() {
    let a = load(&[format!("{DIR}/basic/malka")]).unwrap();
    let b = load(&[format!("{DIR}/basic/traditional")]).unwrap();
    let (c, an) = compare_sets(&a, &b, &quick()).unwrap();
    assert_eq!(c.labels[0], "malka (nodes=1000) + malka (nodes=50,plain)");
    let variants: Vec<String> = an.pieces.as_ref().unwrap().iter().map(|p| p.variant.clone()).collect();
    assert_eq!(variants, ["A: malka", "B: traditional"]);
    let html = an.report("cmp", vec![], Some(&c)).unwrap();
    assert!(html.contains("<h2>Comparison</h2>") && html.contains("t-compare") && html.contains("t-sides"));
    assert!(html.contains("A: malka · nodes=1000"));
}

#[test]
fn piece_values_replay_the_fixture_games() {
    let a = analyse(&basic(), &quick()).unwrap();
    let pv = a.pieces.as_ref().unwrap();
    assert_eq!(pv.len(), 2);
    for p in pv {
        assert_eq!(p.skipped, 0, "{:?}", p.first_error);
        assert!(p.positions > 0);
    }
    let t = a.tables.last().unwrap();
    assert_eq!(t.name, "pieces");
    assert_eq!(t.df.height(), 2 * 6);
}

/// Renders the report in headless Chromium and checks the screenshot shows something.
/// Needs `chromium` on the PATH (`apt-get install -y chromium`); run with `--ignored`.
#[test]
#[ignore = "needs chromium (apt-get install -y chromium); run with --ignored"]
fn report_renders_in_headless_chromium() {
    let dir = scratch("chromium");
    let a = analyse(&basic(), &quick()).unwrap();
    let page = dir.join("report.html");
    std::fs::write(&page, a.report("Fixture report", vec![], None).unwrap()).unwrap();
    let shot = dir.join("report.png");
    let status = std::process::Command::new("chromium")
        .args(["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--hide-scrollbars"])
        .arg("--window-size=1200,2400")
        .arg(format!("--screenshot={}", shot.display()))
        .arg(format!("file://{}", page.display()))
        .status()
        .expect("chromium is not installed: apt-get install -y chromium");
    assert!(status.success());
    let png = std::fs::read(&shot).unwrap();
    assert_eq!(&png[1..4], b"PNG");
    // A blank page compresses to a few kilobytes; charts and tables make it much larger.
    assert!(png.len() > 50_000, "screenshot is only {} bytes", png.len());
}

#[test]
fn piece_value_intervals_do_not_depend_on_the_order_games_were_written() {
    // Parallel self-play writes games in the order they finish: the bootstrap must not see it.
    let rows = basic().rows().unwrap();
    let opts = PieceOptions { bootstrap: 20, skip_plies: 2, every: 1, ..Default::default() };
    let forward = stackchess_analysis::pieces::piece_values(&rows, opts);
    let mut reversed_rows = rows.clone();
    reversed_rows.reverse();
    let reversed = stackchess_analysis::pieces::piece_values(&reversed_rows, opts);
    assert!(forward.iter().any(|v| v.resamples > 0), "no bootstrap to compare: {forward:?}");
    assert_eq!(forward, reversed);
}
