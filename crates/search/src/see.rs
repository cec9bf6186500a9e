//! Static exchange evaluation through the legal move generator: the material balance of the
//! capture sequence on one cell, each side recapturing with its least valuable piece and free to
//! stop. Legal moves only, so pins and checks are respected.

use stackchess_core::{Move, MoveList, Position, Role};

/// The exchange value of capture `m` for the side to move, in the units of `value` (the king is
/// worth `king`). Promotions are not counted beyond their capture.
pub(crate) fn see<P: Position>(pos: &P, m: Move, value: impl Fn(Role) -> i32, king: i32) -> i32 {
    let worth = |r: Role| if r == Role::King { king } else { value(r) };
    let target = m.to();
    let mut gains = [0i32; 40];
    gains[0] = pos.captured(m).map_or(0, &worth);
    let mut on_target = pos.piece_at(m.from()).map_or(0, |p| worth(p.role));
    let mut p = pos.clone();
    p.play_unchecked(m);
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
}
