//! Move generation by walking direction vectors one step at a time, legality by
//! make-and-test, attacks by brute force over the attacker's pseudo-moves.
//!
//! Everything here follows docs/rule-files.md: the `[pieces]` groups and ranges, the `[pawn]`
//! vectors and knobs, castling, and the five steps of a transfer.

use crate::board::{Cell, Color, Kind, Piece, Position, Vec3};
use crate::rules::{right_color, Policy, Rules, PROMOTIONS};

/// What a move does besides moving one piece from `from` to `to` and removing what it captures.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Special {
    None,
    /// Pawn double step; the payload is the cell passed over.
    DoubleStep(Cell),
    /// En-passant capture (the captured pawn is in `captured`).
    EnPassant,
    /// Castling; the payload is the rook's from and to cells.
    Castle(Cell, Cell),
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Move {
    pub from: Cell,
    pub to: Cell,
    pub promo: Option<Kind>,
    /// The cells whose enemy pieces the move removes: the transfer cell (a capture on T that
    /// goes on), `to`, or the pawn taken en passant.
    pub captured: [Option<Cell>; 2],
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

    pub fn is_capture(&self) -> bool {
        self.captured.iter().any(Option::is_some)
    }

    /// The identity of a move in notation: from, to and promotion.
    fn key(&self) -> (Cell, Cell, Option<char>) {
        (self.from, self.to, self.promo.map(Kind::letter))
    }
}

/// White-oriented pawn vector turned to `color`'s point of view (Black negates drank and dlevel).
fn orient(d: Vec3, color: Color) -> Vec3 {
    let f = color.forward();
    (d.0, d.1 * f, d.2 * f)
}

/// A range after a transfer: a range above 1 is cut to `keep`, a range of 1 stays 1.
fn cut(range: u32, keep: u32) -> u32 {
    if range > 1 {
        range.min(keep)
    } else {
        range
    }
}

/// Generation context: one side's pseudo-moves into `out`.
struct Gen<'a> {
    rules: &'a Rules,
    pos: &'a Position,
    color: Color,
    /// Attack mode (doc "Attack"): every move that could capture, whatever else would make it
    /// illegal (the promotion pool, a pawn's first rank); no castling, no en passant.
    geometric: bool,
    out: &'a mut Vec<Move>,
}

impl Gen<'_> {
    fn is_enemy(&self, c: Cell) -> bool {
        matches!(self.pos.get(c), Some(p) if p.color != self.color)
    }

    /// A move of a piece other than a pawn to `to`; `before` is a capture on the transfer cell.
    fn add(&mut self, from: Cell, to: Cell, before: Option<Cell>) {
        let here = self.is_enemy(to).then_some(to);
        self.out.push(Move { from, to, promo: None, captured: [before, here], special: Special::None });
    }

    /// A pawn move to `to`: one move per promotion kind allowed when `to` is in the zone.
    fn add_pawn(&mut self, from: Cell, to: Cell, captured: [Option<Cell>; 2], special: Special) {
        // A pawn may not stand on its own first rank: such a move is not made (it still attacks).
        if !self.geometric && to.y == Rules::back_rank(self.color) {
            return;
        }
        if !self.rules.is_promotion_cell(self.color, to) {
            self.out.push(Move { from, to, promo: None, captured, special });
            return;
        }
        for kind in PROMOTIONS {
            if self.geometric || self.rules.pawn.policy == Policy::Any || self.pool(kind) > 0 {
                self.out.push(Move { from, to, promo: Some(kind), captured, special });
            }
        }
    }

    /// Promotion `"lost"`: the start count of the kind in the mover's army minus the number of
    /// its pieces of that kind on the board now.
    fn pool(&self, kind: Kind) -> usize {
        let start = self.rules.start_count(self.color, kind);
        start.saturating_sub(self.pos.count(self.color, kind))
    }

    /// Walks from `start` along `d` for up to `range` vectors: `start + k·d` is reachable when
    /// every cell before it on the line is empty; it may be empty or hold an enemy (captured).
    /// `before` is a capture already made on the transfer cell.
    fn line(&mut self, from: Cell, start: Cell, d: Vec3, range: u32, before: Option<Cell>) {
        for k in 1..=range as i32 {
            let t = start.step(d, k);
            if !self.pos.on_board(t) {
                break;
            }
            match self.pos.get(t) {
                None => self.add(from, t, before),
                Some(p) => {
                    if p.color != self.color {
                        self.add(from, t, before);
                    }
                    break;
                }
            }
        }
    }

    /// All pseudo-moves of the piece on `from`: normal moves, then transfers.
    fn piece(&mut self, from: Cell, kind: Kind) {
        if kind == Kind::Pawn {
            self.pawn(from);
        } else {
            for &(group, range) in self.rules.movement(kind) {
                for &d in group.vectors() {
                    self.line(from, from, d, range, None);
                }
            }
        }
        if self.rules.transfer.enabled {
            for dz in [1, -1] {
                let t = Cell::new(from.x, from.y, from.z + dz);
                if self.pos.on_board(t) {
                    self.transfer(from, kind, t);
                }
            }
        }
    }

    /// A pawn's normal moves: steps, the double step, captures, en passant.
    fn pawn(&mut self, from: Cell) {
        let rules = self.rules;
        let color = self.color;
        for &s in &rules.pawn.steps {
            let s = orient(s, color);
            let t = from.step(s, 1);
            if !self.pos.is_empty(t) {
                continue;
            }
            self.add_pawn(from, t, [None, None], Special::None);
            let t2 = from.step(s, 2);
            if rules.pawn.double_step && rules.is_home_rank(color, from) && self.pos.is_empty(t2) {
                self.add_pawn(from, t2, [None, None], Special::DoubleStep(t));
            }
        }
        for &c in &rules.pawn.captures {
            let t = from.step(orient(c, color), 1);
            if self.is_enemy(t) {
                self.add_pawn(from, t, [None, Some(t)], Special::None);
            } else if !self.geometric && self.pos.side == color {
                if let Some((ep, victim)) = self.pos.ep {
                    if ep == t && self.pos.get(t).is_none() {
                        self.add_pawn(from, t, [None, Some(victim)], Special::EnPassant);
                    }
                }
            }
        }
    }

    /// A transfer through `t`, the cell straight above or below `from` (doc `[transfer]`).
    fn transfer(&mut self, from: Cell, kind: Kind, t: Cell) {
        let tr = &self.rules.transfer;
        if kind == Kind::Knight {
            // Steps 2-4 for the knight: with knight-over-occupied it ignores what stands on T,
            // otherwise T must be empty; it never stops on T and never captures there.
            if self.pos.get(t).is_some() && !tr.knight_over_occupied {
                return;
            }
            self.go_on(from, kind, t, None);
            return;
        }
        match self.pos.get(t) {
            // Step 2: an own piece on T forbids the transfer.
            Some(p) if p.color == self.color => {}
            // Step 3: an enemy on T is captured; the move ends there, or may go on.
            Some(_) => {
                self.stop_on_t(from, kind, t);
                if !tr.capture_ends_move {
                    self.go_on(from, kind, t, Some(t));
                }
            }
            // Step 4: from an empty T the piece may stop, or go on.
            None => {
                self.stop_on_t(from, kind, t);
                self.go_on(from, kind, t, None);
            }
        }
    }

    /// The transfer that ends on T (capturing what stands there, if anything).
    fn stop_on_t(&mut self, from: Cell, kind: Kind, t: Cell) {
        if kind == Kind::Pawn {
            let here = self.is_enemy(t).then_some(t);
            self.add_pawn(from, t, [None, here], Special::None);
        } else {
            self.add(from, t, None);
        }
    }

    /// Step 4: the piece goes on from T on T's level (T itself not counted). `before` is the
    /// capture made on T, if any.
    fn go_on(&mut self, from: Cell, kind: Kind, t: Cell, before: Option<Cell>) {
        let rules = self.rules;
        let keep = rules.transfer.range;
        match kind {
            // The king: its own groups with their own ranges.
            Kind::King => {
                for &(group, range) in rules.movement(kind) {
                    for &d in group.vectors() {
                        self.line(from, t, d, range, before);
                    }
                }
            }
            // The queen, rook, bishop and knight: their own groups, each range above 1 cut to
            // `range` (a group cut to 0 is dropped; a range of 1 stays 1).
            Kind::Queen | Kind::Rook | Kind::Bishop | Kind::Knight => {
                for &(group, range) in rules.movement(kind) {
                    let range = cut(range, keep);
                    for &d in group.vectors() {
                        self.line(from, t, d, range, before);
                    }
                }
            }
            // A pawn in home position: one step to an empty cell or one capture, never a double
            // step (and no en passant); any other pawn stops on T.
            Kind::Pawn => {
                if !rules.is_home_rank(self.color, from) {
                    return;
                }
                for &s in &rules.pawn.steps {
                    let dest = t.step(orient(s, self.color), 1);
                    if self.pos.is_empty(dest) {
                        self.add_pawn(from, dest, [before, None], Special::None);
                    }
                }
                for &c in &rules.pawn.captures {
                    let dest = t.step(orient(c, self.color), 1);
                    if self.is_enemy(dest) {
                        self.add_pawn(from, dest, [before, Some(dest)], Special::None);
                    }
                }
            }
        }
    }

    /// Castling (doc "Castling", FIDE geometry on the back rank of the home level); only for
    /// the side to move, never in attack mode. The king's safety after castling is tested with
    /// every other move's.
    fn castling(&mut self) {
        let rules = self.rules;
        let pos = self.pos;
        let color = self.color;
        if !rules.castling {
            return;
        }
        let king_from = rules.king_home(color);
        if pos.get(king_from) != Some(Piece::new(color, Kind::King)) {
            return;
        }
        let base = if color == Color::White { 0 } else { 2 };
        for i in [base, base + 1] {
            if !pos.castling[i] {
                continue;
            }
            let rook_from = rules.rook_home(i);
            if pos.get(rook_from) != Some(Piece::new(color, Kind::Rook)) {
                continue;
            }
            let at = |x: i32| Cell::new(x, king_from.y, king_from.z);
            // Short: king e → g, rook h → f, f and g empty, f crossed. Long: king e → c,
            // rook a → d, b, c and d empty, d crossed.
            let (between, cross, king_to, rook_to): (&[i32], i32, i32, i32) =
                if i % 2 == 0 { (&[5, 6], 5, 6, 5) } else { (&[1, 2, 3], 3, 2, 3) };
            if between.iter().any(|&x| pos.get(at(x)).is_some()) {
                continue;
            }
            let enemy = color.other();
            if attacked(rules, pos, king_from, enemy) || attacked(rules, pos, at(cross), enemy) {
                continue;
            }
            self.out.push(Move {
                from: king_from,
                to: at(king_to),
                promo: None,
                captured: [None, None],
                special: Special::Castle(rook_from, at(rook_to)),
            });
        }
    }
}

/// Whether `by` attacks `cell` (doc "Attack"): some pseudo-move of `by`, normal or transfer,
/// could capture a piece standing there. An empty cell is tested with a piece of the other
/// side put on it.
pub fn attacked(rules: &Rules, pos: &Position, cell: Cell, by: Color) -> bool {
    if !pos.on_board(cell) {
        return false;
    }
    if pos.get(cell).is_none() {
        let mut probe = pos.clone();
        probe.set(cell, Some(Piece::new(by.other(), Kind::King)));
        return attacked(rules, &probe, cell, by);
    }
    let mut buf = Vec::with_capacity(64);
    for (from, p) in pos.pieces() {
        if p.color == by {
            buf.clear();
            Gen { rules, pos, color: by, geometric: true, out: &mut buf }.piece(from, p.kind);
            if buf.iter().any(|m| m.captured.contains(&Some(cell))) {
                return true;
            }
        }
    }
    false
}

/// Whether `color`'s king is attacked (false without a king).
pub fn king_attacked(rules: &Rules, pos: &Position, color: Color) -> bool {
    pos.find_king(color).is_some_and(|k| attacked(rules, pos, k, color.other()))
}

/// The position after `m` (assumed generated for `pos`).
pub fn make(rules: &Rules, pos: &Position, m: &Move) -> Position {
    let mut next = pos.clone();
    let Some(piece) = pos.get(m.from) else {
        return next;
    };
    for c in m.captured.iter().flatten() {
        next.set(*c, None);
    }
    if let Special::Castle(rook_from, rook_to) = m.special {
        let rook = next.get(rook_from);
        next.set(rook_from, None);
        next.set(rook_to, rook);
    }
    next.set(m.from, None);
    next.set(m.to, Some(Piece::new(piece.color, m.promo.unwrap_or(piece.kind))));
    // A right lives while its king and rook stand unmoved on their cells: any move of either
    // (transfers and castling included) or a capture of the rook leaves a cell without them.
    for i in 0..4 {
        let color = right_color(i);
        let king_there = next.get(rules.king_home(color)) == Some(Piece::new(color, Kind::King));
        let rook_there = next.get(rules.rook_home(i)) == Some(Piece::new(color, Kind::Rook));
        let king_moved = piece == Piece::new(color, Kind::King);
        next.castling[i] = pos.castling[i] && king_there && rook_there && !king_moved;
    }
    next.ep = match m.special {
        Special::DoubleStep(mid) if rules.pawn.en_passant => Some((mid, m.to)),
        _ => None,
    };
    next.halfmove = if piece.kind == Kind::Pawn || m.is_capture() { 0 } else { pos.halfmove.saturating_add(1) };
    if pos.side == Color::Black {
        next.fullmove = pos.fullmove.saturating_add(1);
    }
    next.side = pos.side.other();
    next
}

/// Legal moves of the side to move: pseudo-moves that do not leave its king attacked, one per
/// notation (when two moves share one, the double step, which makes an en-passant cell, is kept).
pub fn legal_moves(rules: &Rules, pos: &Position) -> Vec<Move> {
    let mut moves = Vec::new();
    for (from, p) in pos.pieces() {
        if p.color == pos.side {
            Gen { rules, pos, color: pos.side, geometric: false, out: &mut moves }.piece(from, p.kind);
        }
    }
    Gen { rules, pos, color: pos.side, geometric: false, out: &mut moves }.castling();
    moves.retain(|m| !king_attacked(rules, &make(rules, pos, m), pos.side));
    moves.sort_by_key(|m| (m.key(), !matches!(m.special, Special::DoubleStep(_))));
    moves.dedup_by_key(|m| m.key());
    moves
}

/// Leaf count of the legal move tree to `depth`.
pub fn perft(rules: &Rules, pos: &Position, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let moves = legal_moves(rules, pos);
    if depth == 1 {
        return moves.len() as u64;
    }
    moves.iter().map(|m| perft(rules, &make(rules, pos, m), depth - 1)).sum()
}
