//! The project's data files: the golden perft counts of the built-ins (`data/perft/*.perft`)
//! and the example rule files (`data/rules/*.toml`).

use super::*;

fn data_dir(sub: &str) -> std::path::PathBuf {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../data").join(sub)
}

/// One entry of a `.perft` file: id, LFEN, `(depth, count)` pairs.
type PerftEntry = (String, String, Vec<(u32, u64)>);

/// The entries of a `.perft` file: `id N`, `lfen ...`, `perft D N` lines.
fn read_perft_file(text: &str) -> Vec<PerftEntry> {
    let mut out: Vec<PerftEntry> = Vec::new();
    for line in text.lines() {
        if let Some(id) = line.strip_prefix("id ") {
            out.push((id.trim().to_string(), String::new(), Vec::new()));
        } else if let Some(lfen) = line.strip_prefix("lfen ") {
            out.last_mut().expect("lfen after id").1 = lfen.trim().to_string();
        } else if let Some(rest) = line.strip_prefix("perft ") {
            let mut it = rest.split_whitespace().map(|s| s.parse::<u64>().expect("perft numbers"));
            let (d, n) = (it.next().unwrap(), it.next().unwrap());
            out.last_mut().expect("perft after id").2.push((d as u32, n));
        }
    }
    out
}

/// The built-in rule files reproduce the golden counts: every entry of at most 100 000 nodes
/// (about 1.2 million nodes over the four files). The fide file holds the published counts of
/// the standard perft suite; the others were written by the fast generator and checked by the
/// previous reference generator, so both generators and the rule files agree on them.
#[test]
fn builtins_reproduce_golden_perft() {
    let mut checked = 0;
    for variant in ["fide", "traditional", "malka", "air-attack"] {
        let path = data_dir("perft").join(format!("{variant}.perft"));
        let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let r = Reference::builtin(variant).unwrap();
        let entries = read_perft_file(&text);
        assert!(!entries.is_empty(), "{variant}: no entries");
        for (id, lfen, counts) in entries {
            for (depth, want) in counts.into_iter().filter(|&(_, n)| n <= 100_000) {
                assert_eq!(r.perft(&lfen, depth).unwrap(), want, "{variant} id {id} depth {depth}");
                checked += 1;
            }
        }
    }
    // 122 entries are at most 100 000 nodes (counted from the files when this test was written);
    // fewer would mean the files were not read as meant.
    assert!(checked >= 120, "only {checked} entries checked");
}

fn builtin_base(name: &str) -> Option<String> {
    rule_file::builtin_text(name).map(str::to_string)
}

/// Every example rule file loads (bases from the built-ins) and its start position has legal
/// moves; the start counts are worked out by hand below.
#[test]
fn example_rule_files_load() {
    let dir = data_dir("rules");
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "toml"))
        .collect();
    files.sort();
    assert!(files.len() >= 13, "{files:?}");
    let mut counts = Vec::new();
    for path in &files {
        let text = std::fs::read_to_string(path).unwrap();
        let r = Reference::from_toml(&text, &builtin_base).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let n = r.legal_moves(&r.start_lfen()).unwrap().len();
        assert!(n > 0, "{}", path.display());
        counts.push((path.file_stem().unwrap().to_string_lossy().to_string(), r.name().to_string(), n));
    }
    let count = |stem: &str| counts.iter().find(|c| c.0 == stem).map(|c| c.2);
    // The copies of the built-ins: RULES.md §3.
    assert_eq!(count("malka"), Some(70));
    assert_eq!(count("traditional"), Some(100));
    assert_eq!(count("fide"), Some(20));
    assert_eq!(count("air-attack"), Some(99));
    // Malka's 70 with a sliding queen: from 1d1 the queen slides up (2d1 3d1), up-forward (2d2
    // 3d3), up-sideways (2c1 3b1, 2e1 3f1) and triagonally (2c2 3b3, 2e2 3f3): 12 instead of 6.
    assert_eq!(count("malka-slider"), Some(76));
    // Malka on two levels: pawns 3 each (1x3, 2x2, 2x3) = 24; knights 4 each (1a3 1c3 2d1 2b3;
    // the level-3 leaps are gone) = 8; bishops 2 each (2b2 2d2) = 4; rooks 3 each (2a1 2b1 2a2)
    // = 6; queen and king 6 each (the six cells above): 24 + 8 + 4 + 6 + 12 = 54.
    assert_eq!(count("two-level"), Some(54));
    // Malka on four levels: as on three (70) but the bishops reach one level more (1c1: 2b2 3a3,
    // 2d2 3e3 4f4; 1f1: 2g2 3h3, 2e2 3d3 4c4: 10 instead of 8) and the rooks too (1a1: 2a1 3a1
    // 4a1, 2b1 3c1 4d1, 2a2 3a3 4a4: 18 instead of 12): 70 + 2 + 6 = 78.
    assert_eq!(count("four-level"), Some(78));
    // Stalemate as a loss changes no move: Malka's 70.
    assert_eq!(count("stalemate-wins"), Some(70));
    // Without the double step Traditional loses the 24 double steps (1x4, 3x2, 3x4): 76.
    assert_eq!(count("traditional-single-step"), Some(76));
    // Full range after a transfer, from the empty level 2 (every T cell empty): the rooks go on
    // 7 cells up and along rank 1 instead of 4 (2a1: 2a6..2a8 and 2f1..2h1 added, 6 each: 12);
    // the queen up the d-file (2d6..2d8: 3; its other lines are at most 4 long); the c1 bishop
    // to 2h6 and the f1 bishop to 2a6 (the 5th cell of their long diagonals: 2): 17 more. But
    // the king's transfers to 2d1 and 2d2 become illegal: Black's queen now reaches them by
    // transfer (1d8 → T 2d8, then 7 and 6 cells down the d-file; 4 at most with range 4).
    // 99 + 17 - 2 = 114.
    assert_eq!(count("air-attack-full-range"), Some(114));
    // The two strict knobs change nothing at the start: no enemy stands on any T cell and every
    // knight's T cell (2b1, 2g1) is empty.
    assert_eq!(count("air-attack-strict-transfers"), Some(99));
    // Raumschach's rook and bishop on Traditional's start: rooks 1a1 2a1 3a1 (2 each, the
    // slants are gone: 4 instead of 12), bishops 1c1 along the plane diagonals of vertical
    // planes (±1,0,±1) and (0,±1,±1): 2b1 3a1, 2d1 3e1, 2c2 3c3 (6 each: 12 instead of 8):
    // 100 - 8 + 4 = 96.
    assert_eq!(count("raumschach-reading"), Some(96));
    // Short sliders: the rooks and bishops never went further than 2 levels up at the start;
    // the queen neither: Traditional's 100.
    assert_eq!(count("short-sliders"), Some(100));
}

/// Random games under every example rule file: every position `play` writes reads back and is
/// written the same, move lists have no duplicates, and perft 2 is the sum of the children's
/// perft 1.
#[test]
fn random_games_under_every_rule_file() {
    let mut seed: u64 = 0x9e37_79b9_7f4a_7c15;
    let mut next = move |n: usize| {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        (seed % n as u64) as usize
    };
    let mut files: Vec<_> = std::fs::read_dir(data_dir("rules"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "toml"))
        .collect();
    files.sort();
    for path in files {
        let r = Reference::from_toml(&std::fs::read_to_string(&path).unwrap(), &builtin_base).unwrap();
        for game in 0..2 {
            let mut lfen = r.start_lfen();
            for ply in 0..50 {
                let pos = lfen::parse(&r.rules, &lfen).unwrap_or_else(|e| panic!("{}: {e}: {lfen}", r.name()));
                assert_eq!(lfen::write(&pos), lfen);
                let moves = r.legal_moves(&lfen).unwrap();
                assert_eq!(movegen::legal_moves(&r.rules, &pos).len(), moves.len(), "{lfen}");
                if r.outcome(&lfen).unwrap().is_some() || moves.is_empty() {
                    break;
                }
                if (game + ply) % 25 == 0 {
                    let children: u64 = moves.iter().map(|m| r.perft(&r.play(&lfen, m).unwrap(), 1).unwrap()).sum();
                    assert_eq!(r.perft(&lfen, 2).unwrap(), children, "{}: {lfen}", r.name());
                }
                lfen = r.play(&lfen, &moves[next(moves.len())]).unwrap();
            }
        }
    }
}
