//! `stackchess engine`: UCI on stdin/stdout, with extensions for stacked boards (LFEN positions,
//! the `Variant` option, `d`, `eval`). Commands, options and examples: docs/engine-protocol.md.
//!
//! Three threads: a reader queues stdin's lines (and sets the running search's `stop` and
//! `ponderhit` flags the moment it reads them); the main thread executes the queue in order; a
//! search thread runs each `go` and prints its `info` lines and `bestmove`. So every answer comes
//! in command order (`readyok` after the output of everything sent before `isready`), and
//! `isready`, `stop` and `ponderhit` are still answered while a search runs.

use crate::common::EngineArgs;
use anyhow::{anyhow, bail, Result};
use stackchess_core::{coord, parse_move, Color, Game, Move, Position, Rules};
use stackchess_search::uci::{self, Command};
use stackchess_search::{Clock, Engine, Limits, Report, Request, SearchConfig};
use stackchess_variants::{Variant, VariantArg, WithPosition};
use std::io::{BufRead, Write};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{mpsc, Arc};
use std::thread::JoinHandle;
use std::time::Duration;

/// Flags of `engine` (the initial option values).
#[derive(clap::Args, Debug)]
pub struct Args {
    /// Initial variant (the `Variant` option): malka, traditional, fide, air-attack, or rules:FILE.
    #[arg(long, short, default_value = "malka")]
    variant: VariantArg,
    #[command(flatten)]
    engine: EngineArgs,
}

/// Most search threads and lines the options accept.
const MAX_THREADS: usize = 256;
const MAX_MULTIPV: usize = 256;
/// Most `Move Overhead` (ms).
const MAX_OVERHEAD: u64 = 5_000;

/// Writes lines to stdout as one block, flushed (the search thread and the main thread share it).
fn emit(text: &str) -> std::io::Result<()> {
    let mut out = std::io::stdout().lock();
    out.write_all(text.as_bytes())?;
    out.flush()
}

/// The flags of one `go`, shared with the reader thread (which sets them on `stop`, `quit` and
/// `ponderhit`) and the search.
#[derive(Default)]
struct Flags {
    stop: AtomicBool,
    /// Set by `go ponder`, cleared by `ponderhit`.
    pondering: AtomicBool,
}

/// What the reader thread hands over.
enum Input {
    /// A line, with the flags of its search if it is a `go`.
    Line(String, Option<Arc<Flags>>),
    /// End of input.
    Eof,
}

/// Reads stdin, queues each line, and applies `stop`, `quit` and `ponderhit` to the latest `go`
/// read at once (a `go` still in the queue then starts stopped, as its order says).
fn read_commands(tx: &mpsc::Sender<Input>) {
    let mut latest: Option<Arc<Flags>> = None;
    let mut input = std::io::stdin().lock();
    let mut bytes = Vec::new();
    loop {
        // A line that is not UTF-8 is read as text with its bad bytes replaced (an unknown
        // command, answered as one), not taken for the end of input.
        bytes.clear();
        if !matches!(input.read_until(b'\n', &mut bytes), Ok(n) if n > 0) {
            break;
        }
        let line = String::from_utf8_lossy(&bytes).trim_end_matches(['\n', '\r']).to_owned();
        let mut words = line.split_whitespace();
        let first = words.next();
        let mut flags = None;
        match first {
            Some("go") => {
                let f = Arc::new(Flags::default());
                f.pondering.store(words.any(|w| w == "ponder"), Ordering::SeqCst);
                latest = Some(Arc::clone(&f));
                flags = Some(f);
            }
            Some("stop" | "quit") => latest.iter().for_each(|f| f.stop.store(true, Ordering::SeqCst)),
            Some("ponderhit") => latest.iter().for_each(|f| f.pondering.store(false, Ordering::SeqCst)),
            _ => {}
        }
        if tx.send(Input::Line(line.clone(), flags)).is_err() || first == Some("quit") {
            return;
        }
    }
    let _ = tx.send(Input::Eof);
}

/// A `go` for the current position.
struct Go {
    limits: Limits,
    searchmoves: Vec<Move>,
    multipv: usize,
    /// `go infinite`: `bestmove` only after `stop`.
    infinite: bool,
    flags: Arc<Flags>,
}

/// What the protocol needs from an engine of any variant.
trait Session: Send {
    fn new_game(&mut self);
    /// `position`: the start (`None`: the start position) and the moves played from it.
    fn set_position(&mut self, lfen: Option<&str>, moves: &[String]) -> Result<()>;
    /// Moves of the current position (`searchmoves`); `0000` (python-chess's filler) is skipped.
    fn parse_moves(&self, words: &[String]) -> Result<Vec<Move>>;
    /// Searches, printing `info` lines and then `bestmove` (after `stop` for `go infinite`, and
    /// after `ponderhit` or `stop` while pondering).
    fn go(&mut self, go: &Go);
    fn show(&self) -> String;
    fn eval(&self) -> i32;
    fn turn(&self) -> Color;
    fn set_threads(&mut self, n: usize);
}

struct Sess<P: Position> {
    rules: P::Rules,
    engine: Engine<P>,
    game: Game<P>,
}

/// The `info` line of one PV line of an iteration.
fn info_line<P: Position>(k: usize, r: &Report) -> String {
    let pv: Vec<String> = r.pv.iter().map(|&m| coord::<P>(m)).collect();
    format!(
        "info depth {} seldepth {} multipv {k} score {} nodes {} nps {} time {} pv {}\n",
        r.depth,
        r.seldepth,
        r.score,
        r.nodes,
        r.nps(),
        r.elapsed.as_millis(),
        pv.join(" ")
    )
}

impl<P: Position> Session for Sess<P> {
    fn new_game(&mut self) {
        self.engine.new_game();
    }

    fn set_position(&mut self, lfen: Option<&str>, moves: &[String]) -> Result<()> {
        let start = match lfen {
            None => self.rules.startpos(),
            Some(text) => self.rules.from_lfen(text)?,
        };
        let mut game = Game::new(start);
        for (i, text) in moves.iter().enumerate() {
            let m =
                parse_move(game.position(), text).map_err(|e| anyhow!("move {} ('{text}'): {}", i + 1, e.reason))?;
            game.play(m)?;
        }
        self.game = game;
        Ok(())
    }

    fn parse_moves(&self, words: &[String]) -> Result<Vec<Move>> {
        let pos = self.game.position();
        words
            .iter()
            .filter(|w| *w != "0000")
            .map(|w| parse_move(pos, w).map_err(|e| anyhow!("searchmoves: '{w}': {}", e.reason)))
            .collect()
    }

    fn go(&mut self, go: &Go) {
        let pos = self.game.position().clone();
        let hashes = self.game.hashes();
        let history = &hashes[..hashes.len() - 1];
        let flags = &go.flags;
        let request = Request {
            limits: go.limits,
            searchmoves: &go.searchmoves,
            multipv: go.multipv,
            stop: &flags.stop,
            pondering: Some(&flags.pondering),
        };
        let r = self.engine.analyse(&pos, history, &request, &mut |lines| {
            let text: String = lines.iter().enumerate().map(|(k, r)| info_line::<P>(k + 1, r)).collect();
            let _ = emit(&text);
        });
        // UCI: no `bestmove` before `stop` in infinite mode, nor while pondering.
        while !flags.stop.load(Ordering::SeqCst) && (go.infinite || flags.pondering.load(Ordering::SeqCst)) {
            std::thread::sleep(Duration::from_millis(1));
        }
        let line = match r.pv.as_slice() {
            [] => "bestmove (none)\n".to_owned(),
            [m] => format!("bestmove {}\n", coord::<P>(*m)),
            [m, reply, ..] => format!("bestmove {} ponder {}\n", coord::<P>(*m), coord::<P>(*reply)),
        };
        let _ = emit(&line);
    }

    fn show(&self) -> String {
        stackchess_core::diagram(self.game.position())
    }

    fn eval(&self) -> i32 {
        self.engine.evaluate(self.game.position())
    }

    fn turn(&self) -> Color {
        self.game.position().turn()
    }

    fn set_threads(&mut self, n: usize) {
        self.engine.set_threads(n);
    }
}

struct Build(SearchConfig);

impl WithPosition for Build {
    type Output = Box<dyn Session>;
    fn call<P: Position>(self, rules: P::Rules) -> Box<dyn Session> {
        Box::new(Sess::<P> { rules, engine: Engine::new(rules, self.0), game: Game::new(rules.startpos()) })
    }
}

/// Option values. Changing one that decides the engine (variant, table, parameters) rebuilds the
/// session; threads, lines, overhead and ponder apply as they are.
#[derive(Clone)]
struct Options {
    variant: Variant,
    engine: EngineArgs,
    threads: usize,
    multipv: usize,
    overhead: Duration,
}

/// Whether a changed option needs a new session.
#[derive(PartialEq, Eq)]
enum Change {
    Rebuild,
    Threads,
    Other,
}

/// A number within `min..=max`, or an error naming the option.
fn spin(name: &str, value: &str, min: u64, max: u64) -> Result<u64> {
    value
        .parse::<u64>()
        .ok()
        .filter(|v| (min..=max).contains(v))
        .ok_or_else(|| anyhow!("{name}: '{value}' is not a number from {min} to {max}"))
}

impl Options {
    fn build(&self) -> Result<Box<dyn Session>> {
        let mut s = self.variant.with(Build(self.engine.config(self.variant.name())?));
        s.set_threads(self.threads);
        Ok(s)
    }

    fn set(&mut self, name: &str, value: &str) -> Result<Change> {
        match name.to_ascii_lowercase().as_str() {
            "variant" => self.variant = value.parse()?,
            "hash" => self.engine.hash = Some(usize::try_from(spin("Hash", value, 0, 65_536)?)?),
            "plain" => self.engine.plain = value.eq_ignore_ascii_case("true"),
            "param" => {
                // Check it before keeping it.
                SearchConfig::default().set_pair(value)?;
                self.engine.param.push(value.to_owned());
            }
            "params" => self.engine.params = if value.is_empty() { None } else { Some(value.into()) },
            "evalfile" => {
                let eval =
                    if value.is_empty() || value == "<empty>" { "default".to_owned() } else { format!("net:{value}") };
                // Checked against the rule set before it is kept.
                crate::common::net_of(&eval, self.variant.name())?;
                self.engine.eval = eval;
            }
            "clear params" => {
                self.engine.param.clear();
                self.engine.params = None;
            }
            "threads" => {
                self.threads = usize::try_from(spin("Threads", value, 1, MAX_THREADS as u64)?)?;
                return Ok(Change::Threads);
            }
            "multipv" => {
                self.multipv = usize::try_from(spin("MultiPV", value, 1, MAX_MULTIPV as u64)?)?;
                return Ok(Change::Other);
            }
            "move overhead" => {
                self.overhead = Duration::from_millis(spin("Move Overhead", value, 0, MAX_OVERHEAD)?);
                return Ok(Change::Other);
            }
            // The engine ponders whenever the client sends `go ponder`; the option only tells
            // clients that it may.
            "ponder" => return Ok(Change::Other),
            _ => bail!("unknown option '{name}'"),
        }
        Ok(Change::Rebuild)
    }

    /// The `uci` answer.
    fn describe(&self) -> String {
        let names: Vec<String> = Variant::ALL.iter().map(|v| format!("var {}", v.name())).collect();
        let hash = self.engine.config(self.variant.name()).map_or(16, |c| c.hash_mb);
        [
            format!("id name stackchess {}", env!("CARGO_PKG_VERSION")),
            "id author stackchess developers".to_owned(),
            format!("option name Variant type combo default {} {}", self.variant.name(), names.join(" ")),
            format!("option name Hash type spin default {hash} min 0 max 65536"),
            format!("option name Threads type spin default 1 min 1 max {MAX_THREADS}"),
            format!("option name MultiPV type spin default 1 min 1 max {MAX_MULTIPV}"),
            "option name Ponder type check default false".to_owned(),
            format!(
                "option name Move Overhead type spin default {} min 0 max {MAX_OVERHEAD}",
                Clock::MARGIN.as_millis()
            ),
            "option name Plain type check default false".to_owned(),
            "option name Param type string default <empty>".to_owned(),
            "option name Params type string default <empty>".to_owned(),
            "option name Clear Params type button".to_owned(),
            "option name EvalFile type string default <empty>".to_owned(),
            "uciok".to_owned(),
        ]
        .join("\n")
            + "\n"
    }
}

/// A `go`'s arguments for the session's position.
fn go_of(args: &uci::Go, session: &dyn Session, opts: &Options, flags: Arc<Flags>) -> Result<Go> {
    Ok(Go {
        limits: args.limits(session.turn(), opts.overhead),
        searchmoves: session.parse_moves(&args.searchmoves)?,
        multipv: opts.multipv,
        infinite: args.infinite,
        flags,
    })
}

/// Sets an option; on an error (a bad value, a parameter file that cannot be read) the options
/// and the session stay as they were.
/// Its error carries no `std::io::Error` (a parameter file that cannot be read is the client's
/// error, not a broken output stream, which alone ends the engine).
fn set_option(opts: &mut Options, session: &mut Box<dyn Session>, name: &str, value: &str) -> Result<()> {
    set_option_inner(opts, session, name, value).map_err(|e| anyhow::anyhow!("{e:#}"))
}

fn set_option_inner(opts: &mut Options, session: &mut Box<dyn Session>, name: &str, value: &str) -> Result<()> {
    let mut next = opts.clone();
    match next.set(name, value)? {
        Change::Rebuild => *session = next.build()?,
        Change::Threads => session.set_threads(next.threads),
        Change::Other => {}
    }
    *opts = next;
    Ok(())
}

/// A search running on its own thread, which owns the session until it ends.
struct Running {
    handle: JoinHandle<Box<dyn Session>>,
    flags: Arc<Flags>,
    infinite: bool,
}

impl Running {
    /// Waits for the search to end and takes the session back. A search that would wait forever
    /// (infinite, or pondering) is stopped first.
    fn finish(self) -> Result<Box<dyn Session>> {
        if self.infinite || self.flags.pondering.load(Ordering::SeqCst) {
            self.flags.stop.store(true, Ordering::SeqCst);
        }
        self.handle.join().map_err(|_| anyhow!("the search thread failed"))
    }
}

/// The session, after the running search (if any) has ended and given it back.
fn idle<'a>(
    session: &'a mut Option<Box<dyn Session>>,
    running: &mut Option<Running>,
) -> Result<&'a mut Box<dyn Session>> {
    if let Some(r) = running.take() {
        *session = Some(r.finish()?);
    }
    session.as_mut().ok_or_else(|| anyhow!("the engine lost its session"))
}

/// Runs the command.
pub fn run(a: &Args) -> Result<()> {
    let (tx, rx) = mpsc::channel::<Input>();
    std::thread::spawn(move || read_commands(&tx));
    let mut opts = Options {
        variant: a.variant.load()?,
        engine: a.engine.clone(),
        threads: 1,
        multipv: 1,
        overhead: Clock::MARGIN,
    };
    let mut session = Some(opts.build()?);
    let mut running: Option<Running> = None;
    for input in rx {
        let (line, flags) = match input {
            Input::Line(line, flags) => (line, flags),
            Input::Eof => break,
        };
        let command = Command::parse(&line);
        // Answered at once, even while a search runs (the reader has already set the flags of
        // `stop` and `ponderhit`).
        match &command {
            Ok(Command::Empty | Command::Stop | Command::PonderHit | Command::Debug) => continue,
            Ok(Command::IsReady) => {
                emit("readyok\n")?;
                continue;
            }
            Ok(Command::Quit) => break,
            Ok(Command::Unknown(line)) => {
                emit(&format!("info string unknown command: {line}\n"))?;
                continue;
            }
            _ => {}
        }
        // The rest waits for the running search to end.
        let s = idle(&mut session, &mut running)?;
        let result: Result<()> = match command {
            Ok(Command::Uci) => emit(&opts.describe()).map_err(Into::into),
            Ok(Command::NewGame) => {
                s.new_game();
                Ok(())
            }
            Ok(Command::SetOption { name, value }) => set_option(&mut opts, s, &name, &value),
            Ok(Command::Position { lfen, moves }) => s.set_position(lfen.as_deref(), &moves),
            Ok(Command::Go(args)) => {
                let flags = flags.unwrap_or_default();
                match go_of(&args, s.as_ref(), &opts, Arc::clone(&flags)) {
                    Ok(go) => {
                        let infinite = go.infinite;
                        if let Some(mut s) = session.take() {
                            let handle = std::thread::spawn(move || {
                                s.go(&go);
                                s
                            });
                            running = Some(Running { handle, flags, infinite });
                        }
                        Ok(())
                    }
                    // A client waits for `bestmove`: it gets one, with the reason before it.
                    Err(e) => emit(&format!("info string error: {e:#}\nbestmove (none)\n")).map_err(Into::into),
                }
            }
            Ok(Command::Show) => emit(&format!("{}\n", s.show().trim_end())).map_err(Into::into),
            Ok(Command::Eval) => emit(&format!("info string eval cp {}\n", s.eval())).map_err(Into::into),
            // A `go` that cannot be read still gets its `bestmove`.
            Err(e) if line.split_whitespace().next() == Some("go") => {
                emit(&format!("info string error: {e}\nbestmove (none)\n")).map_err(Into::into)
            }
            Err(e) => Err(e.into()),
            Ok(_) => Ok(()),
        };
        if let Err(e) = result {
            if e.chain().any(|c| c.downcast_ref::<std::io::Error>().is_some()) {
                return Err(e);
            }
            emit(&format!("info string error: {e:#}\n"))?;
        }
    }
    // End of input lets a limited search finish; `quit` has already stopped it.
    if let Some(r) = running {
        r.finish()?;
    }
    Ok(())
}
