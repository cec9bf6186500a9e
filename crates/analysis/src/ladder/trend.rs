//! Each variant's metrics against the budget: a weighted straight line through the rungs' values
//! against `log2(nodes)` ([`stackchess_stats::fit_line`], each rung weighted by its interval), so
//! the slope is the change per doubling of the budget; and the line's value at twice the top rung,
//! which no game measured and the table marks as an extrapolation.

use super::chart::log2;
use super::{Cell, METRICS};
use crate::table::Table;
use crate::Result;
use polars::prelude::*;
use stackchess_stats::{fit_line, Line, Point, Prediction, Z95};

/// One variant's trend in one metric.
#[derive(Clone, Debug, PartialEq)]
pub struct Trend {
    /// Variant name.
    pub variant: String,
    /// Which metric ([`METRICS`]).
    pub metric: &'static str,
    /// The fitted line, `x = log2(nodes)`.
    pub line: Line,
    /// Rungs fitted.
    pub rungs: usize,
}

impl Trend {
    /// The change per doubling of the budget, with its 95% interval.
    #[must_use]
    pub fn per_doubling(&self) -> (f64, f64, f64) {
        let (lo, hi) = self.line.slope_interval();
        (self.line.slope, lo, hi)
    }

    /// The line's value at `nodes`, with its interval, marked when outside the rungs.
    #[must_use]
    pub fn at(&self, nodes: u64) -> Prediction {
        self.line.at(log2(nodes))
    }
}

/// The trends of every variant and metric with two or more rungs whose intervals are finite.
pub(super) fn trends(cells: &[Cell], variants: &[String]) -> Vec<Trend> {
    let mut out = Vec::new();
    for v in variants {
        for (k, metric) in METRICS.iter().enumerate() {
            let points: Vec<Point> = cells
                .iter()
                .filter(|c| &c.variant == v)
                .map(|c| {
                    let (y, lo, hi) = c.values[k];
                    Point { x: log2(c.nodes), y, se: (hi - lo) / (2.0 * Z95) }
                })
                .collect();
            if let Some(line) = fit_line(&points) {
                out.push(Trend { variant: v.clone(), metric, line, rungs: points.len() });
            }
        }
    }
    out
}

/// The `ladder_trend` table: per variant and metric, the change per doubling with its interval,
/// the fit's scale factor, and the value at `beyond` nodes (extrapolated when past the rungs).
pub(super) fn table(trends: &[Trend], beyond: u64) -> Result<Table> {
    let t = trends;
    let per = |part: usize| {
        t.iter()
            .map(|x| {
                let p = x.per_doubling();
                [p.0, p.1, p.2][part]
            })
            .collect::<Vec<f64>>()
    };
    let at: Vec<Prediction> = t.iter().map(|x| x.at(beyond)).collect();
    let df = DataFrame::new_infer_height(vec![
        Column::new("variant".into(), t.iter().map(|x| x.variant.clone()).collect::<Vec<_>>()),
        Column::new("metric".into(), t.iter().map(|x| x.metric).collect::<Vec<_>>()),
        Column::new("rungs".into(), t.iter().map(|x| x.rungs as i64).collect::<Vec<_>>()),
        Column::new("per_doubling".into(), per(0)),
        Column::new("per_doubling_lo".into(), per(1)),
        Column::new("per_doubling_hi".into(), per(2)),
        Column::new("scale".into(), t.iter().map(|x| x.line.scale).collect::<Vec<_>>()),
        Column::new("at_nodes".into(), vec![beyond as i64; t.len()]),
        Column::new("predicted".into(), at.iter().map(|p| p.value).collect::<Vec<_>>()),
        Column::new("predicted_lo".into(), at.iter().map(|p| p.lo).collect::<Vec<_>>()),
        Column::new("predicted_hi".into(), at.iter().map(|p| p.hi).collect::<Vec<_>>()),
        Column::new(
            "extrapolated".into(),
            at.iter().map(|p| if p.extrapolated { "yes" } else { "no" }).collect::<Vec<_>>(),
        ),
    ])?;
    Ok(Table::new(
        "ladder_trend",
        format!(
            "Trend against the budget (a weighted line through the rungs against log2(nodes); the change per doubling \
             with its 95% interval; scale > 1: the rungs scatter more than their intervals, which it widens; the value \
             at {beyond} nodes is an extrapolation, not a measurement)"
        ),
        df,
    ))
}
