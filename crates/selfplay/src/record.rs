//! One finished game as a row of `games.csv` (schema in docs/records.md), and the durable file
//! that holds the rows: appended and flushed one record at a time, checked and repaired on resume.

use crate::error::Error;
use serde::{Deserialize, Serialize};
use std::fs::{File, OpenOptions};
use std::io::{BufRead, BufReader, Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};

/// One game: the columns of `games.csv`, in order.
#[derive(Clone, PartialEq, Eq, Debug, Default, Serialize, Deserialize)]
pub struct GameRecord {
    /// `<run_key>-<index:06>`: unique across runs with different settings.
    pub game_id: String,
    /// 16 hex digits: the hash of the settings that decide the games.
    pub run_key: String,
    /// Variant name (`malka`, `fide`, ...).
    pub variant: String,
    /// The run's base seed.
    pub seed: u64,
    /// Game number in the run, from 0.
    pub index: u64,
    /// Opening number: both games of a colour-swapped pair share it; equals `index` unpaired.
    pub pair: u64,
    /// Label of the engine playing White (`default`, `A`, `B`).
    pub white: String,
    /// Label of the engine playing Black.
    pub black: String,
    /// The position the game started from (after the opening).
    pub start_lfen: String,
    /// The moves, in coordinate notation, space-separated.
    pub moves: String,
    /// `1-0`, `0-1` or `1/2-1/2`.
    pub result: String,
    /// Why the game ended (see [`crate::Ending::name`]).
    pub termination: String,
    /// Number of moves in `moves`.
    pub plies: u32,
    /// White's material at the end (P 1, N 3, B 3, R 5, Q 9; kings excluded).
    pub material_white: u32,
    /// Black's material at the end.
    pub material_black: u32,
    /// White's moves that changed level.
    pub level_changes_white: u32,
    /// Black's moves that changed level.
    pub level_changes_black: u32,
    /// White's captures.
    pub captures_white: u32,
    /// Black's captures.
    pub captures_black: u32,
    /// White's moves that gave check.
    pub checks_white: u32,
    /// Black's moves that gave check.
    pub checks_black: u32,
    /// Search nodes of both sides over the game.
    pub nodes: u64,
    /// Wall time of the game in milliseconds.
    pub duration_ms: u64,
    /// Engine settings (for a match `A: ... | B: ...`).
    pub settings: String,
    /// Version of the program that played the game.
    pub version: String,
}

/// The column names of `games.csv`, in order.
pub const COLUMNS: [&str; 25] = [
    "game_id",
    "run_key",
    "variant",
    "seed",
    "index",
    "pair",
    "white",
    "black",
    "start_lfen",
    "moves",
    "result",
    "termination",
    "plies",
    "material_white",
    "material_black",
    "level_changes_white",
    "level_changes_black",
    "captures_white",
    "captures_black",
    "checks_white",
    "checks_black",
    "nodes",
    "duration_ms",
    "settings",
    "version",
];

impl GameRecord {
    /// The game id of game `index` of run `run_key`.
    #[must_use]
    pub fn id(run_key: &str, index: u64) -> String {
        format!("{run_key}-{index:06}")
    }
    /// The record as one CSV line, newline included.
    fn to_line(&self) -> Result<Vec<u8>, Error> {
        let mut w = csv::WriterBuilder::new().has_headers(false).from_writer(Vec::new());
        w.serialize(self).map_err(|e| Error::Csv(e.to_string()))?;
        w.into_inner().map_err(|e| Error::Csv(e.to_string()))
    }
    /// The same record with its time column zeroed (for comparing runs).
    #[must_use]
    pub fn without_timing(&self) -> GameRecord {
        GameRecord { duration_ms: 0, ..self.clone() }
    }
}

/// What [`RecordFile::open`] found in an existing file.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Recovered {
    /// Complete records kept.
    pub records: u64,
    /// Bytes of an incomplete last record that were cut off (0 when the file was intact).
    pub truncated_bytes: u64,
}

/// `games.csv`: the header, then one line per finished game, appended and flushed as each game
/// ends. Records never contain a newline, so a line is a record.
#[derive(Debug)]
pub struct RecordFile {
    path: PathBuf,
    file: File,
}

impl RecordFile {
    /// Creates the file with its header. Fails if it exists.
    ///
    /// # Errors
    /// On an I/O error.
    pub fn create(path: &Path) -> Result<RecordFile, Error> {
        let mut file = OpenOptions::new().write(true).create_new(true).open(path).map_err(|e| Error::io(path, e))?;
        let header = format!("{}\n", COLUMNS.join(","));
        file.write_all(header.as_bytes()).map_err(|e| Error::io(path, e))?;
        Ok(RecordFile { path: path.to_owned(), file })
    }

    /// Opens an existing file to append to it: checks the header, reads every record through
    /// `each` (in file order), and cuts off an incomplete last record (as left by a power cut:
    /// no final newline, or a last line that does not parse).
    ///
    /// # Errors
    /// A wrong header, or a bad record before the last one, names the file and line.
    pub fn open(
        path: &Path,
        each: impl FnMut(GameRecord) -> Result<(), Error>,
    ) -> Result<(RecordFile, Recovered), Error> {
        let io = |e| Error::io(path, e);
        let mut file = OpenOptions::new().read(true).write(true).open(path).map_err(io)?;
        let len = file.metadata().map_err(io)?.len();
        let complete = complete_len(&mut file, len).map_err(io)?;
        file.seek(SeekFrom::Start(0)).map_err(io)?;
        let (records, keep) = scan(path, BufReader::new((&file).take(complete)), complete, true, each)?;
        if keep == 0 {
            // Not even the header was written completely: start the file again.
            file.set_len(0).map_err(io)?;
            file.write_all(format!("{}\n", COLUMNS.join(",")).as_bytes()).map_err(io)?;
        } else if keep < len {
            file.set_len(keep).map_err(io)?;
        }
        file.sync_data().map_err(io)?;
        file.seek(SeekFrom::End(0)).map_err(io)?;
        Ok((RecordFile { path: path.to_owned(), file }, Recovered { records, truncated_bytes: len - keep }))
    }

    /// Appends one record and hands it to the operating system.
    ///
    /// # Errors
    /// On an I/O error.
    pub fn append(&mut self, rec: &GameRecord) -> Result<(), Error> {
        let line = rec.to_line()?;
        self.file.write_all(&line).map_err(|e| Error::io(&self.path, e))?;
        self.file.flush().map_err(|e| Error::io(&self.path, e))
    }

    /// Forces the records to disk.
    ///
    /// # Errors
    /// On an I/O error.
    pub fn sync(&self) -> Result<(), Error> {
        self.file.sync_data().map_err(|e| Error::io(&self.path, e))
    }
}

/// Reads the header and the records of `lines` (`len` bytes, whole lines). With `tolerant`, a bad
/// last line is left out rather than an error. Returns the record count and the byte length of
/// the good part.
fn scan(
    path: &Path,
    mut lines: impl BufRead,
    len: u64,
    tolerant: bool,
    mut each: impl FnMut(GameRecord) -> Result<(), Error>,
) -> Result<(u64, u64), Error> {
    let mut line = Vec::new();
    let (mut offset, mut number, mut records) = (0u64, 0u64, 0u64);
    while lines.read_until(b'\n', &mut line).map_err(|e| Error::io(path, e))? > 0 {
        number += 1;
        let last = offset + line.len() as u64 == len;
        if !line.ends_with(b"\n") {
            if tolerant {
                break;
            }
            return Err(Error::corrupt(path, number, "incomplete last record (no newline)"));
        }
        if number == 1 {
            let header = String::from_utf8_lossy(&line);
            if header.trim_end() != COLUMNS.join(",") {
                let msg = format!("header is `{}`, expected `{}`", header.trim_end(), COLUMNS.join(","));
                return Err(Error::corrupt(path, 1, msg));
            }
        } else {
            match parse_line(&line) {
                Ok(rec) => {
                    each(rec)?;
                    records += 1;
                }
                Err(_) if last && tolerant => break,
                Err(e) => return Err(Error::corrupt(path, number, e)),
            }
        }
        offset += line.len() as u64;
        line.clear();
    }
    Ok((records, offset))
}

/// One record from one line.
fn parse_line(line: &[u8]) -> Result<GameRecord, String> {
    let mut reader = csv::ReaderBuilder::new().has_headers(false).from_reader(line);
    let mut row = csv::StringRecord::new();
    match reader.read_record(&mut row) {
        Ok(true) if row.len() == COLUMNS.len() => {
            row.deserialize(Some(&csv::StringRecord::from(COLUMNS.to_vec()))).map_err(|e| e.to_string())
        }
        Ok(true) => Err(format!("{} fields, expected {}", row.len(), COLUMNS.len())),
        Ok(false) => Err("empty line".to_owned()),
        Err(e) => Err(e.to_string()),
    }
}

/// The length of the file up to and including its last newline.
fn complete_len(file: &mut File, len: u64) -> std::io::Result<u64> {
    let mut end = len;
    let mut buf = [0u8; 4096];
    while end > 0 {
        let start = end.saturating_sub(buf.len() as u64);
        #[allow(clippy::cast_possible_truncation)]
        let chunk = &mut buf[..(end - start) as usize];
        file.seek(SeekFrom::Start(start))?;
        file.read_exact(chunk)?;
        if let Some(i) = chunk.iter().rposition(|&b| b == b'\n') {
            return Ok(start + i as u64 + 1);
        }
        end = start;
    }
    Ok(0)
}

/// Reads every record of a `games.csv` without changing it.
///
/// # Errors
/// As [`RecordFile::open`], and also for an incomplete last record.
pub fn read_records(path: &Path) -> Result<Vec<GameRecord>, Error> {
    let file = File::open(path).map_err(|e| Error::io(path, e))?;
    let len = file.metadata().map_err(|e| Error::io(path, e))?.len();
    let mut out = Vec::new();
    scan(path, BufReader::new(file), len, false, |r| {
        out.push(r);
        Ok(())
    })?;
    Ok(out)
}
