//! The rule set the reference generator plays: direction groups and ranges, pawn, draw and
//! transfer rules, the start position. [`crate::rule_file`] reads it from a rule file.

use serde::Deserialize;

use crate::board::{Cell, Color, Kind, Piece, Position, Vec3};

// ---------------------------------------------------------------------------------------------
// Direction groups and ranges
// ---------------------------------------------------------------------------------------------

/// A direction group of `[pieces]` (docs/rule-files.md, the table of groups).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Group {
    PlanarOrthogonal,
    Vertical,
    OrthogonalSlant,
    PlanarDiagonal,
    Triagonal,
    PlanarKnight,
    VerticalKnight,
}

impl Group {
    pub const ALL: [Group; 7] = [
        Group::PlanarOrthogonal,
        Group::Vertical,
        Group::OrthogonalSlant,
        Group::PlanarDiagonal,
        Group::Triagonal,
        Group::PlanarKnight,
        Group::VerticalKnight,
    ];

    /// The key naming the group in a rule file.
    pub fn key(self) -> &'static str {
        match self {
            Group::PlanarOrthogonal => "planar-orthogonal",
            Group::Vertical => "vertical",
            Group::OrthogonalSlant => "orthogonal-slant",
            Group::PlanarDiagonal => "planar-diagonal",
            Group::Triagonal => "triagonal",
            Group::PlanarKnight => "planar-knight",
            Group::VerticalKnight => "vertical-knight",
        }
    }

    /// The group's vectors (dfile, drank, dlevel), written out as in the doc's table.
    pub fn vectors(self) -> &'static [Vec3] {
        match self {
            // (±1,0,0) (0,±1,0)
            Group::PlanarOrthogonal => &[(1, 0, 0), (-1, 0, 0), (0, 1, 0), (0, -1, 0)],
            // (0,0,±1)
            Group::Vertical => &[(0, 0, 1), (0, 0, -1)],
            // (±1,0,±1) (0,±1,±1)
            Group::OrthogonalSlant => {
                &[(1, 0, 1), (1, 0, -1), (-1, 0, 1), (-1, 0, -1), (0, 1, 1), (0, 1, -1), (0, -1, 1), (0, -1, -1)]
            }
            // (±1,±1,0)
            Group::PlanarDiagonal => &[(1, 1, 0), (1, -1, 0), (-1, 1, 0), (-1, -1, 0)],
            // (±1,±1,±1)
            Group::Triagonal => {
                &[(1, 1, 1), (1, 1, -1), (1, -1, 1), (1, -1, -1), (-1, 1, 1), (-1, 1, -1), (-1, -1, 1), (-1, -1, -1)]
            }
            // (±2,±1,0) (±1,±2,0)
            Group::PlanarKnight => {
                &[(2, 1, 0), (2, -1, 0), (-2, 1, 0), (-2, -1, 0), (1, 2, 0), (1, -2, 0), (-1, 2, 0), (-1, -2, 0)]
            }
            // (±2,0,±1) (±1,0,±2) (0,±2,±1) (0,±1,±2)
            Group::VerticalKnight => &[
                (2, 0, 1),
                (2, 0, -1),
                (-2, 0, 1),
                (-2, 0, -1),
                (1, 0, 2),
                (1, 0, -2),
                (-1, 0, 2),
                (-1, 0, -2),
                (0, 2, 1),
                (0, 2, -1),
                (0, -2, 1),
                (0, -2, -1),
                (0, 1, 2),
                (0, 1, -2),
                (0, -1, 2),
                (0, -1, -2),
            ],
        }
    }

    /// Whether every vector of the group stays within a level.
    pub fn in_level(self) -> bool {
        self.vectors().iter().all(|d| d.2 == 0)
    }
}

/// The range stored for `"slide"`: no line on an 8×8×4 board is longer than 7 vectors, so
/// "any distance" and "at most 7" are the same movement (the doc writes N ≥ 7 as `"slide"`).
pub const SLIDE: u32 = 7;

#[derive(Deserialize, Clone, Copy, PartialEq, Eq, Debug)]
#[serde(rename_all = "kebab-case")]
pub enum Zone {
    EnemyHome,
    EveryLevel,
}

#[derive(Deserialize, Clone, Copy, PartialEq, Eq, Debug)]
#[serde(rename_all = "kebab-case")]
pub enum Policy {
    Any,
    Lost,
}

#[derive(Deserialize, Clone, Copy, PartialEq, Eq, Debug)]
#[serde(rename_all = "kebab-case")]
pub enum Stalemate {
    Draw,
    Win,
    Loss,
}

// ---------------------------------------------------------------------------------------------
// The rule set
// ---------------------------------------------------------------------------------------------

#[derive(Clone, Debug, PartialEq)]
pub struct PawnRules {
    /// Step vectors for White; Black's have drank and dlevel negated.
    pub steps: Vec<Vec3>,
    /// Capture vectors for White; Black's have drank and dlevel negated.
    pub captures: Vec<Vec3>,
    pub double_step: bool,
    pub en_passant: bool,
    pub zone: Zone,
    pub policy: Policy,
}

#[derive(Clone, Debug, PartialEq)]
pub struct DrawRules {
    /// Moves (not plies) without capture or pawn move; 0: never.
    pub fifty_moves: u64,
    pub repetition: u64,
    pub stalemate: Stalemate,
    pub insufficient_material: bool,
}

#[derive(Clone, Debug, PartialEq)]
pub struct TransferRules {
    pub enabled: bool,
    pub range: u32,
    pub capture_ends_move: bool,
    pub knight_over_occupied: bool,
}

/// A rule set: everything the generator needs, with every key filled in.
#[derive(Clone, Debug, PartialEq)]
pub struct Rules {
    pub name: String,
    pub levels: i32,
    /// Home level (0-based) of White and of Black.
    pub home: [i32; 2],
    pub castling: bool,
    /// The start placement, both armies.
    pub start: Vec<(Cell, Piece)>,
    /// Movement of the knight, bishop, rook, queen and king (in that order): direction groups
    /// with their ranges (1 = step, [`SLIDE`] = slide).
    pub movement: [Vec<(Group, u32)>; 5],
    pub pawn: PawnRules,
    pub draws: DrawRules,
    pub transfer: TransferRules,
}

/// The promotion kinds, in output order.
pub const PROMOTIONS: [Kind; 4] = [Kind::Queen, Kind::Rook, Kind::Bishop, Kind::Knight];

impl Rules {
    /// Home level (0-based) of a colour.
    pub fn home_level(&self, color: Color) -> i32 {
        self.home[color.index()]
    }

    /// A colour's back (first) rank, 0-based: rank 1 for White, rank 8 for Black.
    pub fn back_rank(color: Color) -> i32 {
        match color {
            Color::White => 0,
            Color::Black => 7,
        }
    }

    /// Whether `cell` is on `color`'s home rank: its second rank on its home level.
    pub fn is_home_rank(&self, color: Color, cell: Cell) -> bool {
        let rank = match color {
            Color::White => 1,
            Color::Black => 6,
        };
        cell.y == rank && cell.z == self.home_level(color)
    }

    /// Whether `cell` is in `color`'s promotion zone: the enemy's back rank on the enemy's
    /// home level (`enemy-home`) or on every level (`every-level`).
    pub fn is_promotion_cell(&self, color: Color, cell: Cell) -> bool {
        let enemy = color.other();
        cell.y == Rules::back_rank(enemy) && (self.pawn.zone == Zone::EveryLevel || cell.z == self.home_level(enemy))
    }

    /// Whether a pawn of `color` may stand on `cell`: not on its first rank, not in its zone.
    pub fn pawn_may_stand(&self, color: Color, cell: Cell) -> bool {
        cell.y != Rules::back_rank(color) && !self.is_promotion_cell(color, cell)
    }

    /// The king's castling cell: file e of the back rank on the home level.
    pub fn king_home(&self, color: Color) -> Cell {
        Cell::new(4, Rules::back_rank(color), self.home_level(color))
    }

    /// Rook home cell of castling right `i` (0 = K, 1 = Q, 2 = k, 3 = q).
    pub fn rook_home(&self, i: usize) -> Cell {
        let color = right_color(i);
        let x = if i.is_multiple_of(2) { 7 } else { 0 };
        Cell::new(x, Rules::back_rank(color), self.home_level(color))
    }

    /// A piece's direction groups with their ranges (none for the pawn).
    pub fn movement(&self, kind: Kind) -> &[(Group, u32)] {
        let i = match kind {
            Kind::Pawn => return &[],
            Kind::Knight => 0,
            Kind::Bishop => 1,
            Kind::Rook => 2,
            Kind::Queen => 3,
            Kind::King => 4,
        };
        self.movement.get(i).map_or(&[], Vec::as_slice)
    }

    /// Number of pieces of `color` and `kind` in the start placement.
    pub fn start_count(&self, color: Color, kind: Kind) -> usize {
        self.start.iter().filter(|&&(_, p)| p == Piece::new(color, kind)).count()
    }

    /// The start position: White to move, castling rights for every king and rook on their
    /// castling cells (when the rule set has castling), no en passant, clocks 0 and 1.
    pub fn start_position(&self) -> Position {
        let mut pos = Position::empty(self.levels);
        for &(c, p) in &self.start {
            pos.set(c, Some(p));
        }
        if self.castling {
            for i in 0..4 {
                let color = right_color(i);
                pos.castling[i] = pos.get(self.king_home(color)) == Some(Piece::new(color, Kind::King))
                    && pos.get(self.rook_home(i)) == Some(Piece::new(color, Kind::Rook));
            }
        }
        pos
    }

    /// Whether two rule sets play the same game (everything but the name).
    pub fn same_rules(&self, other: &Rules) -> bool {
        let mut a = self.clone();
        a.name.clone_from(&other.name);
        a.start.sort_by_key(|&(c, _)| c);
        let mut b = other.clone();
        b.start.sort_by_key(|&(c, _)| c);
        a == b
    }
}

/// Colour owning castling right `i` (0 = K, 1 = Q, 2 = k, 3 = q).
pub fn right_color(i: usize) -> Color {
    if i < 2 {
        Color::White
    } else {
        Color::Black
    }
}
