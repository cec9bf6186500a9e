//! The position type: bitboards by colour and role, plus the LFEN state.

use crate::tables::{Tables, LEVELS};
use stackchess_core::{
    Castling, Color, DrawRules, LfenError, Move, MoveKind, MoveList, Piece, Placement, Position, Role,
    Rules as RulesHandle,
};
use stackchess_geometry::{Bitboard, Cell};
use std::fmt;

/// Bitboards of a two-level board.
pub(crate) type Bb = Bitboard<LEVELS>;

/// An Air Attack position under the rules whose tables it points to.
#[derive(Clone, Copy)]
pub struct Board {
    pub(crate) t: &'static Tables,
    pub(crate) placed: Placement<LEVELS>,
    pub(crate) turn: Color,
    pub(crate) castling: Castling,
    /// En-passant cell and the pawn a capture there removes.
    pub(crate) ep: Option<(Cell, Cell)>,
    pub(crate) halfmove: u32,
    pub(crate) fullmove: u32,
    pub(crate) hash: u64,
}

impl PartialEq for Board {
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
impl Eq for Board {}

impl fmt::Debug for Board {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.to_lfen())
    }
}

impl Board {
    /// An empty board, White to move.
    pub(crate) fn empty(t: &'static Tables) -> Self {
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

    /// The tables of this rule set.
    #[must_use]
    pub fn tables(&self) -> &'static Tables {
        self.t
    }

    /// All pieces.
    #[inline]
    #[must_use]
    pub fn occupied(&self) -> Bb {
        self.placed.occupied()
    }

    /// The pieces of a colour and role.
    #[inline]
    #[must_use]
    pub fn pieces(&self, c: Color, r: Role) -> Bb {
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
        self.hash ^= self.t.zp(p.color, p.role, c);
    }

    #[inline]
    pub(crate) fn take(&mut self, c: Cell, p: Piece) {
        self.placed.remove(c, p);
        self.hash ^= self.t.zp(p.color, p.role, c);
    }

    /// Whether a pawn of the side to move could capture on the en-passant cell (it then counts
    /// for repetition and the hash). En passant is a normal move: same level only.
    pub(crate) fn ep_capturable(&self) -> bool {
        self.ep.is_some_and(|(e, _)| {
            let them = self.turn.other();
            self.t.pawn_attacks[them.index()][e.plane()] & self.pieces(self.turn, Role::Pawn).0[e.level()] != 0
        })
    }

    /// The hash of the state beyond placement.
    pub(crate) fn state_hash(&self) -> u64 {
        let mut h = self.t.z_castle[usize::from(self.castling.0)];
        if self.turn == Color::Black {
            h ^= self.t.z_side;
        }
        if let Some((e, _)) = self.ep.filter(|_| self.ep_capturable()) {
            h ^= self.t.z_ep[e.index()];
        }
        h
    }

    /// The hash computed from scratch (the incremental one must equal it).
    #[must_use]
    pub fn hash_from_scratch(&self) -> u64 {
        let mut h = self.state_hash();
        self.for_each_piece(|c, p| h ^= self.t.zp(p.color, p.role, c));
        h
    }
}

impl RulesHandle for &'static Tables {
    type Position = Board;

    fn name(self) -> &'static str {
        self.rules.name
    }

    fn startpos(self) -> Board {
        crate::lfen::parse(self, self.rules.start).expect("the rule set's start position is valid")
    }

    fn from_lfen(self, lfen: &str) -> Result<Board, LfenError> {
        crate::lfen::parse(self, lfen)
    }

    fn draws(self) -> DrawRules {
        DrawRules::FIDE
    }
}

impl Position for Board {
    const LEVELS: usize = LEVELS;
    type Rules = &'static Tables;

    fn rules(&self) -> &'static Tables {
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
        self.attacked(self.king(us), us.other(), self.placed.by_color[us.other().index()], self.occupied())
    }

    fn legal_moves(&self, moves: &mut MoveList) {
        self.generate(moves);
    }

    fn count_legal_moves(&self) -> usize {
        let mut n = 0usize;
        self.generate(&mut n);
        n
    }

    fn play_unchecked(&mut self, m: Move) {
        let t = self.t;
        let us = self.turn;
        let them = us.other();
        self.hash ^= self.state_hash();
        let role = self.role_at(m.from()).unwrap_or(Role::Pawn);
        let mut reset_clock = role == Role::Pawn;
        match m.kind() {
            MoveKind::EnPassant => {
                let (_, victim) = self.ep.unwrap_or((m.to(), m.to()));
                self.take(victim, Piece { color: them, role: Role::Pawn });
            }
            MoveKind::Castle => {
                let long = m.to().file() < m.from().file();
                if let Some(cm) = t.castles[us.index()][usize::from(long)] {
                    let rook = Piece { color: us, role: Role::Rook };
                    self.take(cm.rook_from, rook);
                    self.put(cm.rook_to, rook);
                }
            }
            // Normal moves, double steps and transfers capture only on the cell they end on
            // (a knight's transfer ignores what stands on its transfer cell).
            MoveKind::Normal | MoveKind::DoubleStep | MoveKind::Transfer => {
                if let Some(r) = self.role_at(m.to()) {
                    self.take(m.to(), Piece { color: them, role: r });
                    reset_clock = true;
                }
            }
        }
        self.take(m.from(), Piece { color: us, role });
        self.put(m.to(), Piece { color: us, role: m.promotion().unwrap_or(role) });
        self.castling.0 &= !(t.castle_clear[m.from().index()] | t.castle_clear[m.to().index()]);
        self.ep = (m.kind() == MoveKind::DoubleStep).then(|| {
            let (a, b) = (m.from(), m.to());
            (Cell::from_index((a.index() + b.index()) / 2), b)
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
