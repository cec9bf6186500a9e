//! The contract every variant implements, and what follows from it.

use crate::{Castling, Color, IllegalMove, LfenError, Move, MoveKind, MoveList, Piece, Role};
use stackchess_geometry::Cell;
use std::fmt;

/// Why a game ended.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Termination {
    /// The side to move is mated.
    Checkmate,
    /// The side to move has no legal move and is not in check (a draw, or a result by the rule set).
    Stalemate,
    /// The same position for the third time (or the rule set's count).
    Repetition,
    /// The fifty-move rule (100 plies without capture or pawn move, or the rule set's count).
    FiftyMoves,
    /// K v K, K+B v K, K+N v K.
    DeadMaterial,
}

impl Termination {
    /// Short lower-case name, as written in records.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Termination::Checkmate => "checkmate",
            Termination::Stalemate => "stalemate",
            Termination::Repetition => "repetition",
            Termination::FiftyMoves => "fifty-moves",
            Termination::DeadMaterial => "dead-material",
        }
    }
}

/// The end of a game by the rules.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Outcome {
    /// The winner; `None` for a draw.
    pub winner: Option<Color>,
    /// Why.
    pub reason: Termination,
}

impl Outcome {
    /// `1-0`, `0-1` or `1/2-1/2`.
    #[must_use]
    pub const fn result(self) -> &'static str {
        match self.winner {
            Some(Color::White) => "1-0",
            Some(Color::Black) => "0-1",
            None => "1/2-1/2",
        }
    }
}

impl fmt::Display for Outcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} ({})", self.result(), self.reason.name())
    }
}

/// What a stalemate is worth to the stalemated side.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
pub enum StalemateValue {
    /// A draw (FIDE).
    #[default]
    Draw,
    /// The stalemated side wins.
    Win,
    /// The stalemated side loses.
    Loss,
}

/// The rules that end a game without mate: they end it automatically, and perft ignores them.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct DrawRules {
    /// Moves (twice as many plies) without capture or pawn move that draw the game; 0: never.
    pub fifty_moves: u32,
    /// Occurrences of one position that draw the game; 0: never.
    pub repetition: u32,
    /// What a stalemate is worth to the stalemated side.
    pub stalemate: StalemateValue,
    /// Whether K v K, K+B v K and K+N v K are drawn.
    pub insufficient_material: bool,
}

impl DrawRules {
    /// FIDE's: fifty moves, threefold repetition, stalemate drawn, dead material drawn.
    pub const FIDE: DrawRules =
        DrawRules { fifty_moves: 50, repetition: 3, stalemate: StalemateValue::Draw, insufficient_material: true };

    /// Whether the halfmove clock `plies` has reached the fifty-move limit.
    #[must_use]
    pub const fn fifty_reached(self, plies: u32) -> bool {
        self.fifty_moves != 0 && plies >= 2 * self.fifty_moves
    }
}

impl Default for DrawRules {
    fn default() -> Self {
        DrawRules::FIDE
    }
}

/// A rule set: a cheap handle (`Copy`) that makes the positions played under it.
///
/// Generic code receives one with its position type (`P::Rules`) and asks it for start
/// positions, LFEN parsing and the rule set's name; any number of rule sets can be live at once.
pub trait Rules: Copy + Send + Sync + 'static + fmt::Debug + PartialEq {
    /// The positions played under these rules.
    type Position: Position<Rules = Self>;
    /// The rule set's name, as given on the command line and written in records (`malka`, `fide`, ...).
    fn name(self) -> &'static str;
    /// The rule set's id: 16 hex digits that identify its effective rules (docs/rule-files.md).
    fn id(self) -> &'static str;
    /// The starting position.
    fn startpos(self) -> Self::Position;
    /// Reads an LFEN (for a one-level rule set, plain FEN).
    ///
    /// # Errors
    /// Names the field and what was wrong.
    #[allow(clippy::wrong_self_convention, reason = "the handle makes the position: `rules.from_lfen(text)`")]
    fn from_lfen(self, lfen: &str) -> Result<Self::Position, LfenError>;
    /// The draw rules.
    fn draws(self) -> DrawRules;
    /// Whether a pawn move may be undone (Air Attack's transfers): a repetition may then reach
    /// back past the last pawn move, which otherwise bounds it.
    fn pawn_moves_reversible(self) -> bool;
}

/// A position under some rule set: placement, side to move, castling, en passant, clocks.
///
/// Implementations are plain values (copy-make): [`Position::play_unchecked`] changes
/// `self`; keep a clone to go back. Everything generic in the workspace (perft, notation,
/// search, self-play) is written over this trait and monomorphised per board shape.
pub trait Position: Clone + Send + Sync + 'static + fmt::Debug {
    /// Number of levels (1 to 4).
    const LEVELS: usize;
    /// The rule-set handle.
    type Rules: Rules<Position = Self>;

    /// A set of cells of this board.
    type Cells: crate::CellSet;

    /// The rules this position is played under.
    fn rules(&self) -> Self::Rules;
    /// Writes the LFEN (from the placement and the state below, for every variant alike).
    fn to_lfen(&self) -> String {
        let st = crate::LfenState {
            turn: self.turn(),
            castling: self.castling(),
            ep: self.ep_cell(),
            halfmove: self.halfmove_clock(),
            fullmove: self.fullmove_number(),
        };
        crate::write_lfen(Self::LEVELS, |c| self.piece_at(c), st)
    }

    /// The side to move.
    fn turn(&self) -> Color;
    /// The piece on a cell.
    fn piece_at(&self, cell: Cell) -> Option<Piece>;
    /// Calls `f` for every piece on the board.
    fn for_each_piece<F: FnMut(Cell, Piece)>(&self, f: F);
    /// Castling rights.
    fn castling(&self) -> Castling;
    /// The en-passant cell, set after every double step.
    fn ep_cell(&self) -> Option<Cell>;
    /// Plies since the last capture or pawn move.
    fn halfmove_clock(&self) -> u32;
    /// Move number, starting at 1, incremented after Black's move.
    fn fullmove_number(&self) -> u32;
    /// Zobrist hash of placement, side, castling and a capturable en-passant cell.
    fn hash(&self) -> u64;
    /// Whether the side to move is in check.
    fn is_check(&self) -> bool;
    /// The cells the piece on `cell` attacks by a normal move in this position (pawns: the cells
    /// they capture on; no transfer between levels), own pieces' cells included; empty for an
    /// empty cell. What the evaluation counts as mobility and as attacks near a king.
    fn attacks(&self, cell: Cell) -> Self::Cells;
    /// Whether the side to move might capture on `cell`: `false` only when none of its moves can
    /// (pins and checks aside). A shortcut for callers that would otherwise generate the moves to
    /// `cell`; the default, `true`, is always sound.
    fn may_capture_on(&self, cell: Cell) -> bool {
        let _ = cell;
        true
    }
    /// The cells of `color`'s pieces.
    fn pieces_of(&self, color: Color) -> Self::Cells;
    /// The cells of `color`'s pieces of `role`.
    fn pieces(&self, color: Color, role: Role) -> Self::Cells;

    /// Appends the legal moves to `moves`.
    fn legal_moves(&self, moves: &mut MoveList);
    /// Appends the legal moves that end on `target`, in [`Position::legal_moves`]' order (may be
    /// faster than generating every move).
    fn legal_moves_to(&self, target: Cell, moves: &mut MoveList) {
        let mut all = MoveList::new();
        self.legal_moves(&mut all);
        moves.extend(all.into_iter().filter(|m| m.to() == target));
    }
    /// Appends the legal moves that capture (en passant included) or promote, in
    /// [`Position::legal_moves`]' order (may be faster than generating every move).
    fn legal_captures(&self, moves: &mut MoveList) {
        let mut all = MoveList::new();
        self.legal_moves(&mut all);
        moves.extend(all.into_iter().filter(|&m| m.promotion().is_some() || self.captured(m).is_some()));
    }
    /// The number of legal moves (may be faster than generating them).
    fn count_legal_moves(&self) -> usize {
        let mut m = MoveList::new();
        self.legal_moves(&mut m);
        m.len()
    }
    /// Plays a move. Precondition: the move is legal here.
    fn play_unchecked(&mut self, m: Move);
    /// Passes the turn (for null-move search). Precondition: not in check.
    fn play_null(&mut self);

    /// The legal moves as a list.
    fn moves(&self) -> MoveList {
        let mut m = MoveList::new();
        self.legal_moves(&mut m);
        m
    }
    /// Whether `m` is legal here.
    fn is_legal(&self, m: Move) -> bool {
        self.moves().contains(&m)
    }
    /// Plays `m` if it is legal.
    ///
    /// # Errors
    /// When it is not, naming the move and the position.
    fn play(&mut self, m: Move) -> Result<(), IllegalMove> {
        if self.is_legal(m) {
            self.play_unchecked(m);
            Ok(())
        } else {
            Err(IllegalMove { mv: crate::coord::<Self>(m), lfen: self.to_lfen() })
        }
    }
    /// The role `m` captures, if any.
    fn captured(&self, m: Move) -> Option<Role> {
        if m.kind() == MoveKind::EnPassant {
            return Some(Role::Pawn);
        }
        self.piece_at(m.to()).filter(|p| p.color != self.turn()).map(|p| p.role)
    }
    /// Whether only kings remain, or a king and one minor piece against a bare king, and the
    /// rules draw such games.
    fn is_dead_material(&self) -> bool {
        if !self.rules().draws().insufficient_material {
            return false;
        }
        let mut count = 0;
        let mut minor = 0;
        self.for_each_piece(|_, p| {
            count += 1;
            if matches!(p.role, Role::Knight | Role::Bishop) {
                minor += 1;
            }
        });
        count == 2 || (count == 3 && minor == 1)
    }
    /// Checkmate, stalemate, the 50-move rule or dead material, whichever applies
    /// (repetition needs the game's history: see [`crate::Game`]).
    fn outcome(&self) -> Option<Outcome> {
        let draws = self.rules().draws();
        if self.count_legal_moves() == 0 {
            let us = self.turn();
            return Some(if self.is_check() {
                Outcome { winner: Some(us.other()), reason: Termination::Checkmate }
            } else {
                let winner = match draws.stalemate {
                    StalemateValue::Draw => None,
                    StalemateValue::Win => Some(us),
                    StalemateValue::Loss => Some(us.other()),
                };
                Outcome { winner, reason: Termination::Stalemate }
            });
        }
        if draws.fifty_reached(self.halfmove_clock()) {
            return Some(Outcome { winner: None, reason: Termination::FiftyMoves });
        }
        self.is_dead_material().then_some(Outcome { winner: None, reason: Termination::DeadMaterial })
    }
    /// Leaf count of the move tree to `depth` plies, counting the last ply in bulk.
    fn perft(&self, depth: u32) -> u64 {
        match depth {
            0 => 1,
            1 => self.count_legal_moves() as u64,
            _ => {
                let mut list = MoveList::new();
                self.legal_moves(&mut list);
                list.iter()
                    .map(|&m| {
                        let mut next = self.clone();
                        next.play_unchecked(m);
                        next.perft(depth - 1)
                    })
                    .sum()
            }
        }
    }
}

/// Perft split by root move: `(move, leaf count)` in generation order.
pub fn perft_divide<P: Position>(pos: &P, depth: u32) -> Vec<(Move, u64)> {
    pos.moves()
        .iter()
        .map(|&m| {
            let mut next = pos.clone();
            next.play_unchecked(m);
            (m, if depth == 0 { 1 } else { next.perft(depth - 1) })
        })
        .collect()
}
