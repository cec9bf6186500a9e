//! Whether a king and a rook can mate a bare king, found by the rules' own move generator: every
//! placement of the two kings and the rook, Black to move, checked for mate (the black king on
//! one eighth of the board: without pawns the pieces move the same in the mirror images that swap
//! files, ranks, files with ranks, or the levels top with bottom). Nardeshir's rook (14
//! directions on three levels) never mates; chess's does. This is what `drawish.rook` in
//! Malka's preset rests on.

use stackchess_core::{write_lfen, Castling, Cell, Color, LfenState, Piece, Position, Role, Rules};

/// Mates with Black to move among K+R v K placements, the black king on a file a–d no further
/// than its rank 1–4, on the lower levels and the middle one.
fn lone_rook_mates<R: Rules>(rules: R, levels: usize) -> usize {
    let cells: Vec<Cell> = (0..64 * levels).map(Cell::from_index).collect();
    let near = |a: Cell, b: Cell| {
        a.level().abs_diff(b.level()) <= 1 && a.file().abs_diff(b.file()) <= 1 && a.rank().abs_diff(b.rank()) <= 1
    };
    let mut mates = 0;
    for &bk in cells.iter().filter(|c| c.file() <= c.rank() && c.rank() < 4 && 2 * c.level() < levels + 1) {
        for &wk in cells.iter().filter(|&&c| !near(c, bk)) {
            for &rook in cells.iter().filter(|&&c| c != bk && c != wk) {
                let on =
                    [(bk, Color::Black, Role::King), (wk, Color::White, Role::King), (rook, Color::White, Role::Rook)];
                let piece_at =
                    |c: Cell| on.iter().find(|(x, _, _)| *x == c).map(|&(_, color, role)| Piece { color, role });
                let st = LfenState { turn: Color::Black, castling: Castling(0), ep: None, halfmove: 0, fullmove: 1 };
                let lfen = write_lfen(levels, piece_at, st);
                let pos = rules.from_lfen(&lfen).unwrap_or_else(|e| panic!("{lfen}: {e}"));
                if pos.is_check() && pos.count_legal_moves() == 0 {
                    mates += 1;
                }
            }
        }
    }
    mates
}

#[test]
fn nardeshir_rook_and_king_never_mate_a_bare_king() {
    assert_eq!(lone_rook_mates(stackchess_variants::malka::rules(), 3), 0);
    assert_eq!(lone_rook_mates(stackchess_variants::traditional::rules(), 3), 0);
}

#[test]
fn chess_and_air_attack_rooks_do_mate() {
    // The check of the enumeration: on one level, the edge mates exist; in Air Attack a rook
    // checks across the levels through the cell above or below the king.
    assert!(lone_rook_mates(stackchess_variants::traditional::fide_rules(), 1) > 0);
    assert!(lone_rook_mates(stackchess_variants::air_attack::rules(), 2) > 0);
}

#[test]
fn drawish_rook_scales_the_lone_rook_down() {
    use stackchess_search::{evaluate, EvalParams};
    let rules = stackchess_variants::malka::rules();
    let krk = rules.from_lfen("8/8/8/8/8/8/8/8|8/4K3/8/3rk3/8/8/8/8|8/8/8/8/8/8/8/8 b - - 0 1").unwrap();
    // A rook and a pawn: not a lone rook.
    let rook_and_pawn = rules.from_lfen("8/8/8/8/8/8/8/8|8/4K3/8/3rk3/8/8/8/8|8/p7/8/8/8/8/8/8 b - - 0 1").unwrap();
    let mut p = EvalParams { scale_drawish: 8, ..EvalParams::default() };
    let full = evaluate(&krk, &p);
    p.drawish_rook = 1;
    let scaled = evaluate(&krk, &p);
    assert!(full > 400, "{full}");
    assert_eq!(scaled - p.tempo, (full - p.tempo) * 8 / 64);
    let with_pawn = evaluate(&rook_and_pawn, &p);
    p.drawish_rook = 0;
    assert_eq!(with_pawn, evaluate(&rook_and_pawn, &p));
}
