//! `stackchess perft`.

use crate::common::PositionArgs;
use anyhow::Result;
use stackchess_core::{coord, perft_divide, Position};
use stackchess_variants::WithPosition;
use std::io::Write as _;

/// Flags of `perft`.
#[derive(clap::Args, Debug)]
pub struct Args {
    #[command(flatten)]
    pos: PositionArgs,
    /// Depth in plies.
    #[arg(long, short)]
    depth: u32,
    /// One line `<move> <count>` per legal move before the total.
    #[arg(long)]
    divide: bool,
}

struct Run<'a>(&'a Args);

impl WithPosition for Run<'_> {
    type Output = Result<()>;
    fn call<P: Position>(self, rules: P::Rules) -> Result<()> {
        let mut out = std::io::stdout().lock();
        let a = self.0;
        let pos: P = a.pos.position(rules)?;
        if a.divide && a.depth > 0 {
            let mut total = 0;
            for (m, n) in perft_divide(&pos, a.depth) {
                writeln!(out, "{} {n}", coord::<P>(m))?;
                total += n;
            }
            writeln!(out, "{total}")?;
        } else {
            writeln!(out, "{}", pos.perft(a.depth))?;
        }
        Ok(())
    }
}

/// Runs the command.
pub fn run(a: &Args) -> Result<()> {
    a.pos.variant()?.with(Run(a))
}
