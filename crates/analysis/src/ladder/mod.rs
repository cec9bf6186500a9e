//! Balance against strength: the same variants played at several node budgets (rungs), their
//! White score, draw rate and game length per rung with 95% intervals, the differences between
//! the first variant and each other one per rung, and whether each difference keeps its sign
//! from rung to rung; each metric's trend against the log of the budget ([`trend`]); and, when
//! the rungs' strength was measured (`balance --calibrate`), the metrics against Elo. Charts
//! ([`chart`]): one per metric, strength across, a line per variant with its interval band.

mod chart;
pub mod trend;

use crate::compare::{compare, Metric};
use crate::load::GameRow;
use crate::summary::SideStats;
use crate::table::Table;
use crate::Result;
use chart::{lines, Axis, Series};
use polars::prelude::*;
pub use trend::Trend;

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
    /// One per variant and metric, with two rungs or more.
    pub trends: Vec<Trend>,
    /// The rungs' measured strength, if measured ([`Ladder::with_strength`]).
    pub strength: Vec<Strength>,
    /// What the strength is measured against (e.g. "Elo above 500 nodes").
    pub strength_scale: String,
}

/// A rung's measured strength: its Elo on the ladder's scale, with its 95% interval.
#[derive(Clone, Debug, PartialEq)]
pub struct Strength {
    /// Variant name.
    pub variant: String,
    /// Nodes per move.
    pub nodes: u64,
    /// Elo, low and high ends of its 95% interval.
    pub elo: (f64, f64, f64),
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
        let trends = trend::trends(&cells, &variants);
        Ladder { rungs, variants, cells, diffs, signs, trends, strength: Vec::new(), strength_scale: String::new() }
    }

    /// The ladder with its rungs' measured strength on `scale` (the report then also draws each
    /// metric against it).
    #[must_use]
    pub fn with_strength(mut self, strength: Vec<Strength>, scale: &str) -> Ladder {
        self.strength = strength;
        scale.clone_into(&mut self.strength_scale);
        self
    }

    /// Twice the top rung: where the trend table extrapolates to.
    #[must_use]
    pub fn beyond(&self) -> u64 {
        self.rungs.last().map_or(0, |n| n.saturating_mul(2))
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
    /// and metric) and `ladder_sign` (per other variant and metric) when there are two variants or
    /// more, and, with two rungs or more, `ladder_trend` (per variant and metric).
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
        let mut tables = vec![cells];
        // With one variant there is nothing to compare.
        if !self.diffs.is_empty() {
            tables.push(Table::new(
                "ladder_diff",
                "Differences per strength (A − B, 95% intervals, two-sided z-tests)",
                diffs,
            ));
            tables.push(Table::new(
                "ladder_sign",
                format!("Does each difference keep its sign across the rungs ({rungs} nodes)?"),
                signs,
            ));
        }
        if !self.trends.is_empty() {
            tables.push(trend::table(&self.trends, self.beyond())?);
        }
        Ok(tables)
    }

    /// The report section: one chart per metric, strength across (the budget on a log scale, each
    /// variant's trend dashed and continued to twice the top rung as a marked extrapolation), a
    /// line per variant with its 95% band; with measured strength, the same charts against Elo.
    #[must_use]
    pub fn html(&self) -> String {
        let mut s = String::from("<h2>Against strength</h2>");
        let extend = (self.rungs.len() >= 2).then(|| self.beyond());
        s.push_str(&self.charts(
            "the budget",
            &Axis::nodes(&self.rungs, extend),
            |_, c| Some(chart::log2(c.nodes)),
            true,
        ));
        if !self.strength.is_empty() {
            let elos: Vec<f64> = self.strength.iter().map(|x| x.elo.0).collect();
            let axis = Axis::elo(&self.strength_scale, &elos);
            s.push_str(&self.charts("Elo", &axis, |v, c| self.elo_of(v, c.nodes), false));
        }
        s
    }

    /// One chart per metric against `against`: each variant's cells placed at `x` (left out where
    /// it gives none), with their trends when `trends`.
    fn charts(&self, against: &str, axis: &Axis, x: impl Fn(&str, &Cell) -> Option<f64>, trends: bool) -> String {
        let titles = ["White's score", "Draw rate", "Game length (plies)"];
        let mut s = String::from("<div class=\"charts\">");
        for (k, title) in titles.iter().enumerate() {
            let series: Vec<Series> = self
                .variants
                .iter()
                .map(|v| Series {
                    name: v.clone(),
                    points: self.cells_of(v).filter_map(|c| x(v, c).map(|x| (x, c.values[k]))).collect(),
                    trend: self
                        .trends
                        .iter()
                        .find(|t| trends && &t.variant == v && t.metric == METRICS[k])
                        .map(|t| t.line),
                })
                .collect();
            let reference = (k == 0).then_some(0.5);
            s.push_str(&lines(&format!("{title} against {against}"), &series, axis, reference));
        }
        s.push_str("</div>");
        s
    }

    fn cells_of<'a>(&'a self, variant: &'a str) -> impl Iterator<Item = &'a Cell> + 'a {
        self.cells.iter().filter(move |c| c.variant == variant)
    }

    fn elo_of(&self, variant: &str, nodes: u64) -> Option<f64> {
        self.strength.iter().find(|x| x.variant == variant && x.nodes == nodes).map(|x| x.elo.0)
    }
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

    /// Games at `n` nodes drawn with probability `0.15 + 0.04·log2(n/1000)`, the rest won by
    /// White 60% of the time, from a fixed generator: `pairs` colour-swapped pairs.
    fn simulated(variant: &str, n: u64, pairs: i64, state: &mut u64) -> Vec<GameRow> {
        let draw = 0.15 + 0.04 * (n as f64 / 1000.0).log2();
        let mut uniform = || {
            *state ^= *state << 13;
            *state ^= *state >> 7;
            *state ^= *state << 17;
            (*state >> 11) as f64 / (1u64 << 53) as f64
        };
        (0..2 * pairs)
            .map(|i| {
                let u = uniform();
                let points = if u < draw {
                    0.5
                } else if uniform() < 0.6 {
                    1.0
                } else {
                    0.0
                };
                game(variant, &format!("{variant}{n}"), i / 2, points, 60 + i % 11)
            })
            .collect()
    }

    #[test]
    fn the_trend_recovers_a_known_slope_per_doubling_and_marks_its_extrapolation() {
        let mut state = 0x9e37_79b9_7f4a_7c15u64;
        let rungs = [1000u64, 2000, 4000, 8000, 16000];
        let sets: Vec<Rung> =
            rungs.iter().map(|&n| (n, vec![("m".to_owned(), simulated("m", n, 300, &mut state))])).collect();
        let l = Ladder::new(&sets);
        let draw = l.trends.iter().find(|t| t.metric == "draw_rate").unwrap();
        let (slope, lo, hi) = draw.per_doubling();
        assert!(lo <= 0.04 && 0.04 <= hi && hi - lo < 0.03, "draw rate per doubling {slope} [{lo}, {hi}]");
        // White's score moves by 0.04·(0.5 − 0.6) a doubling.
        let (_, lo, hi) = l.trends.iter().find(|t| t.metric == "white_score").unwrap().per_doubling();
        assert!(lo <= -0.004 && -0.004 <= hi, "[{lo}, {hi}]");
        assert_eq!(l.trends.len(), METRICS.len());
        let at = draw.at(l.beyond());
        assert!(at.extrapolated && !draw.at(4000).extrapolated);
        assert!((at.value - (0.15 + 0.04 * 5.0)).abs() < 3.0 * (at.hi - at.lo), "{at:?}");
        let tables = l.tables().unwrap();
        let trend = tables.iter().find(|t| t.name == "ladder_trend").unwrap();
        assert_eq!(trend.df.height(), METRICS.len());
        let marks = trend.df.column("extrapolated").unwrap().str().unwrap();
        assert!(marks.iter().all(|m| m == Some("yes")));
        let html = l.html();
        assert_eq!(html.matches(r#"class="trend""#).count(), 3);
        assert_eq!(html.matches(r#"class="trend extrapolated""#).count(), 3);
        assert!(html.contains("32000?"), "the extrapolated budget is marked on the axis");
    }

    #[test]
    fn measured_strength_draws_the_metrics_against_elo_too() {
        let mut state = 7u64;
        let sets: Vec<Rung> = [500u64, 1000]
            .iter()
            .map(|&n| {
                (
                    n,
                    vec![
                        ("m".to_owned(), simulated("m", n, 20, &mut state)),
                        ("t".to_owned(), simulated("t", n, 20, &mut state)),
                    ],
                )
            })
            .collect();
        let plain = Ladder::new(&sets);
        assert_eq!(plain.html().matches("<svg").count(), 3);
        let strength = ["m", "t"]
            .iter()
            .flat_map(|v| {
                [(500, 0.0), (1000, 290.0)].map(|(nodes, elo)| Strength {
                    variant: (*v).into(),
                    nodes,
                    elo: (elo, elo - 40.0, elo + 40.0),
                })
            })
            .collect();
        let html = plain.with_strength(strength, "Elo above 500 nodes").html();
        assert_eq!(html.matches("<svg").count(), 6);
        assert_eq!(html.matches("against Elo</title>").count(), 3);
        assert!(html.contains("Elo above 500 nodes") && html.contains(">250<"), "the Elo axis and its ticks");
    }
}
