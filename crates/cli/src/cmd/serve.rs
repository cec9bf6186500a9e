//! `stackchess serve`: the analysis board in the browser (docs/serve.md). Flags, one call into
//! the serve crate, the URL printed.

use crate::common::EngineArgs;
use anyhow::{Context, Result};
use stackchess_variants::{Variant, VariantArg};
use std::io::Write as _;
use std::net::IpAddr;
use std::path::PathBuf;

/// Flags of `serve`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// Run directories (or games.csv files) whose games the page lists and opens.
    #[arg(value_name = "RUN_DIR")]
    runs: Vec<PathBuf>,
    /// The port (0: any free one).
    #[arg(long, default_value_t = 8642)]
    port: u16,
    /// The address to listen on: 127.0.0.1 (this machine only) unless told otherwise.
    #[arg(long, default_value = "127.0.0.1")]
    host: IpAddr,
    /// Open the page in the default browser.
    #[arg(long)]
    open: bool,
    /// The rule sets the page offers, the first shown first (repeatable; malka, traditional,
    /// fide, air-attack or rules:FILE); all four built-ins when none is given.
    #[arg(long = "variant", short = 'v', value_name = "VARIANT")]
    variants: Vec<VariantArg>,
    /// A rule file to offer as well (repeatable; also what a run's user-defined games need).
    #[arg(long = "rules", value_name = "FILE")]
    rules: Vec<PathBuf>,
    #[command(flatten)]
    engine: EngineArgs,
    /// Search threads of each tab's engine.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u16).range(1..=64))]
    threads: u16,
    /// The most positions a tab's move tree keeps.
    #[arg(long, default_value_t = 5000, value_parser = clap::value_parser!(u32).range(2..=1_000_000))]
    max_tree: u32,
}

/// Runs the command: serves until the process is stopped.
pub fn run(a: &Args) -> Result<()> {
    // The rule files first, so that `-v NAME` may name one of them.
    let files: Vec<Variant> = a.rules.iter().map(|p| Variant::load_rules(p)).collect::<Result<_, _>>()?;
    let mut variants: Vec<Variant> = a.variants.iter().map(VariantArg::load).collect::<Result<_, _>>()?;
    if variants.is_empty() {
        variants = Variant::ALL.to_vec();
    }
    for v in files {
        if !variants.contains(&v) {
            variants.push(v);
        }
    }
    let variants = variants.into_iter().map(|v| Ok((v, a.engine.config(v.name())?))).collect::<Result<Vec<_>>>()?;
    let options = stackchess_serve::Options {
        host: a.host,
        port: a.port,
        variants,
        runs: a.runs.clone(),
        threads: usize::from(a.threads),
        cap: a.max_tree as usize,
        ..stackchess_serve::Options::default()
    };
    let server = stackchess_serve::bind(options)?;
    for note in server.notes() {
        eprintln!("{note}");
    }
    let url = server.url();
    println!("stackchess serve: {url} (Ctrl-C stops it)");
    std::io::stdout().flush()?;
    if a.open {
        open(&url);
    }
    server.run().context("serving")
}

/// Opens `url` in the desktop's browser, or says it could not.
fn open(url: &str) {
    let opener = if cfg!(target_os = "macos") { "open" } else { "xdg-open" };
    if let Err(e) = std::process::Command::new(opener).arg(url).spawn() {
        eprintln!("note: could not open a browser ({opener}: {e}); open {url} yourself");
    }
}
