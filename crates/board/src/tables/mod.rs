//! A [`RuleSet`] compiled into the bitboard tables the generator looks up.

use stackchess_core::{Castling, Color, DrawRules, Role, SplitMix64};
use stackchess_geometry::{bishop_plane, rook_plane, Bitboard, Cell, CellTable, Dir, DirGroup, GroupSet, Rays, Shift};
use stackchess_rules::{Group, Movement, Promotion, PromotionZone, RuleSet};

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
    /// The roles, as a bit mask by [`Role::index`].
    pub roles: u8,
    /// Cells the class reaches from each cell on an empty board (within its range).
    pub empty: CellTable<Bitboard<L>>,
}

/// How pieces move on after a transfer, and the transfer knobs (docs/rule-files.md).
#[derive(Debug)]
pub(crate) struct TransferTables {
    /// Per role, the plane cells one step (range-1 vector) away, by square.
    pub leaps: [[u64; 64]; 6],
    /// Per role, the plane cells within its range along planar orthogonals (empty when it has
    /// no such slide), by square: a rook lookup masked by it gives the slide.
    pub orth_reach: [[u64; 64]; 6],
    /// The same along planar diagonals.
    pub diag_reach: [[u64; 64]; 6],
    /// Per role, the plane cells its movement after a transfer reaches on an empty level.
    pub reach: [[u64; 64]; 6],
    /// Per role, planar knight-vector riders and their ranges.
    pub riders: [Vec<(Dir, u8)>; 6],
    /// Whether any role rides after a transfer.
    pub has_riders: bool,
    pub capture_ends_move: bool,
    pub knight_over_occupied: bool,
}

/// Everything the generator looks up, compiled from a [`RuleSet`] for `L` levels.
///
/// Tables are built once per rule set and live for the rest of the process ([`Tables::leak`]);
/// a `&'static Tables` is the rule set's handle ([`stackchess_core::Rules`]).
pub struct Tables<const L: usize> {
    /// The rule set these tables were compiled from.
    pub rules: RuleSet,
    pub(crate) name: &'static str,
    pub(crate) id: &'static str,
    /// The start position as LFEN.
    pub(crate) start: String,
    pub(crate) draws: DrawRules,
    pub(crate) rays: Rays<L>,
    /// Range-1 targets by role and cell (empty for roles with none).
    pub(crate) leaps: [CellTable<Bitboard<L>>; 6],
    /// Roles with range-1 targets, as a bit mask.
    pub(crate) leap_roles: u8,
    /// Roles that slide any distance along planar orthogonals (a rook lookup), as a bit mask.
    pub(crate) ortho_roles: u8,
    /// Roles that slide any distance along planar diagonals (a bishop lookup), as a bit mask.
    pub(crate) diag_roles: u8,
    /// Slides of any distance that leave the level, by role.
    pub(crate) cross_lines: [GroupSet; 6],
    /// Slides of limited range, by role.
    pub(crate) lines: [Vec<Lines<L>>; 6],
    /// The attack classes of those other slides.
    pub(crate) slide_classes: Vec<SlideClass<L>>,
    /// Knight-vector riders (range above 1) by role: the vector and its range.
    pub(crate) riders: [Vec<(Dir, u8)>; 6],
    /// Whether every normal move stays on its level (steps, pawn captures and slides; no riders):
    /// attack tests then read one word per role.
    pub(crate) planar: bool,
    /// Whether any role rides.
    pub(crate) has_riders: bool,
    /// Whether legality needs the general test (riders or transfers: attacks that are not lines).
    pub(crate) general: bool,
    pub(crate) transfer: Option<TransferTables>,
    /// Pawn step targets by colour and cell.
    pub(crate) pawn_steps: [CellTable<Bitboard<L>>; 2],
    /// Pawn double steps by colour and cell: `(middle, target)` pairs.
    pub(crate) pawn_doubles: [Vec<Vec<(Cell, Cell)>>; 2],
    /// Cells from which a pawn of each colour has a double step.
    pub(crate) double_from: [Bitboard<L>; 2],
    /// Pawn step and capture vectors by colour, as set shifts.
    pub(crate) step_shifts: [Vec<Shift>; 2],
    pub(crate) capture_shifts: [Vec<Shift>; 2],
    /// Whether pawn moves can be counted set-wise: no step lands where a double step of the same
    /// pawn does (each move is then one vector's, counted once).
    pub(crate) pawn_bulk: bool,
    /// One level up and one level down, as set shifts.
    pub(crate) vertical_shifts: [Shift; 2],
    /// Pawn capture targets by colour and cell.
    pub(crate) pawn_captures: [CellTable<Bitboard<L>>; 2],
    /// The inverse: by colour and cell, the cells from which a pawn of that colour captures there
    /// (capture vectors need not be symmetric).
    pub(crate) pawn_attackers: [CellTable<Bitboard<L>>; 2],
    /// Each side's home rank (its second rank on its home level).
    pub(crate) home_rank: [Bitboard<L>; 2],
    pub(crate) en_passant: bool,
    /// Promotion cells by colour.
    pub(crate) promo: [Bitboard<L>; 2],
    /// Cells no pawn of a colour can stand on.
    pub(crate) bad_pawn: [Bitboard<L>; 2],
    /// Promotion to lost kinds only.
    pub(crate) promote_lost: bool,
    /// How many of each role a side's army starts with.
    pub(crate) start_counts: [[u32; 6]; 2],
    /// Castling moves by colour, king side first.
    pub(crate) castles: [[Option<CastleMove<L>>; 2]; 2],
    /// Castling rights to clear when a move leaves or reaches a cell.
    pub(crate) castle_clear: CellTable<u8>,
    /// Zobrist keys by piece (`colour * 6 + role`) and cell.
    pub(crate) z_piece: [CellTable<u64>; 12],
    pub(crate) z_side: u64,
    pub(crate) z_castle: [u64; 16],
    pub(crate) z_ep: CellTable<u64>,
}

impl<const L: usize> std::fmt::Debug for Tables<L> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Tables({} {}, {L} levels)", self.name, self.id)
    }
}

/// Two handles are equal when they are the same tables.
impl<const L: usize> PartialEq for Tables<L> {
    fn eq(&self, other: &Self) -> bool {
        std::ptr::eq(self, other)
    }
}

fn cell<const L: usize>(file: usize, rank: usize, level: usize) -> Cell {
    Cell::from_index(level * 64 + rank * 8 + file)
}

/// The cells one `d` away from each cell.
fn leap_table<const L: usize>(dirs: &[Dir]) -> CellTable<Bitboard<L>> {
    CellTable::from_fn(64 * L, |c| dirs.iter().filter_map(|&d| c.offset(d, L)).collect())
}

/// The vectors of a movement's range-1 groups.
fn step_vectors(m: &Movement) -> Vec<Dir> {
    m.0.iter().filter(|(_, r)| r.get() == 1).flat_map(|(g, _)| g.vectors()).collect()
}

impl<const L: usize> Tables<L> {
    /// Compiles the tables and keeps them for the rest of the process.
    ///
    /// # Panics
    /// When `rules.board.levels != L` (a programming error: the caller picks `L` from the rules).
    #[must_use]
    pub fn leak(rules: RuleSet) -> &'static Tables<L> {
        Box::leak(Box::new(Tables::new(rules)))
    }

    /// Compiles the tables.
    ///
    /// # Panics
    /// When `rules.board.levels != L`.
    #[must_use]
    // One pass over the rule set that fills ~40 flat tables; splitting `Tables` by what it holds
    // (pieces, pawns, castling, transfers, Zobrist) is issue 23's open item.
    #[allow(clippy::too_many_lines)]
    pub fn new(rules: RuleSet) -> Self {
        assert_eq!(rules.board.levels, L, "rule set level count");
        let n = 64 * L;
        let rays = Rays::<L>::new();
        let mut leaps: [CellTable<Bitboard<L>>; 6] = Default::default();
        let mut lines: [Vec<Lines<L>>; 6] = Default::default();
        let mut cross_lines = [GroupSet::NONE; 6];
        let mut riders: [Vec<(Dir, u8)>; 6] = Default::default();
        let mut leap_roles = 0u8;
        let (mut ortho_roles, mut diag_roles) = (0u8, 0u8);
        // (groups, range) → roles, for the attack classes.
        let mut classes: Vec<(GroupSet, u8, u8)> = Vec::new();
        for role in &Role::ALL[1..] {
            let m = rules.pieces.of(*role).expect("not a pawn");
            let steps = step_vectors(m);
            if !steps.is_empty() {
                leaps[role.index()] = leap_table::<L>(&steps);
                leap_roles |= 1 << role.index();
            }
            // Line groups above range 1, merged by range (only groups that exist on L levels).
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
                    None => riders[role.index()].extend(g.vectors().into_iter().map(|d| (d, r.get()))),
                }
            }
            for (range, mut gs) in by_range {
                let limited = range < 7;
                // Full slides within the level are one magic lookup each, by role flag.
                if !limited {
                    if gs.has(DirGroup::OrthoPlane) {
                        ortho_roles |= 1 << role.index();
                    }
                    if gs.has(DirGroup::DiagPlane) {
                        diag_roles |= 1 << role.index();
                    }
                    gs = GroupSet(gs.0 & !(GroupSet::ROOK_PLANE.0 | GroupSet::BISHOP_PLANE.0));
                    if gs.is_empty() {
                        continue;
                    }
                }
                if limited {
                    let reach = CellTable::from_fn(n, |c| reach_within(&rays, c, gs, range));
                    lines[role.index()].push(Lines { groups: gs, reach });
                } else {
                    cross_lines[role.index()] = cross_lines[role.index()].with(gs);
                }
                for g in DirGroup::ALL.into_iter().filter(|g| gs.has(*g)) {
                    let bit = GroupSet(1 << g as u8);
                    classes.push((bit, range, 1 << role.index()));
                }
            }
        }
        // Merge classes: first the roles per (group, range), then groups with the same roles and range.
        let mut per_group: Vec<(GroupSet, u8, u8)> = Vec::new();
        for (g, r, roles) in classes {
            match per_group.iter_mut().find(|(x, y, _)| *x == g && *y == r) {
                Some(e) => e.2 |= roles,
                None => per_group.push((g, r, roles)),
            }
        }
        let mut merged: Vec<(GroupSet, u8, u8)> = Vec::new();
        for (g, r, roles) in per_group {
            match merged.iter_mut().find(|(_, y, z)| *y == r && *z == roles) {
                Some(e) => e.0 = e.0.with(g),
                None => merged.push((g, r, roles)),
            }
        }
        // Keep the order of geometry groups (orthogonal first), as the generator always had.
        merged.sort_by_key(|(g, r, _)| (g.0.trailing_zeros(), *r));
        let slide_classes: Vec<SlideClass<L>> = merged
            .into_iter()
            .map(|(groups, range, roles)| SlideClass {
                roles,
                empty: CellTable::from_fn(n, |c| reach_within(&rays, c, groups, range)),
            })
            .collect();
        let has_riders = riders.iter().any(|r| !r.is_empty());

        let per_color = |v: &[Dir]| {
            [Color::White, Color::Black].map(|c| {
                let dirs: Vec<Dir> = v.iter().map(|d| if c == Color::White { *d } else { d.mirrored() }).collect();
                leap_table::<L>(&dirs)
            })
        };
        let pawn_steps = per_color(&rules.pawn.steps);
        let pawn_captures = per_color(&rules.pawn.captures);
        let backwards: Vec<Dir> = rules.pawn.captures.iter().map(|d| d.times(-1)).collect();
        let pawn_attackers = per_color(&backwards);
        let home_level = [rules.board.white_home, rules.board.black_home];
        let back_rank = [0, 7];
        let pawn_rank = [1, 6];
        let home_rank: [Bitboard<L>; 2] =
            [0, 1].map(|c| (0..8).map(|f| cell::<L>(f, pawn_rank[c], home_level[c])).collect());
        let pawn_doubles: [Vec<Vec<(Cell, Cell)>>; 2] = [Color::White, Color::Black].map(|c| {
            (0..n)
                .map(|i| {
                    let from = Cell::from_index(i);
                    if !(rules.pawn.double_step && home_rank[c.index()].has(from)) {
                        return Vec::new();
                    }
                    rules
                        .pawn
                        .steps
                        .iter()
                        .map(|d| if c == Color::White { *d } else { d.mirrored() })
                        .filter_map(|d| Some((from.offset(d, L)?, from.offset(d.times(2), L)?)))
                        .collect()
                })
                .collect()
        });
        let double_from = [0, 1]
            .map(|c: usize| (0..n).map(Cell::from_index).filter(|x| !pawn_doubles[c][x.index()].is_empty()).collect());
        let shifts = |v: &[Dir]| {
            [Color::White, Color::Black]
                .map(|c| v.iter().map(|d| Shift::new(if c == Color::White { *d } else { d.mirrored() })).collect())
        };
        // Vectors are never listed twice (the rules refuse it), so only a step landing where a
        // double step of the same pawn does (steps [0, 1, 0] and [0, 2, 0]) counts a move twice.
        let pawn_bulk = [0, 1].into_iter().all(|c| {
            pawn_doubles[c]
                .iter()
                .enumerate()
                .all(|(i, doubles)| doubles.iter().all(|&(_, to)| !pawn_steps[c][Cell::from_index(i)].has(to)))
        });
        let rank_cells = |rank: usize, level: Option<usize>| -> Bitboard<L> {
            (0..n).map(Cell::from_index).filter(|c| c.rank() == rank && level.is_none_or(|l| c.level() == l)).collect()
        };
        // White promotes on rank 8 (of Black's home level, or of every level), and the mirror.
        let every = rules.pawn.promotion_zone == PromotionZone::EveryLevel;
        let promo =
            [rank_cells(7, (!every).then_some(home_level[1])), rank_cells(0, (!every).then_some(home_level[0]))];
        let bad_pawn = [rank_cells(0, None) | promo[0], rank_cells(7, None) | promo[1]];

        let mut start_counts = [[0u32; 6]; 2];
        for (c, army) in [(0, &rules.board.white), (1, &rules.board.black)] {
            for ch in army.iter().flat_map(|l| l.chars()) {
                if let Some(r) = stackchess_core::Role::from_char(ch.to_ascii_uppercase()) {
                    start_counts[c][r.index()] += 1;
                }
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

        let transfer = rules.transfer.enabled.then(|| transfer_tables(&rules));
        let planar = !has_riders
            && slide_classes.is_empty()
            && (0..n).map(Cell::from_index).all(|c| {
                let off = |b: &Bitboard<L>| b.without(Bitboard::on_level(c.level(), !0)).is_empty();
                leaps.iter().all(|v| off(&v[c])) && pawn_captures.iter().all(|v| off(&v[c]))
            });
        // Zobrist keys by level count. Two levels keep the seed Air Attack's own board had, so its
        // hashes (book key checks, the bench signature) did not change with the shared board.
        let seed = if L == 2 { 0x4169_7241_7474_6163 } else { 0x5374_6163_6B43_6865 ^ L as u64 };
        let mut rng = SplitMix64(seed);
        let keys: Vec<u64> = (0..12 * n).map(|_| rng.next_u64()).collect();
        let z_piece = std::array::from_fn(|k| CellTable::from_fn(n, |c| keys[k * n + c.index()]));
        let z_side = rng.next_u64();
        let mut z_castle = [0u64; 16];
        let bits: [u64; 4] = std::array::from_fn(|_| rng.next_u64());
        for (i, z) in z_castle.iter_mut().enumerate() {
            *z = (0..4).filter(|b| i >> b & 1 != 0).fold(0, |acc, b| acc ^ bits[b]);
        }
        let eps: Vec<u64> = (0..n).map(|_| rng.next_u64()).collect();
        let z_ep = CellTable::from_fn(n, |c| eps[c.index()]);
        let name: &'static str = Box::leak(rules.name.clone().into_boxed_str());
        let id: &'static str = Box::leak(rules.id().into_boxed_str());
        let start = start_lfen(&rules, &castles);

        Tables {
            name,
            id,
            start,
            draws: rules.draws,
            rays,
            leaps,
            leap_roles,
            ortho_roles,
            diag_roles,
            cross_lines,
            lines,
            slide_classes,
            riders,
            planar,
            has_riders,
            general: has_riders || transfer.is_some(),
            transfer,
            pawn_steps,
            pawn_doubles,
            double_from,
            step_shifts: shifts(&rules.pawn.steps),
            capture_shifts: shifts(&rules.pawn.captures),
            pawn_bulk,
            vertical_shifts: [Shift::new(Dir::new(0, 0, 1)), Shift::new(Dir::new(0, 0, -1))],
            pawn_captures,
            pawn_attackers,
            home_rank,
            en_passant: rules.pawn.en_passant,
            promo,
            bad_pawn,
            promote_lost: rules.pawn.promotion == Promotion::Lost,
            start_counts,
            castles,
            castle_clear: CellTable::from_fn(n, |c| castle_clear[c.index()]),
            z_piece,
            z_side,
            z_castle,
            z_ep,
            rules,
        }
    }

    /// Zobrist key of a piece on a cell.
    #[inline]
    pub(crate) fn zp(&self, color: Color, role: Role, c: Cell) -> u64 {
        self.z_piece[color.index() * 6 + role.index()][c]
    }
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

/// The start position: the armies, White to move, the castling rights their kings and rooks have.
fn start_lfen<const L: usize>(rules: &RuleSet, castles: &[[Option<CastleMove<L>>; 2]; 2]) -> String {
    let placement = rules.start_placement();
    let mut rights = String::new();
    let levels: Vec<&str> = placement.split('|').collect();
    let mut at = std::collections::HashMap::new();
    // The placement is valid: it was checked when the rules were read.
    let _ = stackchess_core::parse_placement(&levels, |c, p| {
        at.insert(c, p);
    });
    for (color, letters) in [(Color::White, ['K', 'Q']), (Color::Black, ['k', 'q'])] {
        for (long, letter) in [(false, letters[0]), (true, letters[1])] {
            if let Some(cm) = castles[color.index()][usize::from(long)] {
                let king = at.get(&cm.king_from).is_some_and(|p| p.color == color && p.role == Role::King);
                let rook = at.get(&cm.rook_from).is_some_and(|p| p.color == color && p.role == Role::Rook);
                if king && rook {
                    rights.push(letter);
                }
            }
        }
    }
    if rights.is_empty() {
        rights.push('-');
    }
    format!("{placement} w {rights} - 0 1")
}

/// The movement after a transfer, per role: planar groups, ranges above 1 cut to the transfer
/// range (the king keeps its own).
fn transfer_tables(rules: &RuleSet) -> TransferTables {
    let t = rules.transfer;
    let mut leaps = [[0u64; 64]; 6];
    let mut lines = [(0u8, 0u8); 6];
    let mut riders: [Vec<(Dir, u8)>; 6] = Default::default();
    for role in &Role::ALL[1..] {
        let m = rules.pieces.of(*role).expect("not a pawn");
        let steps: Vec<Dir> = step_vectors(m).into_iter().filter(|d| d.dl == 0).collect();
        leaps[role.index()] = plane_leaps(&steps);
        for &(g, r) in &m.0 {
            if r.get() == 1 {
                continue;
            }
            let cut = if *role == Role::King { r.get() } else { r.get().min(t.range) };
            match g {
                Group::PlanarOrthogonal => lines[role.index()].0 = cut,
                Group::PlanarDiagonal => lines[role.index()].1 = cut,
                Group::PlanarKnight if cut > 0 => {
                    riders[role.index()].extend(g.vectors().into_iter().map(|d| (d, cut)));
                }
                _ => {}
            }
        }
    }
    // Cells within Chebyshev distance `k` of a square.
    let reach = |k: u8, s: usize| -> u64 {
        (0..64usize)
            .filter(|&x| x != s && (s % 8).abs_diff(x % 8).max((s / 8).abs_diff(x / 8)) <= usize::from(k))
            .fold(0u64, |b, x| b | 1 << x)
    };
    let orth_reach = std::array::from_fn(|i| std::array::from_fn(|s| reach(lines[i].0, s)));
    let diag_reach = std::array::from_fn(|i| std::array::from_fn(|s| reach(lines[i].1, s)));
    let has_riders = riders.iter().any(|r| !r.is_empty());
    // The slides on an empty level, cut to the range; the leaps; the rides on an empty level.
    let reach = std::array::from_fn(|i| {
        std::array::from_fn(|s| {
            let ride = riders[i].iter().fold(0, |b, &(d, range)| b | stackchess_geometry::ride_plane(s, d, range, 0));
            leaps[i][s] | orth_reach[i][s] & rook_plane(s, 0) | diag_reach[i][s] & bishop_plane(s, 0) | ride
        })
    });
    TransferTables {
        leaps,
        orth_reach,
        diag_reach,
        reach,
        riders,
        has_riders,
        capture_ends_move: t.capture_ends_move,
        knight_over_occupied: t.knight_over_occupied,
    }
}

/// For each square, the squares one planar vector away.
fn plane_leaps(dirs: &[Dir]) -> [u64; 64] {
    std::array::from_fn(|s| {
        #[allow(clippy::cast_possible_wrap, clippy::cast_possible_truncation)]
        let (f, r) = ((s % 8) as i32, (s / 8) as i32);
        dirs.iter()
            .filter_map(|d| {
                let (x, y) = (f + i32::from(d.df), r + i32::from(d.dr));
                #[allow(clippy::cast_sign_loss)]
                ((0..8).contains(&x) && (0..8).contains(&y)).then(|| (y * 8 + x) as usize)
            })
            .fold(0, |b, t| b | 1 << t)
    })
}
