//! Reading self-play output (`games.csv`, or its `games.parquet` copy) into one de-duplicated
//! polars frame, and writing that copy.
//!
//! Each file is checked before polars parses it, so that a bad input is named precisely: an
//! empty file, a header that is not the schema, a record with the wrong number of fields (a
//! truncated last line is the usual case: the run was interrupted), a result that is not
//! `1-0`, `0-1` or `1/2-1/2`.

use crate::error::{AnalysisError, Result};
use polars::prelude::*;
use polars_io::prelude::{CsvReadOptions, ParquetReader, ParquetWriter, SerReader};
use std::io::Cursor;
use std::path::{Path, PathBuf};

/// A column's type in `games.csv`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    Text,
    Int,
    Unsigned,
}

/// The `games.csv` schema, in file order.
const COLUMNS: [(&str, Kind); 25] = [
    ("game_id", Kind::Text),
    ("run_key", Kind::Text),
    ("variant", Kind::Text),
    ("seed", Kind::Unsigned),
    ("index", Kind::Int),
    ("pair", Kind::Int),
    ("white", Kind::Text),
    ("black", Kind::Text),
    ("start_lfen", Kind::Text),
    ("moves", Kind::Text),
    ("result", Kind::Text),
    ("termination", Kind::Text),
    ("plies", Kind::Int),
    ("material_white", Kind::Int),
    ("material_black", Kind::Int),
    ("level_changes_white", Kind::Int),
    ("level_changes_black", Kind::Int),
    ("captures_white", Kind::Int),
    ("captures_black", Kind::Int),
    ("checks_white", Kind::Int),
    ("checks_black", Kind::Int),
    ("nodes", Kind::Int),
    ("duration_ms", Kind::Int),
    ("settings", Kind::Text),
    ("version", Kind::Text),
];

/// The column names of `games.csv`, in order.
#[must_use]
pub fn column_names() -> Vec<&'static str> {
    COLUMNS.iter().map(|(n, _)| *n).collect()
}

/// The file name a self-play output directory holds its records in.
pub const GAMES_FILE: &str = "games.csv";
/// The Parquet copy of the records that `selfplay --format parquet` keeps beside `games.csv`.
pub const GAMES_PARQUET: &str = "games.parquet";

/// Games read from one or more inputs, de-duplicated by `game_id` (first occurrence kept).
#[derive(Clone, Debug)]
pub struct Games {
    /// One row a game, the `games.csv` columns.
    pub df: DataFrame,
    /// The files read.
    pub files: Vec<PathBuf>,
    /// Rows dropped because their `game_id` was already seen.
    pub duplicates: usize,
}

impl Games {
    /// Number of games.
    #[must_use]
    pub fn len(&self) -> usize {
        self.df.height()
    }
    /// A copy with every variant name prefixed by `label: ` (to show two sets side by side).
    ///
    /// # Errors
    /// Only if the frame lost its variant column.
    pub fn labelled(&self, label: &str) -> Result<Games> {
        let names: Vec<String> =
            self.df.column("variant")?.str()?.iter().map(|v| format!("{label}: {}", v.unwrap_or_default())).collect();
        let mut df = self.df.clone();
        df.with_column(Column::new("variant".into(), names))?;
        Ok(Games { df, files: self.files.clone(), duplicates: self.duplicates })
    }
    /// Whether there is no game.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.df.height() == 0
    }
}

/// One game, as the analyses in Rust need it.
#[derive(Clone, Debug, PartialEq)]
pub struct GameRow {
    /// `<run_key>-<index>`.
    pub game_id: String,
    /// The run it belongs to.
    pub run_key: String,
    /// Variant name.
    pub variant: String,
    /// Engine settings string.
    pub settings: String,
    /// Opening number: the games of a paired opening share it.
    pub pair: i64,
    /// White's engine label.
    pub white: String,
    /// Black's engine label.
    pub black: String,
    /// Start position (LFEN).
    pub start_lfen: String,
    /// Moves in coordinate notation, space-separated.
    pub moves: String,
    /// White's points: 1, ½ or 0.
    pub white_points: f64,
    /// Termination reason.
    pub termination: String,
    /// Game length in plies.
    pub plies: i64,
}

impl GameRow {
    /// The group a game is reported in: variant and engine settings.
    #[must_use]
    pub fn group(&self) -> (&str, &str) {
        (&self.variant, &self.settings)
    }
}

impl Games {
    /// The games as rows, in frame order.
    ///
    /// # Errors
    /// Only if the frame lost a column (not for frames made by [`load`]).
    pub fn rows(&self) -> Result<Vec<GameRow>> {
        let text = |name: &str| -> Result<Vec<String>> {
            Ok(self.df.column(name)?.str()?.iter().map(|v| v.unwrap_or_default().to_owned()).collect())
        };
        let int = |name: &str| -> Result<Vec<i64>> {
            Ok(self.df.column(name)?.i64()?.iter().map(Option::unwrap_or_default).collect())
        };
        let (ids, runs, variants, settings) = (text("game_id")?, text("run_key")?, text("variant")?, text("settings")?);
        let (whites, blacks, lfens, moves) = (text("white")?, text("black")?, text("start_lfen")?, text("moves")?);
        let (results, terms, pairs, plies) = (text("result")?, text("termination")?, int("pair")?, int("plies")?);
        let mut rows = Vec::with_capacity(ids.len());
        let all = ids.into_iter().zip(runs).zip(variants).zip(settings).zip(whites).zip(blacks).zip(lfens).zip(moves);
        for (i, (((((((game_id, run_key), variant), settings), white), black), start_lfen), moves)) in all.enumerate() {
            rows.push(GameRow {
                game_id,
                run_key,
                variant,
                settings,
                pair: pairs[i],
                white,
                black,
                start_lfen,
                moves,
                white_points: points(&results[i]),
                termination: terms[i].clone(),
                plies: plies[i],
            });
        }
        Ok(rows)
    }
}

/// White's points for a result string (checked on load).
fn points(result: &str) -> f64 {
    match result {
        "1-0" => 1.0,
        "0-1" => 0.0,
        _ => 0.5,
    }
}

/// Reads every input (a self-play output directory, a `games.csv` file, or a glob pattern of
/// either) and de-duplicates the games by id.
///
/// # Errors
/// An input that does not exist or matches nothing, a directory without `games.csv`, an
/// unreadable, empty, truncated or schema-mismatched file, or no game at all.
pub fn load<S: AsRef<str>>(inputs: &[S]) -> Result<Games> {
    let mut files = Vec::new();
    for input in inputs {
        for file in resolve(input.as_ref())? {
            if !files.contains(&file) {
                files.push(file);
            }
        }
    }
    let mut frames = Vec::with_capacity(files.len());
    for file in &files {
        frames.push(read_file(file)?);
    }
    let mut df = match frames.split_first() {
        Some((first, rest)) => {
            let mut df = first.clone();
            for other in rest {
                df.vstack_mut(other)?;
            }
            df
        }
        None => DataFrame::empty_with_schema(&schema()),
    };
    let before = df.height();
    df = df.unique_stable(Some(&["game_id".to_owned()]), UniqueKeepStrategy::First, None)?;
    df.rechunk_mut();
    if df.height() == 0 {
        let names: Vec<_> = inputs.iter().map(AsRef::as_ref).collect();
        return Err(AnalysisError::NoGames { inputs: names.join(", ") });
    }
    Ok(Games { duplicates: before - df.height(), df, files })
}

/// The files an input names.
fn resolve(input: &str) -> Result<Vec<PathBuf>> {
    let path = Path::new(input);
    if path.exists() {
        return Ok(vec![games_file(path)?]);
    }
    if !input.contains(['*', '?', '[']) {
        return Err(AnalysisError::NotFound { path: path.to_owned() });
    }
    let paths =
        glob::glob(input).map_err(|e| AnalysisError::Pattern { pattern: input.to_owned(), detail: e.to_string() })?;
    let mut files = Vec::new();
    for p in paths {
        let p = p.map_err(|e| AnalysisError::Io { path: e.path().to_owned(), source: e.into() })?;
        files.push(games_file(&p)?);
    }
    if files.is_empty() {
        return Err(AnalysisError::Pattern {
            pattern: input.to_owned(),
            detail: "matches no file or directory".into(),
        });
    }
    files.sort();
    Ok(files)
}

/// `dir/games.csv` for a directory (its journal, always the most complete), else
/// `dir/games.parquet`; the path itself for a file.
fn games_file(path: &Path) -> Result<PathBuf> {
    if path.is_dir() {
        [GAMES_FILE, GAMES_PARQUET]
            .iter()
            .map(|name| path.join(name))
            .find(|file| file.is_file())
            .ok_or_else(|| AnalysisError::NoGamesFile { path: path.to_owned() })
    } else {
        Ok(path.to_owned())
    }
}

/// Whether a file is named `*.parquet`.
fn is_parquet(path: &Path) -> bool {
    path.extension().and_then(|e| e.to_str()).is_some_and(|e| e.eq_ignore_ascii_case("parquet"))
}

/// Writes the checked records of `csv` (a `games.csv`) as Parquet to `out`, through a temporary
/// file renamed over `out`, so a reader never sees half a file. Returns the number of games.
///
/// # Errors
/// Whatever [`load`] reports for a bad `games.csv`, or a failed write (naming the file).
pub fn write_games_parquet(csv: &Path, out: &Path) -> Result<usize> {
    let mut df = read_file(csv)?;
    let werr = |path: &Path, message: String| AnalysisError::Write { path: path.to_owned(), message };
    let tmp = out.with_extension("parquet.tmp");
    let file = std::fs::File::create(&tmp).map_err(|e| werr(&tmp, e.to_string()))?;
    ParquetWriter::new(file).finish(&mut df).map_err(|e| werr(&tmp, e.to_string()))?;
    std::fs::rename(&tmp, out).map_err(|e| werr(out, e.to_string()))?;
    Ok(df.height())
}

/// The polars schema of `games.csv`.
fn schema() -> Schema {
    COLUMNS
        .iter()
        .map(|&(name, kind)| {
            let dtype = match kind {
                Kind::Text => DataType::String,
                Kind::Int => DataType::Int64,
                Kind::Unsigned => DataType::UInt64,
            };
            Field::new(name.into(), dtype)
        })
        .collect()
}

/// Reads and checks one file: CSV, or Parquet by its extension.
fn read_file(path: &Path) -> Result<DataFrame> {
    if is_parquet(path) {
        return read_parquet(path);
    }
    let bytes = std::fs::read(path).map_err(|source| AnalysisError::Io { path: path.to_owned(), source })?;
    check_records(path, &bytes)?;
    let df = CsvReadOptions::default()
        .with_has_header(true)
        .with_schema(Some(Arc::new(schema())))
        .map_parse_options(|o| o.with_missing_is_null(false))
        .into_reader_with_file_handle(Cursor::new(bytes))
        .finish()
        .map_err(|e| AnalysisError::Parse { path: path.to_owned(), message: e.to_string() })?;
    check_values(path, &df, 2)?;
    Ok(df)
}

/// Splits CSV text into records (RFC 4180 quoting), each with its 1-based starting line and its
/// fields' count; `complete` is false for a last record without a final newline.
struct Record {
    line: usize,
    fields: Vec<String>,
    complete: bool,
}

fn records(text: &str) -> Vec<Record> {
    let mut out = Vec::new();
    let mut line = 1;
    let mut start_line = 1;
    let mut fields = Vec::new();
    let mut field = String::new();
    let mut quoted = false;
    let mut chars = text.chars().peekable();
    let mut any = false;
    while let Some(c) = chars.next() {
        any = true;
        match c {
            '"' if quoted && chars.peek() == Some(&'"') => {
                chars.next();
                field.push('"');
            }
            '"' => quoted = !quoted,
            ',' if !quoted => fields.push(std::mem::take(&mut field)),
            '\n' if !quoted => {
                if field.ends_with('\r') {
                    field.pop();
                }
                fields.push(std::mem::take(&mut field));
                out.push(Record { line: start_line, fields: std::mem::take(&mut fields), complete: true });
                line += 1;
                start_line = line;
                any = false;
            }
            '\n' => {
                line += 1;
                field.push(c);
            }
            _ => field.push(c),
        }
    }
    if any {
        fields.push(field);
        out.push(Record { line: start_line, fields, complete: false });
    }
    out
}

/// Checks the header and every record's field count.
fn check_records(path: &Path, bytes: &[u8]) -> Result<()> {
    let err = |line, detail: String| AnalysisError::Record { path: path.to_owned(), line, detail };
    if bytes.iter().all(u8::is_ascii_whitespace) {
        return Err(AnalysisError::Empty { path: path.to_owned() });
    }
    let text = std::str::from_utf8(bytes).map_err(|e| {
        #[allow(clippy::naive_bytecount, reason = "an error path: no crate for counting a few lines")]
        let line = 1 + bytes[..e.valid_up_to()].iter().filter(|&&b| b == b'\n').count();
        err(line, "not UTF-8 text".into())
    })?;
    let recs = records(text);
    let header = &recs[0];
    check_header(path, &header.fields)?;
    let n = COLUMNS.len();
    for r in &recs[1..] {
        if r.fields.len() == 1 && r.fields[0].trim().is_empty() {
            continue; // blank line
        }
        if r.fields.len() != n {
            let detail = if r.complete {
                format!("record has {} fields, expected {n}", r.fields.len())
            } else {
                format!(
                    "truncated last line: {} of {n} fields and no final newline (was the run interrupted?)",
                    r.fields.len()
                )
            };
            return Err(err(r.line, detail));
        }
        let result = &r.fields[10];
        if !matches!(result.as_str(), "1-0" | "0-1" | "1/2-1/2") {
            return Err(err(r.line, format!("result '{result}' is not 1-0, 0-1 or 1/2-1/2")));
        }
        if r.fields[0].is_empty() {
            return Err(err(r.line, "empty game_id".into()));
        }
    }
    Ok(())
}

/// Checks that the header is exactly the schema's columns, in order.
fn check_header(path: &Path, header: &[String]) -> Result<()> {
    let want = column_names();
    let got: Vec<&str> = header.iter().map(|s| s.trim().trim_start_matches('\u{feff}')).collect();
    if got == want {
        return Ok(());
    }
    let missing: Vec<_> = want.iter().filter(|w| !got.contains(w)).copied().collect();
    let extra: Vec<_> = got.iter().filter(|g| !want.contains(g)).copied().collect();
    let mut parts = Vec::new();
    if !missing.is_empty() {
        parts.push(format!("missing column(s) {}", missing.join(", ")));
    }
    if !extra.is_empty() {
        parts.push(format!("unexpected column(s) {}", extra.join(", ")));
    }
    if parts.is_empty() {
        parts.push(format!("columns out of order (expected {})", want.join(",")));
    }
    Err(AnalysisError::Schema { path: path.to_owned(), detail: parts.join("; ") })
}

/// Reads a `games.parquet`, checking its columns and types against the schema and its results.
fn read_parquet(path: &Path) -> Result<DataFrame> {
    let file = std::fs::File::open(path).map_err(|source| AnalysisError::Io { path: path.to_owned(), source })?;
    if file.metadata().is_ok_and(|m| m.len() == 0) {
        return Err(AnalysisError::Empty { path: path.to_owned() });
    }
    let df = ParquetReader::new(file).finish().map_err(|e| AnalysisError::Parse {
        path: path.to_owned(),
        message: format!("not a readable Parquet file: {e}"),
    })?;
    let header: Vec<String> = df.get_column_names().iter().map(ToString::to_string).collect();
    check_header(path, &header)?;
    for field in schema().iter_fields() {
        let got = df.column(field.name())?.dtype();
        if got != field.dtype() {
            return Err(AnalysisError::Schema {
                path: path.to_owned(),
                detail: format!("column '{}' has type {got}, expected {}", field.name(), field.dtype()),
            });
        }
    }
    let ids = df.column("game_id")?.str()?;
    for (row, (id, result)) in ids.iter().zip(df.column("result")?.str()?.iter()).enumerate() {
        let err = |detail: String| AnalysisError::Record { path: path.to_owned(), line: row + 1, detail };
        if id.is_none_or(str::is_empty) {
            return Err(err("empty game_id (row numbers count from 1)".into()));
        }
        if !matches!(result, Some("1-0" | "0-1" | "1/2-1/2")) {
            return Err(err(format!("result '{}' is not 1-0, 0-1 or 1/2-1/2", result.unwrap_or(""))));
        }
    }
    check_values(path, &df, 1)?;
    Ok(df)
}

/// Checks that no required value is missing; errors name row `r` (from 0) as line `r + first`.
fn check_values(path: &Path, df: &DataFrame, first: usize) -> Result<()> {
    for &(name, kind) in &COLUMNS {
        if kind == Kind::Text {
            continue;
        }
        let col = df.column(name)?;
        if col.null_count() > 0 {
            let mask = col.is_null();
            let row = mask.iter().position(|m| m == Some(true)).unwrap_or(0);
            return Err(AnalysisError::Record {
                path: path.to_owned(),
                line: row + first,
                detail: format!("missing value in column '{name}'"),
            });
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn schema_is_the_one_selfplay_writes() {
        assert_eq!(column_names(), stackchess_selfplay::COLUMNS);
    }

    #[test]
    fn records_follow_quotes_and_lines() {
        let r = records("a,b\n\"x,1\",\"say \"\"hi\"\"\"\n\"two\nlines\",z\nlast,partial");
        assert_eq!(r.len(), 4);
        assert_eq!(r[1].fields, ["x,1", "say \"hi\""]);
        assert_eq!((r[2].line, r[2].fields.len(), r[2].fields[0].as_str()), (3, 2, "two\nlines"));
        assert_eq!((r[3].line, r[3].complete), (5, false));
        assert!(r[..3].iter().all(|r| r.complete));
    }
}
