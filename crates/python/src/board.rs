//! `Board`, `Move` and `Outcome`: a position with the moves that led to it, behind a trait object.

use crate::rules::RuleSet;
use crate::value_error;
use pyo3::exceptions::{PyIndexError, PyTypeError};
use pyo3::prelude::*;
use pyo3::types::PyBytes;
use stackchess_board::Board as Stack;
use stackchess_core::{
    coord, diagram, outcome_in_game, parse_move, san, Cell, Color, LfenError, Move, MoveKind, Position, Rules,
};
use stackchess_variants::{Variant, VariantArg, WithPosition};
use std::any::Any;

/// A position of some rule set and the game that led to it, its type erased: what a Python
/// [`Board`] holds. [`Hist`] implements it for every position type.
pub(crate) trait AnyBoard: Send + Sync {
    /// The LFEN.
    fn lfen(&self) -> String;
    /// The side to move.
    fn turn(&self) -> Color;
    /// The legal moves, in the generator's order.
    fn legal_moves(&self) -> Vec<Move>;
    /// A move in coordinate notation or SAN, if legal here.
    fn parse(&self, text: &str) -> Result<Move, String>;
    /// Plays a move, if legal here.
    fn push(&mut self, m: Move) -> Result<(), String>;
    /// Takes back the last move.
    fn pop(&mut self) -> Option<Move>;
    /// The moves played since the board was made, oldest first.
    fn move_stack(&self) -> &[Move];
    /// The piece on a cell, as its FEN letter.
    fn piece_at(&self, cell: Cell) -> Option<char>;
    /// One code per cell in index order (level, rank, file): 0 empty, 1 to 6 White's pawn to
    /// king, -1 to -6 Black's.
    fn codes(&self) -> Vec<i8>;
    /// Whether the side to move is in check.
    fn is_check(&self) -> bool;
    /// The outcome by the rules, repetition since the board was made included.
    fn outcome(&self) -> Option<stackchess_core::Outcome>;
    /// Leaf count to `depth` plies.
    fn perft(&self, depth: u32) -> u64;
    /// A legal move in SAN.
    fn san(&self, m: Move) -> Result<String, String>;
    /// The levels side by side (`stackchess show`).
    fn diagram(&self) -> String;
    /// A copy, history included.
    fn boxed_clone(&self) -> Box<dyn AnyBoard>;
    /// For the engine: the concrete board.
    fn as_any(&self) -> &dyn Any;
}

/// A position, the positions before it and the moves between them.
pub(crate) struct Hist<P: Position> {
    /// The current position.
    pub pos: P,
    /// The position before each move played, oldest first.
    before: Vec<P>,
    /// The moves played.
    moves: Vec<Move>,
    /// The hash of every position since the start, the current one last.
    pub hashes: Vec<u64>,
}

impl<P: Position> Hist<P> {
    fn new(pos: P) -> Self {
        let hashes = vec![pos.hash()];
        Hist { pos, before: Vec::new(), moves: Vec::new(), hashes }
    }
}

impl<P: Position> Clone for Hist<P> {
    fn clone(&self) -> Self {
        Hist {
            pos: self.pos.clone(),
            before: self.before.clone(),
            moves: self.moves.clone(),
            hashes: self.hashes.clone(),
        }
    }
}

impl<P: Position> AnyBoard for Hist<P> {
    fn lfen(&self) -> String {
        self.pos.to_lfen()
    }
    fn turn(&self) -> Color {
        self.pos.turn()
    }
    fn legal_moves(&self) -> Vec<Move> {
        self.pos.moves().to_vec()
    }
    fn parse(&self, text: &str) -> Result<Move, String> {
        parse_move(&self.pos, text.trim()).map_err(|e| e.to_string())
    }
    fn push(&mut self, m: Move) -> Result<(), String> {
        let before = self.pos.clone();
        self.pos.play(m).map_err(|e| e.to_string())?;
        self.before.push(before);
        self.moves.push(m);
        self.hashes.push(self.pos.hash());
        Ok(())
    }
    fn pop(&mut self) -> Option<Move> {
        let m = self.moves.pop()?;
        self.pos = self.before.pop()?;
        self.hashes.pop();
        Some(m)
    }
    fn move_stack(&self) -> &[Move] {
        &self.moves
    }
    fn piece_at(&self, cell: Cell) -> Option<char> {
        self.pos.piece_at(cell).map(stackchess_core::Piece::char)
    }
    fn codes(&self) -> Vec<i8> {
        let mut codes = vec![0; 64 * P::LEVELS];
        self.pos.for_each_piece(|c, p| {
            let code = p.role.index() as i8 + 1;
            codes[c.index()] = if p.color == Color::White { code } else { -code };
        });
        codes
    }
    fn is_check(&self) -> bool {
        self.pos.is_check()
    }
    fn outcome(&self) -> Option<stackchess_core::Outcome> {
        outcome_in_game(&self.pos, &self.hashes)
    }
    fn perft(&self, depth: u32) -> u64 {
        self.pos.perft(depth)
    }
    fn san(&self, m: Move) -> Result<String, String> {
        if self.pos.is_legal(m) {
            Ok(san(&self.pos, m))
        } else {
            Err(format!("{} is not a legal move in {}", coord::<P>(m), self.pos.to_lfen()))
        }
    }
    fn diagram(&self) -> String {
        diagram(&self.pos)
    }
    fn boxed_clone(&self) -> Box<dyn AnyBoard> {
        Box::new(self.clone())
    }
    fn as_any(&self) -> &dyn Any {
        self
    }
}

/// Makes the board of a rule set from an LFEN, or its start position.
struct Make<'a>(Option<&'a str>);

impl WithPosition for Make<'_> {
    type Output = Result<Box<dyn AnyBoard>, LfenError>;
    fn call<P: Position>(self, rules: P::Rules) -> Self::Output {
        let pos = match self.0 {
            None => rules.startpos(),
            Some(text) => rules.from_lfen(text)?,
        };
        Ok(Box::new(Hist::new(pos)))
    }
}

/// A rule set given from Python: a `RuleSet`, or a name as the command line takes it (a
/// built-in's, a loaded rule set's, or `rules:FILE`).
pub(crate) fn variant_of(rules: &Bound<'_, PyAny>) -> PyResult<Variant> {
    if let Ok(r) = rules.cast::<RuleSet>() {
        return Ok(r.get().variant);
    }
    let Ok(name) = rules.extract::<String>() else {
        return Err(PyTypeError::new_err("rules must be a RuleSet or a rule set's name"));
    };
    let arg: VariantArg = name.parse().map_err(value_error)?;
    arg.load().map_err(|e| match &e {
        stackchess_variants::VariantError::Rules { path, .. } if !std::path::Path::new(path).exists() => {
            pyo3::exceptions::PyFileNotFoundError::new_err(e.to_string())
        }
        _ => value_error(e),
    })
}

/// The notation of a cell: `2e4`, or `e4` on one level (as the command line writes it).
fn cell_name(c: Cell, levels: usize) -> String {
    c.display(levels > 1).to_string()
}

/// A move: from a cell to a cell, with a promotion and a kind. Moves come from a board
/// (``Board.legal_moves()``, ``Board.parse_move()``); ``str(move)`` is its coordinate notation.
#[pyclass(name = "Move", frozen, eq, hash, module = "stackchess")]
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct PyMove {
    pub(crate) mv: Move,
    levels: usize,
}

impl PyMove {
    pub(crate) fn new(mv: Move, levels: usize) -> PyMove {
        PyMove { mv, levels }
    }
}

#[pymethods]
impl PyMove {
    /// The cell the piece leaves, like ``"2e2"`` (``"e2"`` on one level).
    #[getter]
    #[allow(clippy::wrong_self_convention, reason = "the Python name; pyo3 methods take &self")]
    fn from_cell(&self) -> String {
        cell_name(self.mv.from(), self.levels)
    }

    /// The cell the piece reaches (for castling, the king's), like ``"2e4"``.
    #[getter]
    #[allow(clippy::wrong_self_convention, reason = "the Python name; pyo3 methods take &self")]
    fn to_cell(&self) -> String {
        cell_name(self.mv.to(), self.levels)
    }

    /// The promotion piece as a lower-case letter (``"q"``, ``"r"``, ``"b"``, ``"n"``), or ``None``.
    #[getter]
    fn promotion(&self) -> Option<char> {
        self.mv.promotion().map(stackchess_core::Role::lower)
    }

    /// Whether this is an Air Attack transfer (a move straight up or down a level).
    #[getter]
    fn is_transfer(&self) -> bool {
        self.mv.kind() == MoveKind::Transfer
    }

    /// ``"normal"``, ``"double-step"``, ``"en-passant"``, ``"castle"`` or ``"transfer"``.
    #[getter]
    fn kind(&self) -> &'static str {
        match self.mv.kind() {
            MoveKind::Normal => "normal",
            MoveKind::DoubleStep => "double-step",
            MoveKind::EnPassant => "en-passant",
            MoveKind::Castle => "castle",
            MoveKind::Transfer => "transfer",
        }
    }

    /// The move in coordinate notation: ``"1e21e4"``, ``"2a73a8q"``; on one level UCI (``"e2e4"``).
    fn uci(&self) -> String {
        match self.levels {
            1 => coord::<Stack<1>>(self.mv),
            2 => coord::<Stack<2>>(self.mv),
            3 => coord::<Stack<3>>(self.mv),
            _ => coord::<Stack<4>>(self.mv),
        }
    }

    /// The move in SAN on ``board`` (``"N2b3"``, ``"Bx3e3"``, ``"O-O"``). Raises ``ValueError`` when
    /// it is not legal there.
    fn san(&self, board: &Board) -> PyResult<String> {
        board.inner.san(self.mv).map_err(value_error)
    }

    fn __str__(&self) -> String {
        self.uci()
    }

    fn __repr__(&self) -> String {
        format!("Move('{}')", self.uci())
    }
}

/// How a game ended by the rules.
#[pyclass(frozen, eq, module = "stackchess")]
#[derive(Clone, PartialEq, Eq)]
pub struct Outcome {
    /// ``"white"``, ``"black"``, or ``None`` for a draw.
    #[pyo3(get)]
    winner: Option<&'static str>,
    /// ``"1-0"``, ``"0-1"`` or ``"1/2-1/2"``.
    #[pyo3(get)]
    result: &'static str,
    /// ``"checkmate"``, ``"stalemate"``, ``"repetition"``, ``"fifty-moves"`` or
    /// ``"dead-material"``, as the records' ``termination`` column writes it.
    #[pyo3(get)]
    termination: &'static str,
}

#[pymethods]
impl Outcome {
    fn __repr__(&self) -> String {
        format!("Outcome(result='{}', termination='{}')", self.result, self.termination)
    }
}

fn color_name(c: Color) -> &'static str {
    match c {
        Color::White => "white",
        Color::Black => "black",
    }
}

/// A position of a rule set, with the moves played on this board (for ``pop`` and repetition).
///
/// ``Board(rules, lfen=None)``: ``rules`` is a ``RuleSet`` or a name (``"malka"``, or
/// ``"rules:FILE"``); ``lfen`` the position (plain FEN for one level), the start position if
/// omitted. Raises ``ValueError`` for a malformed LFEN, naming the field. Cells are named as the
/// command line names them: level, file, rank (``"2e4"``), or ``"e4"`` on one level.
#[pyclass(module = "stackchess")]
pub struct Board {
    pub(crate) inner: Box<dyn AnyBoard>,
    pub(crate) variant: Variant,
}

impl Board {
    fn levels(&self) -> usize {
        self.variant.levels()
    }

    fn wrap(&self, m: Move) -> PyMove {
        PyMove::new(m, self.levels())
    }

    fn cell(&self, cell: &str) -> PyResult<Cell> {
        Cell::parse(cell.trim(), self.levels()).map_err(value_error)
    }
}

#[pymethods]
impl Board {
    #[new]
    #[pyo3(signature = (rules, lfen=None))]
    fn new(rules: &Bound<'_, PyAny>, lfen: Option<&str>) -> PyResult<Board> {
        let variant = variant_of(rules)?;
        let inner = variant.with(Make(lfen)).map_err(value_error)?;
        Ok(Board { inner, variant })
    }

    /// The rule set.
    #[getter]
    fn rules(&self) -> RuleSet {
        RuleSet { variant: self.variant }
    }

    /// ``"white"`` or ``"black"``: the side to move.
    #[getter]
    fn turn(&self) -> &'static str {
        color_name(self.inner.turn())
    }

    /// The moves pushed on this board and not popped, oldest first.
    #[getter]
    fn move_stack(&self) -> Vec<PyMove> {
        self.inner.move_stack().iter().map(|&m| self.wrap(m)).collect()
    }

    /// The legal moves, in the move generator's order.
    fn legal_moves(&self) -> Vec<PyMove> {
        self.inner.legal_moves().into_iter().map(|m| self.wrap(m)).collect()
    }

    /// Reads a move in coordinate notation (``"1e21e4"``, ``"e2e4"`` on one level) or SAN
    /// (``"N2b3"``) without playing it. Raises ``ValueError`` when it is neither or not legal here.
    fn parse_move(&self, text: &str) -> PyResult<PyMove> {
        self.inner.parse(text).map(|m| self.wrap(m)).map_err(value_error)
    }

    /// Plays a move: a ``Move`` or its text (coordinate notation or SAN), and returns it. Raises
    /// ``ValueError`` for a move that is not legal here (nothing is changed then).
    fn push(&mut self, mv: &Bound<'_, PyAny>) -> PyResult<PyMove> {
        let m = if let Ok(m) = mv.cast::<PyMove>() {
            let m = m.get();
            if m.levels != self.levels() {
                return Err(value_error(format!("{} is a move of a {}-level board", m.uci(), m.levels)));
            }
            m.mv
        } else if let Ok(text) = mv.extract::<String>() {
            self.inner.parse(&text).map_err(value_error)?
        } else {
            return Err(PyTypeError::new_err("push takes a Move or a move's text"));
        };
        self.inner.push(m).map_err(value_error)?;
        Ok(self.wrap(m))
    }

    /// Takes back the last move pushed and returns it. Raises ``IndexError`` when there is none.
    fn pop(&mut self) -> PyResult<PyMove> {
        self.inner.pop().map(|m| self.wrap(m)).ok_or_else(|| PyIndexError::new_err("pop from a board with no moves"))
    }

    /// The position as LFEN (the levels' FEN placements joined by ``|``, then side, castling,
    /// en passant, clocks).
    fn lfen(&self) -> String {
        self.inner.lfen()
    }

    /// The piece on ``cell`` (``"2e4"``) as its FEN letter, upper case for White (``"N"``,
    /// ``"p"``), or ``None`` when the cell is empty. Raises ``ValueError`` for a bad cell.
    fn piece_at(&self, cell: &str) -> PyResult<Option<char>> {
        Ok(self.inner.piece_at(self.cell(cell)?))
    }

    /// Every cell's piece as an array of shape ``(levels, 8, 8)`` indexed ``[level, rank, file]``
    /// from 0 (``[0, 0, 0]`` is ``1a1``): 0 empty, 1 to 6 White's pawn, knight, bishop, rook,
    /// queen, king, -1 to -6 Black's. A ``NumPy`` ``int8`` array where ``NumPy`` is installed, otherwise
    /// nested lists of the same shape.
    fn pieces<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let codes = self.inner.codes();
        let levels = self.levels();
        if let Ok(np) = py.import("numpy") {
            let bytes: Vec<u8> = codes.iter().map(|&c| c as u8).collect();
            let flat = np.call_method1("frombuffer", (PyBytes::new(py, &bytes), np.getattr("int8")?))?;
            return flat.call_method1("reshape", ((levels, 8, 8),))?.call_method0("copy");
        }
        let nested: Vec<Vec<Vec<i8>>> =
            codes.chunks(64).map(|level| level.chunks(8).map(<[i8]>::to_vec).collect()).collect();
        nested.into_pyobject(py).map(Bound::into_any)
    }

    /// Whether the side to move is in check.
    fn is_check(&self) -> bool {
        self.inner.is_check()
    }

    /// How the game has ended by the rules (mate, stalemate, repetition since this board was
    /// made, the fifty-move rule, dead material), or ``None`` while it goes on.
    fn outcome(&self) -> Option<Outcome> {
        self.inner.outcome().map(|o| Outcome {
            winner: o.winner.map(color_name),
            result: o.result(),
            termination: o.reason.name(),
        })
    }

    /// The number of move sequences of ``depth`` plies from here (``stackchess perft``). Runs
    /// without holding the GIL.
    fn perft(&self, py: Python<'_>, depth: u32) -> u64 {
        let inner = &self.inner;
        py.detach(|| inner.perft(depth))
    }

    /// A copy, with its moves (``pop`` works on it as on this board).
    fn copy(&self) -> Board {
        Board { inner: self.inner.boxed_clone(), variant: self.variant }
    }

    fn __copy__(&self) -> Board {
        self.copy()
    }

    /// The levels side by side, level 1 on the left, then the side to move and the LFEN.
    fn __str__(&self) -> String {
        self.inner.diagram()
    }

    fn __repr__(&self) -> String {
        format!("Board('{}', '{}')", self.variant.name(), self.inner.lfen())
    }
}
