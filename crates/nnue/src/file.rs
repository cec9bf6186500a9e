//! The net file (docs/nnue.md), little-endian:
//!
//! ```text
//! offset  size   field
//!      0     8   magic "STKCNNUE"
//!      8     2   format version (2; version 1, without the base, is still read)
//!     10     1   levels (1 to 4)
//!     11     1   activation (1: squared clipped `ReLU`)
//!     12     4   hidden neurons H (1 to 4096)
//!     16     2   QA (255)   18  2  QB (1024)   20  2  SCALE (400)   22  2  0
//!     24     2   length R of the rule-set id, then R bytes
//!      …     4   length T of the text about the net (command, seed, data), then T bytes
//!      …     4   length B of the base, then B bytes (version 2): the parameter file of the
//!                linear evaluation the output is added to; 0 for a net that evaluates alone
//!      …         w1: 12·64·levels·H i16, input-major; b1: H i16; w2: 2H i16; b2: i32
//!      …     8   FNV-1a of every byte before it
//! ```

use crate::net::{Net, QA, QB, SCALE};
use std::path::Path;

/// The first bytes of every net file.
pub const MAGIC: &[u8; 8] = b"STKCNNUE";
/// The format version this build reads and writes.
pub const VERSION: u16 = 2;
/// The first version, without a base: still read.
const VERSION_1: u16 = 1;

/// A net that cannot be read, or is not for the rule set asked for.
#[derive(Debug, thiserror::Error)]
pub enum NetError {
    /// Reading or writing failed.
    #[error("{path}: {message}")]
    Io {
        /// The file.
        path: String,
        /// What failed.
        message: String,
    },
    /// Not a net file, or a damaged one.
    #[error("{path}: {message}")]
    Format {
        /// The file.
        path: String,
        /// What is wrong.
        message: String,
    },
    /// A net of another rule set.
    #[error("{path}: the net is for rule set {found}, not {expected} (the rule set played)")]
    OtherRules {
        /// The file.
        path: String,
        /// The net's rule-set id.
        found: String,
        /// The rule set's id.
        expected: String,
    },
}

fn fnv(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |h, &b| (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3))
}

struct Reader<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl Reader<'_> {
    fn take(&mut self, n: usize, what: &str) -> Result<&[u8], String> {
        let end = self.at.checked_add(n).filter(|&e| e <= self.bytes.len()).ok_or_else(|| {
            format!("the file ends inside {what} (at byte {}, {} bytes short)", self.at, self.at + n - self.bytes.len())
        })?;
        let s = &self.bytes[self.at..end];
        self.at = end;
        Ok(s)
    }
    fn u16(&mut self, what: &str) -> Result<u16, String> {
        let b = self.take(2, what)?;
        Ok(u16::from_le_bytes([b[0], b[1]]))
    }
    fn u32(&mut self, what: &str) -> Result<u32, String> {
        let b = self.take(4, what)?;
        Ok(u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
    }
    fn i16s(&mut self, n: usize, what: &str) -> Result<Vec<i16>, String> {
        let b = self.take(n.checked_mul(2).ok_or("too many weights")?, what)?;
        Ok(b.chunks_exact(2).map(|c| i16::from_le_bytes([c[0], c[1]])).collect())
    }
}

impl Net {
    /// The net as the bytes of its file.
    #[must_use]
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(64 + 2 * self.w1.len());
        out.extend_from_slice(MAGIC);
        out.extend_from_slice(&VERSION.to_le_bytes());
        out.push(self.levels as u8);
        out.push(1);
        out.extend_from_slice(&(self.hidden as u32).to_le_bytes());
        for v in [QA as u16, QB as u16, SCALE as u16, 0] {
            out.extend_from_slice(&v.to_le_bytes());
        }
        out.extend_from_slice(&(self.rules_id.len() as u16).to_le_bytes());
        out.extend_from_slice(self.rules_id.as_bytes());
        out.extend_from_slice(&(self.about.len() as u32).to_le_bytes());
        out.extend_from_slice(self.about.as_bytes());
        out.extend_from_slice(&(self.base.len() as u32).to_le_bytes());
        out.extend_from_slice(self.base.as_bytes());
        for w in self.w1.iter().chain(&self.b1).chain(&self.w2) {
            out.extend_from_slice(&w.to_le_bytes());
        }
        out.extend_from_slice(&self.b2.to_le_bytes());
        let sum = fnv(&out);
        out.extend_from_slice(&sum.to_le_bytes());
        out
    }

    /// Reads a net from the bytes of its file (`path` names it in errors).
    ///
    /// # Errors
    /// Not a net file, another format version, a file cut short or changed (the checksum), or
    /// sizes that do not fit together.
    pub fn from_bytes(bytes: &[u8], path: &str) -> Result<Net, NetError> {
        Self::parse(bytes).map_err(|message| NetError::Format { path: path.to_owned(), message })
    }

    fn parse(bytes: &[u8]) -> Result<Net, String> {
        let mut r = Reader { bytes, at: 0 };
        if r.take(8, "the magic").ok() != Some(MAGIC.as_slice()) {
            return Err("not a stackchess net file (no STKCNNUE magic)".into());
        }
        let version = r.u16("the header")?;
        if version != VERSION && version != VERSION_1 {
            return Err(format!("format version {version}; this build reads versions {VERSION_1} and {VERSION}"));
        }
        let head = r.take(2, "the header")?;
        let (levels, activation) = (usize::from(head[0]), head[1]);
        if !(1..=4).contains(&levels) || activation != 1 {
            return Err(format!("{levels} levels, activation {activation} (1 to 4 levels, activation 1)"));
        }
        let hidden = r.u32("the header")? as usize;
        if !(1..=4096).contains(&hidden) {
            return Err(format!("{hidden} hidden neurons (1 to 4096)"));
        }
        let scales = [r.u16("the header")?, r.u16("the header")?, r.u16("the header")?, r.u16("the header")?];
        if scales[..3] != [QA as u16, QB as u16, SCALE as u16] {
            return Err(format!("scales {:?}; this build uses QA {QA}, QB {QB}, SCALE {SCALE}", &scales[..3]));
        }
        let n = usize::from(r.u16("the rule-set id")?);
        let rules_id =
            String::from_utf8(r.take(n, "the rule-set id")?.to_vec()).map_err(|_| "the rule-set id is not UTF-8")?;
        let n = r.u32("the text about the net")? as usize;
        let about =
            String::from_utf8(r.take(n, "the text about the net")?.to_vec()).map_err(|_| "the text is not UTF-8")?;
        let base = if version == VERSION_1 {
            String::new()
        } else {
            let n = r.u32("the base")? as usize;
            String::from_utf8(r.take(n, "the base")?.to_vec()).map_err(|_| "the base is not UTF-8")?
        };
        let inputs = 12 * 64 * levels;
        let w1 = r.i16s(inputs * hidden, "the first layer's weights")?;
        let b1 = r.i16s(hidden, "the first layer's biases")?;
        let w2 = r.i16s(2 * hidden, "the output weights")?;
        let b = r.take(4, "the output bias")?;
        let b2 = i32::from_le_bytes([b[0], b[1], b[2], b[3]]);
        let body = r.at;
        let sum = r.take(8, "the checksum")?;
        if u64::from_le_bytes(sum.try_into().unwrap_or_default()) != fnv(&bytes[..body]) {
            return Err("the checksum does not match: the file is damaged".into());
        }
        if r.at != bytes.len() {
            return Err(format!("{} bytes after the checksum", bytes.len() - r.at));
        }
        Ok(Net { rules_id, levels, hidden, about, base, w1, b1, w2, b2 })
    }

    /// Writes the net to `path`, whole (`stackchess_files::write`).
    ///
    /// # Errors
    /// A failed write.
    pub fn write(&self, path: &Path) -> Result<(), NetError> {
        stackchess_files::write(path, self.to_bytes())
            .map_err(|e| NetError::Io { path: path.display().to_string(), message: e.to_string() })
    }

    /// Reads the net in `path` for the rule set `rules_id` on `levels` levels with at most `pieces`
    /// pieces on the board.
    ///
    /// # Errors
    /// As [`Net::from_bytes`]; a net of another rule set (both ids named), another board, or one
    /// whose sums could overflow on this rule set's board.
    pub fn read(path: &Path, rules_id: &str, levels: usize, pieces: usize) -> Result<Net, NetError> {
        let name = path.display().to_string();
        let bytes = std::fs::read(path).map_err(|e| NetError::Io { path: name.clone(), message: e.to_string() })?;
        Net::for_rules(&bytes, &name, rules_id, levels, pieces)
    }

    /// A net from the bytes of a net file (`name` says where they came from), checked as
    /// [`Net::read`] checks a file.
    ///
    /// # Errors
    /// As [`Net::read`], without the I/O.
    pub fn for_rules(bytes: &[u8], name: &str, rules_id: &str, levels: usize, pieces: usize) -> Result<Net, NetError> {
        let net = Net::from_bytes(bytes, name)?;
        if net.rules_id != rules_id {
            return Err(NetError::OtherRules {
                path: name.to_owned(),
                found: net.rules_id,
                expected: rules_id.to_owned(),
            });
        }
        if net.levels != levels {
            return Err(NetError::Format {
                path: name.to_owned(),
                message: format!("a net of {} levels, not {levels}", net.levels),
            });
        }
        net.check_bounds(pieces).map_err(|message| NetError::Format { path: name.to_owned(), message })?;
        Ok(net)
    }
}

impl Net {
    /// 16 hex digits of the FNV-1a of its file: what names a net in records.
    #[must_use]
    pub fn checksum(&self) -> String {
        let bytes = self.to_bytes();
        format!("{:016x}", fnv(&bytes))
    }
}
