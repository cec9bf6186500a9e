//! The engine: what persists between searches (table, killers, history, settings), the search
//! request, and the threads of a search (Lazy SMP: helpers share the transposition table).

use crate::eval::Evaluator;
use crate::searcher::{Control, Features, Searcher};
use crate::state::Request;
use crate::state::{Shared, Worker};
use crate::tt::Tt;
use crate::{margin, Limits, Report, SearchConfig};
use stackchess_core::{Position, Rules};
use std::marker::PhantomData;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

/// A search engine for positions of type `P`. Keeps its transposition table, killers and history
/// between searches; [`Engine::new_game`] clears them.
pub struct Engine<P: Position> {
    shared: Shared,
    /// The main thread's tables.
    main: Worker,
    /// One per helper thread (`threads - 1`).
    helpers: Vec<Worker>,
    _p: PhantomData<fn() -> P>,
}

impl<P: Position> Engine<P> {
    /// An engine for positions under `rules`, with these settings (allocates the transposition
    /// table). It searches on one thread until [`Engine::set_threads`] says otherwise.
    #[must_use]
    pub fn new(rules: P::Rules, config: SearchConfig) -> Self {
        let evaluator = Evaluator::new::<P>(rules, &config.eval, config.net.as_ref(), config.switches.net_endgame);
        let cells = 64 * P::LEVELS;
        let (base, divisor) = (config.margins.get(margin::LMR_BASE), config.margins.get(margin::LMR_DIVISOR));
        let (base, divisor) = (f64::from(base) / 100.0, f64::from(divisor) / 100.0);
        let mut lmr = vec![0; 64 * 64];
        for d in 1..64 {
            for m in 1..64 {
                #[allow(clippy::cast_possible_truncation, clippy::cast_precision_loss)]
                let r = (base + (d as f64).ln() * (m as f64).ln() / divisor) as i32;
                lmr[d * 64 + m] = r;
            }
        }
        let cont = config.switches.cont_history;
        Engine {
            shared: Shared { tt: Tt::new(config.hash_mb), evaluator, lmr, cells, draws: rules.draws(), config },
            main: Worker::new(cells, cont),
            helpers: Vec::new(),
            _p: PhantomData,
        }
    }

    /// The settings.
    #[must_use]
    pub fn config(&self) -> &SearchConfig {
        &self.shared.config
    }

    /// Searches on `n` threads (at least 1): the main thread and `n − 1` helpers that search the
    /// same position at staggered depths and share the transposition table (Lazy SMP). With one
    /// thread the search is deterministic under depth and node limits; with more it is not.
    pub fn set_threads(&mut self, n: usize) {
        let (cells, cont) = (self.shared.cells, self.shared.config.switches.cont_history);
        self.helpers.resize_with(n.max(1) - 1, || Worker::new(cells, cont));
    }

    /// The number of search threads.
    #[must_use]
    pub fn threads(&self) -> usize {
        self.helpers.len() + 1
    }

    /// Forgets everything learnt: after this, a search's result depends only on its arguments.
    pub fn new_game(&mut self) {
        self.shared.tt.clear();
        self.main.clear();
        self.helpers.iter_mut().for_each(Worker::clear);
    }

    /// The static evaluation of `pos` for the side to move, with this engine's parameters.
    #[must_use]
    pub fn evaluate(&self, pos: &P) -> i32 {
        self.shared.evaluator.eval(pos).score
    }

    /// The quiescence search's score of `pos` for the side to move (captures and promotions until
    /// the position is quiet, every move when in check), or `None` if it needs more than
    /// `max_nodes` nodes. Without a table or ordering state: a function of `pos` and the settings.
    pub fn quiescence(&mut self, pos: &P, max_nodes: u64) -> Option<i32> {
        let stop = AtomicBool::new(false);
        let request = Request::new(Limits::nodes(max_nodes), &stop);
        let features = Features::new(&self.shared.config, false);
        let control =
            Control { id: 0, threads: 1, stop: &stop, done: None, pondering: None, shared_nodes: &AtomicU64::new(0) };
        Searcher::new(&self.shared, &mut self.main, features, &request, control, &[], pos).quiesce(pos)
    }

    /// Searches `pos` within `limits` (or until `stop` is set), calling `on_iteration` after each
    /// completed iteration, and returns the final report: the last completed iteration, or a better
    /// root move proven in the interrupted one. `history` holds the hashes of the game's earlier
    /// positions, oldest first, `pos` excluded (repetition of any of them counts as a draw).
    ///
    /// The report has no move only when `pos` has no legal move (score `mate 0` or `cp 0`).
    pub fn search(
        &mut self,
        pos: &P,
        history: &[u64],
        limits: &Limits,
        stop: &AtomicBool,
        on_iteration: &mut dyn FnMut(&Report),
    ) -> Report {
        self.analyse(pos, history, &Request::new(*limits, stop), &mut |lines| on_iteration(&lines[0]))
    }

    /// [`Engine::search`] for a full request: after each completed iteration `on_iteration` gets
    /// its lines, best first (`multipv` of them, fewer when there are fewer root moves); the
    /// result is the best line. A mate search ([`Limits::mate`]) switches pruning off.
    pub fn analyse(
        &mut self,
        pos: &P,
        history: &[u64],
        request: &Request<'_>,
        on_iteration: &mut dyn FnMut(&[Report]),
    ) -> Report {
        self.shared.tt.new_search();
        let features = Features::new(&self.shared.config, request.limits.mate.is_some());
        let shared = &self.shared;
        let shared_nodes = AtomicU64::new(0);
        let done = AtomicBool::new(false);
        let threads = self.helpers.len() + 1;
        let main_control = Control {
            id: 0,
            threads,
            stop: request.stop,
            done: None,
            pondering: request.pondering,
            shared_nodes: &shared_nodes,
        };
        let mut main = Searcher::new(shared, &mut self.main, features, request, main_control, history, pos);
        if threads == 1 {
            return main.iterate(pos, on_iteration);
        }
        std::thread::scope(|scope| {
            for (i, worker) in self.helpers.iter_mut().enumerate() {
                let (done, shared_nodes) = (&done, &shared_nodes);
                scope.spawn(move || {
                    let control = Control {
                        id: i + 1,
                        threads,
                        stop: request.stop,
                        done: Some(done),
                        pondering: None,
                        shared_nodes,
                    };
                    let helper_request = Request {
                        // The node limit holds for the sum of the threads: helpers stop at it too.
                        limits: Limits { mate: request.limits.mate, nodes: request.limits.nodes, ..Limits::default() },
                        multipv: 1,
                        ..*request
                    };
                    let mut h = Searcher::new(shared, worker, features, &helper_request, control, history, pos);
                    h.iterate(pos, &mut |_| {});
                });
            }
            let report = main.iterate(pos, on_iteration);
            done.store(true, Ordering::Relaxed);
            report
        })
    }
}
