//! Where generated moves go: a list, or a counter (perft's last ply, counted in bulk).

use stackchess_core::{Move, MoveKind, MoveList, Role};
use stackchess_geometry::{Bitboard, Cell};

/// Where generated moves go: a list, or a counter (bulk counting).
pub(crate) trait Sink<const L: usize> {
    /// Whether the sink only counts (moves may then be counted set-wise, through [`Sink::add`]).
    const BULK: bool = false;
    /// `n` moves counted set-wise (bulk sinks only).
    fn add(&mut self, n: usize);
    /// Moves from `from` to each target, of `kind`.
    fn set(&mut self, from: Cell, targets: Bitboard<L>, kind: MoveKind);
    /// Promotions from `from` to each target, to each of `roles`.
    fn promos(&mut self, from: Cell, targets: Bitboard<L>, roles: &[Role], kind: MoveKind);
    /// One move.
    fn one(&mut self, m: Move);
    /// The only targets the sink takes (every cell for most): the generator skips the work of
    /// the others' legality tests.
    fn wanted(&self) -> Bitboard<L> {
        Bitboard::FULL
    }
    /// Moves from `from` to each target: within its level normal moves, to another level
    /// transfers (for rule sets with transfers, whose normal moves never change level).
    fn set_by_level(&mut self, from: Cell, targets: Bitboard<L>) {
        let other = !Bitboard::on_level(from.level(), !0);
        self.set(from, targets.without(other), MoveKind::Normal);
        self.set(from, targets & other, MoveKind::Transfer);
    }
    /// Promotions, normal or transfers as [`Sink::set_by_level`].
    fn promos_by_level(&mut self, from: Cell, targets: Bitboard<L>, roles: &[Role]) {
        let other = !Bitboard::on_level(from.level(), !0);
        self.promos(from, targets.without(other), roles, MoveKind::Normal);
        self.promos(from, targets & other, roles, MoveKind::Transfer);
    }
}

impl<const L: usize> Sink<L> for MoveList {
    fn add(&mut self, _: usize) {
        debug_assert!(false, "a move list is not a bulk sink");
    }
    #[inline]
    fn set(&mut self, from: Cell, targets: Bitboard<L>, kind: MoveKind) {
        targets.for_each(|to| self.push(Move::new(from, to, None, kind)));
    }
    #[inline]
    fn set_by_level(&mut self, from: Cell, targets: Bitboard<L>) {
        // One pass in cell order (a level below first), as the moves are generated.
        targets.for_each(|to| {
            let kind = if to.level() == from.level() { MoveKind::Normal } else { MoveKind::Transfer };
            self.push(Move::new(from, to, None, kind));
        });
    }
    #[inline]
    fn promos_by_level(&mut self, from: Cell, targets: Bitboard<L>, roles: &[Role]) {
        targets.for_each(|to| {
            let kind = if to.level() == from.level() { MoveKind::Normal } else { MoveKind::Transfer };
            for &r in roles {
                self.push(Move::new(from, to, Some(r), kind));
            }
        });
    }
    #[inline]
    fn promos(&mut self, from: Cell, targets: Bitboard<L>, roles: &[Role], kind: MoveKind) {
        targets.for_each(|to| {
            for &r in roles {
                self.push(Move::new(from, to, Some(r), kind));
            }
        });
    }
    #[inline]
    fn one(&mut self, m: Move) {
        self.push(m);
    }
}

/// A move list that takes only the moves ending on the cells of `keep`, in the order a plain
/// list gets them.
pub(crate) struct Within<'a, const L: usize> {
    pub list: &'a mut MoveList,
    pub keep: Bitboard<L>,
}

impl<const L: usize> Sink<L> for Within<'_, L> {
    fn add(&mut self, _: usize) {
        debug_assert!(false, "a move list is not a bulk sink");
    }
    #[inline]
    fn set(&mut self, from: Cell, targets: Bitboard<L>, kind: MoveKind) {
        Sink::<L>::set(self.list, from, targets & self.keep, kind);
    }
    #[inline]
    fn promos(&mut self, from: Cell, targets: Bitboard<L>, roles: &[Role], kind: MoveKind) {
        Sink::<L>::promos(self.list, from, targets & self.keep, roles, kind);
    }
    #[inline]
    fn set_by_level(&mut self, from: Cell, targets: Bitboard<L>) {
        Sink::<L>::set_by_level(self.list, from, targets & self.keep);
    }
    #[inline]
    fn promos_by_level(&mut self, from: Cell, targets: Bitboard<L>, roles: &[Role]) {
        Sink::<L>::promos_by_level(self.list, from, targets & self.keep, roles);
    }
    #[inline]
    fn one(&mut self, m: Move) {
        if self.keep.has(m.to()) {
            self.list.push(m);
        }
    }
    #[inline]
    fn wanted(&self) -> Bitboard<L> {
        self.keep
    }
}

impl<const L: usize> Sink<L> for usize {
    const BULK: bool = true;
    #[inline]
    fn add(&mut self, n: usize) {
        *self += n;
    }
    #[inline]
    fn set_by_level(&mut self, _: Cell, targets: Bitboard<L>) {
        *self += targets.count() as usize;
    }
    #[inline]
    fn promos_by_level(&mut self, _: Cell, targets: Bitboard<L>, roles: &[Role]) {
        *self += targets.count() as usize * roles.len();
    }
    #[inline]
    fn set(&mut self, _: Cell, targets: Bitboard<L>, _: MoveKind) {
        *self += targets.count() as usize;
    }
    #[inline]
    fn promos(&mut self, _: Cell, targets: Bitboard<L>, roles: &[Role], _: MoveKind) {
        *self += targets.count() as usize * roles.len();
    }
    #[inline]
    fn one(&mut self, _: Move) {
        *self += 1;
    }
}
