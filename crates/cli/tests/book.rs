//! `stackchess book build | probe` and `--openings book:FILE:K` as a user runs them, and the
//! errors bad inputs give.

use assert_cmd::Command;
use stackchess_book::Book;
use stackchess_core::Position;
use stackchess_core::Rules as _;
use stackchess_selfplay::{read_records, GameRecord};
use stackchess_variants::Fide;
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

fn tmp(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("stackchess-cli-book-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

fn bin() -> Command {
    Command::cargo_bin("stackchess").unwrap()
}

/// Runs `stackchess args`, expecting success; returns stdout.
fn ok(args: &[&str]) -> String {
    let out = bin().args(args).output().unwrap();
    assert!(out.status.success(), "{args:?}: {}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8(out.stdout).unwrap()
}

/// Runs `stackchess args`, expecting failure; returns stderr.
fn fails(args: &[&str]) -> String {
    let out = bin().args(args).output().unwrap();
    assert!(!out.status.success(), "{args:?} succeeded: {}", String::from_utf8_lossy(&out.stdout));
    String::from_utf8(out.stderr).unwrap()
}

fn selfplay(out: &Path, games: &str, nodes: &str, openings: &str) -> String {
    let o = out.to_str().unwrap();
    let args =
        ["selfplay", "--variant", "fide", "--games", games, "--nodes", nodes, "--max-plies", "40", "-q", "--openings"];
    ok(&[&args[..], &[openings, "--out", o]].concat())
}

fn records(dir: &Path) -> Vec<GameRecord> {
    let mut r = read_records(&dir.join("games.csv")).unwrap();
    r.sort_by_key(|g| g.index);
    r
}

/// (coordinate, games) of each line `probe` prints.
fn probed(text: &str) -> Vec<(String, u64)> {
    text.lines()
        .skip(1)
        .map(|l| {
            let f: Vec<&str> = l.split_whitespace().collect();
            (f[0].to_owned(), f[2].parse().unwrap())
        })
        .collect()
}

/// The LFENs of every position reachable in at most `plies` book moves.
fn reachable(book: &Book<Fide>, plies: u32) -> BTreeSet<String> {
    let mut seen = BTreeSet::new();
    let mut frontier = vec![stackchess_variants::traditional::fide_startpos()];
    for _ in 0..=plies {
        let mut next = Vec::new();
        for p in frontier {
            if seen.insert(p.to_lfen()) {
                for b in book.probe(&p) {
                    let mut q = p;
                    q.play_unchecked(b.mv);
                    next.push(q);
                }
            }
        }
        frontier = next;
    }
    seen
}

#[test]
fn build_probe_and_play_from_a_book() {
    let dir = tmp("flow");
    let (a, b, file) = (dir.join("a"), dir.join("b"), dir.join("fide.book"));
    selfplay(&a, "4", "200", "start");
    selfplay(&b, "3", "350", "start");
    let f = file.to_str().unwrap();
    // A directory and a games.csv file as inputs.
    let out = ok(&[
        "book",
        "build",
        "--variant",
        "fide",
        "--out",
        f,
        a.to_str().unwrap(),
        b.join("games.csv").to_str().unwrap(),
    ]);
    assert!(out.contains("Games used: 7"), "{out}");
    assert!(out.contains("positions") && out.contains("entries"), "{out}");

    // The start position: every game's first move, counts summing to the games used.
    let start = probed(&ok(&["book", "probe", f]));
    assert!(!start.is_empty());
    assert_eq!(start.iter().map(|(_, g)| g).sum::<u64>(), 7);
    let firsts: BTreeSet<String> = records(&a)
        .iter()
        .chain(records(&b).iter())
        .map(|r| r.moves.split_whitespace().next().unwrap().to_owned())
        .collect();
    assert_eq!(start.iter().map(|(m, _)| m.clone()).collect::<BTreeSet<_>>(), firsts);
    // After the most played move, the replies sum to its games; --lfen gives the same listing.
    let (top, games) = start[0].clone();
    let after = probed(&ok(&["book", "probe", f, "--moves", &top]));
    assert_eq!(after.iter().map(|(_, g)| g).sum::<u64>(), games);
    let lfen = ok(&["apply", "--variant", "fide", &top]);
    assert_eq!(probed(&ok(&["book", "probe", f, "--lfen", lfen.trim()])), after);

    // Games from book openings start from book positions, opening k being walk(seed, k, 4).
    let c = dir.join("c");
    let spec = format!("book:{f}:4");
    selfplay(&c, "6", "200", &spec);
    let book = Book::<Fide>::read(stackchess_variants::traditional::fide_rules(), &file).unwrap();
    let reach = reachable(&book, 4);
    let first = records(&c);
    assert_eq!(first.len(), 6);
    for r in &first {
        let lfen = stackchess_variants::traditional::fide_rules().from_lfen(&r.start_lfen).unwrap().to_lfen();
        assert!(reach.contains(&lfen), "game {}: {lfen} is not a book position", r.index);
        assert_eq!(lfen, book.walk(1, r.pair, 4).to_lfen());
        assert_ne!(lfen, stackchess_variants::traditional::fide_startpos().to_lfen());
    }
    let manifest = std::fs::read_to_string(c.join("manifest.json")).unwrap();
    assert!(manifest.contains(&format!("book:{f}#")), "{manifest}");
    // Extending the run regenerates the same first openings (same run key, same games).
    let c_str = c.to_str().unwrap();
    ok(&[
        "selfplay",
        "--variant",
        "fide",
        "--games",
        "8",
        "--nodes",
        "200",
        "--max-plies",
        "40",
        "-q",
        "--openings",
        &spec,
        "--resume",
        "--out",
        c_str,
    ]);
    let more = records(&c);
    assert_eq!(more.len(), 8);
    assert_eq!(
        more[..6].iter().map(GameRecord::without_timing).collect::<Vec<_>>(),
        first.iter().map(GameRecord::without_timing).collect::<Vec<_>>()
    );
    // Without K, walks are 8 plies long.
    let d = dir.join("d");
    selfplay(&d, "2", "200", &format!("book:{f}"));
    let manifest = std::fs::read_to_string(d.join("manifest.json")).unwrap();
    assert!(manifest.contains(":8\""), "{manifest}");
    for r in records(&d) {
        assert_eq!(
            stackchess_variants::traditional::fide_rules().from_lfen(&r.start_lfen).unwrap().to_lfen(),
            book.walk(1, r.pair, 8).to_lfen()
        );
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn bad_inputs_are_named() {
    let dir = tmp("bad");
    let sp = dir.join("sp");
    selfplay(&sp, "2", "200", "start");
    let file = dir.join("fide.book");
    let f = file.to_str().unwrap();
    ok(&["book", "build", "--variant", "fide", "--out", f, sp.to_str().unwrap()]);

    let missing = dir.join("missing.book");
    let m = missing.to_str().unwrap();
    assert!(fails(&["book", "probe", m]).contains("missing.book"));
    let e = fails(&[
        "selfplay",
        "--variant",
        "fide",
        "--games",
        "2",
        "--nodes",
        "200",
        "--openings",
        &format!("book:{m}"),
        "--out",
        dir.join("o1").to_str().unwrap(),
    ]);
    assert!(e.contains("missing.book"), "{e}");

    let garbage = dir.join("garbage.book");
    std::fs::write(&garbage, "hello, not a book").unwrap();
    let e = fails(&["book", "probe", garbage.to_str().unwrap()]);
    assert!(e.contains("garbage.book") && e.contains("magic"), "{e}");
    let bytes = std::fs::read(&file).unwrap();
    let cut = dir.join("cut.book");
    std::fs::write(&cut, &bytes[..bytes.len() - 3]).unwrap();
    let e = fails(&["book", "probe", cut.to_str().unwrap()]);
    assert!(e.contains("cut.book") && e.contains("truncated"), "{e}");

    // A malka position for a fide book; a fide book for a malka run; a malka book from fide games.
    let malka = ok(&["apply", "--variant", "malka", "1b11c3"]);
    let e = fails(&["book", "probe", f, "--lfen", malka.trim()]);
    assert!(e.contains("fide.book") && e.contains("LFEN"), "{e}");
    let e = fails(&["book", "probe", f, "--moves", "e2e5"]);
    assert!(e.contains("fide.book") && e.contains("e2e5"), "{e}");
    let e = fails(&[
        "selfplay",
        "--variant",
        "malka",
        "--games",
        "2",
        "--nodes",
        "200",
        "--openings",
        &format!("book:{f}:4"),
        "--out",
        dir.join("o2").to_str().unwrap(),
    ]);
    assert!(e.contains("fide.book") && e.contains("'fide'"), "{e}");
    let out = bin()
        .args([
            "book",
            "build",
            "--variant",
            "malka",
            "--out",
            dir.join("m.book").to_str().unwrap(),
            sp.to_str().unwrap(),
        ])
        .output()
        .unwrap();
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stdout).contains("skipped: 2 of other variants"));
    assert!(String::from_utf8_lossy(&out.stderr).contains("no malka games"));
    // A record file with a bad move names the file, the game and the ply.
    let csv = std::fs::read_to_string(sp.join("games.csv")).unwrap();
    let bad = dir.join("bad.csv");
    std::fs::write(&bad, csv.replacen("KQkq - 0 1,", "KQkq - 0 1,a1a1 ", 1)).unwrap();
    let e = fails(&[
        "book",
        "build",
        "--variant",
        "fide",
        "--out",
        dir.join("x.book").to_str().unwrap(),
        bad.to_str().unwrap(),
    ]);
    assert!(e.contains("bad.csv") && e.contains("ply 1") && e.contains("a1a1"), "{e}");
    assert!(!dir.join("x.book").exists());
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A paired self-play run (balance's openings: two random plies, each twice, colours swapped):
/// the swapped games have their openings' plies mirrored, so the book uses every game.
#[test]
fn a_paired_run_gives_the_book_every_game() {
    let dir = tmp("paired");
    let run = dir.join("run");
    let o = run.to_str().unwrap();
    ok(&[
        "selfplay",
        "-v",
        "fide",
        "--games",
        "8",
        "--nodes",
        "150",
        "--max-plies",
        "30",
        "-q",
        "--paired",
        "--openings",
        "random:2",
        "--out",
        o,
    ]);
    let book = dir.join("p.book");
    let out = ok(&["book", "build", "-v", "fide", "--out", book.to_str().unwrap(), "--plies", "4", o]);
    assert!(out.contains("Games used: 8, 8 of them from the start position"), "{out}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn games_from_random_openings_count_from_the_start_position() {
    let dir = tmp("random-plies");
    let run = dir.join("run");
    selfplay(&run, "6", "200", "random:3");
    let book = dir.join("r.book");
    let b = book.to_str().unwrap();
    let out = ok(&["book", "build", "-v", "fide", "--out", b, "--plies", "5", run.to_str().unwrap()]);
    assert!(out.contains("Games used: 6, 6 of them from the start position"), "{out}");
    // The start position's moves are the openings' first random plies, one per game.
    let first = probed(&ok(&["book", "probe", b]));
    assert_eq!(first.iter().map(|(_, n)| n).sum::<u64>(), 6, "{first:?}");
    // Each recorded start position is reached by 3 book moves from the start.
    let book = Book::<Fide>::read(stackchess_variants::traditional::fide_rules(), &book).unwrap();
    for g in records(&run) {
        assert!(
            reaches(&book, &stackchess_variants::traditional::fide_startpos(), &g.start_lfen, 3),
            "{} not reached",
            g.start_lfen
        );
    }
    // Without the random plies, the games start elsewhere.
    let out = fails(&["book", "build", "-v", "fide", "--out", b, "--no-random-plies", run.to_str().unwrap()]);
    assert!(out.contains("pass --any-start"), "{out}");

    // The same run as an old build wrote it (version 1: no opening_moves column): the plies are
    // found again from the run's seed, and the book is the same.
    let old = dir.join("old");
    std::fs::create_dir_all(&old).unwrap();
    std::fs::copy(run.join("manifest.json"), old.join("manifest.json")).unwrap();
    let mut v1 =
        stackchess_selfplay::GamesFile::create_version(&old.join("games.csv"), stackchess_selfplay::Version::V1)
            .unwrap();
    for g in records(&run) {
        v1.append(&g).unwrap();
    }
    drop(v1);
    assert!(!std::fs::read_to_string(old.join("games.csv")).unwrap().contains("opening_moves"));
    let old_book = dir.join("old.book");
    let out = ok(&[
        "book",
        "build",
        "-v",
        "fide",
        "--out",
        old_book.to_str().unwrap(),
        "--plies",
        "5",
        old.to_str().unwrap(),
    ]);
    assert!(out.contains("Games used: 6, 6 of them from the start position"), "{out}");
    assert_eq!(std::fs::read(&old_book).unwrap(), std::fs::read(dir.join("r.book")).unwrap());
}

/// Whether `target` is reached from `pos` by at most `depth` book moves.
fn reaches(book: &Book<Fide>, pos: &Fide, target: &str, depth: u32) -> bool {
    if pos.to_lfen() == target {
        return true;
    }
    depth > 0
        && book.probe(pos).iter().any(|bm| {
            let mut p = *pos;
            p.play(bm.mv).unwrap();
            reaches(book, &p, target, depth - 1)
        })
}

#[test]
fn books_of_user_defined_rule_sets() {
    let dir = tmp("rules");
    let rules = dir.join("slider.toml");
    let queen = "{ planar-orthogonal = \"slide\", vertical = \"slide\", orthogonal-slant = \"slide\", planar-diagonal = \"slide\", triagonal = \"slide\" }";
    std::fs::write(&rules, format!("name = \"slider\"\nbase = \"malka\"\n[pieces]\nqueen = {queen}\n")).unwrap();
    let (r, run, book) = (rules.to_str().unwrap(), dir.join("run"), dir.join("s.book"));
    let v = format!("rules:{r}");
    ok(&[
        "selfplay",
        "-v",
        &v,
        "--games",
        "3",
        "--nodes",
        "100",
        "--max-plies",
        "20",
        "-q",
        "--out",
        run.to_str().unwrap(),
    ]);
    let out = ok(&["book", "build", "-v", &v, "--out", book.to_str().unwrap(), run.to_str().unwrap()]);
    assert!(out.contains("Games used: 3, 3 of them") && out.contains("(slider)"), "{out}");
    let e = fails(&["book", "probe", book.to_str().unwrap()]);
    assert!(e.contains("needs --rules FILE") && e.contains("unknown variant 'slider'"), "{e}");
    let moves = probed(&ok(&["book", "probe", book.to_str().unwrap(), "--rules", r]));
    assert_eq!(moves.iter().map(|(_, n)| n).sum::<u64>(), 3, "{moves:?}");
}

/// PolyGlot entries of a file: (key, move, weight).
#[cfg(feature = "polyglot")]
fn polyglot(bytes: &[u8]) -> Vec<(u64, u16, u16)> {
    assert_eq!(bytes.len() % 16, 0, "16-byte entries");
    bytes
        .chunks_exact(16)
        .map(|c| {
            let key = u64::from_be_bytes(c[..8].try_into().unwrap());
            (key, u16::from_be_bytes([c[8], c[9]]), u16::from_be_bytes([c[10], c[11]]))
        })
        .collect()
}

#[test]
#[cfg(feature = "polyglot")]
fn a_fide_book_exports_to_polyglot() {
    let dir = tmp("polyglot");
    let run = dir.join("run");
    selfplay(&run, "16", "200", "random:2");
    let book = dir.join("f.book");
    ok(&["book", "build", "-v", "fide", "--out", book.to_str().unwrap(), run.to_str().unwrap()]);
    let bin_file = dir.join("f.bin");
    bin().args(["book", "export", book.to_str().unwrap(), "--polyglot", bin_file.to_str().unwrap()]).assert().success();
    let entries = polyglot(&std::fs::read(&bin_file).unwrap());
    assert!(entries.windows(2).all(|w| (w[0].0, w[0].1) < (w[1].0, w[1].1)), "sorted by key and move");
    // The start position's key by the PolyGlot specification, and its moves: exactly the book's
    // moves of positive weight there, decoded from PolyGlot's from/to squares.
    let start: Vec<(u16, u16)> = entries.iter().filter(|e| e.0 == 0x463b_9618_1691_fc9c).map(|e| (e.1, e.2)).collect();
    let ours: Book<Fide> = Book::read(stackchess_variants::traditional::fide_rules(), &book).unwrap();
    let mut want: Vec<String> = ours
        .probe(&stackchess_variants::traditional::fide_startpos())
        .iter()
        .filter(|b| b.weight > 0)
        .map(|b| stackchess_core::coord::<Fide>(b.mv))
        .collect();
    want.sort();
    let square = |s: u16| format!("{}{}", char::from(b'a' + (s & 7) as u8), (s >> 3 & 7) + 1);
    let mut got: Vec<String> = start.iter().map(|(m, _)| format!("{}{}", square(m >> 6), square(*m))).collect();
    got.sort();
    assert!(!got.is_empty());
    assert_eq!(got, want);
    assert!(start.iter().all(|(_, w)| *w > 0));
    // Only fide books: a malka book is refused.
    let mrun = dir.join("mrun");
    let m = ["selfplay", "-v", "malka", "--games", "2", "--nodes", "100", "--max-plies", "20", "-q", "--out"];
    ok(&[&m[..], &[mrun.to_str().unwrap()]].concat());
    let mbook = dir.join("m.book");
    ok(&["book", "build", "-v", "malka", "--out", mbook.to_str().unwrap(), mrun.to_str().unwrap()]);
    let e = fails(&["book", "export", mbook.to_str().unwrap(), "--polyglot", dir.join("m.bin").to_str().unwrap()]);
    assert!(e.contains("standard chess (fide) only"), "{e}");
}

#[test]
#[cfg(not(feature = "polyglot"))]
fn without_the_feature_the_export_says_how_to_get_it() {
    let dir = tmp("no-polyglot");
    let e = fails(&["book", "export", "x.book", "--polyglot", dir.join("x.bin").to_str().unwrap()]);
    assert!(e.contains("--features polyglot") && e.contains("GPL-3.0"), "{e}");
}

#[test]
fn an_opening_suite_is_distinct_scored_deterministic_and_playable() {
    let dir = tmp("suite");
    for (variant, ext) in [("malka", "lfen"), ("fide", "epd")] {
        let out = dir.join(format!("{variant}.{ext}"));
        let args =
            ["book", "suite", "-v", variant, "--count", "6", "--plies", "4", "--max-cp", "150", "--nodes", "300", "-q"];
        ok(&[&args[..], &["--out", out.to_str().unwrap()]].concat());
        let text = std::fs::read_to_string(&out).unwrap();
        let lines: Vec<&str> = text.lines().filter(|l| !l.starts_with('#')).collect();
        assert_eq!(lines.len(), 6, "{text}");
        let distinct: BTreeSet<&str> = lines.iter().map(|l| l.split(['#', ';']).next().unwrap()).collect();
        assert_eq!(distinct.len(), 6, "{text}");
        for l in &lines {
            let cp: i32 = l.rsplit("ce ").next().unwrap().trim_end_matches(';').trim().parse().unwrap();
            assert!(cp.abs() <= 150, "{l}");
        }
        // The same seed writes the same suite.
        let again = dir.join(format!("again.{ext}"));
        ok(&[&args[..], &["--out", again.to_str().unwrap()]].concat());
        assert_eq!(std::fs::read_to_string(&again).unwrap(), text);
        // A suite is an openings file.
        let run = dir.join(format!("{variant}-run"));
        let s = ["selfplay", "-v", variant, "--games", "4", "--nodes", "100", "--max-plies", "16", "-q"];
        ok(&[&s[..], &["--openings", out.to_str().unwrap(), "--out", run.to_str().unwrap()]].concat());
        let starts: Vec<String> = records(&run).iter().map(|r| r.start_lfen.clone()).collect();
        assert_eq!(starts.len(), 4);
    }
    // A suite that cannot be had is refused, not looped on forever: zero plies reach one position.
    let x = dir.join("x");
    let e = fails(&["book", "suite", "-v", "fide", "--count", "3", "--plies", "0", "-q", "--out", x.to_str().unwrap()]);
    assert!(e.contains("distinct positions within"), "{e}");
}
