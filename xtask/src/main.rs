//! `cargo xtask <task>`: chores that are not tests.
//!
//! - `bless-perft [VARIANT...]`: reads `data/perft/<variant>.positions`, computes perft counts with
//!   the fast generator, cross-checks every count the slow reference generator can reach in
//!   reasonable time, and writes `data/perft/<variant>.perft`.
//! - `perft-deep`: the deep counts the normal test run skips (fide start position depth 6 and the
//!   full golden files), checked against the files.
//! - `ci`: runs `.ci/run` itself (fmt, clippy, the tests, the PolyGlot test, python-chess, the
//!   Python package, the browser checks), so the two cannot drift apart.
//! - `report-check`, `viewer-check`, `serve-check`: the HTML report, the game viewer and the
//!   analysis board of `stackchess serve` in headless Chromium.
//! - `fuzz [--seconds S] [--rule-sets N] [--only T1,T2] [--seed]`: the random rule sets and the
//!   coverage-guided fuzz targets (`fuzz.rs`, docs/reliability.md).

mod fuzz;

use anyhow::{bail, Context, Result};
use stackchess_core::Rules as _;
use stackchess_core::{parse_perft_file, Position};
use stackchess_variants::{Variant, WithPosition};
use std::ffi::OsStr;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Instant;

/// Counts above this are not recomputed by the reference generator (about 1M nodes/s).
const REFERENCE_LIMIT: u64 = 1_500_000;
/// No depth whose count is expected above this is computed (the start position goes to depth 4 at least).
const BLESS_LIMIT: u64 = 200_000_000;

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).parent().expect("xtask sits in the workspace").to_path_buf()
}

/// `(comment, lfen)` pairs of a positions file: `# comment` lines, each followed by an LFEN line.
fn read_positions(path: &Path) -> Result<Vec<(String, String)>> {
    let text = std::fs::read_to_string(path).with_context(|| format!("reading {}", path.display()))?;
    let mut out = Vec::new();
    let mut comment = String::new();
    for line in text.lines().map(str::trim).filter(|l| !l.is_empty()) {
        if let Some(c) = line.strip_prefix('#') {
            c.trim().clone_into(&mut comment);
        } else {
            out.push((std::mem::take(&mut comment), line.to_owned()));
        }
    }
    Ok(out)
}

struct Bless<'a> {
    positions: &'a [(String, String)],
}

impl WithPosition for Bless<'_> {
    type Output = Result<String>;
    fn call<P: Position>(self, rules: P::Rules) -> Result<String> {
        let name = rules.name();
        let mut out = format!(
            "# Golden perft counts for {name}, written by `cargo xtask bless-perft {name}` from {name}.positions.\n\
             # Counts come from the fast generator; every count up to {REFERENCE_LIMIT} nodes was recomputed by the\n\
             # independent reference generator (crates/reference) and agreed.\n\n"
        );
        for (i, (comment, lfen)) in self.positions.iter().enumerate() {
            let pos = rules.from_lfen(lfen).with_context(|| format!("{name} position {}: {lfen}", i + 1))?;
            let _ = writeln!(out, "# {comment}\nid {}\nlfen {}", i + 1, pos.to_lfen());
            let mut prev = 1u64;
            for depth in 1.. {
                let t = Instant::now();
                let n = pos.perft(depth);
                if n <= REFERENCE_LIMIT {
                    let r = stackchess_reference::perft(name, &pos.to_lfen(), depth).map_err(anyhow::Error::msg)?;
                    if r != n {
                        bail!("{name} position {} depth {depth}: fast {n}, reference {r}: {lfen}", i + 1);
                    }
                }
                let _ = writeln!(out, "perft {depth} {n}");
                eprintln!("{name} #{} depth {depth}: {n} ({:.2?})", i + 1, t.elapsed());
                // Stop when the next depth would exceed the limit, at the branching factor seen so far.
                let next = n.saturating_mul(n / prev.max(1));
                prev = n;
                if (next > BLESS_LIMIT && !(i == 0 && depth < 4)) || depth >= 7 {
                    break;
                }
            }
            out.push('\n');
        }
        Ok(out)
    }
}

fn bless(args: &[String]) -> Result<()> {
    let variants: Vec<Variant> = if args.is_empty() {
        vec![Variant::Malka, Variant::Traditional, Variant::AirAttack]
    } else {
        args.iter().map(|a| a.parse::<Variant>().map_err(anyhow::Error::msg)).collect::<Result<_>>()?
    };
    for v in variants {
        let dir = root().join("data/perft");
        let positions = read_positions(&dir.join(format!("{v}.positions")))?;
        let text = v.with(Bless { positions: &positions })?;
        std::fs::write(dir.join(format!("{v}.perft")), text)?;
    }
    Ok(())
}

struct Deep;

impl WithPosition for Deep {
    type Output = Result<()>;
    fn call<P: Position>(self, rules: P::Rules) -> Result<()> {
        let name = rules.name();
        let path = root().join(format!("data/perft/{name}.perft"));
        let text = std::fs::read_to_string(&path).with_context(|| format!("reading {}", path.display()))?;
        for entry in parse_perft_file(&text).map_err(|e| anyhow::anyhow!("{}: {e}", path.display()))? {
            let p = rules.from_lfen(&entry.lfen).with_context(|| format!("{}:{}", path.display(), entry.line))?;
            for (d, n) in entry.counts {
                let t = Instant::now();
                let got = p.perft(d);
                println!("{name} line {} depth {d}: {got} ({:.2?})", entry.line, t.elapsed());
                if got != n {
                    bail!("{name}: perft {d} is {got}, {}:{} says {n}", path.display(), entry.line);
                }
            }
        }
        Ok(())
    }
}

fn deep() -> Result<()> {
    for v in Variant::ALL {
        v.with(Deep)?;
    }
    Ok(())
}

/// `program` without the variables `cargo run` set for this process (`CARGO_MANIFEST_DIR`,
/// `CARGO_PKG_*`, ...): a build script that watches one (ring's watches `CARGO_MANIFEST_DIR`)
/// would otherwise see it change, and a nested `cargo test` rebuild what `.ci/run`'s own
/// `cargo test` had built.
fn command(program: &str) -> Command {
    let mut cmd = Command::new(program);
    for (name, _) in std::env::vars_os() {
        let name = name.to_string_lossy();
        let set_by_run = name.starts_with("CARGO_PKG_")
            || [
                "CARGO_MANIFEST_DIR",
                "CARGO_MANIFEST_PATH",
                "CARGO_CRATE_NAME",
                "CARGO_BIN_NAME",
                "CARGO_PRIMARY_PACKAGE",
            ]
            .contains(&name.as_ref());
        if set_by_run {
            cmd.env_remove(name.as_ref());
        }
    }
    cmd
}

fn run(cmd: &mut Command) -> Result<()> {
    let args: Vec<_> = cmd.get_args().map(OsStr::to_string_lossy).collect();
    eprintln!("$ {} {}", cmd.get_program().to_string_lossy(), args.join(" "));
    let status = cmd.current_dir(root()).status()?;
    if !status.success() {
        bail!("{cmd:?} failed: {status}");
    }
    Ok(())
}

fn ci() -> Result<()> {
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("../.ci/run");
    run(command("bash").arg(script))
}

/// Renders the HTML report of the analysis fixtures in headless Chromium and checks the
/// screenshot holds its charts (the ignored test `report_renders_in_headless_chromium`).
fn report_check() -> Result<()> {
    if Command::new("chromium").arg("--version").output().is_err() {
        bail!("chromium is not on the PATH (apt-get install -y chromium)");
    }
    // `--workspace` (the test target is the analysis crate's alone) resolves features as `cargo test
    // --workspace` does, so nothing is rebuilt.
    run(command("cargo").args(["test", "--workspace", "--test", "output", "--"]).args([
        "--ignored",
        "--exact",
        "report_renders_in_headless_chromium",
    ]))
}

/// Runs the CLI's ignored browser tests `test` in headless Chromium: `viewer_browser` (a small real
/// run stepped through and filtered; a page of 1000 games timed) or `serve_browser` (the analysis
/// board clicked and dragged as a person uses it).
fn browser_check(test: &str) -> Result<()> {
    if Command::new("chromium").arg("--version").output().is_err() {
        bail!("chromium is not on the PATH (apt-get install -y chromium)");
    }
    // `--workspace` (the test target is the CLI's alone) resolves features as `cargo test --workspace`
    // does, so CI reuses that build instead of building polars again for `-p stackchess`.
    run(command("cargo").args(["test", "--workspace", "--test", test, "--"]).args([
        "--ignored",
        "--nocapture",
        "--test-threads=1",
    ]))
}

fn main() -> Result<()> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match args.first().map(String::as_str) {
        Some("bless-perft") => bless(&args[1..]),
        Some("perft-deep") => deep(),
        Some("ci") => ci(),
        Some("report-check") => report_check(),
        Some("viewer-check") => browser_check("viewer_browser"),
        Some("serve-check") => browser_check("serve_browser"),
        Some("fuzz") => fuzz::fuzz(&root(), &args[1..]),
        Some("fuzz-rule-sets") => fuzz::rule_sets_child(&args[1..]),
        _ => bail!(
            "usage: cargo xtask bless-perft [VARIANT...] | perft-deep | ci | report-check | viewer-check | serve-check | fuzz [--seconds S] [--rule-sets N] [--only T1,T2] [--seed]"
        ),
    }
}
