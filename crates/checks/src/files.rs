//! Files other programs and earlier runs hand the toolkit: parameter files, books, PGN opening
//! suites and EPD suites.

use crate::input::{Bytes, Choices};
use stackchess_book::Book;
use stackchess_core::Rules as _;
use stackchess_core::{parse_move, Position};
use stackchess_search::{parse_epd, EvalParams};
use stackchess_selfplay::pgn_read::{pgn_openings, PgnOpening};
use stackchess_variants::WithPosition;
use std::path::Path;

/// A `--params` file: a file that is read writes back (`to_file`) a file that reads as the same
/// parameters.
pub fn params(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else { return };
    if let Ok(p) = EvalParams::parse(text) {
        let back = EvalParams::parse(&p.to_file()).unwrap_or_else(|e| panic!("written parameters refused: {e}"));
        assert_eq!(back, p, "parameters changed through their file");
    }
}

/// A `--param key=value` override on the defaults: one that is taken is what `get` gives back.
pub fn param_pair(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else { return };
    let mut p = EvalParams::default();
    if p.set_pair(text).is_ok() {
        let back = EvalParams::parse(&p.to_file()).unwrap_or_else(|e| panic!("written parameters refused: {e}"));
        assert_eq!(back, p, "'{text}': parameters changed through their file");
    }
}

/// A book file: the first byte picks a variant. A book that is read writes back the same bytes'
/// entries; every move it gives when probed (at the start, along its own lines and along a line
/// of random play the input chooses) is legal; its walked lines are legal lines.
pub fn book(data: &[u8]) {
    let mut input = Bytes::new(data);
    let variant = input.variant();
    variant.with(BookCheck { input });
}

struct BookCheck<'a> {
    input: Bytes<'a>,
}

impl WithPosition for BookCheck<'_> {
    type Output = ();
    fn call<P: Position>(mut self, rules: P::Rules) {
        let path = Path::new("fuzz.book");
        let Ok(book) = Book::<P>::from_bytes(rules, self.input.rest(), path) else { return };
        let again = Book::<P>::from_bytes(rules, &book.to_bytes(), path)
            .unwrap_or_else(|e| panic!("a book written from a book read is refused: {e}"));
        assert_eq!(again.entries(), book.entries(), "entries changed through the file");
        let probe_legal = |pos: &P| {
            for b in book.probe(pos) {
                assert!(
                    pos.is_legal(b.mv),
                    "book move {} is not legal in {}",
                    stackchess_core::coord::<P>(b.mv),
                    pos.to_lfen()
                );
            }
        };
        for seed in 0..4 {
            let mut pos = rules.startpos();
            for m in book.walk_moves(seed, seed, 16) {
                probe_legal(&pos);
                assert!(
                    pos.is_legal(m),
                    "walked move {} is not legal in {}",
                    stackchess_core::coord::<P>(m),
                    pos.to_lfen()
                );
                pos.play_unchecked(m);
            }
        }
        let mut pos = rules.startpos();
        for _ in 0..12 {
            probe_legal(&pos);
            let list = pos.moves();
            if list.is_empty() {
                break;
            }
            pos.play_unchecked(list[self.input.below(list.len())]);
        }
    }
}

/// A PGN opening suite: the first byte picks a variant, the second a ply limit (0: none). Every
/// opening read is a line of legal moves from the start, or a position that reads back, and the
/// game is not over there.
pub fn pgn(data: &[u8]) {
    let mut input = Bytes::new(data);
    let variant = input.variant();
    let plies = match input.byte() {
        0 => None,
        k => Some(u32::from(k % 32)),
    };
    let Some(text) = input.rest_str() else { return };
    variant.with(PgnCheck { text, plies });
}

struct PgnCheck<'a> {
    text: &'a str,
    plies: Option<u32>,
}

impl WithPosition for PgnCheck<'_> {
    type Output = ();
    fn call<P: Position>(self, rules: P::Rules) {
        let Ok(openings) = pgn_openings::<P>(rules, "fuzz.pgn", self.text, self.plies) else { return };
        for o in openings {
            let pos = match o {
                PgnOpening::Moves(moves) => {
                    let mut pos = rules.startpos();
                    for m in moves {
                        assert!(pos.is_legal(m), "opening move not legal in {}", pos.to_lfen());
                        pos.play_unchecked(m);
                    }
                    pos
                }
                PgnOpening::Position(lfen) => {
                    rules.from_lfen(&lfen).unwrap_or_else(|e| panic!("opening position {lfen} does not read back: {e}"))
                }
            };
            assert!(pos.outcome().is_none(), "an opening where the game is over: {}", pos.to_lfen());
        }
    }
}

/// An EPD suite (`bench --tactics`, EPD opening files): every case read names a position of its
/// line's four fields (read as fide when it is one), and its best moves, where they read as
/// moves there, are legal.
pub fn epd(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else { return };
    let Ok(cases) = parse_epd(text) else { return };
    let rules = stackchess_variants::traditional::fide_rules();
    for case in cases {
        let Ok(pos) = rules.from_lfen(&case.lfen) else { continue };
        for t in case.best.iter().chain(&case.avoid) {
            if let Ok(m) = parse_move(&pos, t) {
                assert!(pos.is_legal(m), "EPD move '{t}' read as an illegal move in {}", case.lfen);
                // Whether a case is solved never panics, for any move.
                let _ = case.solved_by(&pos, m);
            }
        }
    }
}
