//! `stackchess show`: the levels side by side, with coordinates.

use crate::common::PositionArgs;
use anyhow::Result;
use stackchess_core::{Cell, Game, Position};
use stackchess_variants::WithPosition;
use std::fmt::Write;
use std::io::Write as _;

/// Flags of `show`.
#[derive(clap::Args, Debug)]
pub struct Args {
    #[command(flatten)]
    pos: PositionArgs,
}

/// Draws a position as text: one 8×8 diagram per level, level 1 on the left.
pub fn draw<P: Position>(pos: &P) -> String {
    let levels = P::LEVELS;
    let mut s = String::new();
    let header: Vec<String> = (0..levels).map(|l| format!("   level {:<14}", l + 1)).collect();
    let _ = writeln!(s, "{}", header.join("   ").trim_end());
    for rank in (0..8).rev() {
        let mut row = Vec::new();
        for level in 0..levels {
            let mut line = format!("{} ", rank + 1);
            for file in 0..8 {
                let c = Cell::from_index(level * 64 + rank * 8 + file);
                let ch = pos
                    .piece_at(c)
                    .map_or(if (file + rank) % 2 == 0 { '.' } else { ' ' }, stackchess_core::Piece::char);
                line.push(' ');
                line.push(ch);
            }
            row.push(line);
        }
        let _ = writeln!(s, "{}", row.join("     "));
    }
    let files: Vec<&str> = (0..levels).map(|_| "   a b c d e f g h").collect();
    let _ = writeln!(s, "{}", files.join("     "));
    let _ = writeln!(s);
    let _ = writeln!(s, "{} to move", pos.turn());
    let game = Game::new(pos.clone());
    match game.outcome() {
        Some(o) => {
            let _ = writeln!(s, "game over: {o}");
        }
        None if pos.is_check() => {
            let _ = writeln!(s, "check");
        }
        None => {}
    }
    let _ = writeln!(s, "{}", pos.to_lfen());
    s
}

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
