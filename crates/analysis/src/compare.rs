//! Two sets of runs side by side (two variants, or two settings): the difference in White's
//! score, draw rate and game length, with intervals and two-sided z-tests.
//!
//! White's score in each set uses the clustered variance of [`crate::summary::SideStats`]: when
//! a set's openings are paired, that is the pentanomial variance, and the pentanomial counts are
//! reported. The two sets are independent samples.

use crate::load::GameRow;
use crate::stats::{mean_difference, proportion_difference, Difference, Interval, Z95};
use crate::summary::{groups, side_columns, SideStats};
use crate::table::Table;
use crate::Result;
use polars::prelude::*;

/// A set's name for tables: its variant and setting, or the list of them.
#[must_use]
pub fn describe(rows: &[GameRow]) -> String {
    let keys: Vec<String> =
        groups(rows).into_keys().map(|(v, s)| if s.is_empty() { v } else { format!("{v} ({s})") }).collect();
    if keys.len() <= 3 {
        keys.join(" + ")
    } else {
        format!("{} + {} more", keys[..2].join(" + "), keys.len() - 2)
    }
}

/// One compared quantity.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Metric {
    /// Its name.
    pub name: &'static str,
    /// Value in A, and its interval.
    pub a: (f64, Option<Interval>),
    /// Value in B, and its interval.
    pub b: (f64, Option<Interval>),
    /// A − B, its interval and test.
    pub diff: Difference,
}

/// The comparison of two sets.
#[derive(Clone, Debug, PartialEq)]
pub struct Comparison {
    /// Names of the sets.
    pub labels: [String; 2],
    /// Statistics of each set.
    pub sides: [SideStats; 2],
    /// White's score, draw rate and mean game length compared.
    pub metrics: Vec<Metric>,
}

fn plies_mean(rows: &[GameRow]) -> (f64, f64) {
    let n = rows.len() as f64;
    let mean = rows.iter().map(|r| r.plies as f64).sum::<f64>() / n;
    let var = rows.iter().map(|r| (r.plies as f64 - mean).powi(2)).sum::<f64>() / n;
    (mean, var / n)
}

/// Compares two sets of games; `None` if either is empty.
#[must_use]
pub fn compare(a: &[GameRow], b: &[GameRow]) -> Option<Comparison> {
    let refs = |rows: &[GameRow]| -> Option<SideStats> { SideStats::of(&rows.iter().collect::<Vec<_>>()) };
    let (sa, sb) = (refs(a)?, refs(b)?);
    let score = Metric {
        name: "white_score",
        a: (sa.score.mean, Some(sa.score_interval)),
        b: (sb.score.mean, Some(sb.score_interval)),
        diff: mean_difference(sa.score.mean, sa.score.variance, sb.score.mean, sb.score.variance, Z95),
    };
    let draws = Metric {
        name: "draw_rate",
        a: (sa.wdl.draw_rate()?, Some(sa.draw_interval)),
        b: (sb.wdl.draw_rate()?, Some(sb.draw_interval)),
        diff: proportion_difference(sa.wdl.draws, sa.wdl.games(), sb.wdl.draws, sb.wdl.games(), Z95)?,
    };
    let ((ma, va), (mb, vb)) = (plies_mean(a), plies_mean(b));
    let around = |m: f64, v: f64| Interval { lo: m - Z95 * v.sqrt(), hi: m + Z95 * v.sqrt() };
    let plies = Metric {
        name: "plies_mean",
        a: (ma, Some(around(ma, va))),
        b: (mb, Some(around(mb, vb))),
        diff: mean_difference(ma, va, mb, vb, Z95),
    };
    Some(Comparison { labels: [describe(a), describe(b)], sides: [sa, sb], metrics: vec![score, draws, plies] })
}

impl Comparison {
    /// The metrics: one row each, A and B with intervals, A − B with interval, z and p-value.
    ///
    /// # Errors
    /// A polars error.
    pub fn metrics_table(&self) -> Result<Table> {
        let m = &self.metrics;
        let f = |get: fn(&Metric) -> Option<f64>| m.iter().map(get).collect::<Vec<_>>();
        let df = DataFrame::new_infer_height(vec![
            Column::new("metric".into(), m.iter().map(|x| x.name).collect::<Vec<_>>()),
            Column::new("a".into(), f(|x| Some(x.a.0))),
            Column::new("a_lo".into(), f(|x| x.a.1.map(|i| i.lo))),
            Column::new("a_hi".into(), f(|x| x.a.1.map(|i| i.hi))),
            Column::new("b".into(), f(|x| Some(x.b.0))),
            Column::new("b_lo".into(), f(|x| x.b.1.map(|i| i.lo))),
            Column::new("b_hi".into(), f(|x| x.b.1.map(|i| i.hi))),
            Column::new("diff".into(), f(|x| Some(x.diff.diff))),
            Column::new("diff_lo".into(), f(|x| Some(x.diff.interval.lo))),
            Column::new("diff_hi".into(), f(|x| Some(x.diff.interval.hi))),
            Column::new("z".into(), f(|x| x.diff.z)),
            Column::new("p_value".into(), f(|x| x.diff.p_value)),
        ])?;
        let title =
            format!("A = {}  v  B = {}  (A − B, 95% intervals, two-sided z-tests)", self.labels[0], self.labels[1]);
        Ok(Table::new("compare", title, df))
    }

    /// Each set's results, as in the summary table.
    ///
    /// # Errors
    /// A polars error.
    pub fn sides_table(&self) -> Result<Table> {
        let s = &self.sides;
        let int =
            |get: fn(&SideStats) -> u64| Column::new("".into(), s.iter().map(|x| get(x) as i64).collect::<Vec<_>>());
        let mut cols = vec![
            Column::new("set".into(), ["A", "B"]),
            Column::new("games".into(), s.iter().map(|x| x.wdl.games() as i64).collect::<Vec<_>>()),
            int(|x| x.wdl.wins).with_name("white_wins".into()),
            int(|x| x.wdl.draws).with_name("draws".into()),
            int(|x| x.wdl.losses).with_name("black_wins".into()),
        ];
        cols.extend(side_columns(&[Some(s[0]), Some(s[1])]));
        cols.push(Column::new("label".into(), self.labels.to_vec()));
        let df = DataFrame::new_infer_height(cols)?;
        Ok(Table::new("sides", "The two sets (White's view; 95% intervals)", df))
    }
}

/// Several comparisons in one table: their metrics rows, each led by the names of its two sets.
///
/// # Errors
/// A polars error.
pub fn comparisons_table(comparisons: &[Comparison]) -> Result<Table> {
    let mut all: Option<DataFrame> = None;
    for c in comparisons {
        let df = c.metrics_table()?.df;
        let h = df.height();
        let mut cols = vec![
            Column::new("set_a".into(), vec![c.labels[0].clone(); h]),
            Column::new("set_b".into(), vec![c.labels[1].clone(); h]),
        ];
        cols.extend(df.columns().iter().cloned());
        let df = DataFrame::new_infer_height(cols)?;
        match &mut all {
            Some(a) => {
                a.vstack_mut(&df)?;
            }
            None => all = Some(df),
        }
    }
    let df = all.unwrap_or_default();
    Ok(Table::new("compare", "Comparisons (A − B, 95% intervals, two-sided z-tests)", df))
}
