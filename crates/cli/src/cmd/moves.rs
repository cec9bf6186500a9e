//! `stackchess moves`.

use crate::common::PositionArgs;
use anyhow::Result;
use stackchess_core::{coord, san, Position};
use stackchess_variants::WithPosition;
use std::io::Write as _;

/// Flags of `moves`.
#[derive(clap::Args, Debug)]
pub struct Args {
    #[command(flatten)]
    pos: PositionArgs,
}

struct Run<'a>(&'a Args);

impl WithPosition for Run<'_> {
    type Output = Result<()>;
    fn call<P: Position>(self, rules: P::Rules) -> Result<()> {
        let mut out = std::io::stdout().lock();
        let pos: P = self.0.pos.position(rules)?;
        for m in pos.moves() {
            writeln!(out, "{} {}", coord::<P>(m), san(&pos, m))?;
        }
        Ok(())
    }
}

/// Runs the command.
pub fn run(a: &Args) -> Result<()> {
    a.pos.variant()?.with(Run(a))
}
