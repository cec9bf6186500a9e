//! The colour-swapped opening: the same position with the colours exchanged (the board turned
//! over: ranks mirrored, and levels mirrored between the kings' home levels), the same colour to
//! move. In self-play, where one engine plays both sides, a colour-swapped pair gives White each
//! side of an opening once, so the opening's own bias cancels in White's pair score.

use stackchess_core::{write_lfen, Castling, Color, LfenState, Mirror, Piece, Position, Rules};

fn swapped_castling(c: Castling) -> Castling {
    let mut out = 0;
    for color in Color::ALL {
        for long in [false, true] {
            if c.has(color, long) {
                out |= Castling::bit(color.other(), long);
            }
        }
    }
    Castling(out)
}

/// The mirror is its own inverse: a cell's swapped piece is the piece on its mirror cell.
fn swapped_lfen<P: Position>(pos: &P, mirror: &Mirror) -> String {
    let state = LfenState {
        turn: pos.turn(),
        castling: swapped_castling(pos.castling()),
        // The pawn that just stepped twice now belongs to the side to move: no capture en passant.
        ep: None,
        halfmove: pos.halfmove_clock(),
        fullmove: pos.fullmove_number(),
    };
    write_lfen(
        P::LEVELS,
        |c| pos.piece_at(mirror.cell(c)).map(|p| Piece { color: p.color.other(), role: p.role }),
        state,
    )
}

/// `pos` with the colours swapped, the same colour to move; `None` when the rules are not
/// symmetric under the swap (their start position is not its own swap), or when the side to
/// move is in check (the swapped position would have the side not to move in check).
#[must_use]
pub fn colour_swapped<P: Position>(pos: &P) -> Option<P> {
    let rules = pos.rules();
    let mirror = Mirror::of::<P>(rules)?;
    let start = rules.startpos();
    if pos.is_check() || swapped_lfen(&start, &mirror) != start.to_lfen() {
        return None;
    }
    rules.from_lfen(&swapped_lfen(pos, &mirror)).ok()
}

#[cfg(test)]
mod tests {
    use super::*;
    use stackchess_core::parse_coord;

    fn play<P: Position>(mut pos: P, moves: &[&str]) -> P {
        for m in moves {
            let mv = parse_coord(&pos, m).unwrap();
            pos.play_unchecked(mv);
        }
        pos
    }

    #[test]
    fn swapping_gives_white_the_other_side_of_the_opening() {
        // 1. e4 Nf6 swapped is 1. Nf3 e5 (placement, side to move, castling; the clocks stay).
        let board = |p: String| p.split(' ').take(3).collect::<Vec<_>>().join(" ");
        let rules = stackchess_traditional::fide_rules();
        let a = play(rules.startpos(), &["e2e4", "g8f6"]);
        let b = play(rules.startpos(), &["g1f3", "e7e5"]);
        assert_eq!(board(colour_swapped(&a).unwrap().to_lfen()), board(b.to_lfen()));
        assert_eq!(colour_swapped(&colour_swapped(&a).unwrap()).unwrap().to_lfen(), a.to_lfen());
        // Malka: levels turn over too (White's home level 1 becomes Black's level 3).
        let m = stackchess_malka::rules();
        let a = play(m.startpos(), &["1e21e3", "3g83f6"]);
        let b = play(m.startpos(), &["1g11f3", "3e73e6"]);
        assert_eq!(board(colour_swapped(&a).unwrap().to_lfen()), board(b.to_lfen()));
        // The side to move in check: no swap.
        let check = rules.from_lfen("4k3/8/8/8/8/8/8/4K2r w - - 0 1").unwrap();
        assert!(colour_swapped(&check).is_none());
    }
}
