//! The per-ply statistics on a hand-made version-2 fixture (`fixtures/plies`: three fide games,
//! their plies and scores chosen by hand), and version-1 records that have none.

use polars::prelude::*;
use polars_io::prelude::{ParquetReader, SerReader};
use stackchess_analysis::plies::{ply_stats, PlyOptions};
use stackchess_analysis::{analyse, load, Options};

const DIR: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures");

fn close(a: f64, b: f64, tol: f64) {
    assert!((a - b).abs() <= tol, "{a} != {b} (±{tol})");
}

#[test]
fn evaluation_by_ply_and_comebacks_match_hand_values() {
    let games = load(&[format!("{DIR}/plies")]).unwrap();
    assert_eq!((games.len(), games.plies.len()), (3, 3));
    let stats = ply_stats(&games.rows().unwrap(), &games.plies, PlyOptions::default()).unwrap();
    assert_eq!((stats.games_with_plies, stats.games_without, stats.note()), (3, 0, None));
    let curve = &stats.curves[0];
    // White's view, plies from the start position (game 2 starts after its opening ply e2e4):
    // ply 1: +10, +30; ply 2: −20, +30, 0; ply 3: +150, +40, +60; ply 4: −1000 (mated), −50.
    let want =
        [(1, 2, 20.0, 10.0), (2, 3, 10.0 / 3.0, 422.222_2_f64.sqrt()), (3, 3, 250.0 / 3.0, 2_288.888_9_f64.sqrt())];
    for (p, (ply, n, mean, sd)) in curve.points.iter().zip(want) {
        assert_eq!((p.ply, p.n), (ply, n));
        close(p.mean, mean, 1e-9);
        close(p.sd, sd, 1e-3);
    }
    let last = curve.points[3];
    assert_eq!((last.ply, last.n), (4, 2));
    close(last.mean, -525.0, 1e-9);
    close(last.sd, 475.0, 1e-9);
    // The table pools plies 1-10: ten scores, sum −750, sum of squares 1,032,500.
    let t = &stats.tables[0];
    assert_eq!(t.name, "eval_by_ply");
    assert_eq!(t.df.height(), 1);
    let f = |name: &str| t.df.column(name).unwrap().f64().unwrap().get(0).unwrap();
    close(f("white_cp_mean"), -75.0, 1e-9);
    close(f("white_cp_sd"), 97_625f64.sqrt(), 1e-6);
    assert_eq!(t.df.column("positions").unwrap().i64().unwrap().get(0), Some(10));
    // Comebacks: White lost game 0 after its own +150 at ply 3; Black lost game 1 never above +50.
    let c = &stats.tables[1];
    assert_eq!(c.name, "comebacks");
    let i = |name: &str| c.df.column(name).unwrap().i64().unwrap().get(0).unwrap();
    assert_eq!((i("decisive"), i("comebacks")), (2, 1));
    close(c.df.column("comeback_share").unwrap().f64().unwrap().get(0).unwrap(), 0.5, 1e-12);
    // With a higher bar, no comeback.
    let strict = PlyOptions { comeback_cp: 151, ..PlyOptions::default() };
    let s = ply_stats(&games.rows().unwrap(), &games.plies, strict).unwrap();
    assert_eq!(s.comebacks.values().next().unwrap().comebacks, 0);
}

#[test]
fn version_1_records_are_named_and_skipped() {
    let v1 = load(&[format!("{DIR}/basic/*")]).unwrap();
    let a = analyse(&v1, &Options { pieces: None, ..Options::default() }).unwrap();
    let p = a.plies.unwrap();
    assert!(p.tables.is_empty() && p.curves.is_empty());
    assert!(p.note().unwrap().contains("none of the 14 games has plies"), "{:?}", p.note());
    // Mixed with version-2 games, those are analysed and the others named.
    let both = load(&[format!("{DIR}/basic/*"), format!("{DIR}/plies")]).unwrap();
    let a = analyse(&both, &Options { pieces: None, ..Options::default() }).unwrap();
    let p = a.plies.as_ref().unwrap();
    assert_eq!((p.games_with_plies, p.games_without), (3, 14));
    assert!(p.note().unwrap().contains("leave out 14 games"), "{:?}", p.note());
    assert!(a.tables.iter().any(|t| t.name == "eval_by_ply") && a.tables.iter().any(|t| t.name == "comebacks"));
    let html = a.report("t", vec![], None).unwrap();
    assert!(html.contains("<h2>Evaluation over the game</h2>") && html.contains(r#"class="line""#), "report");
}

#[test]
fn the_plies_table_has_a_parquet_copy() {
    let out = std::env::temp_dir().join(format!("stackchess-plies-{}.parquet", std::process::id()));
    let n =
        stackchess_analysis::load::write_plies_parquet(std::path::Path::new(&format!("{DIR}/plies/plies.csv")), &out)
            .unwrap();
    assert_eq!(n, 10);
    let df = ParquetReader::new(std::fs::File::open(&out).unwrap()).finish().unwrap();
    let names: Vec<String> = df.get_column_names().iter().map(ToString::to_string).collect();
    // The fixture was written before clocks: its `clock_ms` column is there, and empty.
    assert_eq!(
        names,
        ["game_id", "ply", "move", "san", "score_cp", "mate", "depth", "seldepth", "nodes", "time_ms", "clock_ms"]
    );
    assert_eq!(df.column("clock_ms").unwrap().null_count(), 10);
    assert_eq!((df.height(), df.column("mate").unwrap().null_count()), (10, 9));
    assert_eq!(df.column("score_cp").unwrap().dtype(), &DataType::Int64);
    std::fs::remove_file(out).unwrap();
}
