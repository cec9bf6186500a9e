//! Pawn moves by colour: steps, double steps, captures, their set shifts, promotion cells.

use super::vectors::{cell, leap_table};
use stackchess_core::{ByColor, Color};
use stackchess_geometry::{Bitboard, Cell, CellTable, Dir, Shift};
use stackchess_rules::{Promotion, PromotionZone, RuleSet};

/// The pawns' tables, by colour.
#[derive(Debug)]
pub(crate) struct Pawns<const L: usize> {
    /// Step targets by colour and cell.
    pub steps: ByColor<CellTable<Bitboard<L>>>,
    /// Double steps by colour and cell index: `(middle, target)` pairs.
    pub doubles: ByColor<Vec<Vec<(Cell, Cell)>>>,
    /// Cells from which a pawn of each colour has a double step.
    pub double_from: ByColor<Bitboard<L>>,
    /// Step and capture vectors by colour, as set shifts.
    pub step_shifts: ByColor<Vec<Shift>>,
    pub capture_shifts: ByColor<Vec<Shift>>,
    /// Whether pawn moves can be counted set-wise: no step lands where a double step of the same
    /// pawn does (each move is then one vector's, counted once).
    pub bulk: bool,
    /// One level up and one level down, as set shifts.
    pub vertical_shifts: [Shift; 2],
    /// Capture targets by colour and cell.
    pub captures: ByColor<CellTable<Bitboard<L>>>,
    /// The inverse: by colour and cell, the cells from which a pawn of that colour captures there
    /// (capture vectors need not be symmetric).
    pub attackers: ByColor<CellTable<Bitboard<L>>>,
    /// Each side's home rank (its second rank on its home level).
    pub home_rank: ByColor<Bitboard<L>>,
    pub en_passant: bool,
    /// Promotion cells by colour.
    pub promo: ByColor<Bitboard<L>>,
    /// Cells no pawn of a colour can stand on.
    pub bad_pawn: ByColor<Bitboard<L>>,
    /// Promotion to lost kinds only.
    pub promote_lost: bool,
}

/// A vector as a pawn of `c` moves along it (White's, mirrored for Black).
fn toward(c: Color, d: Dir) -> Dir {
    if c == Color::White {
        d
    } else {
        d.mirrored()
    }
}

impl<const L: usize> Pawns<L> {
    /// The pawns' tables of a rule set for `L` levels.
    pub(super) fn new(rules: &RuleSet) -> Self {
        let p = &rules.pawn;
        let per_color =
            |v: &[Dir]| ByColor::from_fn(|c| leap_table::<L>(&v.iter().map(|&d| toward(c, d)).collect::<Vec<_>>()));
        let shifts = |v: &[Dir]| ByColor::from_fn(|c| v.iter().map(|&d| Shift::new(toward(c, d))).collect());
        let steps = per_color(&p.steps);
        let backwards: Vec<Dir> = p.captures.iter().map(|d| d.times(-1)).collect();
        let home_level = ByColor::new(rules.board.white_home, rules.board.black_home);
        let pawn_rank = ByColor::new(1, 6);
        let home_rank = ByColor::from_fn(|c| (0..8).map(|f| cell::<L>(f, pawn_rank[c], home_level[c])).collect());
        let doubles = ByColor::from_fn(|c| double_steps::<L>(rules, c, home_rank[c]));
        let double_from = ByColor::from_fn(|c| {
            (0..64 * L).map(Cell::from_index).filter(|x| !doubles[c][x.index()].is_empty()).collect()
        });
        let (promo, bad_pawn) = promotion_cells::<L>(rules);
        Pawns {
            bulk: set_wise(&steps, &doubles),
            steps,
            doubles,
            double_from,
            step_shifts: shifts(&p.steps),
            capture_shifts: shifts(&p.captures),
            vertical_shifts: [Shift::new(Dir::new(0, 0, 1)), Shift::new(Dir::new(0, 0, -1))],
            captures: per_color(&p.captures),
            attackers: per_color(&backwards),
            home_rank,
            en_passant: p.en_passant,
            promo,
            bad_pawn,
            promote_lost: p.promotion == Promotion::Lost,
        }
    }
}

/// Whether pawn moves can be counted set-wise (`Pawns::bulk`). Vectors are never listed twice
/// (the rules refuse it), so only a step landing where a double step of the same pawn does
/// (steps [0, 1, 0] and [0, 2, 0]) counts a move twice.
fn set_wise<const L: usize>(
    steps: &ByColor<CellTable<Bitboard<L>>>,
    doubles: &ByColor<Vec<Vec<(Cell, Cell)>>>,
) -> bool {
    Color::ALL.into_iter().all(|c| {
        doubles[c].iter().enumerate().all(|(i, ds)| ds.iter().all(|&(_, to)| !steps[c][Cell::from_index(i)].has(to)))
    })
}

/// The promotion cells by colour, and the cells no pawn of a colour can stand on (its own back
/// rank on every level, and its promotion cells).
fn promotion_cells<const L: usize>(rules: &RuleSet) -> (ByColor<Bitboard<L>>, ByColor<Bitboard<L>>) {
    let rank_cells = |rank: usize, level: Option<usize>| -> Bitboard<L> {
        (0..64 * L).map(Cell::from_index).filter(|c| c.rank() == rank && level.is_none_or(|l| c.level() == l)).collect()
    };
    // White promotes on rank 8 (of Black's home level, or of every level), and the mirror.
    let on = |level: usize| (rules.pawn.promotion_zone != PromotionZone::EveryLevel).then_some(level);
    let promo = ByColor::new(rank_cells(7, on(rules.board.black_home)), rank_cells(0, on(rules.board.white_home)));
    let bad_pawn = ByColor::new(rank_cells(0, None) | promo[Color::White], rank_cells(7, None) | promo[Color::Black]);
    (promo, bad_pawn)
}

/// The double steps of a pawn of `c` by cell index: `(middle, target)` for each step vector, from
/// its home rank `home` when the rules have double steps.
fn double_steps<const L: usize>(rules: &RuleSet, c: Color, home: Bitboard<L>) -> Vec<Vec<(Cell, Cell)>> {
    (0..64 * L)
        .map(|i| {
            let from = Cell::from_index(i);
            if !(rules.pawn.double_step && home.has(from)) {
                return Vec::new();
            }
            rules
                .pawn
                .steps
                .iter()
                .map(|&d| toward(c, d))
                .filter_map(|d| Some((from.offset(d, L)?, from.offset(d.times(2), L)?)))
                .collect()
        })
        .collect()
}
