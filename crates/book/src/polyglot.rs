//! Export to PolyGlot's book format, for standard chess (fide) only: other tools (GUIs,
//! cutechess-cli, python-chess) read it.
//!
//! A PolyGlot entry is 16 bytes, big-endian: the position's PolyGlot key (u64; shakmaty computes
//! it, PolyGlot-compatible), the move (u16: to file, to row, from file, from row, promotion piece
//! 1 knight … 4 queen, 3 bits each from the lowest; castling as the king taking its own rook), a
//! weight (u16) and a learn field (u32, zero). Entries are sorted by key. Our books key positions
//! by our own hash, so the export walks the book from the start position through its moves and
//! writes every position it reaches.

use crate::{Book, BookError};
use shakmaty::fen::Fen;
use shakmaty::zobrist::{Zobrist64, ZobristHash};
use shakmaty::{CastlingMode, Chess, EnPassantMode};
use stackchess_core::{Move, MoveKind, Position, Role, Rules};
use std::collections::{BTreeMap, HashSet};
use std::path::Path;

/// One PolyGlot entry before weights are scaled.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct PolyglotEntry {
    /// The position's PolyGlot key.
    pub key: u64,
    /// The move, PolyGlot-encoded.
    pub mv: u16,
    /// 2 wins + draws (scaled to 16 bits when written).
    pub weight: u64,
}

/// The PolyGlot key of a standard chess position given as FEN.
///
/// # Errors
/// A FEN that is not a legal standard chess position.
pub fn polyglot_key(fen: &str) -> Result<u64, String> {
    let setup: Fen = fen.parse().map_err(|e| format!("{fen}: {e}"))?;
    let pos: Chess = setup.into_position(CastlingMode::Standard).map_err(|e| format!("{fen}: {e}"))?;
    Ok(pos.zobrist_hash::<Zobrist64>(EnPassantMode::PseudoLegal).0)
}

/// The PolyGlot encoding of a move of a one-level position.
#[must_use]
pub fn polyglot_move(m: Move) -> u16 {
    let (from, mut to) = (m.from(), m.to());
    if m.kind() == MoveKind::Castle {
        // The king "takes" its rook: h-file for the short castling, a-file for the long one.
        let rook_file = if to.file() > from.file() { 7 } else { 0 };
        to = stackchess_core::Cell::from_index(to.rank() * 8 + rook_file);
    }
    let promo = match m.promotion() {
        Some(Role::Knight) => 1,
        Some(Role::Bishop) => 2,
        Some(Role::Rook) => 3,
        Some(Role::Queen) => 4,
        _ => 0,
    };
    #[allow(clippy::cast_possible_truncation)]
    let v = (to.file() | to.rank() << 3 | from.file() << 6 | from.rank() << 9 | promo << 12) as u16;
    v
}

/// The entries of `book` in PolyGlot's terms: every position reached from the start position by
/// book moves of positive weight, up to `max_plies` plies, with its moves. Sorted by key, then move.
///
/// # Errors
/// The book is not of a one-level rule set, or a position is not standard chess.
pub fn polyglot_entries<P: Position>(book: &Book<P>, max_plies: u32) -> Result<Vec<PolyglotEntry>, String> {
    if P::LEVELS != 1 {
        return Err(format!("PolyGlot books are for standard chess; {} has {} levels", book.rules().name(), P::LEVELS));
    }
    let mut out: BTreeMap<(u64, u16), u64> = BTreeMap::new();
    let mut seen = HashSet::new();
    let mut stack = vec![(book.rules().startpos(), 0u32)];
    while let Some((pos, ply)) = stack.pop() {
        if ply >= max_plies || !seen.insert(pos.hash()) {
            continue;
        }
        let moves = book.probe(&pos);
        if moves.is_empty() {
            continue;
        }
        let key = polyglot_key(&pos.to_lfen())?;
        for b in moves.iter().filter(|b| b.weight > 0) {
            *out.entry((key, polyglot_move(b.mv))).or_default() += b.weight;
            let mut next = pos.clone();
            next.play_unchecked(b.mv);
            stack.push((next, ply + 1));
        }
    }
    Ok(out.into_iter().map(|((key, mv), weight)| PolyglotEntry { key, mv, weight }).collect())
}

/// The bytes of a PolyGlot file with these entries (weights scaled so the largest fits in 16
/// bits; every entry keeps a weight of at least 1).
#[must_use]
pub fn polyglot_bytes(entries: &[PolyglotEntry]) -> Vec<u8> {
    let max = entries.iter().map(|e| e.weight).max().unwrap_or(1).max(1);
    let mut out = Vec::with_capacity(entries.len() * 16);
    for e in entries {
        let w = if u16::try_from(max).is_ok() { e.weight } else { (e.weight * u64::from(u16::MAX) / max).max(1) };
        out.extend_from_slice(&e.key.to_be_bytes());
        out.extend_from_slice(&e.mv.to_be_bytes());
        out.extend_from_slice(&u16::try_from(w).unwrap_or(u16::MAX).to_be_bytes());
        out.extend_from_slice(&0u32.to_be_bytes());
    }
    out
}

/// Writes `book` as a PolyGlot file (through a temporary file renamed over `path`); returns the
/// number of entries.
///
/// # Errors
/// As [`polyglot_entries`], or an I/O error naming the file.
pub fn write_polyglot<P: Position>(book: &Book<P>, max_plies: u32, path: &Path) -> Result<usize, BookError> {
    let entries =
        polyglot_entries(book, max_plies).map_err(|message| BookError::Damaged { path: path.to_owned(), message })?;
    stackchess_files::write(path, polyglot_bytes(&entries)).map_err(|e| BookError::io(path, e))?;
    Ok(entries.len())
}

#[cfg(test)]
mod tests {
    use super::*;
    use stackchess_core::Cell;

    #[test]
    fn keys_and_moves_follow_the_polyglot_specification() {
        // The keys the PolyGlot specification gives for the start position and after 1. e4.
        assert_eq!(polyglot_key("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"), Ok(0x463b_9618_1691_fc9c));
        assert_eq!(
            polyglot_key("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1"),
            Ok(0x823c_9b50_fd11_4196)
        );
        let c = |i| Cell::from_index(i);
        // e2e4: to e4 (file 4, row 3), from e2 (file 4, row 1).
        assert_eq!(polyglot_move(Move::new(c(12), c(28), None, MoveKind::DoubleStep)), 4 | 3 << 3 | 4 << 6 | 1 << 9);
        // White's short castling is e1h1; a queen promotion on a8 from a7 carries 4.
        assert_eq!(polyglot_move(Move::new(c(4), c(6), None, MoveKind::Castle)), 7 | 4 << 6);
        assert_eq!(
            polyglot_move(Move::new(c(48), c(56), Some(Role::Queen), MoveKind::Normal)),
            7 << 3 | 6 << 9 | 4 << 12
        );
    }

    #[test]
    fn weights_are_scaled_into_sixteen_bits() {
        let e = |weight| PolyglotEntry { key: 1, mv: 2, weight };
        let bytes = polyglot_bytes(&[e(200_000), e(1)]);
        assert_eq!(&bytes[10..12], &u16::MAX.to_be_bytes());
        assert_eq!(&bytes[26..28], &1u16.to_be_bytes());
        assert_eq!(bytes.len(), 32);
    }
}
