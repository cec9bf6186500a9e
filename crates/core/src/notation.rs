//! Coordinate and SAN move notation, written once for every variant (docs/rules.md §1).

use crate::{Move, MoveKind, ParseMoveError, Position, Role};
use stackchess_geometry::Cell;
use std::fmt::Write;

/// The move in coordinate notation: `1e21e4`, `2a73a8q`; for one level, UCI (`e2e4`).
#[must_use]
pub fn coord<P: Position>(m: Move) -> String {
    let lv = P::LEVELS > 1;
    let mut s = format!("{}{}", m.from().display(lv), m.to().display(lv));
    if let Some(r) = m.promotion() {
        s.push(r.lower());
    }
    s
}

fn err(text: &str, reason: impl Into<String>) -> ParseMoveError {
    ParseMoveError { text: text.to_owned(), reason: reason.into() }
}

/// Splits coordinate text into from, to and promotion, accepting `-` and `x` between cells.
fn split_coord(s: &str, levels: usize) -> Option<(Cell, Cell, Option<Role>)> {
    let t: String = s.chars().filter(|&c| c != '-' && c != 'x').collect();
    let b = t.as_bytes();
    let cell_len = |from: usize| -> usize {
        match b.get(from) {
            Some(b'1'..=b'9') => 3,
            _ => 2,
        }
    };
    let n1 = cell_len(0);
    let from = Cell::parse(t.get(..n1)?, levels).ok()?;
    let n2 = cell_len(n1);
    let to = Cell::parse(t.get(n1..n1 + n2)?, levels).ok()?;
    let rest = t.get(n1 + n2..)?;
    let promotion = match rest.len() {
        0 => None,
        1 => Some(Role::from_char(rest.chars().next()?).filter(|r| Role::PROMOTIONS.contains(r))?),
        _ => return None,
    };
    Some((from, to, promotion))
}

/// Reads a coordinate move and finds it among the legal moves.
///
/// # Errors
/// When the text is not coordinate notation, or the move is not legal here.
pub fn parse_coord<P: Position>(pos: &P, s: &str) -> Result<Move, ParseMoveError> {
    let (from, to, promotion) =
        split_coord(s, P::LEVELS).ok_or_else(|| err(s, "not a coordinate move like 1e21e4 (or e2e4 in fide)"))?;
    pos.moves()
        .iter()
        .copied()
        .find(|m| m.from() == from && m.to() == to && m.promotion() == promotion)
        .ok_or_else(|| err(s, "no legal move goes between these cells"))
}

/// The moves of a line in SAN, played from `pos`, as far as they are legal there.
#[must_use]
pub fn san_line<P: Position>(pos: &P, line: &[Move]) -> Vec<String> {
    let mut p = pos.clone();
    let mut out = Vec::with_capacity(line.len());
    for &m in line {
        if !p.is_legal(m) {
            break;
        }
        out.push(san(&p, m));
        p.play_unchecked(m);
    }
    out
}

/// The move in SAN: `N2b3`, `2e3`, `Bx3e3`, `O-O`, `3a8=Q#`. Precondition: `m` is legal.
#[must_use]
pub fn san<P: Position>(pos: &P, m: Move) -> String {
    let mut s = String::new();
    if m.kind() == MoveKind::Castle {
        s.push_str(if m.to().file() > m.from().file() { "O-O" } else { "O-O-O" });
    } else {
        let lv = P::LEVELS > 1;
        let role = pos.piece_at(m.from()).map_or(Role::Pawn, |p| p.role);
        let capture = pos.captured(m).is_some();
        if role != Role::Pawn {
            s.push(role.upper());
        }
        // Other legal moves of the same role to the same cell need telling apart.
        let rivals: Vec<Cell> = pos
            .moves()
            .iter()
            .filter(|o| {
                o.to() == m.to()
                    && o.from() != m.from()
                    && o.kind() != MoveKind::Castle
                    && pos.piece_at(o.from()).map(|p| p.role) == Some(role)
            })
            .map(|o| o.from())
            .collect();
        let must_file = role == Role::Pawn && capture;
        if must_file || !rivals.is_empty() {
            let f = m.from();
            // (level, file, rank) masks, least first; the level only where there are levels.
            let options: &[(bool, bool, bool)] = &[
                (false, false, false),
                (true, false, false),
                (false, true, false),
                (false, false, true),
                (true, true, false),
                (true, false, true),
                (false, true, true),
                (true, true, true),
            ];
            let pick = options
                .iter()
                .filter(|(l, fi, _)| (lv || !*l) && (*fi || !must_file))
                .find(|(l, fi, r)| {
                    rivals.iter().all(|o| {
                        (*l && o.level() != f.level()) || (*fi && o.file() != f.file()) || (*r && o.rank() != f.rank())
                    })
                })
                .copied()
                .unwrap_or((lv, true, true));
            if pick.0 {
                let _ = write!(s, "{}", f.level() + 1);
            }
            if pick.1 {
                #[allow(clippy::cast_possible_truncation)]
                s.push((b'a' + f.file() as u8) as char);
            }
            if pick.2 {
                let _ = write!(s, "{}", f.rank() + 1);
            }
        }
        if capture {
            s.push('x');
        }
        let _ = write!(s, "{}", m.to().display(lv));
        if let Some(r) = m.promotion() {
            s.push('=');
            s.push(r.upper());
        }
    }
    let mut next = pos.clone();
    next.play_unchecked(m);
    if next.is_check() {
        s.push(if next.count_legal_moves() == 0 { '#' } else { '+' });
    }
    s
}

/// Drops check marks, annotations and `=` so SAN compares loosely.
fn loose(s: &str) -> String {
    s.chars().filter(|c| !matches!(c, '+' | '#' | '!' | '?' | '=')).collect::<String>().replace('0', "O")
}

/// Reads a SAN move.
///
/// # Errors
/// When no legal move has this SAN.
pub fn parse_san<P: Position>(pos: &P, s: &str) -> Result<Move, ParseMoveError> {
    let want = loose(s);
    let moves = pos.moves();
    let found: Vec<Move> = moves.iter().copied().filter(|&m| loose(&san(pos, m)) == want).collect();
    match found.as_slice() {
        [m] => Ok(*m),
        [] => Err(err(s, "no legal move has this SAN")),
        _ => Err(err(s, "ambiguous SAN")),
    }
}

/// Reads a move in coordinate notation or SAN.
///
/// # Errors
/// When it is neither, or not legal here.
pub fn parse_move<P: Position>(pos: &P, s: &str) -> Result<Move, ParseMoveError> {
    match split_coord(s, P::LEVELS) {
        Some(_) => parse_coord(pos, s),
        None => parse_san(pos, s),
    }
}
