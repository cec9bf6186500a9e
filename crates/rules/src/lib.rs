//! Rule sets as data: the TOML rule-file format of docs/rule-files.md.
//!
//! A rule file is read into a [`RuleSet`]: every rule resolved (a `base` merged in, defaults
//! filled), validated with errors that name the key and the line. [`RuleSet::to_toml`] writes the
//! effective rules back as a complete file, and [`RuleSet::id`] hashes them: two files with the
//! same rules have the same id whatever their names. The move generator (`stackchess-board`)
//! compiles a [`RuleSet`] into tables; nothing about the rules lives in its code.
//!
//! ```
//! use stackchess_rules::RuleSet;
//! let text = "name = \"x\"\nbase = \"fide\"\n[draws]\nstalemate = \"loss\"\n";
//! let fide = include_str!("../../traditional/fide.toml");
//! let rules = RuleSet::parse(text, &|name| (name == "fide").then(|| fide.to_owned())).unwrap();
//! assert_eq!(rules.board.levels, 1);
//! assert_ne!(rules.id(), RuleSet::parse(fide, &|_| None).unwrap().id());
//! ```

mod error;
mod file;
mod resolve;
mod write;

pub use error::RuleError;

use stackchess_core::{DrawRules, Role};
use stackchess_geometry::{Dir, DirGroup};

/// A named set of direction vectors (docs/rule-files.md, `[pieces]`).
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub enum Group {
    /// (±1,0,0) (0,±1,0).
    PlanarOrthogonal,
    /// (0,0,±1).
    Vertical,
    /// (±1,0,±1) (0,±1,±1).
    OrthogonalSlant,
    /// (±1,±1,0).
    PlanarDiagonal,
    /// (±1,±1,±1).
    Triagonal,
    /// (±2,±1,0) (±1,±2,0).
    PlanarKnight,
    /// (±2,0,±1) (±1,0,±2) (0,±2,±1) (0,±1,±2).
    VerticalKnight,
}

impl Group {
    /// Every group, in the order rule files are written.
    pub const ALL: [Group; 7] = [
        Group::PlanarOrthogonal,
        Group::Vertical,
        Group::OrthogonalSlant,
        Group::PlanarDiagonal,
        Group::Triagonal,
        Group::PlanarKnight,
        Group::VerticalKnight,
    ];

    /// The name used in rule files.
    #[must_use]
    pub const fn name(self) -> &'static str {
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

    /// The group of a name.
    #[must_use]
    pub fn from_name(name: &str) -> Option<Group> {
        Group::ALL.into_iter().find(|g| g.name() == name)
    }

    /// The line group of the geometry (a unit-step group), or `None` for the knight groups.
    #[must_use]
    pub const fn line(self) -> Option<DirGroup> {
        match self {
            Group::PlanarOrthogonal => Some(DirGroup::OrthoPlane),
            Group::Vertical => Some(DirGroup::Vertical),
            Group::OrthogonalSlant => Some(DirGroup::OrthoSlant),
            Group::PlanarDiagonal => Some(DirGroup::DiagPlane),
            Group::Triagonal => Some(DirGroup::Triagonal),
            Group::PlanarKnight | Group::VerticalKnight => None,
        }
    }

    /// Whether the group's vectors stay within a level.
    #[must_use]
    pub const fn planar(self) -> bool {
        matches!(self, Group::PlanarOrthogonal | Group::PlanarDiagonal | Group::PlanarKnight)
    }

    /// The vectors of the group.
    #[must_use]
    pub fn vectors(self) -> Vec<Dir> {
        if let Some(g) = self.line() {
            return g.dirs().to_vec();
        }
        let mut v = Vec::new();
        for a in [-2i8, 2] {
            for b in [-1i8, 1] {
                if self == Group::PlanarKnight {
                    v.extend([Dir::new(a, b, 0), Dir::new(b, a, 0)]);
                } else {
                    v.extend([Dir::new(a, 0, b), Dir::new(b, 0, a), Dir::new(0, a, b), Dir::new(0, b, a)]);
                }
            }
        }
        v
    }
}

/// How far a piece may go along a group's vectors: 1 (a step, or a knight's leap) to 7 (any
/// distance on an 8×8 board: a slide).
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub struct Range(u8);

impl Range {
    /// One vector.
    pub const STEP: Range = Range(1);
    /// Any distance.
    pub const SLIDE: Range = Range(7);

    /// At most `n` vectors (`n ≥ 7` is a slide); `None` for 0.
    #[must_use]
    pub fn at_most(n: u64) -> Option<Range> {
        (n > 0).then(|| Range(n.min(7) as u8))
    }

    /// The number of vectors, 1 to 7.
    #[must_use]
    pub const fn get(self) -> u8 {
        self.0
    }

    /// Whether any distance is allowed.
    #[must_use]
    pub const fn is_slide(self) -> bool {
        self.0 >= 7
    }
}

/// A piece's movement: a range for each of its groups.
#[derive(Clone, PartialEq, Eq, Hash, Debug, Default)]
pub struct Movement(pub Vec<(Group, Range)>);

impl Movement {
    /// The range along `g`, if the piece moves along it.
    #[must_use]
    pub fn range(&self, g: Group) -> Option<Range> {
        self.0.iter().find(|(x, _)| *x == g).map(|&(_, r)| r)
    }
}

/// Movement of the five pieces that are not pawns.
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub struct Pieces {
    /// The king (royal).
    pub king: Movement,
    /// The queen.
    pub queen: Movement,
    /// The rook.
    pub rook: Movement,
    /// The bishop.
    pub bishop: Movement,
    /// The knight.
    pub knight: Movement,
}

impl Pieces {
    /// The movement of `role`; `None` for the pawn.
    #[must_use]
    pub fn of(&self, role: Role) -> Option<&Movement> {
        match role {
            Role::Pawn => None,
            Role::Knight => Some(&self.knight),
            Role::Bishop => Some(&self.bishop),
            Role::Rook => Some(&self.rook),
            Role::Queen => Some(&self.queen),
            Role::King => Some(&self.king),
        }
    }
}

/// Where pawns promote.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum PromotionZone {
    /// The enemy's back rank on the enemy's home level.
    EnemyHome,
    /// The last rank of every level.
    EveryLevel,
}

/// What pawns promote to.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Promotion {
    /// A queen, rook, bishop or knight, freely.
    Any,
    /// Only a kind the mover has lost: its army's start count minus its pieces of that kind now.
    Lost,
}

/// Pawn rules, vectors given for White (Black's have drank and dlevel negated).
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub struct Pawn {
    /// Moves to an empty cell.
    pub steps: Vec<Dir>,
    /// Captures.
    pub captures: Vec<Dir>,
    /// Two steps along one step vector from the home rank.
    pub double_step: bool,
    /// En passant after a double step.
    pub en_passant: bool,
    /// Where pawns promote.
    pub promotion_zone: PromotionZone,
    /// What they promote to.
    pub promotion: Promotion,
}

/// The board and the armies.
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub struct Board {
    /// Number of levels, 1 to 4.
    pub levels: usize,
    /// White's home level, 0-based.
    pub white_home: usize,
    /// Black's home level, 0-based.
    pub black_home: usize,
    /// White's army: one FEN placement per level, level 1 first.
    pub white: Vec<String>,
    /// Black's army, the same way (a file's `"mirror"` is resolved).
    pub black: Vec<String>,
}

/// Air Attack's transfers.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Transfer {
    /// Whether pieces may transfer between levels.
    pub enabled: bool,
    /// The range a piece keeps after a transfer (ranges above 1 are cut to it).
    pub range: u8,
    /// Whether a capture on the transfer cell ends the move.
    pub capture_ends_move: bool,
    /// Whether a knight transfers whatever stands on its transfer cell.
    pub knight_over_occupied: bool,
}

impl Transfer {
    /// No transfers (the defaults of the other keys).
    pub const OFF: Transfer =
        Transfer { enabled: false, range: 4, capture_ends_move: true, knight_over_occupied: true };
}

impl Default for Transfer {
    fn default() -> Self {
        Transfer::OFF
    }
}

/// A complete, valid rule set.
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub struct RuleSet {
    /// The name in records and on the command line.
    pub name: String,
    /// One line on what it explores.
    pub description: String,
    /// Castling on the home rank of the home level.
    pub castling: bool,
    /// The board and the armies.
    pub board: Board,
    /// The pieces' movement.
    pub pieces: Pieces,
    /// The pawns.
    pub pawn: Pawn,
    /// The draw rules.
    pub draws: DrawRules,
    /// Transfers.
    pub transfer: Transfer,
}

impl RuleSet {
    /// Whether a pawn move may be undone, so that a position from before it can come again:
    /// with transfers (a pawn goes up and back down), or with steps that can return a pawn to a
    /// cell it left. Counted conservatively: the steps are irreversible when some small weighting
    /// of file, rank and level grows with every step (Malka's `[0,1,0]`, `[0,0,1]`, `[0,1,1]`
    /// all gain rank + level). Repetition then looks further back than the last pawn move.
    #[must_use]
    pub fn pawn_moves_reversible(&self) -> bool {
        let w = -2..=2i32;
        let grows = |wf: i32, wr: i32, wl: i32| {
            self.pawn.steps.iter().all(|d| wf * i32::from(d.df) + wr * i32::from(d.dr) + wl * i32::from(d.dl) > 0)
        };
        let monotone = w.clone().any(|wf| w.clone().any(|wr| w.clone().any(|wl| grows(wf, wr, wl))));
        self.transfer.enabled || !monotone
    }

    /// Reads a rule file. `base` gives the text of a built-in rule file by name (for `base = "..."`).
    ///
    /// # Errors
    /// A syntax error, an unknown or mistyped key, a bad base, or a rule set that cannot be
    /// played (docs/rule-files.md, "Validation"): the error names the key and, where the file
    /// has one, the line.
    pub fn parse(text: &str, base: &dyn Fn(&str) -> Option<String>) -> Result<RuleSet, RuleError> {
        resolve::parse(text, base)
    }

    /// The rule set as a complete rule file, every key given.
    #[must_use]
    pub fn to_toml(&self) -> String {
        write::to_toml(self, true)
    }

    /// The rule set's id: the first 16 hex digits of the SHA-256 of its rules written without
    /// name and description.
    #[must_use]
    pub fn id(&self) -> String {
        write::id(self)
    }

    /// The start placement as the placement field of an LFEN (levels joined by `|`).
    #[must_use]
    pub fn start_placement(&self) -> String {
        resolve::merge_armies(&self.board).join("|")
    }

    /// The home level (0-based) of a side.
    #[must_use]
    pub fn home_level(&self, c: stackchess_core::Color) -> usize {
        match c {
            stackchess_core::Color::White => self.board.white_home,
            stackchess_core::Color::Black => self.board.black_home,
        }
    }
}
