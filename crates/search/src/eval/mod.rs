//! Static evaluation: material, centralisation on the board and across the levels, pawn progress,
//! passed, doubled and isolated pawns, the king's home, shelter and activity, mobility and attacks
//! near the enemy king per role, rooks and queens on open files of their level, bishop pair,
//! tempo, mop-up guidance and a scale for drawish material; every term with a middlegame and an
//! endgame value, tapered between them by the game phase.
//!
//! One walk over the position ([`walk`]) finds the terms; the evaluation adds their values up,
//! and [`Evaluation::trace`] counts them instead ([`Trace`]): the counts and the parameters give
//! the evaluation exactly, which is what `tune` fits.

mod geometry;
mod network;
mod trace;
mod walk;

pub use network::{EvalChoice, NetFile};
pub(crate) use network::{NetEval, Stack};
pub use trace::Trace;

use crate::params::t;
use crate::EvalParams;
use geometry::Geometry;
use stackchess_core::{Position, Role};
use trace::{cell_terms, Tracer};
use walk::{walk, Parts, Sink, PHASE_MAX};

/// What the search needs from an evaluation.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Eval {
    /// Centipawns for the side to move.
    pub score: i32,
    /// Whether each side has a piece besides pawns and the king (the null-move zugzwang guard).
    pub pieces: [bool; 2],
}

/// What an engine evaluates with: the linear evaluation (whose piece values also order moves and
/// count exchanges), and the net when the settings give one.
pub(crate) struct Evaluator {
    pub linear: Evaluation,
    pub net: Option<NetEval>,
}

impl Evaluator {
    /// With `endgame`, positions without pawns are scored by the linear evaluation alone (a
    /// residual net's base, else `params`).
    pub fn new<P: Position>(rules: P::Rules, params: &EvalParams, net: Option<&NetFile>, endgame: bool) -> Evaluator {
        let net = net.map(|n| NetEval::new::<P>(rules, n, endgame.then_some(params)));
        Evaluator { linear: Evaluation::new::<P>(rules, params), net }
    }

    /// Material value of a role in the middlegame (0 for the king).
    #[inline]
    pub fn value(&self, r: Role) -> i32 {
        self.linear.value(r)
    }

    /// The static evaluation of `pos` for the side to move, the net's from scratch.
    pub fn eval<P: Position>(&self, pos: &P) -> Eval {
        match &self.net {
            None => self.linear.eval(pos),
            Some(n) => Stack::new(n, 1).eval(n, pos, 0),
        }
    }
}

/// The evaluation of a rule set with given parameters: tables built once per engine, the value of
/// each piece on each cell in the middlegame and the endgame (its material and per-cell terms),
/// for White's pieces at `[role][cell]` and Black's at `[6 + role][cell]`.
#[derive(Clone, Debug)]
pub struct Evaluation {
    mg: Vec<i32>,
    eg: Vec<i32>,
    cells: usize,
    geo: Geometry,
    p: EvalParams,
    /// The optional parts of the walk these parameters need.
    parts: Parts,
}

impl Evaluation {
    /// The evaluation of positions under `rules` with the parameters `p`.
    #[must_use]
    pub fn new<P: Position>(rules: P::Rules, p: &EvalParams) -> Evaluation {
        let cells = 64 * P::LEVELS;
        let geo = Geometry::new::<P>(rules);
        let mut mg = vec![0; 12 * cells];
        let mut eg = vec![0; 12 * cells];
        for i in 0..cells {
            for ci in 0..2 {
                for role in Role::ALL {
                    let k = (ci * 6 + role.index()) * cells + i;
                    cell_terms(&geo, ci, role, i, |term, n| {
                        mg[k] += n * p.mg[term];
                        eg[k] += n * p.eg[term];
                    });
                }
            }
        }
        Evaluation { mg, eg, cells, geo, p: p.clone(), parts: Parts::needed(p) }
    }

    /// Material value of a role in the middlegame (0 for the king): what exchanges are counted in.
    #[inline]
    pub(crate) fn value(&self, r: Role) -> i32 {
        if r == Role::King {
            0
        } else {
            self.p.mg[t::VALUE + r.index()]
        }
    }

    /// Evaluates `pos` for the side to move.
    pub(crate) fn eval<P: Position>(&self, pos: &P) -> Eval {
        let mut acc = Acc { e: self, mg: [0; 2], eg: [0; 2] };
        let walked = walk(pos, &self.p, &self.geo, self.parts, &mut acc);
        if walked.dead {
            return Eval { score: 0, pieces: walked.pieces };
        }
        let us = pos.turn().index();
        let ph = walked.phase.min(PHASE_MAX);
        let w = |i: usize| (acc.mg[i] * ph + acc.eg[i] * (PHASE_MAX - ph)) / PHASE_MAX;
        let mut diff = w(us) - w(1 - us);
        if walked.drawish {
            diff = diff * self.p.scale_drawish / 64;
        }
        let mut score = diff + self.p.tempo;
        if self.p.mobility != 0 && !pos.is_check() {
            score += self.p.mobility * mobility(pos);
        }
        Eval { score, pieces: walked.pieces }
    }

    /// The evaluation of `pos` for the side to move, in centipawns.
    #[must_use]
    pub fn score<P: Position>(&self, pos: &P) -> i32 {
        self.eval(pos).score
    }

    /// How many times each term occurs in `pos` ([`Trace::score`] with these parameters is
    /// [`Evaluation::score`]). Terms that switch on by material (mop-up: a rook's worth ahead; the
    /// drawish scale: a bishop's worth or less) are taken as these parameters value the pieces.
    /// Every optional term is counted, and the legal-move mobility, whatever the parameters.
    #[must_use]
    pub fn trace<P: Position>(&self, pos: &P) -> Trace {
        let mut tr = Tracer { geo: &self.geo, counts: [[0; t::COUNT]; 2], mopup: [[0; 2]; 2] };
        let walked = walk(pos, &self.p, &self.geo, Parts::ALL, &mut tr);
        Trace {
            counts: tr.counts,
            mopup: tr.mopup,
            phase: walked.phase,
            turn: pos.turn(),
            dead: walked.dead,
            drawish: walked.drawish,
            mobility: if walked.dead || pos.is_check() { 0 } else { mobility(pos) },
        }
    }
}

/// Legal moves of the side to move less the opponent's.
fn mobility<P: Position>(pos: &P) -> i32 {
    let ours = pos.count_legal_moves() as i32;
    let mut other = pos.clone();
    other.play_null();
    let theirs = other.count_legal_moves() as i32;
    ours - theirs
}

/// The evaluation's sums per side.
struct Acc<'a> {
    e: &'a Evaluation,
    mg: [i32; 2],
    eg: [i32; 2],
}

impl Sink for Acc<'_> {
    #[inline]
    fn piece(&mut self, ci: usize, role: Role, i: usize) {
        let k = (ci * 6 + role.index()) * self.e.cells + i;
        self.mg[ci] += self.e.mg[k];
        self.eg[ci] += self.e.eg[k];
    }
    #[inline]
    fn term(&mut self, ci: usize, term: usize, n: i32) {
        self.mg[ci] += n * self.e.p.mg[term];
        self.eg[ci] += n * self.e.p.eg[term];
    }
    #[inline]
    fn mopup(&mut self, ci: usize, edge: i32, near: i32) {
        self.eg[ci] += self.e.p.mopup * edge + self.e.p.mopup_kings * near;
    }
}

/// The static evaluation of `pos` for the side to move, in centipawns (builds the tables each call:
/// for tools and tests, not for a search loop).
#[must_use]
pub fn evaluate<P: Position>(pos: &P, params: &EvalParams) -> i32 {
    Evaluation::new::<P>(pos.rules(), params).eval(pos).score
}
