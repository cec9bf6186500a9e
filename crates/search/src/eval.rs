//! Static evaluation: material, centralisation on the board and across the levels, pawn
//! progress, passed pawns, king safety and activity, bishop pair, tempo and (optionally)
//! mobility, tapered between middlegame and endgame.
//!
//! The evaluation is linear in its parameters: [`Evaluation::trace`] gives, for a position, the
//! coefficient of every parameter, and their dot product with [`EvalParams::values`] is the
//! evaluation up to rounding (see there). That is what `tune` fits.

use crate::EvalParams;
use stackchess_core::{Cell, Color, Piece, Position, Role, Rules};

/// Game phase weight per role (pawn, knight, bishop, rook, queen, king); 24 at the start.
const PHASE: [i32; 6] = [0, 1, 1, 2, 4, 0];
const PHASE_MAX: i32 = 24;

/// Indices into [`EvalParams::values`] (checked against [`EvalParams::KEYS`] by a test).
mod key {
    pub const VALUE: usize = 0;
    pub const CENTER: usize = 5;
    /// `center_level.knight`: roles knight to queen follow.
    pub const CENTER_LEVEL: usize = 10;
    pub const KING_HOME: usize = 14;
    pub const KING_CENTER: usize = 15;
    pub const KING_CENTER_LEVEL: usize = 16;
    pub const PAWN_ADVANCE: usize = 17;
    pub const PAWN_ADVANCE2: usize = 18;
    pub const PASSED: usize = 19;
    pub const BISHOP_PAIR: usize = 20;
    pub const TEMPO: usize = 21;
    pub const TROPISM: usize = 22;
    pub const MOPUP: usize = 23;
    pub const MOPUP_KINGS: usize = 24;
    pub const MOBILITY: usize = 25;
}

/// What the search needs from an evaluation.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Eval {
    /// Centipawns for the side to move.
    pub score: i32,
    /// Whether each side has a piece besides pawns and the king (the null-move zugzwang guard).
    pub pieces: [bool; 2],
}

/// The engine's name for it.
pub(crate) type Evaluator = Evaluation;

/// Where each cell stands, read from the rules' level count and start position alone.
#[derive(Clone, Debug)]
struct Geometry {
    /// Distance from the centre of the board (file + rank), in half steps: 2 to 14.
    planar: Vec<i32>,
    /// Half level steps nearer the central level than the outermost levels: `(L−1) − |2l − (L−1)|`
    /// (on three levels 2 for the middle one, 0 for the others; always 0 on one or two levels).
    level: Vec<i32>,
    /// Distance from the centre of the stack in half steps (mop-up): planar plus the half level
    /// steps from the nearest central level.
    edge: Vec<i32>,
    /// Pawns: how near the centre the file is (0 to 3).
    file_closeness: Vec<i32>,
    /// Per colour: ranks and levels the cell stands from that side's home rank and king's home level.
    from_home: [Vec<i32>; 2],
    /// Per colour: steps a pawn on the cell has done toward promotion (0 to 6).
    progress: [Vec<i32>; 2],
}

/// Level of each side's king in the start position: its home level.
fn home_levels<P: Position>(rules: P::Rules) -> [usize; 2] {
    let mut home = [0, P::LEVELS - 1];
    rules.startpos().for_each_piece(|c, p| {
        if p.role == Role::King {
            home[p.color.index()] = c.level();
        }
    });
    home
}

impl Geometry {
    /// A pawn promotes on the last rank of the enemy king's home level, so it needs the ranks and
    /// the levels left, whichever is more (a pawn steps forward, across the levels, or both).
    /// Where both kings start on one level (Air Attack), a pawn on the other level has one level
    /// to go, never more than its ranks left: the rank alone counts, as the rules say.
    #[allow(clippy::cast_possible_wrap)]
    fn new<P: Position>(rules: P::Rules) -> Geometry {
        let levels = P::LEVELS as i32;
        let cells = 64 * P::LEVELS;
        let home = home_levels::<P>(rules).map(|h| h as i32);
        let mut g = Geometry {
            planar: vec![0; cells],
            level: vec![0; cells],
            edge: vec![0; cells],
            file_closeness: vec![0; cells],
            from_home: [vec![0; cells], vec![0; cells]],
            progress: [vec![0; cells], vec![0; cells]],
        };
        for i in 0..cells {
            let cell = Cell::from_index(i);
            let (f, r, l) = (cell.file() as i32, cell.rank() as i32, cell.level() as i32);
            let off_centre = (2 * l - (levels - 1)).abs();
            g.planar[i] = (2 * f - 7).abs() + (2 * r - 7).abs();
            g.level[i] = (levels - 1) - off_centre;
            g.edge[i] = g.planar[i] + off_centre - (levels - 1) % 2;
            g.file_closeness[i] = (7 - (2 * f - 7).abs()) / 2;
            for color in Color::ALL {
                let ci = color.index();
                let own_rank = if color == Color::White { r } else { 7 - r };
                let (home_l, promo_l) = (home[ci], home[1 - ci]);
                g.from_home[ci][i] = own_rank + (l - home_l).abs();
                let needed = (7 - own_rank).max((promo_l - l).abs());
                g.progress[ci][i] = (6 - needed).max(0);
            }
        }
        g
    }
}

/// The terms of the evaluation as a walk over the position reports them.
trait Sink {
    /// A piece of side `ci` on the cell `i`.
    fn piece(&mut self, ci: usize, role: Role, i: usize);
    /// A passed pawn of side `ci` with `steps` of progress (endgame).
    fn passed(&mut self, ci: usize, steps: i32);
    /// Side `ci` holds two bishops or more.
    fn bishop_pair(&mut self, ci: usize);
    /// A piece of side `ci` stands `near` king steps nearer the enemy king (out of 7; middlegame).
    fn tropism(&mut self, ci: usize, near: i32);
    /// Side `ci` mops up: the bare king stands `edge` half steps from the centre, the kings `near`
    /// (out of 7) together (endgame).
    fn mopup(&mut self, ci: usize, edge: i32, near: i32);
}

/// What a walk found besides the terms.
struct Walked {
    /// Game phase, 0 (bare) to 24 (start) and more.
    phase: i32,
    /// Whether each side has a piece besides pawns and the king.
    pieces: [bool; 2],
    /// K v K, K+B v K, K+N v K: evaluated as 0.
    dead: bool,
}

/// The evaluation of a rule set with given parameters: tables built once per engine, value of
/// each piece on each cell in the middlegame and the endgame, for White's pieces at
/// `[role][cell]` and Black's at `[6 + role][cell]`.
#[derive(Clone, Debug)]
pub struct Evaluation {
    mg: Vec<i32>,
    eg: Vec<i32>,
    cells: usize,
    geo: Geometry,
    p: EvalParams,
}

impl Evaluation {
    /// The evaluation of positions under `rules` with the parameters `p`.
    #[must_use]
    pub fn new<P: Position>(rules: P::Rules, p: &EvalParams) -> Evaluation {
        let cells = 64 * P::LEVELS;
        let geo = Geometry::new::<P>(rules);
        let mut mg = vec![0; 12 * cells];
        let mut eg = vec![0; 12 * cells];
        // cp per step nearer the centre of the board and per level step nearer the central level:
        // (w·(14 − planar) + wl·level) / 2, rounded to the nearest centipawn (halves up).
        let closeness = |w: i32, wl: i32, i: usize| {
            (w * (1400 - 100 * geo.planar[i]) + wl * 100 * geo.level[i] + 100).div_euclid(200)
        };
        for i in 0..cells {
            for color in Color::ALL {
                let ci = color.index();
                let steps = geo.progress[ci][i];
                for role in Role::ALL {
                    let k = (ci * 6 + role.index()) * cells + i;
                    let (m, e) = match role {
                        Role::Pawn => {
                            let adv = p.pawn_advance * steps + p.pawn_advance2 * steps * steps;
                            (p.value[0] + adv + p.center[0] * geo.file_closeness[i], p.value[0] + adv)
                        }
                        Role::King => {
                            (-p.king_home * geo.from_home[ci][i], closeness(p.king_center, p.king_center_level, i))
                        }
                        _ => {
                            let r = role.index();
                            let c = closeness(p.center[r], p.center_level[r - 1], i);
                            (p.value[r] + c, p.value[r] + c)
                        }
                    };
                    mg[k] = m;
                    eg[k] = e;
                }
            }
        }
        Evaluation { mg, eg, cells, geo, p: p.clone() }
    }

    /// Material value of a role (0 for the king).
    #[inline]
    pub(crate) fn value(&self, r: Role) -> i32 {
        self.p.value.get(r.index()).copied().unwrap_or(0)
    }

    /// Walks the position, reporting every term to `sink`.
    fn walk<P: Position, S: Sink>(&self, pos: &P, sink: &mut S) -> Walked {
        let mut phase = 0;
        let mut bishops = [0u32; 2];
        let mut pieces = [false; 2];
        let mut count = 0;
        let mut minors = 0;
        let mut material = [0i32; 2];
        let mut kings = [Cell::from_index(0); 2];
        // Pieces (not pawns or kings) per side, for king tropism.
        let mut officers: [[u8; 16]; 2] = [[0; 16]; 2];
        let mut nofficers = [0usize; 2];
        // Absolute ranks: the highest black pawn and the lowest white pawn per file.
        let mut black_max = [-1i32; 8];
        let mut white_min = [8i32; 8];
        let mut pawns: [[u8; 16]; 2] = [[0; 16]; 2];
        let mut npawns = [0usize; 2];
        pos.for_each_piece(|c, Piece { color, role }| {
            let ci = color.index();
            sink.piece(ci, role, c.index());
            phase += PHASE[role.index()];
            count += 1;
            material[ci] += self.value(role);
            match role {
                Role::Pawn => {
                    #[allow(clippy::cast_possible_wrap, clippy::cast_possible_truncation)]
                    let r = c.rank() as i32;
                    match color {
                        Color::White => white_min[c.file()] = white_min[c.file()].min(r),
                        Color::Black => black_max[c.file()] = black_max[c.file()].max(r),
                    }
                    if npawns[ci] < 16 {
                        #[allow(clippy::cast_possible_truncation)]
                        {
                            pawns[ci][npawns[ci]] = c.index() as u8;
                        }
                        npawns[ci] += 1;
                    }
                }
                Role::King => kings[ci] = c,
                _ => {
                    pieces[ci] = true;
                    if nofficers[ci] < 16 {
                        #[allow(clippy::cast_possible_truncation)]
                        {
                            officers[ci][nofficers[ci]] = c.index() as u8;
                        }
                        nofficers[ci] += 1;
                    }
                    if role == Role::Bishop {
                        bishops[ci] += 1;
                    }
                    if matches!(role, Role::Knight | Role::Bishop) {
                        minors += 1;
                    }
                }
            }
        });
        if count == 2 || (count == 3 && minors == 1) {
            return Walked { phase, pieces, dead: true };
        }
        // Passed pawns: no enemy pawn ahead on the same or an adjacent file, on any level.
        for ci in 0..2 {
            for &idx in &pawns[ci][..npawns[ci].min(16)] {
                let c = Cell::from_index(usize::from(idx));
                #[allow(clippy::cast_possible_wrap, clippy::cast_possible_truncation)]
                let r = c.rank() as i32;
                let files = c.file().saturating_sub(1)..=(c.file() + 1).min(7);
                let passed = if ci == 0 {
                    files.into_iter().all(|g| black_max[g] <= r)
                } else {
                    files.into_iter().all(|g| white_min[g] >= r)
                };
                if passed {
                    sink.passed(ci, self.geo.progress[ci][usize::from(idx)]);
                }
            }
        }
        for (ci, &n) in bishops.iter().enumerate() {
            if n >= 2 {
                sink.bishop_pair(ci);
            }
        }
        let near = |a: Cell, b: Cell| {
            let dist = a.file().abs_diff(b.file()).max(a.rank().abs_diff(b.rank())).max(a.level().abs_diff(b.level()));
            #[allow(clippy::cast_possible_truncation, clippy::cast_possible_wrap)]
            let n = 7 - dist.min(7) as i32;
            n
        };
        for ci in 0..2 {
            let k = kings[1 - ci];
            for &idx in &officers[ci][..nofficers[ci].min(16)] {
                sink.tropism(ci, near(Cell::from_index(usize::from(idx)), k));
            }
        }
        // Mop-up: drive the bare king to the edge and bring ours near.
        for ci in 0..2 {
            let them = 1 - ci;
            if npawns[them] == 0 && material[ci] - material[them] >= self.p.value[3] {
                sink.mopup(ci, self.geo.edge[kings[them].index()], near(kings[ci], kings[them]));
            }
        }
        Walked { phase, pieces, dead: false }
    }

    /// Evaluates `pos` for the side to move.
    pub(crate) fn eval<P: Position>(&self, pos: &P) -> Eval {
        let mut acc = Acc { e: self, mg: [0; 2], eg: [0; 2] };
        let walked = self.walk(pos, &mut acc);
        if walked.dead {
            return Eval { score: 0, pieces: walked.pieces };
        }
        let us = pos.turn().index();
        let ph = walked.phase.min(PHASE_MAX);
        let w = |i: usize| (acc.mg[i] * ph + acc.eg[i] * (PHASE_MAX - ph)) / PHASE_MAX;
        let mut score = w(us) - w(1 - us) + self.p.tempo;
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

    /// The coefficient of every parameter in the evaluation of `pos` for the side to move, in
    /// [`EvalParams::KEYS`] order: their dot product with [`EvalParams::values`] is
    /// [`Evaluation::score`] up to rounding. The rounding: the two sides' tapered sums are cut to
    /// whole centipawns (less than 2 cp in all), and each cell's centralisation to a whole
    /// centipawn (up to ½ cp a piece, none when every centralisation weight is even).
    ///
    /// Terms that switch on by material (mop-up: a rook's worth ahead by these parameters' values)
    /// are taken as these parameters have them. The mobility coefficient (legal moves, ours less
    /// theirs, out of check) is given whatever `mobility` is.
    #[must_use]
    pub fn trace<P: Position>(&self, pos: &P) -> [f64; EvalParams::COUNT] {
        let mut t = Tracer { e: self, mg: [[0.0; EvalParams::COUNT]; 2], eg: [[0.0; EvalParams::COUNT]; 2] };
        let walked = self.walk(pos, &mut t);
        let mut out = [0.0; EvalParams::COUNT];
        if walked.dead {
            return out;
        }
        let us = pos.turn().index();
        let ph = f64::from(walked.phase.min(PHASE_MAX));
        let max = f64::from(PHASE_MAX);
        for (k, o) in out.iter_mut().enumerate() {
            let mg = t.mg[us][k] - t.mg[1 - us][k];
            let eg = t.eg[us][k] - t.eg[1 - us][k];
            *o = (mg * ph + eg * (max - ph)) / max;
        }
        out[key::TEMPO] = 1.0;
        if !pos.is_check() {
            out[key::MOBILITY] = f64::from(mobility(pos));
        }
        out
    }
}

/// Legal moves of the side to move less the opponent's.
fn mobility<P: Position>(pos: &P) -> i32 {
    #[allow(clippy::cast_possible_wrap, clippy::cast_possible_truncation)]
    let ours = pos.count_legal_moves() as i32;
    let mut other = pos.clone();
    other.play_null();
    #[allow(clippy::cast_possible_wrap, clippy::cast_possible_truncation)]
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
    fn passed(&mut self, ci: usize, steps: i32) {
        self.eg[ci] += self.e.p.passed * steps;
    }
    #[inline]
    fn bishop_pair(&mut self, ci: usize) {
        self.mg[ci] += self.e.p.bishop_pair;
        self.eg[ci] += self.e.p.bishop_pair;
    }
    #[inline]
    fn tropism(&mut self, ci: usize, near: i32) {
        self.mg[ci] += self.e.p.tropism * near;
    }
    #[inline]
    fn mopup(&mut self, ci: usize, edge: i32, near: i32) {
        self.eg[ci] += self.e.p.mopup * edge + self.e.p.mopup_kings * near;
    }
}

/// The coefficients' sums per side, middlegame and endgame.
struct Tracer<'a> {
    e: &'a Evaluation,
    mg: [[f64; EvalParams::COUNT]; 2],
    eg: [[f64; EvalParams::COUNT]; 2],
}

impl Tracer<'_> {
    fn both(&mut self, ci: usize, k: usize, x: i32) {
        self.mg[ci][k] += f64::from(x);
        self.eg[ci][k] += f64::from(x);
    }
}

impl Sink for Tracer<'_> {
    fn piece(&mut self, ci: usize, role: Role, i: usize) {
        let g = &self.e.geo;
        let (closeness, level) = (f64::from(14 - g.planar[i]) / 2.0, f64::from(g.level[i]) / 2.0);
        match role {
            Role::Pawn => {
                let s = g.progress[ci][i];
                self.both(ci, key::VALUE, 1);
                self.both(ci, key::PAWN_ADVANCE, s);
                self.both(ci, key::PAWN_ADVANCE2, s * s);
                self.mg[ci][key::CENTER] += f64::from(g.file_closeness[i]);
            }
            Role::King => {
                self.mg[ci][key::KING_HOME] -= f64::from(g.from_home[ci][i]);
                self.eg[ci][key::KING_CENTER] += closeness;
                self.eg[ci][key::KING_CENTER_LEVEL] += level;
            }
            _ => {
                let r = role.index();
                self.both(ci, key::VALUE + r, 1);
                for part in [&mut self.mg[ci], &mut self.eg[ci]] {
                    part[key::CENTER + r] += closeness;
                    part[key::CENTER_LEVEL + r - 1] += level;
                }
            }
        }
    }
    fn passed(&mut self, ci: usize, steps: i32) {
        self.eg[ci][key::PASSED] += f64::from(steps);
    }
    fn bishop_pair(&mut self, ci: usize) {
        self.both(ci, key::BISHOP_PAIR, 1);
    }
    fn tropism(&mut self, ci: usize, near: i32) {
        self.mg[ci][key::TROPISM] += f64::from(near);
    }
    fn mopup(&mut self, ci: usize, edge: i32, near: i32) {
        self.eg[ci][key::MOPUP] += f64::from(edge);
        self.eg[ci][key::MOPUP_KINGS] += f64::from(near);
    }
}

/// The static evaluation of `pos` for the side to move, in centipawns (builds the tables each call:
/// for tools and tests, not for a search loop).
#[must_use]
pub fn evaluate<P: Position>(pos: &P, params: &EvalParams) -> i32 {
    Evaluation::new::<P>(pos.rules(), params).eval(pos).score
}

#[cfg(test)]
mod tests {
    use super::key;
    use crate::EvalParams;

    #[test]
    fn term_indices_follow_the_keys() {
        let at = |k: &str| EvalParams::KEYS.iter().position(|x| *x == k).unwrap();
        assert_eq!(at("value.pawn"), key::VALUE);
        assert_eq!(at("center.pawn"), key::CENTER);
        assert_eq!(at("center_level.knight"), key::CENTER_LEVEL);
        assert_eq!(at("king_home"), key::KING_HOME);
        assert_eq!(at("king_center"), key::KING_CENTER);
        assert_eq!(at("king_center_level"), key::KING_CENTER_LEVEL);
        assert_eq!(at("pawn_advance"), key::PAWN_ADVANCE);
        assert_eq!(at("pawn_advance2"), key::PAWN_ADVANCE2);
        assert_eq!(at("passed"), key::PASSED);
        assert_eq!(at("bishop_pair"), key::BISHOP_PAIR);
        assert_eq!(at("tempo"), key::TEMPO);
        assert_eq!(at("tropism"), key::TROPISM);
        assert_eq!(at("mopup"), key::MOPUP);
        assert_eq!(at("mopup_kings"), key::MOPUP_KINGS);
        assert_eq!(at("mobility"), key::MOBILITY);
    }
}
