//! User-defined rule sets: a file that restates a built-in rule set reproduces its golden perft
//! counts; a real change changes the moves; bad files are refused naming the line.

use stackchess_core::Rules as _;
use stackchess_core::{coord, parse_perft_file, Position};
use stackchess_variants::custom::parse_spec;
use stackchess_variants::{Variant, VariantArg, WithPosition};
use std::path::PathBuf;

fn rules_file(name: &str, text: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("stackchess-rules-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(format!("{name}.rules"));
    std::fs::write(&path, text).unwrap();
    path
}

fn load(name: &str, text: &str) -> Variant {
    format!("rules:{}", rules_file(name, text).display()).parse::<VariantArg>().unwrap().load().unwrap()
}

/// Checks a variant against the golden file of `golden` up to `limit` nodes; returns the count
/// of checks.
struct Golden {
    golden: &'static str,
    limit: u64,
}

impl WithPosition for Golden {
    type Output = usize;
    fn call<P: Position>(self, rules: P::Rules) -> usize {
        let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join(format!("../../data/perft/{}.perft", self.golden));
        let mut checked = 0;
        for e in parse_perft_file(&std::fs::read_to_string(&path).unwrap()).unwrap() {
            let pos = rules.from_lfen(&e.lfen).unwrap();
            for (d, n) in e.counts.into_iter().filter(|&(_, n)| n <= self.limit) {
                assert_eq!(pos.perft(d), n, "{}: perft({d}) of {} (line {})", rules.name(), e.lfen, e.line);
                checked += 1;
            }
        }
        checked
    }
}

#[test]
fn restating_a_built_in_rule_set_gives_its_golden_counts() {
    let malka = load("malka-copy", "name = malka-copy\nbase = malka\n");
    assert_eq!(malka.name(), "malka-copy");
    assert!(malka.with(Golden { golden: "malka", limit: 300_000 }) >= 20);
    // Traditional, reached from Malka by changing the three rules that differ.
    let text = "# Traditional, spelt out\nname = trad-from-malka\nbase = malka\nqueen = slide\n\
                pawn_double_step = true\npromotion = free\ncastling = true\nrook = slide\nbishop = slide\n";
    let traditional = load("trad-from-malka", text);
    assert!(traditional.with(Golden { golden: "traditional", limit: 300_000 }) >= 20);
    // Loaded rule sets are found by name too; they have no evaluation preset of their own.
    assert_eq!("trad-from-malka".parse::<Variant>(), Ok(traditional));
    assert_eq!(
        (traditional.base(), malka.base(), Variant::Fide.base()),
        (Variant::Malka, Variant::Malka, Variant::Fide)
    );
    assert!(traditional.eval_params().is_none() && traditional.bench().is_none());
    assert!(Variant::ALL.iter().all(|v| v.eval_params().is_some() && v.bench().is_some()));
    // Loading the same file again gives the same variant.
    assert_eq!(load("malka-copy", "name = malka-copy\nbase = malka\n"), malka);
}

struct FirstMoves;
impl WithPosition for FirstMoves {
    type Output = Vec<String>;
    fn call<P: Position>(self, rules: P::Rules) -> Vec<String> {
        rules.startpos().moves().iter().map(|&m| coord::<P>(m)).collect()
    }
}

#[test]
fn a_changed_rule_changes_the_moves() {
    let tweak = load("malka-double", "name = malka-double\nbase = malka\npawn_double_step = yes\nqueen = step\n");
    let (base, changed) = (Variant::Malka.with(FirstMoves), tweak.with(FirstMoves));
    // Every Malka move is still there, plus each pawn's three double steps (along the rank, the
    // levels, and both: 1a2-1a4, 1a2-3a2, 1a2-3a4).
    assert!(base.iter().all(|m| changed.contains(m)));
    let extra: Vec<&String> = changed.iter().filter(|m| !base.contains(m)).collect();
    assert_eq!(extra.len(), 24, "{extra:?}");
    assert!(extra.iter().all(|m| m.starts_with('1') && &m[2..3] == "2"), "{extra:?}");
    // A one-step rook: one cell along its 14 directions (in the plane, vertical, slants).
    let spec = parse_spec("name = short-rooks\nbase = traditional\nrook = step\n").unwrap();
    assert!(spec.rules.pieces[2].slides.is_empty() && spec.rules.pieces[2].leaps.len() == 14);
}

#[test]
fn bad_rule_files_are_refused_naming_the_line() {
    let cases = [
        ("base = malka\n", "needs a name"),
        ("name = x\n", "needs a base"),
        ("name = x\nbase = shogi\n", "line 2: base 'shogi'"),
        ("name = malka\nbase = malka\n", "line 1: name 'malka' is a built-in"),
        ("name = a b\nbase = malka\n", "line 1: name 'a b'"),
        ("name = x\nbase = malka\n\nqueen = fly\n", "line 4: queen = 'fly': expected slide or step"),
        ("name = x\nbase = malka\ncastling = maybe\n", "line 3: castling = 'maybe': expected true or false"),
        ("name = x\nbase = malka\nwings = 2\n", "line 3: unknown key 'wings'"),
        ("name = x\nbase = malka\nbase = traditional\n", "line 3: 'base' is given twice"),
        ("name = x\nbase malka\n", "line 2: expected key = value"),
    ];
    for (text, want) in cases {
        let e = parse_spec(text).unwrap_err();
        assert!(e.contains(want), "{text:?}: {e}");
    }
    let e = format!("rules:{}", rules_file("bad", "name = x\nbase = y\n").display())
        .parse::<VariantArg>()
        .unwrap()
        .load()
        .unwrap_err();
    assert!(e.to_string().contains("bad.rules: line 2: base 'y'"), "{e}");
    let e = "rules:/no/such.rules".parse::<VariantArg>().unwrap().load().unwrap_err().to_string();
    assert!(e.contains("rule set /no/such.rules:"), "{e}");
    assert!("nothing".parse::<Variant>().unwrap_err().to_string().contains("rules:FILE"));
    // A different rule set under a loaded name is refused.
    load("same-name", "name = same-name\nbase = malka\n");
    let e = format!("rules:{}", rules_file("same-name2", "name = same-name\nbase = traditional\n").display())
        .parse::<VariantArg>()
        .unwrap()
        .load()
        .unwrap_err();
    assert!(e.to_string().contains("another rule set named 'same-name'"), "{e}");
}
