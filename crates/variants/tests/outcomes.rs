//! Game outcomes by the rules: mate, stalemate, repetition, the 50-move rule, dead material.

use stackchess_core::Rules as _;
use stackchess_core::{parse_move, Color, Game, Position, Termination};

fn play<P: Position>(g: &mut Game<P>, moves: &[&str]) {
    for m in moves {
        let mv = parse_move(g.position(), m).unwrap_or_else(|e| panic!("{e}"));
        g.play(mv).expect("legal");
    }
}

#[test]
fn checkmate_and_stalemate() {
    let mut g = Game::new(stackchess_traditional::fide_startpos());
    play(&mut g, &["f3", "e5", "g4", "Qh4#"]);
    let o = g.outcome().expect("mate");
    assert_eq!((o.winner, o.reason), (Some(Color::Black), Termination::Checkmate));
    assert_eq!(o.result(), "0-1");
    // Stalemate in 3D: the black king in the corner of the top level; four rooks cover its
    // seven neighbours on levels 2 and 3 without giving check.
    let p = stackchess_malka::rules()
        .from_lfen("8/8/8/8/8/8/8/K7|R7/R7/8/8/8/8/8/8|7k/R7/8/8/8/8/8/6R1 b - - 0 1")
        .unwrap();
    assert!(!p.is_check());
    assert_eq!(p.outcome().map(|o| o.reason), Some(Termination::Stalemate));
    // The same with the g-file rook one level down: 3g8 is free, so the game goes on.
    let p = stackchess_malka::rules()
        .from_lfen("8/8/8/8/8/8/8/K7|R7/R7/8/8/8/8/8/6R1|7k/R7/8/8/8/8/8/8 b - - 0 1")
        .unwrap();
    assert_eq!(p.outcome(), None);
    // Fide stalemate.
    let p = stackchess_traditional::fide_rules().from_lfen("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1").unwrap();
    assert_eq!(p.outcome().map(|o| o.reason), Some(Termination::Stalemate));
}

#[test]
fn threefold_repetition_and_fifty_moves() {
    let mut g = Game::new(stackchess_traditional::startpos());
    let shuffle = ["N2b3", "N2b6", "N1b1", "N3b8"];
    play(&mut g, &shuffle);
    assert_eq!(g.repetitions(), 2);
    assert!(g.outcome().is_none());
    play(&mut g, &shuffle);
    assert_eq!(g.repetitions(), 3);
    assert_eq!(g.outcome().map(|o| o.reason), Some(Termination::Repetition));

    let p = stackchess_traditional::fide_rules().from_lfen("4k3/8/8/8/8/8/R7/4K3 w - - 99 80").unwrap();
    let mut g = Game::new(p);
    assert!(g.outcome().is_none());
    play(&mut g, &["Ra3"]);
    assert_eq!(g.outcome().map(|o| o.reason), Some(Termination::FiftyMoves));
}

#[test]
fn a_pawn_transfer_does_not_hide_a_repetition() {
    // Air Attack: a pawn that transfers up and back down has moved (the fifty-move count starts
    // again) but the positions before it come back, and three times is a draw. (From a recorded
    // game that shuffled so to the 400-ply cap before repetition looked past the pawn move.)
    let p = stackchess_air_attack::rules().from_lfen("8/8/8/8/8/8/1p6/2K5|8/8/8/8/8/2k5/8/8 w - - 0 143").unwrap();
    let mut g = Game::new(p);
    let shuffle = ["1c12c1", "1b22b2", "2c11c1", "2b21b2"];
    play(&mut g, &shuffle);
    assert_eq!(g.position().halfmove_clock(), 0);
    assert_eq!(g.repetitions(), 2);
    assert!(g.outcome().is_none());
    play(&mut g, &shuffle);
    assert_eq!(g.repetitions(), 3);
    assert_eq!(g.outcome().map(|o| o.reason), Some(Termination::Repetition));
    // Where pawns only go forward, the clock still bounds the look back: Malka's start
    // position after a pawn move has no earlier twin.
    assert!(!stackchess_malka::rules().pawn_moves_reversible());
    assert!(stackchess_air_attack::rules().pawn_moves_reversible());
}

#[test]
fn dead_material() {
    for lfen in [
        "8/8/8/8/8/8/8/K7|8/8/8/8/8/8/8/8|7k/8/8/8/8/8/8/8 w - -",
        "8/8/8/8/8/8/8/K7|8/8/8/8/3B4/8/8/8|7k/8/8/8/8/8/8/8 w - -",
        "8/8/8/8/8/8/8/K7|8/8/8/8/3n4/8/8/8|7k/8/8/8/8/8/8/8 w - -",
    ] {
        let p = stackchess_malka::rules().from_lfen(lfen).unwrap();
        assert_eq!(p.outcome().map(|o| o.reason), Some(Termination::DeadMaterial), "{lfen}");
    }
    let p = stackchess_malka::rules().from_lfen("8/8/8/8/8/8/8/K7|8/8/8/8/3N4/8/8/8|7k/8/8/8/3p4/8/8/8 w - -").unwrap();
    assert_eq!(p.outcome(), None);
}

#[test]
fn attack_is_geometric_even_with_an_empty_promotion_pool() {
    // White has every piece kind on the board, so the pawn on 3b7 cannot promote (it has no
    // move at all); it still attacks 3c8, so a black king there stands in check.
    let in_check = stackchess_malka::rules()
        .from_lfen("8/8/8/8/8/8/P7/RNBQKBNR|8/8/8/8/8/8/8/8|2k5/1P6/8/8/8/8/8/8 b - - 0 1")
        .unwrap();
    assert!(in_check.is_check());
    let pawn_moves = stackchess_malka::rules()
        .from_lfen("8/8/8/8/8/8/P7/RNBQKBNR|8/8/8/8/8/8/8/8|4k3/1P6/8/8/8/8/8/8 w - - 0 1")
        .unwrap();
    assert!(pawn_moves.moves().iter().all(|m| m.from().to_string() != "3b7"));
}
