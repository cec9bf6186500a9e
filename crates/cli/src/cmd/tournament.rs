//! `stackchess tournament`: three or more engines, round robin or gauntlet, then an Elo table
//! (`stackchess_selfplay::tournament`, docs/tournament.md). Running the command again with the same
//! flags resumes.

use crate::common::{note, Evaluation};
use crate::run_flags::{format_duration, limits_or_default, LimitArgs};
use anyhow::{bail, Context, Result};
use stackchess_core::{Position, Rules};
use stackchess_selfplay::spec;
use stackchess_selfplay::tournament::{pair_lines, Format, Tournament};
use stackchess_selfplay::{GameRecord, Progress};
use stackchess_variants::{VariantArg, WithPosition};
use std::io::Write as _;
use std::path::PathBuf;
use std::time::Instant;

/// Flags of `tournament`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// Variant: malka, traditional, fide, air-attack, or rules:FILE (a user-defined rule set).
    #[arg(long, short, default_value = "malka")]
    variant: VariantArg,
    /// An engine (three or more): `name=A[,param=KEY=VALUE]...[,params=FILE][,plain][,net=FILE|linear][,nodes=N][,depth=N][,movetime=MS][,hash=MB]`.
    #[arg(long = "engine", value_name = "SPEC", required = true)]
    engines: Vec<String>,
    /// Who plays whom: every pair (round-robin), or the first engine against each other (gauntlet).
    #[arg(long, value_enum, default_value_t = FormatArg::RoundRobin)]
    format: FormatArg,
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
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
enum FormatArg {
    /// Every pair of engines.
    RoundRobin,
    /// The first engine against each of the others.
    Gauntlet,
}

/// One bar over the whole tournament.
struct Ui(crate::progress::Progress);

impl Progress for Ui {
    fn begin(&mut self, _total: u64, done: u64) {
        self.0.inc(done);
        self.0.message("", false);
    }
    fn finished(&mut self, _rec: &GameRecord) -> bool {
        self.0.inc(1);
        self.0.message("", false);
        true
    }
}

struct Run<'a>(&'a Args);

impl WithPosition for Run<'_> {
    type Output = Result<()>;
    fn call<P: Position>(self, rules: P::Rules) -> Result<()> {
        let a = self.0;
        let defs = a.engines.iter().map(|t| spec::parse(t)).collect::<Result<Vec<_>, _>>()?;
        let shared = limits_or_default(&a.limits);
        let eval = Evaluation::preset(rules.name().parse()?)?;
        if let Some(text) = eval.borrowed() {
            note(&text);
        }
        let engines = defs
            .iter()
            .zip(&a.engines)
            .map(|(d, text)| {
                crate::engine_spec::engine_spec(d, rules.name(), a.variant.as_str(), shared, &eval)
                    .with_context(|| format!("--engine {text}"))
            })
            .collect::<Result<Vec<_>>>()?;
        let t = Tournament {
            format: match a.format {
                FormatArg::RoundRobin => Format::RoundRobin,
                FormatArg::Gauntlet => Format::Gauntlet,
            },
            engines,
            games_per_pair: a.games_per_pair,
            openings: crate::openings_flags::openings::<P>(rules, &a.openings, a.seed, a.games_per_pair / 2)?,
            seed: a.seed,
            threads: a.threads,
            max_plies: a.max_plies,
            anchor: a.anchor.clone(),
            prior_draws: a.prior_draws,
        };
        t.check()?;
        let started = Instant::now();
        let mut ui = Ui(crate::progress::Progress::new(t.games(), 0, "games", a.quiet));
        // SIGINT, SIGTERM and SIGHUP stop the pairing being played cleanly; the rest are not begun.
        let guard = crate::interrupt::run()?;
        let played = t.play::<P>(rules, &a.out, &crate::interrupt::STOP, &mut ui);
        ui.0.finish();
        drop(guard);
        let played = played?;
        if let Some((x, y)) = &played.interrupted {
            bail!(
                "interrupted during {x} vs {y}; run the same command again to resume the tournament in {}",
                a.out.display()
            );
        }
        let mut lines = vec![format!(
            "Tournament ({}) of {} engines in {}: {} games in {} pairings ({} played now in {})",
            t.format.name(),
            t.engines.len(),
            a.out.display(),
            played.total,
            played.pairs.len(),
            played.played,
            format_duration(started.elapsed())
        )];
        lines.extend(played.pairs.iter().flat_map(pair_lines));
        emit(&lines)?;
        let standings = t.standings(&a.out, rules.name(), &played)?;
        let mut lines = t.table_lines(&standings.ratings);
        lines.extend(t.engines.iter().map(|s| format!("{}: {}", s.label, s.describe())));
        emit(&lines)
    }
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

/// Runs the command.
pub fn run(a: &Args) -> Result<()> {
    a.variant.load()?.with(Run(a))
}
