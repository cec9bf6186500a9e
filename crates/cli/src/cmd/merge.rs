//! `stackchess merge`: the directories of one run's shards (from `selfplay --shard I/N`, run on
//! several machines) joined into one run directory; or data files (`datagen`) joined into one.

use anyhow::Result;
use std::path::PathBuf;

/// Flags of `merge`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// The new directory for the merged run (must be new or empty), or the new data file.
    #[arg(long)]
    pub out: PathBuf,
    /// The run directories to merge: shards of one run (any subset, any order; repeats are fine);
    /// or data files of one rule set (positions of an earlier file are not repeated).
    #[arg(required = true, value_name = "DIR|FILE")]
    pub inputs: Vec<PathBuf>,
}

/// Runs the command.
pub fn run(a: &Args) -> Result<()> {
    if a.inputs.iter().all(|p| p.is_file()) {
        let inputs: Vec<&std::path::Path> = a.inputs.iter().map(PathBuf::as_path).collect();
        let command = std::env::args().collect::<Vec<_>>().join(" ");
        let n = stackchess_datagen::merge(&inputs, &a.out, &command)?;
        println!("Merged {} data files into {}: {n} positions", a.inputs.len(), a.out.display());
        return Ok(());
    }
    let m = stackchess_selfplay::merge(&a.out, &a.inputs)?;
    let shards: Vec<String> = m.shards.iter().map(ToString::to_string).collect();
    println!(
        "Merged run {} from {} directories (shards {}) into {}: {} of {} games{}",
        m.run_key,
        a.inputs.len(),
        shards.join(", "),
        a.out.display(),
        m.records,
        m.games,
        if m.duplicates > 0 { format!(", {} duplicate games written once", m.duplicates) } else { String::new() }
    );
    if !m.missing.is_empty() {
        let shown: Vec<String> = m.missing.iter().take(20).map(ToString::to_string).collect();
        let more = if m.missing.len() > 20 { format!(" and {} more", m.missing.len() - 20) } else { String::new() };
        println!(
            "Missing {} games (indices {}{more}): run the run's selfplay command with --resume --out {} to play them",
            m.missing.len(),
            shown.join(", "),
            a.out.display()
        );
    }
    Ok(())
}
