//! Bitboard tables built once from a [`RuleSet`].

use crate::RuleSet;
use stackchess_core::{Castling, Color, Role, SplitMix64};
use stackchess_geometry::{Bitboard, Cell, DirGroup, GroupSet, Rays};

/// One castling move's cells.
#[derive(Clone, Copy, Debug)]
pub(crate) struct CastleMove<const L: usize> {
    pub king_from: Cell,
    pub king_to: Cell,
    pub rook_from: Cell,
    pub rook_to: Cell,
    /// Cells that must be empty (between king and rook).
    pub empty: Bitboard<L>,
    /// The cell the king crosses.
    pub cross: Cell,
}

/// Everything the generator looks up, derived from a [`RuleSet`] for `L` levels.
///
/// Tables are built once per rule set and live for the rest of the process (see
/// [`Tables::leak`]); a `&'static Tables` is the rule set's handle ([`stackchess_core::Rules`]).
pub struct Tables<const L: usize> {
    /// The rule set these tables were built from.
    pub rules: RuleSet,
    pub(crate) rays: Rays<L>,
    /// Leap targets by role and cell (empty table for roles that do not leap).
    pub(crate) leaps: [Vec<Bitboard<L>>; 6],
    /// Slide groups by role.
    pub(crate) slides: [GroupSet; 6],
    /// Slide classes: groups that the same roles slide along, with those roles as a bit mask
    /// (Traditional: rook lines for R and Q, bishop lines for B and Q). Only groups that exist on `L` levels.
    pub(crate) slide_classes: Vec<(GroupSet, u8)>,
    /// For each slide class, its slides from each cell on an empty board.
    pub(crate) class_empty: Vec<Vec<Bitboard<L>>>,
    /// Roles that leap, as a bit mask.
    pub(crate) leap_roles: u8,
    /// Pawn step targets by colour and cell.
    pub(crate) pawn_steps: [Vec<Bitboard<L>>; 2],
    /// Pawn double steps by colour and cell: `(middle, target)` pairs.
    pub(crate) pawn_doubles: [Vec<Vec<(Cell, Cell)>>; 2],
    /// Cells from which a pawn of each colour has a double step.
    pub(crate) double_from: [Bitboard<L>; 2],
    /// Pawn capture targets by colour and cell.
    pub(crate) pawn_captures: [Vec<Bitboard<L>>; 2],
    /// Promotion cells by colour.
    pub(crate) promo: [Bitboard<L>; 2],
    /// Cells no pawn of a colour can stand on.
    pub(crate) bad_pawn: [Bitboard<L>; 2],
    /// How many of each role a side starts with.
    pub(crate) start_counts: [u32; 6],
    /// Castling moves by colour, king side first.
    pub(crate) castles: [[Option<CastleMove<L>>; 2]; 2],
    /// Castling rights to clear when a move leaves or reaches a cell.
    pub(crate) castle_clear: Vec<u8>,
    pub(crate) z_piece: Vec<u64>,
    pub(crate) z_side: u64,
    pub(crate) z_castle: [u64; 16],
    pub(crate) z_ep: Vec<u64>,
}

fn cell<const L: usize>(file: usize, rank: usize, level: usize) -> Cell {
    #[allow(clippy::cast_possible_wrap, clippy::cast_possible_truncation)]
    Cell::try_new(file as i32, rank as i32, level as i32, L).expect("cell on the board")
}

impl<const L: usize> std::fmt::Debug for Tables<L> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Tables({}, {L} levels)", self.rules.name)
    }
}

/// Two handles are equal when they are the same tables.
impl<const L: usize> PartialEq for Tables<L> {
    fn eq(&self, other: &Self) -> bool {
        std::ptr::eq(self, other)
    }
}

impl<const L: usize> Tables<L> {
    /// Builds the tables and keeps them for the rest of the process.
    #[must_use]
    pub fn leak(rules: RuleSet) -> &'static Tables<L> {
        Box::leak(Box::new(Tables::new(rules)))
    }

    /// Builds the tables.
    ///
    /// # Panics
    /// When `rules.levels != L` (a programming error: each rule crate fixes both).
    #[must_use]
    pub fn new(rules: RuleSet) -> Self {
        assert_eq!(rules.levels, L, "rule set level count");
        let n = 64 * L;
        let rays = Rays::<L>::new();
        let mut leaps: [Vec<Bitboard<L>>; 6] = Default::default();
        let mut slides = [GroupSet::NONE; 6];
        let mut group_roles = [0u8; 5];
        let mut leap_roles = 0u8;
        for role in &Role::ALL[1..] {
            let mv = rules.movement(*role).expect("non-pawn");
            if !mv.leaps.is_empty() {
                leaps[role.index()] = Rays::<L>::leap_table(&mv.leaps);
                leap_roles |= 1 << role.index();
            }
            slides[role.index()] = mv.slides;
            for g in DirGroup::ALL {
                if mv.slides.has(g) {
                    group_roles[g as usize] |= 1 << role.index();
                }
            }
        }
        let mut slide_classes: Vec<(GroupSet, u8)> = Vec::new();
        for g in DirGroup::ALL.into_iter().filter(|g| L > 1 || g.in_plane()) {
            let role_mask = group_roles[g as usize];
            if role_mask == 0 {
                continue;
            }
            let bit = GroupSet(1 << g as u8);
            match slide_classes.iter_mut().find(|(_, r)| *r == role_mask) {
                Some(class) => class.0 = class.0.with(bit),
                None => slide_classes.push((bit, role_mask)),
            }
        }
        let class_empty = slide_classes
            .iter()
            .map(|&(gs, _)| (0..n).map(|i| rays.empty_slides(Cell::from_index(i), gs)).collect())
            .collect();
        let per_color = |f: &dyn Fn(Color) -> Vec<stackchess_geometry::Dir>| {
            [Color::White, Color::Black].map(|c| Rays::<L>::leap_table(&f(c)))
        };
        let mirror = |c: Color, v: &[stackchess_geometry::Dir]| -> Vec<_> {
            v.iter().map(|d| if c == Color::White { *d } else { d.mirrored() }).collect()
        };
        let pawn_steps = per_color(&|c| mirror(c, &rules.pawn.steps));
        let pawn_captures = per_color(&|c| mirror(c, &rules.pawn.captures));
        let home_level = [0, L - 1];
        let back_rank = [0, 7];
        let pawn_rank = [1, 6];
        let pawn_doubles: [Vec<Vec<(Cell, Cell)>>; 2] = [Color::White, Color::Black].map(|c| {
            (0..n)
                .map(|i| {
                    let from = Cell::from_index(i);
                    let home = from.level() == home_level[c.index()] && from.rank() == pawn_rank[c.index()];
                    if !(home && rules.pawn.double_step) {
                        return Vec::new();
                    }
                    mirror(c, &rules.pawn.steps)
                        .iter()
                        .filter_map(|&d| Some((from.offset(d, L)?, from.offset(d.times(2), L)?)))
                        .collect()
                })
                .collect()
        });
        let double_from = [0, 1]
            .map(|c: usize| (0..n).map(Cell::from_index).filter(|x| !pawn_doubles[c][x.index()].is_empty()).collect());
        let rank_cells = |rank: usize, level: Option<usize>| -> Bitboard<L> {
            (0..n).map(Cell::from_index).filter(|c| c.rank() == rank && level.is_none_or(|l| c.level() == l)).collect()
        };
        // White promotes on Black's back rank on Black's home level, and the mirror.
        let promo = [rank_cells(7, Some(home_level[1])), rank_cells(0, Some(home_level[0]))];
        let bad_pawn = [rank_cells(0, None) | promo[0], rank_cells(7, None) | promo[1]];

        let mut start_counts = [0u32; 6];
        let placement = rules.start.split_whitespace().next().unwrap_or_default();
        for ch in placement.chars().filter(char::is_ascii_uppercase) {
            if let Some(r) = Role::from_char(ch) {
                start_counts[r.index()] += 1;
            }
        }

        let mut castles = [[None; 2]; 2];
        let mut castle_clear = vec![0u8; n];
        if rules.castling {
            for c in Color::ALL {
                let (lv, rk) = (home_level[c.index()], back_rank[c.index()]);
                let king_from = cell::<L>(4, rk, lv);
                castle_clear[king_from.index()] |= Castling::bit(c, false) | Castling::bit(c, true);
                for (long, (rook_file, king_file, rook_to_file)) in [(false, (7, 6, 5)), (true, (0, 2, 3))] {
                    let rook_from = cell::<L>(rook_file, rk, lv);
                    castle_clear[rook_from.index()] |= Castling::bit(c, long);
                    castles[c.index()][usize::from(long)] = Some(CastleMove {
                        king_from,
                        king_to: cell::<L>(king_file, rk, lv),
                        rook_from,
                        rook_to: cell::<L>(rook_to_file, rk, lv),
                        empty: rays.between(king_from, rook_from),
                        cross: cell::<L>(rook_to_file, rk, lv),
                    });
                }
            }
        }

        let mut rng = SplitMix64(0x5374_6163_6B43_6865 ^ L as u64);
        let z_piece = (0..12 * n).map(|_| rng.next_u64()).collect();
        let z_side = rng.next_u64();
        let mut z_castle = [0u64; 16];
        let bits: [u64; 4] = std::array::from_fn(|_| rng.next_u64());
        for (i, z) in z_castle.iter_mut().enumerate() {
            *z = (0..4).filter(|b| i >> b & 1 != 0).fold(0, |acc, b| acc ^ bits[b]);
        }
        let z_ep = (0..n).map(|_| rng.next_u64()).collect();

        Tables {
            rules,
            rays,
            leaps,
            slides,
            slide_classes,
            class_empty,
            leap_roles,
            pawn_steps,
            pawn_doubles,
            double_from,
            pawn_captures,
            promo,
            bad_pawn,
            start_counts,
            castles,
            castle_clear,
            z_piece,
            z_side,
            z_castle,
            z_ep,
        }
    }

    /// Zobrist key of a piece on a cell.
    #[inline]
    pub(crate) fn zp(&self, color: Color, role: Role, c: Cell) -> u64 {
        self.z_piece[(color.index() * 6 + role.index()) * 64 * L + c.index()]
    }
}
