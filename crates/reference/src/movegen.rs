//! Move generation by walking direction vectors one step at a time, legality by
//! make-and-test, attacks by brute force over the attacker's pseudo-moves.

use crate::board::{right_color, Cell, Color, Kind, Piece, Position, Variant, Vec3};

/// Rook: orthogonal in plane (4), vertical (2), orthogonal slant (8). RULES §1.2.
pub const ROOK: [Vec3; 14] = [
    (1, 0, 0),
    (-1, 0, 0),
    (0, 1, 0),
    (0, -1, 0),
    (0, 0, 1),
    (0, 0, -1),
    (1, 0, 1),
    (1, 0, -1),
    (-1, 0, 1),
    (-1, 0, -1),
    (0, 1, 1),
    (0, 1, -1),
    (0, -1, 1),
    (0, -1, -1),
];

/// Bishop: diagonal in plane (4), triagonal (8). RULES §1.2.
pub const BISHOP: [Vec3; 12] = [
    (1, 1, 0),
    (1, -1, 0),
    (-1, 1, 0),
    (-1, -1, 0),
    (1, 1, 1),
    (1, 1, -1),
    (1, -1, 1),
    (1, -1, -1),
    (-1, 1, 1),
    (-1, 1, -1),
    (-1, -1, 1),
    (-1, -1, -1),
];

/// Knight: every permutation of (±2, ±1, 0) over the three axes. RULES §1.2.
pub const KNIGHT: [Vec3; 24] = [
    (2, 1, 0),
    (2, -1, 0),
    (-2, 1, 0),
    (-2, -1, 0),
    (1, 2, 0),
    (1, -2, 0),
    (-1, 2, 0),
    (-1, -2, 0),
    (2, 0, 1),
    (2, 0, -1),
    (-2, 0, 1),
    (-2, 0, -1),
    (1, 0, 2),
    (1, 0, -2),
    (-1, 0, 2),
    (-1, 0, -2),
    (0, 2, 1),
    (0, 2, -1),
    (0, -2, 1),
    (0, -2, -1),
    (0, 1, 2),
    (0, 1, -2),
    (0, -1, 2),
    (0, -1, -2),
];

/// Pawn steps for White (§1.4); Black negates drank and dlevel.
const PAWN_STEPS: [Vec3; 3] = [(0, 1, 0), (0, 0, 1), (0, 1, 1)];
/// Pawn captures for White (§1.4); Black negates drank and dlevel.
const PAWN_CAPTURES: [Vec3; 4] = [(1, 1, 0), (-1, 1, 0), (1, 1, 1), (-1, 1, 1)];

/// The promotion choices, in output order.
const PROMOTIONS: [Kind; 4] = [Kind::Queen, Kind::Rook, Kind::Bishop, Kind::Knight];

/// What a move does besides moving one piece from `from` to `to`.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Special {
    None,
    /// Pawn double step; the payload is the en-passant (middle) cell.
    DoubleStep(Cell),
    /// En-passant capture; the payload is the cell of the captured pawn.
    EnPassant(Cell),
    /// Castling; the payload is the rook's from and to cells.
    Castle(Cell, Cell),
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Move {
    pub from: Cell,
    pub to: Cell,
    pub promo: Option<Kind>,
    /// An enemy piece stands on `to`.
    pub capture: bool,
    pub special: Special,
}

impl Move {
    /// Level-prefixed coordinate notation, e.g. `1e21e4`, `2a73a8q`.
    pub fn notation(&self) -> String {
        let mut s = format!("{}{}", self.from, self.to);
        if let Some(k) = self.promo {
            s.push(k.letter());
        }
        s
    }
}

/// White-oriented vector turned to `color`'s point of view.
fn orient(d: Vec3, color: Color) -> Vec3 {
    let f = color.forward();
    (d.0, d.1 * f, d.2 * f)
}

/// Whether a direction is usable in the variant: Air Attack's normal moves stay in the level.
fn usable(variant: Variant, d: Vec3) -> bool {
    !variant.is_air() || d.2 == 0
}

/// Queen and king: all 26 directions (rook + bishop). RULES §1.2.
pub const QUEEN: [Vec3; 26] = [
    (1, 0, 0),
    (-1, 0, 0),
    (0, 1, 0),
    (0, -1, 0),
    (0, 0, 1),
    (0, 0, -1),
    (1, 0, 1),
    (1, 0, -1),
    (-1, 0, 1),
    (-1, 0, -1),
    (0, 1, 1),
    (0, 1, -1),
    (0, -1, 1),
    (0, -1, -1),
    (1, 1, 0),
    (1, -1, 0),
    (-1, 1, 0),
    (-1, -1, 0),
    (1, 1, 1),
    (1, 1, -1),
    (1, -1, 1),
    (1, -1, -1),
    (-1, 1, 1),
    (-1, 1, -1),
    (-1, -1, 1),
    (-1, -1, -1),
];

/// Line directions and maximum range of a non-pawn piece's normal move (before the
/// Air Attack in-level filter, see [`usable`]).
fn lines(variant: Variant, kind: Kind) -> (&'static [Vec3], i32) {
    match kind {
        Kind::Knight => (&KNIGHT, 1),
        Kind::Bishop => (&BISHOP, 8),
        Kind::Rook => (&ROOK, 8),
        Kind::Queen if variant == Variant::Malka => (&QUEEN, 1),
        Kind::Queen => (&QUEEN, 8),
        Kind::King => (&QUEEN, 1),
        Kind::Pawn => (&[], 0),
    }
}

/// Generation context: one side's pseudo-moves into `out`.
struct Gen<'a> {
    pos: &'a Position,
    color: Color,
    /// Attack mode: ignore the Malka promotion pool, skip castling and en passant.
    geometric: bool,
    out: &'a mut Vec<Move>,
}

impl Gen<'_> {
    fn push(&mut self, from: Cell, to: Cell, special: Special) {
        let capture = self.pos.get(to).is_some();
        self.out.push(Move { from, to, promo: None, capture, special });
    }

    /// Walks from `start` along `d` for up to `range` cells, through empty cells only,
    /// stopping on an empty cell or capturing the first enemy; the move starts at `from`.
    fn slide(&mut self, from: Cell, start: Cell, d: Vec3, range: i32) {
        for k in 1..=range {
            let t = start.step(d, k);
            if !self.pos.on_board(t) {
                break;
            }
            match self.pos.get(t) {
                None => self.push(from, t, Special::None),
                Some(p) => {
                    if p.color != self.color {
                        self.push(from, t, Special::None);
                    }
                    break;
                }
            }
        }
    }

    /// A pawn move to `to`, expanded into promotions when `to` is a promotion cell.
    fn push_pawn(&mut self, from: Cell, to: Cell, special: Special) {
        let variant = self.pos.variant;
        if !variant.is_promotion_cell(self.color, to) {
            self.push(from, to, special);
            return;
        }
        let capture = self.pos.get(to).is_some();
        for kind in PROMOTIONS {
            if self.geometric || variant != Variant::Malka || self.malka_pool(kind) > 0 {
                self.out.push(Move { from, to, promo: Some(kind), capture, special });
            }
        }
    }

    /// Malka: start count minus pieces of that kind now on the board (§1.4).
    fn malka_pool(&self, kind: Kind) -> usize {
        let start = match kind {
            Kind::Queen => 1,
            Kind::Rook | Kind::Bishop | Kind::Knight => 2,
            Kind::Pawn | Kind::King => 0,
        };
        let now = self.pos.count(self.color, kind);
        start - now.min(start)
    }

    fn is_enemy(&self, c: Cell) -> bool {
        matches!(self.pos.get(c), Some(p) if p.color != self.color)
    }

    fn is_empty(&self, c: Cell) -> bool {
        self.pos.on_board(c) && self.pos.get(c).is_none()
    }

    /// Normal moves of the piece on `from` (all of §1 or §2.2 (A)).
    fn normal(&mut self, from: Cell, kind: Kind) {
        if kind == Kind::Pawn {
            self.pawn(from);
            return;
        }
        let variant = self.pos.variant;
        let (dirs, range) = lines(variant, kind);
        for &d in dirs.iter().filter(|&&d| usable(variant, d)) {
            self.slide(from, from, d, range);
        }
    }

    fn pawn(&mut self, from: Cell) {
        let variant = self.pos.variant;
        let may_double = variant != Variant::Malka && variant.is_pawn_start(self.color, from);
        for s in PAWN_STEPS {
            let s = orient(s, self.color);
            if !usable(variant, s) {
                continue;
            }
            let t = from.step(s, 1);
            if !self.is_empty(t) {
                continue;
            }
            self.push_pawn(from, t, Special::None);
            let t2 = from.step(s, 2);
            if may_double && self.is_empty(t2) {
                self.push_pawn(from, t2, Special::DoubleStep(t));
            }
        }
        for c in PAWN_CAPTURES {
            let c = orient(c, self.color);
            if !usable(variant, c) {
                continue;
            }
            let t = from.step(c, 1);
            if !self.pos.on_board(t) {
                continue;
            }
            if self.is_enemy(t) {
                self.push_pawn(from, t, Special::None);
            } else if !self.geometric && self.pos.side == self.color {
                if let Some((ep, victim)) = self.pos.ep {
                    if ep == t && self.pos.get(t).is_none() {
                        self.push_pawn(from, t, Special::EnPassant(victim));
                    }
                }
            }
        }
    }

    /// Air Attack transfer moves (§2.2 (B)).
    fn transfer(&mut self, from: Cell, kind: Kind) {
        let variant = self.pos.variant;
        let t = Cell::new(from.x, from.y, 1 - from.z);
        if kind == Kind::Knight {
            // T is ignored: one full knight leap from T on the new level.
            for d in KNIGHT.iter().copied().filter(|&d| usable(variant, d)) {
                let dest = t.step(d, 1);
                if self.is_empty(dest) || self.is_enemy(dest) {
                    self.push(from, dest, Special::None);
                }
            }
            return;
        }
        match self.pos.get(t) {
            Some(p) if p.color == self.color => return,
            Some(_) => {
                // Capture on T ends the move.
                if kind == Kind::Pawn {
                    self.push_pawn(from, t, Special::None);
                } else {
                    self.push(from, t, Special::None);
                }
                return;
            }
            None => {
                if kind == Kind::Pawn {
                    self.push_pawn(from, t, Special::None);
                } else {
                    self.push(from, t, Special::None);
                }
            }
        }
        match kind {
            Kind::Queen | Kind::Rook | Kind::Bishop | Kind::King => {
                // Half range after the transfer: 4 for sliders, the king keeps its one step.
                let range = if kind == Kind::King { 1 } else { 4 };
                let (dirs, _) = lines(variant, kind);
                for &d in dirs.iter().filter(|&&d| usable(variant, d)) {
                    self.slide(from, t, d, range);
                }
            }
            Kind::Pawn if from.z == 0 && variant.is_pawn_start(self.color, from) => {
                let fwd = self.color.forward();
                let step = t.step((0, fwd, 0), 1);
                if self.is_empty(step) {
                    self.push_pawn(from, step, Special::None);
                }
                for dx in [1, -1] {
                    let c = t.step((dx, fwd, 0), 1);
                    if self.is_enemy(c) {
                        self.push_pawn(from, c, Special::None);
                    }
                }
            }
            Kind::Pawn | Kind::Knight => {}
        }
    }

    /// All pseudo-moves of the piece on `from`.
    fn piece(&mut self, from: Cell, kind: Kind) {
        self.normal(from, kind);
        if self.pos.variant.is_air() {
            self.transfer(from, kind);
        }
    }

    /// Castling (§1.5, §0); only for the side to move, never in attack mode.
    fn castling(&mut self) {
        let pos = self.pos;
        let color = self.color;
        let king_from = pos.variant.king_home(color);
        if pos.get(king_from) != Some(Piece::new(color, Kind::King)) {
            return;
        }
        let base = if color == Color::White { 0 } else { 2 };
        for i in [base, base + 1] {
            if !pos.castling[i] {
                continue;
            }
            let rook_from = pos.variant.rook_home(i);
            if pos.get(rook_from) != Some(Piece::new(color, Kind::Rook)) {
                continue;
            }
            let at = |x: i32| Cell::new(x, king_from.y, king_from.z);
            let (between, cross, king_to, rook_to): (&[i32], i32, i32, i32) =
                if i % 2 == 0 { (&[5, 6], 5, 6, 5) } else { (&[1, 2, 3], 3, 2, 3) };
            if between.iter().any(|&x| pos.get(at(x)).is_some()) {
                continue;
            }
            let enemy = color.other();
            if attacked(pos, king_from, enemy) || attacked(pos, at(cross), enemy) {
                continue;
            }
            self.push(king_from, at(king_to), Special::Castle(rook_from, at(rook_to)));
        }
    }
}

/// Pseudo-moves of one piece (`geometric`: attack mode, see [`Gen`]).
fn piece_moves(pos: &Position, from: Cell, piece: Piece, geometric: bool, out: &mut Vec<Move>) {
    let mut g = Gen { pos, color: piece.color, geometric, out };
    g.piece(from, piece.kind);
}

/// Whether `by` attacks `cell` (§0): some pseudo-move of `by`, geometric, could capture a
/// piece standing there. An empty cell is tested with a defender's piece placed on it.
pub fn attacked(pos: &Position, cell: Cell, by: Color) -> bool {
    if !pos.on_board(cell) {
        return false;
    }
    if pos.get(cell).is_none() {
        let mut probe = pos.clone();
        probe.set(cell, Some(Piece::new(by.other(), Kind::King)));
        return attacked(&probe, cell, by);
    }
    let mut buf = Vec::with_capacity(64);
    for from in pos.all_cells() {
        if let Some(p) = pos.get(from) {
            if p.color == by {
                buf.clear();
                piece_moves(pos, from, p, true, &mut buf);
                if buf.iter().any(|m| m.capture && m.to == cell) {
                    return true;
                }
            }
        }
    }
    false
}

/// Whether `color`'s king is attacked (false without a king).
pub fn king_attacked(pos: &Position, color: Color) -> bool {
    pos.find_king(color).is_some_and(|k| attacked(pos, k, color.other()))
}

/// The position after `m` (assumed generated for `pos`).
pub fn make(pos: &Position, m: &Move) -> Position {
    let mut next = pos.clone();
    let Some(piece) = pos.get(m.from) else {
        return next;
    };
    let mut captured = pos.get(m.to).is_some();
    next.set(m.from, None);
    match m.special {
        Special::EnPassant(victim) => {
            next.set(victim, None);
            captured = true;
        }
        Special::Castle(rook_from, rook_to) => {
            let rook = next.get(rook_from);
            next.set(rook_from, None);
            next.set(rook_to, rook);
        }
        Special::None | Special::DoubleStep(_) => {}
    }
    let kind = m.promo.unwrap_or(piece.kind);
    next.set(m.to, Some(Piece::new(piece.color, kind)));
    for i in 0..4 {
        let rook_home = pos.variant.rook_home(i);
        let king_moved = piece.kind == Kind::King && right_color(i) == piece.color;
        if king_moved || m.from == rook_home || m.to == rook_home {
            next.castling[i] = false;
        }
    }
    next.ep = match m.special {
        Special::DoubleStep(mid) => Some((mid, m.to)),
        _ => None,
    };
    next.halfmove = if piece.kind == Kind::Pawn || captured { 0 } else { pos.halfmove.saturating_add(1) };
    if pos.side == Color::Black {
        next.fullmove = pos.fullmove.saturating_add(1);
    }
    next.side = pos.side.other();
    next
}

/// Legal moves of the side to move: pseudo-moves that do not leave its king attacked.
pub fn legal_moves(pos: &Position) -> Vec<Move> {
    let mut moves = Vec::new();
    for from in pos.all_cells() {
        if let Some(p) = pos.get(from) {
            if p.color == pos.side {
                piece_moves(pos, from, p, false, &mut moves);
            }
        }
    }
    Gen { pos, color: pos.side, geometric: false, out: &mut moves }.castling();
    moves.retain(|m| !king_attacked(&make(pos, m), pos.side));
    moves
}

/// Leaf count of the legal move tree to `depth`.
pub fn perft(pos: &Position, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let moves = legal_moves(pos);
    if depth == 1 {
        return moves.len() as u64;
    }
    moves.iter().map(|m| perft(&make(pos, m), depth - 1)).sum()
}
