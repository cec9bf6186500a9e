//! The walk over a position that finds every term of the evaluation and reports it, with its
//! count, to a [`Sink`]: the evaluation's sums and the trace are two sinks of one walk.

use super::geometry::{nearness, shelters, Geometry};
use crate::params::t;
use crate::EvalParams;
use arrayvec::ArrayVec;
use stackchess_core::{ByRole, Cell, CellSet, Color, Piece, Position, Role};

/// Game phase weight per role (pawn, knight, bishop, rook, queen, king); 24 at the start.
pub(crate) const PHASE: ByRole<i32> = ByRole::from_array([0, 1, 1, 2, 4, 0]);
/// The phase of a full board (more material counts as this).
pub(crate) const PHASE_MAX: i32 = 24;
/// Pieces of a side the walk keeps track of (more are still counted in material and tables).
const MAX: usize = 64;

/// What a walk reports.
pub(crate) trait Sink {
    /// A piece of side `ci` on the cell `i` (its material and per-cell terms).
    fn piece(&mut self, ci: usize, role: Role, i: usize);
    /// `n` counts of the tapered term `term` for side `ci`.
    fn term(&mut self, ci: usize, term: usize, n: i32);
    /// Side `ci` mops up: the bare king stands `edge` half steps from the centre, the kings
    /// `near` (of 7) together (endgame guidance).
    fn mopup(&mut self, ci: usize, edge: i32, near: i32);
}

/// What a walk found besides the terms.
pub(crate) struct Walked {
    /// Game phase, 0 (bare) to 24 (start) and more.
    pub phase: i32,
    /// Whether each side has a piece besides pawns and the king.
    pub pieces: [bool; 2],
    /// K v K, K+B v K, K+N v K: evaluated as 0.
    pub dead: bool,
    /// The side ahead has no pawn and leads by a bishop or less (or, with `drawish.rook`, has a
    /// lone rook): `scale.drawish` applies.
    pub drawish: bool,
}

/// Which optional parts of the walk to do (all of them for a trace).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Parts {
    /// Mobility and king attacks (a lookup of each piece's attacks).
    pub attacks: bool,
    /// Doubled and isolated pawns, rooks and queens on open files, the king's shelter.
    pub structure: bool,
}

impl Parts {
    /// Everything.
    pub const ALL: Parts = Parts { attacks: true, structure: true };

    /// What the parameters `p` need: the parts whose terms are not all zero.
    pub fn needed(p: &EvalParams) -> Parts {
        let any = |range: std::ops::Range<usize>| range.into_iter().any(|k| p.mg[k] != 0 || p.eg[k] != 0);
        Parts {
            attacks: any(t::MOBILITY..t::MOBILITY + 5) || any(t::KING_ATTACK..t::KING_ATTACK + 4),
            structure: any(t::SHELTER..t::COUNT),
        }
    }
}

/// The pieces of one side, as the walk sorts them.
#[derive(Default)]
struct Side {
    king: Option<Cell>,
    pawns: ArrayVec<Cell, MAX>,
    /// Knights, bishops, rooks and queens with their roles.
    officers: ArrayVec<(Cell, Role), MAX>,
    bishops: u32,
    material: i32,
    /// Pawns per (level, file): `level * 8 + file`.
    pawns_on: [u8; 32],
    /// Files with a pawn of this side on any level (bit per file).
    files: u8,
}

/// Walks `pos`, reporting every term to `sink`; `parts` says which optional terms to compute.
pub(crate) fn walk<P: Position, S: Sink>(
    pos: &P,
    p: &EvalParams,
    geo: &Geometry,
    parts: Parts,
    sink: &mut S,
) -> Walked {
    let mut sides = [Side::default(), Side::default()];
    let (mut phase, mut count, mut minors) = (0, 0, 0);
    pos.for_each_piece(|c, Piece { color, role }| {
        let ci = color.index();
        sink.piece(ci, role, c.index());
        phase += PHASE[role];
        count += 1;
        let s = &mut sides[ci];
        s.material += p.mg[t::VALUE + role.index().min(4)] * i32::from(role != Role::King);
        match role {
            Role::Pawn => {
                if s.pawns.len() < MAX {
                    s.pawns.push(c);
                }
                let lf = c.level() * 8 + c.file();
                s.pawns_on[lf] = s.pawns_on[lf].saturating_add(1);
                s.files |= 1 << c.file();
            }
            Role::King => s.king = Some(c),
            _ => {
                if s.officers.len() < MAX {
                    s.officers.push((c, role));
                }
                s.bishops += u32::from(role == Role::Bishop);
                minors += u32::from(matches!(role, Role::Knight | Role::Bishop));
            }
        }
    });
    let pieces = [!sides[0].officers.is_empty(), !sides[1].officers.is_empty()];
    if count == 2 || (count == 3 && minors == 1) {
        return Walked { phase, pieces, dead: true, drawish: false };
    }
    passed_pawns(&sides, geo, sink);
    for (ci, s) in sides.iter().enumerate() {
        if s.bishops >= 2 {
            sink.term(ci, t::BISHOP_PAIR, 1);
        }
        if let Some(k) = sides[1 - ci].king {
            let near: i32 = s.officers.iter().map(|&(c, _)| nearness(c, k)).sum();
            sink.term(ci, t::TROPISM, near);
        }
    }
    mopup(&sides, p, geo, sink);
    if parts.structure {
        structure(&sides, sink);
    }
    if parts.attacks {
        attacks(pos, &sides, sink);
    }
    let lead = sides[0].material - sides[1].material;
    let strong = if lead >= 0 { &sides[0] } else { &sides[1] };
    let lone_rook = p.drawish_rook != 0 && matches!(strong.officers.as_slice(), [(_, Role::Rook)]);
    let drawish = strong.pawns.is_empty() && (lead.abs() <= p.mg[t::VALUE + 2] || lone_rook);
    Walked { phase, pieces, dead: false, drawish }
}

/// Passed pawns: no enemy pawn ahead on the same or an adjacent file, on any level.
fn passed_pawns<S: Sink>(sides: &[Side; 2], geo: &Geometry, sink: &mut S) {
    // Absolute ranks: the highest black pawn and the lowest white pawn per file.
    let mut black_max = [-1i32; 8];
    let mut white_min = [8i32; 8];
    for c in &sides[0].pawns {
        white_min[c.file()] = white_min[c.file()].min(c.rank() as i32);
    }
    for c in &sides[1].pawns {
        black_max[c.file()] = black_max[c.file()].max(c.rank() as i32);
    }
    for (ci, s) in sides.iter().enumerate() {
        for c in &s.pawns {
            let r = c.rank() as i32;
            let mut files = c.file().saturating_sub(1)..=(c.file() + 1).min(7);
            let passed = if ci == 0 { files.all(|g| black_max[g] <= r) } else { files.all(|g| white_min[g] >= r) };
            if passed {
                sink.term(ci, t::PASSED, geo.progress[ci][c.index()]);
            }
        }
    }
}

/// Mop-up: drive the bare king to the edge and bring ours near.
fn mopup<S: Sink>(sides: &[Side; 2], p: &EvalParams, geo: &Geometry, sink: &mut S) {
    for ci in 0..2 {
        let (us, them) = (&sides[ci], &sides[1 - ci]);
        if let (Some(ours), Some(theirs)) = (us.king, them.king) {
            if them.pawns.is_empty() && us.material - them.material >= p.mg[t::VALUE + 3] {
                sink.mopup(ci, geo.edge[theirs.index()], nearness(ours, theirs));
            }
        }
    }
}

/// Doubled and isolated pawns, rooks and queens on open and half-open files of their level, and
/// the pawns that shelter the king.
fn structure<S: Sink>(sides: &[Side; 2], sink: &mut S) {
    for (ci, s) in sides.iter().enumerate() {
        let doubled: i32 = s.pawns_on.iter().map(|&n| i32::from(n.saturating_sub(1))).sum();
        sink.term(ci, t::DOUBLED, doubled);
        let neighbours = |f: usize| (if f > 0 { 1u8 << (f - 1) } else { 0 }) | (if f < 7 { 1u8 << (f + 1) } else { 0 });
        let isolated = s.pawns.iter().filter(|c| s.files & neighbours(c.file()) == 0).count();
        sink.term(ci, t::ISOLATED, isolated as i32);
        let (mut open, mut half, mut queens) = (0, 0, 0);
        for &(c, role) in &s.officers {
            let lf = c.level() * 8 + c.file();
            let (ours, theirs) = (s.pawns_on[lf], sides[1 - ci].pawns_on[lf]);
            match role {
                Role::Rook if ours == 0 && theirs == 0 => open += 1,
                Role::Rook if ours == 0 => half += 1,
                Role::Queen if ours == 0 && theirs == 0 => queens += 1,
                _ => {}
            }
        }
        sink.term(ci, t::ROOK_OPEN, open);
        sink.term(ci, t::ROOK_SEMIOPEN, half);
        sink.term(ci, t::QUEEN_OPEN, queens);
        if let Some(k) = s.king {
            let color = Color::ALL[ci];
            let shelter = s.pawns.iter().filter(|&&c| shelters(color, k, c)).count();
            sink.term(ci, t::SHELTER, shelter as i32);
        }
    }
}

/// Mobility (cells attacked that hold none of our pieces and no enemy pawn guards) per role, and
/// the cells next to the enemy king (and its own) that each piece attacks.
fn attacks<P: Position, S: Sink>(pos: &P, sides: &[Side; 2], sink: &mut S) {
    let mut pawn_guard = [P::Cells::default(); 2];
    for (ci, s) in sides.iter().enumerate() {
        for &c in &s.pawns {
            pawn_guard[ci] = pawn_guard[ci] | pos.attacks(c);
        }
    }
    let zone = |ci: usize| sides[ci].king.map_or_else(P::Cells::default, |k| pos.attacks(k) | P::Cells::single(k));
    let zones = [zone(0), zone(1)];
    for (ci, s) in sides.iter().enumerate() {
        let free = !(pos.pieces_of(Color::ALL[ci]) | pawn_guard[1 - ci]);
        let mut mobility = [0i32; 5];
        let mut hits = [0i32; 4];
        for &(c, role) in &s.officers {
            let a = pos.attacks(c);
            let r = role.index() - 1;
            mobility[r] += (a & free).count() as i32;
            hits[r] += (a & zones[1 - ci]).count() as i32;
        }
        if let Some(k) = s.king {
            mobility[4] = (pos.attacks(k) & free).count() as i32;
        }
        for (r, &n) in mobility.iter().enumerate() {
            sink.term(ci, t::MOBILITY + r, n);
        }
        for (r, &n) in hits.iter().enumerate() {
            sink.term(ci, t::KING_ATTACK + r, n);
        }
    }
}
