//! A position drawn as text: the levels side by side.

use crate::{Cell, Game, Piece, Position};
use std::fmt::Write;

/// Draws a position as text: one 8×8 diagram per level, level 1 on the left, then the side to
/// move, `game over` or `check`, and the LFEN (what `stackchess show` prints).
pub fn diagram<P: Position>(pos: &P) -> String {
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
                let ch = pos.piece_at(c).map_or(if (file + rank) % 2 == 0 { '.' } else { ' ' }, Piece::char);
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
