//! Statistics of the per-ply table (version-2 records with `plies.csv`): the evaluation by ply
//! (mean and spread of White's score at each ply, per variant and setting) and comebacks (how
//! often the eventual loser had been ahead by its own search).
//!
//! **Evaluation by ply.** Each searched ply gives the mover's score; it is turned to White's side
//! and clamped to ±`clamp_cp` (a mate counts as `clamp_cp` for the side that mates), so a few
//! mate scores do not swamp the mean. Plies are counted from the rule set's start position (the
//! game's opening plies first, where known), so games from random openings line up. The spread
//! is the standard deviation (divided by the count, like every variance here). The table gives
//! bins of `bin` plies; the report's chart shows every ply with a band of one standard deviation.
//!
//! **Comebacks.** Of the decisive games, the share in which the eventual loser's own search
//! scored its position at `comeback_cp` or more (a pawn, by default) at some ply, with a Wilson
//! interval.

use crate::load::GameRow;
use crate::stats::{wilson, Z95};
use crate::summary::groups;
use crate::table::Table;
use crate::Result;
use polars::prelude::*;
use stackchess_records::PlyRecord;
use std::collections::{BTreeMap, HashMap};
use std::hash::BuildHasher;

/// How the per-ply statistics are computed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PlyOptions {
    /// Plies per row of the evaluation table.
    pub bin: usize,
    /// Scores are clamped to ± this many centipawns (mates count as the bound).
    pub clamp_cp: i32,
    /// The lead, in centipawns, that makes a lost game a comeback.
    pub comeback_cp: i32,
}

impl Default for PlyOptions {
    fn default() -> Self {
        PlyOptions { bin: 10, clamp_cp: 1000, comeback_cp: 100 }
    }
}

/// White's mean score at one ply and its spread.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PlyPoint {
    /// Ply from the rule set's start position (1 = the first move).
    pub ply: usize,
    /// Positions (games reaching this ply with a score).
    pub n: usize,
    /// Mean of White's score, centipawns.
    pub mean: f64,
    /// Its standard deviation.
    pub sd: f64,
}

/// The evaluation curve of one variant and setting.
#[derive(Clone, Debug, PartialEq)]
pub struct Curve {
    /// Variant.
    pub variant: String,
    /// Engine settings.
    pub settings: String,
    /// One point per ply reached.
    pub points: Vec<PlyPoint>,
}

/// The comebacks of one variant and setting.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Comebacks {
    /// Decisive games with plies.
    pub decisive: u64,
    /// Of those, games whose loser had been ahead by `comeback_cp` or more.
    pub comebacks: u64,
}

/// What [`ply_stats`] found.
#[derive(Clone, Debug)]
pub struct PlyStats {
    /// The evaluation-by-ply and comebacks tables (none without games with plies).
    pub tables: Vec<Table>,
    /// The evaluation curves, per variant and setting.
    pub curves: Vec<Curve>,
    /// Comebacks per (variant, settings).
    pub comebacks: BTreeMap<(String, String), Comebacks>,
    /// Games with plies.
    pub games_with_plies: usize,
    /// Games without (version-1 records, or records read without their `plies.csv`).
    pub games_without: usize,
    /// The options used.
    pub options: PlyOptions,
}

impl PlyStats {
    /// A line saying which games the per-ply statistics leave out, if any.
    #[must_use]
    pub fn note(&self) -> Option<String> {
        match (self.games_with_plies, self.games_without) {
            (_, 0) => None,
            (0, n) => Some(format!(
                "per-ply statistics skipped: none of the {n} games has plies (they need version-2 records with plies.csv)"
            )),
            (_, n) => Some(format!(
                "per-ply statistics leave out {n} games without plies (version-1 records, or no plies.csv beside them)"
            )),
        }
    }
}

/// White's clamped score of a ply whose mover is White when `white_moved`.
fn white_cp(p: &PlyRecord, white_moved: bool, clamp: i32) -> Option<f64> {
    let cp = p.mover_cp(clamp)?.clamp(-clamp, clamp);
    Some(f64::from(if white_moved { cp } else { -cp }))
}

/// The per-ply statistics of the games in `rows` that have plies.
///
/// # Errors
/// A polars error.
pub fn ply_stats<S: BuildHasher>(
    rows: &[GameRow],
    plies: &HashMap<String, Vec<PlyRecord>, S>,
    opts: PlyOptions,
) -> Result<PlyStats> {
    let mut curves = Vec::new();
    let mut comebacks = BTreeMap::new();
    let (mut with, mut without) = (0, 0);
    for ((variant, settings), games) in groups(rows) {
        // Per ply from the start: count, sum, sum of squares.
        let mut acc: BTreeMap<usize, (usize, f64, f64)> = BTreeMap::new();
        let mut cb = Comebacks { decisive: 0, comebacks: 0 };
        for g in games {
            let Some(list) = plies.get(&g.game_id) else {
                without += 1;
                continue;
            };
            with += 1;
            let loser_white = match g.white_points {
                p if p < 0.25 => Some(true),
                p if p > 0.75 => Some(false),
                _ => None,
            };
            let mut ahead = false;
            for p in list {
                let white_moved = g.white_first() == (p.ply % 2 == 1);
                if let Some(cp) = white_cp(p, white_moved, opts.clamp_cp) {
                    let e = acc.entry(g.opening_plies + p.ply as usize).or_insert((0, 0.0, 0.0));
                    *e = (e.0 + 1, e.1 + cp, e.2 + cp * cp);
                }
                if loser_white == Some(white_moved) {
                    ahead |= p.mover_cp(i32::MAX).is_some_and(|cp| cp >= opts.comeback_cp);
                }
            }
            if loser_white.is_some() {
                cb.decisive += 1;
                cb.comebacks += u64::from(ahead);
            }
        }
        if acc.is_empty() {
            continue;
        }
        let points = acc
            .into_iter()
            .map(|(ply, (n, sum, sq))| {
                let mean = sum / n as f64;
                PlyPoint { ply, n, mean, sd: (sq / n as f64 - mean * mean).max(0.0).sqrt() }
            })
            .collect();
        comebacks.insert((variant.clone(), settings.clone()), cb);
        curves.push(Curve { variant, settings, points });
    }
    let tables = if curves.is_empty() {
        Vec::new()
    } else {
        vec![eval_table(&curves, opts)?, comebacks_table(&comebacks, opts)?]
    };
    Ok(PlyStats { tables, curves, comebacks, games_with_plies: with, games_without: without, options: opts })
}

/// White's score in bins of plies: positions, mean and standard deviation.
fn eval_table(curves: &[Curve], opts: PlyOptions) -> Result<Table> {
    let bin = opts.bin.max(1);
    let (mut variant, mut settings, mut label, mut from) = (Vec::new(), Vec::new(), Vec::new(), Vec::new());
    let (mut n_col, mut mean_col, mut sd_col) = (Vec::new(), Vec::new(), Vec::new());
    for c in curves {
        let mut bins: BTreeMap<usize, (usize, f64, f64)> = BTreeMap::new();
        for p in &c.points {
            let e = bins.entry((p.ply - 1) / bin).or_insert((0, 0.0, 0.0));
            // Back from mean and sd to sums, to pool the plies of a bin.
            let n = p.n as f64;
            *e = (e.0 + p.n, e.1 + p.mean * n, e.2 + (p.sd * p.sd + p.mean * p.mean) * n);
        }
        for (b, (n, sum, sq)) in bins {
            let mean = sum / n as f64;
            variant.push(c.variant.clone());
            settings.push(c.settings.clone());
            label.push(format!("{}-{}", b * bin + 1, (b + 1) * bin));
            from.push((b * bin + 1) as i64);
            n_col.push(n as i64);
            mean_col.push(mean);
            sd_col.push((sq / n as f64 - mean * mean).max(0.0).sqrt());
        }
    }
    let df = DataFrame::new_infer_height(vec![
        Column::new("variant".into(), variant),
        Column::new("settings".into(), settings),
        Column::new("plies".into(), label),
        Column::new("from_ply".into(), from),
        Column::new("positions".into(), n_col),
        Column::new("white_cp_mean".into(), mean_col),
        Column::new("white_cp_sd".into(), sd_col),
    ])?;
    let title = format!(
        "Evaluation by ply (White's view, centipawns clamped to ±{}; plies from the start position, {bin} a row)",
        opts.clamp_cp
    );
    Ok(Table::new("eval_by_ply", title, df))
}

/// Comebacks per variant and setting, with a Wilson interval.
fn comebacks_table(c: &BTreeMap<(String, String), Comebacks>, opts: PlyOptions) -> Result<Table> {
    let (mut variant, mut settings, mut decisive, mut count) = (Vec::new(), Vec::new(), Vec::new(), Vec::new());
    let (mut share, mut lo, mut hi) = (Vec::new(), Vec::new(), Vec::new());
    for ((v, s), cb) in c {
        variant.push(v.clone());
        settings.push(s.clone());
        decisive.push(cb.decisive as i64);
        count.push(cb.comebacks as i64);
        share.push((cb.decisive > 0).then(|| cb.comebacks as f64 / cb.decisive as f64));
        let iv = wilson(cb.comebacks, cb.decisive, Z95);
        lo.push(iv.map(|i| i.lo));
        hi.push(iv.map(|i| i.hi));
    }
    let df = DataFrame::new_infer_height(vec![
        Column::new("variant".into(), variant),
        Column::new("settings".into(), settings),
        Column::new("decisive".into(), decisive),
        Column::new("comebacks".into(), count),
        Column::new("comeback_share".into(), share),
        Column::new("comeback_share_lo".into(), lo),
        Column::new("comeback_share_hi".into(), hi),
    ])?;
    let title = format!(
        "Comebacks: decisive games whose loser's own search had it ahead by {} cp or more at some ply (95% Wilson)",
        opts.comeback_cp
    );
    Ok(Table::new("comebacks", title, df))
}
