//! Vocabulary and the board: a plain array of cells (mailbox) over one to four levels.

use std::fmt;

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Color {
    White,
    Black,
}

impl Color {
    pub fn other(self) -> Color {
        match self {
            Color::White => Color::Black,
            Color::Black => Color::White,
        }
    }

    /// +1 for White, -1 for Black: the sign applied to drank and dlevel of a pawn vector.
    pub fn forward(self) -> i32 {
        match self {
            Color::White => 1,
            Color::Black => -1,
        }
    }

    /// 0 for White, 1 for Black: an index into per-colour arrays.
    pub fn index(self) -> usize {
        match self {
            Color::White => 0,
            Color::Black => 1,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Color::White => "white",
            Color::Black => "black",
        }
    }
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Kind {
    Pawn,
    Knight,
    Bishop,
    Rook,
    Queen,
    King,
}

impl Kind {
    /// Lowercase letter.
    pub fn letter(self) -> char {
        match self {
            Kind::Pawn => 'p',
            Kind::Knight => 'n',
            Kind::Bishop => 'b',
            Kind::Rook => 'r',
            Kind::Queen => 'q',
            Kind::King => 'k',
        }
    }

    pub fn from_letter(c: char) -> Option<Kind> {
        match c.to_ascii_lowercase() {
            'p' => Some(Kind::Pawn),
            'n' => Some(Kind::Knight),
            'b' => Some(Kind::Bishop),
            'r' => Some(Kind::Rook),
            'q' => Some(Kind::Queen),
            'k' => Some(Kind::King),
            _ => None,
        }
    }
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Piece {
    pub color: Color,
    pub kind: Kind,
}

impl Piece {
    pub fn new(color: Color, kind: Kind) -> Piece {
        Piece { color, kind }
    }

    /// FEN letter: uppercase for White.
    pub fn to_char(self) -> char {
        let c = self.kind.letter();
        match self.color {
            Color::White => c.to_ascii_uppercase(),
            Color::Black => c,
        }
    }

    pub fn from_char(c: char) -> Option<Piece> {
        if !c.is_ascii_alphabetic() {
            return None;
        }
        let color = if c.is_ascii_uppercase() { Color::White } else { Color::Black };
        Kind::from_letter(c).map(|kind| Piece { color, kind })
    }
}

/// A direction vector (dfile, drank, dlevel).
pub type Vec3 = (i32, i32, i32);

/// A cell: file x, rank y, level z, all 0-based. May lie off the board.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Debug)]
pub struct Cell {
    pub x: i32,
    pub y: i32,
    pub z: i32,
}

impl Cell {
    pub fn new(x: i32, y: i32, z: i32) -> Cell {
        Cell { x, y, z }
    }

    /// The cell `k` steps along `d`.
    pub fn step(self, d: Vec3, k: i32) -> Cell {
        Cell::new(self.x + k * d.0, self.y + k * d.1, self.z + k * d.2)
    }
}

/// Level-prefixed form, e.g. `2e3`.
impl fmt::Display for Cell {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let file = char::from(b'a' + (self.x.clamp(0, 7) as u8));
        write!(f, "{}{}{}", self.z + 1, file, self.y + 1)
    }
}

/// Cells of the largest board (4 levels of 64).
pub const MAX_CELLS: usize = 256;

/// A position: placement, side to move, castling rights, en passant, clocks. The rules it is
/// played under are passed alongside; the position only knows its number of levels.
#[derive(Clone, Debug)]
pub struct Position {
    pub levels: i32,
    pub cells: [Option<Piece>; MAX_CELLS],
    pub side: Color,
    /// Castling rights: K, Q, k, q.
    pub castling: [bool; 4],
    /// En-passant cell and the cell of the pawn that double-stepped past it.
    pub ep: Option<(Cell, Cell)>,
    pub halfmove: u32,
    pub fullmove: u32,
}

impl Position {
    pub fn empty(levels: i32) -> Position {
        Position {
            levels,
            cells: [None; MAX_CELLS],
            side: Color::White,
            castling: [false; 4],
            ep: None,
            halfmove: 0,
            fullmove: 1,
        }
    }

    pub fn on_board(&self, c: Cell) -> bool {
        (0..8).contains(&c.x) && (0..8).contains(&c.y) && (0..self.levels).contains(&c.z)
    }

    fn index(&self, c: Cell) -> Option<usize> {
        if self.on_board(c) {
            usize::try_from(c.z * 64 + c.y * 8 + c.x).ok()
        } else {
            None
        }
    }

    /// The piece on `c`; `None` if empty or off the board.
    pub fn get(&self, c: Cell) -> Option<Piece> {
        self.index(c).and_then(|i| self.cells.get(i).copied()).flatten()
    }

    /// Puts `p` on `c`; ignored off the board.
    pub fn set(&mut self, c: Cell, p: Option<Piece>) {
        if let Some(slot) = self.index(c).and_then(|i| self.cells.get_mut(i)) {
            *slot = p;
        }
    }

    /// Whether `c` is on the board and empty.
    pub fn is_empty(&self, c: Cell) -> bool {
        self.on_board(c) && self.get(c).is_none()
    }

    /// Every cell of the board, level 1 first.
    pub fn all_cells(&self) -> impl Iterator<Item = Cell> {
        let levels = self.levels;
        (0..levels).flat_map(|z| (0..8).flat_map(move |y| (0..8).map(move |x| Cell::new(x, y, z))))
    }

    /// Every piece with its cell, level 1 first.
    pub fn pieces(&self) -> impl Iterator<Item = (Cell, Piece)> + '_ {
        self.all_cells().filter_map(|c| self.get(c).map(|p| (c, p)))
    }

    pub fn find_king(&self, color: Color) -> Option<Cell> {
        self.pieces().find(|&(_, p)| p == Piece::new(color, Kind::King)).map(|(c, _)| c)
    }

    /// Number of pieces of `color` and `kind` on the board.
    pub fn count(&self, color: Color, kind: Kind) -> usize {
        self.pieces().filter(|&(_, p)| p == Piece::new(color, kind)).count()
    }
}

/// One level's FEN placement (ranks 8 down to 1 joined by `/`) on level `z` (0-based).
pub fn parse_level(s: &str, z: i32) -> Result<Vec<(Cell, Piece)>, String> {
    let ranks: Vec<&str> = s.split('/').collect();
    if ranks.len() != 8 {
        return Err(format!("{s:?} needs 8 ranks joined by '/', got {}", ranks.len()));
    }
    let mut out = Vec::new();
    for (y, rank) in (0..8).rev().zip(ranks) {
        let mut x = 0;
        for ch in rank.chars() {
            if let Some(d) = ch.to_digit(10).filter(|d| (1..=8).contains(d)) {
                x += d as i32;
            } else if let Some(p) = Piece::from_char(ch) {
                if x < 8 {
                    out.push((Cell::new(x, y, z), p));
                }
                x += 1;
            } else {
                return Err(format!("bad character {ch:?} in rank {}", y + 1));
            }
            if x > 8 {
                return Err(format!("rank {} has more than 8 cells", y + 1));
            }
        }
        if x != 8 {
            return Err(format!("rank {} has {x} cells, not 8", y + 1));
        }
    }
    Ok(out)
}
