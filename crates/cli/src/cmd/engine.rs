//! `stackchess engine`: a line protocol on stdin/stdout in the spirit of UCI, so tools and GUIs can
//! drive the engine. Full description with examples: docs/engine-protocol.md.
//!
//! Commands (one per line; unknown ones are answered with `info string`):
//! - `uci` → `id name …`, `id author …`, one `option …` line per option, `uciok`.
//! - `isready` → `readyok` (answered at once, even during a search).
//! - `setoption name <Variant|Hash|Plain|Param|Params|Clear Params> [value <v>]`: `Variant` is
//!   malka, traditional, fide or air-attack; `Hash` in MiB; `Plain` true/false; `Param` one
//!   `key=value` evaluation override (accumulates); `Params` a parameter file; `Clear Params` drops
//!   the overrides. Changing any of them resets the position to the start.
//! - `ucinewgame`: clears the hash table, killers and history.
//! - `position startpos|lfen <LFEN>|fen <FEN> [moves <m1> <m2> …]`: moves in coordinate notation
//!   (SAN also accepted).
//! - `go [depth N] [nodes N] [movetime MS] [infinite] [wtime MS btime MS winc MS binc MS movestogo N]`:
//!   prints `info depth … seldepth … score cp X|mate N nodes … nps … time … pv <coordinate moves>`
//!   after each iteration, then `bestmove <move>` (`bestmove (none)` without a legal move).
//! - `stop`: ends the search at once (it still prints `bestmove`). `quit`: stops and exits.
//! - `d`: the position as LFEN and a diagram; `eval`: the static evaluation.
//!
//! A thread reads stdin, so `stop`, `quit` and `isready` are seen while `go` runs.

use crate::common::EngineArgs;
use anyhow::{anyhow, bail, Result};
use stackchess_core::{coord, parse_move, Game, Position, Rules};
use stackchess_search::{Engine, Limits, SearchConfig};
use stackchess_variants::{Variant, VariantArg, WithPosition};
use std::io::{BufRead, Write};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{mpsc, Arc};
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

/// What the protocol needs from an engine of any variant.
trait Session {
    fn new_game(&mut self);
    fn set_position(&mut self, args: &[&str]) -> Result<()>;
    fn go(&mut self, limits: &Limits, stop: &AtomicBool, out: &mut dyn Write) -> Result<()>;
    fn show(&self) -> String;
    fn eval(&self) -> i32;
    fn white_to_move(&self) -> bool;
}

struct Sess<P: Position> {
    rules: P::Rules,
    engine: Engine<P>,
    game: Game<P>,
}

impl<P: Position> Session for Sess<P> {
    fn new_game(&mut self) {
        self.engine.new_game();
    }

    fn set_position(&mut self, args: &[&str]) -> Result<()> {
        let split = args.iter().position(|w| *w == "moves").unwrap_or(args.len());
        let (head, moves) = (&args[..split], args.get(split + 1..).unwrap_or(&[]));
        let start = match head {
            ["startpos"] => self.rules.startpos(),
            [kind, fields @ ..] if (*kind == "lfen" || *kind == "fen") && !fields.is_empty() => {
                self.rules.from_lfen(&fields.join(" "))?
            }
            _ => bail!("expected 'position startpos|lfen <LFEN>|fen <FEN> [moves ...]'"),
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

    fn go(&mut self, limits: &Limits, stop: &AtomicBool, out: &mut dyn Write) -> Result<()> {
        let pos = self.game.position().clone();
        let hashes = self.game.hashes();
        let history = &hashes[..hashes.len() - 1];
        let r = self.engine.search(&pos, history, limits, stop, &mut |r| {
            let pv: Vec<String> = r.pv.iter().map(|&m| coord::<P>(m)).collect();
            let _ = writeln!(
                out,
                "info depth {} seldepth {} score {} nodes {} nps {} time {} pv {}",
                r.depth,
                r.seldepth,
                r.score,
                r.nodes,
                r.nps(),
                r.elapsed.as_millis(),
                pv.join(" ")
            );
            let _ = out.flush();
        });
        match r.best_move() {
            Some(m) => writeln!(out, "bestmove {}", coord::<P>(m))?,
            None => writeln!(out, "bestmove (none)")?,
        }
        out.flush()?;
        Ok(())
    }

    fn show(&self) -> String {
        super::show::draw(self.game.position())
    }

    fn eval(&self) -> i32 {
        self.engine.evaluate(self.game.position())
    }

    fn white_to_move(&self) -> bool {
        self.game.position().turn() == stackchess_core::Color::White
    }
}

struct Build(SearchConfig);

impl WithPosition for Build {
    type Output = Box<dyn Session>;
    fn call<P: Position>(self, rules: P::Rules) -> Box<dyn Session> {
        Box::new(Sess::<P> { rules, engine: Engine::new(rules, self.0), game: Game::new(rules.startpos()) })
    }
}

/// Option values; the session is rebuilt when they change.
struct Options {
    variant: Variant,
    engine: EngineArgs,
}

impl Options {
    fn build(&self) -> Result<Box<dyn Session>> {
        Ok(self.variant.with(Build(self.engine.config(self.variant.name())?)))
    }

    fn set(&mut self, name: &str, value: &str) -> Result<()> {
        match name.to_ascii_lowercase().as_str() {
            "variant" => self.variant = value.parse()?,
            "hash" => self.engine.hash = Some(value.parse().map_err(|_| anyhow!("Hash: '{value}' is not a number"))?),
            "plain" => self.engine.plain = value.eq_ignore_ascii_case("true"),
            "param" => {
                // Check it before keeping it.
                SearchConfig::default().set_pair(value)?;
                self.engine.param.push(value.to_owned());
            }
            "params" => self.engine.params = if value.is_empty() { None } else { Some(value.into()) },
            "clear params" => {
                self.engine.param.clear();
                self.engine.params = None;
            }
            _ => bail!("unknown option '{name}'"),
        }
        Ok(())
    }
}

/// Reads `go` arguments.
fn parse_go(args: &[&str], white: bool) -> Result<Limits> {
    let mut l = Limits::default();
    let (mut time, mut inc, mut togo) = (None, 0u64, 30u64);
    let mut it = args.iter();
    while let Some(&w) = it.next() {
        let mut num = || -> Result<u64> {
            let v = it.next().ok_or_else(|| anyhow!("'{w}' needs a number"))?;
            v.parse().map_err(|_| anyhow!("'{w}': '{v}' is not a number"))
        };
        match w {
            "depth" => l.depth = Some(u32::try_from(num()?)?),
            "nodes" => l.nodes = Some(num()?),
            "movetime" => l.movetime = Some(Duration::from_millis(num()?)),
            "wtime" | "btime" => {
                let t = num()?;
                if (w == "wtime") == white {
                    time = Some(t);
                }
            }
            "winc" | "binc" => {
                let t = num()?;
                if (w == "winc") == white {
                    inc = t;
                }
            }
            "movestogo" => togo = num()?.max(1),
            "infinite" => {}
            _ => bail!("unknown go argument '{w}'"),
        }
    }
    if let (Some(t), None) = (time, l.movetime) {
        // A share of the remaining time, never more than half of it, with a margin for overhead.
        let share = (t / togo + inc * 3 / 4).min(t / 2).saturating_sub(20).max(1);
        l.movetime = Some(Duration::from_millis(share));
    }
    Ok(l)
}

/// Runs the command.
pub fn run(a: &Args) -> Result<()> {
    let stop = Arc::new(AtomicBool::new(false));
    let (tx, rx) = mpsc::channel::<String>();
    {
        let stop = Arc::clone(&stop);
        std::thread::spawn(move || {
            for line in std::io::stdin().lock().lines() {
                let Ok(line) = line else { break };
                match line.trim() {
                    "stop" | "quit" => stop.store(true, Ordering::SeqCst),
                    "isready" => {
                        let mut o = std::io::stdout().lock();
                        let _ = writeln!(o, "readyok");
                        let _ = o.flush();
                        continue;
                    }
                    _ => {}
                }
                if tx.send(line).is_err() {
                    break;
                }
            }
            let _ = tx.send("quit".to_owned());
        });
    }
    let mut opts = Options { variant: a.variant.load()?, engine: a.engine.clone() };
    let mut session = opts.build()?;
    // Unlocked: each line takes the lock, so the reader thread can answer `isready` during `go`.
    let mut out = std::io::stdout();
    for line in rx {
        let words: Vec<&str> = line.split_whitespace().collect();
        let result: Result<()> = match words.as_slice() {
            [] => Ok(()),
            ["uci"] => {
                let names: Vec<String> = Variant::ALL.iter().map(|v| format!("var {}", v.name())).collect();
                writeln!(out, "id name stackchess {}", env!("CARGO_PKG_VERSION"))?;
                writeln!(out, "id author the stackchess authors")?;
                writeln!(out, "option name Variant type combo default {} {}", opts.variant.name(), names.join(" "))?;
                writeln!(out, "option name Hash type spin default 16 min 0 max 65536")?;
                writeln!(out, "option name Plain type check default false")?;
                writeln!(out, "option name Param type string default <empty>")?;
                writeln!(out, "option name Params type string default <empty>")?;
                writeln!(out, "option name Clear Params type button")?;
                writeln!(out, "uciok")?;
                Ok(())
            }
            ["stop"] => {
                stop.store(false, Ordering::SeqCst);
                Ok(())
            }
            ["quit"] => break,
            ["ucinewgame"] => {
                session.new_game();
                Ok(())
            }
            ["setoption", "name", rest @ ..] => {
                let at = rest.iter().position(|w| *w == "value").unwrap_or(rest.len());
                let name = rest[..at].join(" ");
                let value = rest.get(at + 1..).map(|v| v.join(" ")).unwrap_or_default();
                opts.set(&name, &value).and_then(|()| {
                    session = opts.build()?;
                    Ok(())
                })
            }
            ["position", rest @ ..] => session.set_position(rest),
            ["go", rest @ ..] => parse_go(rest, session.white_to_move()).and_then(|l| session.go(&l, &stop, &mut out)),
            ["d"] => writeln!(out, "{}", session.show().trim_end()).map_err(Into::into),
            ["eval"] => writeln!(out, "info string eval cp {}", session.eval()).map_err(Into::into),
            _ => writeln!(out, "info string unknown command: {line}").map_err(Into::into),
        };
        if let Err(e) = result {
            writeln!(out, "info string error: {e:#}")?;
        }
        out.flush()?;
    }
    Ok(())
}
