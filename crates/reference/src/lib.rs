//! Reference move generator for stackchess: slow, independent and obviously correct.
//!
//! It implements `shared/RULES.md` directly over a plain array of cells (mailbox): pieces walk
//! their direction vectors one step at a time, a move is legal when, made on a copy, it does
//! not leave the mover's king attacked, and a cell is attacked when some pseudo-move of the
//! attacker (geometric, §0) could capture a piece standing on it. It exists to be compared
//! with the fast generators on many positions; speed is not a goal.
//!
//! Moves are written in level-prefixed coordinate notation for every variant (`1e21e4`,
//! `2a73a8q`, castling as the king's move `1e11g1`).

mod board;
mod lfen;
mod movegen;
#[cfg(test)]
mod tests;

use board::{Position, Variant};
use movegen::Move;

fn position(variant: &str, lfen: &str) -> Result<Position, String> {
    lfen::parse(Variant::parse(variant)?, lfen)
}

/// Legal moves of the side to move, sorted, in level-prefixed coordinate notation.
/// `variant` is one of "malka", "traditional", "fide", "air-attack".
///
/// # Errors
/// An unknown variant or a bad LFEN, as text.
pub fn legal_moves(variant: &str, lfen: &str) -> Result<Vec<String>, String> {
    let pos = position(variant, lfen)?;
    let mut moves: Vec<String> = movegen::legal_moves(&pos).iter().map(Move::notation).collect();
    moves.sort();
    moves.dedup();
    Ok(moves)
}

/// Number of leaves of the legal move tree of `depth` plies.
///
/// # Errors
/// An unknown variant or a bad LFEN, as text.
pub fn perft(variant: &str, lfen: &str, depth: u32) -> Result<u64, String> {
    let pos = position(variant, lfen)?;
    Ok(movegen::perft(&pos, depth))
}

/// Plays one move given in coordinate notation (`1e21e4`, `1e2-1e4`, `2a7x3b8q`, and for
/// fide also `e2e4`) and returns the resulting LFEN.
///
/// # Errors
/// An unknown variant or a bad LFEN or move, as text.
pub fn play(variant: &str, lfen: &str, mv: &str) -> Result<String, String> {
    let pos = position(variant, lfen)?;
    let wanted = parse_move(pos.variant, mv)?;
    let m = movegen::legal_moves(&pos)
        .into_iter()
        .find(|m| m.notation() == wanted)
        .ok_or_else(|| format!("illegal move {mv:?}"))?;
    Ok(lfen::write(&movegen::make(&pos, &m)))
}

/// Start position of a variant as LFEN.
///
/// # Errors
/// An unknown variant or a bad LFEN, as text.
pub fn start_lfen(variant: &str) -> Result<String, String> {
    Ok(lfen::start(Variant::parse(variant)?).to_string())
}

/// Whether the side to move's king is attacked (false if it has no king).
///
/// # Errors
/// An unknown variant or a bad LFEN, as text.
pub fn in_check(variant: &str, lfen: &str) -> Result<bool, String> {
    let pos = position(variant, lfen)?;
    Ok(movegen::king_attacked(&pos, pos.side))
}

/// Normalises a coordinate move to the level-prefixed form of [`Move::notation`].
fn parse_move(variant: Variant, mv: &str) -> Result<String, String> {
    let err = || format!("bad move {mv:?}: expected e.g. 1e21e4 or 2a73a8q");
    let s: String = mv.trim().chars().filter(|&c| c != '-' && c != 'x').collect();
    let (from, rest) = lfen::parse_cell_prefix(variant, &s).ok_or_else(err)?;
    let (to, rest) = lfen::parse_cell_prefix(variant, rest).ok_or_else(err)?;
    let rest = rest.strip_prefix('=').unwrap_or(rest);
    let mut out = format!("{from}{to}");
    match rest.chars().collect::<Vec<_>>().as_slice() {
        [] => {}
        [c] if "qrbnQRBN".contains(*c) => out.push(c.to_ascii_lowercase()),
        _ => return Err(err()),
    }
    Ok(out)
}
