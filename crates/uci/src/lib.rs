//! The UCI engine behind `stackchess engine`, for every rule set, with extensions for stacked
//! boards (LFEN positions, the `Variant` option, `d`, `eval`). Commands, options and examples:
//! docs/engine-protocol.md.
//!
//! Three threads: a reader queues stdin's lines (and sets the running search's `stop` and
//! `ponderhit` flags the moment it reads them, `reader.rs`); the main thread executes the queue in
//! order ([`run`]); a search thread runs each `go` and prints its `info` lines and `bestmove`
//! (`session.rs`). So every answer comes in command order (`readyok` after the output of
//! everything sent before `isready`), and `isready`, `stop` and `ponderhit` are still answered
//! while a search runs. [`grammar`] reads the lines; the engine's options and the caller's
//! [`Settings`] are in `options.rs`.

pub mod grammar;
mod options;
mod reader;
mod session;

pub use options::{spin, Settings};

use anyhow::{anyhow, Result};
use grammar::Command;
use options::Options;
use reader::{read_commands, Flags, Input};
use session::{emit, Session};
use stackchess_variants::Variant;
use std::sync::atomic::Ordering;
use std::sync::{mpsc, Arc};
use std::thread::JoinHandle;

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

/// Speaks UCI on stdin and stdout until `quit` or the end of input, starting with the rule set
/// `variant` and the caller's `settings`.
///
/// # Errors
/// Settings that give no search configuration at start, or a broken output stream; any other
/// error is the client's and is answered with an `info string error: ...` line.
pub fn run<S: Settings>(variant: Variant, settings: S) -> Result<()> {
    let (tx, rx) = mpsc::channel::<Input>();
    std::thread::spawn(move || read_commands(&tx));
    let mut opts = Options::new(variant, settings);
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
            Ok(Command::SetOption { name, value }) => opts.set_option(s, &name, &value),
            Ok(Command::Position { lfen, moves }) => s.set_position(lfen.as_deref(), &moves),
            Ok(Command::Go(args)) => {
                let flags = flags.unwrap_or_default();
                match opts.go(&args, s.as_ref(), Arc::clone(&flags)) {
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
