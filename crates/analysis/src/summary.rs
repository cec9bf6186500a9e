//! Per variant and engine setting: results, White's score and Elo with intervals, draw rate,
//! game length and activity, termination reasons.

use crate::error::Result;
use crate::load::{GameRow, Games};
use crate::stats::{self, clustered_score, ClusteredScore, Interval, Penta, Wdl, Z95};
use crate::table::Table;
use polars::prelude::*;
use std::collections::{BTreeMap, HashMap};

/// Games grouped by (variant, settings), sorted.
pub type Groups<'a> = BTreeMap<(String, String), Vec<&'a GameRow>>;

/// Groups games by variant and engine settings.
#[must_use]
pub fn groups(rows: &[GameRow]) -> Groups<'_> {
    let mut g: Groups<'_> = BTreeMap::new();
    for r in rows {
        g.entry((r.variant.clone(), r.settings.clone())).or_default().push(r);
    }
    g
}

/// White's results in a set of games.
#[must_use]
pub fn wdl<'a>(games: impl IntoIterator<Item = &'a GameRow>) -> Wdl {
    let mut w = Wdl::default();
    for g in games {
        match g.white_points {
            p if p > 0.75 => w.wins += 1,
            p if p < 0.25 => w.losses += 1,
            _ => w.draws += 1,
        }
    }
    w
}

/// White's score in a set of games, the games of one opening (same `run_key` and `pair`)
/// counted as one cluster; and the pentanomial counts of its two-game clusters.
#[must_use]
pub fn white_score(games: &[&GameRow]) -> Option<(ClusteredScore, [u64; 5])> {
    let mut clusters: HashMap<(&str, i64), (f64, u32)> = HashMap::new();
    for g in games {
        let c = clusters.entry((&g.run_key, g.pair)).or_insert((0.0, 0));
        c.0 += g.white_points;
        c.1 += 1;
    }
    let mut list: Vec<(f64, u32)> = clusters.into_values().collect();
    list.sort_by(|a, b| a.partial_cmp(b).unwrap_or(std::cmp::Ordering::Equal));
    let penta = Penta::from_pair_points(list.iter().filter(|c| c.1 == 2).map(|c| c.0)).0;
    clustered_score(&list).map(|s| (s, penta))
}

fn key_at(df: &DataFrame, i: usize) -> Result<(String, String)> {
    let v = df.column("variant")?.str()?.get(i).unwrap_or_default().to_owned();
    let s = df.column("settings")?.str()?.get(i).unwrap_or_default().to_owned();
    Ok((v, s))
}

/// White's results in a set of games, with 95% intervals.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SideStats {
    /// White's wins, draws and losses.
    pub wdl: Wdl,
    /// White's score, its variance treating each opening (pair) as a cluster.
    pub score: ClusteredScore,
    /// Interval of the score.
    pub score_interval: Interval,
    /// White's first-move advantage in Elo.
    pub elo: f64,
    /// Its interval.
    pub elo_interval: Interval,
    /// Wilson interval of the draw rate.
    pub draw_interval: Interval,
    /// Pentanomial counts of White's points in two-game openings.
    pub ptnml: [u64; 5],
}

impl SideStats {
    /// Statistics of a set of games; `None` if it is empty.
    #[must_use]
    pub fn of(games: &[&GameRow]) -> Option<SideStats> {
        let wdl = wdl(games.iter().copied());
        let (score, ptnml) = white_score(games)?;
        let score_interval = score.interval(Z95);
        Some(SideStats {
            wdl,
            score,
            score_interval,
            elo: stats::elo(score.mean),
            elo_interval: stats::elo_interval(score_interval),
            draw_interval: stats::wilson(wdl.draws, wdl.games(), Z95)?,
            ptnml,
        })
    }
    /// Two-game openings.
    #[must_use]
    pub fn pairs(&self) -> u64 {
        self.ptnml.iter().sum()
    }
    /// The pentanomial counts as text, `-` without pairs.
    #[must_use]
    pub fn ptnml_text(&self) -> Option<String> {
        (self.pairs() > 0).then(|| self.ptnml.map(|c| c.to_string()).join(" "))
    }
}

/// Results per variant and setting: games, W/D/L, White's score, Elo and draw rate with 95%
/// intervals, and the pentanomial counts when openings are paired.
///
/// The score's variance treats the games of one opening as a cluster, so it is the trinomial
/// variance for unpaired games and the pentanomial one for paired games.
///
/// # Errors
/// A polars error.
pub fn results_table(games: &Games, rows: &[GameRow]) -> Result<Table> {
    let counted = |r: &str| col("result").eq(lit(r.to_owned())).cast(DataType::Int64).sum();
    let df = games
        .df
        .clone()
        .lazy()
        .group_by([col("variant"), col("settings")])
        .agg([
            len().cast(DataType::Int64).alias("games"),
            counted("1-0").alias("white_wins"),
            counted("1/2-1/2").alias("draws"),
            counted("0-1").alias("black_wins"),
        ])
        .sort(["variant", "settings"], SortMultipleOptions::default())
        .collect()?;
    let groups = groups(rows);
    let mut stats = Vec::with_capacity(df.height());
    for i in 0..df.height() {
        let games = groups.get(&key_at(&df, i)?).map(Vec::as_slice).unwrap_or_default();
        stats.push(SideStats::of(games));
    }
    let mut out = df;
    for c in side_columns(&stats) {
        out.with_column(c)?;
    }
    Ok(Table::new("summary", "Results per variant and setting (White's view; 95% intervals)", out))
}

/// The score, Elo, draw-rate and pair columns of [`SideStats`].
#[must_use]
pub fn side_columns(stats: &[Option<SideStats>]) -> Vec<Column> {
    type Get = fn(&SideStats) -> f64;
    let floats: [(&str, Get); 9] = [
        ("white_score", |s| s.score.mean),
        ("white_score_lo", |s| s.score_interval.lo),
        ("white_score_hi", |s| s.score_interval.hi),
        ("white_elo", |s| s.elo),
        ("white_elo_lo", |s| s.elo_interval.lo),
        ("white_elo_hi", |s| s.elo_interval.hi),
        ("draw_rate", |s| s.wdl.draw_rate().unwrap_or(f64::NAN)),
        ("draw_rate_lo", |s| s.draw_interval.lo),
        ("draw_rate_hi", |s| s.draw_interval.hi),
    ];
    let mut cols: Vec<Column> = floats
        .iter()
        .map(|(name, get)| Column::new((*name).into(), stats.iter().map(|s| s.as_ref().map(get)).collect::<Vec<_>>()))
        .collect();
    cols.push(Column::new("pairs".into(), stats.iter().map(|s| s.map_or(0, |s| s.pairs() as i64)).collect::<Vec<_>>()));
    cols.push(Column::new("ptnml".into(), stats.iter().map(|s| s.and_then(|s| s.ptnml_text())).collect::<Vec<_>>()));
    cols
}

/// Game length and activity per variant and setting: plies (mean, median, quartiles, 10th and
/// 90th percentiles; linear interpolation), level changes, captures and checks per game.
///
/// # Errors
/// A polars error.
pub fn lengths_table(games: &Games) -> Result<Table> {
    let plies = || col("plies").cast(DataType::Float64);
    let q = |p: f64, name: &str| plies().quantile(lit(p), QuantileMethod::Linear).alias(name.to_owned());
    let per_game =
        |a: &str, b: &str, name: &str| (col(a) + col(b)).cast(DataType::Float64).mean().alias(name.to_owned());
    let df = games
        .df
        .clone()
        .lazy()
        .group_by([col("variant"), col("settings")])
        .agg([
            len().cast(DataType::Int64).alias("games"),
            plies().mean().alias("plies_mean"),
            q(0.5, "plies_median"),
            q(0.25, "plies_q1"),
            q(0.75, "plies_q3"),
            q(0.1, "plies_p10"),
            q(0.9, "plies_p90"),
            col("plies").min().alias("plies_min"),
            col("plies").max().alias("plies_max"),
            per_game("level_changes_white", "level_changes_black", "level_changes_per_game"),
            per_game("captures_white", "captures_black", "captures_per_game"),
            per_game("checks_white", "checks_black", "checks_per_game"),
        ])
        .sort(["variant", "settings"], SortMultipleOptions::default())
        .collect()?;
    Ok(Table::new("lengths", "Game length (plies) and activity per game", df))
}

/// How games ended, per variant and setting: count, share of the group, and who won.
///
/// # Errors
/// A polars error.
pub fn terminations_table(games: &Games) -> Result<Table> {
    let counted = |r: &str| col("result").eq(lit(r.to_owned())).cast(DataType::Int64).sum();
    let df = games
        .df
        .clone()
        .lazy()
        .group_by([col("variant"), col("settings"), col("termination")])
        .agg([
            len().cast(DataType::Int64).alias("games"),
            counted("1-0").alias("white_wins"),
            counted("1/2-1/2").alias("draws"),
            counted("0-1").alias("black_wins"),
        ])
        .with_column(
            (col("games").cast(DataType::Float64)
                / col("games").sum().over([col("variant"), col("settings")])?.cast(DataType::Float64))
            .alias("share"),
        )
        .sort(
            ["variant", "settings", "games", "termination"],
            SortMultipleOptions::default().with_order_descending_multi([false, false, true, false]),
        )
        .select([
            col("variant"),
            col("settings"),
            col("termination"),
            col("games"),
            col("share"),
            col("white_wins"),
            col("draws"),
            col("black_wins"),
        ])
        .collect()?;
    Ok(Table::new("terminations", "Termination reasons", df))
}
