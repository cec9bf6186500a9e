//! The flags, progress display, interrupt handling and summary of a run, shared by `selfplay`,
//! `match`, `tournament` and `balance`.

use anyhow::{bail, Result};
use stackchess_core::Position;
use stackchess_search::Limits;
use stackchess_selfplay::{
    Adjudication, DrawRule, EngineSpec, GameRecord, Monitor, OpeningFilter, Openings, Progress, ResignRule, RunConfig,
    RunEnd, Summary, TimeControl, Timing,
};
use stackchess_variants::VariantArg;
use std::fmt::Write as _;
use std::path::PathBuf;
use std::time::{Duration, Instant};

/// The flags of a run, shared by `selfplay` and `match`.
#[derive(clap::Args, Debug)]
pub struct RunArgs {
    /// Variant: malka, traditional, fide, air-attack, or rules:FILE (a user-defined rule set).
    #[arg(long, short, default_value = "malka")]
    pub variant: VariantArg,
    /// Games the run is to have (with --resume, a larger number extends the run).
    #[arg(long)]
    pub games: u64,
    /// Output directory: games.csv, games.pgn, manifest.json. Must be new or empty unless --resume.
    #[arg(long)]
    pub out: PathBuf,
    /// Worker threads (default: one per core).
    #[arg(long, default_value_t = 0)]
    pub threads: usize,
    /// Base seed: game i depends on (seed, i) only.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Openings: `random:K` (K random legal plies), `start`, a file of LFEN lines or EPD records,
    /// a PGN file (`*.pgn`: where each game leaves), or `book:FILE[:K]` (K plies, default 8,
    /// walked in an opening book, each move weighted by 2 wins + draws).
    #[arg(long, default_value = "random:8")]
    pub openings: String,
    #[command(flatten)]
    pub opening_file: crate::openings_flags::OpeningFileArgs,
    /// Reject random openings whose short search scores beyond this many centipawns.
    #[arg(long, value_name = "CP")]
    pub opening_max_cp: Option<i32>,
    /// Node budget of that short search.
    #[arg(long, default_value_t = 2000, value_name = "N")]
    pub opening_check_nodes: u64,
    /// Play every opening twice, colours swapped (--games must be even).
    #[arg(long)]
    pub paired: bool,
    #[command(flatten)]
    pub shard: crate::shard::ShardArgs,
    /// Continue the run in --out: keep its finished games, play the missing ones.
    #[arg(long)]
    pub resume: bool,
    /// Records: `csv` (games.csv, appended game by game), or `parquet` (also games.parquet, a
    /// copy of games.csv rewritten at the end of each session; a resumed run keeps it).
    #[arg(long, value_enum, default_value_t = GamesFormat::Csv)]
    pub format: GamesFormat,
    /// No progress bar.
    #[arg(long, short)]
    pub quiet: bool,
    /// Adjudicate a draw after this many plies of the game.
    #[arg(long, value_name = "N")]
    pub max_plies: Option<u32>,
    /// Resign adjudication: both engines' scores agree one side is lost for this many moves each.
    #[arg(long, value_name = "K")]
    pub resign_moves: Option<u32>,
    /// Resign threshold in centipawns.
    #[arg(long, value_name = "CP", default_value_t = 600, requires = "resign_moves")]
    pub resign_score: i32,
    /// Draw adjudication: both scores within --draw-score for this many moves each.
    #[arg(long, value_name = "K")]
    pub draw_moves: Option<u32>,
    /// Draw band in centipawns.
    #[arg(long, value_name = "CP", default_value_t = 10, requires = "draw_moves")]
    pub draw_score: i32,
    /// Draw adjudication only after this move number.
    #[arg(long, value_name = "M", default_value_t = 40, requires = "draw_moves")]
    pub draw_after: u32,
    #[command(flatten)]
    pub tune: crate::tuned::TuneArgs,
    /// Milliseconds a mover on a clock (--tc) may exceed it by without losing on time.
    #[arg(long, value_name = "MS", default_value_t = 50)]
    pub time_margin: u64,
}

/// The record formats of a run directory.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum GamesFormat {
    /// games.csv only.
    Csv,
    /// games.csv (the journal that makes runs resumable) and games.parquet.
    Parquet,
}

impl RunArgs {
    /// The run's settings, with these engines.
    pub fn config<P: Position>(&self, rules: P::Rules, engines: Vec<EngineSpec>, event: &str) -> Result<RunConfig> {
        if self.format == GamesFormat::Parquet && !cfg!(feature = "analysis") {
            bail!("--format parquet needs the `analysis` feature, which this build of stackchess leaves out");
        }
        let count = if self.paired { self.games.div_ceil(2) } else { self.games };
        let openings =
            crate::openings_flags::openings_with::<P>(rules, &self.openings, self.seed, count, &self.opening_file)?;
        let opening_filter =
            self.opening_max_cp.map(|max_cp| OpeningFilter { max_cp, limits: Limits::nodes(self.opening_check_nodes) });
        if opening_filter.is_some() && !matches!(openings, Openings::Random { .. }) {
            bail!("--opening-max-cp applies to random openings only");
        }
        Ok(RunConfig {
            seed: self.seed,
            games: self.games,
            threads: self.threads,
            openings,
            opening_filter,
            paired: self.paired,
            adjudication: Adjudication {
                max_plies: self.max_plies,
                resign: self.resign_moves.map(|moves| ResignRule { moves, score: self.resign_score }),
                draw: self.draw_moves.map(|moves| DrawRule {
                    after_move: self.draw_after,
                    moves,
                    score: self.draw_score,
                }),
            },
            engines,
            event: event.to_owned(),
            shard: self.shard.resolve()?,
            timing: Timing { margin: Duration::from_millis(self.time_margin), ..Timing::default() },
        })
    }
}

/// Each move's search limits: `--nodes`, `--depth`, `--movetime`, and the clock `--tc` (5000
/// nodes when none is given).
#[derive(clap::Args, Debug, Clone, Default)]
pub struct LimitArgs {
    /// Nodes per move (reproducible; the default, 5000, when no limit is given).
    #[arg(long)]
    pub nodes: Option<u64>,
    /// Depth per move, in plies (reproducible).
    #[arg(long, short)]
    pub depth: Option<u32>,
    /// Milliseconds per move (games then depend on the machine's speed and load).
    #[arg(long, value_name = "MS")]
    pub movetime: Option<u64>,
    /// Time control, cutechess-style (seconds): `40/60+0.6` (moves/base+increment), `60+0.6`,
    /// `10` (no increment). With no other limit the engines play on the clock alone.
    #[arg(long, value_name = "TC")]
    pub tc: Option<TimeControl>,
}

impl LimitArgs {
    /// The limits given (without the clock) and the time control, if any is given.
    pub fn given(&self) -> Option<(Limits, Option<TimeControl>)> {
        let l = Limits {
            depth: self.depth,
            nodes: self.nodes,
            movetime: self.movetime.map(Duration::from_millis),
            ..Limits::default()
        };
        (l != Limits::default() || self.tc.is_some()).then_some((l, self.tc))
    }
}

/// The limits and time control of `flags`; 5000 nodes a move when none is given.
pub fn limits_or_default(flags: &LimitArgs) -> (Limits, Option<TimeControl>) {
    flags.given().unwrap_or((Limits::nodes(5000), None))
}

/// The progress display of a run over its [`Monitor`] (the tally, rating lines and SPRT).
pub struct Ui {
    bar: Option<crate::progress::Progress>,
    quiet: bool,
    /// How many games this invocation has to play, for the ETA.
    to_play: u64,
    started: Instant,
    is_match: bool,
    /// What the run has counted so far.
    pub monitor: Monitor,
}

impl Ui {
    /// A display on stderr (nothing with `quiet`) over `monitor`; `is_match` shows engine A's
    /// score, else White's, Black's and the draws.
    pub fn new(quiet: bool, is_match: bool, monitor: Monitor) -> Ui {
        Ui { bar: None, quiet, to_play: 0, started: Instant::now(), is_match, monitor }
    }

    /// Prints `line` on stderr, above the bar when there is one.
    fn say(&self, line: &str) {
        match &self.bar {
            Some(b) => b.println(line),
            None => eprintln!("{line}"),
        }
    }

    /// Games per minute in this invocation.
    pub fn rate(&self) -> f64 {
        let mins = self.started.elapsed().as_secs_f64() / 60.0;
        if mins > 0.0 {
            self.monitor.played as f64 / mins
        } else {
            0.0
        }
    }

    fn message(&self) -> String {
        let t = &self.monitor.tally;
        let remaining = self.to_play.saturating_sub(self.monitor.played);
        let rate = self.rate();
        let eta = Duration::try_from_secs_f64(remaining as f64 / rate * 60.0)
            .ok()
            .filter(|_| rate > 0.0)
            .map_or_else(|| "?".into(), format_duration);
        let mut m = format!("| {rate:.1} games/min | ETA {eta} | ");
        if self.is_match {
            let f = &t.first;
            let _ = write!(m, "A +{} ={} -{}", f.wins, f.draws, f.losses);
            if let Some(e) = stackchess_selfplay::monitor::estimate(t) {
                let _ = write!(m, " | Elo {:+.0} ± {:.0}", e.elo, e.error);
            }
            if let Some(llr) = self.monitor.llr() {
                let _ = write!(m, " | LLR {llr:.2}");
            }
        } else {
            let _ = write!(m, "White {} Draw {} Black {}", t.white_wins, t.draws, t.black_wins);
        }
        m
    }
}

impl Progress for Ui {
    fn begin(&mut self, total: u64, done: u64) {
        self.monitor.begin(total, done);
        self.to_play = total.saturating_sub(done);
        let mut bar = crate::progress::Progress::new(total, done, "games", self.quiet);
        bar.message(&self.message(), true);
        self.bar = Some(bar);
    }
    fn resumed(&mut self, rec: &GameRecord) {
        self.monitor.resumed(rec);
    }
    fn finished(&mut self, rec: &GameRecord) -> bool {
        let go_on = self.monitor.finished(rec);
        if self.monitor.rating_due() {
            self.say(&self.monitor.rating_line());
        }
        let message = self.message();
        if let Some(b) = &mut self.bar {
            b.inc(1);
            b.message(&message, false);
        }
        go_on
    }
}

/// `1h02m03s`, `4m05s`, `6s`.
pub fn format_duration(d: Duration) -> String {
    let s = d.as_secs();
    match (s / 3600, s / 60 % 60, s % 60) {
        (0, 0, s) => format!("{s}s"),
        (0, m, s) => format!("{m}m{s:02}s"),
        (h, m, s) => format!("{h}h{m:02}m{s:02}s"),
    }
}

/// Runs `cfg` for `P` with a progress bar and signal handling (`crate::interrupt`), then writes the Parquet copy of
/// the records when the run has one (even after an interruption); prints nothing itself.
pub fn execute<P: Position>(rules: P::Rules, args: &RunArgs, cfg: &RunConfig, ui: &mut Ui) -> Result<Summary> {
    // SIGINT, SIGTERM and SIGHUP stop the run cleanly until the Parquet copy is written.
    let _run = crate::interrupt::run()?;
    let resume = args.resume || args.shard.resumes_by_itself(&args.out);
    let summary = stackchess_selfplay::run::<P>(rules, &args.out, cfg, resume, &crate::interrupt::STOP, ui);
    if let Some(b) = &ui.bar {
        b.finish();
    }
    let summary = summary?;
    if let Some(e) = ui.monitor.take_failure() {
        return Err(e.into());
    }
    parquet_copy(args)?;
    Ok(summary)
}

/// Rewrites `games.parquet` from `games.csv` (and `plies.parquet` from `plies.csv`, when the run
/// has one) when `--format parquet` is given or the run was started with it (its manifest says
/// so), and records the format in the manifest.
#[cfg(feature = "analysis")]
fn parquet_copy(args: &RunArgs) -> Result<()> {
    use anyhow::Context;
    use stackchess_selfplay::records::{GAMES_CSV, GAMES_PARQUET, MANIFEST, PLIES_CSV, PLIES_PARQUET};
    let manifest_path = args.out.join(MANIFEST);
    let mut manifest = stackchess_selfplay::Manifest::read(&manifest_path)?;
    if args.format != GamesFormat::Parquet && manifest.format != PARQUET_FORMAT {
        return Ok(());
    }
    let out = args.out.join(GAMES_PARQUET);
    stackchess_analysis::load::write_games_parquet(&args.out.join(GAMES_CSV), &out)
        .with_context(|| format!("writing {}", out.display()))?;
    if args.out.join(PLIES_CSV).is_file() {
        let out = args.out.join(PLIES_PARQUET);
        stackchess_analysis::load::write_plies_parquet(&args.out.join(PLIES_CSV), &out)
            .with_context(|| format!("writing {}", out.display()))?;
    }
    if manifest.format != PARQUET_FORMAT {
        manifest.format = PARQUET_FORMAT.into();
        manifest.write(&manifest_path)?;
    }
    Ok(())
}

/// Without the analysis crate there is no Parquet writer (and `config` refuses the flag).
#[cfg(not(feature = "analysis"))]
#[allow(clippy::unnecessary_wraps)]
fn parquet_copy(_: &RunArgs) -> Result<()> {
    Ok(())
}

/// The manifest's `format` of a run that keeps a Parquet copy.
#[cfg(feature = "analysis")]
const PARQUET_FORMAT: &str = "csv+parquet";

/// The lines every run prints at its end: where, how many, how fast, how games ended.
pub fn print_run(args: &RunArgs, s: &Summary, ui: &Ui) {
    let t = &ui.monitor.tally;
    let shard = if s.shard.is_whole() { String::new() } else { format!(" (shard {})", s.shard) };
    println!(
        "Run {}{shard} in {}: {} of {} games recorded ({} played now in {}, {:.1} games/min)",
        s.run_key,
        args.out.display(),
        s.done,
        s.games,
        ui.monitor.played,
        format_duration(ui.started.elapsed()),
        ui.rate()
    );
    if s.recovered.truncated_bytes > 0 {
        println!(
            "Recovered: dropped an incomplete last record ({} bytes); its game is played again",
            s.recovered.truncated_bytes
        );
    }
    let plies = &s.recovered_plies;
    if plies.truncated_bytes > 0 || plies.dropped > 0 {
        println!(
            "Recovered plies.csv: dropped {} rows of games not in games.csv and an incomplete last row of {} bytes",
            plies.dropped, plies.truncated_bytes
        );
    }
    if t.games > 0 {
        #[allow(clippy::cast_precision_loss)]
        let avg = t.plies as f64 / t.games as f64;
        println!(
            "White wins {}, draws {}, Black wins {}; average length {avg:.1} plies",
            t.white_wins, t.draws, t.black_wins
        );
        let reasons: Vec<String> = t.terminations.iter().map(|(k, v)| format!("{k} {v}")).collect();
        println!("Terminations: {}", reasons.join(", "));
    }
}

/// The error for a run that did not complete, naming how to complete it.
pub fn unfinished(args: &RunArgs, s: &Summary) -> Result<()> {
    match s.end {
        RunEnd::Complete | RunEnd::StoppedByHook => Ok(()),
        RunEnd::Interrupted => bail!(
            "interrupted with {} of {} games recorded in {}; run the same command{} to complete it",
            s.done,
            s.games,
            args.out.display(),
            if args.resume || args.shard.shard == crate::shard::ShardSpec::Auto { "" } else { " with --resume" }
        ),
    }
}
