//! Every fuzz target on stable: each file of its committed corpus (`fuzz/corpus/<target>/`: the
//! seeds and every input a fuzzer found to break an invariant, kept as a regression test), then
//! mutations of those files and random inputs drawn by proptest. The same checks the libFuzzer
//! targets run (crates/checks/src), so their invariants hold where nightly is absent.

use proptest::prelude::*;
use stackchess_checks::{Target, TARGETS};
use std::path::PathBuf;

/// The files of a target's corpus, sorted.
fn corpus(t: &Target) -> Vec<Vec<u8>> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../fuzz/corpus").join(t.name);
    let mut paths: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e} (cargo xtask fuzz --seed writes the seeds)", dir.display()))
        .map(|e| e.expect("a corpus entry").path())
        .collect();
    paths.sort();
    paths.iter().map(|p| std::fs::read(p).unwrap_or_else(|e| panic!("{}: {e}", p.display()))).collect()
}

#[test]
fn every_target_keeps_its_invariants_on_its_corpus() {
    for t in TARGETS {
        let inputs = corpus(t);
        assert!(!inputs.is_empty(), "{}: an empty corpus", t.name);
        for input in &inputs {
            (t.check)(input);
        }
    }
}

/// One edit of an input.
#[derive(Clone, Debug)]
enum Edit {
    /// Overwrite the byte at (position mod length).
    Set(usize, u8),
    /// Insert a byte.
    Insert(usize, u8),
    /// Delete up to n bytes.
    Delete(usize, usize),
    /// Repeat a run of up to n bytes in place.
    Repeat(usize, usize),
    /// Cut the input off.
    Truncate(usize),
}

/// Bytes that matter to the parsers (separators, digits, signs, quotes, letters of pieces).
fn telling_byte() -> impl Strategy<Value = u8> {
    prop_oneof![any::<u8>(), prop::sample::select(b"/|-+=,.;:# \n\r\t\"[]{}0123456789kqrbnpKQRBNPwxeO".to_vec()),]
}

fn edit() -> impl Strategy<Value = Edit> {
    prop_oneof![
        (any::<usize>(), telling_byte()).prop_map(|(p, b)| Edit::Set(p, b)),
        (any::<usize>(), telling_byte()).prop_map(|(p, b)| Edit::Insert(p, b)),
        (any::<usize>(), 1usize..16).prop_map(|(p, n)| Edit::Delete(p, n)),
        (any::<usize>(), 1usize..32).prop_map(|(p, n)| Edit::Repeat(p, n)),
        any::<usize>().prop_map(Edit::Truncate),
    ]
}

fn apply(mut v: Vec<u8>, edits: &[Edit]) -> Vec<u8> {
    for e in edits {
        let len = v.len().max(1);
        match *e {
            Edit::Set(p, b) if !v.is_empty() => v[p % len] = b,
            Edit::Set(_, b) | Edit::Insert(_, b) if v.is_empty() => v.push(b),
            Edit::Insert(p, b) => v.insert(p % (len + 1), b),
            Edit::Delete(p, n) => {
                let at = p % len;
                v.drain(at..(at + n).min(v.len()));
            }
            Edit::Repeat(p, n) => {
                let at = p % len;
                let run: Vec<u8> = v[at.min(v.len())..(at + n).min(v.len())].to_vec();
                v.splice(at.min(v.len())..at.min(v.len()), run);
            }
            Edit::Truncate(p) => v.truncate(p % len),
            Edit::Set(..) => {}
        }
    }
    v
}

/// Mutated corpus files: `cases` per target.
fn mutate(name: &str, cases: u32) {
    let t = stackchess_checks::target(name).expect("a target");
    let inputs = corpus(t);
    let strategy = (0..inputs.len(), prop::collection::vec(edit(), 1..8));
    let mut runner = proptest::test_runner::TestRunner::new(ProptestConfig { cases, ..ProptestConfig::default() });
    runner
        .run(&strategy, |(i, edits)| {
            (t.check)(&apply(inputs[i].clone(), &edits));
            Ok(())
        })
        .unwrap_or_else(|e| panic!("{name}: {e}"));
}

/// Random inputs (bytes, and text of the parsers' alphabet): `cases` per target.
fn random(name: &str, cases: u32) {
    let t = stackchess_checks::target(name).expect("a target");
    let strategy =
        prop_oneof![prop::collection::vec(any::<u8>(), 0..256), prop::collection::vec(telling_byte(), 0..256),];
    let mut runner = proptest::test_runner::TestRunner::new(ProptestConfig { cases, ..ProptestConfig::default() });
    runner
        .run(&strategy, |data| {
            (t.check)(&data);
            Ok(())
        })
        .unwrap_or_else(|e| panic!("{name}: {e}"));
}

macro_rules! target_tests {
    ($($name:ident: $cases:expr),* $(,)?) => {
        $(
            #[test]
            fn $name() {
                mutate(stringify!($name), $cases);
                random(stringify!($name), $cases / 2);
            }
        )*
    };
}

target_tests! {
    lfen: 400,
    moves: 400,
    rule_file: 200,
    rule_set: 100,
    params: 300,
    param_pair: 300,
    games_csv: 300,
    plies_csv: 300,
    book: 200,
    pgn: 300,
    epd: 300,
    time_control: 400,
    shard: 400,
    engine_spec: 400,
    uci: 400,
    net: 200,
    data: 200,
}

#[test]
fn every_target_has_a_test_here() {
    let here = include_str!("targets.rs");
    for t in TARGETS {
        assert!(here.contains(&format!("    {}: ", t.name)), "{} has no line in target_tests!", t.name);
    }
}
