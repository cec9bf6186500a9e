//! A position in a few dozen bytes: which cells are occupied, what stands on each, and the state
//! an LFEN carries (side to move, castling, en passant, clocks).

use stackchess_core::{write_lfen, Castling, Cell, Color, LfenState, Piece, Position, Role, Rules};

/// Black to move (bit 7 of the state byte).
const BLACK: u8 = 0x80;
/// An en-passant cell follows (bit 6); castling rights are bits 0–3.
const HAS_EP: u8 = 0x40;

/// A packed position.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Packed {
    /// Occupied cells, one word a level (unused levels 0).
    pub occupancy: [u64; 4],
    /// The piece on each occupied cell, in cell order: `colour · 8 + role` (roles as
    /// [`Role::ALL`] numbers them).
    pub codes: Vec<u8>,
    /// The side to move.
    pub turn: Color,
    /// Castling rights, as [`Castling`] holds them.
    pub castling: u8,
    /// The en-passant cell.
    pub ep: Option<u8>,
    /// Plies since the last capture or pawn move (held at 255).
    pub halfmove: u8,
    /// The move number (held at 65535).
    pub fullmove: u16,
}

/// The code of a piece.
#[must_use]
pub fn code(p: Piece) -> u8 {
    (p.color.index() * 8 + p.role.index()) as u8
}

/// The piece of a code, if it is one.
#[must_use]
pub fn piece(code: u8) -> Option<Piece> {
    let color = match code >> 3 {
        0 => Color::White,
        1 => Color::Black,
        _ => return None,
    };
    Role::ALL.get(usize::from(code & 7)).map(|&role| Piece { color, role })
}

impl Packed {
    /// Packs `pos`.
    #[must_use]
    pub fn of<P: Position>(pos: &P) -> Packed {
        let mut occupancy = [0u64; 4];
        pos.for_each_piece(|c, _| occupancy[c.level()] |= 1 << c.plane());
        let mut codes = Vec::with_capacity(64);
        for_each_cell(&occupancy, |i| {
            if let Some(p) = pos.piece_at(Cell::from_index(i)) {
                codes.push(code(p));
            }
        });
        Packed {
            occupancy,
            codes,
            turn: pos.turn(),
            castling: pos.castling().0,
            ep: pos.ep_cell().map(|c| c.index() as u8),
            halfmove: pos.halfmove_clock().min(255) as u8,
            fullmove: pos.fullmove_number().min(65535) as u16,
        }
    }

    /// Calls `f` with every piece's cell index and piece, in cell order.
    pub fn for_each_piece(&self, mut f: impl FnMut(usize, Piece)) {
        let mut k = 0;
        for_each_cell(&self.occupancy, |i| {
            if let Some(p) = self.codes.get(k).and_then(|&c| piece(c)) {
                f(i, p);
            }
            k += 1;
        });
    }

    /// The position's LFEN for a board of `levels` levels.
    #[must_use]
    pub fn lfen(&self, levels: usize) -> String {
        let mut at = vec![None; 64 * levels];
        self.for_each_piece(|i, p| {
            if let Some(slot) = at.get_mut(i) {
                *slot = Some(p);
            }
        });
        let st = LfenState {
            turn: self.turn,
            castling: Castling(self.castling & 15),
            ep: self.ep.map(|c| Cell::from_index(usize::from(c).min(64 * levels - 1))),
            halfmove: u32::from(self.halfmove),
            fullmove: u32::from(self.fullmove.max(1)),
        };
        write_lfen(levels, |c| at.get(c.index()).copied().flatten(), st)
    }

    /// The position under `rules`, checked as an LFEN is.
    ///
    /// # Errors
    /// A placement or state the rules refuse (the LFEN reader's message).
    pub fn position<P: Position>(&self, rules: P::Rules) -> Result<P, String> {
        rules.from_lfen(&self.lfen(P::LEVELS)).map_err(|e| e.to_string())
    }

    /// Appends the packed bytes: occupancy (`levels` words), state, en passant (if any), clocks,
    /// then the codes two to a byte, low nibble first.
    pub fn encode(&self, levels: usize, out: &mut Vec<u8>) {
        for w in &self.occupancy[..levels] {
            out.extend_from_slice(&w.to_le_bytes());
        }
        let turn = if self.turn == Color::Black { BLACK } else { 0 };
        let ep = if self.ep.is_some() { HAS_EP } else { 0 };
        out.push(turn | ep | (self.castling & 15));
        if let Some(c) = self.ep {
            out.push(c);
        }
        out.push(self.halfmove);
        out.extend_from_slice(&self.fullmove.to_le_bytes());
        for pair in self.codes.chunks(2) {
            out.push(pair[0] | pair.get(1).map_or(0, |c| c << 4));
        }
    }

    /// Reads a packed position of `levels` levels from the start of `bytes`; returns it and the
    /// bytes it took.
    ///
    /// # Errors
    /// Too few bytes, a level word on a board with fewer levels, or a code that is no piece.
    pub fn decode(bytes: &[u8], levels: usize) -> Result<(Packed, usize), String> {
        let mut r = Cursor { bytes, at: 0 };
        let mut occupancy = [0u64; 4];
        for w in occupancy.iter_mut().take(levels) {
            *w = u64::from_le_bytes(r.take::<8>()?);
        }
        let [state] = r.take::<1>()?;
        if state & !(BLACK | HAS_EP | 15) != 0 {
            return Err(format!("state byte {state:#04x} has unknown bits"));
        }
        let ep = if state & HAS_EP == 0 { None } else { Some(r.take::<1>()?[0]) };
        if ep.is_some_and(|c| usize::from(c) >= 64 * levels) {
            return Err(format!("en-passant cell {} is off a {levels}-level board", ep.unwrap_or(0)));
        }
        let [halfmove] = r.take::<1>()?;
        let fullmove = u16::from_le_bytes(r.take::<2>()?);
        let n: u32 = occupancy.iter().map(|w| w.count_ones()).sum();
        let n = n as usize;
        let mut codes = Vec::with_capacity(n);
        for k in 0..n.div_ceil(2) {
            let [b] = r.take::<1>()?;
            for (j, c) in [b & 15, b >> 4].into_iter().enumerate() {
                if 2 * k + j < n {
                    piece(c).ok_or_else(|| format!("piece code {c} is no piece"))?;
                    codes.push(c);
                } else if c != 0 {
                    return Err("the padding nibble is not zero".into());
                }
            }
        }
        let turn = if state & BLACK == 0 { Color::White } else { Color::Black };
        let packed = Packed { occupancy, codes, turn, castling: state & 15, ep, halfmove, fullmove };
        Ok((packed, r.at))
    }
}

/// Calls `f` with the index of every set cell of `occupancy`, in order.
fn for_each_cell(occupancy: &[u64; 4], mut f: impl FnMut(usize)) {
    for (l, &w) in occupancy.iter().enumerate() {
        let mut w = w;
        while w != 0 {
            f(l * 64 + w.trailing_zeros() as usize);
            w &= w - 1;
        }
    }
}

/// Bytes read in order.
struct Cursor<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl Cursor<'_> {
    fn take<const N: usize>(&mut self) -> Result<[u8; N], String> {
        let end = self.at + N;
        let got = self.bytes.get(self.at..end).ok_or_else(|| format!("ends {} bytes early", end - self.bytes.len()))?;
        self.at = end;
        let mut out = [0; N];
        out.copy_from_slice(got);
        Ok(out)
    }
}
