//! The reader thread: stdin's lines queued in order, with `stop`, `quit` and `ponderhit` applied
//! to the latest `go` the moment they are read.

use std::io::BufRead;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{mpsc, Arc};

/// The flags of one `go`, shared with the reader thread (which sets them on `stop`, `quit` and
/// `ponderhit`) and the search.
#[derive(Default)]
pub(crate) struct Flags {
    pub stop: AtomicBool,
    /// Set by `go ponder`, cleared by `ponderhit`.
    pub pondering: AtomicBool,
}

/// What the reader thread hands over.
pub(crate) enum Input {
    /// A line, with the flags of its search if it is a `go`.
    Line(String, Option<Arc<Flags>>),
    /// End of input.
    Eof,
}

/// Reads stdin, queues each line, and applies `stop`, `quit` and `ponderhit` to the latest `go`
/// read at once (a `go` still in the queue then starts stopped, as its order says).
pub(crate) fn read_commands(tx: &mpsc::Sender<Input>) {
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
