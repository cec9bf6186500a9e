//! The position type: bitboards by colour and role, plus the LFEN state.

use crate::sink::Within;
use crate::{Placement, Tables};
use stackchess_core::{Castling, Color, DrawRules, LfenError, Move, MoveKind, MoveList, Piece, Position, Role, Rules};
use stackchess_geometry::{Bitboard, Cell};
use std::fmt;

/// A position on `L` levels, played under the rule set whose tables it points to.
#[derive(Clone, Copy)]
pub struct Board<const L: usize> {
    pub(crate) t: &'static Tables<L>,
    pub(crate) placed: Placement<L>,
    pub(crate) turn: Color,
    pub(crate) castling: Castling,
    /// En-passant cell and the pawn a capture there removes.
    pub(crate) ep: Option<(Cell, Cell)>,
    pub(crate) halfmove: u32,
    pub(crate) fullmove: u32,
    pub(crate) hash: u64,
}

impl<const L: usize> PartialEq for Board<L> {
    fn eq(&self, o: &Self) -> bool {
        self.placed == o.placed
            && self.turn == o.turn
            && self.castling == o.castling
            && self.ep == o.ep
            && self.halfmove == o.halfmove
            && self.fullmove == o.fullmove
            && self.hash == o.hash
    }
}
impl<const L: usize> Eq for Board<L> {}

impl<const L: usize> fmt::Debug for Board<L> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.to_lfen())
    }
}

impl<const L: usize> Board<L> {
    /// An empty board, White to move.
    pub(crate) fn empty(t: &'static Tables<L>) -> Self {
        Board {
            t,
            placed: Placement::EMPTY,
            turn: Color::White,
            castling: Castling::NONE,
            ep: None,
            halfmove: 0,
            fullmove: 1,
            hash: 0,
        }
    }

    /// The tables of this variant.
    #[must_use]
    pub fn tables(&self) -> &'static Tables<L> {
        self.t
    }

    /// All pieces.
    #[inline]
    #[must_use]
    pub fn occupied(&self) -> Bitboard<L> {
        self.placed.occupied()
    }

    /// The pieces of a colour.
    #[inline]
    #[must_use]
    pub fn ours(&self, c: Color) -> Bitboard<L> {
        self.placed.by_color[c]
    }

    /// The pieces of a colour and role.
    #[inline]
    #[must_use]
    pub fn pieces(&self, c: Color, r: Role) -> Bitboard<L> {
        self.placed.pieces(c, r)
    }

    /// The king of a colour (positions always have one).
    #[inline]
    pub(crate) fn king(&self, c: Color) -> Cell {
        self.pieces(c, Role::King).first().unwrap_or(Cell::from_index(0))
    }

    #[inline]
    pub(crate) fn role_at(&self, c: Cell) -> Option<Role> {
        self.placed.role_at(c)
    }

    #[inline]
    pub(crate) fn put(&mut self, c: Cell, p: Piece) {
        self.placed.insert(c, p);
        self.hash ^= self.t.zobrist.piece(p.color, p.role, c);
    }

    #[inline]
    pub(crate) fn take(&mut self, c: Cell, p: Piece) {
        self.placed.remove(c, p);
        self.hash ^= self.t.zobrist.piece(p.color, p.role, c);
    }

    /// Whether the en-passant cell can be captured by a pawn of the side to move (it then counts for repetition).
    pub(crate) fn ep_capturable(&self) -> bool {
        self.ep
            .is_some_and(|(e, _)| self.t.pawns.attackers[self.turn][e].intersects(self.pieces(self.turn, Role::Pawn)))
    }

    /// The hash of the state beyond placement.
    pub(crate) fn state_hash(&self) -> u64 {
        let z = &self.t.zobrist;
        let mut h = z.castle[usize::from(self.castling.0)];
        if self.turn == Color::Black {
            h ^= z.side;
        }
        if self.ep_capturable() {
            h ^= z.ep[self.ep.expect("capturable").0];
        }
        h
    }

    /// The hash computed from scratch (the incremental one must equal it).
    #[must_use]
    pub fn hash_from_scratch(&self) -> u64 {
        let mut h = self.state_hash();
        self.for_each_piece(|c, p| h ^= self.t.zobrist.piece(p.color, p.role, c));
        h
    }

    /// Promotion roles the side `c` may choose now.
    pub(crate) fn promotion_roles(&self, c: Color) -> impl Iterator<Item = Role> + '_ {
        let lost_only = self.t.pawns.promote_lost;
        Role::PROMOTIONS
            .into_iter()
            .filter(move |r| !lost_only || self.pieces(c, *r).count() < self.t.start_counts[c][*r])
    }
}

impl<const L: usize> Rules for &'static Tables<L> {
    type Position = Board<L>;

    fn name(self) -> &'static str {
        self.name
    }

    fn id(self) -> &'static str {
        self.id
    }

    fn startpos(self) -> Board<L> {
        crate::lfen::parse(self, &self.start).expect("the start position was checked when the rules were compiled")
    }

    fn from_lfen(self, lfen: &str) -> Result<Board<L>, LfenError> {
        crate::lfen::parse(self, lfen)
    }

    fn draws(self) -> DrawRules {
        self.draws
    }

    fn pawn_moves_reversible(self) -> bool {
        self.pawn_moves_reversible
    }
}

impl<const L: usize> Position for Board<L> {
    const LEVELS: usize = L;
    type Rules = &'static Tables<L>;
    type Cells = Bitboard<L>;

    fn rules(&self) -> &'static Tables<L> {
        self.t
    }

    fn turn(&self) -> Color {
        self.turn
    }

    fn piece_at(&self, c: Cell) -> Option<Piece> {
        self.placed.piece_at(c)
    }

    fn for_each_piece<F: FnMut(Cell, Piece)>(&self, f: F) {
        self.placed.for_each_piece(f);
    }

    fn castling(&self) -> Castling {
        self.castling
    }

    fn ep_cell(&self) -> Option<Cell> {
        self.ep.map(|e| e.0)
    }

    fn halfmove_clock(&self) -> u32 {
        self.halfmove
    }

    fn fullmove_number(&self) -> u32 {
        self.fullmove
    }

    fn hash(&self) -> u64 {
        self.hash
    }

    fn is_check(&self) -> bool {
        let us = self.turn;
        self.is_attacked(self.king(us), us.other(), self.occupied())
    }

    fn attacks(&self, c: Cell) -> Bitboard<L> {
        match self.placed.piece_at(c) {
            None => Bitboard::EMPTY,
            Some(p) if p.role == Role::Pawn => self.t.pawns.captures[p.color][c],
            Some(p) if self.t.pieces.planar => self.piece_attacks::<true>(p.role, c, self.occupied()),
            Some(p) => self.piece_attacks::<false>(p.role, c, self.occupied()),
        }
    }

    fn may_capture_on(&self, c: Cell) -> bool {
        self.is_attacked(c, self.turn, self.occupied())
    }

    fn pieces_of(&self, color: Color) -> Bitboard<L> {
        self.placed.by_color[color]
    }

    fn pieces(&self, color: Color, role: Role) -> Bitboard<L> {
        Board::pieces(self, color, role)
    }

    fn legal_moves(&self, moves: &mut MoveList) {
        self.generate(moves);
    }

    fn legal_moves_to(&self, target: Cell, moves: &mut MoveList) {
        self.generate(&mut Within { list: moves, keep: Bitboard::from_cell(target) });
    }

    fn legal_captures(&self, moves: &mut MoveList) {
        let theirs = self.placed.by_color[self.turn.other()];
        let mut keep = theirs | self.t.pawns.promo[self.turn];
        if let Some((e, _)) = self.ep {
            keep.insert(e);
        }
        let mut all = MoveList::new();
        self.generate(&mut Within { list: &mut all, keep });
        // Moves into the promotion zone that neither capture nor promote are left out.
        let takes = |m: &Move| m.promotion().is_some() || m.kind() == MoveKind::EnPassant || theirs.has(m.to());
        moves.extend(all.into_iter().filter(takes));
    }

    fn count_legal_moves(&self) -> usize {
        let mut n = crate::sink::Tally::default();
        self.generate(&mut n);
        n.total()
    }

    fn play_unchecked(&mut self, m: Move) {
        let t = self.t;
        let us = self.turn;
        let them = us.other();
        self.hash ^= self.state_hash();
        let role = self.role_at(m.from()).unwrap_or(Role::Pawn);
        let mover = Piece { color: us, role };
        let mut reset_clock = role == Role::Pawn;
        match m.kind() {
            MoveKind::EnPassant => {
                let (_, victim) = self.ep.unwrap_or((m.to(), m.to()));
                self.take(victim, Piece { color: them, role: Role::Pawn });
            }
            MoveKind::Castle => {
                let long = m.to().file() < m.from().file();
                if let Some(cm) = t.castles.get(us, long) {
                    let rook = Piece { color: us, role: Role::Rook };
                    self.take(cm.rook_from, rook);
                    self.put(cm.rook_to, rook);
                }
            }
            kind => {
                if self.placed.by_color[them].has(m.to()) {
                    let r = self.role_at(m.to()).unwrap_or(Role::Pawn);
                    self.take(m.to(), Piece { color: them, role: r });
                    reset_clock = true;
                }
                // A transfer that captured on its transfer cell and went on (capture-ends-move
                // off) captures there too; a knight's transfer passes over its cell.
                if kind == MoveKind::Transfer && role != Role::Knight {
                    let via = Cell::from_index(m.to().level() * 64 + m.from().plane());
                    if via != m.to() {
                        if let Some(r) = self.placed.piece_at(via).filter(|p| p.color == them).map(|p| p.role) {
                            self.take(via, Piece { color: them, role: r });
                            self.castling.0 &= !t.castles.clear[via];
                            reset_clock = true;
                        }
                    }
                }
            }
        }
        self.take(m.from(), mover);
        self.put(m.to(), Piece { color: us, role: m.promotion().unwrap_or(role) });
        self.castling.0 &= !(t.castles.clear[m.from()] | t.castles.clear[m.to()]);
        self.ep = (m.kind() == MoveKind::DoubleStep && t.pawns.en_passant).then(|| {
            let (a, b) = (m.from(), m.to());
            let mid = Cell::from_index((a.index() + b.index()) / 2);
            (mid, b)
        });
        self.halfmove = if reset_clock { 0 } else { self.halfmove + 1 };
        if us == Color::Black {
            self.fullmove += 1;
        }
        self.turn = them;
        self.hash ^= self.state_hash();
    }

    fn play_null(&mut self) {
        self.hash ^= self.state_hash();
        self.ep = None;
        self.turn = self.turn.other();
        self.halfmove += 1;
        self.hash ^= self.state_hash();
    }
}
