//! The one CSV reader of the records (the csv crate), and the readers of whole files and run
//! directories.

use crate::{Error, GameRecord, PlyRecord, Version, GAMES_CSV, PLIES_CSV, PLY_COLUMNS};
use serde::de::DeserializeOwned;
use std::collections::HashMap;
use std::fs::File;
use std::io::{Seek, SeekFrom};
use std::path::Path;

/// What to do with a bad last record.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum Tail {
    /// It is an error, like any other bad record.
    Strict,
    /// It is what a kill leaves: leave it out (the journal cuts it off).
    Tolerant,
}

/// A table's description for the scanner.
pub(crate) struct Table<H, T> {
    /// `games.csv` or `plies.csv`, for messages.
    pub name: &'static str,
    /// The start of the header, for the message about an empty file.
    pub header_start: &'static str,
    /// Checks the header; returns what it decided (the schema version) and the field count.
    pub header: fn(&[String]) -> Result<(H, usize), String>,
    /// Checks a parsed record beyond its types.
    pub check: fn(&T) -> Result<(), String>,
}

/// Reads the header and the records of `file` (`len` bytes) from its start, handing each record
/// with its line number to `each`. Returns the header's verdict and the byte length of the good
/// part (through the last good record; 0 if not even the header is complete). `each` gets a
/// record's line number, the byte offset just after it, and the record.
pub(crate) fn scan<H, T: DeserializeOwned>(
    path: &Path,
    file: &mut File,
    len: u64,
    tail: Tail,
    table: &Table<H, T>,
    mut each: impl FnMut(u64, u64, T) -> Result<(), Error>,
) -> Result<(Option<H>, u64), Error> {
    let newline_at_end = ends_with_newline(path, file, len)?;
    file.seek(SeekFrom::Start(0)).map_err(|e| Error::io(path, e))?;
    let mut reader = csv::ReaderBuilder::new()
        .has_headers(false)
        .flexible(true)
        .from_reader(std::io::BufReader::with_capacity(1 << 16, &mut *file));
    let mut row = csv::StringRecord::new();
    let read = |reader: &mut csv::Reader<_>, row: &mut csv::StringRecord| {
        reader.read_record(row).map_err(|e| match e.kind() {
            csv::ErrorKind::Io(_) => Error::io(path, std::io::Error::other(e.to_string())),
            _ => Error::record(path, e.position().map_or(0, csv::Position::line), e.to_string()),
        })
    };
    // The header.
    let empty = Error::Empty { path: path.to_owned(), expected: table.header_start };
    if !read(&mut reader, &mut row)? || row.iter().all(|f| f.trim().is_empty()) {
        return if tail == Tail::Tolerant { Ok((None, 0)) } else { Err(empty) };
    }
    let header_end = reader.position().byte();
    if header_end >= len && !newline_at_end {
        return if tail == Tail::Tolerant { Ok((None, 0)) } else { Err(empty) };
    }
    let names: Vec<String> = row.iter().map(|s| s.trim().trim_start_matches('\u{feff}').to_owned()).collect();
    let (verdict, fields) = (table.header)(&names)
        .map_err(|detail| Error::Header { path: path.to_owned(), table: table.name, detail })?;
    let header = csv::StringRecord::from(names);
    let mut good = header_end;
    loop {
        let start = good;
        let ok = match reader.read_record(&mut row) {
            Ok(false) => break,
            Ok(true) => Ok(()),
            Err(e) if matches!(e.kind(), csv::ErrorKind::Io(_)) => {
                return Err(Error::io(path, std::io::Error::other(e.to_string())));
            }
            Err(e) => Err(e.to_string()),
        };
        let line = row.position().map_or(0, csv::Position::line);
        let end = reader.position().byte();
        let last = end >= len;
        let complete = !last || newline_at_end;
        let parsed = ok.and_then(|()| {
            if row.len() == 1 && row[0].trim().is_empty() {
                return Err(String::new()); // a blank line: skipped below
            }
            if row.len() != fields {
                return Err(if complete {
                    format!("record has {} fields, expected {fields}", row.len())
                } else {
                    format!(
                        "truncated last line: {} of {fields} fields and no final newline (was the run interrupted?)",
                        row.len()
                    )
                });
            }
            if !complete {
                return Err("incomplete last record (no final newline; was the run interrupted?)".into());
            }
            let rec: T = row.deserialize(Some(&header)).map_err(|e| field_error(&e, &header, &row))?;
            (table.check)(&rec).map(|()| rec)
        });
        match parsed {
            Ok(rec) => each(line, end, rec)?,
            Err(detail) if detail.is_empty() => {}
            Err(_) if last && tail == Tail::Tolerant => return Ok((Some(verdict), start)),
            Err(detail) => return Err(Error::record(path, line, detail)),
        }
        good = end;
    }
    Ok((Some(verdict), good))
}

/// A deserialisation error as `column 'plies': 'two' is not valid (...)`.
fn field_error(e: &csv::Error, header: &csv::StringRecord, row: &csv::StringRecord) -> String {
    match e.kind() {
        csv::ErrorKind::Deserialize { err, .. } => match err.field() {
            Some(i) => {
                let i = i as usize;
                let name = header.get(i).unwrap_or("?");
                format!("column '{name}': '{}' is not valid ({})", row.get(i).unwrap_or(""), err.kind())
            }
            None => err.to_string(),
        },
        _ => e.to_string(),
    }
}

fn ends_with_newline(path: &Path, file: &mut File, len: u64) -> Result<bool, Error> {
    use std::io::Read;
    if len == 0 {
        return Ok(false);
    }
    let io = |e| Error::io(path, e);
    let here = file.stream_position().map_err(io)?;
    file.seek(SeekFrom::Start(len - 1)).map_err(io)?;
    let mut b = [0u8];
    file.read_exact(&mut b).map_err(io)?;
    file.seek(SeekFrom::Start(here)).map_err(io)?;
    Ok(b[0] == b'\n')
}

pub(crate) const GAMES_TABLE: Table<Version, GameRecord> = Table {
    name: "games.csv",
    header_start: "game_id,run_key",
    header: |names| Version::of_header(names).map(|v| (v, v.columns().len())),
    check: GameRecord::check,
};

pub(crate) const PLIES_TABLE: Table<(), PlyRecord> = Table {
    name: "plies.csv",
    header_start: "game_id,ply",
    header: |names| {
        if names.iter().map(String::as_str).eq(PLY_COLUMNS.iter().map(|c| c.name)) {
            Ok(((), PLY_COLUMNS.len()))
        } else {
            Err(crate::columns::header_difference(&PLY_COLUMNS, names))
        }
    },
    check: PlyRecord::check,
};

/// The records of one `games.csv`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Games {
    /// The schema version its header names.
    pub version: Version,
    /// The games, in file order.
    pub records: Vec<GameRecord>,
    /// The line each record starts on.
    pub lines: Vec<u64>,
}

fn open(path: &Path) -> Result<(File, u64), Error> {
    let file = File::open(path).map_err(|e| Error::io(path, e))?;
    let len = file.metadata().map_err(|e| Error::io(path, e))?.len();
    Ok((file, len))
}

/// Reads every record of a `games.csv` (either version) without changing it.
///
/// # Errors
/// An unreadable or empty file, a header that is neither version's (naming the columns that
/// differ), or a bad record, an incomplete last one included (naming the line).
pub fn read_games(path: &Path) -> Result<Games, Error> {
    let (mut file, len) = open(path)?;
    let (mut records, mut lines) = (Vec::new(), Vec::new());
    let (version, _) = scan(path, &mut file, len, Tail::Strict, &GAMES_TABLE, |line, _, r| {
        records.push(r);
        lines.push(line);
        Ok(())
    })?;
    let version = version.ok_or(Error::Empty { path: path.to_owned(), expected: GAMES_TABLE.header_start })?;
    Ok(Games { version, records, lines })
}

/// Reads every row of a `plies.csv` without changing it.
///
/// # Errors
/// As [`read_games`].
pub fn read_plies(path: &Path) -> Result<Vec<PlyRecord>, Error> {
    let (mut file, len) = open(path)?;
    let mut rows = Vec::new();
    scan(path, &mut file, len, Tail::Strict, &PLIES_TABLE, |_, _, r| {
        rows.push(r);
        Ok(())
    })?;
    Ok(rows)
}

/// A run directory's games and, for version-2 runs, their plies.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RunRecords {
    /// The schema version of `games.csv`.
    pub version: Version,
    /// The games, in file order.
    pub games: Vec<GameRecord>,
    /// Each game's plies in order, by game id; `None` when the run has no `plies.csv`.
    pub plies: Option<HashMap<String, Vec<PlyRecord>>>,
}

impl RunRecords {
    /// The plies of a game, in order; `None` without a per-ply table or for an unknown game.
    #[must_use]
    pub fn plies_of(&self, game_id: &str) -> Option<&[PlyRecord]> {
        self.plies.as_ref()?.get(game_id).map(Vec::as_slice)
    }
}

/// Reads a run directory: its `games.csv` and, when there is one, its `plies.csv` (a version-2
/// run has one; a version-1 run has none). Plies of games that are not in `games.csv` are left
/// out (an interrupted run leaves them until it is resumed).
///
/// # Errors
/// As [`read_games`] and [`read_plies`], for either file; a game whose plies are not exactly
/// `1..=plies` in order.
pub fn read_run(dir: &Path) -> Result<RunRecords, Error> {
    let games = read_games(&dir.join(GAMES_CSV))?;
    let plies_path = dir.join(PLIES_CSV);
    let plies = if plies_path.is_file() {
        let mut by_game: HashMap<String, Vec<PlyRecord>> =
            games.records.iter().map(|g| (g.game_id.clone(), Vec::new())).collect();
        for p in read_plies(&plies_path)? {
            if let Some(list) = by_game.get_mut(&p.game_id) {
                list.push(p);
            }
        }
        for g in &games.records {
            let list = &by_game[&g.game_id];
            if list.len() != g.plies as usize || list.iter().zip(1..).any(|(p, i)| p.ply != i) {
                return Err(Error::Inconsistent {
                    path: plies_path,
                    detail: format!(
                        "game {} has {} ply rows for its {} plies, or they are out of order",
                        g.game_id,
                        list.len(),
                        g.plies
                    ),
                });
            }
        }
        Some(by_game)
    } else {
        None
    };
    Ok(RunRecords { version: games.version, games: games.records, plies })
}
