//! Rule files: what `-v rules:FILE` and `rules check` read. A file is refused with an error that
//! names a key or a line, or it compiles to a generator that agrees with the reference generator
//! (written separately from the spec) on perft(2) from its start and on positions of random play.

use crate::input::{Bytes, Choices};
use crate::rulegen::random_rule_file;
use stackchess_core::Rules as _;
use stackchess_core::{Move, Position, SplitMix64};
use stackchess_reference::Reference;
use stackchess_rules::{RuleError, RuleSet};
use stackchess_variants::{Variant, WithPosition};

/// The text of a built-in rule file, for `base = "..."`.
fn builtin(name: &str) -> Option<String> {
    Variant::builtin_rules(name).map(str::to_owned)
}

/// What became of one rule file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// Refused by the rules reader or the compiler (the error names a key or a line).
    Refused(RuleError),
    /// Compiled and cross-checked on this many positions.
    Agreed(usize),
}

/// Reads, compiles and cross-checks `text` on `positions` positions of random play from `seed`.
///
/// # Panics
/// When an invariant is broken: an error that names neither key nor line, a compiled rule set
/// whose canonical text reads back as other rules or that the reference refuses, or any
/// disagreement with the reference (naming the position).
#[must_use]
pub fn check_rule_file(text: &str, seed: u64, positions: usize) -> Verdict {
    let named = |e: RuleError| {
        assert!(!e.key.is_empty() || e.line.is_some(), "a refusal names neither a key nor a line: {e}\n{text}");
        Verdict::Refused(e)
    };
    let rules = match RuleSet::parse(text, &builtin) {
        Ok(r) => r,
        Err(e) => return named(e),
    };
    // As `-v rules:FILE` reads it: a built-in's name only for that built-in's rules.
    if let Err(e) = Variant::builtin_named(&rules) {
        return named(e);
    }
    let canonical = rules.to_toml();
    let again = RuleSet::parse(&canonical, &builtin)
        .unwrap_or_else(|e| panic!("the canonical text of an accepted file is refused: {e}\n{canonical}"));
    assert_eq!(again.id(), rules.id(), "the canonical text reads as other rules:\n{text}\n--\n{canonical}");
    let compiled = match rules.board.levels {
        1 => stackchess_board::compile::<1>(rules).map(Compiled::One),
        2 => stackchess_board::compile::<2>(rules).map(Compiled::Two),
        3 => stackchess_board::compile::<3>(rules).map(Compiled::Three),
        _ => stackchess_board::compile::<4>(rules).map(Compiled::Four),
    };
    let compiled = match compiled {
        Ok(c) => c,
        Err(e) => return named(e),
    };
    let reference = Reference::from_toml(text, &builtin)
        .unwrap_or_else(|e| panic!("compiled, but the reference generator refuses it: {e}\n{text}"));
    let check = CrossCheck { reference: &reference, seed, positions, text };
    Verdict::Agreed(match compiled {
        Compiled::One(t) => check.call::<stackchess_board::Board<1>>(t),
        Compiled::Two(t) => check.call::<stackchess_board::Board<2>>(t),
        Compiled::Three(t) => check.call::<stackchess_board::Board<3>>(t),
        Compiled::Four(t) => check.call::<stackchess_board::Board<4>>(t),
    })
}

/// A compiled rule set, by level count.
enum Compiled {
    One(&'static stackchess_board::Tables<1>),
    Two(&'static stackchess_board::Tables<2>),
    Three(&'static stackchess_board::Tables<3>),
    Four(&'static stackchess_board::Tables<4>),
}

/// Level-prefixed coordinates, as the reference writes moves.
fn full(m: Move) -> String {
    let mut s = format!("{}{}", m.from(), m.to());
    if let Some(r) = m.promotion() {
        s.push(r.lower());
    }
    s
}

/// perft(2) from the start, then a random walk comparing legal moves, check and the position
/// after the move played.
struct CrossCheck<'a> {
    reference: &'a Reference,
    seed: u64,
    positions: usize,
    text: &'a str,
}

impl WithPosition for CrossCheck<'_> {
    type Output = usize;
    fn call<P: Position>(self, rules: P::Rules) -> usize {
        let text = self.text;
        let start = rules.startpos();
        let lfen = start.to_lfen();
        let theirs = self.reference.perft(&lfen, 2).unwrap_or_else(|e| panic!("reference perft: {e}\n{text}"));
        assert_eq!(start.perft(2), theirs, "perft(2) from the start differs from the reference's:\n{text}");
        let mut rng = SplitMix64(self.seed);
        let mut pos = start;
        let mut seen = 0;
        for _ in 0..self.positions {
            let lfen = pos.to_lfen();
            let mut ours: Vec<String> = pos.moves().iter().map(|&m| full(m)).collect();
            ours.sort();
            let theirs =
                self.reference.legal_moves(&lfen).unwrap_or_else(|e| panic!("reference: {e} in {lfen}\n{text}"));
            assert_eq!(ours, theirs, "legal moves differ from the reference's in {lfen}:\n{text}");
            let check = self.reference.in_check(&lfen).unwrap_or_else(|e| panic!("reference: {e}\n{text}"));
            assert_eq!(pos.is_check(), check, "check differs from the reference's in {lfen}:\n{text}");
            seen += 1;
            let list = pos.moves();
            if list.is_empty() || pos.outcome().is_some() {
                pos = rules.startpos();
                continue;
            }
            let m = list[Choices::below(&mut rng, list.len())];
            let after = self.reference.play(&lfen, &full(m)).unwrap_or_else(|e| panic!("reference: {e}\n{text}"));
            pos.play_unchecked(m);
            assert_eq!(pos.to_lfen(), after, "positions differ after {} in {lfen}:\n{text}", full(m));
        }
        seen
    }
}

/// Fuzz target: the input is a rule file. Positions of its random play: 8.
pub fn rule_file(data: &[u8]) {
    if let Ok(text) = std::str::from_utf8(data) {
        let _ = check_rule_file(text, 1, 8);
    }
}

/// Fuzz target, structure-aware: the input's bytes are the choices of [`random_rule_file`], so
/// every input is a rule file of the whole TOML space; it is compiled or refused, and compiled
/// ones are cross-checked on 24 positions.
pub fn rule_set(data: &[u8]) {
    let mut input = Bytes::new(data);
    let text = random_rule_file(&mut input, 0);
    let seed = u64::from(input.byte());
    let _ = check_rule_file(&text, seed, 24);
}

/// Counts of a run of random rule sets.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Tally {
    /// Rule sets drawn.
    pub drawn: u64,
    /// Of those, refused (with the key named).
    pub refused: u64,
    /// Compiled and cross-checked.
    pub agreed: u64,
    /// Positions compared in all.
    pub positions: u64,
}

/// Draws `count` random rule sets from `seed` (ids `first..first + count`) and checks each,
/// cross-checking compiled ones on `positions` positions.
///
/// # Panics
/// On a broken invariant, with the rule file.
#[must_use]
pub fn random_rule_sets(seed: u64, first: u64, count: u64, positions: usize) -> Tally {
    let mut tally = Tally::default();
    for id in first..first + count {
        let mut rng = SplitMix64::for_item(seed, id);
        let text = random_rule_file(&mut rng, id);
        tally.drawn += 1;
        match check_rule_file(&text, rng.next_u64(), positions) {
            Verdict::Refused(_) => tally.refused += 1,
            Verdict::Agreed(n) => {
                tally.agreed += 1;
                tally.positions += n as u64;
            }
        }
    }
    tally
}
