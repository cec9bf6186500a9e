//! LFEN and move text: what `--lfen`, `apply`, `moves` and the UCI `position` command read.

use crate::input::{Bytes, Choices};
use stackchess_core::Rules as _;
use stackchess_core::{coord, parse_coord, parse_move, parse_san, san, Move, Position};
use stackchess_reference::Reference;
use stackchess_variants::{Variant, WithPosition};
use std::sync::OnceLock;

/// Level-prefixed coordinates, as the reference generator writes every move.
fn full(m: Move) -> String {
    let mut s = format!("{}{}", m.from(), m.to());
    if let Some(r) = m.promotion() {
        s.push(r.lower());
    }
    s
}

/// The reference generator of a built-in variant (read once).
fn reference(v: Variant) -> &'static Reference {
    static REFS: OnceLock<Vec<Reference>> = OnceLock::new();
    let refs = REFS.get_or_init(|| {
        Variant::ALL.iter().map(|v| Reference::builtin(v.name()).expect("the built-in rule files read")).collect()
    });
    let i = Variant::ALL.iter().position(|&b| b == v).unwrap_or(0);
    &refs[i]
}

/// The first byte picks a built-in variant, the rest is an LFEN. A position that is read writes
/// back an LFEN that reads as the same position (same LFEN, same hash); every legal move's
/// coordinate and SAN text reads back as that move; and where the reference generator reads the
/// LFEN too, both list the same legal moves and agree on check.
pub fn lfen(data: &[u8]) {
    let mut input = Bytes::new(data);
    let variant = input.variant();
    if let Some(text) = input.rest_str() {
        variant.with(LfenCheck { text, reference: reference(variant) });
    }
}

struct LfenCheck<'a> {
    text: &'a str,
    reference: &'a Reference,
}

impl WithPosition for LfenCheck<'_> {
    type Output = ();
    fn call<P: Position>(self, rules: P::Rules) {
        let Ok(pos) = rules.from_lfen(self.text) else { return };
        let lfen = pos.to_lfen();
        let back = rules.from_lfen(&lfen).unwrap_or_else(|e| {
            panic!("{}: '{}' was read, but its LFEN {lfen} is refused: {e}", rules.name(), self.text)
        });
        assert_eq!(back.to_lfen(), lfen, "{}: the LFEN of '{}' does not read back as itself", rules.name(), self.text);
        assert_eq!(
            back.hash(),
            pos.hash(),
            "{}: the hash of '{}' differs once re-read from {lfen}",
            rules.name(),
            self.text
        );
        notation_round_trips(&pos, &lfen);
        agrees_with_reference(&pos, &lfen, self.reference);
    }
}

/// Every legal move's coordinate and SAN text reads back as the move.
fn notation_round_trips<P: Position>(pos: &P, lfen: &str) {
    for &m in &pos.moves() {
        let c = coord::<P>(m);
        assert_eq!(parse_coord(pos, &c), Ok(m), "coordinate text {c} does not read back in {lfen}");
        let s = san(pos, m);
        assert_eq!(parse_move(pos, &s), Ok(m), "SAN {s} does not read back in {lfen}");
    }
}

/// Where the reference reads the position too, the two agree on its legal moves and check.
fn agrees_with_reference<P: Position>(pos: &P, lfen: &str, reference: &Reference) {
    let Ok(theirs) = reference.legal_moves(lfen) else { return };
    let mut ours: Vec<String> = pos.moves().iter().map(|&m| full(m)).collect();
    ours.sort();
    assert_eq!(ours, theirs, "{}: legal moves differ from the reference's in {lfen}", reference.name());
    if let Ok(check) = reference.in_check(lfen) {
        assert_eq!(pos.is_check(), check, "{}: check differs from the reference's in {lfen}", reference.name());
    }
}

/// Move text in a position reached by play: the first byte picks a variant, the next the number
/// of plies (below 64) and one byte each the move played; the rest is move text. A move read by
/// any of the three readers (coordinates, SAN, either) is a legal move of the position, and its
/// coordinate text reads back as it.
pub fn moves(data: &[u8]) {
    let mut input = Bytes::new(data);
    let variant = input.variant();
    variant.with(MoveCheck { input });
}

struct MoveCheck<'a> {
    input: Bytes<'a>,
}

impl WithPosition for MoveCheck<'_> {
    type Output = ();
    fn call<P: Position>(mut self, rules: P::Rules) {
        let mut pos = rules.startpos();
        for _ in 0..self.input.below(64) {
            let list = pos.moves();
            if list.is_empty() {
                break;
            }
            pos.play_unchecked(list[self.input.below(list.len())]);
        }
        let Some(text) = self.input.rest_str() else { return };
        let legal = pos.moves();
        let lfen = pos.to_lfen();
        #[allow(clippy::type_complexity, reason = "three readers side by side, named where they are used")]
        let readers: [(&str, fn(&P, &str) -> Result<Move, _>); 3] =
            [("coordinate", parse_coord::<P>), ("SAN", parse_san::<P>), ("move", parse_move::<P>)];
        for (what, read) in readers {
            if let Ok(m) = read(&pos, text) {
                assert!(legal.contains(&m), "{what} text '{text}' read as {}, not a legal move in {lfen}", full(m));
                assert_eq!(parse_coord(&pos, &coord::<P>(m)), Ok(m), "'{text}' in {lfen}");
            }
        }
    }
}
