//! Rule files through the facade: a file restating a built-in rule set reproduces its golden perft
//! counts; a real change changes exactly the moves it should; any number of rule sets live in one
//! process; bad files are refused naming the key and the line.

use stackchess_core::{coord, parse_perft_file, Castling, Position, Rules};
use stackchess_variants::{Variant, VariantArg, WithPosition};
use std::path::PathBuf;

fn rules_file(name: &str, text: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("stackchess-rules-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(format!("{name}.toml"));
    std::fs::write(&path, text).unwrap();
    path
}

fn load(name: &str, text: &str) -> Variant {
    let arg: VariantArg = format!("rules:{}", rules_file(name, text).display()).parse().unwrap();
    arg.load().unwrap_or_else(|e| panic!("{name}: {e}"))
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

const ALL_STEPS: &str = "{ planar-orthogonal = \"step\", vertical = \"step\", orthogonal-slant = \"step\", planar-diagonal = \"step\", triagonal = \"step\" }";
const ALL_SLIDES: &str = "{ planar-orthogonal = \"slide\", vertical = \"slide\", orthogonal-slant = \"slide\", planar-diagonal = \"slide\", triagonal = \"slide\" }";

#[test]
fn restating_a_built_in_rule_set_gives_its_golden_counts() {
    let malka = load("malka-copy", "name = \"malka-copy\"\nbase = \"malka\"\n");
    assert_eq!(malka.name(), "malka-copy");
    assert_eq!(malka.rules_id(), Variant::Malka.rules_id(), "the same rules, the same id");
    assert!(malka.with(Golden { golden: "malka", limit: 300_000 }) >= 20);
    // Traditional, reached from Malka by changing the rules that differ.
    let text = format!(
        "# Traditional, spelt out\nname = \"trad-from-malka\"\nbase = \"malka\"\n[pieces]\nqueen = {ALL_SLIDES}\n\
         [pawn]\ndouble-step = true\nen-passant = true\npromotion = \"any\"\n"
    );
    let traditional = load("trad-from-malka", &text);
    assert_eq!(traditional.rules_id(), Variant::Traditional.rules_id());
    assert!(traditional.with(Golden { golden: "traditional", limit: 300_000 }) >= 20);
    // Loaded rule sets are found by name; they have no evaluation preset of their own, and their
    // base is the one they name.
    assert_eq!("trad-from-malka".parse::<Variant>(), Ok(traditional));
    assert_eq!((traditional.base(), Variant::Fide.base()), (Variant::Malka, Variant::Fide));
    assert!(traditional.eval_params().is_none() && traditional.bench().is_none());
    assert!(Variant::ALL.iter().all(|v| v.eval_params().is_some() && v.bench().is_some()));
    // Loading the same file again gives the same variant; a built-in's own file gives the built-in.
    assert_eq!(load("malka-copy", "name = \"malka-copy\"\nbase = \"malka\"\n"), malka);
    assert_eq!(Variant::from_text(stackchess_variants::malka::RULES), Ok(Variant::Malka));
    // Air Attack and fide through the generic path too.
    let air = load("air-copy", "name = \"air-copy\"\nbase = \"air-attack\"\n");
    assert!(air.with(Golden { golden: "air-attack", limit: 100_000 }) >= 10);
    let fide = load("fide-copy", "name = \"fide-copy\"\nbase = \"fide\"\n");
    assert!(fide.with(Golden { golden: "fide", limit: 100_000 }) >= 6);
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
    let tweak = load("malka-double", "name = \"malka-double\"\nbase = \"malka\"\n[pawn]\ndouble-step = true\n");
    let (base, changed) = (Variant::Malka.with(FirstMoves), tweak.with(FirstMoves));
    // Every Malka move is still there, plus each pawn's three double steps (along the rank, the
    // levels, and both: 1a2-1a4, 1a2-3a2, 1a2-3a4).
    assert!(base.iter().all(|m| changed.contains(m)));
    let extra: Vec<&String> = changed.iter().filter(|m| !base.contains(m)).collect();
    assert_eq!(extra.len(), 24, "{extra:?}");
    assert!(extra.iter().all(|m| m.starts_with('1') && &m[2..3] == "2"), "{extra:?}");
}

/// The start position's castling rights and its perft to depth 2.
struct Start;
impl WithPosition for Start {
    type Output = (Castling, u64);
    fn call<P: Position>(self, rules: P::Rules) -> (Castling, u64) {
        let p = rules.startpos();
        (p.castling(), p.perft(2))
    }
}

#[test]
fn ten_rule_sets_in_one_process() {
    let mut seen = Vec::new();
    for i in 0..10 {
        let text = format!("name = \"many-{i}\"\nbase = \"traditional\"\n[draws]\nfifty-moves = {}\n", 40 + i);
        let v = load(&format!("many-{i}"), &text);
        assert!(!seen.contains(&v.rules_id()), "ids differ with the rules");
        seen.push(v.rules_id());
        // Draw rules do not change the moves.
        assert_eq!(v.with(Start), Variant::Traditional.with(Start));
    }
    let no_castling = load("no-castling", "name = \"no-castling\"\nbase = \"traditional\"\ncastling = false\n");
    let (rights, nodes) = no_castling.with(Start);
    assert_eq!(rights, Castling::NONE);
    // Castling needs empty cells between king and rook, so two plies in the counts agree.
    assert_eq!(nodes, Variant::Traditional.with(Start).1);
    let steps = format!("name = \"all-step\"\nbase = \"traditional\"\n[pieces]\nqueen = {ALL_STEPS}\nrook = {ALL_STEPS}\nbishop = {ALL_STEPS}\n");
    let (rights, nodes) = load("all-step", &steps).with(Start);
    assert_eq!(rights, Castling::ALL);
    assert!(nodes > 0 && nodes < Variant::Traditional.with(Start).1, "{nodes}");
}

#[test]
fn bad_rule_files_are_refused_naming_the_key_and_line() {
    let bad = |name: &str, text: &str| -> String {
        let arg: VariantArg = format!("rules:{}", rules_file(name, text).display()).parse().unwrap();
        arg.load().unwrap_err().to_string()
    };
    let e = bad("wings", "name = \"x\"\nbase = \"malka\"\nwings = 2\n");
    assert!(e.contains("wings.toml: line 3: wings: unknown field"), "{e}");
    let e = bad("builtin-name", "name = \"malka\"\nbase = \"traditional\"\n");
    assert!(e.contains("name: 'malka' is a built-in variant's name"), "{e}");
    let e = "rules:/no/such.toml".parse::<VariantArg>().unwrap().load().unwrap_err().to_string();
    assert!(e.contains("rule file /no/such.toml:"), "{e}");
    assert!("nothing".parse::<Variant>().unwrap_err().to_string().contains("rules:FILE"));
    // A different rule set under a loaded name is refused.
    load("same-name", "name = \"same-name\"\nbase = \"malka\"\n");
    let e = bad("same-name2", "name = \"same-name\"\nbase = \"traditional\"\n");
    assert!(e.contains("another rule set named 'same-name'"), "{e}");
    // A start position with Black in check before White moves is not a position.
    let text = "name = \"x-check\"\nbase = \"fide\"\ncastling = false\n[board]\nblack = [\"4k3/8/8/8/8/8/8/8\"]\nwhite = [\"8/8/8/8/8/8/4R3/4K3\"]\n";
    let e = bad("x-check", text);
    assert!(e.contains("board: the start position"), "{e}");
}

/// The built-in rule files live in their crates (compiled in); data/rules/ shows them to users as
/// symbolic links. Where a checkout turns the links into copies (or someone replaces one), the
/// copy must still be the compiled text.
#[test]
fn data_rules_holds_the_built_in_rule_files_byte_for_byte() {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../data/rules");
    for v in Variant::ALL {
        let name = v.name();
        let built_in = Variant::builtin_rules(name).unwrap_or_else(|| panic!("{name} has no rule file"));
        let path = dir.join(format!("{name}.toml"));
        let copy = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        assert!(copy == built_in, "{} differs from the rule file built into {name}", path.display());
    }
}
