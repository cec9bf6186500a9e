//! The ladder's line charts: a metric against strength (the node budget on a log scale, or the
//! rungs' measured Elo), a line and a 95% band per variant, and on the budget axis each variant's
//! fitted trend, dashed, continued past the top rung as a marked extrapolation.

use crate::svg::{esc, nice_ticks, tick, PALETTE};
use stackchess_stats::Line;
use std::fmt::Write as _;

/// One line of a chart: `(x, (value, lo, hi))` points, and its trend in the chart's `x`.
pub(super) struct Series {
    pub name: String,
    pub points: Vec<(f64, (f64, f64, f64))>,
    pub trend: Option<Line>,
}

/// The horizontal axis: its label, its ticks `(x, text)`, and how far right it reaches (past
/// the points, for an extrapolated trend).
pub(super) struct Axis {
    pub label: String,
    pub ticks: Vec<(f64, String)>,
    pub reach: Option<f64>,
}

impl Axis {
    /// Node budgets on a log scale (`x = log2(nodes)`): a tick per rung, and `extend_to` marked as
    /// an extrapolation when given.
    pub fn nodes(rungs: &[u64], extend_to: Option<u64>) -> Axis {
        let mut ticks: Vec<(f64, String)> = rungs.iter().map(|&n| (log2(n), n.to_string())).collect();
        if let Some(n) = extend_to {
            ticks.push((log2(n), format!("{n}?")));
        }
        Axis { label: "nodes per move (log scale; ? = extrapolated)".into(), ticks, reach: extend_to.map(log2) }
    }

    /// Elo values on a linear scale, with round ticks over `xs`.
    pub fn elo(label: &str, xs: &[f64]) -> Axis {
        let (lo, hi) = span(xs.iter().copied()).unwrap_or((0.0, 1.0));
        let ticks = nice_ticks(lo, hi);
        let step = if ticks.len() > 1 { ticks[1] - ticks[0] } else { 1.0 };
        Axis { label: label.into(), ticks: ticks.iter().map(|&v| (v, tick(v, step))).collect(), reach: None }
    }
}

/// `log2(n)`, with 0 read as 1.
pub(super) fn log2(n: u64) -> f64 {
    (n.max(1) as f64).log2()
}

fn span(values: impl Iterator<Item = f64>) -> Option<(f64, f64)> {
    let (lo, hi) =
        values.filter(|v| v.is_finite()).fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), v| (lo.min(v), hi.max(v)));
    (lo <= hi).then_some((lo, hi))
}

/// The chart's frame: sizes and the maps from data to pixels.
struct Frame {
    w: f64,
    h: f64,
    left: f64,
    right: f64,
    top: f64,
    bottom: f64,
    x: (f64, f64),
    y: (f64, f64),
}

impl Frame {
    fn new(series: &[Series], axis: &Axis, reference: Option<f64>) -> Frame {
        let xs = series.iter().flat_map(|s| s.points.iter().map(|p| p.0)).chain(axis.ticks.iter().map(|t| t.0));
        let x = span(xs.chain(axis.reach)).unwrap_or((0.0, 1.0));
        let ys = series.iter().flat_map(|s| s.points.iter().flat_map(|p| [p.1 .0, p.1 .1, p.1 .2]));
        let trend_ys: Vec<f64> = axis
            .reach
            .map(|r| series.iter().filter_map(|s| s.trend).map(|l| l.at(r).value).collect())
            .unwrap_or_default();
        let (y0, y1) = span(ys.chain(trend_ys).chain(reference)).unwrap_or((0.0, 1.0));
        let pad = ((y1 - y0) * 0.08).max(1e-6);
        let legend_rows = series.len().div_ceil(3) as f64;
        Frame {
            w: 380.0,
            h: 256.0 + 16.0 * legend_rows,
            left: 52.0,
            right: 24.0,
            top: 28.0,
            bottom: 206.0,
            x,
            y: (y0 - pad, y1 + pad),
        }
    }

    fn px(&self, x: f64) -> f64 {
        let (x0, x1) = self.x;
        if x1 > x0 {
            self.left + (self.w - self.left - self.right) * (x - x0) / (x1 - x0)
        } else {
            (self.left + self.w - self.right) / 2.0
        }
    }

    fn py(&self, y: f64) -> f64 {
        self.bottom - (self.bottom - self.top) * (y - self.y.0) / (self.y.1 - self.y.0)
    }
}

/// A line chart of `series` on `axis`, with a dashed horizontal `reference` if given.
pub(super) fn lines(title: &str, series: &[Series], axis: &Axis, reference: Option<f64>) -> String {
    let f = Frame::new(series, axis, reference);
    let mut s = format!(
        r#"<svg xmlns="http://www.w3.org/2000/svg" class="chart" width="{w}" height="{h}" viewBox="0 0 {w} {h}" role="img"><title>{t}</title><text x="0" y="16" class="ttl">{t}</text>"#,
        w = f.w,
        h = f.h,
        t = esc(title)
    );
    frame(&mut s, &f, axis);
    if let Some(r) = reference {
        let y = f.py(r);
        let _ = write!(
            s,
            r##"<line x1="{}" y1="{y:.1}" x2="{}" y2="{y:.1}" stroke="#999" stroke-dasharray="4 3"/>"##,
            f.left,
            f.w - f.right
        );
    }
    for (i, se) in series.iter().enumerate() {
        series_marks(&mut s, &f, se, axis.reach, PALETTE[i % PALETTE.len()]);
        let (lx, ly) = (f.left + 110.0 * (i % 3) as f64, f.bottom + 48.0 + 16.0 * (i / 3) as f64);
        let _ = write!(
            s,
            r#"<rect x="{lx:.1}" y="{:.1}" width="10" height="10" fill="{}"/><text x="{:.1}" y="{ly:.1}" class="lbl">{}</text>"#,
            ly - 9.0,
            PALETTE[i % PALETTE.len()],
            lx + 14.0,
            esc(&se.name)
        );
    }
    s.push_str("</svg>");
    s
}

/// Axes, grid lines with their values, the horizontal ticks and the axis label.
fn frame(s: &mut String, f: &Frame, axis: &Axis) {
    let (left, right, bottom) = (f.left, f.w - f.right, f.bottom);
    let _ = write!(s, r##"<line x1="{left}" y1="{bottom}" x2="{right}" y2="{bottom}" stroke="#333"/>"##);
    let _ = write!(s, r##"<line x1="{left}" y1="{}" x2="{left}" y2="{bottom}" stroke="#333"/>"##, f.top);
    let ticks = nice_ticks(f.y.0, f.y.1);
    let step = if ticks.len() > 1 { ticks[1] - ticks[0] } else { 1.0 };
    for v in &ticks {
        let y = f.py(*v);
        let _ = write!(
            s,
            r##"<line x1="{left}" y1="{y:.1}" x2="{right}" y2="{y:.1}" stroke="#eee"/><text x="{}" y="{:.1}" text-anchor="end" class="lbl">{}</text>"##,
            left - 4.0,
            y + 4.0,
            tick(*v, step)
        );
    }
    for (x, text) in &axis.ticks {
        let x = f.px(*x);
        let _ = write!(
            s,
            r##"<line x1="{x:.1}" y1="{bottom}" x2="{x:.1}" y2="{}" stroke="#333"/><text x="{x:.1}" y="{}" text-anchor="middle" class="lbl">{}</text>"##,
            bottom + 4.0,
            bottom + 16.0,
            esc(text)
        );
    }
    let _ = write!(
        s,
        r#"<text x="{}" y="{}" text-anchor="middle" class="lbl">{}</text>"#,
        (left + right) / 2.0,
        bottom + 30.0,
        esc(&axis.label)
    );
}

/// One series: its band, its line, its dots, and its trend (dashed over the points, dotted and
/// marked past them up to `reach`).
fn series_marks(s: &mut String, f: &Frame, se: &Series, reach: Option<f64>, colour: &str) {
    let finite = || se.points.iter().filter(|p| p.1 .1.is_finite() && p.1 .2.is_finite());
    let band: Vec<String> = finite()
        .map(|p| format!("{:.1},{:.1}", f.px(p.0), f.py(p.1 .2)))
        .chain(finite().collect::<Vec<_>>().iter().rev().map(|p| format!("{:.1},{:.1}", f.px(p.0), f.py(p.1 .1))))
        .collect();
    if band.len() >= 4 {
        let _ = write!(
            s,
            r#"<polygon class="band" points="{}" fill="{colour}" fill-opacity="0.18" stroke="none"/>"#,
            band.join(" ")
        );
    }
    let line: Vec<String> = se.points.iter().map(|p| format!("{:.1},{:.1}", f.px(p.0), f.py(p.1 .0))).collect();
    let _ = write!(
        s,
        r#"<polyline class="line" points="{}" fill="none" stroke="{colour}" stroke-width="2"/>"#,
        line.join(" ")
    );
    for (x, (v, lo, hi)) in &se.points {
        let _ = write!(
            s,
            r##"<circle class="dot" cx="{:.1}" cy="{:.1}" r="3.5" fill="{colour}" stroke="#333"><title>{}: {v:.3} [{lo:.3}, {hi:.3}]</title></circle>"##,
            f.px(*x),
            f.py(*v),
            esc(&se.name)
        );
    }
    if let Some(t) = se.trend {
        let (a, b) = t.range;
        let seg = |x0: f64, x1: f64, class: &str, dash: &str| {
            format!(
                r#"<line class="{class}" x1="{:.1}" y1="{:.1}" x2="{:.1}" y2="{:.1}" stroke="{colour}" stroke-width="1.5" stroke-dasharray="{dash}"/>"#,
                f.px(x0),
                f.py(t.at(x0).value),
                f.px(x1),
                f.py(t.at(x1).value)
            )
        };
        s.push_str(&seg(a, b, "trend", "6 3"));
        if let Some(r) = reach.filter(|&r| r > b) {
            s.push_str(&seg(b, r, "trend extrapolated", "2 3"));
            let at = t.at(r);
            let _ = write!(
                s,
                r#"<circle class="extrapolated" cx="{:.1}" cy="{:.1}" r="3" fill="white" stroke="{colour}"><title>{} extrapolated: {:.3} [{:.3}, {:.3}]</title></circle>"#,
                f.px(r),
                f.py(at.value),
                esc(&se.name),
                at.value,
                at.lo,
                at.hi
            );
        }
    }
}
