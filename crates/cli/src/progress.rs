//! The one progress display of the long commands: a bar on a terminal, and plain lines with a
//! time stamp (at most one every few seconds) when stderr is a log file, so a run under `nohup`
//! or a batch scheduler still says how far it is.

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use std::io::IsTerminal;
use std::time::{Duration, Instant};

/// Seconds between two log lines.
const LOG_EVERY: Duration = Duration::from_secs(30);

/// A progress display of `len` units.
pub struct Progress {
    bar: Option<ProgressBar>,
    /// For logs: the label, the count, the total and when the last line was written.
    label: String,
    pos: u64,
    len: u64,
    started: Instant,
    last: Option<Instant>,
    quiet: bool,
}

impl Progress {
    /// A display of `len` `unit`s with `done` of them done already (`quiet`: nothing at all).
    pub fn new(len: u64, done: u64, unit: &str, quiet: bool) -> Progress {
        let terminal = std::io::stderr().is_terminal();
        let bar = (!quiet && terminal).then(|| {
            let template = format!("[{{elapsed_precise}}] {{bar:30.cyan/blue}} {{pos}}/{{len}} {unit} {{msg}}");
            let bar = ProgressBar::with_draw_target(Some(len), ProgressDrawTarget::stderr());
            bar.set_style(ProgressStyle::with_template(&template).unwrap_or_else(|_| ProgressStyle::default_bar()));
            bar.set_position(done);
            bar
        });
        Progress { bar, label: unit.to_owned(), pos: done, len, started: Instant::now(), last: None, quiet }
    }

    /// `n` more units done.
    pub fn inc(&mut self, n: u64) {
        self.pos += n;
        if let Some(b) = &self.bar {
            b.inc(n);
        }
    }

    /// The message after the count; in a log, a line with it (at most one every 30 s, unless
    /// `force`).
    pub fn message(&mut self, msg: &str, force: bool) {
        if let Some(b) = &self.bar {
            b.set_message(msg.to_owned());
            return;
        }
        let due = self.last.is_none_or(|t| t.elapsed() >= LOG_EVERY);
        if !self.quiet && (force || due) {
            let secs = self.started.elapsed().as_secs();
            eprintln!(
                "[{:02}:{:02}:{:02}] {}/{} {} {msg}",
                secs / 3600,
                secs / 60 % 60,
                secs % 60,
                self.pos,
                self.len,
                self.label
            );
            self.last = Some(Instant::now());
        }
    }

    /// Prints `line` on stderr (above the bar on a terminal), quiet or not: what a command
    /// reports on purpose (a rating line) is not progress.
    pub fn println(&self, line: &str) {
        match &self.bar {
            Some(b) => b.println(line),
            None => eprintln!("{line}"),
        }
    }

    /// Clears the bar.
    pub fn finish(&self) {
        if let Some(b) = &self.bar {
            b.finish_and_clear();
        }
    }
}

/// The progress of a data run (`datagen`'s hook): its games, and the positions kept so far. The
/// commands that make data first (`datagen`, `tune`, `nnue`) show it; their own hooks, implemented
/// on it where they are used, end it with [`DataBar::finish`] when the next step begins.
pub struct DataBar {
    bar: Option<Progress>,
    /// Nothing is shown.
    pub quiet: bool,
}

impl DataBar {
    /// No bar until the run begins.
    pub fn new(quiet: bool) -> DataBar {
        DataBar { bar: None, quiet }
    }

    /// Ends the bar, if one is showing.
    pub fn finish(&mut self) {
        if let Some(b) = self.bar.take() {
            b.finish();
        }
    }
}

impl stackchess_datagen::Hook for DataBar {
    fn begin(&mut self, games: u64, done: u64, positions: u64) {
        let mut bar = Progress::new(games, done, "games", self.quiet);
        bar.message(&format!("{positions} positions"), true);
        self.bar = Some(bar);
    }
    fn played(&mut self) {
        if let Some(b) = &mut self.bar {
            b.inc(1);
        }
    }
    fn committed(&mut self, games: u64, positions: u64) {
        if let Some(b) = &mut self.bar {
            b.message(&format!("{positions} positions in {games} committed games"), false);
        }
    }
}
