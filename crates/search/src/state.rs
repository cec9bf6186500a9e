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

/// What each search thread keeps to itself, and keeps between searches: killers, history and
/// continuation history.
pub(crate) struct Worker {
    pub killers: Vec<[Option<Move>; 2]>,
    pub history: Vec<i32>,
    /// Continuation history (empty when the switch is off): for the move one and two plies back
    /// (`k` 0 and 1) and the side to move, by that move's (role, target) and this move's, as
    /// [`Worker::cont_index`] numbers them.
    pub cont: Vec<i16>,
    /// Capture history: by the side to move, the capture's (role, target) and the captured role.
    pub capt: Vec<i16>,
    /// Correction history ([`crate::correction`]): by the side to move and the pawns' key.
    pub corr: Vec<i32>,
    /// Roles times cells: the number of (role, target) pairs.
    pieces: usize,
}

impl Worker {
    pub(crate) fn new(cells: usize, cont: bool) -> Worker {
        let pieces = 6 * cells;
        Worker {
            killers: vec![[None; 2]; MAX_PLY + 2],
            history: vec![0; 2 * cells * cells],
            cont: if cont { vec![0; 4 * pieces * pieces] } else { Vec::new() },
            capt: vec![0; 2 * pieces * 6],
            corr: vec![0; 2 * crate::correction::SIZE],
            pieces,
        }
    }

    /// The continuation-history slot of a move `cur` (role · cells + target) of side `stm`
    /// after the move `prev` of `k + 1` plies back.
    #[inline]
    pub(crate) fn cont_index(&self, k: usize, stm: usize, prev: usize, cur: usize) -> usize {
        ((k * 2 + stm) * self.pieces + prev) * self.pieces + cur
    }

    /// The capture-history slot of a capture `cur` (role · cells + target) of side `stm`
    /// taking a piece of role `victim`.
    #[inline]
    pub(crate) fn capt_index(&self, stm: usize, cur: usize, victim: usize) -> usize {
        (stm * self.pieces + cur) * 6 + victim
    }

    pub(crate) fn clear(&mut self) {
        self.capt.iter_mut().for_each(|h| *h = 0);
        self.corr.iter_mut().for_each(|h| *h = 0);
        self.killers.iter_mut().for_each(|k| *k = [None; 2]);
        self.history.iter_mut().for_each(|h| *h = 0);
        self.cont.iter_mut().for_each(|h| *h = 0);
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
