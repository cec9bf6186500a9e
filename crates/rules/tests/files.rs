//! The built-in rule files and the examples read, write back to the same rules, and keep their
//! ids; bad files are refused naming the key and the line.

use stackchess_rules::{Group, Range, RuleSet};
use std::path::PathBuf;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn builtin(name: &str) -> Option<String> {
    let path = match name {
        "malka" => "crates/malka/malka.toml",
        "traditional" => "crates/traditional/traditional.toml",
        "fide" => "crates/traditional/fide.toml",
        "air-attack" => "crates/air-attack/air-attack.toml",
        _ => return None,
    };
    std::fs::read_to_string(root().join(path)).ok()
}

fn parse(text: &str) -> Result<RuleSet, String> {
    RuleSet::parse(text, &builtin).map_err(|e| e.to_string())
}

/// A description with escapes of control characters (TOML's `\e`, `\u0007`, a tab; found by the
/// `rule_file` fuzz target: they were written back raw, which TOML refuses) writes back as text
/// that reads as the same rules, with the same description and id.
#[test]
fn a_description_with_control_characters_writes_back_readable() {
    let text = "base = \"fide\"\nname = \"ctl\"\ndescription = \"a\\eb\\u0007c\\td\\\"e\\\\f\"\n";
    let r = parse(text).unwrap();
    assert_eq!(r.description, "a\u{1b}b\u{7}c\td\"e\\f");
    let again = parse(&r.to_toml()).unwrap_or_else(|e| panic!("{e}\n{}", r.to_toml()));
    assert_eq!((again.description.as_str(), again.id()), (r.description.as_str(), r.id()));
}

#[test]
fn every_rule_file_round_trips() {
    let mut ids = std::collections::HashMap::new();
    for entry in std::fs::read_dir(root().join("data/rules")).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_none_or(|e| e != "toml") {
            continue;
        }
        let text = std::fs::read_to_string(&path).unwrap();
        let r = parse(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let again = parse(&r.to_toml()).unwrap();
        assert_eq!(again, r, "{}: written and read back", path.display());
        assert_eq!(again.id(), r.id());
        assert_eq!(r.id().len(), 16);
        if let Some(other) = ids.insert(r.id(), r.name.clone()) {
            panic!("{} and {other} have the same id", r.name);
        }
    }
    assert!(ids.len() >= 12, "{} rule files", ids.len());
}

#[test]
fn the_id_ignores_names_and_follows_the_rules() {
    let malka = parse(&builtin("malka").unwrap()).unwrap();
    let copy = parse("name = \"copy\"\ndescription = \"the same\"\nbase = \"malka\"\n").unwrap();
    assert_eq!(copy.id(), malka.id());
    assert_ne!(copy.name, malka.name);
    let changed = parse("name = \"c\"\nbase = \"malka\"\n[draws]\nrepetition = 4\n").unwrap();
    assert_ne!(changed.id(), malka.id());
    // Malka's queen steps along all 26 directions; the slider file changes only that.
    let slider = parse(&std::fs::read_to_string(root().join("data/rules/malka-slider.toml")).unwrap()).unwrap();
    assert_eq!(malka.pieces.queen.range(Group::Triagonal), Some(Range::STEP));
    assert_eq!(slider.pieces.queen.range(Group::Triagonal), Some(Range::SLIDE));
    assert_eq!((slider.pawn.clone(), slider.board.clone()), (malka.pawn.clone(), malka.board.clone()));
}

#[test]
fn mirror_and_homes() {
    let four = parse(&std::fs::read_to_string(root().join("data/rules/four-level.toml")).unwrap()).unwrap();
    assert_eq!((four.board.levels, four.board.white_home, four.board.black_home), (4, 0, 3));
    assert_eq!(four.board.black[3], "rnbqkbnr/pppppppp/8/8/8/8/8/8");
    assert_eq!(four.start_placement().split('|').count(), 4);
    let trad = parse(&builtin("traditional").unwrap()).unwrap();
    assert_eq!(trad.start_placement(), "8/8/8/8/8/8/PPPPPPPP/RNBQKBNR|8/8/8/8/8/8/8/8|rnbqkbnr/pppppppp/8/8/8/8/8/8");
}

#[test]
fn bad_files_name_the_key_and_line() {
    let cases: &[(&str, &str)] = &[
        ("name = \"x\"\nbase = \"malka\"\nwings = 2\n", "line 3: wings: unknown field"),
        ("name = \"x\"\nbase = \"chess960\"\n", "line 2: base: 'chess960' is not a built-in"),
        ("base = \"malka\"\n", "name: missing"),
        ("name = \"a b\"\nbase = \"malka\"\n", "line 1: name: 'a b'"),
        ("name = \"x\"\nbase = \"malka\"\n[pieces]\nqueen = {}\n", "line 4: pieces.queen: no direction group"),
        ("name = \"x\"\nbase = \"malka\"\n[pieces]\nqueen = { diagonal = \"slide\" }\n", "pieces.queen: unknown direction group 'diagonal'"),
        ("name = \"x\"\nbase = \"malka\"\n[pieces]\nrook = { vertical = 0 }\n", "pieces.rook: vertical: a range"),
        ("name = \"x\"\nbase = \"malka\"\n[pieces]\nrook = { vertical = \"far\" }\n", "line 4"),
        ("name = \"x\"\nbase = \"malka\"\n[board]\nlevels = 5\n", "line 4: board.levels: 5"),
        ("name = \"x\"\nbase = \"malka\"\n[board]\nblack-home = 4\n", "line 4: board.black-home: level 4 does not exist"),
        (
            "name = \"x\"\nbase = \"malka\"\n[board]\nlevels = 2\nwhite = [\"8/8/8/8/8/8/PPPPPPPP/RNBQKBNR\", \"8/8/8/8/8/8/8/8\", \"8/8/8/8/8/8/8/8\"]\n",
            "line 5: board.white: 3 placement(s) for a board of 2",
        ),
        (
            "name = \"x\"\nbase = \"fide\"\n[board]\nblack = [\"rnbqkbnr/pppppppp/8/8/8/8/8/8R\"]\n",
            "line 4: board.black",
        ),
        (
            "name = \"x\"\nbase = \"fide\"\n[board]\nblack = [\"rnbqkbnr/pppppppp/8/8/8/8/8/7q\"]\n",
            "board.black: the armies overlap on h1",
        ),
        ("name = \"x\"\nbase = \"fide\"\n[board]\nwhite = [\"8/8/8/8/8/8/PPPPPPPP/RNBQ1BNR\"]\n", "board.white: white has 0 kings"),
        ("name = \"x\"\nbase = \"fide\"\n[board]\nwhite = [\"8/8/8/8/8/8/PPPPPPPP/RNBQKBNP\"]\n", "a white pawn on h1"),
        ("name = \"x\"\nbase = \"fide\"\n[pawn]\nsteps = []\n", "line 4: pawn.steps: a pawn needs a step vector"),
        ("name = \"x\"\nbase = \"fide\"\n[pawn]\nsteps = [[0, 0, 0]]\n", "line 4: pawn.steps: [0, 0, 0]"),
        ("name = \"x\"\nbase = \"fide\"\n[pawn]\ncaptures = [[1, 1, 0], [1, 1, 0]]\n", "given twice"),
        ("name = \"x\"\nbase = \"fide\"\n[pawn]\ndouble-step = false\n", "pawn.en-passant: en passant needs the double step"),
        (
            "name = \"x\"\nbase = \"fide\"\n[pawn]\nsteps = [[0, 1, 0], [1, 1, 0]]\ncaptures = [[-1, 1, 0]]\n",
            "pawn.en-passant: the double steps along [0, 1, 0] and [1, 1, 0] pass the same cell from two pawns",
        ),
        (
            "name = \"x\"\nbase = \"fide\"\n[pawn]\nsteps = [[0, 1, 0], [1, 1, 1]]\ncaptures = [[1, 1, 1]]\n",
            "pawn.en-passant: [1, 1, 1] is both a step and a capture",
        ),
        ("name = \"x\"\nbase = \"fide\"\n[board]\nwhite = [\"8/8/8/8/8/8/PPPPPPPP/RNBKQBNR\"]\n", "castling: castling = true, but the white king starts on d1"),
        // Found by the random rule sets: e1g1 would be a castle and a king move at once.
        (
            "name = \"x\"\nbase = \"traditional\"\n[pieces]\nking = { planar-orthogonal = 5 }\n",
            "castling: castling = true, but the king moves up to 5 cells along its rank",
        ),
        ("name = \"x\"\nbase = \"fide\"\n[pieces]\nking = { planar-orthogonal = \"slide\" }\n", "castling: castling = true, but the king moves any number of cells"),
        ("name = \"x\"\nbase = \"fide\"\n[transfer]\nenabled = true\n", "line 4: transfer.enabled: transfers need two levels"),
        ("name = \"x\"\nbase = \"malka\"\n[transfer]\nenabled = true\n", "pieces.king: vertical leaves the level"),
        ("name = \"x\"\nbase = \"air-attack\"\n[transfer]\nrange = 8\n", "line 4: transfer.range: must be 0 to 7"),
        ("name = \"x\"\nbase = \"malka\"\n[draws]\nrepetition = 1\n", "line 4: draws.repetition"),
        ("name = \"x\"\nbase = \"malka\"\n[draws]\nstalemate = \"half\"\n", "line 4"),
        ("name = \"x\"\ncastling = true\n", "board.levels: missing"),
        ("name = \"x\"\nbase = \"malka\"\n[pieces\n", "line 3"),
        ("name = \"x\"\nname = \"y\"\n", "line 2"),
    ];
    for (text, want) in cases {
        let e = parse(text).expect_err(text);
        assert!(e.contains(want), "{text:?}\n  gave: {e}\n  want: {want}");
    }
}

/// Whether a pawn can come back to a cell it left decides how far back repetition looks.
#[test]
fn pawn_moves_are_reversible_only_where_a_pawn_can_return() {
    for name in ["malka", "traditional", "fide"] {
        assert!(!parse(&builtin(name).unwrap()).unwrap().pawn_moves_reversible(), "{name}");
    }
    // Air Attack's pawns transfer up and back down.
    assert!(parse(&builtin("air-attack").unwrap()).unwrap().pawn_moves_reversible());
    // Up a level and down again, without a rank.
    let up_down = "name = \"x\"\nbase = \"malka\"\n[pawn]\nsteps = [[0, 1, 0], [0, 0, 1], [0, 0, -1]]\n";
    assert!(parse(up_down).unwrap().pawn_moves_reversible());
    // Sideways one way only still never returns.
    let sideways = "name = \"x\"\nbase = \"malka\"\n[pawn]\nsteps = [[0, 1, 0], [1, 0, 0]]\n";
    assert!(!parse(sideways).unwrap().pawn_moves_reversible());
}
