//! Balance analysis of self-play records: loading, statistics, comparisons, piece values and
//! an HTML report.
//!
//! The only crate of the workspace that depends on polars: polars de-duplicates, groups,
//! aggregates and writes the tables; the statistics are plain functions of `stackchess-stats`
//! (named in [`stats`]), tested there against hand-computed values. Input is the records of
//! self-play output directories, read by `stackchess-records` (see [`load`]); the per-ply
//! statistics ([`plies`]) need version-2 records with their `plies.csv`.

pub mod compare;
pub mod error;
pub mod ladder;
pub mod load;
pub mod openings;
pub mod pieces;
pub mod plan;
pub mod plies;
pub mod report;
pub mod stats;
pub mod summary;
pub mod svg;
pub mod table;

pub use compare::{compare, comparisons_table, Comparison};
pub use error::{AnalysisError, Result};
pub use ladder::Ladder;
pub use load::{load, GameRow, Games};
pub use pieces::{PieceOptions, PieceValues};
pub use report::{GameLink, Report};
pub use table::{render, write_all, Format, ShortNames, Table};

/// What [`analyse`] computes besides the always-present results, lengths and terminations.
#[derive(Clone, Debug, PartialEq)]
pub struct Options {
    /// Prefix lengths for opening diversity (empty: no openings table).
    pub opening_plies: Vec<usize>,
    /// Piece-value estimation, if wanted.
    pub pieces: Option<PieceOptions>,
    /// Per-ply statistics (evaluation by ply, comebacks) of games with plies, if wanted.
    pub plies: Option<plies::PlyOptions>,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            opening_plies: openings::DEFAULT_PLIES.to_vec(),
            pieces: Some(PieceOptions::default()),
            plies: Some(plies::PlyOptions::default()),
        }
    }
}

/// Everything `stackchess stats` shows.
#[derive(Clone, Debug)]
pub struct Analysis {
    /// The games.
    pub rows: Vec<GameRow>,
    /// Tables: summary, lengths, terminations, then openings and pieces when asked for.
    pub tables: Vec<Table>,
    /// Piece values per variant, when asked for.
    pub pieces: Option<Vec<PieceValues>>,
    /// Per-ply statistics, when asked for.
    pub plies: Option<plies::PlyStats>,
}

/// Computes the tables of a set of games.
///
/// # Errors
/// A polars error.
pub fn analyse(games: &Games, opts: &Options) -> Result<Analysis> {
    let rows = games.rows()?;
    let mut tables = vec![
        summary::results_table(games, &rows)?,
        summary::lengths_table(games)?,
        summary::terminations_table(games)?,
    ];
    if !opts.opening_plies.is_empty() {
        tables.push(openings::openings_table(&rows, &opts.opening_plies)?);
    }
    let pieces = opts.pieces.map(|p| pieces::piece_values(&rows, p));
    if let (Some(values), Some(p)) = (&pieces, opts.pieces) {
        tables.push(pieces::pieces_table(values, p)?);
    }
    let plies = opts.plies.map(|p| plies::ply_stats(&rows, &games.plies, p)).transpose()?;
    if let Some(stats) = &plies {
        tables.extend(stats.tables.iter().cloned());
    }
    Ok(Analysis { rows, tables, pieces, plies })
}

/// The comparison of two sets, and the analysis of both side by side with their variant names
/// prefixed by `A: ` and `B: ` (piece values are estimated per set).
///
/// # Errors
/// A set without games, or a polars error.
pub fn compare_sets(a: &Games, b: &Games, opts: &Options) -> Result<(Comparison, Analysis)> {
    let (ra, rb) = (a.rows()?, b.rows()?);
    let comparison =
        compare(&ra, &rb).ok_or_else(|| AnalysisError::NoGames { inputs: "one of the two sets".into() })?;
    let mut pieces = Vec::new();
    if let Some(p) = opts.pieces {
        for (label, rows) in [("A", &ra), ("B", &rb)] {
            for mut pv in pieces::piece_values(rows, p) {
                pv.variant = format!("{label}: {}", pv.variant);
                pieces.push(pv);
            }
        }
    }
    let mut both = a.labelled("A")?;
    let other = b.labelled("B")?;
    both.df.vstack_mut(&other.df)?;
    both.files.extend(b.files.iter().cloned());
    both.duplicates += b.duplicates;
    for (id, rows) in other.plies {
        both.plies.entry(id).or_insert(rows);
    }
    let mut analysis = analyse(&both, &Options { pieces: None, ..opts.clone() })?;
    if let Some(p) = opts.pieces {
        analysis.tables.push(pieces::pieces_table(&pieces, p)?);
        analysis.pieces = Some(pieces);
    }
    Ok((comparison, analysis))
}

impl Analysis {
    /// What the reader should know about games left out: those the piece-value regression could
    /// not replay (or fit), and those the per-ply statistics skip; a line each, prefixed
    /// `note:` or `warning:`.
    #[must_use]
    pub fn warnings(&self) -> Vec<String> {
        let mut out = Vec::new();
        if let Some(note) = self.plies.as_ref().and_then(plies::PlyStats::note) {
            out.push(format!("note: {note}"));
        }
        for pv in self.pieces.iter().flatten() {
            if pv.skipped > 0 {
                out.push(format!(
                    "warning: piece values for {}: {} game(s) could not be replayed and were left out (first: {})",
                    pv.variant,
                    pv.skipped,
                    pv.first_error.as_deref().unwrap_or("?")
                ));
            }
            if let Err(e) = &pv.fit {
                out.push(format!("warning: piece values for {}: {e}", pv.variant));
            }
        }
        out
    }

    /// The HTML report of this analysis (and of a comparison, if given).
    ///
    /// # Errors
    /// A polars error.
    pub fn report(&self, title: &str, notes: Vec<String>, comparison: Option<&Comparison>) -> Result<String> {
        self.report_with_games(title, notes, comparison, &[])
    }

    /// The HTML report with a section of links to games worth a look (see [`GameLink`]).
    ///
    /// # Errors
    /// A polars error.
    pub fn report_with_games(
        &self,
        title: &str,
        notes: Vec<String>,
        comparison: Option<&Comparison>,
        games: &[GameLink],
    ) -> Result<String> {
        report::html(&Report {
            title: title.to_owned(),
            notes,
            rows: &self.rows,
            tables: self.tables.clone(),
            pieces: self.pieces.as_deref(),
            plies: self.plies.as_ref(),
            comparison,
            games,
        })
    }
}
