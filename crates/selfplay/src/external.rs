//! An engine in another process, driven over UCI as cutechess-cli drives one.
//!
//! The process is started with its command and arguments, its stdout read line by line on a
//! thread of its own. Handshake: `uci` … `uciok` (the options it names are noted),
//! `setoption name <X> value <V>` for each option given (and `Variant` set to the run's rule set
//! when the engine offers that option, as `stackchess engine` does), `isready` … `readyok`. Each
//! game: `ucinewgame`, `isready` … `readyok`; each move: `position startpos|fen <LFEN> [moves ...]`
//! and `go` with the clocks (`wtime btime winc binc movestogo`) and the limits (`nodes`, `depth`,
//! `movetime`), then `info` lines until `bestmove`.
//!
//! An engine that exits (or closes its output), sends no `bestmove` in time, or answers with a
//! move that is not legal fails its move ([`Failure`]); the process is then ended, and started
//! afresh for the next game.

use crate::turn::{Failure, Thought};
use stackchess_core::{parse_coord, Position};
use stackchess_search::Score;
use std::io::{BufRead, BufReader, Read, Write};
use std::path::PathBuf;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

/// How to start and set up an external engine.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct ExternalSpec {
    /// The program.
    pub cmd: PathBuf,
    /// Its arguments.
    pub args: Vec<String>,
    /// UCI options set after the handshake, in order: `(name, value)`.
    pub options: Vec<(String, String)>,
    /// The value of the engine's `Variant` option, when it has one and `options` does not set it
    /// (the run's rule set, as `--variant` names it).
    pub variant: Option<String>,
}

impl ExternalSpec {
    /// `cmd=PATH arg=X option.Name=V`, for the run's settings.
    #[must_use]
    pub fn describe(&self) -> String {
        let mut parts = vec![format!("cmd={}", self.cmd.display())];
        parts.extend(self.args.iter().map(|a| format!("arg={a}")));
        parts.extend(self.options.iter().map(|(k, v)| format!("option.{k}={v}")));
        parts.join(" ")
    }
}

/// Wait at most this long after `stop` for a `bestmove` (a search past its clock).
pub const STOP_GRACE: Duration = Duration::from_secs(1);

/// Lines read ahead of the game loop.
const LINES_QUEUED: usize = 1024;
/// The longest line kept; the rest of a longer one is dropped.
const MAX_LINE: usize = 64 * 1024;

/// The next line of the engine's output (bytes that are not UTF-8 replaced, a line longer than
/// [`MAX_LINE`] cut there), or `None` at the end of its output.
fn read_line(out: &mut impl BufRead) -> Option<String> {
    let mut buf = Vec::new();
    let n = out.by_ref().take(MAX_LINE as u64).read_until(b'\n', &mut buf).ok()?;
    if n == 0 {
        return None;
    }
    if buf.last() != Some(&b'\n') && n == MAX_LINE {
        // Skip to the end of the overlong line.
        let mut rest = Vec::new();
        loop {
            rest.clear();
            match out.by_ref().take(MAX_LINE as u64).read_until(b'\n', &mut rest) {
                Ok(0) | Err(_) => break,
                Ok(_) if rest.last() == Some(&b'\n') => break,
                Ok(_) => {}
            }
        }
    }
    let text = String::from_utf8_lossy(&buf);
    Some(text.trim_end_matches(['\n', '\r']).to_owned())
}

/// A running process.
struct Process {
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
    /// Options the engine named in its `uci` answer.
    offered: Vec<String>,
}

/// What waiting for a line found.
enum Wait {
    Line(String),
    Timeout,
    Closed,
}

impl Process {
    fn send(&mut self, line: &str) -> Result<(), Failure> {
        writeln!(self.stdin, "{line}")
            .and_then(|()| self.stdin.flush())
            .map_err(|e| Failure::Crashed(format!("writing '{line}': {e}")))
    }

    fn wait(&self, until: Instant) -> Wait {
        // Checked first: an engine that floods lines must not keep a deadline from passing.
        let now = Instant::now();
        if now >= until {
            return Wait::Timeout;
        }
        match self.lines.recv_timeout(until - now) {
            Ok(line) => Wait::Line(line),
            Err(RecvTimeoutError::Timeout) => Wait::Timeout,
            Err(RecvTimeoutError::Disconnected) => Wait::Closed,
        }
    }

    /// Reads lines until one whose first word is `word`, for at most `limit`.
    fn expect(&mut self, word: &str, limit: Duration, mut each: impl FnMut(&str)) -> Result<(), Failure> {
        let until = Instant::now() + limit;
        loop {
            match self.wait(until) {
                Wait::Line(line) if line.split_whitespace().next() == Some(word) => return Ok(()),
                Wait::Line(line) => each(&line),
                Wait::Timeout => return Err(Failure::Stalled(format!("no '{word}' within {} ms", limit.as_millis()))),
                Wait::Closed => return Err(Failure::Crashed(self.exit_status(&format!("before '{word}'")))),
            }
        }
    }

    fn exit_status(&mut self, when: &str) -> String {
        // The pipe closed: the process is gone or going; give it a moment to say how it ended.
        let until = Instant::now() + Duration::from_millis(200);
        while Instant::now() < until {
            if let Ok(Some(status)) = self.child.try_wait() {
                return format!("exited {when} ({status})");
            }
            std::thread::sleep(Duration::from_millis(5));
        }
        format!("closed its output {when}")
    }

    /// Ends the process: `quit`, a short wait, then a kill.
    fn end(mut self) {
        let _ = writeln!(self.stdin, "quit").and_then(|()| self.stdin.flush());
        let until = Instant::now() + Duration::from_millis(300);
        while Instant::now() < until {
            if matches!(self.child.try_wait(), Ok(Some(_))) {
                return;
            }
            std::thread::sleep(Duration::from_millis(5));
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// An external engine: its spec and, while it runs, its process.
pub struct External {
    spec: ExternalSpec,
    process: Option<Process>,
    /// How long a reply may take when no clock bounds it (the handshake, `isready`, a search under
    /// node or depth limits).
    stall: Duration,
}

impl std::fmt::Debug for External {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("External")
            .field("spec", &self.spec)
            .field("running", &self.process.is_some())
            .field("stall", &self.stall)
            .finish()
    }
}

impl Drop for External {
    fn drop(&mut self) {
        if let Some(p) = self.process.take() {
            p.end();
        }
    }
}

/// What the engine's `info` lines said (of its first line, with `MultiPV`).
#[derive(Default)]
struct Info {
    score: Option<Score>,
    depth: u32,
    seldepth: u32,
    nodes: u64,
}

impl Info {
    fn read(&mut self, line: &str) {
        let w: Vec<&str> = line.split_whitespace().collect();
        if w.first() != Some(&"info") || w.get(1) == Some(&"string") {
            return;
        }
        let after = |key: &str| w.iter().position(|x| *x == key).and_then(|i| w.get(i + 1));
        if after("multipv").is_some_and(|k| *k != "1") {
            return;
        }
        let num = |key: &str| after(key).and_then(|v| v.parse::<u64>().ok());
        if let Some(d) = num("depth") {
            self.depth = u32::try_from(d).unwrap_or(u32::MAX);
        }
        if let Some(d) = num("seldepth") {
            self.seldepth = u32::try_from(d).unwrap_or(u32::MAX);
        }
        if let Some(n) = num("nodes") {
            self.nodes = n;
        }
        if let Some(i) = w.iter().position(|x| *x == "score") {
            let value = w.get(i + 2).and_then(|v| v.parse::<i32>().ok());
            match (w.get(i + 1), value) {
                (Some(&"cp"), Some(v)) => self.score = Some(Score::Cp(v)),
                (Some(&"mate"), Some(v)) => self.score = Some(Score::Mate(v)),
                _ => {}
            }
        }
    }
}

/// One move's request: the position as UCI sends it, the `go` arguments, and how long to wait.
pub struct Request<'a> {
    /// `startpos` or `fen <LFEN>`, then ` moves ...` when there are moves.
    pub position: &'a str,
    /// The words after `go`.
    pub go: &'a str,
    /// When the mover has lost on time if there is no `bestmove` yet (its clock plus the margin);
    /// `None` without a clock.
    pub clock_deadline: Option<Duration>,
    /// A fixed move time, if any (the stall timeout is added to it).
    pub movetime: Option<Duration>,
}

impl External {
    /// An engine not started yet.
    #[must_use]
    pub fn new(spec: ExternalSpec, stall: Duration) -> External {
        External { spec, process: None, stall }
    }

    /// Starts the process and shakes hands (`uci`, options, `isready`).
    fn start(&mut self) -> Result<Process, Failure> {
        let mut child = Command::new(&self.spec.cmd)
            .args(&self.spec.args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .map_err(|e| Failure::Crashed(format!("cannot start {}: {e}", self.spec.cmd.display())))?;
        let (Some(stdin), Some(stdout)) = (child.stdin.take(), child.stdout.take()) else {
            let _ = child.kill();
            let _ = child.wait();
            return Err(Failure::Crashed("no pipes to the process".into()));
        };
        // Bounded: an engine that writes faster than it is read waits on its pipe.
        let (tx, lines) = mpsc::sync_channel(LINES_QUEUED);
        std::thread::spawn(move || {
            let mut out = BufReader::new(stdout);
            while let Some(line) = read_line(&mut out) {
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        let mut p = Process { child, stdin, lines, offered: Vec::new() };
        let result = (|| {
            p.send("uci")?;
            let mut offered = Vec::new();
            p.expect("uciok", self.stall, |line| {
                if let Some(rest) = line.strip_prefix("option name ") {
                    let name = rest.split(" type ").next().unwrap_or(rest).trim();
                    offered.push(name.to_ascii_lowercase());
                }
            })?;
            p.offered = offered;
            let sets_variant = self.spec.options.iter().any(|(k, _)| k.eq_ignore_ascii_case("variant"));
            if let Some(v) = self.spec.variant.as_ref().filter(|_| !sets_variant) {
                if p.offered.iter().any(|o| o == "variant") {
                    p.send(&format!("setoption name Variant value {v}"))?;
                }
            }
            for (k, v) in &self.spec.options {
                p.send(&format!("setoption name {k} value {v}"))?;
            }
            p.send("isready")?;
            p.expect("readyok", self.stall, |_| {})
        })();
        match result {
            Ok(()) => Ok(p),
            Err(f) => {
                p.end();
                Err(f)
            }
        }
    }

    /// Checks that the engine starts and answers the handshake, then ends it.
    ///
    /// # Errors
    /// What went wrong, as a [`Failure`].
    pub fn probe(&mut self) -> Result<(), Failure> {
        self.start().map(Process::end)
    }

    /// Readies the engine for a new game: starts it if it is not running (the first game, or
    /// after a failure), then `ucinewgame` and `isready`.
    ///
    /// # Errors
    /// The engine could not be started, or did not answer.
    pub fn new_game(&mut self) -> Result<(), Failure> {
        let mut p = match self.process.take() {
            Some(mut p) => {
                if matches!(p.child.try_wait(), Ok(None)) {
                    p
                } else {
                    p.end();
                    self.start()?
                }
            }
            None => self.start()?,
        };
        let ready = p.send("ucinewgame").and_then(|()| p.send("isready")).and_then(|()| {
            let stall = self.stall;
            p.expect("readyok", stall, |_| {})
        });
        match ready {
            Ok(()) => {
                self.process = Some(p);
                Ok(())
            }
            Err(f) => {
                p.end();
                Err(f)
            }
        }
    }

    /// Asks for a move in `pos` (which `req.position` describes). A failed move ends the process
    /// (it is started again by the next [`External::new_game`]).
    ///
    /// # Errors
    /// The engine crashed, stalled, or answered with a move that is not legal in `pos`; or `halt`
    /// was set ([`Failure::Halted`]).
    pub fn think<P: Position>(&mut self, pos: &P, req: &Request<'_>, halt: &AtomicBool) -> Result<Thought, Failure> {
        let Some(mut p) = self.process.take() else {
            return Err(Failure::Crashed("not running".into()));
        };
        let result = self.ask(&mut p, pos, req, halt);
        match &result {
            Ok(_) => self.process = Some(p),
            Err(_) => p.end(),
        }
        result
    }

    fn ask<P: Position>(
        &self,
        p: &mut Process,
        pos: &P,
        req: &Request<'_>,
        halt: &AtomicBool,
    ) -> Result<Thought, Failure> {
        p.send(&format!("position {}", req.position))?;
        p.send(format!("go {}", req.go).trim_end())?;
        let start = Instant::now();
        // Past `deadline` the engine is told to stop and given `STOP_GRACE` to answer.
        let deadline = start
            + match (req.clock_deadline, req.movetime) {
                (Some(c), _) => c,
                (None, Some(t)) => t + self.stall,
                (None, None) => self.stall,
            };
        let mut info = Info::default();
        let mut stopped: Option<Instant> = None;
        loop {
            // Checked on every turn, not only when the engine is silent: one that floods `info`
            // lines past its deadline is stopped, and then has stalled, all the same.
            if halt.load(Ordering::Relaxed) {
                return Err(Failure::Halted);
            }
            let now = Instant::now();
            match stopped {
                None if now >= deadline => {
                    p.send("stop")?;
                    stopped = Some(now);
                }
                Some(s) if now >= s + STOP_GRACE => {
                    return Err(Failure::Stalled(format!(
                        "no bestmove {} ms after go, nor {} ms after stop",
                        start.elapsed().as_millis(),
                        STOP_GRACE.as_millis()
                    )));
                }
                _ => {}
            }
            let until = stopped.map_or(deadline, |s| s + STOP_GRACE).min(now + Duration::from_millis(50));
            match p.wait(until) {
                Wait::Line(line) => {
                    let mut words = line.split_whitespace();
                    match words.next() {
                        Some("bestmove") => {
                            let elapsed = start.elapsed();
                            let text = words.next().unwrap_or("(none)").to_owned();
                            if halt.load(Ordering::Relaxed) {
                                return Err(Failure::Halted);
                            }
                            let mv = parse_coord(pos, &text).map_err(|_| Failure::Illegal(text))?;
                            return Ok(Thought {
                                mv,
                                score: info.score,
                                depth: info.depth,
                                seldepth: info.seldepth,
                                nodes: info.nodes,
                                elapsed,
                            });
                        }
                        Some("info") => info.read(&line),
                        _ => {}
                    }
                }
                Wait::Closed => return Err(Failure::Crashed(p.exit_status("while thinking"))),
                Wait::Timeout => {}
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_that_are_not_utf8_or_too_long_are_read_not_fatal() {
        let mut long = vec![b'x'; MAX_LINE * 2 + 5];
        long.push(b'\n');
        let text = [&b"info \xff\xfe depth 3\r\n"[..], &long, b"bestmove e2e4\n", b"tail"].concat();
        let mut r = BufReader::new(&text[..]);
        assert_eq!(read_line(&mut r).as_deref(), Some("info \u{fffd}\u{fffd} depth 3"));
        assert_eq!(read_line(&mut r).map(|l| l.len()), Some(MAX_LINE));
        assert_eq!(read_line(&mut r).as_deref(), Some("bestmove e2e4"));
        assert_eq!(read_line(&mut r).as_deref(), Some("tail"));
        assert_eq!(read_line(&mut r), None);
    }

    #[test]
    fn info_lines_are_read_for_the_first_line_only() {
        let mut i = Info::default();
        i.read("info depth 5 seldepth 9 multipv 1 score cp -23 nodes 1234 nps 1 time 3 pv e2e4");
        i.read("info depth 5 seldepth 9 multipv 2 score cp -80 nodes 1300 pv d2d4");
        i.read("info string hello score cp 5");
        assert_eq!((i.depth, i.seldepth, i.nodes, i.score), (5, 9, 1234, Some(Score::Cp(-23))));
        i.read("info depth 7 score mate -3 nodes 99");
        assert_eq!((i.depth, i.nodes, i.score), (7, 99, Some(Score::Mate(-3))));
        i.read("info currmove e2e4 currmovenumber 1");
        assert_eq!(i.score, Some(Score::Mate(-3)));
    }
}
