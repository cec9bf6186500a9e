//! The first layer's sums for both sides, kept up to date by adding and removing the inputs of
//! the pieces a move changes.

use crate::features::Features;
use crate::net::{Net, QA, QB, SCALE};
use stackchess_core::{CellSet, Color, Piece, Position, Role};

/// The first layer's sums: White's side's `hidden` neurons, then Black's.
#[derive(Debug, PartialEq, Eq)]
pub struct Accumulator {
    pub(crate) v: Vec<i16>,
}

impl Clone for Accumulator {
    fn clone(&self) -> Self {
        Accumulator { v: self.v.clone() }
    }

    /// Copies into the buffer already there (the search does this a node: no allocation).
    fn clone_from(&mut self, source: &Self) {
        self.v.clone_from(&source.v);
    }
}

/// Each colour's pieces by role: what [`Accumulator::update`] compares.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Pieces<C: CellSet>(pub [C; 12]);

impl<C: CellSet> Pieces<C> {
    /// The pieces of `pos`.
    pub fn of<P: Position<Cells = C>>(pos: &P) -> Pieces<C> {
        Pieces(std::array::from_fn(|k| pos.pieces(Color::ALL[k / 6], Role::ALL[k % 6])))
    }
}

impl Accumulator {
    /// The biases alone (no input on).
    #[must_use]
    pub fn new(net: &Net) -> Accumulator {
        let mut v = net.b1.clone();
        v.extend_from_slice(&net.b1);
        Accumulator { v }
    }

    /// Adds input `white` on White's side and `black` on Black's.
    #[inline]
    pub fn add(&mut self, net: &Net, white: usize, black: usize) {
        let (w, b) = self.v.split_at_mut(net.hidden);
        for (a, x) in w.iter_mut().zip(net.row(white)) {
            *a = a.wrapping_add(*x);
        }
        for (a, x) in b.iter_mut().zip(net.row(black)) {
            *a = a.wrapping_add(*x);
        }
    }

    /// Removes input `white` on White's side and `black` on Black's.
    #[inline]
    pub fn sub(&mut self, net: &Net, white: usize, black: usize) {
        let (w, b) = self.v.split_at_mut(net.hidden);
        for (a, x) in w.iter_mut().zip(net.row(white)) {
            *a = a.wrapping_sub(*x);
        }
        for (a, x) in b.iter_mut().zip(net.row(black)) {
            *a = a.wrapping_sub(*x);
        }
    }

    /// Turns the accumulator of the pieces `from` into that of the pieces `to`: every piece that
    /// left a cell is removed and every piece that came is added (a move, a capture, a promotion,
    /// castling, en passant, a transfer between levels, or several moves at once).
    pub fn update<C: CellSet>(&mut self, net: &Net, features: &Features, from: &Pieces<C>, to: &Pieces<C>) {
        for k in 0..12 {
            let changed = from.0[k] ^ to.0[k];
            if changed.is_empty() {
                continue;
            }
            let piece = Piece { color: Color::ALL[k / 6], role: Role::ALL[k % 6] };
            (changed & from.0[k]).for_each(|c| {
                let i = c.index();
                self.sub(net, features.index(Color::White, piece, i), features.index(Color::Black, piece, i));
            });
            (changed & to.0[k]).for_each(|c| {
                let i = c.index();
                self.add(net, features.index(Color::White, piece, i), features.index(Color::Black, piece, i));
            });
        }
    }
}

/// The net read through an accumulator: a position's accumulator from scratch, and the
/// evaluation from one (here, beside the accumulator, so that the net's own file needs none).
impl Net {
    /// The evaluation in centipawns for the side to move, from the accumulator (`white_to_move`
    /// says which of its halves is the mover's).
    #[must_use]
    pub fn evaluate(&self, acc: &Accumulator, white_to_move: bool) -> i32 {
        let (white, black) = acc.v.split_at(self.hidden);
        let (us, them) = if white_to_move { (white, black) } else { (black, white) };
        let (w_us, w_them) = self.w2.split_at(self.hidden);
        let sum = screlu_dot(us, w_us) + screlu_dot(them, w_them);
        let out = sum / i64::from(QA) + i64::from(self.b2);
        (out * i64::from(SCALE) / i64::from(QA * QB)) as i32
    }

    /// The accumulator of `pos` from scratch.
    #[must_use]
    pub fn refresh<P: stackchess_core::Position>(&self, features: &Features, pos: &P) -> Accumulator {
        let mut acc = Accumulator::new(self);
        features.active(pos, |w, b| acc.add(self, w, b));
        acc
    }
}

/// `Σ clamp(a, 0, QA)² · w`: each product first as `clamp · w` (at most 255 · 32767, in i32), then
/// times `clamp` and summed in i64.
#[inline]
fn screlu_dot(a: &[i16], w: &[i16]) -> i64 {
    a.iter()
        .zip(w)
        .map(|(&a, &w)| {
            let c = i32::from(a).clamp(0, QA);
            i64::from(c * i32::from(w)) * i64::from(c)
        })
        .sum()
}
