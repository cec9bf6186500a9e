//! Static exchange evaluation through the legal move generator: the material balance of the
//! capture sequence on one cell, each side recapturing with its least valuable piece and free to
//! stop. Legal moves only, so pins and checks are respected.

use stackchess_core::{Move, MoveList, Position, Role};

/// The exchange value of capture `m` for the side to move, in the units of `value` (the king is
/// worth `king`). Promotions are not counted beyond their capture.
pub(crate) fn see<P: Position>(pos: &P, m: Move, value: impl Fn(Role) -> i32, king: i32) -> i32 {
    let mut after = pos.clone();
    after.play_unchecked(m);
    see_played(pos, &after, m, value, king)
}

/// [`see`] given `after`, the position once `m` is played. A move to a cell the other side cannot
/// capture on is worth what it takes, found without generating moves.
pub(crate) fn see_played<P: Position>(pos: &P, after: &P, m: Move, value: impl Fn(Role) -> i32, king: i32) -> i32 {
    if !after.may_capture_on(m.to()) {
        return pos.captured(m).map_or(0, |r| worth(&value, king, r));
    }
    exchange(pos, after, m, value, king)
}

/// What a piece of role `r` is worth to the exchange.
fn worth(value: &impl Fn(Role) -> i32, king: i32, r: Role) -> i32 {
    if r == Role::King {
        king
    } else {
        value(r)
    }
}

/// [`see_played`] by the legal moves to the cell alone.
fn exchange<P: Position>(pos: &P, after: &P, m: Move, value: impl Fn(Role) -> i32, king: i32) -> i32 {
    let worth = |r: Role| worth(&value, king, r);
    let target = m.to();
    let mut gains = [0i32; 40];
    gains[0] = pos.captured(m).map_or(0, &worth);
    let mut on_target = pos.piece_at(m.from()).map_or(0, |p| worth(p.role));
    let mut p = after.clone();
    let mut d = 0;
    let mut list = MoveList::new();
    while d + 1 < gains.len() {
        list.clear();
        p.legal_moves_to(target, &mut list);
        let Some((r, role)) = list
            .iter()
            .filter(|x| x.promotion().is_none_or(|r| r == Role::Queen))
            .filter_map(|x| p.piece_at(x.from()).map(|pc| (*x, pc.role)))
            .min_by_key(|&(_, role)| worth(role))
        else {
            break;
        };
        d += 1;
        gains[d] = on_target - gains[d - 1];
        if (-gains[d - 1]).max(gains[d]) < 0 {
            break;
        }
        on_target = worth(role);
        p.play_unchecked(r);
    }
    while d > 0 {
        gains[d - 1] = -(-gains[d - 1]).max(gains[d]);
        d -= 1;
    }
    gains[0]
}

#[cfg(test)]
mod tests {
    use super::*;
    use stackchess_core::parse_move;
    use stackchess_core::Rules as _;

    fn v(r: Role) -> i32 {
        [100, 300, 300, 500, 900, 0][r.index()]
    }

    fn see_of(fen: &str, mv: &str) -> i32 {
        let pos = stackchess_variants::traditional::fide_rules().from_lfen(fen).unwrap();
        see(&pos, parse_move(&pos, mv).unwrap(), v, 10_000)
    }

    #[test]
    fn exchanges() {
        // A free pawn; a pawn defended by a pawn taken by a rook; a defended pawn taken by a pawn.
        assert_eq!(see_of("1k6/8/8/4p3/8/8/8/K3R3 w - - 0 1", "Rxe5"), 100);
        assert_eq!(see_of("1k6/8/3p4/4p3/8/8/8/K3R3 w - - 0 1", "Rxe5"), -400);
        assert_eq!(see_of("1k6/8/3p4/4p3/3P4/8/8/K7 w - - 0 1", "dxe5"), 0);
        // Rook and queen behind each other against a single defender.
        assert_eq!(see_of("1k6/8/3p4/4n3/8/8/4R3/K3R3 w - - 0 1", "Rxe5"), 300 - 500 + 100);
        // The defender is pinned to its king: the capture is free.
        assert_eq!(see_of("5k2/8/3p4/4n3/1B6/8/8/K3R3 w - - 0 1", "Rxe5"), 300);
    }

    /// Plays `plies` moves from the start, each chosen by a fixed pseudo-random sequence, and
    /// checks every legal move of every position on the way: the shortcut of [`see_played`] (no
    /// capture possible on the cell) never changes the exchange's value.
    struct Shortcut {
        plies: usize,
    }

    impl stackchess_variants::WithPosition for Shortcut {
        /// Moves whose cell the other side cannot capture on, and moves whose cell it can.
        type Output = (usize, usize);
        fn call<P: Position>(self, rules: P::Rules) -> (usize, usize) {
            let mut pos = rules.startpos();
            let (mut state, mut safe, mut contested) = (0x9e37_79b9_7f4a_7c15_u64, 0, 0);
            for _ in 0..self.plies {
                let moves = pos.moves();
                if moves.is_empty() {
                    pos = rules.startpos();
                    continue;
                }
                for &m in &moves {
                    let mut after = pos.clone();
                    after.play_unchecked(m);
                    assert_eq!(see_played(&pos, &after, m, v, 10_000), exchange(&pos, &after, m, v, 10_000));
                    if after.may_capture_on(m.to()) {
                        contested += 1;
                    } else {
                        safe += 1;
                    }
                }
                state = state.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1_442_695_040_888_963_407);
                let pick = usize::try_from(state >> 33).unwrap_or(0) % moves.len();
                pos.play_unchecked(moves[pick]);
            }
            (safe, contested)
        }
    }

    #[test]
    fn shortcut_keeps_the_value_in_every_builtin() {
        for name in ["fide", "malka", "traditional", "air-attack"] {
            let variant: stackchess_variants::Variant = name.parse().unwrap();
            let (safe, contested) = variant.with(Shortcut { plies: 400 });
            assert!(safe > 1_000 && contested > 1_000, "{name}: {safe} moves to safe cells, {contested} to others");
        }
    }
}
