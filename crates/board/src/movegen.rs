//! Legal move generation. Where every attack runs along a line (no riders, no transfers), check
//! and pin masks make every move legal by construction; otherwise [`crate::general`] tests the
//! moves that could expose the king.

use crate::sink::Sink;
use crate::Board;
use stackchess_core::{Color, Move, MoveKind, Position, Role, RoleSet};
use stackchess_geometry::{Bitboard, Cell, GroupSet};

impl<const L: usize> Board<L> {
    /// Cells a non-pawn `role` on `c` attacks by a normal move, given occupancy. `PLANAR` says the
    /// tables are [`crate::Tables`]'s `pieces.planar` (compiled apart: the code for the other moves
    /// then costs nothing).
    #[allow(
        clippy::inline_always,
        reason = "returned through memory, its result costs a stalled load (Air Attack perft)"
    )]
    #[inline(always)]
    pub(crate) fn piece_attacks<const PLANAR: bool>(&self, role: Role, c: Cell, occ: Bitboard<L>) -> Bitboard<L> {
        let (t, p) = (self.t, &self.t.pieces);
        let mut a = if p.leap_roles.has(role) { p.leaps[role][c] } else { Bitboard::EMPTY };
        if (p.ortho_roles | p.diag_roles).has(role) {
            let (l, sq) = (c.level(), c.plane());
            let occ_l = occ.word(l);
            let mut w = 0;
            if p.ortho_roles.has(role) {
                w |= t.rays.rook_plane(sq, occ_l);
            }
            if p.diag_roles.has(role) {
                w |= t.rays.bishop_plane(sq, occ_l);
            }
            a |= Bitboard::on_level(l, w);
        }
        debug_assert!(!PLANAR || p.planar);
        if PLANAR {
            return a;
        }
        if !p.cross_lines[role].is_empty() {
            a |= t.rays.cross_slides(c, p.cross_lines[role], occ);
        }
        for lines in &p.lines[role] {
            a |= t.rays.slides(c, lines.groups, occ) & lines.reach[c];
        }
        if p.has_riders {
            for &(d, range) in &p.riders[role] {
                a |= ride(c, d, range, occ);
            }
        }
        a
    }

    /// The pieces (both colours) of the roles `roles`.
    #[inline]
    pub(crate) fn of_roles(&self, roles: RoleSet) -> Bitboard<L> {
        let mut b = Bitboard::EMPTY;
        for r in roles {
            b |= self.placed.by_role[r];
        }
        b
    }

    /// Whether a pawn or a step of the pieces `theirs` (pieces of `by`) reaches `c`.
    #[inline]
    pub(crate) fn attacked_by_steps(&self, c: Cell, by: Color, theirs: Bitboard<L>) -> bool {
        let t = self.t;
        let role = |r: Role| self.placed.by_role[r] & theirs;
        if t.pawns.attackers[by][c].intersects(role(Role::Pawn)) {
            return true;
        }
        for r in t.pieces.leap_roles {
            if t.pieces.leaps[r][c].intersects(role(r)) {
                return true;
            }
        }
        false
    }

    /// The pawns and range-1 pieces of `theirs` (pieces of `by`) that attack `c`.
    #[inline]
    fn steps_to(&self, c: Cell, by: Color, theirs: Bitboard<L>) -> Bitboard<L> {
        let t = self.t;
        let role = |r: Role| self.placed.by_role[r] & theirs;
        let mut a = t.pawns.attackers[by][c] & role(Role::Pawn);
        for r in t.pieces.leap_roles {
            a |= t.pieces.leaps[r][c] & role(r);
        }
        a
    }

    /// The pieces of `theirs` by how they slide.
    #[inline]
    pub(crate) fn sliders(&self, theirs: Bitboard<L>) -> Sliders<L> {
        let p = &self.t.pieces;
        let mut classes = [Bitboard::EMPTY; CLASSES];
        for (k, class) in p.slide_classes.iter().take(CLASSES).enumerate() {
            classes[k] = self.of_roles(class.roles) & theirs;
        }
        Sliders {
            ortho: self.of_roles(p.ortho_roles) & theirs,
            diag: self.of_roles(p.diag_roles) & theirs,
            classes,
            theirs,
        }
    }

    /// The pieces of slide class `k` (of the tables' `pieces.slide_classes`, whose roles are
    /// `roles`) among those `sl` was made of.
    #[inline]
    fn class_sliders(&self, sl: &Sliders<L>, k: usize, roles: RoleSet) -> Bitboard<L> {
        if k < CLASSES {
            sl.classes[k]
        } else {
            self.of_roles(roles) & sl.theirs
        }
    }

    /// The pieces of `theirs` (pieces of `by`, whose planar sliders are `sl`) that attack `c` by
    /// normal moves, given occupancy; with `ANY`, stops at the first one found (then only
    /// emptiness is meaningful). `PLANAR` as for [`Board::piece_attacks`].
    #[inline]
    fn attacks_to<const ANY: bool, const PLANAR: bool>(
        &self,
        c: Cell,
        by: Color,
        theirs: Bitboard<L>,
        sl: &Sliders<L>,
        occ: Bitboard<L>,
    ) -> Bitboard<L> {
        let (t, p) = (self.t, &self.t.pieces);
        let role = |r: Role| self.placed.by_role[r] & theirs;
        let mut a = Bitboard::EMPTY;
        if ANY {
            if self.attacked_by_steps(c, by, theirs) {
                return Bitboard::FULL;
            }
        } else {
            a = self.steps_to(c, by, theirs);
        }
        let (l, sq) = (c.level(), c.plane());
        let occ_l = occ.word(l);
        let mut w = 0;
        let s = sl.ortho.word(l);
        if s != 0 {
            w |= t.rays.rook_plane(sq, occ_l) & s;
        }
        let s = sl.diag.word(l);
        if s != 0 {
            w |= t.rays.bishop_plane(sq, occ_l) & s;
        }
        a |= Bitboard::on_level(l, w);
        if ANY && !a.is_empty() {
            return a;
        }
        debug_assert!(!PLANAR || p.planar);
        if PLANAR {
            return a;
        }
        a |= self.class_attackers::<ANY>(c, sl, occ);
        if ANY && !a.is_empty() {
            return a;
        }
        if p.has_riders {
            for r in Role::ALL {
                for &(d, range) in &p.riders[r] {
                    let back = stackchess_geometry::Dir::new(-d.df, -d.dr, -d.dl);
                    a |= ride(c, back, range, occ) & role(r);
                }
            }
        }
        a
    }

    /// The pieces of `sl` that attack `c` by the slides of the slide classes (those that are not
    /// full slides within a level), given occupancy; with `ANY`, stops at the first one found.
    #[inline]
    fn class_attackers<const ANY: bool>(&self, c: Cell, sl: &Sliders<L>, occ: Bitboard<L>) -> Bitboard<L> {
        let t = self.t;
        let mut a = Bitboard::EMPTY;
        for (k, class) in t.pieces.slide_classes.iter().enumerate() {
            // A slider in reach on an empty board attacks `c` when nothing stands between.
            let mut s = self.class_sliders(sl, k, class.roles) & class.empty[c];
            while let Some(x) = s.first() {
                s.remove(x);
                if !t.rays.between(c, x).intersects(occ) {
                    a.insert(x);
                    if ANY {
                        return a;
                    }
                }
            }
        }
        a
    }

    /// The cells the full slides within a level of the sliders `sl` attack on the levels of
    /// `levels` (others are left empty), given occupancy.
    fn planar_slides(&self, sl: &Sliders<L>, occ: Bitboard<L>, levels: Bitboard<L>) -> Bitboard<L> {
        let rays = &self.t.rays;
        let mut a = Bitboard::EMPTY;
        for l in 0..L {
            if levels.0[l] == 0 {
                continue;
            }
            let (occ_l, mut w) = (occ.0[l], 0);
            let mut s = sl.ortho.0[l];
            while s != 0 {
                w |= rays.rook_plane(s.trailing_zeros() as usize, occ_l);
                s &= s - 1;
            }
            let mut s = sl.diag.0[l];
            while s != 0 {
                w |= rays.bishop_plane(s.trailing_zeros() as usize, occ_l);
                s &= s - 1;
            }
            a.0[l] = w;
        }
        a
    }

    /// The cells the pawns and the steps (range-1 moves) of `by` attack.
    fn step_attacks(&self, by: Color) -> Bitboard<L> {
        let t = self.t;
        let theirs = self.placed.by_color[by];
        let pawns = self.placed.by_role[Role::Pawn] & theirs;
        let mut a = Bitboard::EMPTY;
        for s in &t.pawns.capture_shifts[by] {
            a |= s.apply(pawns);
        }
        for r in t.pieces.leap_roles {
            (self.placed.by_role[r] & theirs).for_each(|c| a |= t.pieces.leaps[r][c]);
        }
        a
    }

    /// [`Board::attacks_to`] (steps included) for one test, with the sliders found here and the
    /// planar instantiation chosen from the tables.
    #[inline]
    fn attacks_to_any_rules<const ANY: bool>(
        &self,
        c: Cell,
        by: Color,
        theirs: Bitboard<L>,
        occ: Bitboard<L>,
    ) -> Bitboard<L> {
        let sl = &self.sliders(theirs);
        if self.t.pieces.planar {
            self.attacks_to::<ANY, true>(c, by, theirs, sl, occ)
        } else {
            self.attacks_to::<ANY, false>(c, by, theirs, sl, occ)
        }
    }

    /// The pieces of `by` that attack `c` by normal moves, given occupancy.
    pub(crate) fn attackers(&self, c: Cell, by: Color, occ: Bitboard<L>) -> Bitboard<L> {
        self.attacks_to_any_rules::<false>(c, by, self.placed.by_color[by], occ)
    }

    /// Whether the pieces `theirs` (pieces of `by`) attack `c` by a normal move, given occupancy.
    #[inline]
    pub(crate) fn attacked_normally(&self, c: Cell, by: Color, theirs: Bitboard<L>, occ: Bitboard<L>) -> bool {
        !self.attacks_to_any_rules::<true>(c, by, theirs, occ).is_empty()
    }

    /// Whether `by` attacks `c` (by a normal move, or a transfer where the rules have them), given
    /// occupancy.
    #[inline]
    pub(crate) fn is_attacked(&self, c: Cell, by: Color, occ: Bitboard<L>) -> bool {
        let theirs = self.placed.by_color[by];
        if self.t.pieces.general {
            return self.attacked_general(c, by, theirs & occ, occ);
        }
        self.attacked_normally(c, by, theirs, occ)
    }

    /// The pieces giving check to the king of the side to move on `king` (where every attack runs
    /// along a line), its pinned pieces, and for each its pinner; `sl` holds the other side's
    /// sliders. One pass over the sliders lined up with the king: none between is a check, one of
    /// ours a pin.
    fn checks_and_pins(
        &self,
        king: Cell,
        us: Color,
        sl: &Sliders<L>,
    ) -> (Bitboard<L>, Bitboard<L>, [(Cell, Cell); LINES], usize) {
        let t = self.t;
        let occ = self.occupied();
        let mut checkers = self.steps_to(king, us.other(), sl.theirs);
        let mut pinned = Bitboard::EMPTY;
        let mut pairs = [(king, king); LINES];
        let mut n = 0;
        let mut snipers = t.rays.empty_slides(king, GroupSet::ROOK_PLANE) & sl.ortho
            | t.rays.empty_slides(king, GroupSet::BISHOP_PLANE) & sl.diag;
        for (k, class) in t.pieces.slide_classes.iter().enumerate() {
            snipers |= class.empty[king] & self.class_sliders(sl, k, class.roles);
        }
        let ours = self.placed.by_color[us];
        snipers.for_each(|s| {
            let blockers = t.rays.between(king, s) & occ;
            if blockers.is_empty() {
                checkers.insert(s);
            } else if !blockers.more_than_one() {
                if let Some(b) = (blockers & ours).first() {
                    // At most one pin a line, so the list holds them all (16 could overflow
                    // on three levels: a pin past it was missed).
                    if n < pairs.len() {
                        pinned.insert(b);
                        pairs[n] = (b, s);
                        n += 1;
                    }
                }
            }
        });
        (checkers, pinned, pairs, n)
    }

    /// Generates the legal moves into `sink`.
    pub(crate) fn generate<S: Sink<L>>(&self, sink: &mut S) {
        let p = &self.t.pieces;
        if p.general {
            if p.planar {
                self.generate_general::<S, true>(sink);
            } else {
                self.generate_general_apart(sink);
            }
        } else if p.planar {
            self.generate_lines::<S, true>(sink);
        } else {
            self.generate_lines_apart(sink);
        }
    }

    /// [`Board::generate_general`] for the rule sets that are not planar, kept out of the callers.
    #[inline(never)]
    fn generate_general_apart<S: Sink<L>>(&self, sink: &mut S) {
        self.generate_general::<S, false>(sink);
    }

    /// [`Board::generate_lines`] for the rule sets that are not planar, kept out of the callers.
    #[inline(never)]
    fn generate_lines_apart<S: Sink<L>>(&self, sink: &mut S) {
        self.generate_lines::<S, false>(sink);
    }

    /// Generates the legal moves into `sink` where every attack runs along a line; `PLANAR` as
    /// for [`Board::piece_attacks`].
    fn generate_lines<S: Sink<L>, const PLANAR: bool>(&self, sink: &mut S) {
        let t = self.t;
        let us = self.turn;
        let them = us.other();
        let occ = self.occupied();
        let ours = self.placed.by_color[us];
        let king = self.king(us);
        let theirs = self.placed.by_color[them];
        let sl = &self.sliders(theirs);
        let (checkers, pinned, pairs, npins) = self.checks_and_pins(king, us, sl);

        // King moves: to cells not attacked once the king has left its own.
        let want = sink.wanted();
        let no_king = occ.without(Bitboard::from_cell(king));
        let tried = self.piece_attacks::<PLANAR>(Role::King, king, occ).without(ours) & want;
        let mut kt = tried;
        if !kt.is_empty() {
            if PLANAR {
                kt.for_each(|c| {
                    if !self.attacks_to::<true, PLANAR>(c, them, theirs, sl, no_king).is_empty() {
                        kt.remove(c);
                    }
                });
            } else {
                // Targets on several levels are many: steps and pawn captures, which attack
                // regardless of occupancy, and the slides within a level, read forwards from
                // the few sliders, are found once as sets for all of them; then the other slides.
                kt = kt.without(self.step_attacks(them));
                kt = kt.without(self.planar_slides(sl, no_king, kt));
                kt.for_each(|c| {
                    if !self.class_attackers::<true>(c, sl, no_king).is_empty() {
                        kt.remove(c);
                    }
                });
            }
        }
        sink.set(king, kt, MoveKind::Normal);
        if checkers.more_than_one() {
            return;
        }
        let mask = if let Some(ch) = checkers.first() {
            (t.rays.between(king, ch) | checkers) & want
        } else {
            let attacked =
                |c: Cell, o: Bitboard<L>| !self.attacks_to::<true, PLANAR>(c, them, theirs, sl, o).is_empty();
            // Not in check, a king target is attacked exactly when it is with the king on its
            // cell: a line through the king's cell to it would check the king first.
            self.castles(king, sink, |c| if tried.has(c) { !kt.has(c) } else { attacked(c, occ) }, attacked);
            want.without(ours)
        };
        // A pinned piece stays on the line between the king and its pinner, or takes the pinner.
        let pin_mask = |c: Cell| -> Bitboard<L> {
            pairs[..npins]
                .iter()
                .find(|(p, _)| *p == c)
                .map_or(Bitboard::EMPTY, |&(_, s)| t.rays.between(king, s) | Bitboard::from_cell(s))
        };

        // Moves to one occupied cell (a capture sequence's) are those of the pieces attacking it.
        let movers = match want.first() {
            Some(c) if !want.more_than_one() && occ.has(c) => self.attackers(c, us, occ),
            _ => ours,
        };
        for role in [Role::Knight, Role::Bishop, Role::Rook, Role::Queen] {
            (self.pieces(us, role) & movers).for_each(|from| {
                let mut targets = self.piece_attacks::<PLANAR>(role, from, occ).without(ours) & mask;
                if pinned.has(from) {
                    targets &= pin_mask(from);
                }
                sink.set(from, targets, MoveKind::Normal);
            });
        }
        let pawns = self.pieces(us, Role::Pawn) & movers;
        if S::BULK && t.pawns.bulk {
            let free = pawns.without(pinned);
            sink.add(self.count_pawn_moves(free, mask));
            self.pawn_moves(sink, pawns & pinned, |from| mask & pin_mask(from), |_| Bitboard::EMPTY);
            self.en_passant_by(sink, free);
        } else {
            self.pawn_moves(
                sink,
                pawns,
                |from| if pinned.has(from) { mask & pin_mask(from) } else { mask },
                |_| Bitboard::EMPTY,
            );
        }
    }

    /// Whether the king of the side to move is safe after `m` (slow; for rare moves).
    pub(crate) fn leaves_king_safe(&self, m: Move) -> bool {
        let mut next = *self;
        next.play_unchecked(m);
        let us = self.turn;
        !next.is_attacked(next.king(us), us.other(), next.occupied())
    }

    /// Castling: the king not in check (the caller's test), the cells between king and rook empty,
    /// the crossed cell not attacked now (`crossed_attacked`), the king not attacked after
    /// (`attacked`, given the occupancy after; where attacks are lines).
    pub(crate) fn castles<S: Sink<L>>(
        &self,
        king: Cell,
        sink: &mut S,
        crossed_attacked: impl Fn(Cell) -> bool,
        attacked: impl Fn(Cell, Bitboard<L>) -> bool,
    ) {
        let us = self.turn;
        let occ = self.occupied();
        for long in [false, true] {
            if !self.castling.has(us, long) {
                continue;
            }
            let Some(cm) = self.t.castles.get(us, long) else { continue };
            if cm.king_from != king
                || !sink.wanted().has(cm.king_to)
                || cm.empty.intersects(occ)
                || crossed_attacked(cm.cross)
            {
                continue;
            }
            let m = Move::new(cm.king_from, cm.king_to, None, MoveKind::Castle);
            if self.t.pieces.general {
                if self.leaves_king_safe(m) {
                    sink.one(m);
                }
                continue;
            }
            // The king must not be attacked once king and rook stand on their new cells.
            let moved: Bitboard<L> = [cm.king_from, cm.king_to, cm.rook_from, cm.rook_to].into_iter().collect();
            let after = (occ.without(moved)) | Bitboard::from_cell(cm.king_to) | Bitboard::from_cell(cm.rook_to);
            if !attacked(cm.king_to, after) {
                sink.one(m);
            }
        }
    }
}

/// The lines through a cell (4 planar orthogonal, 4 planar diagonal, 2 vertical, 8 orthogonal
/// slant, 8 triagonal directions): a king has at most this many pins.
const LINES: usize = 26;

/// The slide classes whose pieces [`Sliders`] holds (the others are found when asked).
const CLASSES: usize = 4;

/// The pieces of one side by how they slide, found once for the many attack tests of one
/// generation: within a level orthogonally and diagonally, and by slide class.
pub(crate) struct Sliders<const L: usize> {
    ortho: Bitboard<L>,
    diag: Bitboard<L>,
    classes: [Bitboard<L>; CLASSES],
    /// The pieces these were taken from.
    theirs: Bitboard<L>,
}

/// The cells a rider on `c` reaches along `d`, at most `range` vectors, through empty cells.
pub(crate) fn ride<const L: usize>(c: Cell, d: stackchess_geometry::Dir, range: u8, occ: Bitboard<L>) -> Bitboard<L> {
    let mut out = Bitboard::EMPTY;
    let mut x = c;
    for _ in 0..range {
        let Some(next) = x.offset(d, L) else { break };
        out.insert(next);
        if occ.has(next) {
            break;
        }
        x = next;
    }
    out
}
