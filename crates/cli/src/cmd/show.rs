//! `stackchess show`: the levels side by side, with coordinates.

use crate::common::PositionArgs;
use anyhow::Result;
use stackchess_core::Position;
use stackchess_variants::WithPosition;
use std::io::Write as _;

/// Flags of `show`.
#[derive(clap::Args, Debug)]
pub struct Args {
    #[command(flatten)]
    pos: PositionArgs,
}

/// Draws a position as text: one 8×8 diagram per level, level 1 on the left.
pub use stackchess_core::diagram as draw;

struct Run<'a>(&'a Args);

impl WithPosition for Run<'_> {
    type Output = Result<()>;
    fn call<P: Position>(self, rules: P::Rules) -> Result<()> {
        let mut out = std::io::stdout().lock();
        let pos: P = self.0.pos.position(rules)?;
        write!(out, "{}", draw(&pos))?;
        Ok(())
    }
}

/// Runs the command.
pub fn run(a: &Args) -> Result<()> {
    a.pos.variant()?.with(Run(a))
}
