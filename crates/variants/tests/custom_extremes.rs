//! User-defined rule sets at their extremes still give a valid start and legal play (a test
//! binary of its own: a process holds only four rule sets).

use stackchess_core::Rules as _;
use stackchess_core::{Castling, Position};
use stackchess_variants::{Variant, WithPosition};

fn load(name: &str, text: &str) -> Variant {
    let dir = std::env::temp_dir().join(format!("stackchess-rules-x-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(format!("{name}.rules"));
    std::fs::write(&path, text).unwrap();
    Variant::load_rules(&path).unwrap()
}

/// The start position's castling rights and its perft to depth 2.
struct Start;
impl WithPosition for Start {
    type Output = (Castling, u64);
    fn call<P: Position>(self, rules: P::Rules) -> (Castling, u64) {
        let p = rules.startpos();
        (p.castling(), p.perft(2))
    }
}

#[test]
fn no_castling_and_every_piece_stepping() {
    let no_castling = load("no-castling", "name = no-castling\nbase = traditional\ncastling = false\n");
    let (rights, nodes) = no_castling.with(Start);
    assert_eq!(rights, Castling::NONE);
    // Castling needs empty cells between king and rook, so two plies in the counts agree.
    assert_eq!(nodes, Variant::Traditional.with(Start).1);

    let steps = "name = all-step\nbase = traditional\nqueen = step\nrook = step\nbishop = step\n";
    let (rights, nodes) = load("all-step", steps).with(Start);
    assert_eq!(rights, Castling::ALL);
    assert!(nodes > 0 && nodes <= Variant::Traditional.with(Start).1, "{nodes}");
}
