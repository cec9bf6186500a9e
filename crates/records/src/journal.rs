//! The durable journals of a run: `games.csv` and `plies.csv`, appended and flushed one game at a
//! time, checked and repaired when a run is resumed.
//!
//! A game's plies are written before its `games.csv` line, which is the commit point: a kill
//! can leave a line cut off in either file, and plies of a game that has no `games.csv` line.
//! Opening the files cuts the former off and drops the latter.

use crate::read::{scan, Tail, GAMES_TABLE, PLIES_TABLE};
use crate::{Error, GameRecord, PlyRecord, Version, PLY_COLUMNS};
use std::collections::HashMap;
use std::fs::{File, OpenOptions};
use std::io::{Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};

/// What opening a journal found.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Recovered {
    /// Complete records kept.
    pub records: u64,
    /// Bytes of an incomplete last record that were cut off (0 when the file was intact).
    pub truncated_bytes: u64,
    /// Rows dropped because their game was never committed (`plies.csv` only).
    pub dropped: u64,
}

/// An append-only file.
#[derive(Debug)]
struct Journal {
    path: PathBuf,
    file: File,
}

impl Journal {
    fn create(path: &Path, header: &str) -> Result<Journal, Error> {
        let io = |e| Error::io(path, e);
        let mut file = OpenOptions::new().write(true).create_new(true).open(path).map_err(io)?;
        file.write_all(header.as_bytes()).map_err(io)?;
        Ok(Journal { path: path.to_owned(), file })
    }

    fn open_rw(path: &Path) -> Result<(File, u64), Error> {
        let io = |e| Error::io(path, e);
        let file = OpenOptions::new().read(true).write(true).open(path).map_err(io)?;
        let len = file.metadata().map_err(io)?.len();
        Ok((file, len))
    }

    /// Cuts the file to `keep` bytes (writing `header` if not even it survived) and positions it
    /// for appending.
    fn settle(path: &Path, mut file: File, len: u64, keep: u64, header: &str) -> Result<Journal, Error> {
        let io = |e| Error::io(path, e);
        if keep == 0 {
            file.set_len(0).map_err(io)?;
            file.seek(SeekFrom::Start(0)).map_err(io)?;
            file.write_all(header.as_bytes()).map_err(io)?;
        } else if keep < len {
            file.set_len(keep).map_err(io)?;
        }
        file.sync_data().map_err(io)?;
        file.seek(SeekFrom::End(0)).map_err(io)?;
        Ok(Journal { path: path.to_owned(), file })
    }

    /// Appends `bytes` whole, or (on a write error: a full disk, a file-size limit) cuts off what
    /// part of them was written, so the file still ends with a complete record.
    fn append(&mut self, bytes: &[u8]) -> Result<(), Error> {
        append_whole(&mut self.file, &self.path, bytes)
    }

    fn sync(&self) -> Result<(), Error> {
        self.file.sync_data().map_err(|e| Error::io(&self.path, e))
    }
}

/// Appends `bytes` to `file` (positioned at its end, or opened to append) whole, or cuts the
/// file back to where it ended and returns the write error. Cutting needs no room, so it works on a full disk and past a
/// file-size limit; where it fails too (a file system gone read-only), the part written is a cut
/// last record, which opening the journal drops.
///
/// # Errors
/// The write error, naming `path`.
pub fn append_whole(file: &mut File, path: &Path, bytes: &[u8]) -> Result<(), Error> {
    let end = file.metadata().map_err(|e| Error::io(path, e))?.len();
    let written = file.write_all(bytes).and_then(|()| file.flush());
    written.map_err(|e| {
        if file.set_len(end).is_ok() {
            let _ = file.seek(SeekFrom::End(0));
        }
        Error::io(path, e)
    })
}

/// `games.csv`: the header, then one line per finished game in the file's schema version.
#[derive(Debug)]
pub struct GamesFile {
    journal: Journal,
    version: Version,
}

impl GamesFile {
    /// Creates the file with the header of the current version ([`Version::CURRENT`]). Fails if it
    /// exists.
    ///
    /// # Errors
    /// On an I/O error.
    pub fn create(path: &Path) -> Result<GamesFile, Error> {
        GamesFile::create_version(path, Version::CURRENT)
    }

    /// Creates the file with the header of `version`. Fails if it exists.
    ///
    /// # Errors
    /// On an I/O error.
    pub fn create_version(path: &Path, version: Version) -> Result<GamesFile, Error> {
        let journal = Journal::create(path, &crate::columns::header_line(version.columns()))?;
        Ok(GamesFile { journal, version })
    }

    /// Opens an existing file to append to it: reads the header (which decides the version that
    /// is appended), hands every record to `each` with its line number (an `Err` from `each` is
    /// an error naming that line), and cuts off an incomplete last record (no final newline, or
    /// a last line that does not parse).
    ///
    /// # Errors
    /// A header of no version, or a bad record before the last one, naming the file and line.
    pub fn open(
        path: &Path,
        mut each: impl FnMut(GameRecord) -> Result<(), String>,
    ) -> Result<(GamesFile, Recovered), Error> {
        let (mut file, len) = Journal::open_rw(path)?;
        let mut records = 0;
        let (version, keep) = scan(path, &mut file, len, Tail::Tolerant, &GAMES_TABLE, |line, _, rec| {
            records += 1;
            each(rec).map_err(|m| Error::record(path, line, m))
        })?;
        let version = version.unwrap_or(Version::CURRENT);
        let journal = Journal::settle(path, file, len, keep, &crate::columns::header_line(version.columns()))?;
        Ok((GamesFile { journal, version }, Recovered { records, truncated_bytes: len - keep, dropped: 0 }))
    }

    /// The schema version of the file.
    #[must_use]
    pub fn version(&self) -> Version {
        self.version
    }

    /// Appends one record (in the file's version) and hands it to the operating system.
    ///
    /// # Errors
    /// On an I/O error.
    pub fn append(&mut self, rec: &GameRecord) -> Result<(), Error> {
        let line = rec.to_line(self.version).map_err(|m| Error::record(&self.journal.path, 0, m))?;
        self.journal.append(&line)
    }

    /// Forces the records to disk.
    ///
    /// # Errors
    /// On an I/O error.
    pub fn sync(&self) -> Result<(), Error> {
        self.journal.sync()
    }
}

/// `plies.csv`: the header, then each game's plies, written before the game's `games.csv` line.
#[derive(Debug)]
pub struct PliesFile {
    journal: Journal,
    /// Columns written per row: all of them, or the ten of a file written before clocks.
    columns: usize,
}

impl PliesFile {
    /// Creates the file with its header. Fails if it exists.
    ///
    /// # Errors
    /// On an I/O error.
    pub fn create(path: &Path) -> Result<PliesFile, Error> {
        Ok(PliesFile {
            journal: Journal::create(path, &crate::columns::header_line(&PLY_COLUMNS))?,
            columns: PLY_COLUMNS.len(),
        })
    }

    /// Opens an existing file to append to it: cuts off an incomplete last row, and drops the
    /// rows of games that are not in `committed` (game id → ply count: the games of
    /// `games.csv`), whose `games.csv` line was never written. Every committed game must have
    /// exactly its plies, numbered from 1.
    ///
    /// # Errors
    /// A wrong header, a bad row before the last one, or a committed game whose plies are
    /// missing, doubled or out of order.
    pub fn open(path: &Path, committed: &HashMap<String, u32>) -> Result<(PliesFile, Recovered), Error> {
        let (mut file, len) = Journal::open_rw(path)?;
        // Rows kept per committed game; where the last kept row ends; whether a dropped row came
        // before a kept one (then the file is rewritten rather than cut).
        let mut seen: HashMap<&str, u32> = HashMap::new();
        let (mut kept, mut dropped, mut gap, mut kept_end) = (0u64, 0u64, false, None);
        let (columns, keep) = scan(path, &mut file, len, Tail::Tolerant, &PLIES_TABLE, |line, end, row| {
            if let Some((id, _)) = committed.get_key_value(&row.game_id) {
                let n = seen.entry(id.as_str()).or_default();
                *n += 1;
                if row.ply != *n {
                    let detail = format!("game {}: ply {} where ply {n} was expected", row.game_id, row.ply);
                    return Err(Error::record(path, line, detail));
                }
                gap |= dropped > 0;
                kept += 1;
                kept_end = Some(end);
            } else {
                dropped += 1;
            }
            Ok(())
        })?;
        for (id, &plies) in committed {
            let have = seen.get(id.as_str()).copied().unwrap_or(0);
            if have != plies {
                let detail = format!("game {id} has {have} ply rows for its {plies} plies");
                return Err(Error::Inconsistent { path: path.to_owned(), detail });
            }
        }
        let columns = columns.unwrap_or(PLY_COLUMNS.len());
        let header = crate::columns::header_line(&PLY_COLUMNS[..columns]);
        let truncated_bytes = len - keep;
        let journal = if dropped == 0 {
            Journal::settle(path, file, len, keep, &header)?
        } else if !gap {
            // The dropped rows are the last ones: cut the file after the last kept row.
            Journal::settle(path, file, len, kept_end.unwrap_or(0), &header)?
        } else {
            drop(file);
            rewrite(path, &header, columns, committed)?;
            let (file, len) = Journal::open_rw(path)?;
            Journal::settle(path, file, len, len, &header)?
        };
        Ok((PliesFile { journal, columns }, Recovered { records: kept, truncated_bytes, dropped }))
    }

    /// Appends the plies of one game in one write, and hands them to the operating system.
    ///
    /// # Errors
    /// On an I/O error.
    pub fn append_game(&mut self, plies: &[PlyRecord]) -> Result<(), Error> {
        let mut bytes = Vec::with_capacity(plies.len() * 64);
        for p in plies {
            bytes.extend(p.to_line(self.columns).map_err(|m| Error::record(&self.journal.path, 0, m))?);
        }
        self.journal.append(&bytes)
    }

    /// Forces the rows to disk.
    ///
    /// # Errors
    /// On an I/O error.
    pub fn sync(&self) -> Result<(), Error> {
        self.journal.sync()
    }
}

/// Rewrites `path` with only the rows of committed games (through a temporary file).
fn rewrite(path: &Path, header: &str, columns: usize, committed: &HashMap<String, u32>) -> Result<(), Error> {
    let rows = {
        let mut file = File::open(path).map_err(|e| Error::io(path, e))?;
        let len = file.metadata().map_err(|e| Error::io(path, e))?.len();
        let mut rows = Vec::new();
        scan(path, &mut file, len, Tail::Tolerant, &PLIES_TABLE, |_, _, row| {
            if committed.contains_key(&row.game_id) {
                rows.push(row);
            }
            Ok(())
        })?;
        rows
    };
    let mut bad_row = None;
    let written = stackchess_files::write_with(path, |out| {
        out.write_all(header.as_bytes())?;
        for r in &rows {
            match r.to_line(columns) {
                Ok(line) => out.write_all(&line)?,
                Err(m) => {
                    bad_row = Some(m);
                    return Err(std::io::Error::other("a row that cannot be written"));
                }
            }
        }
        Ok(())
    });
    match bad_row {
        Some(m) => Err(Error::record(path, 0, m)),
        None => written.map_err(|e| Error::io(path, e)),
    }
}
