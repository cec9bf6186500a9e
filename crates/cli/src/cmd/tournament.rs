//! `stackchess tournament`: three or more built-in engines, round robin (every pair) or gauntlet
//! (the first engine against each other), then an Elo table fitted by maximum likelihood over all
//! games (`stackchess_stats::fit_ratings`, draws as half points, as Ordo does).
//!
//! Each pairing is a self-play run of two engines with paired openings (each opening twice, the
//! engines' colours swapped), in its own directory `DIR/<A>-vs-<B>/`; every pairing plays the same
//! openings. Running the command again with the same flags resumes: finished games are kept and
//! only the missing ones are played. The tables go to stdout and to `DIR/pairs.csv`,
//! `DIR/ratings.csv` and `DIR/tournament.json`.

use crate::cmd::selfplay::{estimate, format_duration, limits_or_default, LimitArgs};
use crate::common::{note, Evaluation};
use anyhow::{bail, ensure, Context, Result};
use indicatif::{ProgressBar, ProgressStyle};
use serde::Serialize;
use stackchess_core::{Position, Rules};
use stackchess_selfplay::spec::{self, EngineDef};
use stackchess_selfplay::{Adjudication, GameRecord, Progress, RunConfig, RunEnd, Shard, Tally, Timing};
use stackchess_stats::{fit_ratings, Anchor, DrawModel, RatingFit, Results, Z95};
use stackchess_variants::{VariantArg, WithPosition};
use std::io::{IsTerminal, Write as _};
use std::path::{Path, PathBuf};
use std::sync::atomic::Ordering;
use std::time::{Duration, Instant};

/// Flags of `tournament`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// Variant: malka, traditional, fide, air-attack, or rules:FILE (a user-defined rule set).
    #[arg(long, short, default_value = "malka")]
    variant: VariantArg,
    /// An engine (three or more): `name=A[,param=KEY=VALUE]...[,params=FILE][,plain][,nodes=N][,depth=N][,movetime=MS][,hash=MB]`.
    #[arg(long = "engine", value_name = "SPEC", required = true)]
    engines: Vec<String>,
    /// Who plays whom: every pair (round-robin), or the first engine against each other (gauntlet).
    #[arg(long, value_enum, default_value_t = Format::RoundRobin)]
    format: Format,
    /// Games of each pairing (even: each opening twice, colours swapped).
    #[arg(long, default_value_t = 20, value_name = "N")]
    games_per_pair: u64,
    /// Openings: `random:K`, `start`, a file of LFEN lines, or `book:FILE[:K]` (as `selfplay`).
    #[arg(long, default_value = "random:8")]
    openings: String,
    /// Base seed: every pairing plays the same openings.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Output directory: one run directory per pairing, pairs.csv, ratings.csv, tournament.json.
    #[arg(long)]
    out: PathBuf,
    /// Limits of engines whose spec gives none (default 5000 nodes).
    #[command(flatten)]
    limits: LimitArgs,
    /// Adjudicate a draw after this many plies.
    #[arg(long, value_name = "N")]
    max_plies: Option<u32>,
    /// Put this engine at 0 in the Elo table (default: the mean of all ratings is 0).
    #[arg(long, value_name = "NAME")]
    anchor: Option<String>,
    /// Virtual draws added to every pairing before the fit (`BayesElo`'s prior): an engine that
    /// won or lost every game can then be rated. The games and points shown stay the real ones.
    #[arg(long, default_value_t = 0, value_name = "N")]
    prior_draws: u64,
    /// Worker threads (default: one per core).
    #[arg(long, default_value_t = 0)]
    threads: usize,
    /// No progress bar.
    #[arg(long, short)]
    quiet: bool,
}

/// Who plays whom.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
enum Format {
    /// Every pair of engines.
    RoundRobin,
    /// The first engine against each of the others.
    Gauntlet,
}

/// The pairings of `n` engines, as (first, second) indices.
fn pairings(format: Format, n: usize) -> Vec<(usize, usize)> {
    match format {
        Format::RoundRobin => (0..n).flat_map(|a| (a + 1..n).map(move |b| (a, b))).collect(),
        Format::Gauntlet => (1..n).map(|b| (0, b)).collect(),
    }
}

/// One pairing's results, from its first engine's side (a row of pairs.csv).
#[derive(Serialize, Debug)]
struct PairRow {
    engine_a: String,
    engine_b: String,
    games: u64,
    wins: u64,
    draws: u64,
    losses: u64,
    score: f64,
    elo: Option<f64>,
    elo_error: Option<f64>,
    elo_lower: Option<f64>,
    elo_upper: Option<f64>,
    los: Option<f64>,
    penta_0: u64,
    penta_1: u64,
    penta_2: u64,
    penta_3: u64,
    penta_4: u64,
    dir: String,
}

/// One engine's line of the Elo table (a row of ratings.csv).
#[derive(Serialize, Debug)]
struct RatingRow {
    rank: usize,
    engine: String,
    elo: f64,
    se: f64,
    lower: f64,
    upper: f64,
    games: u64,
    points: f64,
    score: f64,
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

/// A bar over the whole tournament, and the tally of the pairing being played.
struct Ui {
    bar: ProgressBar,
    tally: Tally,
}

impl Ui {
    fn new(quiet: bool, total: u64) -> Ui {
        let bar = if quiet || !std::io::stderr().is_terminal() {
            ProgressBar::hidden()
        } else {
            let bar = ProgressBar::new(total);
            let style = ProgressStyle::with_template("[{elapsed_precise}] {bar:30.cyan/blue} {pos}/{len} games {msg}")
                .unwrap_or_else(|_| ProgressStyle::default_bar());
            bar.set_style(style);
            bar.enable_steady_tick(Duration::from_millis(500));
            bar
        };
        Ui { bar, tally: Tally::default() }
    }
}

impl Progress for Ui {
    fn begin(&mut self, _total: u64, done: u64) {
        self.bar.inc(done);
    }
    fn resumed(&mut self, rec: &GameRecord) {
        self.tally.add(rec);
    }
    fn finished(&mut self, rec: &GameRecord) -> bool {
        self.tally.add(rec);
        self.bar.inc(1);
        true
    }
}

/// The engines of the spec texts, checked: three or more, names distinct.
fn engine_defs(texts: &[String]) -> Result<Vec<EngineDef>> {
    let defs = texts.iter().map(|t| spec::parse(t)).collect::<Result<Vec<_>, _>>()?;
    ensure!(defs.len() >= 3, "a tournament needs three or more engines (--engine), not {}", defs.len());
    for (i, d) in defs.iter().enumerate() {
        if defs[..i].iter().any(|e| e.name == d.name) {
            bail!("two engines are named '{}': names must be distinct", d.name);
        }
    }
    Ok(defs)
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
fn write_csv<T: Serialize>(path: &Path, rows: &[T]) -> Result<()> {
    let mut w = csv::Writer::from_path(path).with_context(|| format!("writing {}", path.display()))?;
    for r in rows {
        w.serialize(r).with_context(|| format!("writing {}", path.display()))?;
    }
    w.flush().with_context(|| format!("writing {}", path.display()))?;
    Ok(())
}

struct Run<'a>(&'a Args);

impl WithPosition for Run<'_> {
    type Output = Result<()>;
    fn call<P: Position>(self, rules: P::Rules) -> Result<()> {
        let a = self.0;
        let defs = engine_defs(&a.engines)?;
        ensure!(
            a.games_per_pair >= 2 && a.games_per_pair.is_multiple_of(2),
            "--games-per-pair {}: must be even and at least 2 (each opening is played twice, colours swapped)",
            a.games_per_pair
        );
        let anchor = match &a.anchor {
            None => Anchor::Mean,
            Some(name) => Anchor::Player(defs.iter().position(|d| &d.name == name).with_context(|| {
                format!("--anchor {name}: no engine of that name (engines: {})", names(&defs).join(", "))
            })?),
        };
        let shared = limits_or_default(&a.limits);
        let eval = Evaluation::preset(rules.name().parse()?)?;
        if let Some(text) = eval.borrowed() {
            note(&text);
        }
        let specs = defs
            .iter()
            .zip(&a.engines)
            .map(|(d, text)| {
                crate::engine_spec::engine_spec(d, rules.name(), a.variant.as_str(), shared, &eval)
                    .with_context(|| format!("--engine {text}"))
            })
            .collect::<Result<Vec<_>>>()?;
        let openings = crate::cmd::book::openings::<P>(rules, &a.openings, a.seed, a.games_per_pair / 2)?;
        let pairs = pairings(a.format, defs.len());
        std::fs::create_dir_all(&a.out).with_context(|| format!("creating {}", a.out.display()))?;
        // One process at a time writes the tournament (each pairing's run has its own lock too).
        let _lock = stackchess_records::RunLock::acquire(&a.out)?;
        let started = Instant::now();
        let mut ui = Ui::new(a.quiet, a.games_per_pair * pairs.len() as u64);
        let mut results = Results::new(names(&defs));
        let (mut rows, mut lines) = (Vec::new(), Vec::new());
        let (mut played, mut total) = (0, 0);
        // SIGINT, SIGTERM and SIGHUP stop the pairing being played cleanly; the rest are not begun.
        let guard = crate::interrupt::run()?;
        for &(i, j) in &pairs {
            let (x, y) = (&specs[i], &specs[j]);
            let dir = a.out.join(format!("{}-vs-{}", x.label, y.label));
            let cfg = RunConfig {
                seed: a.seed,
                games: a.games_per_pair,
                threads: a.threads,
                openings: openings.clone(),
                opening_filter: None,
                paired: true,
                adjudication: Adjudication { max_plies: a.max_plies, ..Adjudication::default() },
                engines: vec![x.clone(), y.clone()],
                event: "stackchess tournament".into(),
                shard: Shard::WHOLE,
                timing: Timing::default(),
            };
            let resume = dir.join(stackchess_selfplay::records::MANIFEST).exists();
            ui.tally = Tally::of(true, &x.label);
            let summary = if crate::interrupt::STOP.load(Ordering::SeqCst) {
                None
            } else {
                let s = stackchess_selfplay::run::<P>(rules, &dir, &cfg, resume, &crate::interrupt::STOP, &mut ui)
                    .with_context(|| format!("{} vs {} in {}", x.label, y.label, dir.display()))?;
                Some(s)
            };
            let Some(summary) = summary.filter(|s| s.end == RunEnd::Complete) else {
                ui.bar.finish_and_clear();
                bail!(
                    "interrupted during {} vs {}; run the same command again to resume the tournament in {}",
                    x.label,
                    y.label,
                    a.out.display()
                );
            };
            played += summary.played;
            total += summary.done;
            let t = &ui.tally;
            results.pairs.push((i, j, t.first));
            let f = &t.first;
            lines.push(format!(
                "Score of {} vs {}: {} - {} - {}  [{:.3}] {}",
                x.label,
                y.label,
                f.wins,
                f.losses,
                f.draws,
                f.score().unwrap_or(0.5),
                f.games()
            ));
            if let Some(e) = estimate(t) {
                lines.push(format!("  {e}"));
            }
            lines.push(format!("  Ptnml(0-2): {} ({} complete pairs)", t.penta, t.penta.pairs()));
            rows.push(pair_row(&x.label, &y.label, t, &dir));
        }
        drop(guard);
        ui.bar.finish_and_clear();
        let kind = match a.format {
            Format::RoundRobin => "round robin",
            Format::Gauntlet => "gauntlet",
        };
        lines.insert(
            0,
            format!(
                "Tournament ({kind}) of {} engines in {}: {total} games in {} pairings ({played} played now in {})",
                defs.len(),
                a.out.display(),
                pairs.len(),
                format_duration(started.elapsed())
            ),
        );
        emit(&lines)?;
        write_csv(&a.out.join("pairs.csv"), &rows)?;
        // Tables of an earlier invocation must not outlive a fit that fails now.
        for stale in ["ratings.csv", "tournament.json"] {
            let _ = std::fs::remove_file(a.out.join(stale));
        }
        let fit = fit_ratings(&results.with_virtual_draws(a.prior_draws), DrawModel::HalfPoint, anchor)
            .map_err(anyhow::Error::msg)
            .context("the Elo table cannot be fitted (play more games per pair, or add --prior-draws 1)")?;
        let table = rating_rows(&fit, &results.totals());
        let mut lines = table_lines(&table, a.anchor.as_deref(), a.prior_draws);
        lines.extend(specs.iter().map(|s| format!("{}: {}", s.label, s.describe())));
        emit(&lines)?;
        write_csv(&a.out.join("ratings.csv"), &table)?;
        let report = Report {
            variant: rules.name().to_owned(),
            format: a.format,
            games_per_pair: a.games_per_pair,
            anchor: a.anchor.clone().unwrap_or_else(|| "mean".into()),
            draw_model: "half-point",
            prior_draws: a.prior_draws,
            engines: specs.iter().map(|s| EngineEntry { name: s.label.clone(), settings: s.describe() }).collect(),
            pairs: &rows,
            ratings: &table,
        };
        let path = a.out.join("tournament.json");
        let json = serde_json::to_string_pretty(&report).context("writing tournament.json")?;
        std::fs::write(&path, json + "\n").with_context(|| format!("writing {}", path.display()))?;
        Ok(())
    }
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

/// Writes `lines` to stdout (a closed pipe is an error `main` treats as success, not a panic).
fn emit(lines: &[String]) -> Result<()> {
    let mut out = std::io::stdout().lock();
    for l in lines {
        writeln!(out, "{l}")?;
    }
    out.flush()?;
    Ok(())
}

fn names(defs: &[EngineDef]) -> Vec<String> {
    defs.iter().map(|d| d.name.clone()).collect()
}

/// Runs the command.
pub fn run(a: &Args) -> Result<()> {
    a.variant.load()?.with(Run(a))
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
