//! `stackchess book build | probe | export | suite`.

mod export;
mod suite;

use anyhow::{bail, Context, Result};
use stackchess_book::{Added, Book, BookBuilder};
use stackchess_core::{coord, parse_move, san, Position, Rules};
use stackchess_selfplay::records::{read_games, Version, GAMES_CSV, MANIFEST};
use stackchess_selfplay::{GameRecord, Manifest, Openings};
use stackchess_variants::{Variant, VariantArg, WithPosition};
use std::io::Write as _;
use std::path::{Path, PathBuf};

/// Flags of `book`.
#[derive(clap::Args, Debug)]
pub struct Args {
    #[command(subcommand)]
    command: Command,
}

#[derive(clap::Subcommand, Debug)]
enum Command {
    /// Build a book from self-play records: (position, move) counts with the mover's W/D/L.
    Build(BuildArgs),
    /// List the book moves of a position: coordinate, SAN, games, W/D/L, score, weight.
    Probe(ProbeArgs),
    /// Write a fide book in PolyGlot's format, for other tools.
    Export(export::ExportArgs),
    /// Write an opening suite: N distinct positions of K plies, each scored within ±X centipawns.
    Suite(suite::SuiteArgs),
}

/// Flags of `book build`.
#[derive(clap::Args, Debug)]
struct BuildArgs {
    /// Variant of the book; records of other variants are skipped.
    #[arg(long, short)]
    variant: VariantArg,
    /// The book file to write (replaced atomically).
    #[arg(long)]
    out: PathBuf,
    /// Count the first K plies of each game.
    #[arg(long, default_value_t = 16, value_name = "K")]
    plies: u32,
    /// Keep a (position, move) only if at least N games went through it.
    #[arg(long, default_value_t = 1, value_name = "N")]
    min_games: u32,
    /// Also count games that start away from the start position (openings from a file, or random
    /// openings whose plies are not counted).
    #[arg(long)]
    any_start: bool,
    /// Do not count the opening plies of games (random or book openings). By default a game
    /// counts from the start position through its opening plies: version-2 records hold them
    /// (`opening_moves`); for version-1 records of `random:K` runs they are found again from the
    /// run's seed.
    #[arg(long)]
    no_random_plies: bool,
    /// Self-play directories (their games.csv) or games.csv files.
    #[arg(required = true, value_name = "INPUT")]
    inputs: Vec<PathBuf>,
}

/// Flags of `book probe`.
#[derive(clap::Args, Debug)]
struct ProbeArgs {
    /// The book file (its variant is read from it).
    file: PathBuf,
    /// The position as LFEN (FEN for fide); the start position if neither this nor --moves is given.
    #[arg(long, conflicts_with = "moves")]
    lfen: Option<String>,
    /// Moves from the start position, space-separated (coordinate notation or SAN).
    #[arg(long)]
    moves: Option<String>,
    /// The user-defined rule set of a book built for one (docs/rule-sets.md).
    #[arg(long, value_name = "FILE")]
    rules: Option<PathBuf>,
}

/// The openings of the run that `input` (a run directory, or a games.csv in one) holds, when the
/// moves that led to each game's start can be found again: start and `random:K` openings.
fn run_openings<P: Position>(rules: P::Rules, input: &Path) -> Option<Openings> {
    let dir = if input.is_dir() { input } else { input.parent()? };
    let spec = Manifest::read(&dir.join(MANIFEST)).ok()?.settings.openings;
    if spec == "start" || spec.starts_with("random:") {
        Openings::parse::<P>(rules, &spec).ok()
    } else {
        None
    }
}

/// A version-2 game from the start position through its recorded opening plies: (start LFEN,
/// moves); `None` when it has none (it starts at the start position, or its plies are not known).
fn from_recorded_start<P: Position>(rules: P::Rules, rec: &GameRecord) -> Option<(String, String)> {
    if rec.opening_moves.trim().is_empty() {
        return None;
    }
    let start = rules.startpos().to_lfen();
    let moves = rec.moves_from_start(&start)?.join(" ");
    Some((start, moves))
}

/// A version-1 game from the start position when its opening plies can be found again from the
/// run's seed: (start LFEN, moves); `None` to take the record as it is.
fn from_start<P: Position>(rules: P::Rules, openings: &Openings, rec: &GameRecord) -> Option<(String, String)> {
    let start = rules.from_lfen(&rec.start_lfen).ok()?;
    let plies = openings.opening_moves(rec.seed, rec.pair, &start)?;
    if plies.is_empty() {
        return None;
    }
    let mut moves: Vec<String> = plies.into_iter().map(coord::<P>).collect();
    moves.extend(rec.moves.split_whitespace().map(str::to_owned));
    Some((rules.startpos().to_lfen(), moves.join(" ")))
}

/// The file holding the records of `input`: a directory's games.csv, or the file itself.
fn records_file(input: &Path) -> PathBuf {
    if input.is_dir() {
        input.join(GAMES_CSV)
    } else {
        input.to_owned()
    }
}

struct Build<'a>(&'a BuildArgs);

impl WithPosition for Build<'_> {
    type Output = Result<()>;
    fn call<P: Position>(self, rules: P::Rules) -> Result<()> {
        let a = self.0;
        let mut builder = BookBuilder::<P>::new(rules, a.plies).any_start(a.any_start);
        let (mut other_variant, mut other_start, mut extended) = (0u64, 0u64, 0u64);
        for input in &a.inputs {
            let path = records_file(input);
            let read = read_games(&path).with_context(|| format!("reading records {}", path.display()))?;
            // Version 1 has no opening plies: find random ones again from the run's seed.
            let openings =
                if a.no_random_plies || read.version != Version::V1 { None } else { run_openings::<P>(rules, input) };
            for rec in &read.records {
                if rec.variant != rules.name() {
                    other_variant += 1;
                    continue;
                }
                if !rec.rules_id.is_empty() && rec.rules_id != rules.id() {
                    bail!(
                        "{}: game {} was played under other rules named '{}' (id {}, here {}): a book holds \
                         one rule set's games",
                        path.display(),
                        rec.game_id,
                        rec.variant,
                        rec.rules_id,
                        rules.id()
                    );
                }
                let whole = if a.no_random_plies {
                    None
                } else if read.version == Version::V1 {
                    openings.as_ref().and_then(|o| from_start::<P>(rules, o, rec))
                } else {
                    from_recorded_start::<P>(rules, rec)
                };
                extended += u64::from(whole.is_some());
                // Through its opening plies: the record read from the rule set's start position.
                let through;
                let game = match whole {
                    None => rec,
                    Some((start_lfen, moves)) => {
                        through = GameRecord { start_lfen, moves, ..rec.clone() };
                        &through
                    }
                };
                match builder.add(game).with_context(|| format!("in {}", path.display()))? {
                    Added::Used => {}
                    Added::OtherStart => other_start += 1,
                }
            }
        }
        let used = builder.games();
        println!(
            "Games used: {used}, {extended} of them from the start position through their opening plies \
             (skipped: {other_variant} of other variants, {other_start} from other start positions)"
        );
        if used == 0 {
            let hint = if other_start > 0 { "; pass --any-start to count games from other positions" } else { "" };
            bail!("no {} games to build a book from{hint}", rules.name());
        }
        let book = builder.finish(a.min_games);
        book.write(&a.out)?;
        println!(
            "Book {} ({}): {} positions, {} entries (first {} plies, at least {} games each)",
            a.out.display(),
            rules.name(),
            book.positions(),
            book.entries().len(),
            a.plies,
            a.min_games
        );
        Ok(())
    }
}

struct Probe<'a>(&'a ProbeArgs);

impl WithPosition for Probe<'_> {
    type Output = Result<()>;
    fn call<P: Position>(self, rules: P::Rules) -> Result<()> {
        let a = self.0;
        let book = Book::<P>::read(rules, &a.file)?;
        let what = || format!("for the {} book {}", rules.name(), a.file.display());
        let pos = match (&a.lfen, &a.moves) {
            (Some(lfen), _) => rules.from_lfen(lfen).with_context(|| format!("reading --lfen {}", what()))?,
            (None, moves) => {
                let mut pos = rules.startpos();
                for text in moves.as_deref().unwrap_or("").split_whitespace() {
                    let m = parse_move(&pos, text).with_context(|| format!("reading --moves {}", what()))?;
                    pos.play_unchecked(m);
                }
                pos
            }
        };
        let moves = book.probe(&pos);
        let mut out = std::io::stdout().lock();
        if moves.is_empty() {
            writeln!(out, "No book moves in {} for {}", a.file.display(), pos.to_lfen())?;
            return Ok(());
        }
        writeln!(
            out,
            "{:<8} {:<8} {:>7} {:>7} {:>7} {:>7} {:>7} {:>7}",
            "move", "san", "games", "wins", "draws", "losses", "score", "weight"
        )?;
        for b in moves {
            writeln!(
                out,
                "{:<8} {:<8} {:>7} {:>7} {:>7} {:>7} {:>6.1}% {:>7}",
                coord::<P>(b.mv),
                san(&pos, b.mv),
                b.games,
                b.wins,
                b.draws,
                b.losses,
                b.score * 100.0,
                b.weight
            )?;
        }
        Ok(())
    }
}

/// Runs the command.
pub fn run(a: &Args) -> Result<()> {
    match &a.command {
        Command::Build(b) => b.variant.load()?.with(Build(b)),
        Command::Probe(p) => {
            if let Some(rules) = &p.rules {
                Variant::load_rules(rules)?;
            }
            let header = stackchess_book::read_header(&p.file)?;
            let variant: Variant = header.variant.parse().with_context(|| {
                format!(
                    "{}: the book's variant is unknown (a user-defined rule set needs --rules FILE)",
                    p.file.display()
                )
            })?;
            variant.with(Probe(p))
        }
        Command::Export(e) => export::run(e),
        Command::Suite(s) => suite::run(s),
    }
}
