//! `cargo xtask fuzz`: the fuzz runs of docs/reliability.md.
//!
//! 1. Random rule sets (stable): `--rule-sets N` (10,000 by default) drawn from the whole
//!    rule-file space, each compiled or refused, every compiled one cross-checked against the
//!    reference generator; in child processes of 1,000 (a compiled rule set's tables live until
//!    its process ends), two at a time.
//! 2. Coverage-guided (libFuzzer): every target of `stackchess_checks::TARGETS` for
//!    `--seconds S` (60 by default) on its corpus `fuzz/corpus/<target>/`, new inputs kept in
//!    `fuzz/work/<target>/`, crashes in `fuzz/artifacts/<target>/`. The targets are built by
//!    cargo with cargo-fuzz's flags ([`FUZZ_RUSTFLAGS`]), on the toolchain in use: cargo-fuzz
//!    itself (`cargo fuzz run <target>`) is only needed to work on one target by hand.
//!
//! `--seed` writes the generated seeds (`stackchess_checks::seeds`) into the corpus folders
//! first; `--only a,b` limits step 2 to those targets; `--fuzz-seed N` gives libFuzzer a fixed
//! seed, so a run repeats the same mutations (CI: a fault there is a regression, not a new find
//! of a random search, which would fail a change that touched nothing near it).

use anyhow::{bail, Context, Result};
use stackchess_checks::rules::{random_rule_sets, Tally};
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::Instant;

/// Rule sets per child process.
const CHUNK: u64 = 1000;
/// The base seed of the random rule sets.
const RULE_SEED: u64 = 0x0f22_5eed;
/// The longest libFuzzer session of a target whose inputs leak compiled tables (rule files);
/// longer runs are several sessions on the same corpus.
const LEAKY_SESSION_S: u64 = 60;

struct Options {
    seconds: u64,
    rule_sets: u64,
    seed: bool,
    only: Option<Vec<String>>,
    /// libFuzzer's `-seed`: the same sequence of mutations every run (CI), instead of a new one.
    fuzz_seed: Option<u64>,
}

fn options(args: &[String]) -> Result<Options> {
    let mut o = Options { seconds: 60, rule_sets: 10_000, seed: false, only: None, fuzz_seed: None };
    let mut it = args.iter();
    while let Some(a) = it.next() {
        let mut value = |what: &str| it.next().with_context(|| format!("{a} needs {what}")).cloned();
        match a.as_str() {
            "--seconds" => o.seconds = value("a number of seconds")?.parse().context("--seconds")?,
            "--rule-sets" => o.rule_sets = value("a count")?.parse().context("--rule-sets")?,
            "--only" => o.only = Some(value("target names")?.split(',').map(str::to_owned).collect()),
            "--seed" => o.seed = true,
            "--fuzz-seed" => o.fuzz_seed = Some(value("a number")?.parse().context("--fuzz-seed")?),
            _ => bail!(
                "cargo xtask fuzz [--seconds S] [--rule-sets N] [--only T1,T2] [--seed] [--fuzz-seed N]: unknown {a}"
            ),
        }
    }
    Ok(o)
}

/// `cargo xtask fuzz ...`.
pub fn fuzz(root: &Path, args: &[String]) -> Result<()> {
    let o = options(args)?;
    if o.seed {
        write_seeds(root)?;
    }
    if o.rule_sets > 0 {
        rule_sets(o.rule_sets)?;
    }
    if o.seconds > 0 {
        coverage_guided(root, &o)?;
    }
    Ok(())
}

/// Writes every target's generated seeds as `fuzz/corpus/<target>/seed-<hash>` (found inputs stay).
fn write_seeds(root: &Path) -> Result<()> {
    for (name, inputs) in stackchess_checks::seeds::seeds(root) {
        let dir = root.join("fuzz/corpus").join(name);
        std::fs::create_dir_all(&dir)?;
        for old in std::fs::read_dir(&dir)? {
            let path = old?.path();
            if path.file_name().is_some_and(|n| n.to_string_lossy().starts_with("seed-")) {
                std::fs::remove_file(path)?;
            }
        }
        for input in &inputs {
            let hash = fnv1a(input);
            std::fs::write(dir.join(format!("seed-{hash:016x}")), input)?;
        }
        eprintln!("fuzz/corpus/{name}: {} seeds", inputs.len());
    }
    Ok(())
}

/// FNV-1a, for seed file names.
fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |h, &b| (h ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01b3))
}

/// The child process of step 1: `cargo xtask fuzz-rule-sets FIRST COUNT` prints its tally.
pub fn rule_sets_child(args: &[String]) -> Result<()> {
    let [first, count] = args else { bail!("fuzz-rule-sets FIRST COUNT") };
    let t = random_rule_sets(RULE_SEED, first.parse()?, count.parse()?, 24);
    println!("{} {} {} {}", t.drawn, t.refused, t.agreed, t.positions);
    Ok(())
}

fn rule_sets(n: u64) -> Result<()> {
    let start = Instant::now();
    let exe = std::env::current_exe()?;
    let spawn = |first: u64| -> Result<std::process::Child> {
        let count = CHUNK.min(n - first);
        Ok(Command::new(&exe)
            .args(["fuzz-rule-sets", &first.to_string(), &count.to_string()])
            .stdout(Stdio::piped())
            .spawn()?)
    };
    let mut total = Tally::default();
    let firsts: Vec<u64> = (0..n).step_by(CHUNK as usize).collect();
    for pair in firsts.chunks(2) {
        let children: Vec<_> = pair.iter().map(|&f| spawn(f)).collect::<Result<_>>()?;
        for (child, first) in children.into_iter().zip(pair) {
            let out = child.wait_with_output()?;
            if !out.status.success() {
                bail!(
                    "random rule sets {first}..: a check failed ({}); the rule file is in the message above",
                    out.status
                );
            }
            let text = String::from_utf8_lossy(&out.stdout);
            let v: Vec<u64> = text.split_whitespace().map(str::parse).collect::<Result<_, _>>()?;
            let [drawn, refused, agreed, positions] = v[..] else { bail!("child printed '{text}'") };
            total.drawn += drawn;
            total.refused += refused;
            total.agreed += agreed;
            total.positions += positions;
        }
    }
    println!(
        "random rule sets: {} drawn, {} refused (each naming its key), {} compiled and agreeing with the reference \
         on perft(2) and {} positions of random play ({:.0?})",
        total.drawn,
        total.refused,
        total.agreed,
        total.positions,
        start.elapsed()
    );
    Ok(())
}

/// The flags cargo-fuzz builds a target with under `-s none`: libFuzzer's coverage
/// instrumentation, `cfg(fuzzing)`, debug assertions and overflow checks (no sanitizer: the code
/// is safe Rust). Plain rustc takes them, so no cargo-fuzz and no nightly toolchain are needed.
const FUZZ_RUSTFLAGS: [&str; 9] = [
    "-Cpasses=sancov-module",
    "-Cllvm-args=-sanitizer-coverage-level=4",
    "-Cllvm-args=-sanitizer-coverage-inline-8bit-counters",
    "-Cllvm-args=-sanitizer-coverage-pc-table",
    "-Cllvm-args=-sanitizer-coverage-trace-compares",
    "--cfg",
    "fuzzing",
    "-Cdebug-assertions",
    "-Coverflow-checks",
];

/// The host's target triple (`rustc -vV`), so the flags reach the targets and not build scripts.
fn host_triple() -> Result<String> {
    let out = Command::new("rustc").arg("-vV").output().context("running rustc -vV")?;
    let text = String::from_utf8_lossy(&out.stdout);
    let host = text.lines().find_map(|l| l.strip_prefix("host: ")).context("rustc -vV names no host")?;
    Ok(host.trim().to_owned())
}

fn coverage_guided(root: &Path, o: &Options) -> Result<()> {
    let fuzz = root.join("fuzz");
    let t = Instant::now();
    let host = host_triple()?;
    // The fuzz crate's own target folder, whatever CARGO_TARGET_DIR the workspace builds in (the
    // same folder `cargo fuzz` uses, so either builds for the other).
    let status = crate::command("cargo")
        .args(["build", "--release", "--bins", "--target", &host])
        .env("RUSTFLAGS", FUZZ_RUSTFLAGS.join(" "))
        .env_remove("CARGO_TARGET_DIR")
        .env_remove("CARGO_ENCODED_RUSTFLAGS")
        .current_dir(&fuzz)
        .status()?;
    if !status.success() {
        bail!("building the fuzz targets failed: {status}");
    }
    println!("built the fuzz targets ({:.0?})", t.elapsed());
    let bin = fuzz.join("target").join(&host).join("release");
    let mut failed = Vec::new();
    println!("{:<14} {:>10} {:>8} {:>6} {:>7}  result", "target", "execs", "exec/s", "cov", "corpus");
    let chosen: Vec<_> = stackchess_checks::TARGETS
        .iter()
        .filter(|t| o.only.as_ref().is_none_or(|only| only.iter().any(|n| n == t.name)))
        .collect();
    // Two targets at a time (libFuzzer uses one core per process).
    for pair in chosen.chunks(2) {
        let ran: Vec<Result<Ran>> = std::thread::scope(|s| {
            let jobs: Vec<_> = pair
                .iter()
                .map(|t| s.spawn(|| run_target(&fuzz, &bin.join(t.name), t.name, o.seconds, o.fuzz_seed)))
                .collect();
            jobs.into_iter().map(|j| j.join().unwrap_or_else(|_| bail!("a fuzz thread panicked"))).collect()
        });
        for (target, r) in pair.iter().zip(ran) {
            let r = r?;
            println!(
                "{:<14} {:>10} {:>8} {:>6} {:>7}  {}",
                target.name,
                r.execs,
                r.execs / o.seconds.max(1),
                r.cov,
                r.corpus,
                r.failure.as_deref().unwrap_or("ok")
            );
            if let Some(f) = r.failure {
                failed.push(format!("{}: {f}", target.name));
            }
        }
    }
    if !failed.is_empty() {
        bail!("fuzz targets broke an invariant:\n  {}", failed.join("\n  "));
    }
    Ok(())
}

/// What one target's sessions did.
#[derive(Default)]
struct Ran {
    execs: u64,
    cov: u64,
    corpus: u64,
    failure: Option<String>,
}

fn run_target(fuzz: &Path, bin: &Path, name: &str, seconds: u64, seed: Option<u64>) -> Result<Ran> {
    let work = fuzz.join("work").join(name);
    let artifacts = fuzz.join("artifacts").join(name);
    std::fs::create_dir_all(&work)?;
    std::fs::create_dir_all(&artifacts)?;
    let leaky = name.starts_with("rule_");
    let session = if leaky { LEAKY_SESSION_S.min(seconds) } else { seconds };
    let mut ran = Ran::default();
    let mut left = seconds;
    while left > 0 {
        let s = session.min(left);
        left -= s;
        let out = Command::new(bin)
            .arg(format!("-max_total_time={s}"))
            .args(seed.map(|n| format!("-seed={n}")))
            .arg(format!("-artifact_prefix={}/", artifacts.display()))
            .args(["-timeout=20", "-rss_limit_mb=4096", "-print_final_stats=1"])
            .arg(&work)
            .arg(fuzz.join("corpus").join(name))
            .output()
            .with_context(|| format!("running {}", bin.display()))?;
        let log = String::from_utf8_lossy(&out.stderr);
        let done = log.lines().rev().find(|l| l.contains("DONE ") && l.contains("cov:"));
        ran.execs += stat(&log, "stat::number_of_executed_units:").unwrap_or(0);
        if let Some(line) = done {
            ran.cov = ran.cov.max(field(line, "cov:").unwrap_or(0));
            ran.corpus = field(line, "corp:").unwrap_or(ran.corpus);
        }
        if !out.status.success() {
            let crash = log.lines().find(|l| l.contains("Test unit written to")).unwrap_or("no test unit written");
            let panic = log.lines().find(|l| l.contains("panicked at")).unwrap_or("");
            ran.failure = Some(format!("{panic} {crash}"));
            std::fs::write(artifacts.join("last.log"), log.as_bytes())?;
            break;
        }
    }
    Ok(ran)
}

/// The number after `key` on a `-print_final_stats` line.
fn stat(log: &str, key: &str) -> Option<u64> {
    log.lines().find_map(|l| l.trim().strip_prefix(key)).and_then(|v| v.trim().parse().ok())
}

/// The number after `key` on libFuzzer's status line (`cov: 1234`, `corp: 56/7Kb`).
fn field(line: &str, key: &str) -> Option<u64> {
    let rest = &line[line.find(key)? + key.len()..];
    rest.trim_start().split(|c: char| !c.is_ascii_digit()).next()?.parse().ok()
}
