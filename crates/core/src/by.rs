//! Values by role and by colour, indexed by the enum rather than its number, and sets of roles.
//!
//! Plain arrays inside: indexing by a [`Role`] or [`Color`] needs no bounds check.

use crate::{Color, Role};
use std::fmt;
use std::ops::{BitOr, BitOrAssign, Index, IndexMut};

/// What `ByRole` and `ByColor` share: made from a function of the key, iterated in the key's
/// order, indexed by the key.
macro_rules! indexed_by {
    ($name:ident, $key:ident, $order:literal) => {
        impl<T> $name<T> {
            #[doc = concat!("`f(key)` for every [`", stringify!($key), "`].")]
            #[inline]
            #[must_use]
            pub fn from_fn(mut f: impl FnMut($key) -> T) -> Self {
                $name($key::ALL.map(&mut f))
            }
            #[doc = concat!("The values, ", $order, ".")]
            #[inline]
            pub fn iter(&self) -> std::slice::Iter<'_, T> {
                self.0.iter()
            }
            #[doc = concat!("The values, mutably, ", $order, ".")]
            #[inline]
            pub fn iter_mut(&mut self) -> std::slice::IterMut<'_, T> {
                self.0.iter_mut()
            }
        }

        impl<'a, T> IntoIterator for &'a $name<T> {
            type Item = &'a T;
            type IntoIter = std::slice::Iter<'a, T>;
            #[inline]
            fn into_iter(self) -> Self::IntoIter {
                self.0.iter()
            }
        }

        impl<'a, T> IntoIterator for &'a mut $name<T> {
            type Item = &'a mut T;
            type IntoIter = std::slice::IterMut<'a, T>;
            #[inline]
            fn into_iter(self) -> Self::IntoIter {
                self.0.iter_mut()
            }
        }

        impl<T> Index<$key> for $name<T> {
            type Output = T;
            #[inline]
            fn index(&self, k: $key) -> &T {
                &self.0[k.index()]
            }
        }

        impl<T> IndexMut<$key> for $name<T> {
            #[inline]
            fn index_mut(&mut self, k: $key) -> &mut T {
                &mut self.0[k.index()]
            }
        }
    };
}

/// One value per role, indexed by [`Role`] (pawn first).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
#[repr(transparent)]
pub struct ByRole<T>([T; 6]);

impl<T> ByRole<T> {
    /// The values of `values`, pawn first (as [`Role::ALL`] lists the roles).
    #[inline]
    #[must_use]
    pub const fn from_array(values: [T; 6]) -> Self {
        ByRole(values)
    }
}

indexed_by!(ByRole, Role, "pawn first");

/// One value per colour, indexed by [`Color`] (White first).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
#[repr(transparent)]
pub struct ByColor<T>([T; 2]);

impl<T> ByColor<T> {
    /// White's value and Black's.
    #[inline]
    #[must_use]
    pub const fn new(white: T, black: T) -> Self {
        ByColor([white, black])
    }
}

indexed_by!(ByColor, Color, "White first");

/// A set of roles: bit [`Role::index`] of a `u8`.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
#[repr(transparent)]
pub struct RoleSet(u8);

impl RoleSet {
    /// No role.
    pub const EMPTY: RoleSet = RoleSet(0);

    /// The set with `r` added.
    #[inline]
    #[must_use]
    pub const fn with(self, r: Role) -> RoleSet {
        RoleSet(self.0 | 1 << r as u8)
    }
    /// Adds `r`.
    #[inline]
    pub fn insert(&mut self, r: Role) {
        *self = self.with(r);
    }
    /// Whether `r` is in the set.
    #[inline]
    #[must_use]
    pub const fn has(self, r: Role) -> bool {
        self.0 >> r as u8 & 1 != 0
    }
    /// Whether the set is empty.
    #[inline]
    #[must_use]
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }
    /// The roles in the set, pawn first.
    #[inline]
    #[must_use]
    pub const fn iter(self) -> RoleSetIter {
        RoleSetIter(self.0)
    }
}

impl BitOr for RoleSet {
    type Output = RoleSet;
    #[inline]
    fn bitor(self, other: RoleSet) -> RoleSet {
        RoleSet(self.0 | other.0)
    }
}

impl BitOrAssign for RoleSet {
    #[inline]
    fn bitor_assign(&mut self, other: RoleSet) {
        self.0 |= other.0;
    }
}

impl FromIterator<Role> for RoleSet {
    fn from_iter<I: IntoIterator<Item = Role>>(roles: I) -> Self {
        roles.into_iter().fold(RoleSet::EMPTY, RoleSet::with)
    }
}

impl IntoIterator for RoleSet {
    type Item = Role;
    type IntoIter = RoleSetIter;
    #[inline]
    fn into_iter(self) -> RoleSetIter {
        self.iter()
    }
}

/// Letters, pawn first: `RoleSet(NBQ)`.
impl fmt::Debug for RoleSet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "RoleSet(")?;
        for r in *self {
            write!(f, "{}", r.upper())?;
        }
        write!(f, ")")
    }
}

/// The roles of a [`RoleSet`], pawn first (lowest bit first).
#[derive(Clone, Debug)]
pub struct RoleSetIter(u8);

impl Iterator for RoleSetIter {
    type Item = Role;
    #[inline]
    fn next(&mut self) -> Option<Role> {
        if self.0 == 0 {
            return None;
        }
        let i = self.0.trailing_zeros();
        self.0 &= self.0 - 1;
        // Only bits 0 to 5 are ever set.
        Some(match i {
            0 => Role::Pawn,
            1 => Role::Knight,
            2 => Role::Bishop,
            3 => Role::Rook,
            4 => Role::Queen,
            _ => Role::King,
        })
    }
    #[inline]
    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.0.count_ones() as usize;
        (n, Some(n))
    }
}

impl ExactSizeIterator for RoleSetIter {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn by_role_is_indexed_by_role() {
        let mut v = ByRole::from_fn(Role::upper);
        assert_eq!(v[Role::Pawn], 'P');
        assert_eq!(v[Role::King], 'K');
        v[Role::Queen] = 'q';
        assert_eq!(v.iter().collect::<String>(), "PNBRqK");
        for x in &mut v {
            *x = x.to_ascii_lowercase();
        }
        assert_eq!((&v).into_iter().count(), 6);
        assert_eq!(v, ByRole::from_fn(Role::lower));
        assert_eq!(ByRole::<u32>::default(), ByRole::from_fn(|_| 0));
    }

    #[test]
    fn by_color_is_indexed_by_color() {
        let mut v = ByColor::new(1, 2);
        assert_eq!((v[Color::White], v[Color::Black]), (1, 2));
        v[Color::Black] += 10;
        assert_eq!(v.iter().copied().collect::<Vec<_>>(), [1, 12]);
        assert_eq!(ByColor::from_fn(Color::char), ByColor::new('w', 'b'));
        v.iter_mut().for_each(|x| *x = 0);
        assert_eq!(v, ByColor::default());
    }

    #[test]
    fn role_sets_hold_roles() {
        let s = RoleSet::EMPTY.with(Role::Queen).with(Role::Knight);
        assert!(RoleSet::EMPTY.is_empty() && !s.is_empty());
        assert!(s.has(Role::Knight) && s.has(Role::Queen) && !s.has(Role::Rook) && !s.has(Role::Pawn));
        assert_eq!(s.iter().collect::<Vec<_>>(), [Role::Knight, Role::Queen]);
        assert_eq!(s.iter().len(), 2);
        let mut t = RoleSet::EMPTY;
        t.insert(Role::King);
        t |= RoleSet::EMPTY.with(Role::Pawn);
        assert_eq!(s | t, Role::ALL.into_iter().filter(|r| !matches!(r, Role::Bishop | Role::Rook)).collect());
        assert_eq!(Role::ALL.into_iter().collect::<RoleSet>().into_iter().collect::<Vec<_>>(), Role::ALL);
        assert_eq!(format!("{:?}", s | t), "RoleSet(PNQK)");
    }
}
