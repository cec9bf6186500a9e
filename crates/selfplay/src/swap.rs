//! The colour-swapped opening: the same position with the colours exchanged (the board turned
//! over: ranks mirrored, and levels mirrored between the kings' home levels), the same colour to
//! move. In self-play, where one engine plays both sides, a colour-swapped pair gives White each
//! side of an opening once, so the opening's own bias cancels in White's pair score.

use stackchess_core::{write_lfen, Castling, Color, LfenState, Mirror, Move, Piece, Position, Rules};

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

/// The colour swap of `pos`, which `moves` reach from the start, reached by a line from the start
/// (`None` when there is none of this form): each of the line's pairs of moves, White's and
/// Black's, becomes Black's mirrored (now White's) then White's mirrored, so `1. e4 Nf6`
/// becomes `1. Nf3 e5`. The end of the line has the swapped placement, side to move and
/// castling, with its own clocks and en passant (its real history). A line of odd length has no
/// such line (the side to move would have made one move more than its mirror), nor one where a
/// move answers the other of its pair (a recapture, say: in the swapped order it comes first).
#[must_use]
pub fn colour_swapped_line<P: Position>(pos: &P, moves: &[Move]) -> Option<(Vec<Move>, P)> {
    if moves.len() % 2 == 1 {
        return None;
    }
    let (rules, end) = (pos.rules(), pos);
    let mirror = Mirror::of::<P>(rules)?;
    let mut pos = rules.startpos();
    let mut line = Vec::with_capacity(moves.len());
    for pair in moves.chunks(2) {
        for m in [pair[1], pair[0]] {
            let want = (mirror.cell(m.from()), mirror.cell(m.to()), m.promotion());
            let found = pos.moves().into_iter().find(|c| (c.from(), c.to(), c.promotion()) == want)?;
            pos.play_unchecked(found);
            line.push(found);
        }
    }
    let board = |lfen: String| lfen.split(' ').take(3).collect::<Vec<_>>().join(" ");
    let swapped = colour_swapped(end)?;
    (board(swapped.to_lfen()) == board(pos.to_lfen())).then_some((line, pos))
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

    #[test]
    fn a_swapped_opening_has_its_line_from_the_start() {
        let rules = stackchess_traditional::fide_rules();
        let moves = |texts: &[&str]| {
            let mut pos = rules.startpos();
            texts
                .iter()
                .map(|t| {
                    let m = parse_coord(&pos, t).unwrap();
                    pos.play_unchecked(m);
                    m
                })
                .collect::<Vec<_>>()
        };
        let a = play(rules.startpos(), &["e2e4", "g8f6", "d2d4", "d7d5"]);
        let (swapped_line, end) = colour_swapped_line(&a, &moves(&["e2e4", "g8f6", "d2d4", "d7d5"])).unwrap();
        assert_eq!(swapped_line, moves(&["g1f3", "e7e5", "d2d4", "d7d5"]));
        let board = |p: String| p.split(' ').take(3).collect::<Vec<_>>().join(" ");
        assert_eq!(board(end.to_lfen()), board(colour_swapped(&a).unwrap().to_lfen()));
        // Malka: levels turn over too.
        let m = stackchess_malka::rules();
        let mut pos = m.startpos();
        let ms: Vec<_> = ["1e21e3", "3g83f6"]
            .iter()
            .map(|t| {
                let mv = parse_coord(&pos, t).unwrap();
                pos.play_unchecked(mv);
                mv
            })
            .collect();
        let (_, end) = colour_swapped_line(&pos, &ms).unwrap();
        assert_eq!(board(end.to_lfen()), board(colour_swapped(&pos).unwrap().to_lfen()));
        // An odd line, and a recapture (which in the swapped order would come first): none.
        let odd = ["e2e4"];
        assert!(colour_swapped_line(&play(rules.startpos(), &odd), &moves(&odd)).is_none());
        let recapture = ["e2e4", "d7d5", "e4d5", "d8d5"];
        assert!(colour_swapped_line(&play(rules.startpos(), &recapture), &moves(&recapture)).is_none());
    }
}
