//! Reading self-play output into one de-duplicated polars frame, and writing the Parquet copies.
//!
//! The records are read by `stackchess-records` (the one reader and schema of `games.csv` and
//! `plies.csv`, versions 1 and 2; its errors name the file and line) and the frame is built from
//! them, one column per schema column. A `games.parquet` is read by polars and checked against the
//! same schema. A version-2 directory's `plies.csv` is read too, for the per-ply statistics.

use crate::error::{AnalysisError, Result};
use polars::prelude::*;
use polars_io::prelude::{ParquetReader, ParquetWriter, SerReader};
use stackchess_records::{
    Column as RecordColumn, GameRecord, Kind, PlyRecord, Value, Version, GAME_COLUMNS, PLY_COLUMNS,
};
use std::collections::HashMap;
use std::path::{Path, PathBuf};

pub use stackchess_records::{GAMES_CSV as GAMES_FILE, GAMES_PARQUET, PLIES_CSV, PLIES_PARQUET};

/// The column names of `games.csv` (version 2; version 1 is the first 25), in order.
#[must_use]
pub fn column_names() -> Vec<&'static str> {
    GAME_COLUMNS.iter().map(|c| c.name).collect()
}

/// Games read from one or more inputs, de-duplicated by `game_id` (first occurrence kept).
#[derive(Clone, Debug)]
pub struct Games {
    /// One row a game, the `games.csv` columns (version 2; version-1 games have empty
    /// `rules_id` and `opening_moves`).
    pub df: DataFrame,
    /// The files read.
    pub files: Vec<PathBuf>,
    /// Rows dropped because their `game_id` was already seen.
    pub duplicates: usize,
    /// The plies of the games that have them (version-2 runs), by game id, in ply order.
    pub plies: HashMap<String, Vec<PlyRecord>>,
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
        Ok(Games { df, files: self.files.clone(), duplicates: self.duplicates, plies: self.plies.clone() })
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
    /// Opening plies from the rule set's start position (version 2; 0 when none or not known).
    pub opening_plies: usize,
}

impl GameRow {
    /// The group a game is reported in: variant and engine settings.
    #[must_use]
    pub fn group(&self) -> (&str, &str) {
        (&self.variant, &self.settings)
    }
    /// Whether White made the game's first move (the side to move in `start_lfen`).
    #[must_use]
    pub fn white_first(&self) -> bool {
        self.start_lfen.split_whitespace().nth(1) != Some("b")
    }
}

impl Games {
    /// The report header's lines on these games, read from `inputs`.
    #[must_use]
    pub fn notes(&self, inputs: &[String]) -> Vec<String> {
        vec![
            format!("Inputs: {}", inputs.join(", ")),
            format!(
                "{} games from {} file(s); {} duplicate game ids dropped",
                self.len(),
                self.files.len(),
                self.duplicates
            ),
        ]
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
        let openings = text("opening_moves")?;
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
                opening_plies: openings[i].split_whitespace().count(),
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
/// either) and de-duplicates the games by id; a version-2 directory's plies come along.
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
    let mut plies: HashMap<String, Vec<PlyRecord>> = HashMap::new();
    for file in &files {
        let (version, df) = read_file(file)?;
        let beside = file.with_file_name(PLIES_CSV);
        if version == Version::V2 && beside.is_file() {
            let ids: std::collections::HashSet<&str> = df.column("game_id")?.str()?.iter().flatten().collect();
            let mut here: HashMap<String, Vec<PlyRecord>> = HashMap::new();
            for p in stackchess_records::read_plies(&beside)? {
                if ids.contains(p.game_id.as_str()) {
                    here.entry(p.game_id.clone()).or_default().push(p);
                }
            }
            for (id, rows) in here {
                plies.entry(id).or_insert(rows);
            }
        }
        frames.push(df);
    }
    let mut df = match frames.split_first() {
        Some((first, rest)) => {
            let mut df = first.clone();
            for other in rest {
                df.vstack_mut(other)?;
            }
            df
        }
        None => DataFrame::empty_with_schema(&schema(&GAME_COLUMNS)),
    };
    let before = df.height();
    df = df.unique_stable(Some(&["game_id".to_owned()]), UniqueKeepStrategy::First, None)?;
    df.rechunk_mut();
    if df.height() == 0 {
        let names: Vec<_> = inputs.iter().map(AsRef::as_ref).collect();
        return Err(AnalysisError::NoGames { inputs: names.join(", ") });
    }
    one_rule_set_per_name(&df)?;
    Ok(Games { duplicates: before - df.height(), df, files, plies })
}

/// Refuses games of two rule sets that share a name (version-1 games, which carry no id, pass).
fn one_rule_set_per_name(df: &DataFrame) -> Result<()> {
    let mut ids: HashMap<&str, &str> = HashMap::new();
    let (variants, rules) = (df.column("variant")?.str()?, df.column("rules_id")?.str()?);
    for (variant, id) in variants.iter().zip(rules.iter()) {
        let (Some(variant), Some(id)) = (variant, id) else { continue };
        if id.is_empty() {
            continue;
        }
        match ids.insert(variant, id) {
            Some(first) if first != id => {
                return Err(AnalysisError::MixedRules {
                    variant: variant.to_owned(),
                    first: first.to_owned(),
                    second: id.to_owned(),
                })
            }
            _ => {}
        }
    }
    Ok(())
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

/// The polars type of a record column.
fn dtype(kind: Kind) -> DataType {
    match kind {
        Kind::Text => DataType::String,
        Kind::UInt => DataType::UInt64,
        Kind::Int | Kind::OptInt => DataType::Int64,
    }
}

/// The polars schema of `columns`.
fn schema(columns: &[RecordColumn]) -> Schema {
    columns.iter().map(|c| Field::new(c.name.into(), dtype(c.kind))).collect()
}

/// A frame of `rows`, one column per schema column, typed by the schema.
fn frame<R>(columns: &[RecordColumn], rows: &[R], value: impl Fn(&R, usize) -> Value<'_>) -> Result<DataFrame> {
    let mut out = Vec::with_capacity(columns.len());
    for (i, c) in columns.iter().enumerate() {
        let name = c.name.into();
        let col = match c.kind {
            Kind::Text => Column::new(
                name,
                rows.iter()
                    .map(|r| match value(r, i) {
                        Value::Text(s) => s,
                        _ => "",
                    })
                    .collect::<Vec<&str>>(),
            ),
            Kind::UInt => Column::new(
                name,
                rows.iter().map(|r| if let Value::UInt(n) = value(r, i) { n } else { 0 }).collect::<Vec<u64>>(),
            ),
            Kind::Int => Column::new(
                name,
                rows.iter().map(|r| if let Value::Int(n) = value(r, i) { n } else { 0 }).collect::<Vec<i64>>(),
            ),
            Kind::OptInt => Column::new(
                name,
                rows.iter()
                    .map(|r| if let Value::OptInt(n) = value(r, i) { n } else { None })
                    .collect::<Vec<Option<i64>>>(),
            ),
        };
        out.push(col);
    }
    Ok(DataFrame::new_infer_height(out)?)
}

/// The frame of game records, with every version-2 column.
///
/// # Errors
/// A polars error.
pub fn games_frame(records: &[GameRecord]) -> Result<DataFrame> {
    frame(&GAME_COLUMNS, records, GameRecord::value)
}

/// The frame of ply records.
///
/// # Errors
/// A polars error.
pub fn plies_frame(rows: &[PlyRecord]) -> Result<DataFrame> {
    frame(&PLY_COLUMNS, rows, PlyRecord::value)
}

/// Reads and checks one file: CSV through the records reader, or Parquet by its extension.
/// Returns its schema version and its frame (with every version-2 column).
fn read_file(path: &Path) -> Result<(Version, DataFrame)> {
    if is_parquet(path) {
        return read_parquet(path);
    }
    let games = stackchess_records::read_games(path)?;
    Ok((games.version, games_frame(&games.records)?))
}

/// Writes the games of `csv` (a `games.csv`) as Parquet to `out`, in the file's schema version,
/// through a temporary file renamed over `out`, so a reader never sees half a file. Returns the
/// number of games.
///
/// # Errors
/// Whatever the records reader reports for a bad `games.csv`, or a failed write (naming the file).
pub fn write_games_parquet(csv: &Path, out: &Path) -> Result<usize> {
    let games = stackchess_records::read_games(csv)?;
    let columns = &GAME_COLUMNS[..games.version.columns().len()];
    let mut df = frame(columns, &games.records, GameRecord::value)?;
    write_parquet(&mut df, out)?;
    Ok(games.records.len())
}

/// Writes the rows of `csv` (a `plies.csv`) as Parquet to `out`, like [`write_games_parquet`].
/// Returns the number of rows.
///
/// # Errors
/// Whatever the records reader reports for a bad `plies.csv`, or a failed write.
pub fn write_plies_parquet(csv: &Path, out: &Path) -> Result<usize> {
    let rows = stackchess_records::read_plies(csv)?;
    let mut df = plies_frame(&rows)?;
    write_parquet(&mut df, out)?;
    Ok(rows.len())
}

fn write_parquet(df: &mut DataFrame, out: &Path) -> Result<()> {
    let werr = |path: &Path, message: String| AnalysisError::Write { path: path.to_owned(), message };
    stackchess_files::write_with(out, |w| {
        ParquetWriter::new(w).finish(df).map(drop).map_err(|e| std::io::Error::other(e.to_string()))
    })
    .map_err(|e| werr(out, e.to_string()))
}

/// Reads a `games.parquet`, checking its columns (either version) and types against the schema,
/// and its game ids and results; a version-1 file gets the version-2 columns, empty.
fn read_parquet(path: &Path) -> Result<(Version, DataFrame)> {
    let file = std::fs::File::open(path).map_err(|source| AnalysisError::Io { path: path.to_owned(), source })?;
    if file.metadata().is_ok_and(|m| m.len() == 0) {
        return Err(AnalysisError::Empty { path: path.to_owned() });
    }
    let mut df = ParquetReader::new(file).finish().map_err(|e| AnalysisError::Parse {
        path: path.to_owned(),
        message: format!("not a readable Parquet file: {e}"),
    })?;
    let header: Vec<String> = df.get_column_names().iter().map(ToString::to_string).collect();
    let version =
        Version::of_header(&header).map_err(|detail| AnalysisError::Schema { path: path.to_owned(), detail })?;
    let columns = &GAME_COLUMNS[..version.columns().len()];
    for field in schema(columns).iter_fields() {
        let got = df.column(field.name())?.dtype();
        if got != field.dtype() {
            return Err(AnalysisError::Schema {
                path: path.to_owned(),
                detail: format!("column '{}' has type {got}, expected {}", field.name(), field.dtype()),
            });
        }
        if field.dtype() != &DataType::String && df.column(field.name())?.null_count() > 0 {
            let mask = df.column(field.name())?.is_null();
            let row = mask.iter().position(|m| m == Some(true)).unwrap_or(0);
            let detail = format!("missing value in column '{}'", field.name());
            return Err(AnalysisError::Record { path: path.to_owned(), line: row + 1, detail });
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
    for c in &GAME_COLUMNS[columns.len()..] {
        df.with_column(Column::new(c.name.into(), vec![""; df.height()]))?;
    }
    Ok((version, df))
}
