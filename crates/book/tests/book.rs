//! Books built from hand-written games (fide and malka): counts checked by hand, file round trips,
//! legality of probed moves, deterministic walks, and every way a file or a game can be wrong.

use proptest::prelude::*;
use stackchess_book::{Added, Book, BookBuilder, BookError};
use stackchess_core::Rules as _;
use stackchess_core::{coord, parse_coord, Position};
use stackchess_malka::Malka;
use stackchess_records::GameRecord;
use stackchess_traditional::Fide;
use std::path::{Path, PathBuf};

fn tmp(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("stackchess-book-{}", std::process::id()));
    std::fs::create_dir_all(&d).unwrap();
    d.join(name)
}

/// A record with the columns the builder reads.
fn game(id: &str, start_lfen: &str, moves: &str, result: &str) -> GameRecord {
    let (game_id, start_lfen, moves, result) = (id.into(), start_lfen.into(), moves.into(), result.into());
    GameRecord { game_id, start_lfen, moves, result, ..GameRecord::default() }
}

const FIDE_GAMES: [(&str, &str); 4] =
    [("e2e4 e7e5 g1f3 b8c6", "1-0"), ("e2e4 c7c5", "0-1"), ("d2d4 d7d5", "1/2-1/2"), ("e2e4 e7e5 f1c4", "1/2-1/2")];

fn build<P: Position>(rules: P::Rules, games: &[(&str, &str)], plies: u32, min_games: u32) -> Book<P> {
    let start = rules.startpos().to_lfen();
    let mut b = BookBuilder::<P>::new(rules, plies);
    for (i, (moves, result)) in games.iter().enumerate() {
        let id = i.to_string();
        let g = game(&id, &start, moves, result);
        assert_eq!(b.add(&g).unwrap(), Added::Used);
    }
    assert_eq!(b.games(), games.len() as u64);
    b.finish(min_games)
}

fn after<P: Position>(rules: P::Rules, moves: &str) -> P {
    let mut p = rules.startpos();
    for m in moves.split_whitespace() {
        let m = parse_coord(&p, m).unwrap();
        p.play_unchecked(m);
    }
    p
}

/// (coordinate, wins, draws, losses, weight) of each book move, in probe order.
fn listed<P: Position>(book: &Book<P>, moves: &str) -> Vec<(String, u32, u32, u32, u64)> {
    book.probe(&after::<P>(book.rules(), moves))
        .iter()
        .map(|b| (coord::<P>(b.mv), b.wins, b.draws, b.losses, b.weight))
        .collect()
}

#[test]
fn fide_counts_by_hand() {
    let book = build::<Fide>(stackchess_traditional::fide_rules(), &FIDE_GAMES, 16, 1);
    // e2e4: a White win, a loss, a draw; d2d4: a draw.
    assert_eq!(listed(&book, ""), [("e2e4".into(), 1, 1, 1, 3), ("d2d4".into(), 0, 1, 0, 1)]);
    // After e2e4, from Black's side: c7c5 won once; e7e5 lost once and drew once.
    assert_eq!(listed(&book, "e2e4"), [("c7c5".into(), 1, 0, 0, 2), ("e7e5".into(), 0, 1, 1, 1)]);
    assert_eq!(listed(&book, "e2e4 e7e5"), [("g1f3".into(), 1, 0, 0, 2), ("f1c4".into(), 0, 1, 0, 1)]);
    assert_eq!(listed(&book, "e2e4 e7e5 g1f3"), [("b8c6".into(), 0, 0, 1, 0)]);
    let top = &book.probe(&stackchess_traditional::fide_startpos())[0];
    assert_eq!((top.games, top.score), (3, 0.5));
    assert_eq!(book.entries().len(), 8);
    assert_eq!(book.positions(), 5);

    // Only the first two plies; then only what two games or more went through.
    let short = build::<Fide>(stackchess_traditional::fide_rules(), &FIDE_GAMES, 2, 1);
    assert!(listed(&short, "e2e4 e7e5").is_empty());
    assert_eq!(short.entries().len(), 5);
    let common = build::<Fide>(stackchess_traditional::fide_rules(), &FIDE_GAMES, 16, 2);
    assert_eq!(listed(&common, ""), [("e2e4".into(), 1, 1, 1, 3)]);
    assert_eq!(listed(&common, "e2e4"), [("e7e5".into(), 0, 1, 1, 1)]);
    assert_eq!(common.entries().len(), 2);
}

#[test]
fn malka_counts_and_round_trip() {
    let games = [("1b11c3 3b83a6 1g11f3", "1-0"), ("1b11c3 3b83a6", "1/2-1/2"), ("1g11f3", "0-1")];
    let book = build::<Malka>(stackchess_malka::rules(), &games, 16, 1);
    assert_eq!(listed(&book, ""), [("1b11c3".into(), 1, 1, 0, 3), ("1g11f3".into(), 0, 0, 1, 0)]);
    assert_eq!(listed(&book, "1b11c3"), [("3b83a6".into(), 0, 1, 1, 1)]);
    let path = tmp("malka.book");
    book.write(&path).unwrap();
    let back = Book::<Malka>::read(stackchess_malka::rules(), &path).unwrap();
    assert_eq!(back.entries(), book.entries());
    let h = stackchess_book::read_header(&path).unwrap();
    assert_eq!((h.variant.as_str(), h.count), ("malka", 4));
    // A malka book is no fide book.
    let err = Book::<Fide>::read(stackchess_traditional::fide_rules(), &path).unwrap_err();
    assert!(matches!(err, BookError::Variant { .. }), "{err}");
    assert!(err.to_string().contains("malka.book") && err.to_string().contains("'malka'"), "{err}");
}

#[test]
fn other_starts_need_permission() {
    let e4 = after::<Fide>(stackchess_traditional::fide_rules(), "e2e4").to_lfen();
    let g = game("g", &e4, "e7e5 g1f3", "0-1");
    let mut strict = BookBuilder::<Fide>::new(stackchess_traditional::fide_rules(), 16);
    assert_eq!(strict.add(&g).unwrap(), Added::OtherStart);
    assert_eq!(strict.games(), 0);
    assert!(strict.finish(1).entries().is_empty());
    let mut any = BookBuilder::<Fide>::new(stackchess_traditional::fide_rules(), 16).any_start(true);
    assert_eq!(any.add(&g).unwrap(), Added::Used);
    let book = any.finish(1);
    assert_eq!(listed(&book, "e2e4"), [("e7e5".into(), 1, 0, 0, 2)]);
    // Plies are counted from the game's start (move numbers): ply 1 and 2 of the game here.
    let mut one = BookBuilder::<Fide>::new(stackchess_traditional::fide_rules(), 2).any_start(true);
    one.add(&g).unwrap();
    assert_eq!(one.finish(1).entries().len(), 1);
}

#[test]
fn bad_games_are_named_and_count_nothing() {
    let start = stackchess_traditional::fide_startpos().to_lfen();
    let mut b = BookBuilder::<Fide>::new(stackchess_traditional::fide_rules(), 16);
    let err = |r: Result<Added, BookError>| r.unwrap_err().to_string();
    let e = err(b.add(&game("run-000007", &start, "e2e4 e7e5 e1e3", "1-0")));
    assert!(e.contains("run-000007") && e.contains("ply 3") && e.contains("e1e3"), "{e}");
    let e = err(b.add(&game("g2", &start, "e2e4 zz", "1-0")));
    assert!(e.contains("g2") && e.contains("ply 2"), "{e}");
    let e = err(b.add(&game("g3", &start, "e2e4", "1-1")));
    assert!(e.contains("g3") && e.contains("1-1"), "{e}");
    let e = err(b.add(&game("g4", "not a fen", "", "1-0")));
    assert!(e.contains("g4") && e.contains("start position"), "{e}");
    assert_eq!(b.games(), 0);
    assert!(b.finish(1).entries().is_empty());
}

#[test]
fn probe_keeps_only_legal_moves() {
    let book = build::<Fide>(stackchess_traditional::fide_rules(), &FIDE_GAMES, 16, 1);
    let bytes = book.to_bytes();
    // A book whose start-position entries are read back under another position's key: those
    // moves (e2e4, d2d4) are not legal for Black after 1. e4, so they must not appear there.
    let e4_key = after::<Fide>(stackchess_traditional::fide_rules(), "e2e4").hash();
    let start_key = stackchess_traditional::fide_startpos().hash();
    let mut forged: Vec<_> = book.entries().to_vec();
    for e in &mut forged {
        if e.key == start_key {
            e.key = e4_key;
        }
    }
    forged.sort_by_key(|e| (e.key, e.mv.to_u32()));
    let forged_bytes = rebuild(&bytes, &forged);
    let forged =
        Book::<Fide>::from_bytes(stackchess_traditional::fide_rules(), &forged_bytes, Path::new("forged")).unwrap();
    assert_eq!(listed(&forged, "e2e4"), [("c7c5".into(), 1, 0, 0, 2), ("e7e5".into(), 0, 1, 1, 1)]);
    for (k, p) in [
        (0, stackchess_traditional::fide_startpos()),
        (1, after(stackchess_traditional::fide_rules(), "e2e4")),
        (2, after(stackchess_traditional::fide_rules(), "d2d4 d7d5")),
    ] {
        for b in forged.probe(&p) {
            assert!(p.is_legal(b.mv), "line {k}");
        }
    }
}

/// The bytes of a book with the header of `bytes` and these entries.
fn rebuild(bytes: &[u8], entries: &[stackchess_book::Entry]) -> Vec<u8> {
    let header = bytes.len() - 24 * count(bytes) as usize;
    let mut out = bytes[..header].to_vec();
    let at = header - 8;
    out[at..header].copy_from_slice(&(entries.len() as u64).to_le_bytes());
    for e in entries {
        out.extend_from_slice(&e.key.to_le_bytes());
        out.extend_from_slice(&e.mv.to_u32().to_le_bytes());
        for n in [e.wins, e.draws, e.losses] {
            out.extend_from_slice(&n.to_le_bytes());
        }
    }
    out
}

/// The entry count of a book's bytes (version 2: a 16-byte rules id after the name).
fn count(bytes: &[u8]) -> u64 {
    let name_len = usize::from(bytes[10]);
    let at = 11 + name_len + 16 + 8;
    u64::from_le_bytes(bytes[at..at + 8].try_into().unwrap())
}

#[test]
fn walks_are_deterministic_and_stay_in_book() {
    let book = build::<Fide>(stackchess_traditional::fide_rules(), &FIDE_GAMES, 16, 1);
    let mut lines = std::collections::BTreeSet::new();
    for k in 0..40 {
        let line = book.walk_moves(9, k, 8);
        assert_eq!(line, book.walk_moves(9, k, 8));
        assert_eq!(book.walk(9, k, 8).to_lfen(), {
            let mut p = stackchess_traditional::fide_startpos();
            for m in &line {
                p.play_unchecked(*m);
            }
            p.to_lfen()
        });
        // Every step is a book move of positive weight, and the walk stops only out of book.
        let mut p = stackchess_traditional::fide_startpos();
        for m in &line {
            assert!(book.probe(&p).iter().any(|b| b.mv == *m && b.weight > 0));
            p.play_unchecked(*m);
        }
        assert!(line.len() == 8 || book.probe(&p).iter().all(|b| b.weight == 0));
        lines.insert(line.iter().map(|&m| coord::<Fide>(m)).collect::<Vec<_>>().join(" "));
    }
    // Weighted choice: e2e4 e7e5 g1f3 (weights 3, 1, 2), e2e4 c7c5, d2d4 d7d5 (a draw each).
    assert!(lines.contains("e2e4 c7c5") && lines.contains("e2e4 e7e5 g1f3"), "{lines:?}");
    assert!(!lines.iter().any(|l| l.contains("b8c6")), "b8c6 has weight 0: {lines:?}");
    assert_eq!(book.walk(9, 0, 0).to_lfen(), stackchess_traditional::fide_startpos().to_lfen());
    assert!(Book::<Fide>::from_bytes(
        stackchess_traditional::fide_rules(),
        &build::<Fide>(stackchess_traditional::fide_rules(), &[], 16, 1).to_bytes(),
        Path::new("e")
    )
    .unwrap()
    .walk_moves(1, 1, 8)
    .is_empty());
}

fn read_err(bytes: &[u8]) -> String {
    Book::<Fide>::from_bytes(stackchess_traditional::fide_rules(), bytes, Path::new("bad.book"))
        .unwrap_err()
        .to_string()
}

#[test]
fn damaged_files_are_refused_with_the_reason() {
    let bytes = build::<Fide>(stackchess_traditional::fide_rules(), &FIDE_GAMES, 16, 1).to_bytes();
    let missing =
        Book::<Fide>::read(stackchess_traditional::fide_rules(), &tmp("no-such.book")).unwrap_err().to_string();
    assert!(missing.contains("no-such.book"), "{missing}");
    let mut magic = bytes.clone();
    magic[0] = b'X';
    assert!(read_err(&magic).contains("magic"));
    let mut version = bytes.clone();
    version[8] = 3;
    assert!(read_err(&version).contains("version 3"));
    // A book of other rules under the same name: its rules id differs.
    let mut other = bytes.clone();
    let id_at = 11 + usize::from(bytes[10]);
    other[id_at] = if other[id_at] == b'0' { b'1' } else { b'0' };
    let e = read_err(&other);
    assert!(e.contains("another rule set under the same name"), "{e}");
    let cut = read_err(&bytes[..bytes.len() - 5]);
    assert!(cut.contains("bad.book") && cut.contains("truncated"), "{cut}");
    let mut long = bytes.clone();
    long.push(0);
    assert!(read_err(&long).contains("1 bytes after"));
    // Swap the first two entries: out of order.
    let at = bytes.len() - 24 * count(&bytes) as usize;
    let mut swapped = bytes.clone();
    swapped[at..at + 48].copy_from_slice(&[&bytes[at + 24..at + 48], &bytes[at..at + 24]].concat());
    let e = read_err(&swapped);
    assert!(e.contains("entry 1") && e.contains("not sorted"), "{e}");
    // Another key check: a book built with other Zobrist keys.
    let mut keys = bytes.clone();
    keys[at - 16] ^= 1;
    assert!(read_err(&keys).contains("Zobrist"));
    // A move off the board.
    let mut off = bytes.clone();
    off[at + 8] = 200;
    assert!(read_err(&off).contains("leaves the 1-level board"));
}

#[test]
fn every_truncation_is_an_error() {
    let bytes = build::<Malka>(stackchess_malka::rules(), &[("1b11c3 3b83a6 1g11f3", "1-0")], 16, 1).to_bytes();
    for n in 0..bytes.len() {
        assert!(
            Book::<Malka>::from_bytes(stackchess_malka::rules(), &bytes[..n], Path::new("t")).is_err(),
            "{n} bytes"
        );
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]
    /// Flipped bits never panic; a book read from flipped bytes probes only legal moves.
    #[test]
    fn flipped_bits_never_panic(flips in proptest::collection::vec((any::<usize>(), 0u8..8), 1..4)) {
        let mut bytes = build::<Fide>(stackchess_traditional::fide_rules(), &FIDE_GAMES, 16, 1).to_bytes();
        for (at, bit) in flips {
            let n = bytes.len();
            bytes[at % n] ^= 1 << bit;
        }
        if let Ok(book) = Book::<Fide>::from_bytes(stackchess_traditional::fide_rules(), &bytes, Path::new("flipped")) {
            for line in ["", "e2e4", "e2e4 e7e5", "d2d4"] {
                let p = after::<Fide>(stackchess_traditional::fide_rules(), line);
                for b in book.probe(&p) {
                    prop_assert!(p.is_legal(b.mv));
                }
            }
            let _ = book.walk(3, 4, 8);
        }
    }
}
