//! Balance against strength: the same variants played at several node budgets (rungs), their
//! White score, draw rate and game length per rung with 95% intervals, the differences between
//! the first variant and each other one per rung, and whether each difference keeps its sign
//! from rung to rung. Charts: one per metric, strength across, a line per variant with its
//! interval band.

use crate::compare::{compare, Metric};
use crate::load::GameRow;
use crate::summary::SideStats;
use crate::svg::{esc, PALETTE};
use crate::table::Table;
use crate::Result;
use polars::prelude::*;
use std::fmt::Write as _;

/// The metrics of a ladder, as named in comparisons.
pub const METRICS: [&str; 3] = ["white_score", "draw_rate", "plies_mean"];

/// One variant at one rung.
#[derive(Clone, Debug, PartialEq)]
pub struct Cell {
    /// Variant name.
    pub variant: String,
    /// Nodes per move.
    pub nodes: u64,
    /// Games.
    pub games: u64,
    /// Pentanomial counts of White's points in colour-swapped pairs.
    pub ptnml: [u64; 5],
    /// White's score, draw rate and mean length (plies), each `(value, lo, hi)`, in [`METRICS`] order.
    pub values: [(f64, f64, f64); 3],
}

impl Cell {
    /// Half the width of White's score interval.
    #[must_use]
    pub fn score_half_width(&self) -> f64 {
        (self.values[0].2 - self.values[0].1) / 2.0
    }
}

/// A first-variant-minus-other difference at one rung.
#[derive(Clone, Debug, PartialEq)]
pub struct Diff {
    /// The first variant.
    pub a: String,
    /// The other.
    pub b: String,
    /// Nodes per move.
    pub nodes: u64,
    /// Which metric.
    pub metric: &'static str,
    /// A − B, with its interval.
    pub diff: (f64, f64, f64),
    /// Two-sided p-value.
    pub p_value: Option<f64>,
}

/// A difference across the rungs.
#[derive(Clone, Debug, PartialEq)]
pub struct Sign {
    /// The first variant.
    pub a: String,
    /// The other.
    pub b: String,
    /// Which metric.
    pub metric: &'static str,
    /// Per rung: the sign of the estimate (`+`, `-` or `0`).
    pub signs: String,
    /// Whether every rung's estimate has the same sign.
    pub keeps_sign: bool,
    /// Whether, besides, every rung's interval excludes zero.
    pub significant_everywhere: bool,
}

/// One rung's games: its nodes per move, and each variant's name and games.
pub type Rung = (u64, Vec<(String, Vec<GameRow>)>);

/// The ladder: rungs in increasing order, cells per rung and variant, differences, signs.
#[derive(Clone, Debug, PartialEq)]
pub struct Ladder {
    /// Node budgets.
    pub rungs: Vec<u64>,
    /// Variants, the first one first.
    pub variants: Vec<String>,
    /// One per variant and rung.
    pub cells: Vec<Cell>,
    /// One per other variant, rung and metric.
    pub diffs: Vec<Diff>,
    /// One per other variant and metric.
    pub signs: Vec<Sign>,
}

fn triple(m: &(f64, Option<crate::stats::Interval>)) -> (f64, f64, f64) {
    m.1.map_or((m.0, f64::NAN, f64::NAN), |i| (m.0, i.lo, i.hi))
}

impl Ladder {
    /// The ladder of `sets`: for each rung (nodes), each variant's games; variants in the same
    /// order at every rung, the first one compared with each other one. Sets without games are
    /// left out.
    #[must_use]
    pub fn new(sets: &[Rung]) -> Ladder {
        let mut sets = sets.to_vec();
        sets.sort_by_key(|s| s.0);
        let rungs: Vec<u64> = sets.iter().map(|s| s.0).collect();
        let variants: Vec<String> = sets.first().map(|s| s.1.iter().map(|v| v.0.clone()).collect()).unwrap_or_default();
        let (mut cells, mut diffs) = (Vec::new(), Vec::new());
        for (nodes, per_variant) in &sets {
            let Some((first_name, first)) = per_variant.first() else { continue };
            for (i, (name, rows)) in per_variant.iter().enumerate() {
                let Some(c) = (if i == 0 { compare(rows, rows) } else { compare(first, rows) }) else { continue };
                let side = usize::from(i != 0);
                let pick = |m: &Metric| if side == 0 { triple(&m.a) } else { triple(&m.b) };
                let s: &SideStats = &c.sides[side];
                cells.push(Cell {
                    variant: name.clone(),
                    nodes: *nodes,
                    games: s.wdl.games(),
                    ptnml: s.ptnml,
                    values: [pick(&c.metrics[0]), pick(&c.metrics[1]), pick(&c.metrics[2])],
                });
                if i > 0 {
                    for m in &c.metrics {
                        let d = &m.diff;
                        diffs.push(Diff {
                            a: first_name.clone(),
                            b: name.clone(),
                            nodes: *nodes,
                            metric: m.name,
                            diff: (d.diff, d.interval.lo, d.interval.hi),
                            p_value: d.p_value,
                        });
                    }
                }
            }
        }
        let mut signs = Vec::new();
        for b in variants.iter().skip(1) {
            for metric in METRICS {
                let ds: Vec<&Diff> = diffs.iter().filter(|d| &d.b == b && d.metric == metric).collect();
                if ds.is_empty() {
                    continue;
                }
                let sign = |x: f64| {
                    if x > 0.0 {
                        '+'
                    } else if x < 0.0 {
                        '-'
                    } else {
                        '0'
                    }
                };
                let text: String = ds.iter().map(|d| sign(d.diff.0)).collect();
                let first = text.chars().next().unwrap_or('0');
                let keeps_sign = first != '0' && text.chars().all(|c| c == first);
                let significant_everywhere =
                    keeps_sign && ds.iter().all(|d| if first == '+' { d.diff.1 > 0.0 } else { d.diff.2 < 0.0 });
                signs.push(Sign {
                    a: variants[0].clone(),
                    b: b.clone(),
                    metric,
                    signs: text,
                    keeps_sign,
                    significant_everywhere,
                });
            }
        }
        Ladder { rungs, variants, cells, diffs, signs }
    }

    /// The widest half-width of a White-score interval over the cells (`--precision` stops when
    /// it is at most the precision asked for); infinite without cells.
    #[must_use]
    pub fn widest_score_half_width(&self) -> f64 {
        if self.cells.is_empty() {
            return f64::INFINITY;
        }
        self.cells.iter().map(Cell::score_half_width).fold(0.0, f64::max)
    }

    /// The tables: `ladder` (one row per variant and rung), `ladder_diff` (per other variant, rung
    /// and metric) and `ladder_sign` (per other variant and metric).
    ///
    /// # Errors
    /// A polars error.
    pub fn tables(&self) -> Result<Vec<Table>> {
        let c = &self.cells;
        let metric = |k: usize, part: usize| {
            c.iter()
                .map(|x| match part {
                    0 => x.values[k].0,
                    1 => x.values[k].1,
                    _ => x.values[k].2,
                })
                .collect::<Vec<f64>>()
        };
        let mut cols = vec![
            Column::new("variant".into(), c.iter().map(|x| x.variant.clone()).collect::<Vec<_>>()),
            Column::new("nodes".into(), c.iter().map(|x| x.nodes as i64).collect::<Vec<_>>()),
            Column::new("games".into(), c.iter().map(|x| x.games as i64).collect::<Vec<_>>()),
        ];
        for (k, name) in METRICS.iter().enumerate() {
            for (part, suffix) in ["", "_lo", "_hi"].iter().enumerate() {
                cols.push(Column::new(format!("{name}{suffix}").into(), metric(k, part)));
            }
        }
        cols.push(Column::new(
            "pairs".into(),
            c.iter().map(|x| x.ptnml.iter().sum::<u64>() as i64).collect::<Vec<_>>(),
        ));
        cols.push(Column::new(
            "ptnml".into(),
            c.iter()
                .map(|x| {
                    if x.ptnml.iter().sum::<u64>() > 0 {
                        x.ptnml.map(|v| v.to_string()).join(" ")
                    } else {
                        "-".into()
                    }
                })
                .collect::<Vec<_>>(),
        ));
        let cells = Table::new(
            "ladder",
            "Per variant and strength (White's view; 95% intervals; paired openings give pentanomial counts)",
            DataFrame::new_infer_height(cols)?,
        );
        let d = &self.diffs;
        let diffs = DataFrame::new_infer_height(vec![
            Column::new("set_a".into(), d.iter().map(|x| x.a.clone()).collect::<Vec<_>>()),
            Column::new("set_b".into(), d.iter().map(|x| x.b.clone()).collect::<Vec<_>>()),
            Column::new("metric".into(), d.iter().map(|x| x.metric).collect::<Vec<_>>()),
            Column::new("nodes".into(), d.iter().map(|x| x.nodes as i64).collect::<Vec<_>>()),
            Column::new("diff".into(), d.iter().map(|x| x.diff.0).collect::<Vec<_>>()),
            Column::new("diff_lo".into(), d.iter().map(|x| x.diff.1).collect::<Vec<_>>()),
            Column::new("diff_hi".into(), d.iter().map(|x| x.diff.2).collect::<Vec<_>>()),
            Column::new("p_value".into(), d.iter().map(|x| x.p_value).collect::<Vec<_>>()),
        ])?;
        let s = &self.signs;
        let rungs = self.rungs.iter().map(u64::to_string).collect::<Vec<_>>().join(",");
        let signs = DataFrame::new_infer_height(vec![
            Column::new("set_a".into(), s.iter().map(|x| x.a.clone()).collect::<Vec<_>>()),
            Column::new("set_b".into(), s.iter().map(|x| x.b.clone()).collect::<Vec<_>>()),
            Column::new("metric".into(), s.iter().map(|x| x.metric).collect::<Vec<_>>()),
            Column::new("signs".into(), s.iter().map(|x| x.signs.clone()).collect::<Vec<_>>()),
            Column::new(
                "keeps_sign".into(),
                s.iter().map(|x| if x.keeps_sign { "yes" } else { "no" }).collect::<Vec<_>>(),
            ),
            Column::new(
                "significant_at_every_rung".into(),
                s.iter().map(|x| if x.significant_everywhere { "yes" } else { "no" }).collect::<Vec<_>>(),
            ),
        ])?;
        Ok(vec![
            cells,
            Table::new("ladder_diff", "Differences per strength (A − B, 95% intervals, two-sided z-tests)", diffs),
            Table::new(
                "ladder_sign",
                format!("Does each difference keep its sign across the rungs ({rungs} nodes)?"),
                signs,
            ),
        ])
    }

    /// The report section: one chart per metric, strength across (log scale), a line per variant
    /// with its 95% band.
    #[must_use]
    pub fn html(&self) -> String {
        let titles = ["White's score", "Draw rate", "Game length (plies)"];
        let mut s = String::from("<h2>Against strength</h2><div class=\"charts\">");
        for (k, title) in titles.iter().enumerate() {
            let series: Vec<Series> = self
                .variants
                .iter()
                .map(|v| Series {
                    name: v.clone(),
                    points: self.cells.iter().filter(|c| &c.variant == v).map(|c| (c.nodes, c.values[k])).collect(),
                })
                .collect();
            s.push_str(&lines(title, &series, if k == 0 { Some(0.5) } else { None }));
        }
        s.push_str("</div>");
        s
    }
}

/// One line of a chart: `(nodes, (value, lo, hi))` points.
struct Series {
    name: String,
    points: Vec<(u64, (f64, f64, f64))>,
}

/// A line chart: x the node budget (log scale), a line and a band per series, a legend.
fn lines(title: &str, series: &[Series], reference: Option<f64>) -> String {
    let legend_rows = series.len().div_ceil(3) as f64;
    let (w, h) = (380.0, 256.0 + 16.0 * legend_rows);
    let (left, right, top, bottom) = (52.0, 24.0, 28.0, 206.0);
    let xs: Vec<f64> = series.iter().flat_map(|s| s.points.iter().map(|p| (p.0.max(1) as f64).ln())).collect();
    let ys: Vec<f64> = series
        .iter()
        .flat_map(|s| s.points.iter().flat_map(|p| [p.1 .0, p.1 .1, p.1 .2]))
        .chain(reference)
        .filter(|v| v.is_finite())
        .collect();
    let (x0, x1) =
        (xs.iter().copied().fold(f64::INFINITY, f64::min), xs.iter().copied().fold(f64::NEG_INFINITY, f64::max));
    let (mut y0, mut y1) =
        (ys.iter().copied().fold(f64::INFINITY, f64::min), ys.iter().copied().fold(f64::NEG_INFINITY, f64::max));
    if !(y0.is_finite() && y1.is_finite()) {
        (y0, y1) = (0.0, 1.0);
    }
    let pad = ((y1 - y0) * 0.08).max(1e-6);
    (y0, y1) = (y0 - pad, y1 + pad);
    let xof =
        |x: f64| if x1 > x0 { left + (w - left - right) * (x - x0) / (x1 - x0) } else { (left + w - right) / 2.0 };
    let yof = |y: f64| bottom - (bottom - top) * (y - y0) / (y1 - y0);
    let mut s = format!(
        r#"<svg xmlns="http://www.w3.org/2000/svg" class="chart" width="{w}" height="{h}" viewBox="0 0 {w} {h}" role="img"><title>{}</title>"#,
        esc(title)
    );
    let _ = write!(s, r#"<text x="0" y="16" class="ttl">{} against strength</text>"#, esc(title));
    let _ = write!(s, r##"<line x1="{left}" y1="{bottom}" x2="{}" y2="{bottom}" stroke="#333"/>"##, w - right);
    let _ = write!(s, r##"<line x1="{left}" y1="{top}" x2="{left}" y2="{bottom}" stroke="#333"/>"##);
    let ticks = crate::svg::nice_ticks(y0, y1);
    let step = if ticks.len() > 1 { ticks[1] - ticks[0] } else { 1.0 };
    for v in &ticks {
        let y = yof(*v);
        let _ = write!(s, r##"<line x1="{left}" y1="{y:.1}" x2="{}" y2="{y:.1}" stroke="#eee"/>"##, w - right);
        let _ = write!(
            s,
            r#"<text x="{}" y="{:.1}" text-anchor="end" class="lbl">{}</text>"#,
            left - 4.0,
            y + 4.0,
            crate::svg::tick(*v, step)
        );
    }
    let mut rungs: Vec<u64> = series.iter().flat_map(|s| s.points.iter().map(|p| p.0)).collect();
    rungs.sort_unstable();
    rungs.dedup();
    for n in &rungs {
        let x = xof(((*n).max(1) as f64).ln());
        let _ = write!(s, r##"<line x1="{x:.1}" y1="{bottom}" x2="{x:.1}" y2="{}" stroke="#333"/>"##, bottom + 4.0);
        let _ = write!(s, r#"<text x="{x:.1}" y="{}" text-anchor="middle" class="lbl">{n}</text>"#, bottom + 16.0);
    }
    let _ = write!(
        s,
        r#"<text x="{}" y="{}" text-anchor="middle" class="lbl">nodes per move</text>"#,
        (left + w - right) / 2.0,
        bottom + 30.0
    );
    if let Some(r) = reference {
        let y = yof(r);
        let _ = write!(
            s,
            r##"<line x1="{left}" y1="{y:.1}" x2="{}" y2="{y:.1}" stroke="#999" stroke-dasharray="4 3"/>"##,
            w - right
        );
    }
    for (i, se) in series.iter().enumerate() {
        let colour = PALETTE[i % PALETTE.len()];
        let pts: Vec<(f64, (f64, f64, f64))> = se.points.iter().map(|p| (xof((p.0.max(1) as f64).ln()), p.1)).collect();
        let band: Vec<String> = pts
            .iter()
            .filter(|p| p.1 .1.is_finite())
            .map(|p| format!("{:.1},{:.1}", p.0, yof(p.1 .2)))
            .chain(pts.iter().rev().filter(|p| p.1 .1.is_finite()).map(|p| format!("{:.1},{:.1}", p.0, yof(p.1 .1))))
            .collect();
        if band.len() >= 2 {
            let _ = write!(
                s,
                r#"<polygon class="band" points="{}" fill="{colour}" fill-opacity="0.18" stroke="none"/>"#,
                band.join(" ")
            );
        }
        let line: Vec<String> = pts.iter().map(|p| format!("{:.1},{:.1}", p.0, yof(p.1 .0))).collect();
        let _ = write!(
            s,
            r#"<polyline class="line" points="{}" fill="none" stroke="{colour}" stroke-width="2"/>"#,
            line.join(" ")
        );
        for (x, (v, lo, hi)) in &pts {
            let _ = write!(
                s,
                r##"<circle class="dot" cx="{x:.1}" cy="{:.1}" r="3.5" fill="{colour}" stroke="#333"><title>{}: {v:.3} [{lo:.3}, {hi:.3}]</title></circle>"##,
                yof(*v),
                esc(&se.name)
            );
        }
        let (lx, ly) = (left + 110.0 * (i % 3) as f64, bottom + 48.0 + 16.0 * (i / 3) as f64);
        let _ = write!(s, r#"<rect x="{lx:.1}" y="{:.1}" width="10" height="10" fill="{colour}"/>"#, ly - 9.0);
        let _ = write!(s, r#"<text x="{:.1}" y="{ly:.1}" class="lbl">{}</text>"#, lx + 14.0, esc(&se.name));
    }
    s.push_str("</svg>");
    s
}

/// `html` with `section` inserted before the footer of the page (or its end).
#[must_use]
pub fn insert_section(html: &str, section: &str) -> String {
    let at = html.rfind("<footer>").or_else(|| html.rfind("</body>")).unwrap_or(html.len());
    format!("{}{section}{}", &html[..at], &html[at..])
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    /// A game row of `variant` in run `run`: opening `pair`, White's `points`, `plies` long.
    pub(crate) fn game(variant: &str, run: &str, pair: i64, points: f64, plies: i64) -> GameRow {
        GameRow {
            game_id: format!("{run}-{pair}-{points}"),
            run_key: run.into(),
            variant: variant.into(),
            settings: String::new(),
            pair,
            white: "default".into(),
            black: "default".into(),
            start_lfen: String::new(),
            moves: String::new(),
            white_points: points,
            termination: "checkmate".into(),
            plies,
            opening_plies: 0,
        }
    }

    /// `n` colour-swapped pairs of games of `variant` whose White points follow `pattern`.
    fn pairs(variant: &str, run: &str, n: i64, pattern: &[f64]) -> Vec<GameRow> {
        (0..2 * n).map(|i| game(variant, run, i / 2, pattern[(i as usize) % pattern.len()], 40 + i % 7)).collect()
    }

    #[test]
    fn a_row_per_variant_and_rung_and_signs_across_rungs() {
        let sets = vec![
            (
                4000,
                vec![
                    ("m".into(), pairs("m", "r3", 20, &[1.0, 0.5, 0.5, 0.5])),
                    ("t".into(), pairs("t", "r4", 20, &[0.0, 0.5])),
                ],
            ),
            (
                1000,
                vec![
                    ("m".into(), pairs("m", "r1", 20, &[1.0, 0.5])),
                    ("t".into(), pairs("t", "r2", 20, &[0.0, 0.0, 1.0])),
                ],
            ),
        ];
        let l = Ladder::new(&sets);
        assert_eq!(l.rungs, [1000, 4000]);
        assert_eq!(l.cells.len(), 4);
        for c in &l.cells {
            assert_eq!(c.ptnml.iter().sum::<u64>() * 2, c.games, "{c:?}");
        }
        assert_eq!(l.diffs.len(), 2 * METRICS.len());
        let score = l.signs.iter().find(|s| s.metric == "white_score").unwrap();
        assert_eq!(score.signs, "++");
        assert!(score.keeps_sign);
        let tables = l.tables().unwrap();
        assert_eq!(tables[0].df.height(), 4);
        assert_eq!(tables[2].df.height(), METRICS.len());
        assert!(l.widest_score_half_width() > 0.0 && l.widest_score_half_width() < 0.5);
        let html = l.html();
        assert_eq!(html.matches("<svg").count(), 3);
        assert_eq!(html.matches(r#"class="line""#).count(), 6);
        assert_eq!(html.matches(r#"class="band""#).count(), 6);
        assert_eq!(insert_section("<body>a<footer>f</footer></body>", "S"), "<body>aS<footer>f</footer></body>");
    }
}
