//! The HTML report: one self-contained page (inline CSS and SVG, no script, nothing fetched)
//! with the charts and the tables.

use crate::compare::Comparison;
use crate::load::GameRow;
use crate::pieces::{PieceValues, ROLES};
use crate::plies::PlyStats;
use crate::summary::{groups, SideStats};
use crate::svg::{self, esc, IntervalRow, StackedRow, PALETTE};
use crate::table::{ShortNames, Table};
use crate::Result;
use std::collections::BTreeMap;
use std::fmt::Write as _;

/// What goes into a report.
pub struct Report<'a> {
    /// Page title.
    pub title: String,
    /// Lines shown under the title (inputs, counts, settings).
    pub notes: Vec<String>,
    /// The games (for the charts).
    pub rows: &'a [GameRow],
    /// Tables, shown after the charts, in order.
    pub tables: Vec<Table>,
    /// Piece values, if estimated.
    pub pieces: Option<&'a [PieceValues]>,
    /// Per-ply statistics, if computed.
    pub plies: Option<&'a PlyStats>,
    /// A comparison of two sets, if any.
    pub comparison: Option<&'a Comparison>,
    /// Games to look at, linked into a viewer page (none: no such section).
    pub games: &'a [GameLink],
}

/// A game the report links to, shown under "Games to look at" with the others of its variant.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameLink {
    /// The variant (the group it is listed in).
    pub variant: String,
    /// Why it is worth a look (the link's text): `shortest White win`, ...
    pub label: String,
    /// Where it opens: a viewer page and fragment (`games.html#game=ID&ply=0`).
    pub href: String,
    /// What follows the link: length, result, id.
    pub detail: String,
}

fn games_html(links: &[GameLink]) -> String {
    let mut by_variant: BTreeMap<&str, Vec<&GameLink>> = BTreeMap::new();
    for l in links {
        by_variant.entry(&l.variant).or_default().push(l);
    }
    let mut s = String::from("<h2>Games to look at</h2><div class=\"games\">");
    for (variant, links) in by_variant {
        let _ = write!(s, "<div><b>{}</b><ul>", esc(variant));
        for l in links {
            let _ = write!(s, "<li><a href=\"{}\">{}</a>: {}</li>", esc(&l.href), esc(&l.label), esc(&l.detail));
        }
        s.push_str("</ul></div>");
    }
    s.push_str("</div>");
    s
}

const CSS: &str = "body{font-family:system-ui,-apple-system,'Segoe UI',Roboto,'DejaVu Sans',sans-serif;margin:24px auto;max-width:1100px;color:#222;padding:0 16px}\
h1{font-size:1.6em;margin-bottom:4px}h2{margin-top:32px;border-bottom:1px solid #ddd;padding-bottom:4px}\
.notes{color:#555;font-size:.9em}.charts{display:flex;flex-wrap:wrap;gap:12px}\
svg.chart{background:#fff;border:1px solid #e4e4e4;border-radius:4px;padding:6px}\
svg .ttl{font-size:13px;font-weight:600;fill:#222}svg .lbl{font-size:11px;fill:#333}svg .val{font-size:10px}\
table{border-collapse:collapse;font-size:12px;margin:10px 0 18px}th,td{border:1px solid #ddd;padding:3px 7px;white-space:nowrap}.scroll{overflow-x:auto}\
th{background:#f4f4f4;text-align:left}td.n{text-align:right;font-variant-numeric:tabular-nums}caption{text-align:left;font-weight:600;padding:4px 0}\
footer{margin-top:40px;color:#777;font-size:.8em}.games{display:flex;flex-wrap:wrap;gap:8px 40px}.games ul{margin:4px 0}";

/// The white-win, draw and black-win colours.
const WDL_COLOURS: [&str; 3] = ["#f3e3c3", "#9e9e9e", "#3a3a3a"];

fn group_label(names: &ShortNames, v: &str, s: &str) -> String {
    if s.is_empty() {
        v.to_owned()
    } else {
        format!("{v} · {}", names.short(s))
    }
}

fn table_html(t: &Table, names: &ShortNames) -> Result<String> {
    let mut s = format!(
        "<div class=\"scroll\"><table class=\"data\" id=\"t-{}\"><caption>{}</caption><tr>",
        t.name,
        esc(&t.title)
    );
    let crate::table::Shown { headers, rows, numeric } = t.display(names)?;
    for h in headers {
        let _ = write!(s, "<th>{}</th>", esc(&h));
    }
    s.push_str("</tr>");
    for row in rows {
        s.push_str("<tr>");
        for (j, c) in row.iter().enumerate() {
            let class = if numeric[j] { " class=\"n\"" } else { "" };
            let _ = write!(s, "<td{class}>{}</td>", esc(c));
        }
        s.push_str("</tr>");
    }
    s.push_str("</table></div>");
    Ok(s)
}

fn results_charts(rows: &[GameRow], names: &ShortNames) -> String {
    let groups = groups(rows);
    let mut bars = Vec::new();
    let mut scores = Vec::new();
    for ((v, s), games) in &groups {
        let Some(st) = SideStats::of(games) else { continue };
        let label = group_label(names, v, s);
        bars.push(StackedRow {
            label: format!("{label} (n={})", st.wdl.games()),
            parts: vec![st.wdl.wins as f64, st.wdl.draws as f64, st.wdl.losses as f64],
        });
        scores.push(IntervalRow {
            label,
            value: st.score.mean,
            lo: Some(st.score_interval.lo),
            hi: Some(st.score_interval.hi),
        });
    }
    let lo = scores.iter().filter_map(|r| r.lo).fold(0.3_f64, f64::min);
    let hi = scores.iter().filter_map(|r| r.hi).fold(0.7_f64, f64::max);
    let (lo, hi) = ((lo * 10.0).floor() / 10.0, (hi * 10.0).ceil() / 10.0);
    format!(
        "<div class=\"charts\">{}{}</div>",
        svg::stacked_bars(
            "Results: White wins / draws / Black wins",
            &bars,
            &["White wins", "draws", "Black wins"],
            &WDL_COLOURS
        ),
        svg::intervals("White's score with 95% interval", &scores, lo, hi, &[0.5], "White's score (0.5 = balanced)")
    )
}

fn length_charts(rows: &[GameRow], names: &ShortNames) -> String {
    let lo = rows.iter().map(|r| r.plies).min().unwrap_or(0);
    let hi = rows.iter().map(|r| r.plies).max().unwrap_or(1).max(lo + 1);
    let bins = usize::try_from(hi - lo + 1).unwrap_or(1).clamp(1, 30);
    let mut s = String::from("<div class=\"charts\">");
    for ((v, st), games) in groups(rows) {
        let plies: Vec<i64> = games.iter().map(|g| g.plies).collect();
        s.push_str(&svg::histogram(&format!("Game length: {}", group_label(names, &v, &st)), &plies, lo, hi, bins));
    }
    s.push_str("</div>");
    s
}

fn termination_chart(rows: &[GameRow], names: &ShortNames) -> String {
    let mut reasons: BTreeMap<&str, u64> = BTreeMap::new();
    for r in rows {
        *reasons.entry(&r.termination).or_default() += 1;
    }
    let mut reason_names: Vec<&str> = reasons.keys().copied().collect();
    reason_names.sort_by_key(|n| std::cmp::Reverse(reasons[n]));
    let bars: Vec<StackedRow> = groups(rows)
        .into_iter()
        .map(|((v, s), games)| StackedRow {
            label: group_label(names, &v, &s),
            parts: reason_names.iter().map(|n| games.iter().filter(|g| g.termination == *n).count() as f64).collect(),
        })
        .collect();
    let colours: Vec<&str> = PALETTE.iter().copied().cycle().take(reason_names.len()).collect();
    format!("<div class=\"charts\">{}</div>", svg::stacked_bars("How games end", &bars, &reason_names, &colours))
}

fn piece_charts(values: &[PieceValues]) -> String {
    let mut s = String::from("<div class=\"charts\">");
    for pv in values {
        let Some((norm, adv)) = pv.fit.as_ref().ok().and_then(super::pieces::Fit::normalised) else {
            let why = pv.fit.as_ref().err().cloned().unwrap_or_else(|| "the pawn's coefficient is not positive".into());
            let _ = write!(s, "<p>{}: no piece values ({}).</p>", esc(&pv.variant), esc(&why));
            continue;
        };
        let mut rows: Vec<IntervalRow> = ROLES
            .iter()
            .enumerate()
            .map(|(i, r)| IntervalRow {
                label: format!("{r:?}").to_lowercase(),
                value: norm[i],
                lo: pv.intervals.map(|iv| iv.0[i].lo),
                hi: pv.intervals.map(|iv| iv.0[i].hi),
            })
            .collect();
        rows.push(IntervalRow {
            label: "first move (pawns)".into(),
            value: adv,
            lo: pv.intervals.map(|iv| iv.1.lo),
            hi: pv.intervals.map(|iv| iv.1.hi),
        });
        let finite = rows.iter().flat_map(|r| [Some(r.value), r.lo, r.hi]).flatten().filter(|v| v.is_finite());
        let max = finite.fold(10.0_f64, f64::max).min(30.0).ceil();
        let title = format!("Piece values: {} ({} games, {} positions)", pv.variant, pv.games, pv.positions);
        s.push_str(&svg::intervals(
            &title,
            &rows,
            0.0_f64.min(adv.floor()),
            max,
            &[1.0, 3.0, 5.0, 9.0],
            "pawns (dashed: 1, 3, 5, 9)",
        ));
    }
    s.push_str("</div>");
    s
}

fn ply_charts(p: &PlyStats, names: &ShortNames) -> String {
    let mut s = String::new();
    if let Some(note) = p.note() {
        let _ = write!(s, "<p>{}.</p>", esc(&note));
    }
    if p.curves.is_empty() {
        return s;
    }
    let series: Vec<svg::Series> = p
        .curves
        .iter()
        .map(|c| svg::Series {
            label: group_label(names, &c.variant, &c.settings),
            points: c.points.iter().map(|q| (q.ply as f64, q.mean, q.mean - q.sd, q.mean + q.sd)).collect(),
        })
        .collect();
    let rows: Vec<IntervalRow> = p
        .comebacks
        .iter()
        .filter(|(_, c)| c.decisive > 0)
        .map(|((v, st), c)| {
            let iv = crate::stats::wilson(c.comebacks, c.decisive, crate::stats::Z95);
            IntervalRow {
                label: format!("{} (n={})", group_label(names, v, st), c.decisive),
                value: c.comebacks as f64 / c.decisive as f64,
                lo: iv.map(|i| i.lo),
                hi: iv.map(|i| i.hi),
            }
        })
        .collect();
    let _ = write!(
        s,
        "<div class=\"charts\">{}{}</div>",
        svg::lines(
            &format!("White's evaluation by ply: mean ± 1 sd (clamped to ±{} cp)", p.options.clamp_cp),
            &series,
            "ply from the start position",
            "centipawns, White's view"
        ),
        svg::intervals(
            &format!("Comebacks: the loser had been ahead by ≥ {} cp (95%)", p.options.comeback_cp),
            &rows,
            0.0,
            1.0,
            &[],
            "share of decisive games"
        )
    );
    s
}

/// The report as one HTML page.
///
/// # Errors
/// A polars error while reading a table.
pub fn html(r: &Report<'_>) -> Result<String> {
    let mut s = String::with_capacity(64 * 1024);
    let _ = write!(
        s,
        "<!DOCTYPE html><html lang=\"en\"><head><meta charset=\"utf-8\"><title>{}</title><style>{CSS}</style></head><body><h1>{}</h1><div class=\"notes\">",
        esc(&r.title),
        esc(&r.title)
    );
    let names = ShortNames::new(r.rows.iter().map(|g| g.settings.as_str()));
    for n in r.notes.iter().cloned().chain(names.legend().into_iter().map(|l| format!("Settings {l}"))) {
        let _ = write!(s, "<div>{}</div>", esc(&n));
    }
    s.push_str("</div><h2>Results</h2>");
    s.push_str(&results_charts(r.rows, &names));
    if let Some(c) = r.comparison {
        s.push_str("<h2>Comparison</h2>");
        s.push_str(&table_html(&c.metrics_table()?, &names)?);
        s.push_str(&table_html(&c.sides_table()?, &names)?);
    }
    s.push_str("<h2>Game length</h2>");
    s.push_str(&length_charts(r.rows, &names));
    s.push_str("<h2>How games end</h2>");
    s.push_str(&termination_chart(r.rows, &names));
    if !r.games.is_empty() {
        s.push_str(&games_html(r.games));
    }
    if let Some(p) = r.pieces {
        s.push_str("<h2>Piece values</h2>");
        s.push_str(&piece_charts(p));
    }
    if let Some(p) = r.plies {
        s.push_str("<h2>Evaluation over the game</h2>");
        s.push_str(&ply_charts(p, &names));
    }
    s.push_str("<h2>Tables</h2>");
    for t in &r.tables {
        s.push_str(&table_html(t, &names)?);
    }
    let _ = writeln!(
        s,
        "<footer>Generated by stackchess-analysis {}. Intervals are 95%; White's score uses the pentanomial variance when openings are paired.</footer></body></html>",
        env!("CARGO_PKG_VERSION")
    );
    Ok(s)
}
