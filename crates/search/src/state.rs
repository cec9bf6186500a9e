//! What one search works on: the request (limits, root moves, lines, stop flags), what its
//! threads share (settings, evaluator, table), and what each thread keeps to itself between
//! searches (killers, history). The engine ([`crate::engine`]) owns them; the searcher reads them.

use crate::eval::Evaluator;
use crate::tt::Tt;
use crate::{Limits, SearchConfig};
use stackchess_core::{DrawRules, Move};
use std::sync::atomic::AtomicBool;

/// Deepest ply the tree may reach (quiescence included).
pub(crate) const MAX_PLY: usize = 128;

/// What the threads of a search share, read-only but for the table's lock-free slots.
pub(crate) struct Shared {
    pub config: SearchConfig,
    pub evaluator: Evaluator,
    pub tt: Tt,
    /// Late-move reductions by depth and move number (`depth * 64 + moves`).
    pub lmr: Vec<i32>,
    /// Cells of the board (64 per level).
    pub cells: usize,
    /// The rules' draw rules (fifty moves, repetition, stalemate).
    pub draws: DrawRules,
}

/// What each search thread keeps to itself, and keeps between searches: killers and history.
pub(crate) struct Worker {
    pub killers: Vec<[Option<Move>; 2]>,
    pub history: Vec<i32>,
}

impl Worker {
    pub(crate) fn new(cells: usize) -> Worker {
        Worker { killers: vec![[None; 2]; MAX_PLY + 2], history: vec![0; 2 * cells * cells] }
    }

    pub(crate) fn clear(&mut self) {
        self.killers.iter_mut().for_each(|k| *k = [None; 2]);
        self.history.iter_mut().for_each(|h| *h = 0);
    }
}

/// One search as a UCI `go` asks for it: limits, root moves, lines, and the flags the caller may
/// change while it runs.
#[derive(Clone, Copy, Debug)]
pub struct Request<'a> {
    /// When to stop.
    pub limits: Limits,
    /// Search only these root moves (`go searchmoves`); empty: all. Moves that are not legal are
    /// left out; if none is legal, all moves are searched.
    pub searchmoves: &'a [Move],
    /// Principal variations to find and report, best first (`MultiPV`; 1: the best line only).
    pub multipv: usize,
    /// Set it to stop the search at once.
    pub stop: &'a AtomicBool,
    /// While set, the time limits do not apply (pondering); clear it on `ponderhit`. Time is still
    /// counted from the start of the search.
    pub pondering: Option<&'a AtomicBool>,
}

impl<'a> Request<'a> {
    /// A search of all moves for the best line, within `limits`, stopped by `stop`.
    #[must_use]
    pub fn new(limits: Limits, stop: &'a AtomicBool) -> Request<'a> {
        Request { limits, searchmoves: &[], multipv: 1, stop, pondering: None }
    }
}
