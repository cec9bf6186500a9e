//! Transfers (Air Attack): how pieces move on after one, and the transfer knobs
//! (docs/rule-files.md, `[transfer]`).

use super::vectors::step_vectors;
use stackchess_core::{ByRole, Role};
use stackchess_geometry::{bishop_plane, ride_plane, rook_plane, Dir};
use stackchess_rules::{Group, RuleSet};

/// How pieces move on after a transfer, and the transfer knobs.
#[derive(Debug)]
pub(crate) struct TransferTables {
    /// Per role, the plane cells one step (range-1 vector) away, by square.
    pub leaps: ByRole<[u64; 64]>,
    /// Per role, the plane cells within its range along planar orthogonals (empty when it has
    /// no such slide), by square: a rook lookup masked by it gives the slide.
    pub orth_reach: ByRole<[u64; 64]>,
    /// The same along planar diagonals.
    pub diag_reach: ByRole<[u64; 64]>,
    /// Per role, the plane cells its movement after a transfer reaches on an empty level.
    pub reach: ByRole<[u64; 64]>,
    /// Per role, planar knight-vector riders and their ranges.
    pub riders: ByRole<Vec<(Dir, u8)>>,
    /// Whether any role rides after a transfer.
    pub has_riders: bool,
    pub capture_ends_move: bool,
    pub knight_over_occupied: bool,
}

impl TransferTables {
    /// The movement after a transfer, per role: planar groups, ranges above 1 cut to the
    /// transfer range (the king keeps its own).
    pub(super) fn new(rules: &RuleSet) -> Self {
        let t = rules.transfer;
        let mut leaps = ByRole::from_fn(|_| [0u64; 64]);
        // The orthogonal and diagonal ranges.
        let mut lines = ByRole::from_fn(|_| (0u8, 0u8));
        let mut riders: ByRole<Vec<(Dir, u8)>> = ByRole::default();
        for &role in &Role::ALL[1..] {
            let m = rules.pieces.of(role).expect("not a pawn");
            let steps: Vec<Dir> = step_vectors(m).into_iter().filter(|d| d.dl == 0).collect();
            leaps[role] = plane_leaps(&steps);
            for &(g, r) in &m.0 {
                if r.get() == 1 {
                    continue;
                }
                let cut = if role == Role::King { r.get() } else { r.get().min(t.range) };
                match g {
                    Group::PlanarOrthogonal => lines[role].0 = cut,
                    Group::PlanarDiagonal => lines[role].1 = cut,
                    Group::PlanarKnight if cut > 0 => riders[role].extend(g.vectors().into_iter().map(|d| (d, cut))),
                    _ => {}
                }
            }
        }
        let orth_reach = ByRole::from_fn(|r| std::array::from_fn(|s| king_reach(lines[r].0, s)));
        let diag_reach = ByRole::from_fn(|r| std::array::from_fn(|s| king_reach(lines[r].1, s)));
        // The slides on an empty level, cut to the range; the leaps; the rides on an empty level.
        let reach = ByRole::from_fn(|r| {
            std::array::from_fn(|s| {
                let ride = riders[r].iter().fold(0, |b, &(d, range)| b | ride_plane(s, d, range, 0));
                leaps[r][s] | orth_reach[r][s] & rook_plane(s, 0) | diag_reach[r][s] & bishop_plane(s, 0) | ride
            })
        });
        TransferTables {
            leaps,
            orth_reach,
            diag_reach,
            reach,
            has_riders: riders.iter().any(|r| !r.is_empty()),
            riders,
            capture_ends_move: t.capture_ends_move,
            knight_over_occupied: t.knight_over_occupied,
        }
    }
}

/// The squares within Chebyshev distance `k` of square `s`, `s` left out.
fn king_reach(k: u8, s: usize) -> u64 {
    (0..64usize)
        .filter(|&x| x != s && (s % 8).abs_diff(x % 8).max((s / 8).abs_diff(x / 8)) <= usize::from(k))
        .fold(0u64, |b, x| b | 1 << x)
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
