//! `stackchess apply`.

use crate::common::PositionArgs;
use anyhow::{bail, Result};
use stackchess_core::{parse_move, Position};
use stackchess_variants::WithPosition;
use std::io::Write as _;

/// Flags of `apply`.
#[derive(clap::Args, Debug)]
pub struct Args {
    #[command(flatten)]
    pos: PositionArgs,
    /// Moves in coordinate notation (1e21e3) or SAN (2e3, N2b3); none prints the position itself
    /// (the start position, or `--lfen` as the engine writes it).
    moves: Vec<String>,
}

struct Run<'a>(&'a Args);

impl WithPosition for Run<'_> {
    type Output = Result<()>;
    fn call<P: Position>(self, rules: P::Rules) -> Result<()> {
        let mut out = std::io::stdout().lock();
        let mut pos: P = self.0.pos.position(rules)?;
        for (i, text) in self.0.moves.iter().enumerate() {
            match parse_move(&pos, text) {
                Ok(m) => pos.play_unchecked(m),
                Err(e) => bail!("move {} ('{text}') is not legal in {}: {}", i + 1, pos.to_lfen(), e.reason),
            }
        }
        writeln!(out, "{}", pos.to_lfen())?;
        Ok(())
    }
}

/// Runs the command.
pub fn run(a: &Args) -> Result<()> {
    a.pos.variant()?.with(Run(a))
}
