//! The engine's options: the ones it owns (`Variant`, `Threads`, `MultiPV`, `Ponder`, `Move
//! Overhead`) and the caller's [`Settings`] (the search configuration and its options), and the
//! `uci` answer.

use crate::grammar;
use crate::reader::Flags;
use crate::session::{Build, Go, Session};
use anyhow::{anyhow, bail, Result};
use stackchess_search::{Clock, SearchConfig};
use stackchess_variants::Variant;
use std::sync::Arc;
use std::time::Duration;

/// Most search threads and lines the options accept.
const MAX_THREADS: usize = 256;
const MAX_MULTIPV: usize = 256;
/// Most `Move Overhead` (ms).
const MAX_OVERHEAD: u64 = 5_000;

/// What decides the search besides the engine's own options, kept by the caller (the CLI: its
/// engine flags): the configuration it gives a rule set, and the UCI options that change it.
pub trait Settings: Clone {
    /// The search configuration for the rule set called `variant`.
    ///
    /// # Errors
    /// Settings that give none for it (a file that cannot be read, a net of another rule set).
    fn config(&self, variant: &str) -> Result<SearchConfig>;

    /// Sets the option `name` (lower case) to `value` under the rule set `variant`; `Ok(false)`
    /// when it is not one of these settings' options.
    ///
    /// # Errors
    /// A value the option refuses, naming the option.
    fn set(&mut self, name: &str, value: &str, variant: &str) -> Result<bool>;

    /// The `option name ...` lines of these settings' options, for `variant`.
    fn options(&self, variant: &str) -> Vec<String>;
}

/// A number within `min..=max`, or an error naming the option.
///
/// # Errors
/// Not a number, or outside the range.
pub fn spin(name: &str, value: &str, min: u64, max: u64) -> Result<u64> {
    value
        .parse::<u64>()
        .ok()
        .filter(|v| (min..=max).contains(v))
        .ok_or_else(|| anyhow!("{name}: '{value}' is not a number from {min} to {max}"))
}

/// Option values. Changing one that decides the engine (the variant, the settings) rebuilds the
/// session; threads, lines, overhead and ponder apply as they are.
#[derive(Clone)]
pub(crate) struct Options<S> {
    pub variant: Variant,
    pub settings: S,
    pub threads: usize,
    pub multipv: usize,
    pub overhead: Duration,
}

/// Whether a changed option needs a new session.
#[derive(PartialEq, Eq)]
enum Change {
    Rebuild,
    Threads,
    Other,
}

impl<S: Settings> Options<S> {
    /// The options at start: one thread, one line, the default overhead.
    pub fn new(variant: Variant, settings: S) -> Self {
        Options { variant, settings, threads: 1, multipv: 1, overhead: Clock::MARGIN }
    }

    pub fn build(&self) -> Result<Box<dyn Session>> {
        let mut s = self.variant.with(Build(self.settings.config(self.variant.name())?));
        s.set_threads(self.threads);
        Ok(s)
    }

    fn set(&mut self, name: &str, value: &str) -> Result<Change> {
        match name.to_ascii_lowercase().as_str() {
            "variant" => self.variant = value.parse()?,
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
            other => {
                if !self.settings.set(other, value, self.variant.name())? {
                    bail!("unknown option '{name}'");
                }
            }
        }
        Ok(Change::Rebuild)
    }

    /// The `uci` answer.
    pub fn describe(&self) -> String {
        let names: Vec<String> = Variant::ALL.iter().map(|v| format!("var {}", v.name())).collect();
        let mut lines = vec![
            format!("id name stackchess {}", env!("CARGO_PKG_VERSION")),
            "id author stackchess developers".to_owned(),
            format!("option name Variant type combo default {} {}", self.variant.name(), names.join(" ")),
        ];
        lines.extend(self.settings.options(self.variant.name()));
        lines.extend([
            format!("option name Threads type spin default 1 min 1 max {MAX_THREADS}"),
            format!("option name MultiPV type spin default 1 min 1 max {MAX_MULTIPV}"),
            "option name Ponder type check default false".to_owned(),
            format!(
                "option name Move Overhead type spin default {} min 0 max {MAX_OVERHEAD}",
                Clock::MARGIN.as_millis()
            ),
            "uciok".to_owned(),
        ]);
        lines.join("\n") + "\n"
    }

    /// A `go`'s arguments for the session's position.
    pub fn go(&self, args: &grammar::Go, session: &dyn Session, flags: Arc<Flags>) -> Result<Go> {
        Ok(Go {
            limits: args.limits(session.turn(), self.overhead),
            searchmoves: session.parse_moves(&args.searchmoves)?,
            multipv: self.multipv,
            infinite: args.infinite,
            flags,
        })
    }

    /// Sets an option; on an error (a bad value, a parameter file that cannot be read) the
    /// options and the session stay as they were. Its error carries no `std::io::Error` (a
    /// parameter file that cannot be read is the client's error, not a broken output stream,
    /// which alone ends the engine).
    pub fn set_option(&mut self, session: &mut Box<dyn Session>, name: &str, value: &str) -> Result<()> {
        self.set_option_inner(session, name, value).map_err(|e| anyhow!("{e:#}"))
    }

    fn set_option_inner(&mut self, session: &mut Box<dyn Session>, name: &str, value: &str) -> Result<()> {
        let mut next = self.clone();
        match next.set(name, value)? {
            Change::Rebuild => *session = next.build()?,
            Change::Threads => session.set_threads(next.threads),
            Change::Other => {}
        }
        *self = next;
        Ok(())
    }
}
