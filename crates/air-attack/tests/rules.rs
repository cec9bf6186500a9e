//! The Air Attack rules (docs/rules.md §3 and §5) as tests: the start position, check examples, transfers of every kind,
//! castling, pins, pawns, promotion, en passant.

use stackchess_air_attack::AirAttack;
use stackchess_core::Rules as _;
use stackchess_core::{coord, parse_move, Cell, Move, MoveKind, Position, Role};

fn pos(lfen: &str) -> AirAttack {
    stackchess_air_attack::rules().from_lfen(lfen).unwrap_or_else(|e| panic!("{lfen}: {e}"))
}

fn cell(s: &str) -> Cell {
    Cell::parse(s, 2).expect("cell")
}

/// The legal moves from `from`, in coordinate notation, sorted.
fn from(p: &AirAttack, from: &str) -> Vec<String> {
    let mut v: Vec<String> =
        p.moves().iter().filter(|m| m.from() == cell(from)).map(|&m| coord::<AirAttack>(m)).collect();
    v.sort();
    v
}

fn targets(p: &AirAttack, f: &str) -> Vec<String> {
    from(p, f).into_iter().map(|m| m[3..].to_owned()).collect()
}

fn legal(p: &AirAttack, m: &str) -> bool {
    parse_move(p, m).is_ok()
}

fn play(p: &mut AirAttack, moves: &[&str]) {
    for m in moves {
        let mv = parse_move(p, m).unwrap_or_else(|e| panic!("{m} in {}: {e}", p.to_lfen()));
        p.play_unchecked(mv);
    }
}

#[test]
fn start_position_has_99_moves_with_the_stated_breakdown() {
    let p = stackchess_air_attack::startpos();
    let moves = p.moves();
    assert_eq!(moves.len(), 99);
    assert_eq!(p.count_legal_moves(), 99);
    let transfers: Vec<Move> = moves.iter().copied().filter(|m| m.kind() == MoveKind::Transfer).collect();
    assert_eq!(moves.len() - transfers.len(), 20);
    assert_eq!(transfers.len(), 79);
    let by_role = |r: Role| transfers.iter().filter(|m| p.piece_at(m.from()).map(|x| x.role) == Some(r)).count();
    assert_eq!(
        [Role::Pawn, Role::Knight, Role::Rook, Role::Bishop, Role::Queen, Role::King].map(by_role),
        [16, 6, 18, 14, 19, 6]
    );
    assert_eq!(targets(&p, "1e2"), ["1e3", "1e4", "2e2", "2e3"]);
    assert_eq!(targets(&p, "1b1"), ["1a3", "1c3", "2a3", "2c3", "2d2"]);
    assert_eq!(targets(&p, "1e1"), ["2d1", "2d2", "2e1", "2e2", "2f1", "2f2"]);
    assert!(transfers.iter().all(|m| m.from().level() == 0 && m.to().level() == 1));
}

/// White K 1e1, Black K 1a8 and one more black piece given as letter and cell (`q2e5`).
fn lone(black: &str) -> AirAttack {
    let c = cell(&black[1..]);
    let mut grid = [['.'; 8]; 16];
    grid[7][4] = 'K';
    grid[0][0] = 'k';
    grid[c.level() * 8 + 7 - c.rank()][c.file()] = black.chars().next().expect("letter");
    let rank = |row: &[char; 8]| {
        let mut s = String::new();
        let mut empty = 0;
        for &ch in row {
            if ch == '.' {
                empty += 1;
            } else {
                if empty > 0 {
                    s.push_str(&empty.to_string());
                }
                empty = 0;
                s.push(ch);
            }
        }
        if empty > 0 {
            s.push_str(&empty.to_string());
        }
        s
    };
    let level = |l: usize| grid[l * 8..l * 8 + 8].iter().map(rank).collect::<Vec<_>>().join("/");
    pos(&format!("{}|{} w - - 0 1", level(0), level(1)))
}

#[test]
fn rules_check_examples() {
    assert!(lone("q2e5").is_check(), "Q 2e5 checks: T 1e5, four cells down");
    assert!(!lone("q2e6").is_check(), "Q 2e6 is five cells away");
    assert!(lone("r2e1").is_check(), "R 2e1 captures on its transfer cell");
    assert!(!lone("n2e1").is_check(), "a knight never captures on T");
    assert!(lone("n2f3").is_check(), "N 2f3 leaps from 1f3");
    assert!(!lone("p2d2").is_check(), "a pawn not in home position stops on T");
    // N 2f3 checks even if 1f3 is occupied, by either side.
    assert!(pos("k7/8/8/8/8/5N2/8/4K3|8/8/8/8/8/5n2/8/8 w - - 0 1").is_check());
    assert!(pos("k7/8/8/8/8/5b2/8/4K3|8/8/8/8/8/5n2/8/8 w - - 0 1").is_check());
    // With the white king on 1e4, a black pawn on 2e4 checks by capturing on T.
    assert!(pos("k7/8/8/8/4K3/8/8/8|8/8/8/8/4p3/8/8/8 w - - 0 1").is_check());
}

#[test]
fn more_transfer_checks() {
    assert!(lone("b2a5").is_check(), "bishop: T 1a5, four cells along the diagonal");
    assert!(lone("b2h4").is_check(), "bishop: T 1h4, three cells");
    // A king attacks one step from its transfer cell: with the black king on 2c3 (T 1c3), the
    // white king may not go to 1d2 but may go to 1d1.
    let p = pos("8/8/8/8/8/8/8/4K3|8/8/8/8/8/2k5/8/8 w - - 0 1");
    assert!(!p.is_check());
    let t = targets(&p, "1e1");
    assert!(!t.contains(&"1d2".to_owned()) && t.contains(&"1d1".to_owned()), "{t:?}");
    assert!(lone("b2e1").is_check(), "any piece but a knight directly above");
    assert!(lone("r2a1").is_check(), "rook: T 1a1, four cells along rank 1");
    assert!(!lone("r2h2").is_check(), "rook: T 1h2 is not on a rook line through 1e1");
    // A path blocked on the king's level stops the transfer slide; one on the other level does not matter.
    assert!(!pos("k7/8/8/8/8/8/4P3/4K3|8/8/8/4q3/8/8/8/8 w - - 0 1").is_check());
    assert!(pos("k7/8/8/8/8/8/8/4K3|8/8/8/4q3/4P3/8/8/8 w - - 0 1").is_check());
    // An occupied transfer cell stops the slide (the piece on it is captured instead).
    assert!(!pos("k7/8/8/4P3/8/8/8/4K3|8/8/8/4q3/8/8/8/8 w - - 0 1").is_check());
    // A black pawn in home position (1d7) checks a king on 2e6 via T 2d7, unless 2d7 is occupied.
    assert!(pos("7k/3p4/8/8/8/8/8/8|8/8/4K3/8/8/8/8/8 w - - 0 1").is_check());
    assert!(!pos("7k/3p4/8/8/8/8/8/8|8/3N4/4K3/8/8/8/8/8 w - - 0 1").is_check());
    // Not from 1d6: not home position.
    assert!(!pos("7k/8/3p4/8/8/8/8/8|8/8/8/4K3/8/8/8/8 w - - 0 1").is_check());
}

#[test]
fn castling_refused_when_the_crossed_cell_is_attacked_from_level_2() {
    // Rook 2f5: T 1f5, four cells down to 1f1. The king on 1e1 and 1g1 are not attacked.
    let p = pos("k7/8/8/8/8/8/8/4K2R|8/8/8/5r2/8/8/8/8 w K - 0 1");
    assert!(!p.is_check());
    assert!(!legal(&p, "1e11g1"));
    // One rank further it is five cells: castling is fine.
    let p = pos("k7/8/8/8/8/8/8/4K2R|8/8/5r2/8/8/8/8/8 w K - 0 1");
    assert!(legal(&p, "1e11g1"));
    // Long castling: a bishop on 2b3 reaches 1d1 by T 1b3, 1c2, 1d1.
    let p = pos("7k/8/8/8/8/8/8/R3K3|8/8/8/8/8/1b6/8/8 w Q - 0 1");
    assert!(!p.is_check());
    assert!(!legal(&p, "1e11c1"), "1d1 is attacked by the bishop's transfer 2b3-1b3-1c2-1d1");
    // The king may not land on an attacked cell either: a rook over 1g1 (2g2 would also hit 1g1 via T 1g2).
    let p = pos("k7/8/8/8/8/8/8/4K2R|8/8/8/8/6r1/8/8/8 w K - 0 1");
    assert!(!p.is_check());
    assert!(!legal(&p, "1e11g1"), "1g1 is four cells below T 1g4");
    // A knight on 2f1 attacks neither 1e1, 1f1 nor 1g1.
    let p = pos("k7/8/8/8/8/8/8/4K2R|8/8/8/8/8/8/8/5n2 w K - 0 1");
    assert!(legal(&p, "1e11g1"));
    // Castling is a normal move: pieces on level 2 above the path do not block it.
    let p = pos("k7/8/8/8/8/8/8/4K2R|8/8/8/8/8/8/8/5NB1 w K - 0 1");
    assert!(legal(&p, "1e11g1"));
}

#[test]
fn the_king_may_not_move_under_or_over_an_enemy_rook() {
    // Under: the rook on 2d6 captures on its transfer cell 1d6.
    let p = pos("7k/8/3R4/4K3/8/8/8/8|8/8/3r4/8/8/8/8/8 w - - 0 1");
    assert!(!p.is_check());
    assert!(!targets(&p, "1e5").contains(&"1d6".to_owned()));
    // ... which would be legal without the rook above.
    let p2 = pos("7k/8/3r4/4K3/8/8/8/8|8/8/8/8/8/8/8/8 w - - 0 1");
    assert!(targets(&p2, "1e5").contains(&"1d6".to_owned()));
    // Over: a king on level 2 may not step onto 2c4 above a rook on 1c4, nor transfer there.
    let p = pos("7k/8/8/8/2r5/8/8/8|8/8/8/8/8/3K4/8/8 w - - 0 1");
    assert!(!p.is_check());
    assert!(!targets(&p, "2d3").contains(&"2c4".to_owned()));
    assert!(targets(&p, "2d3").contains(&"1c4".to_owned()), "capturing the rook by transfer is fine");
}

#[test]
fn a_pinned_piece_may_not_transfer_out_of_the_pin() {
    // Rook pinned along the e-file on level 1: only e-file moves remain.
    let p = pos("k3r3/8/8/8/4R3/8/8/4K3|8/8/8/8/8/8/8/8 w - - 0 1");
    let t = targets(&p, "1e4");
    assert_eq!(t, ["1e2", "1e3", "1e5", "1e6", "1e7", "1e8"]);
    // Bishop pinned on a diagonal: no transfer.
    let p = pos("k7/8/8/b7/8/8/3B4/4K3|8/8/8/8/8/8/8/8 w - - 0 1");
    assert_eq!(targets(&p, "1d2"), ["1a5", "1b4", "1c3"]);
    // A knight pinned by a transfer line (queen 2e5: T 1e5, then 1e4 1e3 1e2 1e1) cannot move.
    let p = pos("k7/8/8/8/8/4N3/8/4K3|8/8/8/4q3/8/8/8/8 w - - 0 1");
    assert!(!p.is_check());
    assert!(targets(&p, "1e3").is_empty());
    // A bishop on the queen's transfer cell may only capture the queen (by its own transfer).
    let p = pos("k7/8/8/4B3/8/8/8/4K3|8/8/8/4q3/8/8/8/8 w - - 0 1");
    assert_eq!(targets(&p, "1e5"), ["2e5"]);
}

#[test]
fn knight_transfers_over_own_and_enemy_pieces() {
    for (on_t, piece) in [("own", "B"), ("enemy", "b")] {
        let mut p = pos(&format!("k7/8/8/8/8/8/8/1N2K3|8/8/8/8/8/8/8/1{piece}6 w - - 0 1"));
        let t = targets(&p, "1b1");
        for want in ["2a3", "2c3", "2d2"] {
            assert!(t.contains(&want.to_owned()), "{on_t} piece on T: {want} in {t:?}");
        }
        assert!(!t.contains(&"2b1".to_owned()), "a knight never stops on T");
        play(&mut p, &["1b12c3"]);
        assert_eq!(p.piece_at(cell("2b1")).map(|x| x.char().to_string()), Some(piece.to_owned()), "T untouched");
    }
    // The knight captures on its landing cell after the leap.
    let p = pos("k7/8/8/8/8/8/8/1N2K3|8/8/8/8/8/2r5/8/8 w - - 0 1");
    assert_eq!(p.captured(parse_move(&p, "1b12c3").expect("legal")), Some(Role::Rook));
}

#[test]
fn transfer_captures_end_on_the_transfer_cell() {
    // The rook on 1a1 captures on 2a1 and may not go past it.
    let p = pos("7k/8/8/8/8/8/8/R3K3|8/8/8/8/8/8/8/n7 w - - 0 1");
    let t = targets(&p, "1a1");
    assert!(t.contains(&"2a1".to_owned()));
    assert!(!t.iter().any(|c| c.starts_with('2') && c != "2a1"), "{t:?}");
    // An own piece on T forbids the transfer.
    let p = pos("7k/8/8/8/8/8/8/R3K3|8/8/8/8/8/8/8/N7 w - - 0 1");
    assert!(!targets(&p, "1a1").iter().any(|c| c.starts_with('2')));
    // Queen range: four cells from T, not five; the first enemy is captured, not passed.
    let p = pos("8/7k/8/8/8/8/8/Q3K3|8/8/8/8/p7/8/8/8 w - - 0 1");
    let t = targets(&p, "1a1");
    assert!(t.contains(&"2a4".to_owned()) && !t.contains(&"2a5".to_owned()));
    assert!(t.contains(&"2e1".to_owned()) && !t.contains(&"2f1".to_owned()));
    assert!(t.contains(&"2e5".to_owned()) && !t.contains(&"2f6".to_owned()));
    // King: T, or one step from an empty T.
    let p = pos("k7/8/8/8/8/8/8/4K3|8/8/8/8/8/8/8/8 w - - 0 1");
    assert_eq!(targets(&p, "1e1").iter().filter(|c| c.starts_with('2')).count(), 6);
}

#[test]
fn pawn_transfers() {
    // Home position: stop on T, step on, or capture diagonally from T.
    let p = pos("k7/8/8/8/8/8/4P3/4K3|8/8/8/8/8/3b1N2/8/8 w - - 0 1");
    assert_eq!(targets(&p, "1e2"), ["1e3", "1e4", "2d3", "2e2", "2e3"]);
    // Any other pawn: only T (no step on, no capture from T).
    let p = pos("k7/8/8/8/8/4P3/8/4K3|8/8/8/8/3n4/8/8/8 w - - 0 1");
    assert_eq!(targets(&p, "1e3"), ["1e4", "2e3"]);
    // A pawn captures on T and the move ends.
    let p = pos("k7/8/8/8/8/4P3/8/4K3|8/8/8/8/8/4n3/8/8 w - - 0 1");
    assert_eq!(targets(&p, "1e3"), ["1e4", "2e3"]);
    assert_eq!(p.captured(parse_move(&p, "1e32e3").expect("legal")), Some(Role::Knight));
    // A pawn on level 2 transfers down, and never double-steps there.
    let p = pos("k7/8/8/8/8/8/8/4K3|8/8/8/8/8/8/4P3/8 w - - 0 1");
    assert_eq!(targets(&p, "2e2"), ["1e2", "2e3"]);
    // Black mirrors: home position on 1x7.
    let p = pos("4k3/4p3/8/8/8/8/8/K7|8/8/8/5N2/8/8/8/8 b - - 0 1");
    assert_eq!(targets(&p, "1e7"), ["1e5", "1e6", "2e6", "2e7"]);
}

#[test]
fn a_pawn_back_on_its_home_rank_after_two_transfers_may_double_step() {
    let mut p = stackchess_air_attack::startpos();
    play(&mut p, &["1e22e2", "1a71a6"]);
    assert_eq!(targets(&p, "2e2"), ["1e2", "2e3"], "no double step on level 2, no step on after T");
    play(&mut p, &["2e21e2", "1a61a5"]);
    let m = parse_move(&p, "1e21e4").expect("double step");
    assert_eq!(m.kind(), MoveKind::DoubleStep);
    play(&mut p, &["1e21e4"]);
    assert_eq!(p.ep_cell(), Some(cell("1e3")));
    // And it is again in home position for transfers: 1d2 was never moved, 1e2 came back.
    let mut q = stackchess_air_attack::startpos();
    play(&mut q, &["1e22e2", "1a71a6", "2e21e2", "1a61a5"]);
    assert_eq!(targets(&q, "1e2"), ["1e3", "1e4", "2e2", "2e3"]);
}

#[test]
fn promotion_on_level_2() {
    let mut p = pos("k7/8/8/8/8/8/8/4K3|2r5/1P6/8/8/8/8/8/8 w - - 0 1");
    let mut m = from(&p, "2b7");
    m.sort();
    assert_eq!(
        m,
        ["2b72b8b", "2b72b8n", "2b72b8q", "2b72b8r", "2b72c8b", "2b72c8n", "2b72c8q", "2b72c8r", "2b71b7"]
            .map(str::to_owned)
            .into_iter()
            .collect::<std::collections::BTreeSet<_>>()
            .into_iter()
            .collect::<Vec<_>>()
    );
    play(&mut p, &["2b72c8n"]);
    assert_eq!(p.piece_at(cell("2c8")).map(stackchess_core::Piece::char), Some('N'));
    assert_eq!(p.halfmove_clock(), 0);
    // Black promotes on rank 1 of level 2 as well.
    let p = pos("k7/8/8/8/8/8/8/4K3|8/8/8/8/8/8/6p1/8 b - - 0 1");
    assert_eq!(from(&p, "2g2").len(), 5);
}

#[test]
fn en_passant_on_level_1() {
    let mut p = pos("4k3/3p4/8/4P3/8/8/8/4K3|8/8/8/8/8/8/8/8 b - - 0 1");
    play(&mut p, &["1d71d5"]);
    assert_eq!(p.ep_cell(), Some(cell("1d6")));
    let m = parse_move(&p, "1e51d6").expect("en passant");
    assert_eq!(m.kind(), MoveKind::EnPassant);
    let h = p.hash();
    play(&mut p, &["1e51d6"]);
    assert_eq!(p.piece_at(cell("1d5")), None);
    assert_ne!(p.hash(), h);
    // A pawn on level 2 above cannot take en passant (and the cell is then not in the hash).
    let mut q = pos("4k3/3p4/8/8/8/8/8/4K3|8/8/8/4P3/8/8/8/8 b - - 0 1");
    play(&mut q, &["1d71d5"]);
    assert!(from(&q, "2e5").iter().all(|m| !m.ends_with("d6")));
    assert_eq!(q.hash(), q.hash_from_scratch());
}

#[test]
fn transfers_lose_castling_rights() {
    let mut p = stackchess_air_attack::startpos();
    play(&mut p, &["1e12e1", "1a71a6", "2e11e1"]);
    assert_eq!(p.castling().to_string(), "kq");
    play(&mut p, &["1a61a5", "1h12h1"]);
    assert_eq!(p.castling().to_string(), "kq");
    let mut q = stackchess_air_attack::startpos();
    play(&mut q, &["1h12h1"]);
    assert_eq!(q.castling().to_string(), "Qkq");
}

#[test]
fn transfers_use_the_transfer_kind_and_round_trip_through_notation() {
    let p = stackchess_air_attack::startpos();
    for m in p.moves() {
        assert_eq!(m.kind() == MoveKind::Transfer, m.from().level() != m.to().level());
        assert_eq!(parse_move(&p, &coord::<AirAttack>(m)), Ok(m));
        assert_eq!(parse_move(&p, &stackchess_core::san(&p, m)), Ok(m));
    }
    assert_eq!(parse_move(&p, "N2c3").map(coord::<AirAttack>), Ok("1b12c3".to_owned()));
}

#[test]
fn golden_perft_counts_up_to_two_million_nodes() {
    let text = include_str!("../../../data/perft/air-attack.perft");
    let checked = stackchess_core::check_perft_file::<stackchess_air_attack::AirAttack>(
        stackchess_air_attack::rules(),
        text,
        2_000_000,
    );
    assert!(checked.unwrap_or_else(|e| panic!("air-attack.perft: {e}")) > 20);
}
