//! Malformed positions are rejected with an error naming the field and the fault.

use stackchess_core::Rules as _;
use stackchess_core::{LfenField, Position};
use stackchess_variants::{AirAttack, Fide, Malka, Traditional};

const START: &str = "8/8/8/8/8/8/PPPPPPPP/RNBQKBNR|8/8/8/8/8/8/8/8|rnbqkbnr/pppppppp/8/8/8/8/8/8 w KQkq - 0 1";

fn err<P: Position>(rules: P::Rules, lfen: &str) -> (LfenField, String) {
    let e = rules.from_lfen(lfen).expect_err(lfen);
    let text = e.to_string();
    (e.field, text)
}

#[test]
fn malformed_positions_name_the_field() {
    let cases: [(&str, LfenField, &str); 15] = [
        ("8/8/8/8/8/8/PPPPPPPP/RNBQKBNR|8/8/8/8/8/8/8/8|rnbqkbnr/pppppppp/8/8/8/8/8/8", LfenField::Fields, "4 or 6"),
        (
            "8/8/8/8/8/8/PPPPPPPP/RNBQKBNR|8/8/8/8/8/8/8/8|rnbqkbnr/pppppppp/8/8/8/8/8/8 w KQkq - 0 1 x",
            LfenField::Fields,
            "found 7",
        ),
        (
            "8/8/8/8/8/8/PPPPPPPP/RNBQKBNX|8/8/8/8/8/8/8/8|rnbqkbnr/pppppppp/8/8/8/8/8/8 w - -",
            LfenField::Level(1),
            "'X' is not a piece",
        ),
        (
            "8/8/8/8/8/8/PPPPPPP/RNBQKBNR|8/8/8/8/8/8/8/8|rnbqkbnr/pppppppp/8/8/8/8/8/8 w - -",
            LfenField::Level(1),
            "rank 2 has 7 cells",
        ),
        (
            "8/8/8/8/8/8/PPPPPPPP/RNBQKBNR|8/8/8/8/8/8/8/8|rnbqkbnr/pppppppp/8/8/8/8/8/1p7 w - -",
            LfenField::Level(3),
            "more than 8",
        ),
        (
            "8/8/8/8/8/8/PPPPPPPP/RNBQKBNR|rnbqkbnr/pppppppp/8/8/8/8/8/8 w - -",
            LfenField::Placement,
            "the placement has 2",
        ),
        (
            "8/8/8/8/8/8/PPPPPPPP/RNBQKBNR|8/8/8/8/8/8/8/K7|rnbqkbnr/pppppppp/8/8/8/8/8/8 w - -",
            LfenField::Placement,
            "white has 2 kings",
        ),
        (
            "8/8/8/8/8/8/PPPPPPPP/RNBQ1BNR|8/8/8/8/8/8/8/8|rnbqkbnr/pppppppp/8/8/8/8/8/8 w - -",
            LfenField::Placement,
            "white has 0 kings",
        ),
        (
            "8/8/8/8/8/8/PPPPPPPP/RNBQKBNR|8/8/8/8/8/8/8/8|rnbqkbnr/pppppppp/8/8/8/8/8/8 x - -",
            LfenField::Side,
            "'w' or 'b'",
        ),
        (
            "8/8/8/8/8/8/PPPPPPPP/RNBQKBNR|8/8/8/8/8/8/8/8|rnbqkbnr/pppppppp/8/8/8/8/8/8 w KZ -",
            LfenField::Castling,
            "'Z'",
        ),
        (
            "8/8/8/8/8/8/PPPPPPPP/RNBQKBN1|8/8/8/8/8/8/8/8|rnbqkbnr/pppppppp/8/8/8/8/8/8 w K -",
            LfenField::Castling,
            "no white rook",
        ),
        (
            "8/8/8/8/8/8/PPPPPPPP/RNBQKBNR|8/8/8/8/8/8/8/8|rnbqkbnr/pppppppp/8/8/8/8/8/8 w - 2e3",
            LfenField::EnPassant,
            "double-stepped",
        ),
        (
            "8/8/8/8/8/8/PPPPPPPP/RNBQKBNR|8/8/8/8/8/8/8/8|rnbqkbnr/pppppppp/8/8/8/8/8/8 w - 9z9",
            LfenField::EnPassant,
            "bad cell",
        ),
        (
            "8/8/8/8/8/8/PPPPPPPP/RNBQKBNR|8/8/8/8/8/8/8/8|rnbqkbnr/pppppppp/8/8/8/8/8/8 w - - x 1",
            LfenField::Halfmove,
            "'x'",
        ),
        (
            "8/8/8/8/8/8/PPPPPPPP/RNBQKBNR|8/8/8/8/8/8/8/8|rnbqkbnr/pppppppp/8/8/8/8/8/8 w - - 0",
            LfenField::Fields,
            "found 5",
        ),
    ];
    for (lfen, field, needle) in cases {
        let (f, text) = err::<Traditional>(stackchess_variants::traditional::rules(), lfen);
        assert_eq!(f, field, "{lfen}: {text}");
        assert!(text.contains(needle), "{lfen}: '{text}' lacks '{needle}'");
    }
}

#[test]
fn illegal_positions_are_rejected() {
    // The side not to move is in check: a white rook on 2e8 checks 3e8 vertically, with White to move.
    let (f, text) = err::<Traditional>(
        stackchess_variants::traditional::rules(),
        "8/8/8/8/8/8/8/4K3|4R3/8/8/8/8/8/8/8|4k3/8/8/8/8/8/8/8 w - -",
    );
    assert_eq!(f, LfenField::Position, "{text}");
    assert!(text.contains("black is in check"), "{text}");
    // A white pawn on rank 1 (any level), on a promotion cell, and a black pawn on rank 8.
    for lfen in [
        "8/8/8/8/8/8/8/4K3|8/8/8/8/8/8/8/P7|4k3/8/8/8/8/8/8/8 w - -",
        "8/8/8/8/8/8/8/4K3|8/8/8/8/8/8/8/8|P3k3/8/8/8/8/8/8/8 w - -",
        "p7/8/8/8/8/8/8/4K3|8/8/8/8/8/8/8/8|4k3/8/8/8/8/8/8/8 w - -",
    ] {
        let (f, text) = err::<Malka>(stackchess_variants::malka::rules(), lfen);
        assert_eq!(f, LfenField::Placement, "{text}");
        assert!(text.contains("pawn on"), "{text}");
    }
    // Malka has no double step and so no en passant, and no en-passant cell; fide reads plain FEN cells.
    let (f, text) = err::<Malka>(
        stackchess_variants::malka::rules(),
        "8/8/8/8/4P3/8/8/4K3|8/8/8/8/8/8/8/8|4k3/8/8/8/8/8/8/8 b - 1e3",
    );
    assert_eq!(f, LfenField::EnPassant);
    assert!(text.contains("no en passant"), "{text}");
    assert!(stackchess_variants::traditional::fide_rules()
        .from_lfen("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1")
        .is_ok());
    assert!(stackchess_variants::traditional::fide_rules()
        .from_lfen("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq 1e3 0 1")
        .is_ok());
    assert_eq!(
        err::<Fide>(
            stackchess_variants::traditional::fide_rules(),
            "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e6 0 1"
        )
        .0,
        LfenField::EnPassant
    );
    assert_eq!(err::<Fide>(stackchess_variants::traditional::fide_rules(), START).0, LfenField::Placement);
    // Every variant reads the fields through the same code: five fields is an error everywhere.
    let five = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR|8/8/8/8/8/8/8/8 w KQkq - 0";
    assert_eq!(err::<AirAttack>(stackchess_variants::air_attack::rules(), five).0, LfenField::Fields);
    assert!(stackchess_air_attack::rules().from_lfen(&five.replace(" - 0", " - 0 1")).is_ok());
}
