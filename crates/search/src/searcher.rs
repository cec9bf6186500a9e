//! One thread's search: iterative deepening over a fail-soft alpha-beta with PVS, aspiration
//! windows, `MultiPV` at the root, null-move pruning, late move reductions, check extension and a
//! quiescence search.

use crate::correction;
use crate::eval::{Eval, Stack};
use crate::limits::TimeBounds;
use crate::score::{INF, MATE, MATE_BOUND};
use crate::see::{see, see_played};
use crate::state::{Request, Shared, Worker, MAX_PLY};
use crate::tt::{Bound, Hit};
use crate::{margin, Limits, Report, Score, SearchConfig, Switches};
use stackchess_core::{repetition_window, Move, MoveList, Position, Role, StalemateValue};
use std::marker::PhantomData;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};

/// What the king counts as when it captures (SEE, ordering).
const KING_VALUE: i32 = 2_000;
/// Deepest iteration: a safety cap that no search reaches (the tree stops at [`MAX_PLY`]).
const MAX_DEPTH: u32 = MAX_PLY as u32 - 1;
/// Nodes between two looks at the clock, the stop flags and the other threads.
const POLL: u32 = 10;

/// The search features one search uses: the settings' switches, with the unsound prunings off in
/// a mate search (so that a completed iteration of depth `2n − 1` proves there is no mate in `n`).
#[derive(Clone, Copy)]
pub(crate) struct Features {
    /// The switches in force.
    pub on: Switches,
    /// A mate search: its table entries are marked exact, and it takes cutoffs only from those.
    pub exact: bool,
}

impl Features {
    pub(crate) fn new(c: &SearchConfig, mate_search: bool) -> Features {
        let prune = !mate_search;
        let s = c.switches;
        Features {
            on: Switches {
                null_move: s.null_move && prune,
                lmr: s.lmr && prune,
                rfp: s.rfp && prune,
                futility: s.futility && prune,
                razoring: s.razoring && prune,
                see_pruning: s.see_pruning && prune,
                ..s
            },
            exact: mate_search,
        }
    }
}

/// How a search thread hears from the caller and the other threads.
#[derive(Clone, Copy)]
pub(crate) struct Control<'a> {
    /// 0 for the main thread, which reports; helpers count from 1.
    pub id: usize,
    /// Threads of the search.
    pub threads: usize,
    /// The caller's stop flag.
    pub stop: &'a AtomicBool,
    /// Helpers: set when the main thread has finished.
    pub done: Option<&'a AtomicBool>,
    /// While set, time limits do not apply.
    pub pondering: Option<&'a AtomicBool>,
    /// With several threads: the nodes every thread has searched, added in steps of 2^[`POLL`].
    pub shared_nodes: &'a AtomicU64,
}

/// One search in progress on one thread.
pub(crate) struct Searcher<'a, P: Position> {
    sh: &'a Shared,
    w: &'a mut Worker,
    f: Features,
    ctl: Control<'a>,
    limits: Limits,
    bounds: Option<TimeBounds>,
    /// Root moves to search (`go searchmoves`), empty for all.
    searchmoves: &'a [Move],
    multipv: usize,
    start: Instant,
    nodes: u64,
    seldepth: usize,
    aborted: bool,
    /// Hashes of the game's positions and the tree's path, the current node last.
    path: Vec<u64>,
    /// Repetition checks do not look below this index of `path` (set at a null move).
    barrier: usize,
    /// Move stack shared by all plies: each node pushes its moves with ordering scores and
    /// truncates them on return.
    moves: Vec<Scored>,
    /// Triangular PV table: row `ply` holds `pv_len[ply]` moves.
    pv: Vec<Option<Move>>,
    pv_len: [usize; MAX_PLY + 1],
    root_moves: Vec<Move>,
    root_depth: i32,
    /// Whether the root's moves are restricted (`searchmoves`): the root result is then not stored.
    restricted: bool,
    /// With a net: one accumulator a ply.
    nn: Option<Stack<P::Cells>>,
    /// Per ply: its static score and the move played from it.
    frames: Vec<Frame>,
    _p: PhantomData<fn(&P)>,
}

/// What the search keeps of a ply on its path.
#[derive(Clone, Copy)]
struct Frame {
    /// The static score ([`NONE`] in check or not evaluated).
    eval: i32,
    /// The move played from it as role · cells + target ([`NO_MOVE`] for a null move or none).
    moved: usize,
}

/// No static score.
const NONE: i32 = i32::MIN;
/// No move.
const NO_MOVE: usize = usize::MAX;

impl Frame {
    const EMPTY: Frame = Frame { eval: NONE, moved: NO_MOVE };
}

/// What a node's parent expects of it.
#[derive(Clone, Copy)]
struct Node {
    /// A null move may be tried (not right after one).
    null_ok: bool,
    /// An expected cut node: a null-window search the parent expects to fail high.
    cut: bool,
}

impl Node {
    const PV: Node = Node { null_ok: true, cut: false };
    const CUT: Node = Node { null_ok: true, cut: true };
    fn child(cut: bool) -> Node {
        Node { null_ok: true, cut }
    }
}

impl<'a, P: Position> Searcher<'a, P> {
    pub(crate) fn new(
        sh: &'a Shared,
        w: &'a mut Worker,
        f: Features,
        request: &Request<'a>,
        ctl: Control<'a>,
        history: &[u64],
        pos: &P,
    ) -> Self {
        let mut path = Vec::with_capacity(history.len() + MAX_PLY + 2);
        path.extend_from_slice(history);
        path.push(pos.hash());
        Searcher {
            sh,
            w,
            f,
            ctl,
            limits: request.limits,
            bounds: request.limits.time_bounds(),
            searchmoves: request.searchmoves,
            multipv: request.multipv.max(1),
            start: Instant::now(),
            nodes: 0,
            seldepth: 0,
            aborted: false,
            path,
            barrier: 0,
            moves: Vec::with_capacity(8 * 1024),
            pv: vec![None; MAX_PLY * MAX_PLY],
            pv_len: [0; MAX_PLY + 1],
            root_moves: Vec::new(),
            root_depth: 0,
            restricted: false,
            nn: sh.evaluator.net.as_ref().map(|n| Stack::new(n, MAX_PLY + 1)),
            frames: vec![Frame::EMPTY; MAX_PLY + 2],
            _p: PhantomData,
        }
    }
}

/// Mate scores are stored relative to the node, returned relative to the root.
fn to_tt(s: i32, ply: usize) -> i32 {
    #[allow(clippy::cast_possible_truncation, clippy::cast_possible_wrap)]
    let p = ply as i32;
    if s >= MATE_BOUND {
        s + p
    } else if s <= -MATE_BOUND {
        s - p
    } else {
        s
    }
}

fn from_tt(s: i32, ply: usize) -> i32 {
    #[allow(clippy::cast_possible_truncation, clippy::cast_possible_wrap)]
    let p = ply as i32;
    if s >= MATE_BOUND {
        s - p
    } else if s <= -MATE_BOUND {
        s + p
    } else {
        s
    }
}

#[allow(clippy::cast_possible_truncation, clippy::cast_possible_wrap)]
fn ply_i32(ply: usize) -> i32 {
    ply as i32
}

/// A move on the move stack with its ordering score and material gain.
#[derive(Clone, Copy)]
struct Scored {
    m: Move,
    score: i32,
    /// Value captured plus promotion gain; [`QUIET`] for a quiet move.
    gain: i32,
}

/// The `gain` of a move that neither captures nor promotes.
const QUIET: i32 = i32::MIN;

/// The ordering score of a quiet move whose history is not yet looked up: below the killers,
/// above every history score and every capture that loses material.
const PENDING: i32 = 1 << 26;

impl Scored {
    /// A quiet move still waiting for its history score ([`PENDING`]).
    fn is_pending(&self) -> bool {
        self.score == PENDING && self.gain == QUIET
    }
}

/// Appends the legal moves of `pos` to `out`.
fn generate<P: Position>(pos: &P, out: &mut Vec<Scored>) {
    generate_some(pos, out, false);
}

/// Appends the legal moves of `pos` that capture or promote to `out`.
fn generate_captures<P: Position>(pos: &P, out: &mut Vec<Scored>) {
    generate_some(pos, out, true);
}

/// [`generate`] or [`generate_captures`], with the list in its own frame (not the search's).
#[inline(never)]
fn generate_some<P: Position>(pos: &P, out: &mut Vec<Scored>, captures: bool) {
    let mut list = MoveList::new();
    if captures {
        pos.legal_captures(&mut list);
    } else {
        pos.legal_moves(&mut list);
    }
    out.extend(list.iter().map(|&m| Scored { m, score: 0, gain: QUIET }));
}

impl<P: Position> Searcher<'_, P> {
    /// Counts a node; true if the search must stop.
    #[inline]
    fn tick(&mut self) -> bool {
        if self.aborted {
            return true;
        }
        if self.limits.nodes.is_some_and(|n| self.nodes >= n) {
            self.aborted = true;
            return true;
        }
        self.nodes += 1;
        if self.nodes.trailing_zeros() >= POLL && self.poll() {
            self.aborted = true;
        }
        self.aborted
    }

    /// Every 2^[`POLL`] nodes: whether the clock, the caller or the other threads say stop. With
    /// several threads, every thread publishes its node count here and stops once the sum reaches
    /// the node limit, so the search ends within 2^[`POLL`] nodes a thread of it however the
    /// threads are scheduled.
    fn poll(&self) -> bool {
        let c = self.ctl;
        if c.threads > 1 {
            let published = c.shared_nodes.fetch_add(1 << POLL, Ordering::Relaxed) + (1 << POLL);
            if self.limits.nodes.is_some_and(|n| published >= n) {
                return true;
            }
        }
        let out_of_time = self.bounds.is_some_and(|b| !self.pondering() && self.start.elapsed() >= b.hard);
        out_of_time || c.stop.load(Ordering::Relaxed) || c.done.is_some_and(|d| d.load(Ordering::Relaxed))
    }

    fn pondering(&self) -> bool {
        self.ctl.pondering.is_some_and(|p| p.load(Ordering::Relaxed))
    }

    /// Nodes of this search on every thread: with helpers, what every thread has published and
    /// this thread's part not published yet.
    fn total_nodes(&self) -> u64 {
        if self.ctl.threads > 1 {
            self.ctl.shared_nodes.load(Ordering::Relaxed) + (self.nodes & ((1 << POLL) - 1))
        } else {
            self.nodes
        }
    }

    /// A named constant of the search ([`crate::MARGINS`]).
    #[inline]
    fn margin(&self, i: usize) -> i32 {
        self.sh.config.margins.get(i)
    }

    fn eval(&mut self, pos: &P, ply: usize) -> Eval {
        match (&mut self.nn, &self.sh.evaluator.net) {
            (Some(stack), Some(n)) => stack.eval(n, pos, ply),
            _ => self.sh.evaluator.linear.eval(pos),
        }
    }

    /// A node begins at `ply` (its accumulator, with a net, is made when it is evaluated).
    #[inline]
    fn enter(&mut self, ply: usize) {
        if let Some(stack) = &mut self.nn {
            stack.enter(ply);
        }
    }

    fn history_index(&self, pos: &P, m: Move) -> usize {
        (pos.turn().index() * self.sh.cells + m.from().index()) * self.sh.cells + m.to().index()
    }

    /// The move as continuation history numbers it: the moving piece's role · cells + target.
    fn piece_to(&self, pos: &P, m: Move) -> usize {
        pos.piece_at(m.from()).map_or(0, |p| p.role.index()) * self.sh.cells + m.to().index()
    }

    /// Where the continuation-history rows of a quiet move at `ply` begin: one per move one and
    /// two plies back (`None` where there was none, or with the switch off). A move's slot in
    /// row `r` is `r + piece_to` ([`crate::state::Worker::cont_index`] with `cur` 0).
    fn cont_rows(&self, pos: &P, ply: usize) -> [Option<usize>; 2] {
        let stm = pos.turn().index();
        let mut out = [None; 2];
        if !self.f.on.cont_history {
            return out;
        }
        for (k, slot) in out.iter_mut().enumerate() {
            if ply > k {
                let prev = self.frames[ply - 1 - k].moved;
                if prev != NO_MOVE {
                    *slot = Some(self.w.cont_index(k, stm, prev, 0));
                }
            }
        }
        out
    }

    /// A quiet move's history: the butterfly table's, plus the continuation history's weighted.
    fn quiet_history(&self, pos: &P, m: Move, ply: usize) -> i32 {
        self.quiet_history_in(pos, m, &self.cont_rows(pos, ply))
    }

    /// [`Self::quiet_history`] with the node's rows found once ([`Self::cont_rows`]).
    #[inline]
    fn quiet_history_in(&self, pos: &P, m: Move, rows: &[Option<usize>; 2]) -> i32 {
        let h = self.w.history[self.history_index(pos, m)];
        if rows.iter().all(Option::is_none) {
            return h;
        }
        let cur = self.piece_to(pos, m);
        let cont: i32 = rows.iter().flatten().map(|&r| i32::from(self.w.cont[r + cur])).sum();
        h + cont * self.margin(margin::CONT_WEIGHT) / 100
    }

    /// Gives ordering scores to the moves from `base` on; a quiet move's history is left
    /// [`PENDING`] (the picker scores them when it first reaches one: most nodes end before).
    fn score_moves(&mut self, pos: &P, base: usize, tt_move: Option<Move>, ply: usize) {
        let killers = if self.f.on.killers { self.w.killers[ply] } else { [None; 2] };
        let use_history = self.f.on.history;
        for i in base..self.moves.len() {
            let m = self.moves[i].m;
            let gain = self.capture_value(pos, m);
            self.moves[i].gain = gain.unwrap_or(QUIET);
            let s = if Some(m) == tt_move {
                1 << 30
            } else if let Some(v) = gain {
                (1 << 28) + v * 64 - self.attacker_value(pos, m) / 16 + self.capture_history(pos, m)
            } else if killers[0] == Some(m) {
                (1 << 27) + 1
            } else if killers[1] == Some(m) {
                1 << 27
            } else if use_history {
                PENDING
            } else {
                0
            };
            self.moves[i].score = s;
        }
    }

    /// Scores the [`PENDING`] quiet moves from `from` on by their history.
    fn score_quiets(&mut self, pos: &P, from: usize, ply: usize) {
        let rows = self.cont_rows(pos, ply);
        for i in from..self.moves.len() {
            if self.moves[i].is_pending() {
                self.moves[i].score = self.quiet_history_in(pos, self.moves[i].m, &rows);
            }
        }
    }

    /// The capture history's slot of a capture (`None` for a move that captures nothing or with
    /// the switch off).
    fn capt_slot(&self, pos: &P, m: Move) -> Option<usize> {
        if !self.f.on.capture_history {
            return None;
        }
        let victim = pos.captured(m)?;
        Some(self.w.capt_index(pos.turn().index(), self.piece_to(pos, m), victim.index()))
    }

    /// A capture's ordering bonus from its history, weighted (0 without it).
    fn capture_history(&self, pos: &P, m: Move) -> i32 {
        self.capt_slot(pos, m).map_or(0, |i| i32::from(self.w.capt[i]) * self.margin(margin::CAPTURE_WEIGHT) / 400)
    }

    /// Adds `bonus` (a malus when negative) to a capture's history, with the history's gravity.
    fn reward_capture(&mut self, pos: &P, m: Move, bonus: i32) {
        if let Some(i) = self.capt_slot(pos, m) {
            let h = i32::from(self.w.capt[i]);
            let v = h + bonus - h * bonus.abs() / 16_384;
            self.w.capt[i] = i16::try_from(v.clamp(-16_384, 16_384)).unwrap_or(0);
        }
    }

    /// Material gained by a capture or promotion (`None` for a quiet move).
    fn capture_value(&self, pos: &P, m: Move) -> Option<i32> {
        let victim = pos.captured(m).map(|r| self.sh.evaluator.value(r));
        let promo = m.promotion().map(|r| self.sh.evaluator.value(r) - self.sh.evaluator.value(Role::Pawn));
        match (victim, promo) {
            (None, None) => None,
            (v, p) => Some(v.unwrap_or(0) + p.unwrap_or(0)),
        }
    }

    /// Value of the moving piece (the king counts as [`KING_VALUE`]).
    fn attacker_value(&self, pos: &P, m: Move) -> i32 {
        pos.piece_at(m.from()).map_or(0, |p| {
            if p.role == Role::King {
                KING_VALUE
            } else {
                self.sh.evaluator.value(p.role)
            }
        })
    }

    /// Whether a capture gaining `gain` with a piece worth `attacker` loses material by SEE (only
    /// computed when the attacker is worth more than the gain).
    fn losing_capture(&self, pos: &P, m: Move, gain: i32, attacker: i32) -> bool {
        self.f.on.see
            && attacker > gain
            && m.promotion().is_none()
            && see(pos, m, |r| self.sh.evaluator.value(r), KING_VALUE) < 0
    }

    /// [`Self::pick`], but a capture that loses material by SEE is first moved behind the quiet
    /// moves (SEE is computed only when such a capture comes up), and the quiet moves are scored
    /// by their history when the first of them comes up ([`PENDING`]).
    fn pick_main(&mut self, pos: &P, i: usize, tt_move: Option<Move>, ply: usize) -> Scored {
        loop {
            let best = self.best_from(i);
            if self.moves[best].is_pending() {
                self.score_quiets(pos, i, ply);
                continue;
            }
            self.moves.swap(i, best);
            let e = self.moves[i];
            if e.gain == QUIET || e.score < 1 << 28 || Some(e.m) == tt_move {
                return e;
            }
            let a = self.attacker_value(pos, e.m);
            if !self.losing_capture(pos, e.m, e.gain, a) {
                return e;
            }
            self.moves[i].score = -(1 << 20) + e.gain * 64 - a / 16;
        }
    }

    /// Swaps the best-scored move from `i` on into `i` and returns it.
    fn pick(&mut self, i: usize) -> Scored {
        let best = self.best_from(i);
        self.moves.swap(i, best);
        self.moves[i]
    }

    /// The index of the best-scored move from `i` on (the first of equals).
    fn best_from(&self, i: usize) -> usize {
        let rest = &self.moves[i..];
        let (mut best, mut top) = (0, rest[0].score);
        for (j, e) in rest.iter().enumerate().skip(1) {
            if e.score > top {
                (best, top) = (j, e.score);
            }
        }
        i + best
    }

    fn update_pv(&mut self, ply: usize, m: Move) {
        let child = ply + 1;
        let n = if child < MAX_PLY { self.pv_len[child].min(MAX_PLY - 1) } else { 0 };
        self.pv[ply * MAX_PLY] = Some(m);
        for k in 0..n {
            self.pv[ply * MAX_PLY + 1 + k] = self.pv[child * MAX_PLY + k];
        }
        self.pv_len[ply] = n + 1;
    }

    /// The score of a stalemate at `ply` for the stalemated side to move, by the rules.
    fn stalemate(&self, ply: usize) -> i32 {
        match self.sh.draws.stalemate {
            StalemateValue::Draw => 0,
            StalemateValue::Win => MATE - ply_i32(ply),
            StalemateValue::Loss => -MATE + ply_i32(ply),
        }
    }

    fn is_repetition(&self, pos: &P) -> bool {
        let n = self.path.len() - 1;
        let key = self.path[n];
        let window = repetition_window(pos, n - self.barrier.min(n));
        (2..=window).step_by(2).any(|back| self.path[n - back] == key)
    }

    /// Iterative deepening; the main thread reports each completed iteration's lines.
    pub(crate) fn iterate(&mut self, pos: &P, on_iteration: &mut dyn FnMut(&[Report])) -> Report {
        let base = self.moves.len();
        generate(pos, &mut self.moves);
        let tt_move = self.sh.tt.probe(pos.hash()).and_then(|h| h.mv);
        self.score_moves(pos, base, tt_move, 0);
        self.score_quiets(pos, base, 0);
        // Stable sort: equal scores keep generation order, so the order is reproducible.
        let mut scored: Vec<Scored> = self.moves.drain(base..).collect();
        scored.sort_by_key(|e| std::cmp::Reverse(e.score));
        self.root_moves = scored.into_iter().map(|e| e.m).collect();
        if self.root_moves.iter().any(|m| self.searchmoves.contains(m)) {
            let all = self.root_moves.len();
            self.root_moves.retain(|m| self.searchmoves.contains(m));
            self.restricted = self.root_moves.len() < all;
        }
        if self.root_moves.is_empty() {
            let score = if pos.is_check() { Score::Mate(0) } else { Score::Cp(0) };
            return Report { depth: 0, seldepth: 0, score, nodes: 0, elapsed: self.start.elapsed(), pv: Vec::new() };
        }
        let lines = self.multipv.min(self.root_moves.len());
        // Helpers of odd number search each iteration a ply deeper than the main thread.
        let offset = u32::from(self.ctl.id % 2 == 1);
        let max_depth = self.limits.depth.unwrap_or(MAX_DEPTH).clamp(1, MAX_DEPTH);
        let mut last: Vec<Report> = Vec::new();
        let mut prev = vec![0; lines];
        for d in 1..=max_depth {
            #[allow(clippy::cast_possible_wrap)]
            let depth = (d + offset).min(MAX_DEPTH) as i32;
            self.root_depth = depth;
            self.seldepth = 0;
            // Line k searches the root moves from k on: the better lines' moves are left out.
            let mut found: Vec<(i32, Vec<Move>)> = Vec::with_capacity(lines);
            let mut score = 0;
            for (k, &p) in prev.iter().enumerate() {
                score = self.aspirate(pos, depth, p, k);
                if self.aborted {
                    break;
                }
                found.push((score, self.root_pv(k)));
            }
            if self.aborted {
                if let Some((s, pv)) = found.first() {
                    // The best line of this iteration was completed: it stands.
                    let r = self.report(d, *s, pv.clone());
                    last = vec![r];
                } else if self.pv_len[0] > 0 && self.pv[0] != last.first().and_then(Report::best_move) {
                    // A root move proven better than the previous best in this iteration is kept.
                    if let Some(r) = last.first_mut() {
                        r.pv = self.root_pv(0);
                        r.score = Score::from_internal(score);
                    }
                }
                break;
            }
            // Best first (a later line may come out higher through search instability); the next
            // iteration searches the lines in this order.
            let mut order: Vec<usize> = (0..lines).collect();
            order.sort_by_key(|&i| std::cmp::Reverse(found[i].0));
            let firsts: Vec<Move> = order.iter().map(|&i| self.root_moves[i]).collect();
            self.root_moves[..lines].copy_from_slice(&firsts);
            let reports: Vec<Report> = order.iter().map(|&i| self.report(d, found[i].0, found[i].1.clone())).collect();
            prev = order.iter().map(|&i| found[i].0).collect();
            let best = prev[0];
            on_iteration(&reports);
            last = reports;
            let elapsed = self.start.elapsed();
            if let Some(b) = self.bounds {
                if !self.pondering() && (elapsed >= b.soft || self.root_moves.len() == 1) {
                    break;
                }
            }
            match self.limits.mate {
                Some(n) => {
                    // A mate in n moves ends at ply 2n − 1: once that iteration is complete, every
                    // mate within n is found. (No iteration goes past MAX_DEPTH: a longer mate
                    // asks for no more than that.)
                    let n = n.clamp(1, MAX_DEPTH.div_ceil(2));
                    if (best >= MATE_BOUND && MATE - best < 2 * ply_i32(n as usize)) || d >= 2 * n - 1 {
                        break;
                    }
                }
                None => {
                    if self.limits.depth.is_none() && best.abs() >= MATE_BOUND && depth >= MATE - best.abs() + 2 {
                        break;
                    }
                }
            }
        }
        let mut r = last.into_iter().next().unwrap_or_else(|| {
            let score = Score::from_internal(self.eval(pos, 0).score);
            Report { depth: 0, seldepth: 0, score, nodes: 0, elapsed: Duration::ZERO, pv: vec![self.root_moves[0]] }
        });
        r.nodes = self.total_nodes();
        r.elapsed = self.start.elapsed();
        r
    }

    /// The root search of line `first` at `depth`, in aspiration windows around `prev` (its score
    /// in the previous iteration) from depth 4 on.
    fn aspirate(&mut self, pos: &P, depth: i32, prev: i32, first: usize) -> i32 {
        if self.f.on.aspiration && depth >= self.margin(margin::ASPIRATION_DEPTH) && prev.abs() < MATE_BOUND {
            let mut delta = self.margin(margin::ASPIRATION_WINDOW);
            let (mut alpha, mut beta) = (prev - delta, prev + delta);
            loop {
                let s = self.root(pos, depth, alpha, beta, first);
                if self.aborted {
                    break s;
                }
                if s <= alpha {
                    beta = (alpha + beta) / 2;
                    alpha = (s - delta).max(-INF);
                } else if s >= beta {
                    beta = (s + delta).min(INF);
                } else {
                    break s;
                }
                delta *= 2;
                if delta > 800 {
                    alpha = -INF;
                    beta = INF;
                }
            }
        } else {
            self.root(pos, depth, -INF, INF, first)
        }
    }

    /// The root's PV (its first move, `root_moves[first]`, when the table row is empty).
    fn root_pv(&self, first: usize) -> Vec<Move> {
        let pv: Vec<Move> = self.pv[..self.pv_len[0]].iter().map_while(|m| *m).collect();
        if pv.is_empty() {
            vec![self.root_moves[first]]
        } else {
            pv
        }
    }

    fn report(&self, depth: u32, score: i32, pv: Vec<Move>) -> Report {
        #[allow(clippy::cast_possible_truncation)]
        let seldepth = self.seldepth.max(1) as u32;
        Report {
            depth,
            seldepth,
            score: Score::from_internal(score),
            nodes: self.total_nodes(),
            elapsed: self.start.elapsed(),
            pv,
        }
    }

    /// The root: searches `root_moves[first..]` in order and moves a new best one to `first`.
    fn root(&mut self, pos: &P, depth: i32, mut alpha: i32, beta: i32, first: usize) -> i32 {
        self.pv_len[0] = 0;
        if self.tick() {
            return 0;
        }
        if self.nn.is_some() {
            // The root's accumulator, which its children's are made from.
            self.enter(0);
            self.eval(pos, 0);
        }
        self.frames[0].eval = if pos.is_check() || !self.f.on.improving { NONE } else { self.eval(pos, 0).score };
        let mut best = -INF;
        for i in first..self.root_moves.len() {
            let m = self.root_moves[i];
            self.frames[0].moved = self.piece_to(pos, m);
            let mut next = pos.clone();
            next.play_unchecked(m);
            let ext = i32::from(self.f.on.check_extension && next.is_check());
            self.path.push(next.hash());
            let score = if i == first || !self.f.on.pvs {
                -self.search(&next, depth - 1 + ext, -beta, -alpha, 1, Node::PV)
            } else {
                let s = -self.search(&next, depth - 1 + ext, -alpha - 1, -alpha, 1, Node::CUT);
                if s > alpha && s < beta && !self.aborted {
                    -self.search(&next, depth - 1 + ext, -beta, -alpha, 1, Node::PV)
                } else {
                    s
                }
            };
            self.path.pop();
            if self.aborted {
                break;
            }
            if score > best {
                best = score;
                if score > alpha {
                    alpha = score;
                    self.update_pv(0, m);
                    self.root_moves[first..=i].rotate_right(1);
                    if score >= beta {
                        break;
                    }
                }
            }
        }
        // Only a search of every root move gives the root position's value.
        if !self.aborted && first == 0 && !self.restricted {
            let bound = if best >= beta { Bound::Lower } else { Bound::Exact };
            if best > -INF && self.pv_len[0] > 0 {
                self.sh.tt.store(pos.hash(), self.root_moves.first().copied(), best, depth, bound, self.f.exact);
            }
        }
        best
    }

    /// Alpha-beta at `depth` from `ply`: the table probe, the prunings before the move loop (reverse
    /// futility, null move), then the moves in order with their reductions and extensions.
    // One function on purpose, as in every engine: each step reads the state the one before it
    // set (the table entry, the static eval, the improving flag), and the hot path stays inlined.
    #[allow(clippy::too_many_lines)]
    fn search(&mut self, pos: &P, mut depth: i32, mut alpha: i32, mut beta: i32, ply: usize, node: Node) -> i32 {
        if depth <= 0 {
            return self.qsearch(pos, alpha, beta, ply);
        }
        self.enter(ply);
        self.pv_len[ply] = 0;
        if self.tick() {
            return 0;
        }
        self.seldepth = self.seldepth.max(ply);
        let in_check = pos.is_check();
        // Draws by rule, then mate-distance pruning.
        let draws = self.sh.draws;
        if draws.fifty_reached(pos.halfmove_clock()) && !(in_check && pos.count_legal_moves() == 0) {
            return 0;
        }
        if (draws.repetition != 0 && self.is_repetition(pos)) || (pos.halfmove_clock() == 0 && pos.is_dead_material()) {
            return 0;
        }
        let p = ply_i32(ply);
        alpha = alpha.max(-MATE + p);
        beta = beta.min(MATE - p - 1);
        if alpha >= beta {
            return alpha;
        }
        if ply >= MAX_PLY - 1 {
            return self.eval(pos, ply).score;
        }
        let pv_node = beta - alpha > 1;
        let key = pos.hash();
        let hit = self.sh.tt.probe(key);
        let tt_move = hit.and_then(|h| h.mv);
        if let Some(h) = hit {
            if !pv_node && h.depth >= depth {
                if let Some(s) = self.tt_cutoff(&h, alpha, beta, ply) {
                    return s;
                }
            }
        }
        let cfg_rfp = self.f.on.rfp;
        let corr = (self.f.on.corr_history && !in_check).then(|| correction::slot(pos));
        let raw = if in_check { None } else { Some(self.eval(pos, ply)) };
        let ev = raw.map(|e| self.corrected(e, corr));
        let static_eval = ev.map_or(-INF, |e| e.score);
        // The corrected score before the table's refines it: what the correction history learns against.
        let corrected_eval = static_eval;
        self.frames[ply].eval = ev.map_or(NONE, |e| e.score);
        // Improving: the static score is above the one of the side's previous move (or that one
        // is unknown); never in check.
        let improving = !self.f.on.improving
            || (!in_check && (ply < 2 || self.frames[ply - 2].eval == NONE || static_eval > self.frames[ply - 2].eval));
        let ev = ev.map(|e| self.pruning_eval(e, hit.as_ref(), ply));
        let static_eval = ev.map_or(static_eval, |e| e.score);
        if let Some(ev) = ev {
            // Reverse futility: far above beta near the horizon (by less when improving).
            let rfp_less = if self.f.on.improving && improving { self.margin(margin::RFP_IMPROVING) } else { 0 };
            if cfg_rfp
                && !pv_node
                && depth <= self.margin(margin::RFP_DEPTH)
                && beta.abs() < MATE_BOUND
                && ev.score - self.margin(margin::RFP_MARGIN) * depth + rfp_less >= beta
            {
                return ev.score;
            }
            // Razoring: far below alpha near the horizon, the quiescence search decides.
            if self.f.on.razoring
                && !pv_node
                && depth <= self.margin(margin::RAZOR_DEPTH)
                && alpha.abs() < MATE_BOUND
                && ev.score + self.margin(margin::RAZOR_MARGIN) * depth <= alpha
            {
                let v = self.qsearch(pos, alpha, alpha + 1, ply);
                if self.aborted {
                    return 0;
                }
                if v <= alpha {
                    return v;
                }
            }
            // Null move, guarded against zugzwang: only with a piece besides pawns and king.
            if self.f.on.null_move
                && !pv_node
                && node.null_ok
                && depth >= self.margin(margin::NMP_DEPTH)
                && ev.score >= beta
                && beta.abs() < MATE_BOUND
                && ev.pieces[pos.turn().index()]
            {
                let by_eval = match self.margin(margin::NMP_EVAL) {
                    0 => 0,
                    d => ((ev.score - beta) / d).min(3),
                };
                let r = self.margin(margin::NMP_BASE) + depth / self.margin(margin::NMP_DIVISOR) + by_eval;
                let mut next = pos.clone();
                next.play_null();
                self.frames[ply].moved = NO_MOVE;
                let saved = self.barrier;
                self.path.push(next.hash());
                self.barrier = self.path.len() - 1;
                let s = -self.search(
                    &next,
                    depth - 1 - r,
                    -beta,
                    -beta + 1,
                    ply + 1,
                    Node { null_ok: false, cut: !node.cut },
                );
                self.barrier = saved;
                self.path.pop();
                if self.aborted {
                    return 0;
                }
                if s >= beta {
                    return if s >= MATE_BOUND { beta } else { s };
                }
            }
        }

        // Internal iterative reduction: without a table move, search this node a ply shallower.
        if self.f.on.lmr && tt_move.is_none() && depth >= self.margin(margin::IIR_DEPTH) {
            depth -= 1;
        }
        let base = self.moves.len();
        generate(pos, &mut self.moves);
        let n = self.moves.len() - base;
        if n == 0 {
            return if in_check { -MATE + p } else { self.stalemate(ply) };
        }
        self.score_moves(pos, base, tt_move, ply);

        let alpha_orig = alpha;
        let mut best = -INF;
        let mut best_move = None;
        // Whether the best move is quiet (true while none raised alpha: a fail-low teaches the
        // correction history too).
        let mut best_quiet = true;
        let mut searched = 0;
        let mut quiets: [Option<Move>; 32] = [None; 32];
        let mut nquiets = 0;
        let mut captures: [Option<Move>; 16] = [None; 16];
        let mut ncaptures = 0;
        let futile = self.f.on.futility
            && !pv_node
            && !in_check
            && depth <= self.margin(margin::FUTILITY_DEPTH)
            && alpha.abs() < MATE_BOUND
            && static_eval + self.margin(margin::FUTILITY_MARGIN) * depth <= alpha;
        let lmp_limit = if self.f.on.futility && !pv_node && !in_check && depth <= self.margin(margin::LMP_DEPTH) {
            let base = self.margin(margin::LMP_BASE);
            let limit = base + self.margin(margin::LMP_SCALE) * depth * depth;
            // Fewer when the static score is falling.
            let limit = if improving { limit } else { (limit * self.margin(margin::LMP_FALLING) + 99) / 100 };
            usize::try_from(limit).unwrap_or(usize::MAX)
        } else {
            usize::MAX
        };
        let see_prune = self.f.on.see_pruning && ply > 0 && !in_check && depth <= self.margin(margin::SEE_DEPTH);
        for i in 0..n {
            let Scored { m, gain, .. } = self.pick_main(pos, base + i, tt_move, ply);
            let quiet = gain == QUIET;
            let mut next = pos.clone();
            next.play_unchecked(m);
            let gives_check = next.is_check();
            if quiet && !gives_check && searched > 0 && best > -MATE_BOUND && (futile || i >= lmp_limit) {
                continue;
            }
            if see_prune
                && searched > 0
                && best > -MATE_BOUND
                && self.see_prunes(pos, &next, m, gain, gives_check, depth)
            {
                continue;
            }
            let hp = self.margin(margin::HISTORY_PRUNE);
            if hp > 0
                && quiet
                && !gives_check
                && !pv_node
                && !in_check
                && searched > 0
                && best > -MATE_BOUND
                && depth <= self.margin(margin::LMP_DEPTH)
                && self.quiet_history(pos, m, ply) < -hp * depth
            {
                continue;
            }
            self.frames[ply].moved = self.piece_to(pos, m);
            let is_killer = self.w.killers[ply].contains(&Some(m));
            let ext = i32::from(
                self.f.on.check_extension
                    && gives_check
                    && p < 2 * self.root_depth
                    && !(self.f.on.check_see && self.see_after(pos, &next, m) < 0),
            );
            let new_depth = depth - 1 + ext;
            self.path.push(next.hash());
            let score = if searched == 0 {
                -self.search(&next, new_depth, -beta, -alpha, ply + 1, Node::child(!pv_node && !node.cut))
            } else {
                let mut r = 0;
                let lmr_moves = usize::try_from(self.margin(margin::LMR_MOVES)).unwrap_or(usize::MAX);
                if self.f.on.lmr
                    && depth >= self.margin(margin::LMR_DEPTH)
                    && searched >= lmr_moves
                    && quiet
                    && !in_check
                    && !gives_check
                    && !is_killer
                {
                    let d = usize::try_from(depth).unwrap_or(0).min(63);
                    r = self.sh.lmr[d * 64 + searched.min(63)];
                    if pv_node {
                        r -= 1;
                    }
                    if !improving {
                        r += self.margin(margin::LMR_FALLING);
                    }
                    if node.cut {
                        r += self.margin(margin::LMR_CUT);
                    }
                    if self.f.on.history {
                        r -= self.quiet_history(pos, m, ply) / self.margin(margin::LMR_HISTORY);
                    }
                    r = r.clamp(0, (new_depth - 1).max(0));
                }
                if self.f.on.pvs {
                    let mut s = -self.search(&next, new_depth - r, -alpha - 1, -alpha, ply + 1, Node::CUT);
                    if s > alpha && r > 0 && !self.aborted {
                        s = -self.search(&next, new_depth, -alpha - 1, -alpha, ply + 1, Node::child(!node.cut));
                    }
                    if s > alpha && s < beta && !self.aborted {
                        s = -self.search(&next, new_depth, -beta, -alpha, ply + 1, Node::PV);
                    }
                    s
                } else {
                    let mut s = -self.search(&next, new_depth - r, -beta, -alpha, ply + 1, Node::child(!pv_node));
                    if s > alpha && r > 0 && !self.aborted {
                        s = -self.search(&next, new_depth, -beta, -alpha, ply + 1, Node::child(!pv_node));
                    }
                    s
                }
            };
            self.path.pop();
            if self.aborted {
                self.moves.truncate(base);
                return 0;
            }
            searched += 1;
            if score > best {
                best = score;
                if score > alpha {
                    alpha = score;
                    best_move = Some(m);
                    best_quiet = quiet;
                    self.update_pv(ply, m);
                    if score >= beta {
                        if quiet {
                            self.reward(pos, m, &quiets[..nquiets], depth, ply);
                        }
                        if self.f.on.capture_history {
                            let bonus = (depth * depth).min(400);
                            if gain != QUIET {
                                self.reward_capture(pos, m, bonus);
                            }
                            for c in captures[..ncaptures].iter().flatten() {
                                self.reward_capture(pos, *c, -bonus);
                            }
                        }
                        break;
                    }
                }
            }
            if quiet && nquiets < quiets.len() {
                quiets[nquiets] = Some(m);
                nquiets += 1;
            } else if !quiet && ncaptures < captures.len() {
                captures[ncaptures] = Some(m);
                ncaptures += 1;
            }
        }
        self.moves.truncate(base);
        let bound = Bound::of(best, alpha_orig, beta);
        if let (Some(slot), Some(raw), true) = (corr, raw, best_quiet) {
            let max = self.margin(margin::CORR_MAX);
            correction::learn(&mut self.w.corr[slot], raw.score, corrected_eval, best, bound, depth, max);
        }
        self.sh.tt.store(key, best_move, to_tt(best, ply), depth, bound, self.f.exact);
        best
    }

    /// The static score with the correction history's (`slot` none: unchanged).
    fn corrected(&self, mut e: Eval, slot: Option<usize>) -> Eval {
        if let Some(slot) = slot {
            e.score = correction::apply(self.w.corr[slot], self.margin(margin::CORR_WEIGHT), e.score);
        }
        e
    }

    /// The score the prunings use: the static one, or (with `tt_eval`) the table's where its
    /// bound puts the true score beyond the static one. Unlike [`Self::tt_cutoff`], the bound is
    /// compared with the static score, not the window.
    fn pruning_eval(&self, mut e: Eval, hit: Option<&Hit>, ply: usize) -> Eval {
        if let Some(h) = hit.filter(|h| self.f.on.tt_eval && h.score.abs() < MATE_BOUND) {
            let s = from_tt(h.score, ply);
            let beyond = match h.bound {
                Bound::Exact => true,
                Bound::Lower => s > e.score,
                Bound::Upper => s < e.score,
            };
            if beyond {
                e.score = s;
            }
        }
        e
    }

    /// Killers and history after a quiet move caused a cutoff; the quiets tried before it lose.
    fn reward(&mut self, pos: &P, m: Move, tried: &[Option<Move>], depth: i32, ply: usize) {
        if self.f.on.killers && self.w.killers[ply][0] != Some(m) {
            self.w.killers[ply][1] = self.w.killers[ply][0];
            self.w.killers[ply][0] = Some(m);
        }
        if self.f.on.history {
            let bonus = (self.margin(margin::HISTORY_SCALE) * depth * depth).min(self.margin(margin::HISTORY_MAX));
            let i = self.history_index(pos, m);
            let h = &mut self.w.history[i];
            *h += bonus - *h * bonus / 16_384;
            for q in tried.iter().flatten() {
                let j = self.history_index(pos, *q);
                let h = &mut self.w.history[j];
                *h -= bonus + *h * bonus / 16_384;
            }
            if self.f.on.cont_history {
                self.reward_cont(pos, m, bonus, ply);
                for q in tried.iter().flatten() {
                    self.reward_cont(pos, *q, -bonus, ply);
                }
            }
        }
    }

    /// Adds `bonus` (a malus when negative) to a quiet move's continuation history, with the
    /// history's gravity (entries stay within ±16,384).
    fn reward_cont(&mut self, pos: &P, m: Move, bonus: i32, ply: usize) {
        let cur = self.piece_to(pos, m);
        for i in self.cont_rows(pos, ply).into_iter().flatten().map(|r| r + cur) {
            let h = i32::from(self.w.cont[i]);
            let v = h + bonus - h * bonus.abs() / 16_384;
            self.w.cont[i] = i16::try_from(v.clamp(-16_384, 16_384)).unwrap_or(0);
        }
    }

    /// SEE pruning near the horizon: a quiet move that loses more than `see_quiet_margin` a
    /// depth, or a capture more than `see_capture_margin` a depth squared.
    fn see_prunes(&self, pos: &P, next: &P, m: Move, gain: i32, gives_check: bool, depth: i32) -> bool {
        let threshold = if gain == QUIET {
            if gives_check {
                return false;
            }
            // A quiet move loses at most the piece moved.
            let threshold = -self.margin(margin::SEE_QUIET_MARGIN) * depth;
            if -self.attacker_value(pos, m) >= threshold {
                return false;
            }
            threshold
        } else {
            if m.promotion().is_some() || self.attacker_value(pos, m) <= gain {
                return false;
            }
            -self.margin(margin::SEE_CAPTURE_MARGIN) * depth * depth
        };
        self.see_after(pos, next, m) < threshold
    }

    /// The exchange value of `m` in `pos`, `next` being the position after it.
    fn see_after(&self, pos: &P, next: &P, m: Move) -> i32 {
        see_played(pos, next, m, |r| self.sh.evaluator.value(r), KING_VALUE)
    }

    /// The quiescence search of `pos` with an open window, `None` if it was stopped.
    pub(crate) fn quiesce(&mut self, pos: &P) -> Option<i32> {
        let s = self.qsearch(pos, -INF, INF, 0);
        (!self.aborted).then_some(s)
    }

    /// The score a table entry settles the node with, if its bound does (an entry of an unsound
    /// pruning never settles an exact search).
    fn tt_cutoff(&self, h: &Hit, alpha: i32, beta: i32, ply: usize) -> Option<i32> {
        if !h.exact && self.f.exact {
            return None;
        }
        let s = from_tt(h.score, ply);
        let cut = match h.bound {
            Bound::Exact => true,
            Bound::Lower => s >= beta,
            Bound::Upper => s <= alpha,
        };
        cut.then_some(s)
    }

    /// Quiescence: stand pat, then captures and promotions; every move when in check.
    fn qsearch(&mut self, pos: &P, mut alpha: i32, beta: i32, ply: usize) -> i32 {
        self.enter(ply);
        self.pv_len[ply] = 0;
        if self.tick() {
            return 0;
        }
        self.seldepth = self.seldepth.max(ply);
        if ply >= MAX_PLY - 1 || !self.f.on.quiescence {
            return self.eval(pos, ply).score;
        }
        let key = pos.hash();
        let mut tt_move = None;
        if self.f.on.qs_tt {
            if let Some(h) = self.sh.tt.probe(key) {
                tt_move = h.mv;
                if beta - alpha == 1 {
                    if let Some(s) = self.tt_cutoff(&h, alpha, beta, ply) {
                        return s;
                    }
                }
            }
        }
        let alpha_orig = alpha;
        let mut best_move = None;
        let in_check = pos.is_check();
        let mut best = -INF;
        let mut stand = -INF;
        if !in_check {
            let corr = self.f.on.corr_history.then(|| correction::slot(pos));
            let e = self.eval(pos, ply);
            stand = self.corrected(e, corr).score;
            if stand >= beta {
                return stand;
            }
            alpha = alpha.max(stand);
            best = stand;
        }
        let base = self.moves.len();
        if in_check {
            generate(pos, &mut self.moves);
            if self.moves.len() == base {
                return -MATE + ply_i32(ply);
            }
        } else {
            generate_captures(pos, &mut self.moves);
            if self.moves.len() == base && pos.count_legal_moves() == 0 {
                return self.stalemate(ply);
            }
        }
        // Keep captures and promotions (all moves in check), scored by MVV-LVA and pruned by delta.
        let mut k = base;
        for i in base..self.moves.len() {
            let m = self.moves[i].m;
            let gain = self.capture_value(pos, m);
            let delta = self.margin(margin::DELTA_MARGIN);
            if !in_check && gain.is_none_or(|g| stand + g + delta <= alpha && m.promotion().is_none()) {
                continue;
            }
            let s =
                if Some(m) == tt_move { 1 << 30 } else { gain.unwrap_or(-1) * 64 - self.attacker_value(pos, m) / 16 };
            self.moves[k] = Scored { m, score: s, gain: gain.unwrap_or(QUIET) };
            k += 1;
        }
        self.moves.truncate(k);
        for i in base..k {
            let Scored { m, gain, .. } = self.pick(i);
            if !in_check && gain != QUIET && self.losing_capture(pos, m, gain, self.attacker_value(pos, m)) {
                continue;
            }
            let mut next = pos.clone();
            next.play_unchecked(m);
            let score = -self.qsearch(&next, -beta, -alpha, ply + 1);
            if self.aborted {
                self.moves.truncate(base);
                return 0;
            }
            if score > best {
                best = score;
                if score > alpha {
                    alpha = score;
                    best_move = Some(m);
                    self.update_pv(ply, m);
                    if score >= beta {
                        break;
                    }
                }
            }
        }
        self.moves.truncate(base);
        if self.f.on.qs_tt {
            self.sh.tt.store(key, best_move, to_tt(best, ply), 0, Bound::of(best, alpha_orig, beta), self.f.exact);
        }
        best
    }
}
