//! The invariants every parser of outside input keeps, as functions of the raw bytes handed to
//! it (docs/reliability.md). Each is one fuzz target: `fuzz/` runs them under libFuzzer on the
//! nightly toolchain, this crate's tests run them on mutated seeds and random inputs with
//! proptest on stable, and `cargo xtask fuzz` runs both and the large run of random rule sets.
//!
//! A target returns when the input is refused (an error is an answer) or kept every invariant,
//! and panics, naming the input's fault, when an invariant is broken: a crash found by the fuzzer
//! or a failed test. Nothing here prints.
//!
//! Adding a target is a function `fn(&[u8])` and one line in [`TARGETS`]; its seed corpus is a
//! folder `fuzz/corpus/<name>/` (`cargo xtask fuzz --seed` writes the generated seeds), and the
//! fuzz binary `fuzz/fuzz_targets/<name>.rs` is three lines calling it.

#![allow(
    clippy::missing_panics_doc,
    reason = "a test harness: every check panics on a broken invariant, as its doc says"
)]

pub mod files;
pub mod input;
pub mod learned;
pub mod position;
pub mod records;
pub mod rulegen;
pub mod rules;
pub mod seeds;
pub mod specs;

/// One fuzz target: its name (the corpus folder and the fuzz binary) and its check.
#[derive(Clone, Copy)]
pub struct Target {
    /// `lfen`, `rule_file`, ...
    pub name: &'static str,
    /// What it reads, for listings.
    pub reads: &'static str,
    /// The check: returns on a refusal or a kept invariant, panics on a broken one.
    pub check: fn(&[u8]),
}

/// Every target.
pub const TARGETS: &[Target] = &[
    Target { name: "lfen", reads: "an LFEN of a built-in variant", check: position::lfen },
    Target { name: "moves", reads: "move text (coordinates, SAN) in a played position", check: position::moves },
    Target { name: "rule_file", reads: "a TOML rule file", check: rules::rule_file },
    Target { name: "rule_set", reads: "a random rule set drawn by the input's bytes", check: rules::rule_set },
    Target { name: "params", reads: "a parameter file", check: files::params },
    Target { name: "param_pair", reads: "a --param key=value override", check: files::param_pair },
    Target { name: "games_csv", reads: "a games.csv file and its journal repair", check: records::games_csv },
    Target { name: "plies_csv", reads: "a plies.csv file and its journal repair", check: records::plies_csv },
    Target { name: "book", reads: "a book file", check: files::book },
    Target { name: "pgn", reads: "a PGN opening suite", check: files::pgn },
    Target { name: "epd", reads: "an EPD suite", check: files::epd },
    Target { name: "time_control", reads: "a time control", check: specs::time_control },
    Target { name: "shard", reads: "a shard spec", check: specs::shard },
    Target { name: "engine_spec", reads: "an --engine spec", check: specs::engine_spec },
    Target { name: "uci", reads: "lines of UCI commands", check: specs::uci },
    Target { name: "net", reads: "a net file", check: learned::net },
    Target { name: "data", reads: "a data file of training positions", check: learned::data },
];

/// The target named `name`.
#[must_use]
pub fn target(name: &str) -> Option<&'static Target> {
    TARGETS.iter().find(|t| t.name == name)
}
