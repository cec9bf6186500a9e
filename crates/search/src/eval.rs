//! Static evaluation: material, cell tables over the stack, pawn progress, passed pawns, bishop
//! pair, tempo and (optionally) mobility, tapered between middlegame and endgame.

use crate::EvalParams;
use stackchess_core::{Cell, Color, Piece, Position, Role, Rules};

/// Game phase weight per role (pawn, knight, bishop, rook, queen, king); 24 at the start.
const PHASE: [i32; 6] = [0, 1, 1, 2, 4, 0];
const PHASE_MAX: i32 = 24;

/// What the search needs from an evaluation.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Eval {
    /// Centipawns for the side to move.
    pub score: i32,
    /// Whether each side has a piece besides pawns and the king (the null-move zugzwang guard).
    pub pieces: [bool; 2],
}

/// Tables built once per engine from the parameters: value of each piece on each cell, in the
/// middlegame and the endgame, for White's pieces at `[role][cell]` and Black's at `[6 + role][cell]`.
#[derive(Clone, Debug)]
pub(crate) struct Evaluator {
    mg: Vec<i32>,
    eg: Vec<i32>,
    cells: usize,
    /// Per colour: steps done toward promotion, per cell (for passed pawns).
    progress: [Vec<i32>; 2],
    /// Distance of each cell from the centre of the stack, in half steps (for mop-up).
    edge: Vec<i32>,
    p: EvalParams,
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

impl Evaluator {
    pub(crate) fn new<P: Position>(rules: P::Rules, p: &EvalParams) -> Evaluator {
        let levels = P::LEVELS;
        let cells = 64 * levels;
        let home = home_levels::<P>(rules);
        let mut mg = vec![0; 12 * cells];
        let mut eg = vec![0; 12 * cells];
        let mut progress = [vec![0; cells], vec![0; cells]];
        let mut edge = vec![0; cells];
        #[allow(clippy::cast_possible_wrap, clippy::cast_possible_truncation)]
        let lv_span = (levels as i32 - 1) * p.center_level_pct;
        #[allow(clippy::needless_range_loop)]
        for i in 0..cells {
            let cell = Cell::from_index(i);
            #[allow(clippy::cast_possible_wrap, clippy::cast_possible_truncation)]
            let (f, r, l) = (cell.file() as i32, cell.rank() as i32, cell.level() as i32);
            #[allow(clippy::cast_possible_wrap, clippy::cast_possible_truncation)]
            let dl = (2 * l - (levels as i32 - 1)).abs() * p.center_level_pct;
            // Distance from the centre in half steps, times 100: 0 at the centre of the stack.
            let d = ((2 * f - 7).abs() + (2 * r - 7).abs()) * 100 + dl;
            let closeness = |w: i32| -> i32 { (w * (1400 + lv_span - d) + 100) / 200 };
            let file_closeness = (7 - (2 * f - 7).abs()) / 2;
            edge[i] = d / 100;
            for color in Color::ALL {
                // The same cell seen from this side: its rank and level counted from its own home.
                let (own_rank, home_l, promo_l) = match color {
                    Color::White => (r, home[0], home[1]),
                    Color::Black => (7 - r, home[1], home[0]),
                };
                #[allow(clippy::cast_possible_wrap, clippy::cast_possible_truncation)]
                let (l_from_home, l_to_promo) = ((l - home_l as i32).abs(), (promo_l as i32 - l).abs());
                let needed =
                    if p.promo_any_level || levels == 1 { 7 - own_rank } else { (7 - own_rank).max(l_to_promo) };
                let steps = (6 - needed).max(0);
                progress[color.index()][i] = steps;
                for role in Role::ALL {
                    let k = (color.index() * 6 + role.index()) * cells + i;
                    let (m, e) = match role {
                        Role::Pawn => {
                            let adv = p.pawn_advance * steps + p.pawn_advance2 * steps * steps;
                            (p.value[0] + adv + p.center[0] * file_closeness, p.value[0] + adv)
                        }
                        Role::King => (-p.king_home * (own_rank + l_from_home), closeness(p.king_center)),
                        _ => {
                            let c = closeness(p.center[role.index()]);
                            (p.value[role.index()] + c, p.value[role.index()] + c)
                        }
                    };
                    mg[k] = m;
                    eg[k] = e;
                }
            }
        }
        Evaluator { mg, eg, cells, progress, edge, p: p.clone() }
    }

    /// Material value of a role (0 for the king).
    #[inline]
    pub(crate) fn value(&self, r: Role) -> i32 {
        self.p.value.get(r.index()).copied().unwrap_or(0)
    }

    /// Evaluates `pos` for the side to move.
    pub(crate) fn eval<P: Position>(&self, pos: &P) -> Eval {
        let mut mg = [0i32; 2];
        let mut eg = [0i32; 2];
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
            let k = (ci * 6 + role.index()) * self.cells + c.index();
            mg[ci] += self.mg[k];
            eg[ci] += self.eg[k];
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
        let us = pos.turn();
        if count == 2 || (count == 3 && minors == 1) {
            return Eval { score: 0, pieces };
        }
        // Passed pawns: no enemy pawn ahead on the same or an adjacent file, on any level.
        for ci in 0..2 {
            for &idx in &pawns[ci][..npawns[ci]] {
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
                    eg[ci] += self.p.passed * self.progress[ci][usize::from(idx)];
                }
            }
        }
        for ci in 0..2 {
            if bishops[ci] >= 2 {
                mg[ci] += self.p.bishop_pair;
                eg[ci] += self.p.bishop_pair;
            }
        }
        if self.p.tropism != 0 {
            for ci in 0..2 {
                let k = kings[1 - ci];
                for &idx in &officers[ci][..nofficers[ci].min(16)] {
                    let c = Cell::from_index(usize::from(idx));
                    let dist =
                        c.file().abs_diff(k.file()).max(c.rank().abs_diff(k.rank())).max(c.level().abs_diff(k.level()));
                    #[allow(clippy::cast_possible_truncation, clippy::cast_possible_wrap)]
                    let near = 7 - dist.min(7) as i32;
                    mg[ci] += self.p.tropism * near;
                }
            }
        }
        // Mop-up: drive the bare king to the edge and bring ours near.
        for ci in 0..2 {
            let them = 1 - ci;
            if npawns[them] == 0 && material[ci] - material[them] >= self.p.value[3] {
                let (a, b) = (kings[ci], kings[them]);
                let dist =
                    a.file().abs_diff(b.file()).max(a.rank().abs_diff(b.rank())).max(a.level().abs_diff(b.level()));
                #[allow(clippy::cast_possible_truncation, clippy::cast_possible_wrap)]
                let near = 7 - dist.min(7) as i32;
                eg[ci] += self.p.mopup * self.edge[b.index()] + self.p.mopup_kings * near;
            }
        }
        let ph = phase.min(PHASE_MAX);
        let w = |i: usize| (mg[i] * ph + eg[i] * (PHASE_MAX - ph)) / PHASE_MAX;
        let mut score = w(us.index()) - w(1 - us.index()) + self.p.tempo;
        if self.p.mobility != 0 && !pos.is_check() {
            #[allow(clippy::cast_possible_wrap, clippy::cast_possible_truncation)]
            let ours = pos.count_legal_moves() as i32;
            let mut other = pos.clone();
            other.play_null();
            #[allow(clippy::cast_possible_wrap, clippy::cast_possible_truncation)]
            let theirs = other.count_legal_moves() as i32;
            score += self.p.mobility * (ours - theirs);
        }
        Eval { score, pieces }
    }
}

/// The static evaluation of `pos` for the side to move, in centipawns (builds the tables each call:
/// for tools and tests, not for a search loop).
#[must_use]
pub fn evaluate<P: Position>(pos: &P, params: &EvalParams) -> i32 {
    Evaluator::new::<P>(pos.rules(), params).eval(pos).score
}
