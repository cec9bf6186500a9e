//! SIGINT, SIGTERM and SIGHUP (Ctrl-C, `kill`, `timeout`, Slurm, Kubernetes, a closed terminal)
//! during the long commands (`selfplay`, `match`, `balance`). Inside a run, the first signal asks
//! it to stop cleanly: no new games, the games in progress dropped, every finished game kept, the
//! journal synced, the Parquet copy written; the command then exits with status 1 and says how to
//! resume. A second signal, or one outside a run, exits at once with status 130.

use anyhow::Result;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::OnceLock;

/// Set by the first signal during a run: the run stops handing out games and returns.
pub static STOP: AtomicBool = AtomicBool::new(false);
/// Whether a run that can stop cleanly is going on.
static RUNNING: AtomicBool = AtomicBool::new(false);
/// The handler is installed once per process.
static INSTALLED: OnceLock<Result<(), String>> = OnceLock::new();

/// Exit status after a signal that was not (or could not be) handled cleanly: 128 + SIGINT.
pub const EXIT_AT_ONCE: i32 = 130;

/// A run in progress: signals stop it cleanly while this lives.
pub struct Run(());

impl Drop for Run {
    fn drop(&mut self) {
        RUNNING.store(false, Ordering::SeqCst);
    }
}

/// Installs the handler (once) and marks a run as going on until the returned guard is dropped.
///
/// # Errors
/// When the handler cannot be installed.
pub fn run() -> Result<Run> {
    INSTALLED
        .get_or_init(|| {
            ctrlc::set_handler(|| {
                if STOP.swap(true, Ordering::SeqCst) || !RUNNING.load(Ordering::SeqCst) {
                    std::process::exit(EXIT_AT_ONCE);
                }
            })
            .map_err(|e| format!("cannot install the signal handler: {e}"))
        })
        .clone()
        .map_err(anyhow::Error::msg)?;
    RUNNING.store(true, Ordering::SeqCst);
    Ok(Run(()))
}

/// A write beyond the file-size limit (`ulimit -f`) then fails with an error that names the file
/// (EFBIG), as a full disk does, instead of killing the process (SIGXFSZ's default action): the
/// signal gets a handler that only notes it. Called once at start-up.
pub fn fail_writes_beyond_the_size_limit() {
    let noted = std::sync::Arc::new(AtomicBool::new(false));
    // Without the handler the default stands: the process ends, and resuming still loses nothing.
    let _ = signal_hook::flag::register(signal_hook::consts::SIGXFSZ, noted);
}
