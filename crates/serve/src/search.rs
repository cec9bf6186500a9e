//! One board's search thread: it owns the engine (whose table keeps its fixed size), runs one job
//! at a time, and drops a job that a newer one replaced. Dropping the handle stops the search and
//! ends the thread.

use crate::protocol::{self, LineView, LinesMsg};
use crate::Event;
use stackchess_core::{coord, san, Color, Position};
use stackchess_search::{Engine, Limits, Report, Request, Score, SearchConfig};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{mpsc, Arc};
use std::time::Duration;
use tokio::sync::mpsc::UnboundedSender;

/// What a search is for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Purpose {
    /// Lines for the page, until stopped.
    Analyse,
    /// The engine's move in a game against it.
    Play,
}

/// A search to run.
pub struct Job<P> {
    /// Its number (a newer job has a larger one).
    pub id: u64,
    /// The tree node searched.
    pub node: usize,
    /// Its position.
    pub pos: P,
    /// The hashes of the game's earlier positions.
    pub history: Vec<u64>,
    /// When to stop.
    pub limits: Limits,
    /// Lines.
    pub multipv: usize,
    /// What for.
    pub purpose: Purpose,
    stop: Arc<AtomicBool>,
}

/// The handle of a board's search thread.
pub struct Searcher<P: Position> {
    jobs: Option<mpsc::Sender<Job<P>>>,
    stop: Option<Arc<AtomicBool>>,
    next: u64,
    /// The running job's id and purpose.
    pub current: Option<(u64, Purpose)>,
    spawn: Option<Spawn<P>>,
}

/// What the thread is started with (on the first job: a board never analysed allocates no table).
struct Spawn<P: Position> {
    rules: P::Rules,
    config: SearchConfig,
    threads: usize,
    out: UnboundedSender<Event>,
    searching: Arc<AtomicUsize>,
}

impl<P: Position> Searcher<P> {
    /// A handle; the thread starts with the first job.
    pub fn new(
        rules: P::Rules,
        config: SearchConfig,
        threads: usize,
        out: UnboundedSender<Event>,
        searching: Arc<AtomicUsize>,
    ) -> Searcher<P> {
        Searcher {
            jobs: None,
            stop: None,
            next: 0,
            current: None,
            spawn: Some(Spawn { rules, config, threads, out, searching }),
        }
    }

    /// Stops the running search, if any (its result is dropped).
    pub fn stop(&mut self) {
        if let Some(s) = self.stop.take() {
            s.store(true, Ordering::Relaxed);
        }
        self.current = None;
    }

    /// Stops the running search and starts this one; returns its id.
    pub fn start(
        &mut self,
        node: usize,
        pos: P,
        history: Vec<u64>,
        limits: Limits,
        multipv: usize,
        purpose: Purpose,
    ) -> u64 {
        self.stop();
        if let Some(s) = self.spawn.take() {
            let (tx, rx) = mpsc::channel::<Job<P>>();
            std::thread::spawn(move || run(s, &rx));
            self.jobs = Some(tx);
        }
        self.next += 1;
        let stop = Arc::new(AtomicBool::new(false));
        let job = Job { id: self.next, node, pos, history, limits, multipv, purpose, stop: Arc::clone(&stop) };
        if let Some(tx) = &self.jobs {
            // The thread ends only when this handle drops the sender: the send cannot fail before.
            let _ = tx.send(job);
        }
        self.stop = Some(stop);
        self.current = Some((self.next, purpose));
        self.next
    }
}

impl<P: Position> Drop for Searcher<P> {
    fn drop(&mut self) {
        self.stop();
        self.jobs = None;
    }
}

/// The thread: one engine, the jobs in order, each skipped when a newer one replaced it.
fn run<P: Position>(s: Spawn<P>, jobs: &mpsc::Receiver<Job<P>>) {
    let mut engine = Engine::<P>::new(s.rules, s.config);
    engine.set_threads(s.threads);
    while let Ok(job) = jobs.recv() {
        if job.stop.load(Ordering::Relaxed) {
            continue;
        }
        s.searching.fetch_add(1, Ordering::SeqCst);
        let request = Request { multipv: job.multipv, ..Request::new(job.limits, &job.stop) };
        let analyse = job.purpose == Purpose::Analyse;
        let report = engine.analyse(&job.pos, &job.history, &request, &mut |lines| {
            if analyse && !job.stop.load(Ordering::Relaxed) {
                let _ = s.out.send(Event::Text(lines_text(&job, lines, false)));
            }
        });
        s.searching.fetch_sub(1, Ordering::SeqCst);
        if job.stop.load(Ordering::Relaxed) {
            continue;
        }
        if analyse {
            let _ = s.out.send(Event::Text(lines_text(&job, std::slice::from_ref(&report), true)));
        }
        let _ =
            s.out.send(Event::Done { job: job.id, node: job.node, best: report.best_move(), elapsed: report.elapsed });
    }
}

fn lines_text<P: Position>(job: &Job<P>, lines: &[Report], done: bool) -> String {
    let lines = lines.iter().map(|r| line_view(&job.pos, r)).collect();
    protocol::text(&LinesMsg { t: "lines", node: job.node, lines, done })
}

/// A report as the page shows it: the score from White's view, the line in SAN and coordinates.
pub fn line_view<P: Position>(pos: &P, r: &Report) -> LineView {
    let sign = if pos.turn() == Color::White { 1 } else { -1 };
    let (score, cp) = match r.score {
        Score::Cp(c) => {
            let c = c * sign;
            (format!("{}{:.2}", if c >= 0 { "+" } else { "-" }, f64::from(c.abs()) / 100.0), i64::from(c))
        }
        Score::Mate(n) => {
            let n = n * sign;
            // Mated now (`Mate(0)`) is a loss for the side to move.
            let white_wins = n > 0 || (n == 0 && sign < 0);
            let text = if white_wins { format!("#{}", n.abs()) } else { format!("-#{}", n.abs()) };
            let cp = 100_000 - i64::from(n.abs());
            (text, if white_wins { cp } else { -cp })
        }
    };
    let (mut p, mut sans, mut ucis) = (pos.clone(), Vec::new(), Vec::new());
    for &m in &r.pv {
        if !p.is_legal(m) {
            break;
        }
        sans.push(san(&p, m));
        ucis.push(coord::<P>(m));
        p.play_unchecked(m);
    }
    LineView {
        depth: r.depth,
        seldepth: r.seldepth,
        score,
        cp,
        nodes: r.nodes,
        nps: r.nps(),
        ms: u64::try_from(r.elapsed.as_millis()).unwrap_or(u64::MAX),
        san: sans,
        uci: ucis,
    }
}

/// The clock after a move that took `elapsed`: `left − elapsed + inc`, at least nothing.
#[must_use]
pub fn after_move(left: Duration, elapsed: Duration, inc: Duration) -> Duration {
    left.saturating_sub(elapsed) + inc
}
