//! The evaluation as counts: how many times each term occurs in a position. The evaluation is a
//! function of the counts and the parameters alone ([`Trace::score`], exact to the centipawn),
//! which is what `tune` fits.

use super::geometry::Geometry;
use super::walk::{Sink, PHASE_MAX};
use crate::params::t;
use crate::EvalParams;
use stackchess_core::{Color, Role};

/// The counts of the per-cell terms of a piece: `f(term, count)` for each term the piece of side
/// `ci` and role `role` on cell `i` counts in (material, centralisation, king and pawn terms).
pub(crate) fn cell_terms(geo: &Geometry, ci: usize, role: Role, i: usize, mut f: impl FnMut(usize, i32)) {
    let (closeness, level) = (geo.closeness[i], geo.level[i]);
    match role {
        Role::Pawn => {
            let s = geo.progress[ci][i];
            f(t::VALUE, 1);
            f(t::CENTER, geo.file_closeness[i]);
            f(t::PAWN_ADVANCE, s);
            f(t::PAWN_ADVANCE2, s * s);
        }
        Role::King => {
            f(t::KING_HOME, -geo.from_home[ci][i]);
            f(t::KING_CENTER, closeness);
            f(t::KING_CENTER_LEVEL, level);
        }
        _ => {
            let r = role.index();
            f(t::VALUE + r, 1);
            f(t::CENTER + r, closeness);
            f(t::CENTER_LEVEL + r - 1, level);
        }
    }
}

/// A position's evaluation as counts.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Trace {
    /// Per side (White's, then Black's), the count of each tapered term (numbered as
    /// [`crate::params::t`]): each counts with the term's middlegame value in the middlegame sum
    /// and its endgame value in the endgame sum.
    pub counts: [[i32; t::COUNT]; 2],
    /// Per side, the mop-up's counts (edge, kings): endgame only, zero unless it applies.
    pub mopup: [[i32; 2]; 2],
    /// The game phase, 0 to 24.
    pub phase: i32,
    /// The side to move.
    pub turn: Color,
    /// Dead material: the evaluation is 0.
    pub dead: bool,
    /// The drawish-material scale applies.
    pub drawish: bool,
    /// Legal moves of the side to move less the opponent's (0 in check).
    pub mobility: i32,
}

impl Trace {
    /// The evaluation for the side to move with the parameters `p`: each side's sums tapered by
    /// the phase, their difference scaled when drawish, the tempo and the legal-move mobility
    /// added. [`crate::Evaluation::score`] gives the same number.
    #[must_use]
    pub fn score(&self, p: &EvalParams) -> i32 {
        if self.dead {
            return 0;
        }
        let ph = self.phase.min(PHASE_MAX);
        let side = |ci: usize| {
            let c = &self.counts[ci];
            let mg: i32 = c.iter().zip(&p.mg).map(|(n, v)| n * v).sum();
            let eg: i32 = c.iter().zip(&p.eg).map(|(n, v)| n * v).sum::<i32>()
                + self.mopup[ci][0] * p.mopup
                + self.mopup[ci][1] * p.mopup_kings;
            (mg * ph + eg * (PHASE_MAX - ph)) / PHASE_MAX
        };
        let us = self.turn.index();
        let mut diff = side(us) - side(1 - us);
        if self.drawish {
            diff = diff * p.scale_drawish / 64;
        }
        diff + p.tempo + p.mobility * self.mobility
    }

    /// The features of a linear model from White's side, one per key of [`EvalParams::KEYS`]:
    /// `Σ features·values` is White's evaluation before the rounding of the taper, with the
    /// drawish scale left out (it multiplies every part but the tempo and the legal-move
    /// mobility, whose features are the side to move's sign and count).
    #[must_use]
    pub fn features(&self) -> [f64; EvalParams::COUNT] {
        let mut f = [0.0; EvalParams::COUNT];
        if self.dead {
            return f;
        }
        let ph = f64::from(self.phase.min(PHASE_MAX));
        let (wm, we) = (ph / f64::from(PHASE_MAX), 1.0 - ph / f64::from(PHASE_MAX));
        for k in 0..t::COUNT {
            let d = f64::from(self.counts[0][k] - self.counts[1][k]);
            f[EvalParams::index(k, false)] = d * wm;
            f[EvalParams::index(k, true)] = d * we;
        }
        let single = |key| EvalParams::single_index(key).unwrap_or(0);
        f[single("mopup")] = f64::from(self.mopup[0][0] - self.mopup[1][0]) * we;
        f[single("mopup_kings")] = f64::from(self.mopup[0][1] - self.mopup[1][1]) * we;
        let sign = if self.turn == Color::White { 1.0 } else { -1.0 };
        f[single("tempo")] = sign;
        f[single("mobility")] = sign * f64::from(self.mobility);
        f
    }
}

/// The sink that counts.
pub(crate) struct Tracer<'a> {
    pub geo: &'a Geometry,
    pub counts: [[i32; t::COUNT]; 2],
    pub mopup: [[i32; 2]; 2],
}

impl Sink for Tracer<'_> {
    fn piece(&mut self, ci: usize, role: Role, i: usize) {
        let counts = &mut self.counts[ci];
        cell_terms(self.geo, ci, role, i, |k, n| counts[k] += n);
    }
    fn term(&mut self, ci: usize, term: usize, n: i32) {
        self.counts[ci][term] += n;
    }
    fn mopup(&mut self, ci: usize, edge: i32, near: i32) {
        self.mopup[ci][0] += edge;
        self.mopup[ci][1] += near;
    }
}
