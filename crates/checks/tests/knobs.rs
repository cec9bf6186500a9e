//! One scenario per rule-file knob, written once and run on both generators: a small hand-made
//! position where changing the knob changes the legal moves by exactly the moves it should. The
//! moves are counted by hand in the comments; the reference (crates/reference) and the fast
//! generator (crates/variants over crates/rules) must both give them.

use stackchess_core::{parse_coord, Position, Rules};
use stackchess_reference::Reference;
use stackchess_variants::{Variant, WithPosition};
use std::sync::atomic::{AtomicUsize, Ordering};

/// What a scenario asks of a move generator, in the reference's string interface (level-prefixed
/// coordinates, LFEN in and out).
trait Generator: Sized {
    fn builtin(name: &str) -> Self;
    /// A rule file `base = base`, then `body` (top-level keys first, then tables).
    fn file(base: &str, body: &str) -> Self;
    fn levels(&self) -> usize;
    fn start_lfen(&self) -> String;
    fn legal_moves(&self, lfen: &str) -> Result<Vec<String>, String>;
    fn play(&self, lfen: &str, mv: &str) -> Result<String, String>;
    fn in_check(&self, lfen: &str) -> Result<bool, String>;
    /// `(reason, winner)` of a finished game.
    fn outcome(&self, lfen: &str) -> Result<Option<(String, Option<String>)>, String>;
    fn same_rules(&self, other: &Self) -> bool;
}

impl Generator for Reference {
    fn builtin(name: &str) -> Self {
        Reference::builtin(name).unwrap()
    }
    fn file(base: &str, body: &str) -> Self {
        let text = format!("name = \"test\"\nbase = \"{base}\"\n{body}");
        let builtin = |n: &str| stackchess_reference::builtin_text(n).map(str::to_string);
        Reference::from_toml(&text, &builtin).unwrap_or_else(|e| panic!("{e}\n--- file:\n{text}"))
    }
    fn levels(&self) -> usize {
        Reference::levels(self)
    }
    fn start_lfen(&self) -> String {
        Reference::start_lfen(self)
    }
    fn legal_moves(&self, lfen: &str) -> Result<Vec<String>, String> {
        Reference::legal_moves(self, lfen)
    }
    fn play(&self, lfen: &str, mv: &str) -> Result<String, String> {
        Reference::play(self, lfen, mv)
    }
    fn in_check(&self, lfen: &str) -> Result<bool, String> {
        Reference::in_check(self, lfen)
    }
    fn outcome(&self, lfen: &str) -> Result<Option<(String, Option<String>)>, String> {
        Reference::outcome(self, lfen)
    }
    fn same_rules(&self, other: &Self) -> bool {
        Reference::same_rules(self, other)
    }
}

/// A rule set seen through the fast generator.
struct Fast(Variant);

impl Generator for Fast {
    fn builtin(name: &str) -> Fast {
        Fast(name.parse().unwrap())
    }
    /// Under a fresh name each time (the fast side registers rule sets by name).
    fn file(base: &str, body: &str) -> Fast {
        static N: AtomicUsize = AtomicUsize::new(0);
        let text = format!("name = \"knob-{}\"\nbase = \"{base}\"\n{body}", N.fetch_add(1, Ordering::Relaxed));
        Fast(Variant::from_text(&text).unwrap_or_else(|e| panic!("{e}\n--- file:\n{text}")))
    }
    fn levels(&self) -> usize {
        self.0.levels()
    }
    fn start_lfen(&self) -> String {
        self.0.with(Visit(Job::Start)).expect("the start position")
    }
    fn legal_moves(&self, lfen: &str) -> Result<Vec<String>, String> {
        let text = self.0.with(Visit(Job::Moves(lfen.to_owned())))?;
        Ok(if text.is_empty() { Vec::new() } else { text.split(' ').map(str::to_owned).collect() })
    }
    fn play(&self, lfen: &str, mv: &str) -> Result<String, String> {
        self.0.with(Visit(Job::Play(lfen.to_owned(), mv.to_owned())))
    }
    fn in_check(&self, lfen: &str) -> Result<bool, String> {
        self.0.with(Visit(Job::Check(lfen.to_owned()))).map(|s| s == "true")
    }
    fn outcome(&self, lfen: &str) -> Result<Option<(String, Option<String>)>, String> {
        let s = self.0.with(Visit(Job::Outcome(lfen.to_owned())))?;
        Ok(match s.split_once(' ') {
            None => None,
            Some((reason, "-")) => Some((reason.to_owned(), None)),
            Some((reason, w)) => Some((reason.to_owned(), Some(w.to_owned()))),
        })
    }
    fn same_rules(&self, other: &Self) -> bool {
        self.0.rules_id() == other.0.rules_id()
    }
}

enum Job {
    Start,
    Moves(String),
    Play(String, String),
    Check(String),
    Outcome(String),
}

/// Runs a job on the variant's position type.
struct Visit(Job);

impl WithPosition for Visit {
    type Output = Result<String, String>;
    fn call<P: Position>(self, rules: P::Rules) -> Result<String, String> {
        let read = |lfen: &str| rules.from_lfen(lfen).map_err(|e| e.to_string());
        Ok(match self.0 {
            Job::Start => rules.startpos().to_lfen(),
            Job::Moves(lfen) => {
                let mut v: Vec<String> = read(&lfen)?.moves().iter().map(|&m| full(m)).collect();
                v.sort();
                v.join(" ")
            }
            Job::Play(lfen, mv) => {
                let mut p = read(&lfen)?;
                let m = parse_coord(&p, &mv).map_err(|e| e.to_string())?;
                p.play(m).map_err(|e| e.to_string())?;
                p.to_lfen()
            }
            Job::Check(lfen) => read(&lfen)?.is_check().to_string(),
            Job::Outcome(lfen) => match read(&lfen)?.outcome() {
                None => String::new(),
                Some(o) => format!("{} {}", o.reason.name(), o.winner.map_or("-".to_owned(), |c| c.to_string())),
            },
        })
    }
}

/// Level-prefixed coordinates, as the reference writes them.
fn full(m: stackchess_core::Move) -> String {
    let mut s = format!("{}{}", m.from(), m.to());
    if let Some(r) = m.promotion() {
        s.push(r.lower());
    }
    s
}

fn moves<G: Generator>(r: &G, lfen: &str) -> Vec<String> {
    r.legal_moves(lfen).unwrap_or_else(|e| panic!("{e}: {lfen}"))
}

/// The legal moves from `cell` (level-prefixed), destinations only, sorted.
fn from<G: Generator>(r: &G, lfen: &str, cell: &str) -> Vec<String> {
    let mut t: Vec<String> =
        moves(r, lfen).into_iter().filter_map(|m| m.strip_prefix(cell).map(str::to_string)).collect();
    t.sort();
    t
}

fn sorted(cells: &[&str]) -> Vec<String> {
    let mut v: Vec<String> = cells.iter().map(std::string::ToString::to_string).collect();
    v.sort();
    v
}

/// Moves only `a` has, and moves only `b` has.
fn diff<G: Generator>(a: &G, b: &G, lfen: &str) -> (Vec<String>, Vec<String>) {
    let (ma, mb) = (moves(a, lfen), moves(b, lfen));
    let only_a = ma.iter().filter(|m| !mb.contains(m)).cloned().collect();
    let only_b = mb.iter().filter(|m| !ma.contains(m)).cloned().collect();
    (only_a, only_b)
}

/// Each scenario as a test on each generator: `reference::<name>` and `fast::<name>`.
macro_rules! on_both {
    ($($name:ident),* $(,)?) => {
        mod reference {
            $(#[test] fn $name() { super::$name::<stackchess_reference::Reference>() })*
        }
        mod fast {
            $(#[test] fn $name() { super::$name::<super::Fast>() })*
        }
    };
}

on_both!(
    piece_groups_and_ranges,
    knight_rider,
    pawn_vectors,
    double_step_and_en_passant,
    promotion_zone,
    promotion_policy,
    castling_on_and_off,
    levels_two_and_four,
    mirror,
    stalemate_value,
    fifty_moves,
    insufficient_material,
    transfer_on_and_off,
    transfer_range,
    capture_ends_move,
    knight_over_occupied,
    promotion_after_transfer,
);

// ---- [pieces] ----

fn piece_groups_and_ranges<G: Generator>() {
    // White rook d4, king a1; black pawn d6, king h8 (FIDE geometry, one level).
    let lfen = "7k/8/3p4/8/3R4/8/8/K7 w - - 0 1";
    let fide = G::builtin("fide");
    // "slide": up d5 and d6 (takes the pawn, stops), down d3-d1, left c4-a4, right e4-h4: 12.
    assert_eq!(from(&fide, lfen, "1d4").len(), 12);
    // "step" (= 1): one cell each way: d5 d3 c4 e4.
    let step = G::file("fide", "[pieces]\nrook = { planar-orthogonal = \"step\" }");
    assert_eq!(from(&step, lfen, "1d4"), sorted(&["1d5", "1d3", "1c4", "1e4"]));
    let one = G::file("fide", "[pieces]\nrook = { planar-orthogonal = 1 }");
    assert_eq!(from(&one, lfen, "1d4"), from(&step, lfen, "1d4"));
    // At most 2: d5 d6, d3 d2, c4 b4, e4 f4: 8.
    let two = G::file("fide", "[pieces]\nrook = { planar-orthogonal = 2 }");
    assert_eq!(from(&two, lfen, "1d4"), sorted(&["1d5", "1d6", "1d3", "1d2", "1c4", "1b4", "1e4", "1f4"]));
    // 9 is more than any line: the same as "slide".
    let nine = G::file("fide", "[pieces]\nrook = { planar-orthogonal = 9 }");
    assert_eq!(from(&nine, lfen, "1d4"), from(&fide, lfen, "1d4"));
    // A second group: the stepping rook also steps diagonally (c5 e5 c3 e3): 4 + 4.
    let ferz = G::file("fide", "[pieces]\nrook = { planar-orthogonal = \"step\", planar-diagonal = \"step\" }");
    assert_eq!(from(&ferz, lfen, "1d4"), sorted(&["1d5", "1d3", "1c4", "1e4", "1c5", "1e5", "1c3", "1e3"]));
    // Only the rook changed: the king's 3 moves (a2 b1 b2) stay in every count.
    assert_eq!(moves(&two, lfen).len(), 8 + 3);
}

fn knight_rider<G: Generator>() {
    // White knight d4, king a1; black pawn f5, king h8.
    let lfen = "7k/8/8/5p2/3N4/8/8/K7 w - - 0 1";
    let fide = G::builtin("fide");
    let leaps = sorted(&["1b3", "1b5", "1c2", "1c6", "1e2", "1e6", "1f3", "1f5"]);
    assert_eq!(from(&fide, lfen, "1d4"), leaps);
    // A nightrider goes on along each leap while the cells are empty: (2,1) takes f5 and stops
    // (h6 not reached); (2,-1) f3 then h2; (1,2) e6 then f8; (-1,2) c6 then b8; the other four
    // leave the board after one leap. 8 + 3 (h2 f8 b8).
    let rider = G::file("fide", "[pieces]\nknight = { planar-knight = \"slide\" }");
    let mut want = leaps.clone();
    want.extend(["1h2", "1f8", "1b8"].map(String::from));
    want.sort();
    assert_eq!(from(&rider, lfen, "1d4"), want);
    // No line of knight leaps from d4 is longer than 2 here: range 2 is the same rider.
    let two = G::file("fide", "[pieces]\nknight = { planar-knight = 2 }");
    assert_eq!(from(&two, lfen, "1d4"), want);
}

// ---- [pawn] ----

fn pawn_vectors<G: Generator>() {
    // White pawn e4 (not on its home rank: no double step), black pawns d5 and f5.
    let lfen = "7k/8/8/3p1p2/4P3/8/8/K7 w - - 0 1";
    let fide = G::builtin("fide");
    // Step e5, captures d5 and f5.
    assert_eq!(from(&fide, lfen, "1e4"), sorted(&["1e5", "1d5", "1f5"]));
    // A sideways step vector [1, 0, 0] adds f4.
    let side = G::file("fide", "[pawn]\nsteps = [[0, 1, 0], [1, 0, 0]]");
    assert_eq!(from(&side, lfen, "1e4"), sorted(&["1e5", "1f4", "1d5", "1f5"]));
    // One capture vector [1, 1, 0]: only f5.
    let right = G::file("fide", "[pawn]\ncaptures = [[1, 1, 0]]");
    assert_eq!(from(&right, lfen, "1e4"), sorted(&["1e5", "1f5"]));
    // Black's vectors are White's with drank and dlevel negated, dfile kept: the black pawn e5
    // steps e4 (0,-1,0), captures d4 and f4 (±1,-1,0), and with [1, 0, 0] also steps to f5
    // (not d5: the file is not mirrored).
    let black = "7k/8/8/4p3/3P1P2/8/8/K7 b - - 0 1";
    assert_eq!(from(&fide, black, "1e5"), sorted(&["1e4", "1d4", "1f4"]));
    assert_eq!(from(&side, black, "1e5"), sorted(&["1e4", "1f5", "1d4", "1f4"]));
    // With [1, 1, 0] as its only capture vector, Black's pawn takes on f4 (1, -1, 0) only.
    assert_eq!(from(&right, black, "1e5"), sorted(&["1e4", "1f4"]));
}

fn double_step_and_en_passant<G: Generator>() {
    // White pawn e2 (home rank), black pawn d4.
    let lfen = "7k/8/8/8/3p4/8/4P3/K7 w - - 0 1";
    let fide = G::builtin("fide");
    let single = G::file("fide", "[pawn]\ndouble-step = false\nen-passant = false");
    let no_ep = G::file("fide", "[pawn]\nen-passant = false");
    // The double step is exactly the one move more.
    assert_eq!(diff(&fide, &single, lfen), (vec!["1e21e4".to_string()], vec![]));
    assert_eq!(from(&no_ep, lfen, "1e2"), sorted(&["1e3", "1e4"]));
    // After e2-e4 the en-passant cell e3 is written (plain FEN on one level) and d4 takes there.
    let after = fide.play(lfen, "e2e4").unwrap();
    assert_eq!(after, "7k/8/8/8/3pP3/8/8/K7 b - e3 0 1");
    assert_eq!(from(&fide, &after, "1d4"), sorted(&["1d3", "1e3"]));
    let taken = fide.play(&after, "d4e3").unwrap();
    assert_eq!(taken, "7k/8/8/8/8/4p3/8/K7 w - - 0 2");
    // Without en passant no cell is written and the capture is gone: black has its king's 3
    // moves and d3, one move fewer than the 3 + 2 with en passant.
    let after_no_ep = no_ep.play(lfen, "e2e4").unwrap();
    assert_eq!(after_no_ep, "7k/8/8/8/3pP3/8/8/K7 b - - 0 1");
    assert_eq!(moves(&fide, &after).len(), 5);
    assert_eq!(moves(&no_ep, &after_no_ep).len(), 4);
    // An en-passant cell in a rule set without en passant is an error.
    assert!(no_ep.legal_moves(&after).is_err());
}

fn promotion_zone<G: Generator>() {
    // Traditional (three levels): white pawn 2a7, kings 1a1 and 3h8.
    let lfen = "8/8/8/8/8/8/8/K7|8/P7/8/8/8/8/8/8|7k/8/8/8/8/8/8/8 w - - 0 1";
    let enemy_home = G::builtin("traditional");
    // enemy-home: only rank 8 of Black's home level (3) promotes: 2a8 is a plain step, 3a7 too,
    // 3a8 four promotions (RULES §1.4: "a pawn on rank 8 of a lower level is not promoted").
    assert_eq!(from(&enemy_home, lfen, "2a7"), sorted(&["2a8", "3a7", "3a8q", "3a8r", "3a8b", "3a8n"]));
    // every-level: 2a8 promotes too: the plain 2a8 becomes four promotions (+3).
    let every = G::file("traditional", "[pawn]\npromotion-zone = \"every-level\"");
    let (gone, new) = diff(&enemy_home, &every, lfen);
    assert_eq!(gone, ["2a72a8"]);
    assert_eq!(new, sorted(&["2a72a8q", "2a72a8r", "2a72a8b", "2a72a8n"]));
    // A pawn may not stand in its zone: 2a8 holds a white pawn legally only with enemy-home.
    let on_2a8 = "8/8/8/8/8/8/8/K7|P7/8/8/8/8/8/8/8|7k/8/8/8/8/8/8/8 w - - 0 1";
    assert!(enemy_home.legal_moves(on_2a8).is_ok());
    assert!(every.legal_moves(on_2a8).is_err());
}

fn promotion_policy<G: Generator>() {
    // Traditional with White's whole army on level 1 and a pawn on 2a7 (black king 3h8).
    let full = "8/8/8/8/8/8/8/RNBQKBNR|8/P7/8/8/8/8/8/8|7k/8/8/8/8/8/8/8 w - - 0 1";
    let any = G::builtin("traditional");
    let lost = G::file("traditional", "[pawn]\npromotion = \"lost\"");
    // "any": 2a8, 3a7 and four promotions on 3a8. "lost": the pool is the army's start count
    // minus the pieces on the board, 0 for every kind, so the four promotions go (and the push
    // to 3a8 with them: promotion is mandatory).
    let (gone, new) = diff(&any, &lost, full);
    assert_eq!(gone, sorted(&["2a73a8q", "2a73a8r", "2a73a8b", "2a73a8n"]));
    assert!(new.is_empty());
    // Without the g1 knight the pool holds one knight: 3a8n only.
    let no_knight = "8/8/8/8/8/8/8/RNBQKB1R|8/P7/8/8/8/8/8/8|7k/8/8/8/8/8/8/8 w - - 0 1";
    assert_eq!(from(&lost, no_knight, "2a7"), sorted(&["2a8", "3a7", "3a8n"]));
    // A promoted piece counts by its kind: a second knight on 3a1 fills the pool again.
    let refilled = "8/8/8/8/8/8/8/RNBQKB1R|8/P7/8/8/8/8/8/8|7k/8/8/8/8/8/8/N7 w - - 0 1";
    assert_eq!(from(&lost, refilled, "2a7"), sorted(&["2a8", "3a7"]));
}

// ---- castling ----

fn castling_on_and_off<G: Generator>() {
    // An army of king and rooks, mirrored for Black.
    let army = "[board]\nwhite = [\"8/8/8/8/8/8/8/R3K2R\"]\nblack = \"mirror\"";
    let on = G::file("fide", &format!("castling = true\n{army}"));
    let off = G::file("fide", &format!("castling = false\n{army}"));
    // The start rights follow the placement: all four with castling on, none with it off.
    assert_eq!(on.start_lfen(), "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
    assert_eq!(off.start_lfen(), "r3k2r/8/8/8/8/8/8/R3K2R w - - 0 1");
    // Rook a1: a2-a7, takes a8, b1-d1 (10); rook h1: h2-h7, takes h8, g1 f1 (9); king d1 d2 e2
    // f2 f1 (5): 24, and with castling on the two castlings, written as the king's move: 26.
    assert_eq!(moves(&off, &off.start_lfen()).len(), 24);
    assert_eq!(moves(&on, &on.start_lfen()).len(), 26);
    let (only_on, only_off) = diff(&on, &off, &off.start_lfen());
    assert_eq!((only_on, only_off), (vec![], vec![]), "same position, no rights: same moves");
    let extra: Vec<String> = moves(&on, &on.start_lfen())
        .into_iter()
        .filter(|m| m.starts_with("1e11g1") || m.starts_with("1e11c1"))
        .collect();
    assert_eq!(extra, ["1e11c1", "1e11g1"]);
    // Castling rights in a rule set without castling are an error.
    assert!(off.legal_moves(&on.start_lfen()).is_err());
}

// ---- [board] ----

fn levels_two_and_four<G: Generator>() {
    let two = G::file("malka", "[board]\nlevels = 2\nwhite = [\"8/8/8/8/8/8/PPPPPPPP/RNBQKBNR\", \"8/8/8/8/8/8/8/8\"]");
    let four = G::file(
        "malka",
        "[board]\nlevels = 4\nwhite = [\"8/8/8/8/8/8/PPPPPPPP/RNBQKBNR\", \"8/8/8/8/8/8/8/8\", \"8/8/8/8/8/8/8/8\", \"8/8/8/8/8/8/8/8\"]",
    );
    assert_eq!((two.levels(), four.levels()), (2, 4));
    // Home levels default to 1 and `levels`: Black's army is mirrored onto the top level.
    assert!(two.start_lfen().starts_with("8/8/8/8/8/8/PPPPPPPP/RNBQKBNR|rnbqkbnr/pppppppp/"));
    assert!(four.start_lfen().contains("|8/8/8/8/8/8/8/8|8/8/8/8/8/8/8/8|rnbqkbnr/"));
    // A king alone in the middle of the bottom level: 8 cells around it in the plane and the 9
    // above it (straight up, 4 slants, 4 triagonals): 17.
    let bottom2 = "8/8/8/8/3K4/8/8/8|7k/8/8/8/8/8/8/8 w - - 0 1";
    assert_eq!(moves(&two, bottom2).len(), 17);
    // On a middle level of four, 9 below as well: 26, every direction.
    let middle4 = "8/8/8/8/8/8/8/8|8/8/8/8/3K4/8/8/8|8/8/8/8/8/8/8/8|7k/8/8/8/8/8/8/8 w - - 0 1";
    assert_eq!(moves(&four, middle4).len(), 26);
    // And on the top level of four, 9 below only: 17.
    let top4 = "7k/8/8/8/8/8/8/8|8/8/8/8/8/8/8/8|8/8/8/8/8/8/8/8|8/8/8/8/3K4/8/8/8 w - - 0 1";
    assert_eq!(moves(&four, top4).len(), 17);
    // The number of levels in an LFEN must be the rule set's.
    assert!(two.legal_moves(middle4).is_err());
    assert!(four.legal_moves(bottom2).is_err());
}

fn mirror<G: Generator>() {
    // A lopsided army: king e1, knight g1, pawn b2 on level 1 of two. The mirror keeps the file,
    // reflects the rank (9 - rank) and the level (levels + 1 - level): king e8, knight g8, pawn
    // b7, all on level 2.
    let r = G::file(
        "malka",
        "castling = false\n[board]\nlevels = 2\nwhite = [\"8/8/8/8/8/8/1P6/4K1N1\", \"8/8/8/8/8/8/8/8\"]\nblack = \"mirror\"",
    );
    assert_eq!(r.start_lfen(), "8/8/8/8/8/8/1P6/4K1N1|4k1n1/1p6/8/8/8/8/8/8 w - - 0 1");
    // The same army given by hand is the same rule set.
    let by_hand = G::file(
        "malka",
        "castling = false\n[board]\nlevels = 2\nwhite = [\"8/8/8/8/8/8/1P6/4K1N1\", \"8/8/8/8/8/8/8/8\"]\nblack = [\"8/8/8/8/8/8/8/8\", \"4k1n1/1p6/8/8/8/8/8/8\"]",
    );
    assert!(r.same_rules(&by_hand));
    // White at home on level 2 of four: the mirror puts Black on level 3 (4 + 1 - 2).
    let mid = G::file(
        "malka",
        "[board]\nlevels = 4\nwhite-home = 2\nblack-home = 3\nwhite = [\"8/8/8/8/8/8/8/8\", \"8/8/8/8/8/8/PPPPPPPP/RNBQKBNR\", \"8/8/8/8/8/8/8/8\", \"8/8/8/8/8/8/8/8\"]",
    );
    let start = mid.start_lfen();
    assert_eq!(
        start,
        "8/8/8/8/8/8/8/8|8/8/8/8/8/8/PPPPPPPP/RNBQKBNR|rnbqkbnr/pppppppp/8/8/8/8/8/8|8/8/8/8/8/8/8/8 w KQkq - 0 1"
    );
    // Its start moves, with a level below and two above White's: pawns 3 each, only upward
    // (2x3, 3x2, 3x3): 24. Knights 9 each (2b1: 2a3 2c3, 1d1 3d1, 4a1 4c1, 1b3 3b3, 4b2): 18.
    // Bishops 6 each (2c1: 3b2 4a3, 3d2 4e3, 1b2 1d2): 12. Rooks 9 each (2a1: 1a1 3a1 4a1,
    // 1b1 3b1 4c1, 1a2 3a2 4a3): 18. Queen and king step to the 6 cells above and the 6 below
    // (12 each): 24. 24 + 18 + 12 + 18 + 24 = 96.
    assert_eq!(moves(&mid, &start).len(), 96);
}

// ---- [draws] ----

fn stalemate_value<G: Generator>() {
    // Black king h8, white queen f7, white king g6, Black to move: no move, not in check.
    let stalemate = "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1";
    let draw = G::builtin("fide");
    let win = G::file("fide", "[draws]\nstalemate = \"win\"");
    let loss = G::file("fide", "[draws]\nstalemate = \"loss\"");
    let o = |r: &G| r.outcome(stalemate).unwrap();
    // The value is the stalemated side's (Black's) result.
    assert_eq!(o(&draw), Some(("stalemate".to_string(), None)));
    assert_eq!(o(&win), Some(("stalemate".to_string(), Some("black".to_string()))));
    assert_eq!(o(&loss), Some(("stalemate".to_string(), Some("white".to_string()))));
    // Mate is mate whatever the stalemate value: queen g7 guarded by the king.
    let mate = "7k/6Q1/6K1/8/8/8/8/8 b - - 0 1";
    for r in [&draw, &win, &loss] {
        assert_eq!(r.outcome(mate).unwrap(), Some(("checkmate".to_string(), Some("white".to_string()))));
    }
    // The move lists ignore the draw rules: no moves either way.
    assert!(moves(&win, stalemate).is_empty());
}

fn fifty_moves<G: Generator>() {
    // Kings and a white pawn (not dead material); only the halfmove clock varies.
    let at = |half: u32| format!("7k/8/8/8/8/8/4P3/K7 w - - {half} 80");
    let fifty = G::builtin("fide");
    let ten = G::file("fide", "[draws]\nfifty-moves = 10");
    let never = G::file("fide", "[draws]\nfifty-moves = 0");
    let drawn = Some(("fifty-moves".to_string(), None));
    // 50 moves = 100 plies.
    assert_eq!(fifty.outcome(&at(99)).unwrap(), None);
    assert_eq!(fifty.outcome(&at(100)).unwrap(), drawn);
    // 10 moves = 20 plies.
    assert_eq!(ten.outcome(&at(19)).unwrap(), None);
    assert_eq!(ten.outcome(&at(20)).unwrap(), drawn);
    // 0: never.
    assert_eq!(never.outcome(&at(500)).unwrap(), None);
    // The moves do not change: the king's 3 and the pawn's 2.
    assert_eq!(moves(&fifty, &at(100)).len(), 5);
}

fn insufficient_material<G: Generator>() {
    let on = G::builtin("fide");
    let off = G::file("fide", "[draws]\ninsufficient-material = false");
    let dead = Some(("dead-material".to_string(), None));
    for lfen in [
        "7k/8/8/8/8/8/8/K7 w - - 0 1",   // K v K
        "7k/8/8/8/8/8/8/K6N w - - 0 1",  // K+N v K
        "7k/8/8/8/8/8/8/K5b1 w - - 0 1", // K v K+B
    ] {
        assert_eq!(on.outcome(lfen).unwrap(), dead, "{lfen}");
        assert_eq!(off.outcome(lfen).unwrap(), None, "{lfen}");
    }
    for lfen in [
        "7k/8/8/8/8/8/8/KR6 w - - 0 1",  // K+R v K
        "7k/8/8/8/8/8/8/K5NN w - - 0 1", // K+N+N v K
        "7k/8/8/8/8/8/8/K5Nn w - - 0 1", // K+N v K+N
    ] {
        assert_eq!(on.outcome(lfen).unwrap(), None, "{lfen}");
    }
}

// ---- [transfer] ----

/// The moves that change level (full notation: `1a12a5`).
fn level_changes(moves: &[String]) -> Vec<String> {
    moves.iter().filter(|m| m.get(0..1) != m.get(3..4)).cloned().collect()
}

/// The destinations of the transfers from `cell`: the legal moves from it to another level.
fn transfers<G: Generator>(r: &G, lfen: &str, cell: &str) -> Vec<String> {
    from(r, lfen, cell).into_iter().filter(|t| t.get(0..1) != cell.get(0..1)).collect()
}

fn transfer_on_and_off<G: Generator>() {
    let on = G::builtin("air-attack");
    let off = G::file("air-attack", "[transfer]\nenabled = false");
    // At the start, the 79 transfers of RULES §3 are exactly the difference.
    let start = on.start_lfen();
    let (only_on, only_off) = diff(&on, &off, &start);
    assert_eq!(only_on.len(), 79);
    assert_eq!(level_changes(&only_on), only_on);
    assert!(only_off.is_empty());
    // Rook 1a1, king 1e3, black king 1h8. The rook's transfers: stop on 2a1, then 4 cells up
    // (2a2-2a5) and 4 along (2b1-2e1): 9. The king's: stop on 2e3 and its 8 steps around: 9.
    let lfen = "7k/8/8/8/8/4K3/8/R7|8/8/8/8/8/8/8/8 w - - 0 1";
    assert_eq!(transfers(&on, lfen, "1a1").len(), 9);
    assert_eq!(transfers(&on, lfen, "1e3").len(), 9);
    assert_eq!(from(&on, lfen, "1a1").len(), 14 + 9);
    assert_eq!(from(&off, lfen, "1a1").len(), 14);
    // Home-position pawns: 1e2 stops on 2e2, steps to 2e3 or takes the knight on 2d3 (never a
    // double step from T); 1b3 is not on its home rank and only stops on 2b3.
    let pawns = "7k/8/8/8/8/1P6/4P3/K7|8/8/8/8/8/3n4/8/8 w - - 0 1";
    assert_eq!(from(&on, pawns, "1e2"), sorted(&["1e3", "1e4", "2e2", "2e3", "2d3"]));
    assert_eq!(from(&on, pawns, "1b3"), sorted(&["1b4", "2b3"]));
    assert_eq!(from(&off, pawns, "1e2"), sorted(&["1e3", "1e4"]));
    assert_eq!(from(&off, pawns, "1b3"), sorted(&["1b4"]));
}

fn transfer_range<G: Generator>() {
    // Rook 1a1, king 1e3, black king 1h8, level 2 empty. Normal moves: 7 up, 7 along (14).
    let lfen = "7k/8/8/8/8/4K3/8/R7|8/8/8/8/8/8/8/8 w - - 0 1";
    let with = |range: u32| G::file("air-attack", &format!("[transfer]\nrange = {range}"));
    let rook = |range: u32| transfers(&with(range), lfen, "1a1").len();
    // Stop on 2a1, then `range` cells up the a-file and along rank 1 (7 at most).
    assert_eq!(rook(0), 1);
    assert_eq!(rook(1), 1 + 2);
    assert_eq!(rook(4), 1 + 8);
    assert_eq!(rook(7), 1 + 14);
    // The king keeps its own ranges: stop on 2e3 and 8 steps, whatever `range`.
    for range in [0, 1, 4, 7] {
        assert_eq!(transfers(&with(range), lfen, "1e3").len(), 9, "range {range}");
    }
    // A range-1 group stays 1 even with range 0: a knight's leaps from T (1b1: 2a3 2c3 2d2).
    let knight = "7k/8/8/8/8/4K3/8/1N6|8/8/8/8/8/8/8/8 w - - 0 1";
    assert_eq!(transfers(&with(0), knight, "1b1"), sorted(&["2a3", "2c3", "2d2"]));
    // A rider's range is cut like the others (our reading): a nightrider on 1d4 goes on from
    // 2d4 along its 8 leap lines, 12 cells on the empty level (see `knight_rider`, plus h6 that
    // is not blocked here); with range 1 only the 8 first leaps are left.
    let rider = |range: u32| {
        G::file(
            "air-attack",
            &format!("[pieces]\nknight = {{ planar-knight = \"slide\" }}\n[transfer]\nrange = {range}"),
        )
    };
    let d4 = "7k/8/8/8/3N4/4K3/8/8|8/8/8/8/8/8/8/8 w - - 0 1";
    assert_eq!(transfers(&rider(4), d4, "1d4").len(), 12);
    assert_eq!(transfers(&rider(1), d4, "1d4").len(), 8);
}

fn capture_ends_move<G: Generator>() {
    // Rook 1a1 under a black knight on 2a1 (its T cell), black pawn 2a3; kings 1e3 and 1h8.
    let lfen = "7k/8/8/8/8/4K3/8/R7|8/8/8/8/8/p7/8/n7 w - - 0 1";
    let ends = G::builtin("air-attack");
    let goes_on = G::file("air-attack", "[transfer]\ncapture-ends-move = false");
    // true: the capture on T is the whole transfer.
    assert_eq!(transfers(&ends, lfen, "1a1"), ["2a1"]);
    // false: it may also go on from the emptied T, up to 2a2 or taking the pawn on 2a3 (a second
    // capture), and along rank 1 to 2b1-2e1 (range 4): 1 + 2 + 4.
    assert_eq!(transfers(&goes_on, lfen, "1a1"), sorted(&["2a1", "2a2", "2a3", "2b1", "2c1", "2d1", "2e1"]));
    // The double capture removes both pieces.
    assert_eq!(goes_on.play(lfen, "1a12a3").unwrap(), "7k/8/8/8/8/4K3/8/8|8/8/8/8/8/R7/8/8 b - - 0 1");
    // Attacks follow: Black's rook on 2a8 over a white knight on 1a8 (its T) reaches the white
    // king on 1a5 only when the capture on T may go on.
    let check = "N6k/8/8/K7/8/8/8/8|r7/8/8/8/8/8/8/8 w - - 0 1";
    assert!(!ends.in_check(check).unwrap());
    assert!(goes_on.in_check(check).unwrap());
}

fn knight_over_occupied<G: Generator>() {
    // Knight 1b1 under a black rook on 2b1 (its T cell); kings 1e3 (off rank 1, where the rook
    // would pin the knight by transfer) and 1h8.
    let lfen = "7k/8/8/8/8/4K3/8/1N6|8/8/8/8/8/8/8/1r6 w - - 0 1";
    let over = G::builtin("air-attack");
    let strict = G::file("air-attack", "[transfer]\nknight-over-occupied = false");
    // true: the knight ignores T (no capture there) and leaps on from it: 2a3 2c3 2d2.
    assert_eq!(transfers(&over, lfen, "1b1"), sorted(&["2a3", "2c3", "2d2"]));
    // false: T must be empty; it is not, so no transfer. The normal leaps 1a3 1c3 1d2 stay.
    assert_eq!(transfers(&strict, lfen, "1b1"), Vec::<String>::new());
    assert_eq!(from(&strict, lfen, "1b1"), sorted(&["1a3", "1c3", "1d2"]));
    // An own piece on T: the same. With T empty, the two rules agree.
    let own = "7k/8/8/8/8/4K3/8/1N6|8/8/8/8/8/8/8/1R6 w - - 0 1";
    assert_eq!(transfers(&over, own, "1b1").len(), 3);
    assert_eq!(transfers(&strict, own, "1b1").len(), 0);
    let empty = "7k/8/8/8/8/4K3/8/1N6|8/8/8/8/8/8/8/8 w - - 0 1";
    assert_eq!(diff(&over, &strict, empty), (vec![], vec![]));
}

fn promotion_after_transfer<G: Generator>() {
    // Air Attack with White promoting only on level 2 (Black's home level here): a white pawn on
    // 1a8 is legal, cannot step (off the board), and transfers to 2a8 in its zone: four
    // promotions.
    let r = G::file("air-attack", "castling = false\n[board]\nblack-home = 2\n[pawn]\npromotion-zone = \"enemy-home\"");
    let lfen = "P6k/8/8/8/8/8/8/K7|8/8/8/8/8/8/8/8 w - - 0 1";
    assert_eq!(from(&r, lfen, "1a8"), sorted(&["2a8q", "2a8r", "2a8b", "2a8n"]));
}
