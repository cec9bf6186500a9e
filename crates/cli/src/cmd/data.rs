//! `stackchess data`: what a data file (`datagen`) holds: its header and counts, and with
//! `--positions` every position as a line (LFEN, score, result, game, ply).

use anyhow::Result;
use stackchess_datagen::{DataReader, WhiteResult};
use std::io::Write as _;
use std::path::PathBuf;

/// Flags of `data`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// Data files.
    #[arg(required = true, value_name = "FILE")]
    pub files: Vec<PathBuf>,
    /// Print every position: LFEN, White's score, White's result, game key, ply (tab-separated).
    #[arg(long)]
    pub positions: bool,
}

/// Runs `data`.
pub fn run(a: &Args) -> Result<()> {
    let mut out = std::io::stdout().lock();
    for f in &a.files {
        let mut r = DataReader::open(f)?;
        let h = r.header.clone();
        writeln!(
            out,
            "# {}: {} positions from {} games of {} (rules {}, {} levels)",
            f.display(),
            r.positions,
            r.games,
            h.variant,
            h.rules_id,
            h.levels
        )?;
        writeln!(out, "# seed {}; settings: {}", h.seed, h.settings)?;
        writeln!(out, "# command: {}", h.command)?;
        if !a.positions {
            continue;
        }
        let (mut results, mut scores) = ([0u64; 4], 0i64);
        while let Some(rec) = r.next_record()? {
            let res = match rec.result {
                WhiteResult::Win => "1-0",
                WhiteResult::Draw => "1/2-1/2",
                WhiteResult::Loss => "0-1",
                WhiteResult::None => "*",
            };
            results[match rec.result {
                WhiteResult::Loss => 0,
                WhiteResult::Draw => 1,
                WhiteResult::Win => 2,
                WhiteResult::None => 3,
            }] += 1;
            scores += i64::from(rec.score);
            writeln!(out, "{}\t{}\t{res}\t{:016x}\t{}", rec.position.lfen(h.levels), rec.score, rec.game, rec.ply)?;
        }
        let n = results.iter().sum::<u64>().max(1);
        writeln!(
            out,
            "# White won {}, drew {}, lost {}, no result {}; mean score {:.1} cp",
            results[2],
            results[1],
            results[0],
            results[3],
            scores as f64 / n as f64
        )?;
    }
    Ok(())
}
