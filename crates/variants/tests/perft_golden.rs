//! The golden perft files in `data/perft/`: every count up to a node limit here; all of them in
//! the ignored test (or `cargo xtask perft-deep`).

use stackchess_core::Rules as _;
use stackchess_core::{parse_perft_file, Position};
use stackchess_variants::{Variant, WithPosition};
use std::path::PathBuf;

struct Check {
    node_limit: u64,
}

impl WithPosition for Check {
    type Output = usize;
    fn call<P: Position>(self, rules: P::Rules) -> usize {
        let name = rules.name();
        let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join(format!("../../data/perft/{name}.perft"));
        let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let entries = parse_perft_file(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        assert!(entries.len() >= 6, "{name}: too few golden positions");
        let mut checked = 0;
        for e in entries {
            let pos = rules.from_lfen(&e.lfen).unwrap_or_else(|err| panic!("{}:{}: {err}", path.display(), e.line));
            assert_eq!(pos.to_lfen(), e.lfen, "{name}: LFEN does not round-trip at line {}", e.line);
            for (d, n) in e.counts.into_iter().filter(|&(_, n)| n <= self.node_limit) {
                assert_eq!(pos.perft(d), n, "{name}: perft({d}) of {} (line {})", e.lfen, e.line);
                checked += 1;
            }
        }
        checked
    }
}

#[test]
fn golden_perft_counts_up_to_two_million_nodes() {
    for v in Variant::ALL {
        assert!(v.with(Check { node_limit: 2_000_000 }) > 20, "{v}: too few counts checked");
    }
}

#[test]
#[ignore = "deep counts: minutes in the test profile; also `cargo xtask perft-deep`"]
fn golden_perft_counts_all() {
    for v in Variant::ALL {
        v.with(Check { node_limit: u64::MAX });
    }
}

#[test]
fn golden_files_hold_what_the_rules_require() {
    // The start positions go to depth 4 at least, and every variant has ten positions beyond the start.
    for v in [Variant::Malka, Variant::Traditional, Variant::AirAttack] {
        let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join(format!("../../data/perft/{v}.perft"));
        let entries = parse_perft_file(&std::fs::read_to_string(path).unwrap()).unwrap();
        assert!(entries.len() >= 11, "{v}");
        assert!(entries[0].counts.iter().any(|&(d, _)| d >= 4), "{v}");
    }
}
