//! LFEN for two levels (docs/rules.md §1): round trips and every kind of error, naming the field.

use stackchess_air_attack::START;
use stackchess_core::Rules as _;
use stackchess_core::{LfenField, Position};

fn err(lfen: &str) -> (LfenField, String) {
    let e = stackchess_air_attack::rules().from_lfen(lfen).expect_err(lfen);
    (e.field, e.to_string())
}

const EMPTY: &str = "8/8/8/8/8/8/8/8";

#[test]
fn start_round_trips() {
    let p = stackchess_air_attack::startpos();
    assert_eq!(p.to_lfen(), START);
    assert_eq!(stackchess_air_attack::rules().from_lfen(&p.to_lfen()), Ok(p));
    // Clocks may be omitted.
    let short = START.rsplitn(3, ' ').last().expect("fields");
    assert_eq!(stackchess_air_attack::rules().from_lfen(short), Ok(p));
}

#[test]
fn errors_name_the_field() {
    let ok_l1 = "4k3/8/8/8/8/8/8/4K3";
    let cases: Vec<(String, LfenField, &str)> = vec![
        (format!("{ok_l1}|{EMPTY} w -"), LfenField::Fields, "found 3"),
        (format!("{ok_l1}|{EMPTY} w - - 0 1 x"), LfenField::Fields, "found 7"),
        (format!("{ok_l1}|{EMPTY}|{EMPTY} w - - 0 1"), LfenField::Placement, "has 3"),
        (format!("{ok_l1} w - - 0 1"), LfenField::Placement, "has 1"),
        (format!("{ok_l1}|8/8/8/8/8/8/8/3X4 w - - 0 1"), LfenField::Level(2), "'X'"),
        (format!("4k3/8/8/8/8/8/8/4K2|{EMPTY} w - - 0 1"), LfenField::Level(1), "7 cells"),
        (format!("4k3/8/8/8/8/8/8/4K4|{EMPTY} w - - 0 1"), LfenField::Level(1), "more than 8"),
        (format!("4k3/8/8/8/8/8/8|{EMPTY} w - - 0 1"), LfenField::Level(1), "8 ranks"),
        (format!("{ok_l1}|{EMPTY} x - - 0 1"), LfenField::Side, "'x'"),
        (format!("{ok_l1}|8/8/8/8/8/8/8/K7 w - - 0 1"), LfenField::Placement, "2 kings"),
        (format!("4k3/8/8/8/8/8/8/8|{EMPTY} w - - 0 1"), LfenField::Placement, "0 kings"),
        (format!("{ok_l1}|{EMPTY} w K - 0 1"), LfenField::Castling, "no white rook is on 1h1"),
        (format!("4k3/8/8/8/8/8/8/3K3R|{EMPTY} w K - 0 1"), LfenField::Castling, "king is not on 1e1"),
        (format!("4k3/8/8/8/8/8/8/R3K2R|{EMPTY} w KX - 0 1"), LfenField::Castling, "'X'"),
        (format!("{ok_l1}|{EMPTY} b - 1e3 0 1"), LfenField::EnPassant, "double-stepped"),
        (format!("{ok_l1}|8/8/8/8/4P3/8/8/8 b - 2e3 0 1"), LfenField::EnPassant, "double-stepped"),
        (format!("{ok_l1}|{EMPTY} b - 3e3 0 1"), LfenField::EnPassant, "level"),
        (format!("{ok_l1}|{EMPTY} w - - x 1"), LfenField::Halfmove, "'x'"),
        (format!("{ok_l1}|{EMPTY} w - - 0 0"), LfenField::Fullmove, "at least 1"),
        (format!("{ok_l1}|8/8/8/8/8/8/8/P7 w - - 0 1"), LfenField::Placement, "white pawn on 2a1"),
        (format!("{ok_l1}|P7/8/8/8/8/8/8/8 w - - 0 1"), LfenField::Placement, "white pawn on 2a8"),
        (format!("P3k3/8/8/8/8/8/8/4K3|{EMPTY} w - - 0 1"), LfenField::Placement, "white pawn on 1a8"),
        (format!("{ok_l1}|7p/8/8/8/8/8/8/8 w - - 0 1"), LfenField::Placement, "black pawn on 2h8"),
        (format!("{ok_l1}|8/8/8/8/8/8/8/7p w - - 0 1"), LfenField::Placement, "black pawn on 2h1"),
        (format!("{ok_l1}|4R3/8/8/8/8/8/8/8 w - - 0 1"), LfenField::Position, "black is in check"),
        (format!("{ok_l1}|8/8/8/8/8/8/8/4r3 b - - 0 1"), LfenField::Position, "white is in check"),
    ];
    for (lfen, field, needle) in cases {
        let (f, msg) = err(&lfen);
        assert_eq!(f, field, "{lfen}: {msg}");
        assert!(msg.contains(needle), "{lfen}: '{msg}' should mention '{needle}'");
    }
}

#[test]
fn en_passant_cell_is_read_and_written() {
    let lfen = "4k3/8/8/8/4P3/8/8/4K3|8/8/8/8/8/8/8/8 b - 1e3 0 1";
    let p = stackchess_air_attack::rules().from_lfen(lfen).expect("valid");
    assert_eq!(p.to_lfen(), lfen);
    // Not capturable by Black: it does not change the hash.
    let q = stackchess_air_attack::rules().from_lfen("4k3/8/8/8/4P3/8/8/4K3|8/8/8/8/8/8/8/8 b - - 0 1").expect("valid");
    assert_eq!(p.hash(), q.hash());
    // Capturable: it does.
    let r =
        stackchess_air_attack::rules().from_lfen("4k3/8/8/8/3pP3/8/8/4K3|8/8/8/8/8/8/8/8 b - 1e3 0 1").expect("valid");
    let s =
        stackchess_air_attack::rules().from_lfen("4k3/8/8/8/3pP3/8/8/4K3|8/8/8/8/8/8/8/8 b - - 0 1").expect("valid");
    assert_ne!(r.hash(), s.hash());
}
