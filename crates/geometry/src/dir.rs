//! Direction vectors and the named groups of docs/rules.md §2.

/// A step `(dfile, drank, dlevel)`.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Dir {
    /// File delta.
    pub df: i8,
    /// Rank delta.
    pub dr: i8,
    /// Level delta.
    pub dl: i8,
}

impl Dir {
    /// The vector `(df, dr, dl)`.
    #[must_use]
    pub const fn new(df: i8, dr: i8, dl: i8) -> Dir {
        Dir { df, dr, dl }
    }
    /// The same vector for the other side: rank and level negated.
    #[must_use]
    pub const fn mirrored(self) -> Dir {
        Dir::new(self.df, -self.dr, -self.dl)
    }
    /// The vector times `k`.
    #[must_use]
    pub const fn times(self, k: i8) -> Dir {
        Dir::new(self.df * k, self.dr * k, self.dl * k)
    }
    /// The group a unit direction belongs to, or `None` for a non-unit vector.
    #[must_use]
    pub fn group(self) -> Option<DirGroup> {
        DirGroup::ALL.into_iter().find(|g| g.dirs().contains(&self))
    }
}

/// A named set of unit directions (docs/rules.md §2).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum DirGroup {
    /// `(±1,0,0) (0,±1,0)`: 4.
    OrthoPlane = 0,
    /// `(±1,±1,0)`: 4.
    DiagPlane = 1,
    /// `(0,0,±1)`: 2.
    Vertical = 2,
    /// `(±1,0,±1) (0,±1,±1)`: 8.
    OrthoSlant = 3,
    /// `(±1,±1,±1)`: 8.
    Triagonal = 4,
}

impl DirGroup {
    /// Every group.
    pub const ALL: [DirGroup; 5] =
        [DirGroup::OrthoPlane, DirGroup::DiagPlane, DirGroup::Vertical, DirGroup::OrthoSlant, DirGroup::Triagonal];

    /// The unit vectors of the group.
    #[must_use]
    pub fn dirs(self) -> &'static [Dir] {
        const O: [Dir; 4] = [Dir::new(1, 0, 0), Dir::new(-1, 0, 0), Dir::new(0, 1, 0), Dir::new(0, -1, 0)];
        const D: [Dir; 4] = [Dir::new(1, 1, 0), Dir::new(-1, 1, 0), Dir::new(1, -1, 0), Dir::new(-1, -1, 0)];
        const V: [Dir; 2] = [Dir::new(0, 0, 1), Dir::new(0, 0, -1)];
        const S: [Dir; 8] = [
            Dir::new(1, 0, 1),
            Dir::new(-1, 0, 1),
            Dir::new(0, 1, 1),
            Dir::new(0, -1, 1),
            Dir::new(1, 0, -1),
            Dir::new(-1, 0, -1),
            Dir::new(0, 1, -1),
            Dir::new(0, -1, -1),
        ];
        const T: [Dir; 8] = [
            Dir::new(1, 1, 1),
            Dir::new(-1, 1, 1),
            Dir::new(1, -1, 1),
            Dir::new(-1, -1, 1),
            Dir::new(1, 1, -1),
            Dir::new(-1, 1, -1),
            Dir::new(1, -1, -1),
            Dir::new(-1, -1, -1),
        ];
        match self {
            DirGroup::OrthoPlane => &O,
            DirGroup::DiagPlane => &D,
            DirGroup::Vertical => &V,
            DirGroup::OrthoSlant => &S,
            DirGroup::Triagonal => &T,
        }
    }

    /// Whether the group stays within a level.
    #[must_use]
    pub fn in_plane(self) -> bool {
        matches!(self, DirGroup::OrthoPlane | DirGroup::DiagPlane)
    }
}

/// A set of [`DirGroup`]s, as a bit mask.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
pub struct GroupSet(pub u8);

impl GroupSet {
    /// No group.
    pub const NONE: GroupSet = GroupSet(0);
    /// Rook lines: orthogonal in plane, vertical, orthogonal slant (14 directions).
    pub const ROOK: GroupSet = GroupSet(1 | 4 | 8);
    /// Bishop lines: diagonal in plane, triagonal (12 directions).
    pub const BISHOP: GroupSet = GroupSet(2 | 16);
    /// Rook lines within a level only (4 directions).
    pub const ROOK_PLANE: GroupSet = GroupSet(1);
    /// Bishop lines within a level only (4 directions).
    pub const BISHOP_PLANE: GroupSet = GroupSet(2);
    /// All 26 directions.
    pub const ALL: GroupSet = GroupSet(31);

    /// Whether `g` is in the set.
    #[must_use]
    pub const fn has(self, g: DirGroup) -> bool {
        self.0 >> g as u8 & 1 != 0
    }
    /// The union.
    #[must_use]
    pub const fn with(self, other: GroupSet) -> GroupSet {
        GroupSet(self.0 | other.0)
    }
    /// Whether the set is empty.
    #[must_use]
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }
    /// The unit directions of every group in the set.
    pub fn dirs(self) -> impl Iterator<Item = Dir> {
        DirGroup::ALL.into_iter().filter(move |g| self.has(*g)).flat_map(|g| g.dirs().iter().copied())
    }
}

/// All 26 king directions.
#[must_use]
pub fn king_dirs() -> Vec<Dir> {
    GroupSet::ALL.dirs().collect()
}

/// The 24 knight leaps: every permutation of `(±2,±1,0)` over the three axes.
#[must_use]
pub fn knight_leaps() -> Vec<Dir> {
    let mut v = Vec::new();
    for a in [-2i8, 2] {
        for b in [-1i8, 1] {
            v.extend([
                Dir::new(a, b, 0),
                Dir::new(b, a, 0),
                Dir::new(a, 0, b),
                Dir::new(b, 0, a),
                Dir::new(0, a, b),
                Dir::new(0, b, a),
            ]);
        }
    }
    v
}

/// The plane cells a planar rider on square `sq` reaches along `d`, through empty cells of `occ`.
#[must_use]
pub fn ride_plane(sq: usize, d: Dir, range: u8, occ: u64) -> u64 {
    let mut out = 0u64;
    #[allow(clippy::cast_possible_wrap, clippy::cast_possible_truncation)]
    let (mut f, mut r) = ((sq % 8) as i32, (sq / 8) as i32);
    for _ in 0..range {
        f += i32::from(d.df);
        r += i32::from(d.dr);
        if !(0..8).contains(&f) || !(0..8).contains(&r) {
            break;
        }
        #[allow(clippy::cast_sign_loss)]
        let bit = 1u64 << (r * 8 + f) as u32;
        out |= bit;
        if occ & bit != 0 {
            break;
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_match_the_rules() {
        assert_eq!(GroupSet::ALL.dirs().count(), 26);
        assert_eq!(GroupSet::ROOK.dirs().count(), 14);
        assert_eq!(GroupSet::BISHOP.dirs().count(), 12);
        let k = knight_leaps();
        assert_eq!(k.len(), 24);
        let unique: std::collections::HashSet<_> = k.iter().collect();
        assert_eq!(unique.len(), 24);
        assert_eq!(Dir::new(1, 1, -1).group(), Some(DirGroup::Triagonal));
        assert_eq!(Dir::new(2, 1, 0).group(), None);
    }
}
