//! The book file, version 2 (docs/book.md). All numbers little-endian.
//!
//! ```text
//! magic      8 bytes  "SCHBOOK\n"
//! version    u16      2 (1 is read too: it has no rules id)
//! name_len   u8       length of the variant name
//! name       bytes    the variant name (UTF-8)
//! rules_id   16 bytes the rule set's id, 16 hex digits (version 2 only)
//! key_check  u64      hash() of the variant's start position
//! count      u64      number of entries
//! entries    count x 24 bytes, sorted by (key, move), no duplicates:
//!   key u64 | move u32 (Move::to_u32) | wins u32 | draws u32 | losses u32
//! ```

use crate::{BookError, Entry};
use stackchess_core::Move;
use std::path::Path;

/// The first eight bytes of every book file.
pub const MAGIC: [u8; 8] = *b"SCHBOOK\n";
/// The format version this program writes (it reads 1 and 2).
pub const VERSION: u16 = 2;
/// Bytes per entry.
pub const ENTRY_LEN: usize = 24;

/// The header of a book file.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Header {
    /// The variant the book is for.
    pub variant: String,
    /// The id of the rules the book was built under (none in a version-1 file).
    pub rules_id: Option<String>,
    /// The variant's start-position hash when the book was written.
    pub key_check: u64,
    /// Number of entries.
    pub count: u64,
}

/// The file's bytes: header then entries (which must be sorted).
pub(crate) fn encode(variant: &str, rules_id: &str, key_check: u64, entries: &[Entry]) -> Vec<u8> {
    let name = &variant.as_bytes()[..variant.len().min(255)];
    let mut out = Vec::with_capacity(8 + 2 + 1 + name.len() + 16 + 16 + entries.len() * ENTRY_LEN);
    out.extend_from_slice(&MAGIC);
    out.extend_from_slice(&VERSION.to_le_bytes());
    #[allow(clippy::cast_possible_truncation)]
    out.push(name.len() as u8);
    out.extend_from_slice(name);
    let mut id = [b'0'; 16];
    for (slot, b) in id.iter_mut().zip(rules_id.bytes()) {
        *slot = b;
    }
    out.extend_from_slice(&id);
    out.extend_from_slice(&key_check.to_le_bytes());
    out.extend_from_slice(&(entries.len() as u64).to_le_bytes());
    for e in entries {
        out.extend_from_slice(&e.key.to_le_bytes());
        out.extend_from_slice(&e.mv.to_u32().to_le_bytes());
        out.extend_from_slice(&e.wins.to_le_bytes());
        out.extend_from_slice(&e.draws.to_le_bytes());
        out.extend_from_slice(&e.losses.to_le_bytes());
    }
    out
}

/// A cursor over the file's bytes that reports a cut-off file instead of panicking.
struct Reader<'a> {
    bytes: &'a [u8],
    at: usize,
    path: &'a Path,
}

impl<'a> Reader<'a> {
    fn take(&mut self, n: usize, what: &str) -> Result<&'a [u8], BookError> {
        let end = self.at.checked_add(n).filter(|&e| e <= self.bytes.len()).ok_or_else(|| BookError::Damaged {
            path: self.path.to_owned(),
            message: format!("the file ends inside the header ({what}): {} bytes", self.bytes.len()),
        })?;
        let s = &self.bytes[self.at..end];
        self.at = end;
        Ok(s)
    }
    fn array<const N: usize>(&mut self, what: &str) -> Result<[u8; N], BookError> {
        let mut a = [0; N];
        a.copy_from_slice(self.take(N, what)?);
        Ok(a)
    }
}

/// Reads the header, checking magic, version and that the length matches the entry count;
/// returns it with the entry bytes.
pub(crate) fn decode_header<'a>(bytes: &'a [u8], path: &'a Path) -> Result<(Header, &'a [u8]), BookError> {
    if bytes.len() < MAGIC.len() || bytes[..MAGIC.len()] != MAGIC {
        return Err(BookError::Magic { path: path.to_owned() });
    }
    let mut r = Reader { bytes, at: MAGIC.len(), path };
    let version = u16::from_le_bytes(r.array("version")?);
    if version != 1 && version != VERSION {
        return Err(BookError::Version { path: path.to_owned(), found: version, supported: VERSION });
    }
    let name_len = r.array::<1>("variant name length")?[0];
    let name = r.take(usize::from(name_len), "variant name")?;
    let variant = String::from_utf8(name.to_vec())
        .map_err(|_| BookError::Damaged { path: path.to_owned(), message: "the variant name is not UTF-8".into() })?;
    let rules_id = if version >= 2 {
        let id = r.array::<16>("rules id")?;
        let damaged =
            || BookError::Damaged { path: path.to_owned(), message: "the rules id is not 16 hex digits".into() };
        if !id.iter().all(u8::is_ascii_hexdigit) {
            return Err(damaged());
        }
        Some(String::from_utf8(id.to_vec()).map_err(|_| damaged())?)
    } else {
        None
    };
    let key_check = u64::from_le_bytes(r.array("key check")?);
    let count = u64::from_le_bytes(r.array("entry count")?);
    let rest = &bytes[r.at..];
    let want = usize::try_from(count).ok().and_then(|c| c.checked_mul(ENTRY_LEN));
    if want != Some(rest.len()) {
        let message = if want.is_some_and(|w| w < rest.len()) {
            format!("{} bytes after the {count} entries the header announces", rest.len() - want.unwrap_or(0))
        } else {
            format!(
                "the header announces {count} entries of {ENTRY_LEN} bytes, but {} bytes follow it (truncated?)",
                rest.len()
            )
        };
        return Err(BookError::Damaged { path: path.to_owned(), message });
    }
    Ok((Header { variant, rules_id, key_check, count }, rest))
}

/// Reads the entries after the header, for a variant of `levels` levels: each move must be one
/// the packing can produce on that board, and keys strictly increasing by (key, move).
pub(crate) fn decode_entries(rest: &[u8], levels: usize, path: &Path) -> Result<Vec<Entry>, BookError> {
    let cells = 64 * levels as u32;
    let mut entries: Vec<Entry> = Vec::with_capacity(rest.len() / ENTRY_LEN);
    for (i, chunk) in rest.chunks_exact(ENTRY_LEN).enumerate() {
        let index = i as u64;
        let bad = |message: String| BookError::Entry { path: path.to_owned(), index, message };
        let word = |at: usize| u32::from_le_bytes([chunk[at], chunk[at + 1], chunk[at + 2], chunk[at + 3]]);
        let mut key = [0; 8];
        key.copy_from_slice(&chunk[..8]);
        let key = u64::from_le_bytes(key);
        let packed = word(8);
        let (wins, draws, losses) = (word(12), word(16), word(20));
        if packed & 0xff >= cells || packed >> 8 & 0xff >= cells {
            return Err(bad(format!("move {packed:#08x} leaves the {levels}-level board")));
        }
        let mv = Move::from_u32(packed).ok_or_else(|| bad(format!("{packed:#08x} is not a packed move")))?;
        if u64::from(wins) + u64::from(draws) + u64::from(losses) == 0 {
            return Err(bad("no games".into()));
        }
        if let Some(prev) = entries.last() {
            if (prev.key, prev.mv.to_u32()) >= (key, packed) {
                return Err(bad("entries are not sorted by key and move".into()));
            }
        }
        entries.push(Entry { key, mv, wins, draws, losses });
    }
    Ok(entries)
}

#[cfg(test)]
mod tests {
    use super::*;
    use stackchess_core::Cell;

    fn entry(key: u64, from: usize, to: usize) -> Entry {
        Entry { key, mv: Move::normal(Cell::from_index(from), Cell::from_index(to)), wins: 1, draws: 2, losses: 3 }
    }

    #[test]
    fn header_and_entries_round_trip() {
        let entries = [entry(1, 12, 28), entry(1, 130, 191), entry(u64::MAX, 0, 1)];
        let bytes = encode("malka", "0123456789abcdef", 0xdead_beef, &entries);
        assert_eq!(bytes.len(), 8 + 2 + 1 + 5 + 16 + 8 + 8 + 3 * ENTRY_LEN);
        let (h, rest) = decode_header(&bytes, Path::new("b")).unwrap();
        let id = Some("0123456789abcdef".to_owned());
        assert_eq!(h, Header { variant: "malka".into(), rules_id: id, key_check: 0xdead_beef, count: 3 });
        assert_eq!(decode_entries(rest, 3, Path::new("b")).unwrap(), entries);
        // Cell 191 is off a one-level board.
        assert!(decode_entries(rest, 1, Path::new("b")).unwrap_err().to_string().contains("entry 1"));
    }

    #[test]
    fn the_move_encoding_is_pinned() {
        // docs/book.md fixes this layout: a change in `Move::to_u32` must bump the version.
        use stackchess_core::{MoveKind, Role};
        let e2e4 = Move::new(Cell::from_index(12), Cell::from_index(28), None, MoveKind::DoubleStep);
        assert_eq!(e2e4.to_u32(), 0x0010_1c0c);
        let promo = Move::new(Cell::from_index(130), Cell::from_index(191), Some(Role::Queen), MoveKind::Normal);
        assert_eq!(promo.to_u32(), 0x0005_bf82);
        let castle = Move::new(Cell::from_index(4), Cell::from_index(6), None, MoveKind::Castle);
        assert_eq!(castle.to_u32(), 0x0030_0604);
    }

    #[test]
    fn version_one_files_are_read_without_an_id() {
        // A version-1 header: no rules id between the name and the key check.
        let mut bytes = MAGIC.to_vec();
        bytes.extend_from_slice(&1u16.to_le_bytes());
        bytes.push(4);
        bytes.extend_from_slice(b"fide");
        bytes.extend_from_slice(&7u64.to_le_bytes());
        bytes.extend_from_slice(&0u64.to_le_bytes());
        let (h, rest) = decode_header(&bytes, Path::new("v1")).unwrap();
        assert_eq!(h, Header { variant: "fide".into(), rules_id: None, key_check: 7, count: 0 });
        assert!(rest.is_empty());
    }

    #[test]
    fn an_entry_count_that_overflows_is_an_error() {
        let mut bytes = encode("fide", "0000000000000000", 0, &[]);
        let n = bytes.len();
        bytes[n - 8..].copy_from_slice(&u64::MAX.to_le_bytes());
        assert!(decode_header(&bytes, Path::new("b")).unwrap_err().to_string().contains("truncated"));
    }
}
