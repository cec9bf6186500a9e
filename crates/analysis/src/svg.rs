//! Small inline SVG charts for the HTML report: stacked bars, dot-and-whisker intervals,
//! histograms. Plain strings, no scripts, no external resources.

use std::fmt::Write as _;

/// Escapes text for HTML and SVG.
#[must_use]
pub fn esc(s: &str) -> String {
    s.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;").replace('"', "&quot;")
}

/// A categorical palette (colour-blind friendly, Okabe–Ito).
pub const PALETTE: [&str; 8] = ["#0072B2", "#E69F00", "#009E73", "#CC79A7", "#56B4E9", "#D55E00", "#F0E442", "#999999"];

const LABEL_W: f64 = 230.0;
const PLOT_W: f64 = 520.0;
const ROW_H: f64 = 26.0;
const TOP: f64 = 30.0;

fn open(w: f64, h: f64, title: &str) -> String {
    format!(
        r#"<svg xmlns="http://www.w3.org/2000/svg" class="chart" width="{w}" height="{h}" viewBox="0 0 {w} {h}" role="img"><title>{}</title>"#,
        esc(title)
    )
}

fn label(out: &mut String, y: f64, text: &str) {
    let short: String =
        if text.chars().count() > 34 { text.chars().take(33).chain(['…']).collect() } else { text.into() };
    let _ = write!(
        out,
        r#"<text x="{}" y="{}" text-anchor="end" class="lbl">{}<title>{}</title></text>"#,
        LABEL_W - 8.0,
        y + ROW_H / 2.0 + 4.0,
        esc(&short),
        esc(text)
    );
}

/// One horizontal bar of stacked segments.
pub struct StackedRow {
    /// Row label.
    pub label: String,
    /// Segment sizes (any unit; the bar is scaled to 100%).
    pub parts: Vec<f64>,
}

/// Horizontal 100% stacked bars with a legend; `colours[i]` paints segment `i`.
#[must_use]
pub fn stacked_bars(title: &str, rows: &[StackedRow], names: &[&str], colours: &[&str]) -> String {
    let legend_rows = names.len().div_ceil(4) as f64;
    let h = TOP + rows.len() as f64 * ROW_H + 22.0 * legend_rows + 14.0;
    let mut s = open(LABEL_W + PLOT_W + 20.0, h, title);
    let _ = write!(s, r#"<text x="0" y="16" class="ttl">{}</text>"#, esc(title));
    for (i, r) in rows.iter().enumerate() {
        let y = TOP + i as f64 * ROW_H;
        label(&mut s, y, &r.label);
        let total: f64 = r.parts.iter().sum();
        let mut x = LABEL_W;
        for (j, &p) in r.parts.iter().enumerate() {
            if total <= 0.0 || p <= 0.0 {
                continue;
            }
            let w = PLOT_W * p / total;
            let fill = colours[j % colours.len()];
            let pct = 100.0 * p / total;
            let _ = write!(
                s,
                r##"<rect class="seg" x="{x:.1}" y="{:.1}" width="{w:.1}" height="{:.1}" fill="{fill}" stroke="#333" stroke-width="0.5"><title>{}: {} ({pct:.1}%)</title></rect>"##,
                y + 3.0,
                ROW_H - 6.0,
                esc(names.get(j).copied().unwrap_or("")),
                p
            );
            if w > 34.0 {
                let dark = matches!(fill, "#3a3a3a" | "#0072B2" | "#009E73" | "#D55E00" | "#CC79A7");
                let _ = write!(
                    s,
                    r#"<text x="{:.1}" y="{:.1}" text-anchor="middle" class="val" fill="{}">{pct:.0}%</text>"#,
                    x + w / 2.0,
                    y + ROW_H / 2.0 + 4.0,
                    if dark { "#fff" } else { "#111" }
                );
            }
            x += w;
        }
    }
    let ly = TOP + rows.len() as f64 * ROW_H + 16.0;
    for (j, n) in names.iter().enumerate() {
        let (col, row) = ((j % 4) as f64, (j / 4) as f64);
        let (x, y) = (LABEL_W + col * 130.0, ly + row * 22.0);
        let _ = write!(
            s,
            r##"<rect x="{x}" y="{}" width="12" height="12" fill="{}" stroke="#333" stroke-width="0.5"/><text x="{}" y="{}" class="lbl">{}</text>"##,
            y - 10.0,
            colours[j % colours.len()],
            x + 16.0,
            y,
            esc(n)
        );
    }
    s.push_str("</svg>");
    s
}

/// One estimate with its interval.
pub struct IntervalRow {
    /// Row label.
    pub label: String,
    /// Point estimate.
    pub value: f64,
    /// Interval, if any.
    pub lo: Option<f64>,
    /// Interval, if any.
    pub hi: Option<f64>,
}

/// Dots with whiskers on a common axis `[min, max]`, with dashed reference lines at `refs`.
#[must_use]
pub fn intervals(title: &str, rows: &[IntervalRow], min: f64, max: f64, refs: &[f64], unit: &str) -> String {
    let h = TOP + rows.len() as f64 * ROW_H + 30.0;
    let mut s = open(LABEL_W + PLOT_W + 20.0, h, title);
    let _ = write!(s, r#"<text x="0" y="16" class="ttl">{}</text>"#, esc(title));
    let span = (max - min).max(1e-9);
    let xof = |v: f64| LABEL_W + PLOT_W * ((v.clamp(min, max) - min) / span);
    let bottom = TOP + rows.len() as f64 * ROW_H;
    for &r in refs {
        let x = xof(r);
        let _ = write!(
            s,
            r##"<line x1="{x:.1}" y1="{TOP}" x2="{x:.1}" y2="{bottom}" stroke="#c33" stroke-dasharray="4 3"/>"##
        );
    }
    let _ =
        write!(s, r##"<line x1="{LABEL_W}" y1="{bottom}" x2="{}" y2="{bottom}" stroke="#333"/>"##, LABEL_W + PLOT_W);
    for v in nice_ticks(min, max) {
        let x = xof(v);
        let _ = write!(
            s,
            r##"<line x1="{x:.1}" y1="{bottom}" x2="{x:.1}" y2="{}" stroke="#333"/><text x="{x:.1}" y="{}" text-anchor="middle" class="lbl">{}</text>"##,
            bottom + 4.0,
            bottom + 17.0,
            tick(v, nice_step(span))
        );
    }
    let _ = write!(
        s,
        r#"<text x="{}" y="{}" text-anchor="end" class="lbl">{}</text>"#,
        LABEL_W + PLOT_W,
        bottom + 30.0,
        esc(unit)
    );
    for (i, r) in rows.iter().enumerate() {
        let y = TOP + i as f64 * ROW_H;
        let cy = y + ROW_H / 2.0;
        label(&mut s, y, &r.label);
        let _ = write!(s, r##"<line x1="{LABEL_W}" y1="{cy}" x2="{}" y2="{cy}" stroke="#eee"/>"##, LABEL_W + PLOT_W);
        let text = match (r.lo, r.hi) {
            (Some(lo), Some(hi)) if lo.is_finite() || hi.is_finite() => {
                let (x1, x2) = (xof(lo), xof(hi));
                let _ = write!(
                    s,
                    r##"<line class="whisker" x1="{x1:.1}" y1="{cy}" x2="{x2:.1}" y2="{cy}" stroke="#0072B2" stroke-width="2"/><line x1="{x1:.1}" y1="{}" x2="{x1:.1}" y2="{}" stroke="#0072B2" stroke-width="2"/><line x1="{x2:.1}" y1="{}" x2="{x2:.1}" y2="{}" stroke="#0072B2" stroke-width="2"/>"##,
                    cy - 5.0,
                    cy + 5.0,
                    cy - 5.0,
                    cy + 5.0
                );
                format!(
                    "{} [{}, {}]",
                    tick(r.value, nice_step(span) / 10.0),
                    tick(lo, nice_step(span) / 10.0),
                    tick(hi, nice_step(span) / 10.0)
                )
            }
            _ => tick(r.value, nice_step(span) / 10.0),
        };
        if r.value.is_finite() {
            let _ = write!(
                s,
                r##"<circle class="dot" cx="{:.1}" cy="{cy}" r="4.5" fill="#D55E00" stroke="#333"><title>{}</title></circle>"##,
                xof(r.value),
                esc(&text)
            );
        }
    }
    s.push_str("</svg>");
    s
}

/// A round step (1, 2 or 5 times a power of ten) giving at most seven ticks over `span`.
fn nice_step(span: f64) -> f64 {
    let raw = span.max(1e-9) / 6.0;
    let p = 10f64.powf(raw.log10().floor());
    [1.0, 2.0, 5.0, 10.0].into_iter().map(|m| m * p).find(|&s| s >= raw).unwrap_or(10.0 * p)
}

/// Round tick values from `min` to `max`.
pub(crate) fn nice_ticks(min: f64, max: f64) -> Vec<f64> {
    let step = nice_step(max - min);
    let first = (min / step - 1e-9).ceil() as i64;
    let last = (max / step + 1e-9).floor() as i64;
    (first..=last).map(|k| k as f64 * step).collect()
}

/// A value shown with as many decimals as the step between ticks needs.
pub(crate) fn tick(v: f64, step: f64) -> String {
    if !v.is_finite() {
        return if v > 0.0 { "+inf".into() } else { "-inf".into() };
    }
    let decimals = if step >= 1.0 { 0 } else { (-step.log10()).ceil() as usize };
    format!("{v:.decimals$}")
}

/// A histogram of integer values in `bins` equal bins from `lo` to `hi` (inclusive).
#[must_use]
pub fn histogram(title: &str, values: &[i64], lo: i64, hi: i64, bins: usize) -> String {
    let (w, h) = (360.0, 170.0);
    let (left, bottom, plot_h) = (36.0, 140.0, 110.0);
    let bins = bins.max(1);
    let width = ((hi - lo + 1) as f64 / bins as f64).max(1.0);
    let mut counts = vec![0u64; bins];
    for &v in values {
        let i = (((v - lo) as f64) / width).floor().clamp(0.0, (bins - 1) as f64) as usize;
        counts[i] += 1;
    }
    let top = counts.iter().copied().max().unwrap_or(0).max(1) as f64;
    let bar_w = (w - left - 10.0) / bins as f64;
    let mut s = open(w, h, title);
    let _ = write!(s, r#"<text x="0" y="14" class="ttl">{}</text>"#, esc(title));
    for (i, &c) in counts.iter().enumerate() {
        let bh = plot_h * c as f64 / top;
        let x = left + i as f64 * bar_w;
        let from = lo as f64 + i as f64 * width;
        let _ = write!(
            s,
            r##"<rect class="bar" x="{x:.1}" y="{:.1}" width="{:.1}" height="{bh:.1}" fill="#56B4E9" stroke="#333" stroke-width="0.5"><title>{:.0}–{:.0} plies: {c}</title></rect>"##,
            bottom - bh,
            (bar_w - 1.0).max(0.5),
            from,
            from + width - 1.0
        );
    }
    let _ = write!(s, r##"<line x1="{left}" y1="{bottom}" x2="{}" y2="{bottom}" stroke="#333"/>"##, w - 10.0);
    let _ = write!(s, r#"<text x="{left}" y="{}" class="lbl">{lo}</text>"#, bottom + 14.0);
    let _ =
        write!(s, r#"<text x="{}" y="{}" text-anchor="end" class="lbl">{hi} plies</text>"#, w - 10.0, bottom + 14.0);
    let _ = write!(
        s,
        r#"<text x="{}" y="{}" text-anchor="end" class="lbl">{}</text>"#,
        left - 4.0,
        bottom - plot_h + 8.0,
        top
    );
    s.push_str("</svg>");
    s
}

/// One line of a line chart: points `(x, y)` with a band `[lo, hi]` around each.
pub struct Series {
    /// Legend label.
    pub label: String,
    /// `(x, y, lo, hi)`, by increasing `x`.
    pub points: Vec<(f64, f64, f64, f64)>,
}

/// Lines with shaded bands on common axes, a dashed line at `y = 0`, and a legend.
#[must_use]
pub fn lines(title: &str, series: &[Series], x_unit: &str, y_unit: &str) -> String {
    let (w, h) = (LABEL_W + PLOT_W + 20.0, 300.0 + 20.0 * series.len().div_ceil(3) as f64);
    let (left, top, bottom) = (60.0, TOP, 250.0);
    let right = w - 20.0;
    let all = series.iter().flat_map(|s| &s.points);
    let (mut x0, mut x1, mut y0, mut y1) = (f64::INFINITY, f64::NEG_INFINITY, 0.0_f64, 0.0_f64);
    for &(x, _, lo, hi) in all {
        (x0, x1, y0, y1) = (x0.min(x), x1.max(x), y0.min(lo), y1.max(hi));
    }
    if x0 > x1 {
        (x0, x1) = (0.0, 1.0);
    }
    let (xs, ys) = ((x1 - x0).max(1e-9), (y1 - y0).max(1e-9));
    let px = |x: f64| left + (right - left) * (x - x0) / xs;
    let py = |y: f64| bottom - (bottom - top) * (y - y0) / ys;
    let mut s = open(w, h, title);
    let _ = write!(s, r#"<text x="0" y="16" class="ttl">{}</text>"#, esc(title));
    let _ = write!(s, r##"<line x1="{left}" y1="{bottom}" x2="{right}" y2="{bottom}" stroke="#333"/>"##);
    let _ = write!(s, r##"<line x1="{left}" y1="{top}" x2="{left}" y2="{bottom}" stroke="#333"/>"##);
    let zero = py(0.0);
    let _ = write!(
        s,
        r##"<line x1="{left}" y1="{zero:.1}" x2="{right}" y2="{zero:.1}" stroke="#c33" stroke-dasharray="4 3"/>"##
    );
    for v in nice_ticks(x0, x1) {
        let x = px(v);
        let _ = write!(
            s,
            r##"<line x1="{x:.1}" y1="{bottom}" x2="{x:.1}" y2="{}" stroke="#333"/><text x="{x:.1}" y="{}" text-anchor="middle" class="lbl">{}</text>"##,
            bottom + 4.0,
            bottom + 17.0,
            tick(v, nice_step(xs))
        );
    }
    for v in nice_ticks(y0, y1) {
        let y = py(v);
        let _ = write!(
            s,
            r##"<line x1="{}" y1="{y:.1}" x2="{left}" y2="{y:.1}" stroke="#333"/><text x="{}" y="{:.1}" text-anchor="end" class="lbl">{}</text>"##,
            left - 4.0,
            left - 6.0,
            y + 4.0,
            tick(v, nice_step(ys))
        );
    }
    let _ =
        write!(s, r#"<text x="{right}" y="{}" text-anchor="end" class="lbl">{}</text>"#, bottom + 30.0, esc(x_unit));
    let _ = write!(s, r#"<text x="{left}" y="{}" class="lbl">{}</text>"#, top - 6.0, esc(y_unit));
    for (i, line) in series.iter().enumerate() {
        let colour = PALETTE[i % PALETTE.len()];
        if line.points.is_empty() {
            continue;
        }
        let upper = line.points.iter().map(|&(x, _, _, hi)| format!("{:.1},{:.1}", px(x), py(hi)));
        let lower = line.points.iter().rev().map(|&(x, _, lo, _)| format!("{:.1},{:.1}", px(x), py(lo)));
        let band: Vec<String> = upper.chain(lower).collect();
        let _ = write!(
            s,
            r#"<polygon class="band" points="{}" fill="{colour}" fill-opacity="0.15" stroke="none"/>"#,
            band.join(" ")
        );
        let path: Vec<String> = line.points.iter().map(|&(x, y, _, _)| format!("{:.1},{:.1}", px(x), py(y))).collect();
        let _ = write!(
            s,
            r#"<polyline class="line" points="{}" fill="none" stroke="{colour}" stroke-width="2"><title>{}</title></polyline>"#,
            path.join(" "),
            esc(&line.label)
        );
        let (col, row) = ((i % 3) as f64, (i / 3) as f64);
        let (lx, ly) = (left + col * 230.0, bottom + 50.0 + row * 20.0);
        let _ = write!(
            s,
            r#"<rect x="{lx}" y="{}" width="12" height="12" fill="{colour}"/><text x="{}" y="{ly}" class="lbl">{}</text>"#,
            ly - 10.0,
            lx + 16.0,
            esc(&line.label)
        );
    }
    s.push_str("</svg>");
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn charts_are_svg_with_their_marks() {
        let rows = [StackedRow { label: "malka".into(), parts: vec![3.0, 2.0, 1.0] }];
        let s = stacked_bars("W/D/L", &rows, &["white", "draw", "black"], &["#fff", "#999", "#000"]);
        assert!(s.starts_with("<svg") && s.ends_with("</svg>"));
        assert_eq!(s.matches(r#"class="seg""#).count(), 3);
        assert!(s.contains("50%") && s.contains("33%") && s.contains("17%"));
        let r = [IntervalRow { label: "a<b".into(), value: 0.6, lo: Some(0.5), hi: Some(0.7) }];
        let s = intervals("score", &r, 0.0, 1.0, &[0.5], "score");
        assert!(s.contains("a&lt;b") && s.contains(r#"class="dot""#) && s.contains(r#"class="whisker""#));
        let s = histogram("len", &[1, 2, 2, 10], 1, 10, 5);
        assert_eq!(s.matches(r#"class="bar""#).count(), 5);
        assert!(s.contains("1–2 plies: 3"), "{s}");
        let t = nice_ticks(0.3, 0.8);
        assert_eq!(t.len(), 6);
        assert!(t.iter().zip([0.3, 0.4, 0.5, 0.6, 0.7, 0.8]).all(|(a, b)| (a - b).abs() < 1e-12), "{t:?}");
        assert_eq!(nice_ticks(-1.0, 10.0), [0.0, 2.0, 4.0, 6.0, 8.0, 10.0]);
        let series = [
            Series { label: "malka".into(), points: vec![(1.0, 10.0, -20.0, 40.0), (2.0, 30.0, 0.0, 60.0)] },
            Series { label: "x&y".into(), points: vec![(1.0, -5.0, -9.0, -1.0)] },
        ];
        let s = lines("eval", &series, "ply", "cp");
        assert_eq!((s.matches(r#"class="line""#).count(), s.matches(r#"class="band""#).count()), (2, 2));
        assert!(s.contains("x&amp;y") && s.ends_with("</svg>"));
        assert_eq!(
            (tick(0.26, 0.1), tick(3.0, 2.0), tick(f64::INFINITY, 1.0)),
            ("0.3".into(), "3".into(), "+inf".into())
        );
    }
}
