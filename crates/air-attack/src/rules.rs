//! Air Attack Chess as data (RULES.md §2): the transfer table and the rest of the rule set.
//!
//! Nothing about the rules hides in the generator: [`crate::Tables`] are built from a
//! [`Rules`] value, and the generator reads only the tables.

/// What a piece may do after it has reached its transfer cell T (RULES.md §2.2).
///
/// In every case a piece may not transfer onto its own piece, captures an enemy on T and
/// ends its move there, and may stop on an empty T: except the knight, which ignores
/// what stands on T and must leap on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TransferRules {
    /// How many cells a queen, rook or bishop may slide on from an empty T, along its usual
    /// lines with a clear path (T itself not counted): the "half range" of the source.
    pub slider_range: u8,
    /// How many cells the king may step on from an empty T (along queen lines, path clear).
    pub king_range: u8,
    /// Whether a pawn in home position may, from an empty T, step forward to an empty cell.
    pub home_pawn_step: bool,
    /// Whether a pawn in home position may, from an empty T, capture diagonally forward.
    pub home_pawn_capture: bool,
}

/// A complete Air Attack rule set.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Rules {
    /// The variant's name, as given on the command line.
    pub name: &'static str,
    /// The start position as LFEN.
    pub start: &'static str,
    /// The transfer table.
    pub transfer: TransferRules,
    /// The level a side's pawns start on, and so the level of "home position", the pawn
    /// double step, en passant and castling (0-based; the same for both sides).
    pub home_level: usize,
    /// Whether a pawn on its home rank on the home level may step twice (a normal move).
    pub double_step: bool,
    /// Whether castling exists (on the home rank of the home level).
    pub castling: bool,
    /// Whether a pawn promotes on its last rank of every level (else of the home level only).
    pub promote_on_every_level: bool,
}

/// The Air Attack start position: the standard array on level 1, level 2 empty.
pub const START: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR|8/8/8/8/8/8/8/8 w KQkq - 0 1";

/// Air Attack Chess exactly as RULES.md §2 has it.
pub const AIR_ATTACK: Rules = Rules {
    name: "air-attack",
    start: START,
    transfer: TransferRules { slider_range: 4, king_range: 1, home_pawn_step: true, home_pawn_capture: true },
    home_level: 0,
    double_step: true,
    castling: true,
    promote_on_every_level: true,
};
