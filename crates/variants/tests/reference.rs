//! The fast generators against the slow reference generator (crates/reference), which was
//! written separately from the rules alone (docs/rule-files.md and the project's rules authority): same legal move set, same check status and same
//! resulting position, on positions reached by seeded random play.

use stackchess_core::Rules as _;
use stackchess_core::{Cell, Move, MoveKind, MoveList, Position, SplitMix64};
use stackchess_reference::Reference;
use stackchess_variants::{Variant, WithPosition};
use std::path::PathBuf;

/// Level-prefixed coordinate text, as the reference writes it for every variant.
fn full(m: Move) -> String {
    let mut s = format!("{}{}", m.from(), m.to());
    if let Some(r) = m.promotion() {
        s.push(r.lower());
    }
    s
}

/// How often the special moves occurred among the compared positions.
#[derive(Default, Debug)]
struct Coverage {
    positions: usize,
    checks: usize,
    castles: usize,
    en_passant: usize,
    promotions: usize,
    level_changes: usize,
}

struct Compare<'a> {
    reference: &'a Reference,
    positions: usize,
    seed: u64,
    /// Favour captures, promotions and pawn moves (reaches endings), or walk uniformly (keeps castling).
    biased: bool,
}

impl WithPosition for Compare<'_> {
    type Output = Coverage;
    fn call<P: Position>(self, rules: P::Rules) -> Coverage {
        let name = rules.name();
        let mut rng = SplitMix64(self.seed);
        let mut cov = Coverage::default();
        let mut checked = 0;
        let mut pos = rules.startpos();
        let mut ply = 0;
        while checked < self.positions {
            let lfen = pos.to_lfen();
            let mut ours: Vec<String> = pos.moves().iter().map(|&m| full(m)).collect();
            ours.sort();
            let theirs = self.reference.legal_moves(&lfen).expect("reference reads our LFEN");
            assert_eq!(ours, theirs, "{name}: legal moves differ in {lfen}");
            // Counting (perft's last ply, set-wise where it can) agrees with listing.
            assert_eq!(pos.count_legal_moves(), ours.len(), "{name}: move count differs from the list in {lfen}");
            restricted_lists_agree(&pos, &lfen);
            let check = self.reference.in_check(&lfen).expect("reference reads our LFEN");
            assert_eq!(pos.is_check(), check, "{name}: check status differs in {lfen}");
            let outcome = pos.outcome().map(|o| (o.reason.name().to_owned(), o.winner.map(|c| c.to_string())));
            let expected = self.reference.outcome(&lfen).expect("reference reads our LFEN");
            assert_eq!(outcome, expected, "{name}: outcome differs in {lfen}");
            checked += 1;
            let moves = pos.moves();
            cov.positions += 1;
            cov.checks += usize::from(check);
            let has = |k| moves.iter().any(|m| m.kind() == k);
            cov.castles += usize::from(has(MoveKind::Castle));
            cov.en_passant += usize::from(has(MoveKind::EnPassant));
            cov.promotions += usize::from(moves.iter().any(|m| m.promotion().is_some()));
            cov.level_changes += usize::from(moves.iter().any(|m| m.from().level() != m.to().level()));
            if moves.is_empty() || ply > 300 || pos.halfmove_clock() >= 100 {
                pos = rules.startpos();
                ply = 0;
                continue;
            }
            // Biased walk: captures, promotions and pawn moves are favoured so games reach
            // sparse boards, promotions and endings instead of wandering at the start.
            let pick = |pred: &dyn Fn(&Move) -> bool, rng: &mut SplitMix64| {
                let v: Vec<Move> = moves.iter().copied().filter(|m| pred(m)).collect();
                (!v.is_empty()).then(|| v[rng.below(v.len())])
            };
            let roll = if self.biased { rng.below(10) } else { 10 };
            let m = if roll < 3 {
                pick(&|m| m.promotion().is_some() || pos.captured(*m).is_some(), &mut rng)
            } else if roll < 6 {
                pick(&|m| pos.piece_at(m.from()).is_some_and(|p| p.role == stackchess_core::Role::Pawn), &mut rng)
            } else {
                None
            }
            .unwrap_or_else(|| moves[rng.below(moves.len())]);
            // Every few plies, the position after the move must match the reference's too.
            if checked % 7 == 0 {
                let after = self.reference.play(&lfen, &full(m)).expect("reference plays our move");
                let mut next = pos.clone();
                next.play_unchecked(m);
                assert_eq!(
                    rules.from_lfen(&after).expect("reference LFEN is readable").to_lfen(),
                    next.to_lfen(),
                    "{name}: positions differ after {} in {lfen}",
                    full(m)
                );
            }
            pos.play_unchecked(m);
            ply += 1;
        }
        cov
    }
}

/// The restricted generators (captures and promotions; the moves to one cell) give the full
/// list's moves, in its order: for every target of a move, the en-passant cell and a cell drawn
/// from the position's hash (the walk's own draws are left alone).
fn restricted_lists_agree<P: Position>(pos: &P, lfen: &str) {
    let all = pos.moves();
    let takes: Vec<Move> =
        all.iter().copied().filter(|&m| m.promotion().is_some() || pos.captured(m).is_some()).collect();
    let mut got = MoveList::new();
    pos.legal_captures(&mut got);
    assert_eq!(got.as_slice(), takes.as_slice(), "captures and promotions differ from the list's in {lfen}");
    let mut targets: Vec<Cell> = all.iter().map(|m| m.to()).collect();
    targets.extend(pos.ep_cell());
    targets.push(Cell::from_index(usize::try_from(pos.hash() % (P::LEVELS as u64 * 64)).unwrap_or(0)));
    targets.sort_unstable_by_key(|c| c.index());
    targets.dedup();
    for c in targets {
        let to_c: Vec<Move> = all.iter().copied().filter(|m| m.to() == c).collect();
        got.clear();
        pos.legal_moves_to(c, &mut got);
        assert_eq!(got.as_slice(), to_c.as_slice(), "moves to {c:?} differ from the list's in {lfen}");
    }
}

fn builtin_text(name: &str) -> Option<String> {
    Variant::builtin_rules(name).map(str::to_owned)
}

#[test]
fn fast_and_reference_generators_agree_on_random_positions() {
    for v in Variant::ALL {
        let reference = Reference::from_toml(Variant::builtin_rules(v.name()).unwrap(), &builtin_text).unwrap();
        let mut total = Coverage::default();
        for seed in 1..=4 {
            let c = v.with(Compare { reference: &reference, positions: 500, seed, biased: seed % 2 == 0 });
            total.positions += c.positions;
            total.checks += c.checks;
            total.castles += c.castles;
            total.en_passant += c.en_passant;
            total.promotions += c.promotions;
            total.level_changes += c.level_changes;
        }
        eprintln!("{v}: {total:?}");
        // The walk must reach the rules' special cases, or the agreement proves little.
        assert_eq!(total.positions, 2000);
        assert!(total.checks > 10 && total.castles > 0 && total.promotions > 0, "{v}: {total:?}");
        if matches!(v, Variant::Traditional | Variant::Fide) {
            assert!(total.en_passant > 0, "{v}: {total:?}");
        }
        if v != Variant::Fide {
            assert!(total.level_changes > 100, "{v}: {total:?}");
        }
    }
}

/// Every example rule file under data/rules, through the facade and through the reference.
#[test]
fn every_example_rule_file_agrees_with_the_reference() {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../data/rules");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "toml"))
        .collect();
    files.sort();
    assert!(files.len() >= 12, "{} rule files", files.len());
    for path in files {
        let text = std::fs::read_to_string(&path).unwrap();
        let v = Variant::load_rules(&path).unwrap_or_else(|e| panic!("{e}"));
        let reference =
            Reference::from_toml(&text, &builtin_text).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let mut total = Coverage::default();
        for seed in 1..=2 {
            let c = v.with(Compare { reference: &reference, positions: 250, seed, biased: seed % 2 == 0 });
            total.positions += c.positions;
            total.checks += c.checks;
            total.promotions += c.promotions;
            total.level_changes += c.level_changes;
        }
        eprintln!("{}: {total:?}", path.display());
        assert_eq!(total.positions, 500);
        assert!(total.checks > 0, "{}: {total:?}", path.display());
        if v.levels() > 1 {
            assert!(total.level_changes > 50, "{}: {total:?}", path.display());
        }
    }
}

struct Perft<'a>(&'a Reference, u32);

impl WithPosition for Perft<'_> {
    type Output = ();
    fn call<P: Position>(self, rules: P::Rules) {
        let pos = rules.startpos();
        let reference = self.0.perft(&pos.to_lfen(), self.1).expect("reference perft");
        assert_eq!(pos.perft(self.1), reference, "{}: start-position perft({}) differs", rules.name(), self.1);
    }
}

#[test]
fn start_position_perft_agrees_with_reference() {
    for v in Variant::ALL {
        let reference = Reference::from_toml(Variant::builtin_rules(v.name()).unwrap(), &builtin_text).unwrap();
        v.with(Perft(&reference, 2));
    }
}

/// Pawn vectors need not be symmetric: a pawn that captures one way only, pawns that capture
/// across levels one way, and a two-square step beside the double step. Attacks on a cell are
/// then not the mirror of a pawn's captures from it (the fast generator once assumed they were).
#[test]
fn asymmetric_pawn_vectors_agree_with_the_reference() {
    let files = [
        "name = \"one-way\"\ndescription = \"x\"\nbase = \"fide\"\n[pawn]\ncaptures = [[1, 1, 0]]\n",
        "name = \"slanted\"\ndescription = \"x\"\nbase = \"traditional\"\n[pawn]\n\
         captures = [[1, 1, 0], [-1, 1, 1], [0, 1, -1]]\nsteps = [[0, 1, 0], [0, 2, 0]]\n",
    ];
    for text in files {
        let v = Variant::from_text(text).unwrap_or_else(|e| panic!("{e}"));
        let reference = Reference::from_toml(text, &builtin_text).unwrap_or_else(|e| panic!("{e}"));
        let c = v.with(Compare { reference: &reference, positions: 500, seed: 7, biased: false });
        assert_eq!(c.positions, 500);
        assert!(c.checks > 0, "{text}: {c:?}");
    }
}

// The random rule sets (once here, 200 of them) are stackchess-checks' now: drawn from the whole
// rule-file space, run 300 in `cargo test` and 10,000 in `cargo xtask fuzz` (docs/reliability.md).

/// The sorted legal moves of one position, by the fast generator.
struct MovesAt<'a>(&'a str);

impl WithPosition for MovesAt<'_> {
    type Output = Vec<String>;
    fn call<P: Position>(self, rules: P::Rules) -> Vec<String> {
        let pos = rules.from_lfen(self.0).expect("a valid LFEN");
        let mut v: Vec<String> = pos.moves().iter().map(|&m| full(m)).collect();
        v.sort();
        v
    }
}

/// A piece that steps like a knight after a transfer attacks through its transfer cell: Black's
/// rook on 2d6 stands on the cell White's bishop on 1d6 would transfer to before leaping to the
/// king on 2e8, so the rook may only capture the bishop. (Found by the random rule sets: the pin
/// test looked at knights only.)
#[test]
fn a_step_after_a_transfer_pins_the_piece_on_the_transfer_cell() {
    let text = "name = \"stepping-bishop\"\ndescription = \"x\"\nbase = \"air-attack\"\n[pieces]\n\
                king = { planar-diagonal = \"step\" }\nqueen = { planar-diagonal = \"slide\" }\n\
                rook = { planar-knight = \"step\" }\n\
                bishop = { planar-orthogonal = \"slide\", planar-knight = \"step\" }\n\
                knight = { planar-diagonal = 3, planar-orthogonal = 2 }\n[transfer]\nrange = 6\n";
    let lfen = "1N6/8/1p1B4/8/2P5/3PPP2/1P6/R1N1K2n|r3k3/p3p3/3r1p2/2p3pp/7P/2b5/P3R3/8 b - - 1 49";
    let v = Variant::from_text(text).unwrap_or_else(|e| panic!("{e}"));
    let reference = Reference::from_toml(text, &builtin_text).unwrap_or_else(|e| panic!("{e}"));
    let ours = v.with(MovesAt(lfen));
    assert_eq!(ours, reference.legal_moves(lfen).unwrap());
    let rook: Vec<&String> = ours.iter().filter(|m| m.starts_with("2d6")).collect();
    assert_eq!(rook, ["2d61d6"], "the pinned rook's moves");
}

/// Seventeen pins at once: White's king on 1d4 has eight planar lines and nine upward lines two
/// cells long, each with a White knight next to the king and a Black queen behind it. Every
/// knight is pinned (a knight cannot stay on its line) and the king is boxed in: no legal move.
/// The pin list once held sixteen, and the seventeenth knight (2e5) moved.
#[test]
fn seventeen_pins_are_all_pins() {
    let lfen = "8/8/1q1q1q2/2NNN3/1qNKNq2/2NNN3/1q1q1q2/8|8/8/8/2NNN3/2NNN3/2NNN3/8/8|\
                7k/8/1q1q1q2/8/1q1q1q2/8/1q1q1q2/8 w - - 0 1";
    let reference = Reference::from_toml(Variant::builtin_rules("traditional").unwrap(), &builtin_text).unwrap();
    let ours = Variant::Traditional.with(MovesAt(lfen));
    assert_eq!(ours, reference.legal_moves(lfen).unwrap());
    assert!(ours.is_empty(), "moves of pinned knights or a boxed king: {ours:?}");
}
