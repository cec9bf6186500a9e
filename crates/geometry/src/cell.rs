//! Cells of a stack of 8×8 levels.

use std::fmt;

/// The most levels a board may have.
pub const MAX_LEVELS: usize = 4;

/// A cell: `level * 64 + rank * 8 + file`, all zero-based.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub struct Cell(u8);

impl Cell {
    /// The cell at `file`, `rank`, `level` (zero-based), if on a board of `levels` levels.
    #[must_use]
    pub fn try_new(file: i32, rank: i32, level: i32, levels: usize) -> Option<Cell> {
        let ok = (0..8).contains(&file) && (0..8).contains(&rank) && level >= 0;
        #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
        (ok && (level as usize) < levels).then(|| Cell((level * 64 + rank * 8 + file) as u8))
    }

    /// The cell with this index. Precondition: `index < 64 * MAX_LEVELS`.
    #[must_use]
    pub const fn from_index(index: usize) -> Cell {
        debug_assert!(index < 64 * MAX_LEVELS);
        #[allow(clippy::cast_possible_truncation)]
        Cell(index as u8)
    }

    /// Index `level * 64 + rank * 8 + file`.
    #[must_use]
    pub const fn index(self) -> usize {
        self.0 as usize
    }
    /// File, 0 = a.
    #[must_use]
    pub const fn file(self) -> usize {
        (self.0 & 7) as usize
    }
    /// Rank, 0 = rank 1.
    #[must_use]
    pub const fn rank(self) -> usize {
        ((self.0 >> 3) & 7) as usize
    }
    /// Level, 0 = the bottom board.
    #[must_use]
    pub const fn level(self) -> usize {
        (self.0 >> 6) as usize
    }
    /// Index within its level (0..64).
    #[must_use]
    pub const fn plane(self) -> usize {
        (self.0 & 63) as usize
    }

    /// The cell one step along `(df, dr, dl)`, if on a board of `levels` levels.
    #[must_use]
    pub fn offset(self, d: crate::Dir, levels: usize) -> Option<Cell> {
        #[allow(clippy::cast_possible_wrap, clippy::cast_possible_truncation)]
        Cell::try_new(
            self.file() as i32 + i32::from(d.df),
            self.rank() as i32 + i32::from(d.dr),
            self.level() as i32 + i32::from(d.dl),
            levels,
        )
    }

    /// Writes the cell as `2e4`, or as `e4` when `with_level` is false.
    #[must_use]
    pub fn display(self, with_level: bool) -> CellDisplay {
        CellDisplay { cell: self, with_level }
    }

    /// Parses `2e4` (level, file, rank) or, when `levels == 1`, also `e4`.
    ///
    /// # Errors
    /// When the text is not a cell of a board with `levels` levels.
    ///
    /// # Panics
    /// Never: the cell is checked before it is built.
    pub fn parse(s: &str, levels: usize) -> Result<Cell, ParseCellError> {
        let b = s.as_bytes();
        let err = |reason| ParseCellError { text: s.to_owned(), reason };
        let (level, rest) = match b {
            [l @ b'1'..=b'9', rest @ ..] => (usize::from(l - b'1'), rest),
            _ if levels == 1 => (0, b),
            _ => return Err(err("expected a level digit, file and rank, like 2e4")),
        };
        let [f @ b'a'..=b'h', r @ b'1'..=b'8'] = rest else {
            return Err(err("expected a file a-h and a rank 1-8"));
        };
        if level >= levels {
            return Err(err("level is above the top level of this variant"));
        }
        Ok(Cell::try_new(i32::from(f - b'a'), i32::from(r - b'1'), level as i32, levels).expect("checked"))
    }
}

/// Formats a cell with or without its level.
#[derive(Clone, Copy, Debug)]
pub struct CellDisplay {
    cell: Cell,
    with_level: bool,
}

impl fmt::Display for CellDisplay {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let c = self.cell;
        if self.with_level {
            write!(f, "{}", c.level() + 1)?;
        }
        write!(f, "{}{}", char::from(b"abcdefgh"[c.file()]), c.rank() + 1)
    }
}

impl fmt::Display for Cell {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.display(true).fmt(f)
    }
}

/// A cell that could not be parsed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseCellError {
    /// The text given.
    pub text: String,
    /// What was wrong.
    pub reason: &'static str,
}

impl fmt::Display for ParseCellError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "bad cell '{}': {}", self.text, self.reason)
    }
}

impl std::error::Error for ParseCellError {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parse_and_display_round_trip() {
        let c = Cell::parse("2b3", 3).unwrap();
        assert_eq!((c.file(), c.rank(), c.level()), (1, 2, 1));
        assert_eq!(c.to_string(), "2b3");
        assert_eq!(Cell::parse("e4", 1).unwrap().display(false).to_string(), "e4");
        assert_eq!(Cell::parse("1e4", 1).unwrap().index(), 28);
        assert!(Cell::parse("4a1", 3).is_err());
        assert!(Cell::parse("e4", 3).is_err());
        assert!(Cell::parse("2i3", 3).is_err());
        assert!(Cell::parse("", 3).is_err());
    }
}
