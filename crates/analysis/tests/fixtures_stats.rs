//! Statistics on the hand-made fixtures (tests/fixtures/README.md), checked against values
//! worked out by hand.

use polars::prelude::*;
use stackchess_analysis::{analyse, compare, load, summary, Games, Options, Table};

const DIR: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures");

fn fixture(p: &str) -> String {
    format!("{DIR}/{p}")
}

fn basic() -> Games {
    load(&[fixture("basic/*")]).unwrap()
}

fn close(a: f64, b: f64, tol: f64) {
    assert!((a - b).abs() <= tol || a == b, "{a} != {b} (±{tol})");
}

/// The row of `t` for a variant and setting.
fn row(t: &Table, variant: &str, settings: &str) -> DataFrame {
    t.df.clone()
        .lazy()
        .filter(col("variant").eq(lit(variant.to_owned())).and(col("settings").eq(lit(settings.to_owned()))))
        .collect()
        .unwrap()
}

fn f(df: &DataFrame, c: &str) -> f64 {
    match df.column(c).unwrap().get(0).unwrap() {
        AnyValue::Float64(x) => x,
        AnyValue::Int64(x) => x as f64,
        v => panic!("{c}: {v:?}"),
    }
}

fn s(df: &DataFrame, c: &str) -> Option<String> {
    match df.column(c).unwrap().get(0).unwrap() {
        AnyValue::String(x) => Some(x.to_owned()),
        AnyValue::Null => None,
        v => panic!("{c}: {v:?}"),
    }
}

#[test]
fn loads_globs_and_drops_duplicate_ids() {
    let g = basic();
    assert_eq!((g.len(), g.files.len(), g.duplicates), (14, 2, 0));
    let both = load(&[fixture("basic/*"), fixture("more")]).unwrap();
    assert_eq!((both.len(), both.files.len(), both.duplicates), (15, 3, 2));
    // The same directory twice is read once.
    let twice = load(&[fixture("basic/malka"), fixture("basic/malka/games.csv")]).unwrap();
    assert_eq!((twice.len(), twice.files.len()), (9, 1));
}

#[test]
fn results_match_hand_values() {
    let a = analyse(&basic(), &Options { pieces: None, ..Options::default() }).unwrap();
    let t = &a.tables[0];
    assert_eq!(t.name, "summary");
    assert_eq!(t.df.height(), 4);

    // Paired malka: W3 D2 L1, score 2/3; clustered (pentanomial) variance 7/216.
    let m = row(t, "malka", "nodes=1000");
    assert_eq!([f(&m, "games"), f(&m, "white_wins"), f(&m, "draws"), f(&m, "black_wins")], [6.0, 3.0, 2.0, 1.0]);
    close(f(&m, "white_score"), 2.0 / 3.0, 1e-12);
    close(f(&m, "white_score_lo"), 0.313_832_8, 1e-6);
    close(f(&m, "white_score_hi"), 1.0, 0.0);
    close(f(&m, "white_elo"), 120.412, 1e-3);
    close(f(&m, "white_elo_lo"), -135.892_6, 1e-3);
    assert_eq!(f(&m, "white_elo_hi"), f64::INFINITY);
    close(f(&m, "draw_rate"), 1.0 / 3.0, 1e-12);
    close(f(&m, "draw_rate_lo"), 0.096_771_4, 1e-6);
    close(f(&m, "draw_rate_hi"), 0.700_006_7, 1e-6);
    assert_eq!((f(&m, "pairs"), s(&m, "ptnml").as_deref()), (3.0, Some("0 1 0 1 1")));

    // Traditional, no draws: W3 L1, trinomial variance 0.1875 / 4.
    let tr = row(t, "traditional", "nodes=1000");
    close(f(&tr, "white_score"), 0.75, 1e-12);
    close(f(&tr, "white_score_lo"), 0.325_655_3, 1e-6);
    close(f(&tr, "white_elo"), 190.848_5, 1e-3);
    close(f(&tr, "draw_rate"), 0.0, 0.0);
    close(f(&tr, "draw_rate_hi"), 0.489_890_8, 1e-6);
    assert_eq!((f(&tr, "pairs"), s(&tr, "ptnml")), (0.0, None));

    // No decisive game: score ½ with no spread, Elo 0; draw rate 1, Wilson [0.4385, 1].
    let d = row(t, "malka", "nodes=50,plain");
    assert_eq!(
        [f(&d, "white_score"), f(&d, "white_score_lo"), f(&d, "white_score_hi"), f(&d, "white_elo")],
        [0.5, 0.5, 0.5, 0.0]
    );
    close(f(&d, "draw_rate_lo"), 0.438_503_0, 1e-6);
    close(f(&d, "draw_rate_hi"), 1.0, 0.0);

    // A single game, lost by White: score 0, Elo −∞, draw rate Wilson(0, 1) = [0, 0.7935].
    let one = row(t, "traditional", "nodes=50");
    assert_eq!((f(&one, "games"), f(&one, "white_score"), f(&one, "white_elo")), (1.0, 0.0, f64::NEG_INFINITY));
    close(f(&one, "draw_rate_hi"), 0.793_450_7, 1e-6);
}

#[test]
fn lengths_and_activity_match_hand_values() {
    let a = analyse(&basic(), &Options { pieces: None, opening_plies: vec![], plies: None }).unwrap();
    let t = &a.tables[1];
    assert_eq!(t.name, "lengths");
    // Plies 10 12 14 16 20 30, linear interpolation.
    let m = row(t, "malka", "nodes=1000");
    let got =
        ["plies_mean", "plies_median", "plies_q1", "plies_q3", "plies_p10", "plies_p90", "plies_min", "plies_max"]
            .map(|c| f(&m, c));
    assert_eq!(got, [17.0, 15.0, 12.5, 19.0, 11.0, 25.0, 10.0, 30.0]);
    close(f(&m, "level_changes_per_game"), 56.0 / 6.0, 1e-12);
    close(f(&m, "captures_per_game"), 16.0 / 6.0, 1e-12);
    close(f(&m, "checks_per_game"), 4.0 / 6.0, 1e-12);
    // Plies 8 9 11 20.
    let tr = row(t, "traditional", "nodes=1000");
    let got = ["plies_mean", "plies_median", "plies_q1", "plies_q3", "plies_p10", "plies_p90"].map(|c| f(&tr, c));
    for (g, w) in got.iter().zip([12.0, 10.0, 8.75, 13.25, 8.3, 17.3]) {
        close(*g, w, 1e-9);
    }
    close(f(&tr, "level_changes_per_game"), 7.5, 1e-12);
    close(f(&tr, "captures_per_game"), 1.75, 1e-12);
    // A single game: every quantile is its length.
    let one = row(t, "traditional", "nodes=50");
    assert_eq!([f(&one, "plies_q1"), f(&one, "plies_p90")], [5.0, 5.0]);
}

#[test]
fn termination_histogram() {
    let a = analyse(&basic(), &Options { pieces: None, opening_plies: vec![], plies: None }).unwrap();
    let t = &a.tables[2];
    assert_eq!(t.name, "terminations");
    let m =
        t.df.clone()
            .lazy()
            .filter(col("variant").eq(lit("malka")).and(col("settings").eq(lit("nodes=1000"))))
            .collect()
            .unwrap();
    let reasons: Vec<&str> = m.column("termination").unwrap().str().unwrap().iter().flatten().collect();
    // Most frequent first, then by name.
    assert_eq!(reasons, ["checkmate", "max-plies", "repetition", "resign"]);
    let games: Vec<i64> = m.column("games").unwrap().i64().unwrap().iter().flatten().collect();
    assert_eq!(games, [3, 1, 1, 1]);
    let white: Vec<i64> = m.column("white_wins").unwrap().i64().unwrap().iter().flatten().collect();
    let black: Vec<i64> = m.column("black_wins").unwrap().i64().unwrap().iter().flatten().collect();
    assert_eq!((white[0], black[0]), (2, 1));
    close(m.column("share").unwrap().f64().unwrap().get(0).unwrap(), 0.5, 1e-12);
    let total: i64 = t.df.column("games").unwrap().i64().unwrap().sum().unwrap();
    assert_eq!(total, 14);
}

#[test]
fn opening_entropy() {
    let a = analyse(&basic(), &Options { pieces: None, opening_plies: vec![1, 2], plies: None }).unwrap();
    let t = &a.tables[3];
    assert_eq!(t.name, "openings");
    let k1 = t
        .df
        .clone()
        .lazy()
        .filter(
            col("variant").eq(lit("malka")).and(col("settings").eq(lit("nodes=1000"))).and(col("plies").eq(lit(1i64))),
        )
        .collect()
        .unwrap();
    // Three games open 1e21e3, three 1d21d3: one bit.
    assert_eq!((f(&k1, "start_positions"), f(&k1, "distinct"), f(&k1, "entropy_bits")), (1.0, 2.0, 1.0));
    close(f(&k1, "max_bits"), 6f64.log2(), 1e-12);
    // All three draws open 1e21e3: zero bits.
    let k1 =
        t.df.clone()
            .lazy()
            .filter(col("settings").eq(lit("nodes=50,plain")).and(col("plies").eq(lit(1i64))))
            .collect()
            .unwrap();
    assert_eq!((f(&k1, "distinct"), f(&k1, "entropy_bits")), (1.0, 0.0));
}

#[test]
fn compare_matches_hand_values() {
    let rows = basic().rows().unwrap();
    let pick =
        |v: &str| rows.iter().filter(|r| r.variant == v && r.settings == "nodes=1000").cloned().collect::<Vec<_>>();
    let c = compare::compare(&pick("malka"), &pick("traditional")).unwrap();
    assert_eq!(c.labels, ["malka (nodes=1000)", "traditional (nodes=1000)"]);
    let score = &c.metrics[0];
    close(score.diff.diff, -1.0 / 12.0, 1e-12);
    close(score.diff.interval.lo, -0.635_203_0, 1e-6);
    close(score.diff.z.unwrap(), -0.295_958_2, 1e-6);
    close(score.diff.p_value.unwrap(), 0.767_262, 1e-5);
    let draws = &c.metrics[1];
    close(draws.diff.diff, 1.0 / 3.0, 1e-12);
    close(draws.diff.interval.hi, 0.710_528_6, 1e-6);
    close(draws.diff.z.unwrap(), 1.290_994_4, 1e-6);
    close(draws.diff.p_value.unwrap(), 0.196_705_6, 1e-5);
    let plies = &c.metrics[2];
    close(plies.diff.diff, 5.0, 1e-12);
    close(plies.diff.z.unwrap(), 1.391_965_3, 1e-6);
    // The paired side reports its pentanomial counts.
    assert_eq!((c.sides[0].ptnml, c.sides[1].pairs()), ([0, 1, 0, 1, 1], 0));
    let t = c.metrics_table().unwrap();
    assert_eq!(t.df.height(), 3);
    assert_eq!(c.sides_table().unwrap().df.height(), 2);
    let both = compare::comparisons_table(&[c.clone(), c]).unwrap();
    assert_eq!(both.df.shape(), (6, 14));
    assert_eq!(both.df.column("set_a").unwrap().str().unwrap().get(5), Some("malka (nodes=1000)"));
}

#[test]
fn side_stats_of_a_subset() {
    let rows = basic().rows().unwrap();
    let g = summary::groups(&rows);
    let s = summary::SideStats::of(&g[&("malka".to_owned(), "nodes=1000".to_owned())]).unwrap();
    close(s.score.variance, 7.0 / 216.0, 1e-15);
    assert_eq!(s.score.clusters, 3);
}
