//! A tournament of three or more engines: round robin (every pair) or gauntlet (the first
//! engine against each other), each pairing a paired self-play run in its own directory
//! (`DIR/<A>-vs-<B>/`, every pairing on the same openings), then an Elo table fitted by maximum
//! likelihood over all games (`stackchess_stats::fit_ratings`, draws as half points, as Ordo
//! does). Playing it again resumes: finished games are kept. The tables are written to
//! `DIR/pairs.csv`, `DIR/ratings.csv` and `DIR/tournament.json`.

use crate::monitor::estimate;
use crate::run::Progress;
use crate::stats::Z95;
use crate::{Adjudication, EngineSpec, Error, GameRecord, Openings, RunConfig, RunEnd, Shard, Tally, Timing};
use serde::Serialize;
use stackchess_core::Position;
use stackchess_stats::{fit_ratings, Anchor, DrawModel, RatingFit, Results};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};

/// Who plays whom.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Format {
    /// Every pair of engines.
    RoundRobin,
    /// The first engine against each of the others.
    Gauntlet,
}

impl Format {
    /// Its name in the tables: `round robin` or `gauntlet`.
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            Format::RoundRobin => "round robin",
            Format::Gauntlet => "gauntlet",
        }
    }
}

/// The pairings of `n` engines, as (first, second) indices.
#[must_use]
pub fn pairings(format: Format, n: usize) -> Vec<(usize, usize)> {
    match format {
        Format::RoundRobin => (0..n).flat_map(|a| (a + 1..n).map(move |b| (a, b))).collect(),
        Format::Gauntlet => (1..n).map(|b| (0, b)).collect(),
    }
}

/// A tournament's settings.
#[derive(Clone, Debug)]
pub struct Tournament {
    /// Who plays whom.
    pub format: Format,
    /// The engines, three or more, labels distinct.
    pub engines: Vec<EngineSpec>,
    /// Games of each pairing (even: each opening twice, colours swapped).
    pub games_per_pair: u64,
    /// The openings every pairing plays.
    pub openings: Openings,
    /// Base seed.
    pub seed: u64,
    /// Worker threads (0: one per core).
    pub threads: usize,
    /// Adjudicate a draw after this many plies.
    pub max_plies: Option<u32>,
    /// The engine put at 0 in the Elo table (`None`: the mean of all ratings is 0).
    pub anchor: Option<String>,
    /// Virtual draws added to every pairing before the fit (`BayesElo`'s prior).
    pub prior_draws: u64,
}

/// What went wrong in a tournament.
#[derive(Debug, thiserror::Error)]
pub enum TournamentError {
    /// The settings cannot make a tournament.
    #[error("{0}")]
    Settings(String),
    /// A pairing's run failed.
    #[error("{a} vs {b} in {}: {error}", dir.display())]
    Pairing {
        /// The first engine.
        a: String,
        /// The second engine.
        b: String,
        /// The pairing's directory.
        dir: PathBuf,
        /// The run's error (part of the message, so not also a `source`).
        error: Box<Error>,
    },
    /// Reading or writing the tournament's own files (its lock, its tables) failed.
    #[error(transparent)]
    Run(#[from] Error),
    /// The Elo table has no maximum (an engine won or lost every game, say).
    #[error("the Elo table cannot be fitted ({0}): play more games per pair, or add --prior-draws 1")]
    Fit(String),
}

/// A pairing played: its engines, directory and tally (from the first engine's side).
#[derive(Clone, Debug)]
pub struct PairResult {
    /// The pairing, as indices into [`Tournament::engines`].
    pub engines: (usize, usize),
    /// The first engine's label.
    pub a: String,
    /// The second engine's label.
    pub b: String,
    /// The pairing's run directory.
    pub dir: PathBuf,
    /// Every game of the pairing, counted for `a`.
    pub tally: Tally,
}

/// What [`Tournament::play`] did.
#[derive(Clone, Debug, Default)]
pub struct Played {
    /// The pairings finished, in order.
    pub pairs: Vec<PairResult>,
    /// Games played by this invocation.
    pub played: u64,
    /// Games recorded in the finished pairings.
    pub total: u64,
    /// The pairing (`a`, `b`) the stop flag interrupted, or that was not begun; `None` when every
    /// pairing is finished.
    pub interrupted: Option<(String, String)>,
}

/// Passes a run's progress on, counting its games into a tally.
struct Counting<'a> {
    inner: &'a mut dyn Progress,
    tally: Tally,
}

impl Progress for Counting<'_> {
    fn begin(&mut self, total: u64, done: u64) {
        self.inner.begin(total, done);
    }
    fn resumed(&mut self, rec: &GameRecord) {
        self.tally.add(rec);
        self.inner.resumed(rec);
    }
    fn finished(&mut self, rec: &GameRecord) -> bool {
        self.tally.add(rec);
        self.inner.finished(rec)
    }
}

impl Tournament {
    /// The pairings, as indices into [`Tournament::engines`].
    #[must_use]
    pub fn pairings(&self) -> Vec<(usize, usize)> {
        pairings(self.format, self.engines.len())
    }

    /// Games of the whole tournament.
    #[must_use]
    pub fn games(&self) -> u64 {
        self.games_per_pair * self.pairings().len() as u64
    }

    /// Checks the settings: three or more engines with distinct labels, an even number of
    /// games per pair, an anchor that names an engine.
    ///
    /// # Errors
    /// The first setting that cannot make a tournament.
    pub fn check(&self) -> Result<(), TournamentError> {
        let bad = |m: String| Err(TournamentError::Settings(m));
        if self.engines.len() < 3 {
            return bad(format!("a tournament needs three or more engines (--engine), not {}", self.engines.len()));
        }
        for (i, e) in self.engines.iter().enumerate() {
            if self.engines[..i].iter().any(|f| f.label == e.label) {
                return bad(format!("two engines are named '{}': names must be distinct", e.label));
            }
        }
        if self.games_per_pair < 2 || !self.games_per_pair.is_multiple_of(2) {
            return bad(format!(
                "--games-per-pair {}: must be even and at least 2 (each opening is played twice, colours swapped)",
                self.games_per_pair
            ));
        }
        self.anchor_index().map(|_| ())
    }

    fn anchor_index(&self) -> Result<Anchor, TournamentError> {
        let Some(name) = &self.anchor else { return Ok(Anchor::Mean) };
        match self.engines.iter().position(|e| &e.label == name) {
            Some(i) => Ok(Anchor::Player(i)),
            None => Err(TournamentError::Settings(format!(
                "--anchor {name}: no engine of that name (engines: {})",
                self.labels().join(", ")
            ))),
        }
    }

    fn labels(&self) -> Vec<String> {
        self.engines.iter().map(|e| e.label.clone()).collect()
    }

    /// The run of one pairing.
    fn config(&self, a: &EngineSpec, b: &EngineSpec) -> RunConfig {
        RunConfig {
            seed: self.seed,
            games: self.games_per_pair,
            threads: self.threads,
            openings: self.openings.clone(),
            opening_filter: None,
            paired: true,
            adjudication: Adjudication { max_plies: self.max_plies, ..Adjudication::default() },
            engines: vec![a.clone(), b.clone()],
            event: "stackchess tournament".into(),
            shard: Shard::WHOLE,
            timing: Timing::default(),
        }
    }

    /// Plays (or resumes) every pairing in `dir`, in order, holding the directory's lock, until
    /// all are finished or `stop` is set; `progress` sees every pairing's games.
    ///
    /// # Errors
    /// Bad settings, the lock held by another process, or a pairing's run failing (named).
    pub fn play<P: Position>(
        &self,
        rules: P::Rules,
        dir: &Path,
        stop: &AtomicBool,
        progress: &mut dyn Progress,
    ) -> Result<Played, TournamentError> {
        self.check()?;
        std::fs::create_dir_all(dir).map_err(|e| Error::io(dir, e))?;
        // One process at a time writes the tournament (each pairing's run has its own lock too).
        let _lock = stackchess_records::RunLock::acquire(dir).map_err(Error::from)?;
        let mut out = Played::default();
        for (i, j) in self.pairings() {
            let (x, y) = (&self.engines[i], &self.engines[j]);
            let pair_dir = dir.join(format!("{}-vs-{}", x.label, y.label));
            if stop.load(Ordering::SeqCst) {
                out.interrupted = Some((x.label.clone(), y.label.clone()));
                return Ok(out);
            }
            let resume = pair_dir.join(crate::records::MANIFEST).exists();
            let mut counting = Counting { inner: progress, tally: Tally::of(true, &x.label) };
            let summary = crate::run::<P>(rules, &pair_dir, &self.config(x, y), resume, stop, &mut counting).map_err(
                |error| TournamentError::Pairing {
                    a: x.label.clone(),
                    b: y.label.clone(),
                    dir: pair_dir.clone(),
                    error: Box::new(error),
                },
            )?;
            if summary.end != RunEnd::Complete {
                out.interrupted = Some((x.label.clone(), y.label.clone()));
                return Ok(out);
            }
            out.played += summary.played;
            out.total += summary.done;
            out.pairs.push(PairResult {
                engines: (i, j),
                a: x.label.clone(),
                b: y.label.clone(),
                dir: pair_dir,
                tally: counting.tally,
            });
        }
        Ok(out)
    }

    /// Writes `pairs.csv`, fits the Elo table over `played`'s pairings and writes `ratings.csv`
    /// and `tournament.json` in `dir` (`variant`: the rule set's name, for the report). An earlier
    /// invocation's tables do not outlive a fit that fails now.
    ///
    /// # Errors
    /// A write failing (naming the file), or a table with no maximum.
    pub fn standings(&self, dir: &Path, variant: &str, played: &Played) -> Result<Standings, TournamentError> {
        let pairs: Vec<PairRow> = played.pairs.iter().map(|p| pair_row(&p.a, &p.b, &p.tally, &p.dir)).collect();
        write_csv(&dir.join("pairs.csv"), &pairs)?;
        for stale in ["ratings.csv", "tournament.json"] {
            let _ = std::fs::remove_file(dir.join(stale));
        }
        let mut results = Results::new(self.labels());
        for p in &played.pairs {
            results.pairs.push((p.engines.0, p.engines.1, p.tally.first));
        }
        let fit =
            fit_ratings(&results.with_virtual_draws(self.prior_draws), DrawModel::HalfPoint, self.anchor_index()?)
                .map_err(TournamentError::Fit)?;
        let ratings = rating_rows(&fit, &results.totals());
        write_csv(&dir.join("ratings.csv"), &ratings)?;
        let report = Report {
            variant: variant.to_owned(),
            format: self.format,
            games_per_pair: self.games_per_pair,
            anchor: self.anchor.clone().unwrap_or_else(|| "mean".into()),
            draw_model: "half-point",
            prior_draws: self.prior_draws,
            engines: self
                .engines
                .iter()
                .map(|s| EngineEntry { name: s.label.clone(), settings: s.describe() })
                .collect(),
            pairs: &pairs,
            ratings: &ratings,
        };
        let path = dir.join("tournament.json");
        let json = serde_json::to_string_pretty(&report).map_err(|e| Error::io(&path, std::io::Error::other(e)))?;
        std::fs::write(&path, json + "\n").map_err(|e| Error::io(&path, e))?;
        Ok(Standings { pairs, ratings })
    }

    /// The Elo table as text: a heading that says where 0 is, then one line per engine.
    #[must_use]
    pub fn table_lines(&self, table: &[RatingRow]) -> Vec<String> {
        table_lines(table, self.anchor.as_deref(), self.prior_draws)
    }
}

/// The tables of a finished tournament.
#[derive(Clone, Debug)]
pub struct Standings {
    /// One row per pairing (pairs.csv).
    pub pairs: Vec<PairRow>,
    /// The Elo table, best first (ratings.csv).
    pub ratings: Vec<RatingRow>,
}

/// The lines of a pairing's result: `Score of A vs B: W - L - D [score] games`, its Elo
/// estimate, and its pentanomial counts.
#[must_use]
pub fn pair_lines(p: &PairResult) -> Vec<String> {
    let t = &p.tally;
    let f = &t.first;
    let mut lines = vec![format!(
        "Score of {} vs {}: {} - {} - {}  [{:.3}] {}",
        p.a,
        p.b,
        f.wins,
        f.losses,
        f.draws,
        f.score().unwrap_or(0.5),
        f.games()
    )];
    if let Some(e) = estimate(t) {
        lines.push(format!("  {e}"));
    }
    lines.push(format!("  Ptnml(0-2): {} ({} complete pairs)", t.penta, t.penta.pairs()));
    lines
}

/// One pairing's results, from its first engine's side (a row of pairs.csv).
#[derive(Serialize, Clone, Debug)]
#[allow(missing_docs)]
pub struct PairRow {
    pub engine_a: String,
    pub engine_b: String,
    pub games: u64,
    pub wins: u64,
    pub draws: u64,
    pub losses: u64,
    pub score: f64,
    pub elo: Option<f64>,
    pub elo_error: Option<f64>,
    pub elo_lower: Option<f64>,
    pub elo_upper: Option<f64>,
    pub los: Option<f64>,
    pub penta_0: u64,
    pub penta_1: u64,
    pub penta_2: u64,
    pub penta_3: u64,
    pub penta_4: u64,
    pub dir: String,
}

/// One engine's line of the Elo table (a row of ratings.csv).
#[derive(Serialize, Clone, Debug)]
#[allow(missing_docs)]
pub struct RatingRow {
    pub rank: usize,
    pub engine: String,
    pub elo: f64,
    pub se: f64,
    pub lower: f64,
    pub upper: f64,
    pub games: u64,
    pub points: f64,
    pub score: f64,
}

/// tournament.json.
#[derive(Serialize)]
struct Report<'a> {
    variant: String,
    format: Format,
    games_per_pair: u64,
    /// `mean` or the anchored engine's name.
    anchor: String,
    draw_model: &'static str,
    /// Virtual draws per pairing in the fit.
    prior_draws: u64,
    engines: Vec<EngineEntry>,
    pairs: &'a [PairRow],
    ratings: &'a [RatingRow],
}

#[derive(Serialize)]
struct EngineEntry {
    name: String,
    settings: String,
}

/// The row of a finished pairing.
fn pair_row(a: &str, b: &str, t: &Tally, dir: &Path) -> PairRow {
    let f = &t.first;
    let e = estimate(t);
    let p = t.penta.0;
    PairRow {
        engine_a: a.to_owned(),
        engine_b: b.to_owned(),
        games: f.games(),
        wins: f.wins,
        draws: f.draws,
        losses: f.losses,
        score: f.score().unwrap_or(0.5),
        elo: e.as_ref().map(|e| e.elo),
        elo_error: e.as_ref().map(|e| e.error),
        elo_lower: e.as_ref().map(|e| e.lower),
        elo_upper: e.as_ref().map(|e| e.upper),
        los: e.as_ref().map(|e| e.los),
        penta_0: p[0],
        penta_1: p[1],
        penta_2: p[2],
        penta_3: p[3],
        penta_4: p[4],
        dir: dir.display().to_string(),
    }
}

/// The Elo table: the fit's ratings, best first, with each engine's real games and points
/// (`totals`, in the fit's order: a prior's virtual draws are not games).
fn rating_rows(fit: &RatingFit, totals: &[(u64, f64)]) -> Vec<RatingRow> {
    let mut rows: Vec<RatingRow> = fit
        .ratings
        .iter()
        .zip(totals)
        .map(|(r, &(games, points))| RatingRow {
            rank: 0,
            engine: r.player.clone(),
            elo: r.rating,
            se: r.se,
            lower: r.lo,
            upper: r.hi,
            games,
            points,
            score: if games > 0 { points / games as f64 } else { 0.0 },
        })
        .collect();
    rows.sort_by(|x, y| y.elo.total_cmp(&x.elo));
    for (i, r) in rows.iter_mut().enumerate() {
        r.rank = i + 1;
    }
    rows
}

/// Writes `rows` as CSV to `path`.
fn write_csv<T: Serialize>(path: &Path, rows: &[T]) -> Result<(), Error> {
    let fail = |e: csv::Error| Error::io(path, std::io::Error::other(e.to_string()));
    let mut w = csv::Writer::from_path(path).map_err(fail)?;
    for r in rows {
        w.serialize(r).map_err(fail)?;
    }
    w.flush().map_err(|e| Error::io(path, e))
}

/// The Elo table as text: a heading that says where 0 is, then one line per engine.
fn table_lines(table: &[RatingRow], anchor: Option<&str>, prior_draws: u64) -> Vec<String> {
    let zero = anchor.map_or_else(|| "the mean at 0".to_owned(), |n| format!("{n} at 0"));
    let prior = if prior_draws > 0 { format!(", {prior_draws} virtual draws per pairing") } else { String::new() };
    let width = table.iter().map(|r| r.engine.len()).max().unwrap_or(0).max(6);
    let mut lines = vec![
        format!("Elo by maximum likelihood over all games (draws as half points, {zero}{prior}), 95% intervals:"),
        format!(
            "{:>4}  {:<width$}  {:>7}  {:>6}  {:>17}  {:>6}  {:>7}  {:>6}",
            "Rank", "Engine", "Elo", "+/-", "95% interval", "Games", "Points", "Score"
        ),
    ];
    for r in table {
        lines.push(format!(
            "{:>4}  {:<width$}  {:>7.1}  {:>6.1}  {:>17}  {:>6}  {:>7.1}  {:>5.1}%",
            r.rank,
            r.engine,
            r.elo,
            Z95 * r.se,
            format!("[{:.1}, {:.1}]", r.lower, r.upper),
            r.games,
            r.points,
            r.score * 100.0
        ));
    }
    lines
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Game `index` of a pairing (games `2k`, `2k + 1` share opening `k`): `a` has White in even games.
    fn game(index: u64, a: &str, b: &str, a_half_points: u8) -> GameRecord {
        let (white, black) = if index.is_multiple_of(2) { (a, b) } else { (b, a) };
        let white_half = if index.is_multiple_of(2) { a_half_points } else { 2 - a_half_points };
        let result = ["0-1", "1/2-1/2", "1-0"][usize::from(white_half)];
        GameRecord {
            index,
            pair: index / 2,
            white: white.into(),
            black: black.into(),
            result: result.into(),
            ..GameRecord::default()
        }
    }

    /// A beats B 3/4 (two wins, two draws), B beats C 3/4 (three wins, a loss), A beats C 9/10:
    /// every score is the logistic expectation of ratings g = 400·log10(3) = 190.849 apart
    /// (3/4 = 1/(1 + 10^(−g/400)), 9/10 for 2g), so the likelihood's maximum fits every pair
    /// exactly: A = +g, B = 0, C = −g with the mean at 0.
    ///
    /// Anchored at A: A = 0, B = −g, C = −2g. Standard errors by hand (c = ln 10 / 400, per pair
    /// n·E·(1 − E) = 0.75, 0.75, 0.9 in units of c²): with A fixed the information of (B, C) is
    /// [[1.5, −0.75], [−0.75, 1.65]], det 1.9125, so sd(B) = √(1.65/1.9125)/c = 161.36 and
    /// sd(C) = √(1.5/1.9125)/c = 153.85.
    #[test]
    fn three_engine_table_from_records_matches_hand_values() {
        let fixture: [(&str, &str, &[u8]); 3] =
            [("A", "B", &[2, 2, 1, 1]), ("B", "C", &[2, 2, 2, 0]), ("A", "C", &[2, 2, 2, 2, 2, 2, 2, 2, 2, 0])];
        let mut results = Results::new(vec!["A".into(), "B".into(), "C".into()]);
        for (a, b, halves) in fixture {
            let mut t = Tally::of(true, a);
            for (i, &h) in halves.iter().enumerate() {
                t.add(&game(i as u64, a, b, h));
            }
            let idx = |n: &str| results.players.iter().position(|p| p == n).unwrap();
            let (i, j) = (idx(a), idx(b));
            results.pairs.push((i, j, t.first));
            let row = pair_row(a, b, &t, Path::new("d"));
            assert_eq!(row.games, halves.len() as u64);
            assert!(
                (row.score - halves.iter().map(|&h| f64::from(h)).sum::<f64>() / 2.0 / halves.len() as f64).abs()
                    < 1e-12
            );
        }
        let g = 400.0 * 3f64.log10();
        let close = |x: f64, y: f64, tol: f64| (x - y).abs() <= tol;
        let mean = rating_rows(&fit_ratings(&results, DrawModel::HalfPoint, Anchor::Mean).unwrap(), &results.totals());
        let order: Vec<&str> = mean.iter().map(|r| r.engine.as_str()).collect();
        assert_eq!(order, ["A", "B", "C"]);
        assert!(close(mean[0].elo, g, 1e-6) && close(mean[1].elo, 0.0, 1e-6) && close(mean[2].elo, -g, 1e-6));
        assert_eq!((mean[0].games, mean[0].points, mean[0].rank), (14, 12.0, 1));
        let at_a =
            rating_rows(&fit_ratings(&results, DrawModel::HalfPoint, Anchor::Player(0)).unwrap(), &results.totals());
        assert!(close(at_a[0].elo, 0.0, 1e-9) && close(at_a[0].se, 0.0, 1e-9));
        assert!(close(at_a[1].elo, -g, 1e-6) && close(at_a[2].elo, -2.0 * g, 1e-6));
        assert!(close(at_a[1].se, 161.36, 0.01) && close(at_a[2].se, 153.85, 0.01), "{at_a:?}");
        assert!(close(at_a[2].upper - at_a[2].elo, Z95 * at_a[2].se, 1e-9));
        let text = table_lines(&at_a, Some("A"), 0).join("\n");
        assert!(text.contains("A at 0") && text.contains("-381.7"), "{text}");
    }

    #[test]
    fn round_robin_pairs_everyone_and_gauntlet_the_first() {
        assert_eq!(pairings(Format::RoundRobin, 4), [(0, 1), (0, 2), (0, 3), (1, 2), (1, 3), (2, 3)]);
        assert_eq!(pairings(Format::Gauntlet, 4), [(0, 1), (0, 2), (0, 3)]);
    }
}
