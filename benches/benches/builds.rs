//! Two builds of stackchess against each other in one criterion run, as whole processes: the
//! perft of every built-in variant and the `bench` search workload. Set `STACKCHESS_BEFORE` and
//! `STACKCHESS_AFTER` to the two binaries (without them nothing is measured):
//!
//! ```text
//! STACKCHESS_BEFORE=/path/to/old/stackchess STACKCHESS_AFTER=target/release/stackchess \
//!   cargo bench -p stackchess-benches --bench builds
//! ```
//!
//! Each command's output is checked to be the same for both builds before timing (the perft
//! count, the bench signature), so a faster wrong build cannot pass.

use criterion::{criterion_group, criterion_main, Criterion};
use std::process::Command;
use std::time::Duration;

/// The workloads: a name and the arguments.
const WORK: [(&str, &[&str]); 5] = [
    ("perft-malka-d4", &["perft", "-v", "malka", "-d", "4"]),
    ("perft-traditional-d4", &["perft", "-v", "traditional", "-d", "4"]),
    ("perft-air-attack-d4", &["perft", "-v", "air-attack", "-d", "4"]),
    ("perft-fide-d6", &["perft", "-v", "fide", "-d", "6"]),
    ("bench", &["bench"]),
];

/// The output that must agree between builds (perft's count, bench's node counts), without the
/// times.
fn result(bin: &str, args: &[&str]) -> String {
    let out = Command::new(bin).args(args).output().unwrap_or_else(|e| panic!("cannot run {bin}: {e}"));
    assert!(out.status.success(), "{bin} {args:?} failed: {}", String::from_utf8_lossy(&out.stderr));
    let text = String::from_utf8_lossy(&out.stdout).into_owned() + &String::from_utf8_lossy(&out.stderr);
    text.lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| l.split_whitespace().take_while(|w| *w != "time" && *w != "nps").collect::<Vec<_>>().join(" "))
        .collect::<Vec<_>>()
        .join("\n")
}

fn builds(c: &mut Criterion) {
    let (Ok(before), Ok(after)) = (std::env::var("STACKCHESS_BEFORE"), std::env::var("STACKCHESS_AFTER")) else {
        eprintln!("builds: set STACKCHESS_BEFORE and STACKCHESS_AFTER to two stackchess binaries");
        return;
    };
    for (name, args) in WORK {
        let (a, b) = (result(&before, args), result(&after, args));
        assert!(!a.is_empty(), "{name}: no output from {before}");
        assert_eq!(a, b, "{name}: the two builds disagree");
        let mut g = c.benchmark_group(name);
        g.sample_size(10).warm_up_time(Duration::from_secs(1)).measurement_time(Duration::from_secs(8));
        for (label, bin) in [("before", &before), ("after", &after)] {
            g.bench_function(label, |x| x.iter(|| Command::new(bin).args(args).output().expect("runs")));
        }
        g.finish();
    }
}

criterion_group!(benches, builds);
criterion_main!(benches);
