//! How the pieces other than pawns move: leaps, slides by class, riders, and what the rule set's
//! attacks are made of (`planar`, `general`).

use super::vectors::{leap_table, step_vectors};
use stackchess_core::{ByColor, ByRole, Role, RoleSet};
use stackchess_geometry::{Bitboard, Cell, CellTable, Dir, DirGroup, GroupSet, Rays};
use stackchess_rules::{Movement, RuleSet};

/// Slides along line groups, at most a range shorter than the board.
#[derive(Debug)]
pub(crate) struct Lines<const L: usize> {
    pub groups: GroupSet,
    /// Cells within the range along the groups on an empty board, by cell.
    pub reach: CellTable<Bitboard<L>>,
}

/// Line groups a set of roles slides along with one range (beyond the full-range planar slides):
/// the unit of attack tests, where a slider of the class in reach of a cell on an empty board
/// attacks it when nothing stands between.
#[derive(Debug)]
pub(crate) struct SlideClass<const L: usize> {
    pub roles: RoleSet,
    /// Cells the class reaches from each cell on an empty board (within its range).
    pub empty: CellTable<Bitboard<L>>,
}

/// The normal moves of the pieces other than pawns, by role.
#[derive(Debug, Default)]
pub(crate) struct Pieces<const L: usize> {
    /// Range-1 targets by role and cell (empty for roles with none).
    pub leaps: ByRole<CellTable<Bitboard<L>>>,
    /// Roles with range-1 targets.
    pub leap_roles: RoleSet,
    /// Roles that slide any distance along planar orthogonals (a rook lookup).
    pub ortho_roles: RoleSet,
    /// Roles that slide any distance along planar diagonals (a bishop lookup).
    pub diag_roles: RoleSet,
    /// Slides of any distance that leave the level, by role.
    pub cross_lines: ByRole<GroupSet>,
    /// Slides of limited range, by role.
    pub lines: ByRole<Vec<Lines<L>>>,
    /// The attack classes of those other slides.
    pub slide_classes: Vec<SlideClass<L>>,
    /// Knight-vector riders (range above 1) by role: the vector and its range.
    pub riders: ByRole<Vec<(Dir, u8)>>,
    /// Whether every normal move stays on its level (steps, pawn captures and slides; no riders):
    /// attack tests then read one word per role.
    pub planar: bool,
    /// Whether any role rides.
    pub has_riders: bool,
    /// Whether legality needs the general test (riders or transfers: attacks that are not lines).
    pub general: bool,
}

/// A slide's line groups, its range and the roles that have it: one attack class before merging.
type Class = (GroupSet, u8, RoleSet);

impl<const L: usize> Pieces<L> {
    /// The pieces' tables; `pawn_captures` and `transfers` (whether the rules have them) decide
    /// `planar` and `general`.
    pub(super) fn new(
        rules: &RuleSet,
        rays: &Rays<L>,
        pawn_captures: &ByColor<CellTable<Bitboard<L>>>,
        transfers: bool,
    ) -> Self {
        let mut p = Pieces::default();
        let mut classes = Vec::new();
        for &role in &Role::ALL[1..] {
            p.add_role(role, rules.pieces.of(role).expect("not a pawn"), rays, &mut classes);
        }
        p.slide_classes = slide_classes(classes, rays);
        p.has_riders = p.riders.iter().any(|r| !r.is_empty());
        p.planar = !p.has_riders
            && p.slide_classes.is_empty()
            && (0..64 * L).map(Cell::from_index).all(|c| {
                let off = |b: &Bitboard<L>| b.without(Bitboard::on_level(c.level(), !0)).is_empty();
                p.leaps.iter().all(|v| off(&v[c])) && pawn_captures.iter().all(|v| off(&v[c]))
            });
        p.general = p.has_riders || transfers;
        p
    }

    /// A role's leaps, slides and rides; its slides other than the full planar ones also go to
    /// `classes`.
    fn add_role(&mut self, role: Role, m: &Movement, rays: &Rays<L>, classes: &mut Vec<Class>) {
        let steps = step_vectors(m);
        if !steps.is_empty() {
            self.leaps[role] = leap_table::<L>(&steps);
            self.leap_roles.insert(role);
        }
        for (range, mut gs) in self.line_groups(role, m) {
            let limited = range < 7;
            // Full slides within the level are one magic lookup each, by role flag.
            if !limited {
                if gs.has(DirGroup::OrthoPlane) {
                    self.ortho_roles.insert(role);
                }
                if gs.has(DirGroup::DiagPlane) {
                    self.diag_roles.insert(role);
                }
                gs = GroupSet(gs.0 & !(GroupSet::ROOK_PLANE.0 | GroupSet::BISHOP_PLANE.0));
                if gs.is_empty() {
                    continue;
                }
            }
            if limited {
                let reach = CellTable::from_fn(64 * L, |c| reach_within(rays, c, gs, range));
                self.lines[role].push(Lines { groups: gs, reach });
            } else {
                self.cross_lines[role] = self.cross_lines[role].with(gs);
            }
            for g in DirGroup::ALL.into_iter().filter(|g| gs.has(*g)) {
                classes.push((GroupSet(1 << g as u8), range, RoleSet::EMPTY.with(role)));
            }
        }
    }

    /// A role's line groups above range 1, merged by range (only groups that exist on `L` levels);
    /// its knight-vector rides go to `riders`.
    fn line_groups(&mut self, role: Role, m: &Movement) -> Vec<(u8, GroupSet)> {
        let mut by_range: Vec<(u8, GroupSet)> = Vec::new();
        for &(g, r) in &m.0 {
            if r.get() == 1 {
                continue;
            }
            match g.line() {
                Some(line) if L > 1 || line.in_plane() => {
                    let bit = GroupSet(1 << line as u8);
                    match by_range.iter_mut().find(|(x, _)| *x == r.get()) {
                        Some(e) => e.1 = e.1.with(bit),
                        None => by_range.push((r.get(), bit)),
                    }
                }
                Some(_) => {}
                None => self.riders[role].extend(g.vectors().into_iter().map(|d| (d, r.get()))),
            }
        }
        by_range
    }
}

/// The attack classes: first the roles merged per (group, range), then the groups with the same
/// roles and range; in the order of geometry groups (orthogonal first), as the generator always had.
fn slide_classes<const L: usize>(classes: Vec<Class>, rays: &Rays<L>) -> Vec<SlideClass<L>> {
    let mut per_group: Vec<Class> = Vec::new();
    for (g, r, roles) in classes {
        match per_group.iter_mut().find(|(x, y, _)| *x == g && *y == r) {
            Some(e) => e.2 |= roles,
            None => per_group.push((g, r, roles)),
        }
    }
    let mut merged: Vec<Class> = Vec::new();
    for (g, r, roles) in per_group {
        match merged.iter_mut().find(|(_, y, z)| *y == r && *z == roles) {
            Some(e) => e.0 = e.0.with(g),
            None => merged.push((g, r, roles)),
        }
    }
    merged.sort_by_key(|(g, r, _)| (g.0.trailing_zeros(), *r));
    merged
        .into_iter()
        .map(|(groups, range, roles)| SlideClass {
            roles,
            empty: CellTable::from_fn(64 * L, |c| reach_within(rays, c, groups, range)),
        })
        .collect()
}

/// Cells within `range` steps along `gs` from `c` on an empty board.
fn reach_within<const L: usize>(rays: &Rays<L>, c: Cell, gs: GroupSet, range: u8) -> Bitboard<L> {
    if range >= 7 {
        return rays.empty_slides(c, gs);
    }
    let mut out = Bitboard::EMPTY;
    for d in gs.dirs() {
        let mut x = c;
        for _ in 0..range {
            match x.offset(d, L) {
                Some(next) => {
                    out.insert(next);
                    x = next;
                }
                None => break,
            }
        }
    }
    out
}
