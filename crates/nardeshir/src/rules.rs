//! Rule sets as data (RULES.md §1): nothing about the rules hides in the generator.

use stackchess_core::{DrawRules, Role};
use stackchess_geometry::{king_dirs, knight_leaps, Dir, GroupSet};

/// How a piece moves: slides along whole direction groups, and single leaps.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Movement {
    /// Groups it slides along any distance (through empty cells).
    pub slides: GroupSet,
    /// Vectors it leaps by (never blocked).
    pub leaps: Vec<Dir>,
}

/// Promotion policy.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Promotion {
    /// Any of Q, R, B, N.
    Free,
    /// Only a kind the mover has lost (start count minus count on the board).
    LostPieces,
}

/// Pawn rules, given for White (Black mirrors rank and level).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PawnRules {
    /// Steps to an empty cell.
    pub steps: Vec<Dir>,
    /// Capture vectors.
    pub captures: Vec<Dir>,
    /// Whether a pawn on its start cell may take two steps along one step vector.
    pub double_step: bool,
    /// Promotion policy.
    pub promotion: Promotion,
}

/// A complete rule set for the shared generator.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RuleSet {
    /// The variant's name (`malka`, `traditional`, `fide`).
    pub name: &'static str,
    /// Number of levels.
    pub levels: usize,
    /// Movement of knight, bishop, rook, queen, king (indexed by `Role::index() - 1`).
    pub pieces: [Movement; 5],
    /// Pawn rules.
    pub pawn: PawnRules,
    /// Whether castling exists (on the home rank of the home level).
    pub castling: bool,
    /// The start position as LFEN.
    pub start: &'static str,
    /// The draw rules.
    pub draws: DrawRules,
}

impl RuleSet {
    /// The same rules without the name (for ids that depend on the rules alone).
    #[must_use]
    pub fn without_name(&self) -> RuleSet {
        RuleSet { name: "", ..self.clone() }
    }

    /// How `role` moves; `None` for the pawn.
    #[must_use]
    pub fn movement(&self, role: Role) -> Option<&Movement> {
        role.index().checked_sub(1).map(|i| &self.pieces[i])
    }

    /// The Nardeshir rule sets: Traditional, or Malka when `malka` (one-step queen, no double step,
    /// promotion to lost pieces). On one level, Traditional is standard chess.
    #[must_use]
    pub fn nardeshir(name: &'static str, levels: usize, malka: bool, start: &'static str) -> RuleSet {
        let slide = |slides| Movement { slides, leaps: Vec::new() };
        let queen = if malka { Movement { slides: GroupSet::NONE, leaps: king_dirs() } } else { slide(GroupSet::ALL) };
        RuleSet {
            name,
            levels,
            pieces: [
                Movement { slides: GroupSet::NONE, leaps: knight_leaps() },
                slide(GroupSet::BISHOP),
                slide(GroupSet::ROOK),
                queen,
                Movement { slides: GroupSet::NONE, leaps: king_dirs() },
            ],
            pawn: PawnRules {
                steps: vec![Dir::new(0, 1, 0), Dir::new(0, 0, 1), Dir::new(0, 1, 1)],
                captures: vec![Dir::new(1, 1, 0), Dir::new(-1, 1, 0), Dir::new(1, 1, 1), Dir::new(-1, 1, 1)],
                double_step: !malka,
                promotion: if malka { Promotion::LostPieces } else { Promotion::Free },
            },
            castling: true,
            start,
            draws: DrawRules::FIDE,
        }
    }
}
