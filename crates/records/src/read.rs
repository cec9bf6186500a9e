//! The one CSV reader of the records (the csv crate), and the readers of whole files and run
//! directories.

use crate::plies::PLY_COLUMNS_BEFORE_CLOCKS;
use crate::{Error, GameRecord, PlyRecord, Score, Version, GAMES_CSV, PLIES_CSV, PLY_COLUMNS};
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

/// Checks a header: what it decided (the schema version) and the field count, or what is wrong.
pub(crate) type HeaderCheck<H> = fn(&[String]) -> Result<(H, usize), String>;

/// A table's description for the scanner.
pub(crate) struct Table<H, T> {
    /// `games.csv` or `plies.csv`, for messages.
    pub name: &'static str,
    /// The start of the header, for the message about an empty file.
    pub header_start: &'static str,
    /// Checks the header; returns what it decided (the schema version) and the field count.
    pub header: HeaderCheck<H>,
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
    let last_byte = last_byte(path, file, len)?;
    let newline_at_end = last_byte == Some(b'\n');
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
    // A header is whole when a line terminator follows it: '\n', or a '\r' the csv reader takes
    // as one (a journal repaired down to such a header must read back as a header).
    if header_end >= len && !matches!(last_byte, Some(b'\n' | b'\r')) {
        return if tail == Tail::Tolerant { Ok((None, 0)) } else { Err(empty) };
    }
    let names: Vec<String> = row.iter().map(|s| s.trim().trim_start_matches('\u{feff}').to_owned()).collect();
    let (verdict, fields) =
        (table.header)(&names).map_err(|detail| Error::Header { path: path.to_owned(), table: table.name, detail })?;
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
            // A journal's unterminated last line may be cut inside its last field and still
            // parse: only a reader of finished files takes it.
            if !complete && tail == Tail::Tolerant {
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

/// The file's last byte (`None` for an empty file), leaving the position where it was.
fn last_byte(path: &Path, file: &mut File, len: u64) -> Result<Option<u8>, Error> {
    use std::io::Read;
    if len == 0 {
        return Ok(None);
    }
    let io = |e| Error::io(path, e);
    let here = file.stream_position().map_err(io)?;
    file.seek(SeekFrom::Start(len - 1)).map_err(io)?;
    let mut b = [0u8];
    file.read_exact(&mut b).map_err(io)?;
    file.seek(SeekFrom::Start(here)).map_err(io)?;
    Ok(Some(b[0]))
}

pub(crate) const GAMES_TABLE: Table<Version, GameRecord> = Table {
    name: "games.csv",
    header_start: "game_id,run_key",
    header: |names| Version::of_header(names).map(|v| (v, v.columns().len())),
    check: GameRecord::check,
};

/// The header of `plies.csv` decides its width: every column, or the ten written before clocks.
pub(crate) const PLIES_TABLE: Table<usize, PlyRecord> = Table {
    name: "plies.csv",
    header_start: "game_id,ply",
    header: |names| {
        for n in [PLY_COLUMNS.len(), PLY_COLUMNS_BEFORE_CLOCKS] {
            if names.iter().map(String::as_str).eq(PLY_COLUMNS[..n].iter().map(|c| c.name)) {
                return Ok((n, n));
            }
        }
        Err(crate::columns::header_difference(&PLY_COLUMNS, names))
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

/// One finished game with the searched plies recorded for it, in ply order.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct RecordedGame {
    /// Its `games.csv` row.
    pub game: GameRecord,
    /// Its `plies.csv` rows, by ply; empty when the run has no `plies.csv` or none for this game.
    pub plies: Vec<PlyRecord>,
}

impl RecordedGame {
    /// The mover's recorded score for each searched ply (index 0 is the game's first move), as
    /// far as the last ply with a row; `None` where a ply has no row or no score.
    #[must_use]
    pub fn scores(&self) -> Vec<Option<Score>> {
        let mut out = vec![None; self.plies.last().map_or(0, |p| p.ply as usize)];
        for p in &self.plies {
            out[p.ply as usize - 1] = p.score();
        }
        out
    }
}

/// Reads the games of one input, a run directory or a `games.csv` file, each with its rows of
/// the `plies.csv` beside it. Looser than [`read_run`], for viewers: a game may have rows for
/// only some of its plies (a hand-assembled or partly copied run), or none.
///
/// # Errors
/// As [`read_games`] and [`read_plies`]; a game with two rows for one ply, or a row past its
/// last ply.
pub fn read_recorded(input: &Path) -> Result<Vec<RecordedGame>, Error> {
    let (games_path, dir) = if input.is_dir() {
        (input.join(GAMES_CSV), input)
    } else {
        (input.to_owned(), input.parent().unwrap_or(Path::new(".")))
    };
    let games = read_games(&games_path)?;
    let mut plies: HashMap<String, Vec<PlyRecord>> = HashMap::new();
    let plies_path = dir.join(PLIES_CSV);
    if plies_path.is_file() {
        let ids: std::collections::HashSet<&str> = games.records.iter().map(|g| g.game_id.as_str()).collect();
        for p in read_plies(&plies_path)?.into_iter().filter(|p| ids.contains(p.game_id.as_str())) {
            plies.entry(p.game_id.clone()).or_default().push(p);
        }
    }
    let mut out = Vec::with_capacity(games.records.len());
    for game in games.records {
        let mut rows = plies.remove(&game.game_id).unwrap_or_default();
        rows.sort_by_key(|p| p.ply);
        let bad = rows.windows(2).find(|w| w[0].ply == w[1].ply).map(|w| format!("two rows for ply {}", w[0].ply));
        let bad = bad.or_else(|| {
            rows.last().filter(|p| p.ply > game.plies).map(|p| format!("a row for ply {} of its {}", p.ply, game.plies))
        });
        if let Some(detail) = bad {
            let detail = format!("game {}: {detail}", game.game_id);
            return Err(Error::Inconsistent { path: plies_path, detail });
        }
        out.push(RecordedGame { game, plies: rows });
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{GamesFile, PliesFile, PLY_COLUMNS_BEFORE_CLOCKS};

    fn scratch(name: &str) -> std::path::PathBuf {
        let d = std::env::temp_dir().join(format!("stackchess-records-{}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&d);
        std::fs::create_dir_all(&d).unwrap();
        d
    }

    fn game(i: u64) -> GameRecord {
        GameRecord {
            game_id: GameRecord::id("k", i),
            run_key: "k".into(),
            index: i,
            moves: "a b".into(),
            plies: 2,
            result: "1-0".into(),
            settings: "nodes=1, \"quoted\"".into(),
            ..GameRecord::default()
        }
    }

    fn ply(i: u64, p: u32) -> PlyRecord {
        PlyRecord {
            game_id: GameRecord::id("k", i),
            ply: p,
            mv: "a".into(),
            score_cp: Some(-5),
            ..PlyRecord::default()
        }
    }

    #[test]
    fn journals_round_trip_and_cut_lines_are_repaired() {
        let d = scratch("journal");
        let (g, p) = (d.join("games.csv"), d.join("plies.csv"));
        let (mut games, mut plies) = (GamesFile::create(&g).unwrap(), PliesFile::create(&p).unwrap());
        for i in 0..3 {
            plies.append_game(&[ply(i, 1), ply(i, 2)]).unwrap();
            games.append(&game(i)).unwrap();
        }
        // Game 3's plies, then a kill before its games.csv line, in the middle of its second row.
        plies.append_game(&[ply(3, 1), ply(3, 2)]).unwrap();
        drop((games, plies));
        let text = std::fs::read_to_string(&p).unwrap();
        std::fs::write(&p, &text[..text.len() - 7]).unwrap();
        let run = read_games(&g).unwrap();
        assert_eq!((run.version, run.records.len(), run.lines.clone()), (Version::V2, 3, vec![2, 3, 4]));
        assert_eq!(run.records[1], game(1));
        assert!(read_plies(&p).is_err(), "a strict read sees the cut line");

        let mut seen = Vec::new();
        let (_, r) = GamesFile::open(&g, |rec| {
            seen.push(rec.index);
            Ok(())
        })
        .unwrap();
        assert_eq!((seen, r.truncated_bytes), (vec![0, 1, 2], 0));
        let committed: HashMap<String, u32> = (0..3).map(|i| (GameRecord::id("k", i), 2)).collect();
        let (_, r) = PliesFile::open(&p, &committed).unwrap();
        assert_eq!((r.records, r.dropped), (6, 1));
        assert!(r.truncated_bytes > 0);
        assert_eq!(read_plies(&p).unwrap().len(), 6);
        let run = read_run(&d).unwrap();
        assert_eq!(run.plies_of(&GameRecord::id("k", 2)).unwrap(), &[ply(2, 1), ply(2, 2)]);

        // A cut games.csv line is dropped; a bad line before the last one is an error.
        let text = std::fs::read_to_string(&g).unwrap();
        std::fs::write(&g, &text[..text.len() - 3]).unwrap();
        let (_, r) = GamesFile::open(&g, |_| Ok(())).unwrap();
        assert_eq!(r.records, 2);
        let text = std::fs::read_to_string(&g).unwrap();
        std::fs::write(&g, text.replacen(",1-0,", ",2-0,", 1)).unwrap();
        let e = GamesFile::open(&g, |_| Ok(())).unwrap_err().to_string();
        assert!(e.contains("games.csv:2: result '2-0'"), "{e}");
        std::fs::remove_dir_all(d).unwrap();
    }

    #[test]
    fn dropped_rows_in_the_middle_are_rewritten_out() {
        let d = scratch("rewrite");
        let p = d.join("plies.csv");
        let mut plies = PliesFile::create(&p).unwrap();
        for i in 0..3 {
            plies.append_game(&[ply(i, 1)]).unwrap();
        }
        drop(plies);
        let committed: HashMap<String, u32> = [0, 2].map(|i| (GameRecord::id("k", i), 1)).into_iter().collect();
        let (mut file, r) = PliesFile::open(&p, &committed).unwrap();
        assert_eq!((r.records, r.dropped), (2, 1));
        file.append_game(&[ply(3, 1)]).unwrap();
        let ids: Vec<String> = read_plies(&p).unwrap().into_iter().map(|r| r.game_id).collect();
        assert_eq!(ids, ["k-000000", "k-000002", "k-000003"]);
        // A committed game whose plies are missing is named.
        let more: HashMap<String, u32> = [(GameRecord::id("k", 0), 2)].into_iter().collect();
        let e = PliesFile::open(&p, &more).unwrap_err().to_string();
        assert!(e.contains("game k-000000 has 1 ply rows for its 2 plies"), "{e}");
        std::fs::remove_dir_all(d).unwrap();
    }

    #[test]
    fn plies_files_before_clocks_are_read_and_appended_as_they_are() {
        let d = scratch("before-clocks");
        let p = d.join("plies.csv");
        let names: Vec<&str> = PLY_COLUMNS[..PLY_COLUMNS_BEFORE_CLOCKS].iter().map(|c| c.name).collect();
        std::fs::write(&p, format!("{}\nk-000000,1,a,,-5,,0,0,0,7\n", names.join(","))).unwrap();
        let rows = read_plies(&p).unwrap();
        assert_eq!((rows.len(), rows[0].time_ms, rows[0].clock_ms), (1, 7, None));
        let committed: HashMap<String, u32> = [(GameRecord::id("k", 0), 1)].into_iter().collect();
        let (mut file, _) = PliesFile::open(&p, &committed).unwrap();
        file.append_game(&[PlyRecord { clock_ms: Some(-3), ..ply(1, 1) }]).unwrap();
        let text = std::fs::read_to_string(&p).unwrap();
        assert!(text.lines().all(|l| l.split(',').count() == PLY_COLUMNS_BEFORE_CLOCKS), "{text}");
        // A new file has the clock column; a row without a score reads (an engine that gave none).
        let q = d.join("new.csv");
        let mut file = PliesFile::create(&q).unwrap();
        file.append_game(&[PlyRecord { clock_ms: Some(-3), score_cp: None, ..ply(1, 1) }]).unwrap();
        let rows = read_plies(&q).unwrap();
        assert_eq!((rows[0].clock_ms, rows[0].score_cp, rows[0].mate), (Some(-3), None, None));
        std::fs::remove_dir_all(d).unwrap();
    }

    #[test]
    fn version_1_files_are_read_and_appended_as_version_1() {
        let d = scratch("v1");
        let g = d.join("games.csv");
        let mut v1 = GamesFile::create_version(&g, Version::V1).unwrap();
        v1.append(&GameRecord { opening_moves: "x y".into(), ..game(0) }).unwrap();
        drop(v1);
        let (mut file, _) = GamesFile::open(&g, |_| Ok(())).unwrap();
        assert_eq!(file.version(), Version::V1);
        file.append(&game(1)).unwrap();
        let read = read_games(&g).unwrap();
        assert_eq!(read.version, Version::V1);
        assert_eq!(read.records, vec![game(0), game(1)], "the version-2 columns are not written");
        assert!(read_run(&d).unwrap().plies.is_none());
        // A finished file without its last newline still reads.
        let text = std::fs::read_to_string(&g).unwrap();
        std::fs::write(&g, text.trim_end()).unwrap();
        assert_eq!(read_games(&g).unwrap().records.len(), 2);
        std::fs::write(&g, "").unwrap();
        assert!(read_games(&g).unwrap_err().to_string().contains("empty file"));
        std::fs::remove_dir_all(d).unwrap();
    }

    /// A fuzz find (fuzz/corpus/games_csv/crash-eb0706dc): a header ended by '\r' and a cut line
    /// with no '\n' anywhere. The journal kept the header and its '\r', which the strict reader
    /// then called an empty file.
    #[test]
    fn a_journal_repaired_down_to_a_header_ended_by_a_carriage_return_reads_back() {
        let d = scratch("cr-header");
        let g = d.join("games.csv");
        let header = crate::columns::header_line(Version::CURRENT.columns());
        std::fs::write(&g, format!("{}\rgame_id,run_key,varia", header.trim_end())).unwrap();
        let (mut file, recovered) = GamesFile::open(&g, |_| Ok(())).unwrap();
        assert_eq!(recovered.records, 0);
        assert!(recovered.truncated_bytes > 0, "the cut line is cut off");
        assert!(read_games(&g).unwrap().records.is_empty(), "a header alone is a file with no games");
        file.append(&game(0)).unwrap();
        drop(file);
        assert_eq!(read_games(&g).unwrap().records, vec![game(0)]);
        std::fs::remove_dir_all(d).unwrap();
    }

    #[test]
    fn recorded_games_take_the_plies_they_have_and_refuse_impossible_ones() {
        let d = scratch("recorded");
        let (g, p) = (d.join("games.csv"), d.join("plies.csv"));
        let mut games = GamesFile::create(&g).unwrap();
        for i in 0..3 {
            games.append(&game(i)).unwrap();
        }
        drop(games);
        // No plies.csv: every game without plies.
        let read = read_recorded(&d).unwrap();
        assert_eq!(read.iter().map(|r| (r.game.index, r.plies.len())).collect::<Vec<_>>(), [(0, 0), (1, 0), (2, 0)]);
        // Game 0 has its second ply only, game 1 both (written out of order), game 2 none; rows
        // of a game not in games.csv are left out. The file itself can be named.
        let mut plies = PliesFile::create(&p).unwrap();
        plies.append_game(&[ply(0, 2), ply(1, 2), ply(1, 1), ply(9, 1)]).unwrap();
        drop(plies);
        let read = read_recorded(&g).unwrap();
        assert_eq!(read[0].scores(), [None, Some(Score::Cp(-5))]);
        assert_eq!(read[1].plies.iter().map(|p| p.ply).collect::<Vec<_>>(), [1, 2]);
        assert!(read[2].plies.is_empty() && read[2].scores().is_empty());
        // The strict reader calls the same files inconsistent.
        assert!(matches!(read_run(&d), Err(Error::Inconsistent { .. })));
        // Two rows for one ply, or a row past the game's end: an error naming the game.
        for (bad, want) in [(ply(2, 1), "two rows for ply 1"), (ply(2, 3), "a row for ply 3 of its 2")] {
            std::fs::remove_file(&p).unwrap();
            let mut plies = PliesFile::create(&p).unwrap();
            plies.append_game(&[ply(2, 1), bad]).unwrap();
            drop(plies);
            let e = read_recorded(&d).unwrap_err().to_string();
            assert!(e.contains(&GameRecord::id("k", 2)) && e.contains(want), "{e}");
        }
        std::fs::remove_dir_all(d).unwrap();
    }
}
