//! Colours, roles, pieces and castling rights.

use std::fmt;

/// A side.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub enum Color {
    /// Moves first.
    White = 0,
    /// Moves second.
    Black = 1,
}

impl Color {
    /// Both colours, White first.
    pub const ALL: [Color; 2] = [Color::White, Color::Black];
    /// The other side.
    #[must_use]
    pub const fn other(self) -> Color {
        match self {
            Color::White => Color::Black,
            Color::Black => Color::White,
        }
    }
    /// 0 for White, 1 for Black.
    #[must_use]
    pub const fn index(self) -> usize {
        self as usize
    }
    /// `w` or `b`.
    #[must_use]
    pub const fn char(self) -> char {
        match self {
            Color::White => 'w',
            Color::Black => 'b',
        }
    }
    /// `+1` for White, `-1` for Black.
    #[must_use]
    pub const fn sign(self) -> i32 {
        match self {
            Color::White => 1,
            Color::Black => -1,
        }
    }
}

impl fmt::Display for Color {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Color::White => "white",
            Color::Black => "black",
        })
    }
}

/// A kind of piece.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub enum Role {
    /// Pawn.
    Pawn = 0,
    /// Knight.
    Knight = 1,
    /// Bishop.
    Bishop = 2,
    /// Rook.
    Rook = 3,
    /// Queen.
    Queen = 4,
    /// King.
    King = 5,
}

impl Role {
    /// Every role, pawn first.
    pub const ALL: [Role; 6] = [Role::Pawn, Role::Knight, Role::Bishop, Role::Rook, Role::Queen, Role::King];
    /// The roles a pawn may promote to, strongest first.
    pub const PROMOTIONS: [Role; 4] = [Role::Queen, Role::Rook, Role::Bishop, Role::Knight];
    /// 0 (pawn) to 5 (king).
    #[must_use]
    pub const fn index(self) -> usize {
        self as usize
    }
    /// Upper-case letter: `P N B R Q K`.
    #[must_use]
    pub const fn upper(self) -> char {
        match self {
            Role::Pawn => 'P',
            Role::Knight => 'N',
            Role::Bishop => 'B',
            Role::Rook => 'R',
            Role::Queen => 'Q',
            Role::King => 'K',
        }
    }
    /// Lower-case letter: `p n b r q k`.
    #[must_use]
    pub const fn lower(self) -> char {
        self.upper().to_ascii_lowercase()
    }
    /// The role of a letter, either case.
    #[must_use]
    pub fn from_char(c: char) -> Option<Role> {
        Role::ALL.into_iter().find(|r| r.upper() == c.to_ascii_uppercase())
    }
}

/// A piece: a role of a colour.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Piece {
    /// Its side.
    pub color: Color,
    /// Its kind.
    pub role: Role,
}

impl Piece {
    /// FEN letter: upper case for White.
    #[must_use]
    pub const fn char(self) -> char {
        match self.color {
            Color::White => self.role.upper(),
            Color::Black => self.role.lower(),
        }
    }
    /// The piece of a FEN letter.
    #[must_use]
    pub fn from_char(c: char) -> Option<Piece> {
        let role = Role::from_char(c)?;
        let color = if c.is_ascii_uppercase() { Color::White } else { Color::Black };
        Some(Piece { color, role })
    }
    /// Index 0..12: `color * 6 + role`.
    #[must_use]
    pub const fn index(self) -> usize {
        self.color.index() * 6 + self.role.index()
    }
}

/// Castling rights as four bits: White king side 1, White queen side 2, Black king side 4, Black queen side 8.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
pub struct Castling(pub u8);

impl Castling {
    /// No right.
    pub const NONE: Castling = Castling(0);
    /// Every right.
    pub const ALL: Castling = Castling(15);
    /// The bit of a side's king-side (`long == false`) or queen-side right.
    #[must_use]
    pub const fn bit(color: Color, long: bool) -> u8 {
        1 << (color as u8 * 2 + long as u8)
    }
    /// Whether the right is held.
    #[must_use]
    pub const fn has(self, color: Color, long: bool) -> bool {
        self.0 & Castling::bit(color, long) != 0
    }
}

impl fmt::Display for Castling {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.0 == 0 {
            return f.write_str("-");
        }
        for (i, c) in "KQkq".chars().enumerate() {
            if self.0 >> i & 1 != 0 {
                write!(f, "{c}")?;
            }
        }
        Ok(())
    }
}
