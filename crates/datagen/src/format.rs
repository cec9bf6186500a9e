//! The data file (docs/datagen.md): a versioned header, then records of packed positions with a
//! score and a result. Little-endian throughout.
//!
//! ```text
//! offset  size  field
//!      0     8  magic "STKCDATA"
//!      8     2  format version (1)
//!     10     1  levels of the board (1 to 4)
//!     11     1  0
//!     12     8  positions committed
//!     20     8  games committed
//!     28     4  length T of the header text
//!     32     T  header text: `key = value` lines (rules_id, variant, seed, settings, command)
//! then per record:
//!      2  length of the rest of the record
//!      8  Zobrist hash of the position
//!      8  game key (FNV-1a of the game id: unique across runs)
//!      2  ply of the game (0: its start position)
//!      2  score in centipawns from White's side (i16)
//!      1  White's result: 0 lost, 1 drawn, 2 won, 3 none (a game stopped by the move cap)
//!      …  the position (pack.rs: occupancy, state, clocks, piece codes)
//! ```
//!
//! The counts are rewritten after every committed batch; records past them (a batch cut short)
//! are not part of the file and are dropped when it is opened to append.

use crate::pack::Packed;
use crate::Error;
use std::fs::{File, OpenOptions};
use std::io::{BufReader, BufWriter, Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};

/// The first bytes of every data file.
pub const MAGIC: &[u8; 8] = b"STKCDATA";
/// The format version this build writes and reads.
pub const VERSION: u16 = 1;
/// Where the counts are.
const COUNTS_AT: u64 = 12;
/// Bytes before the header text.
const FIXED: usize = 32;
/// The longest header text accepted.
const MAX_TEXT: u32 = 1 << 20;

/// White's result in the game of a position.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum WhiteResult {
    /// White lost.
    Loss,
    /// Drawn.
    Draw,
    /// White won.
    Win,
    /// No result by the rules (the move cap ended the game): such positions are labelled by
    /// their score alone.
    None,
}

impl WhiteResult {
    /// White's points: 0, ½, 1, or `None`.
    #[must_use]
    pub fn points(self) -> Option<f64> {
        match self {
            WhiteResult::Loss => Some(0.0),
            WhiteResult::Draw => Some(0.5),
            WhiteResult::Win => Some(1.0),
            WhiteResult::None => None,
        }
    }

    fn byte(self) -> u8 {
        match self {
            WhiteResult::Loss => 0,
            WhiteResult::Draw => 1,
            WhiteResult::Win => 2,
            WhiteResult::None => 3,
        }
    }

    fn of_byte(b: u8) -> Option<WhiteResult> {
        [WhiteResult::Loss, WhiteResult::Draw, WhiteResult::Win, WhiteResult::None].get(usize::from(b)).copied()
    }
}

/// One position of the data.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Record {
    /// The position's Zobrist hash (de-duplication).
    pub hash: u64,
    /// The key of its game (FNV-1a of the game id): held-out splits and bootstraps go by game.
    pub game: u64,
    /// Its ply in the game (0: the game's start position, after the opening).
    pub ply: u16,
    /// The label search's score in centipawns, from White's side.
    pub score: i16,
    /// White's result.
    pub result: WhiteResult,
    /// The position.
    pub position: Packed,
}

impl Record {
    fn encode(&self, levels: usize, out: &mut Vec<u8>) {
        let start = out.len();
        out.extend_from_slice(&[0, 0]);
        out.extend_from_slice(&self.hash.to_le_bytes());
        out.extend_from_slice(&self.game.to_le_bytes());
        out.extend_from_slice(&self.ply.to_le_bytes());
        out.extend_from_slice(&self.score.to_le_bytes());
        out.push(self.result.byte());
        self.position.encode(levels, out);
        let len = (out.len() - start - 2) as u16;
        out[start..start + 2].copy_from_slice(&len.to_le_bytes());
    }

    fn decode(body: &[u8], levels: usize) -> Result<Record, String> {
        if body.len() < 21 {
            return Err(format!("a record of {} bytes is too short", body.len()));
        }
        let u64_at = |i: usize| u64::from_le_bytes(body[i..i + 8].try_into().unwrap_or_default());
        let result = WhiteResult::of_byte(body[20]).ok_or_else(|| format!("result byte {} is no result", body[20]))?;
        let (position, used) = Packed::decode(&body[21..], levels)?;
        if 21 + used != body.len() {
            return Err(format!("{} bytes left over after the position", body.len() - 21 - used));
        }
        Ok(Record {
            hash: u64_at(0),
            game: u64_at(8),
            ply: u16::from_le_bytes([body[16], body[17]]),
            score: i16::from_le_bytes([body[18], body[19]]),
            result,
            position,
        })
    }
}

/// What a data file says of itself.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct Header {
    /// Levels of the board.
    pub levels: usize,
    /// The rule set's id: data of another rule set is refused.
    pub rules_id: String,
    /// The rule set's name.
    pub variant: String,
    /// The base seed of the games.
    pub seed: u64,
    /// The settings that decide the data (a resume must give the same).
    pub settings: String,
    /// The command that made the file (for the record; not compared on resume).
    pub command: String,
}

impl Header {
    fn text(&self) -> String {
        format!(
            "rules_id = {}\nvariant = {}\nseed = {}\nsettings = {}\ncommand = {}\n",
            self.rules_id,
            self.variant,
            self.seed,
            self.settings.replace('\n', " "),
            self.command.replace('\n', " ")
        )
    }

    fn parse(text: &str, levels: usize) -> Result<Header, String> {
        let mut h = Header { levels, ..Header::default() };
        // Lines end at '\n' alone, as `text` writes them: a '\r' is part of a value (`lines()`
        // would drop one before a '\n', so a value read would not read back the same).
        let body = text.strip_suffix('\n').unwrap_or(text);
        for (i, line) in body.split('\n').enumerate().filter(|_| !body.is_empty()) {
            let (k, v) = line.split_once(" = ").ok_or_else(|| format!("header line {}: '{line}'", i + 1))?;
            match k {
                "rules_id" => v.clone_into(&mut h.rules_id),
                "variant" => v.clone_into(&mut h.variant),
                "seed" => h.seed = v.parse().map_err(|_| format!("header line {}: seed '{v}'", i + 1))?,
                "settings" => v.clone_into(&mut h.settings),
                "command" => v.clone_into(&mut h.command),
                _ => {} // Keys of later versions are kept out, not refused.
            }
        }
        if h.rules_id.is_empty() {
            return Err("the header names no rules_id".into());
        }
        Ok(h)
    }
}

/// A whole data file, read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DataFile {
    /// Its header.
    pub header: Header,
    /// Games committed.
    pub games: u64,
    /// Its records, in file order.
    pub records: Vec<Record>,
}

fn format_error(path: &Path, message: impl Into<String>) -> Error {
    Error::Format { path: path.to_owned(), message: message.into() }
}

/// Reads the fixed part and the header text: the header, positions, games, and the offset of the
/// first record.
fn read_head(path: &Path, r: &mut impl Read) -> Result<(Header, u64, u64, u64), Error> {
    let mut fixed = [0u8; FIXED];
    let not_data = || format_error(path, "not a stackchess data file (no STKCDATA magic)");
    r.read_exact(&mut fixed[..8]).map_err(|_| not_data())?;
    if &fixed[..8] != MAGIC {
        return Err(not_data());
    }
    r.read_exact(&mut fixed[8..]).map_err(|_| format_error(path, "too short for a data file header (32 bytes)"))?;
    let version = u16::from_le_bytes([fixed[8], fixed[9]]);
    if version != VERSION {
        return Err(format_error(path, format!("format version {version}; this build reads version {VERSION}")));
    }
    let levels = usize::from(fixed[10]);
    if !(1..=4).contains(&levels) {
        return Err(format_error(path, format!("{levels} levels (1 to 4)")));
    }
    let u64_at = |i: usize| u64::from_le_bytes(fixed[i..i + 8].try_into().unwrap_or_default());
    let (positions, games) = (u64_at(12), u64_at(20));
    let len = u32::from_le_bytes([fixed[28], fixed[29], fixed[30], fixed[31]]);
    if len > MAX_TEXT {
        return Err(format_error(path, format!("a header text of {len} bytes")));
    }
    let mut text = vec![0u8; len as usize];
    r.read_exact(&mut text).map_err(|_| format_error(path, "the file ends inside its header text"))?;
    let text = String::from_utf8(text).map_err(|_| format_error(path, "the header text is not UTF-8"))?;
    let header = Header::parse(&text, levels).map_err(|m| format_error(path, m))?;
    Ok((header, positions, games, FIXED as u64 + u64::from(len)))
}

/// Reads data files record by record (only the committed ones).
pub struct DataReader {
    path: PathBuf,
    r: Box<dyn Read + Send>,
    /// The file's header.
    pub header: Header,
    /// Positions committed.
    pub positions: u64,
    /// Games committed.
    pub games: u64,
    read: u64,
    offset: u64,
    buf: Vec<u8>,
}

impl DataReader {
    /// Opens `path`.
    ///
    /// # Errors
    /// A missing file, or one that is not a data file of this version.
    pub fn open(path: &Path) -> Result<DataReader, Error> {
        let f = File::open(path).map_err(|e| Error::io(path, &e))?;
        DataReader::from_reader(Box::new(BufReader::with_capacity(1 << 16, f)), path)
    }

    /// Reads the data file in `bytes` (named `name` in errors), as [`DataReader::open`] reads a file.
    ///
    /// # Errors
    /// Bytes that are not a data file of this version.
    pub fn from_bytes(bytes: Vec<u8>, name: &Path) -> Result<DataReader, Error> {
        DataReader::from_reader(Box::new(std::io::Cursor::new(bytes)), name)
    }

    fn from_reader(mut r: Box<dyn Read + Send>, path: &Path) -> Result<DataReader, Error> {
        let (header, positions, games, offset) = read_head(path, &mut r)?;
        Ok(DataReader { path: path.to_owned(), r, header, positions, games, read: 0, offset, buf: Vec::new() })
    }

    /// Opens `path` and checks that its data is of the rule set `rules_id`.
    ///
    /// # Errors
    /// As [`DataReader::open`], or data of another rule set (both ids named).
    pub fn open_for(path: &Path, rules_id: &str) -> Result<DataReader, Error> {
        let r = DataReader::open(path)?;
        if r.header.rules_id != rules_id {
            return Err(Error::OtherRules {
                path: path.to_owned(),
                found: r.header.rules_id.clone(),
                expected: rules_id.to_owned(),
            });
        }
        Ok(r)
    }

    /// Every record of `files` for the rule set `rules_id`, in file order, a position (by hash)
    /// kept only the first time it comes: what the fitter and the trainer read.
    ///
    /// # Errors
    /// As [`DataReader::open_for`] and [`DataReader::next_record`].
    pub fn read_files(files: &[std::path::PathBuf], rules_id: &str) -> Result<Vec<Record>, Error> {
        let mut seen = std::collections::HashSet::new();
        let mut out = Vec::new();
        for f in files {
            let mut r = DataReader::open_for(f, rules_id)?;
            while let Some(rec) = r.next_record()? {
                if seen.insert(rec.hash) {
                    out.push(rec);
                }
            }
        }
        Ok(out)
    }

    /// The next committed record, `None` after the last.
    ///
    /// # Errors
    /// A record cut short or damaged (its number and byte offset named).
    pub fn next_record(&mut self) -> Result<Option<Record>, Error> {
        if self.read == self.positions {
            return Ok(None);
        }
        let at = self.offset;
        let n = self.read + 1;
        let mut len = [0u8; 2];
        self.r
            .read_exact(&mut len)
            .map_err(|_| format_error(&self.path, format!("record {n} at byte {at}: the file ends before it")))?;
        let len = usize::from(u16::from_le_bytes(len));
        self.buf.resize(len, 0);
        self.r.read_exact(&mut self.buf).map_err(|_| {
            format_error(&self.path, format!("record {n} at byte {at}: the file ends inside it ({len} bytes)"))
        })?;
        let rec = Record::decode(&self.buf, self.header.levels)
            .map_err(|m| format_error(&self.path, format!("record {n} at byte {at}: {m}")))?;
        self.read += 1;
        self.offset += 2 + len as u64;
        Ok(Some(rec))
    }

    /// Every committed record.
    ///
    /// # Errors
    /// As [`DataReader::next_record`].
    pub fn read_all(mut self) -> Result<DataFile, Error> {
        let mut records = Vec::with_capacity(usize::try_from(self.positions).unwrap_or(0).min(1 << 24));
        while let Some(r) = self.next_record()? {
            records.push(r);
        }
        Ok(DataFile { header: self.header, games: self.games, records })
    }
}

/// Appends committed batches to a data file.
pub struct DataWriter {
    path: PathBuf,
    file: BufWriter<File>,
    header: Header,
    positions: u64,
    games: u64,
}

impl DataWriter {
    /// Creates `path` (which must not exist) with `header` and no records.
    ///
    /// # Errors
    /// The file exists or cannot be written.
    pub fn create(path: &Path, header: &Header) -> Result<DataWriter, Error> {
        let f = OpenOptions::new().write(true).create_new(true).open(path).map_err(|e| Error::io(path, &e))?;
        let text = header.text();
        let mut head = Vec::with_capacity(FIXED + text.len());
        head.extend_from_slice(MAGIC);
        head.extend_from_slice(&VERSION.to_le_bytes());
        head.push(header.levels as u8);
        head.push(0);
        head.extend_from_slice(&[0u8; 16]);
        head.extend_from_slice(&(text.len() as u32).to_le_bytes());
        head.extend_from_slice(text.as_bytes());
        let mut file = BufWriter::with_capacity(1 << 16, f);
        file.write_all(&head).and_then(|()| file.flush()).map_err(|e| Error::io(path, &e))?;
        file.get_ref().sync_all().map_err(|e| Error::io(path, &e))?;
        Ok(DataWriter { path: path.to_owned(), file, header: header.clone(), positions: 0, games: 0 })
    }

    /// Opens `path` to append to it: checks that it was begun with `header`'s rules and settings,
    /// drops any records past its counts, and returns the writer and the games committed.
    ///
    /// # Errors
    /// Not a data file, another rule set or other settings, a damaged committed record, or I/O.
    pub fn open(path: &Path, header: &Header) -> Result<(DataWriter, u64), Error> {
        let mut reader = DataReader::open_for(path, &header.rules_id)?;
        let found = &reader.header;
        if found.settings != header.settings || found.seed != header.seed || found.levels != header.levels {
            return Err(Error::Config(format!(
                "{} was begun with other settings:\n  in the file: seed {} {}\n  asked for:   seed {} {}\n\
                 (remove it, or give another --out)",
                path.display(),
                found.seed,
                found.settings,
                header.seed,
                header.settings
            )));
        }
        while reader.next_record()?.is_some() {}
        let (end, positions, games) = (reader.offset, reader.positions, reader.games);
        let kept = reader.header.clone();
        drop(reader);
        let f = OpenOptions::new().write(true).open(path).map_err(|e| Error::io(path, &e))?;
        f.set_len(end).map_err(|e| Error::io(path, &e))?;
        let mut file = BufWriter::with_capacity(1 << 16, f);
        file.seek(SeekFrom::Start(end)).map_err(|e| Error::io(path, &e))?;
        Ok((DataWriter { path: path.to_owned(), file, header: kept, positions, games }, games))
    }

    /// Appends `records` and commits them with `games` more games done: the records are on disk
    /// before the counts that take them in.
    ///
    /// # Errors
    /// A write or sync that fails (the file then holds the batches committed before).
    pub fn commit(&mut self, records: &[Record], games: u64) -> Result<(), Error> {
        let path = self.path.clone();
        let io = |e: std::io::Error| Error::io(&path, &e);
        let mut bytes = Vec::with_capacity(records.len() * 96);
        for r in records {
            r.encode(self.header.levels, &mut bytes);
        }
        self.file.write_all(&bytes).map_err(io)?;
        self.file.flush().map_err(io)?;
        self.file.get_ref().sync_data().map_err(io)?;
        let (positions, games) = (self.positions + records.len() as u64, self.games + games);
        let f = self.file.get_mut();
        let end = f.stream_position().map_err(io)?;
        f.seek(SeekFrom::Start(COUNTS_AT)).map_err(io)?;
        let mut counts = [0u8; 16];
        counts[..8].copy_from_slice(&positions.to_le_bytes());
        counts[8..].copy_from_slice(&games.to_le_bytes());
        f.write_all(&counts).map_err(io)?;
        f.sync_data().map_err(io)?;
        f.seek(SeekFrom::Start(end)).map_err(io)?;
        (self.positions, self.games) = (positions, games);
        Ok(())
    }

    /// Positions committed.
    #[must_use]
    pub fn positions(&self) -> u64 {
        self.positions
    }

    /// Games committed.
    #[must_use]
    pub fn games(&self) -> u64 {
        self.games
    }
}
