//! The golden perft files in `data/perft/`: each rule crate checks its own up to two million nodes;
//! all of them here in the ignored test (or `cargo xtask perft-deep`).

use stackchess_core::Rules as _;
use stackchess_core::{check_perft_file, parse_perft_file, Position};
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
        check_perft_file::<P>(rules, &text, self.node_limit).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
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
