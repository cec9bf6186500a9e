//! The output and analysis flags of `stats`, `compare` and `balance`, and the loading of their
//! inputs.

use anyhow::{Context, Result};
use stackchess_analysis::{load, render, write_all, Analysis, Format, Games, Options, PieceOptions, Table};
use std::path::PathBuf;

/// How tables are printed.
#[derive(clap::ValueEnum, Clone, Copy, Debug, Default)]
pub enum FormatArg {
    /// Aligned text.
    #[default]
    Table,
    /// CSV (several tables separated by `# name` lines).
    Csv,
    /// One JSON object of tables.
    Json,
}

/// Output flags shared by `stats`, `compare` and `balance`.
#[derive(clap::Args, Debug, Clone)]
pub struct OutputArgs {
    /// How tables are printed on stdout.
    #[arg(long, value_enum, default_value = "table")]
    pub format: FormatArg,
    /// Also write the tables to FILE: .csv, .parquet (one file per table: FILE, then
    /// FILE-stem.<table>.ext) or .json (all tables in one object).
    #[arg(long, value_name = "FILE")]
    pub out: Option<PathBuf>,
    /// Write a self-contained HTML report (charts and tables; opens offline in a browser).
    #[arg(long, value_name = "FILE.html")]
    pub report: Option<PathBuf>,
}

/// Analysis flags shared by `stats`, `compare` and `balance`.
#[derive(clap::Args, Debug, Clone)]
pub struct AnalysisArgs {
    /// Skip the piece-value regression (replays every game).
    #[arg(long)]
    pub no_pieces: bool,
    /// Bootstrap resamples for the piece-value intervals.
    #[arg(long, default_value_t = 200, value_name = "N")]
    pub bootstrap: usize,
    /// Seed of the bootstrap.
    #[arg(long = "bootstrap-seed", id = "bootstrap_seed", default_value_t = 1)]
    pub seed: u64,
    /// Piece values: sample every N plies ...
    #[arg(long, default_value_t = 2, value_name = "N")]
    pub sample_every: usize,
    /// ... after the first N plies.
    #[arg(long, default_value_t = 8, value_name = "N")]
    pub sample_after: usize,
    /// Opening diversity: prefix lengths in plies (comma-separated; empty for none).
    #[arg(long, value_delimiter = ',', default_value = "1,2,4,8", value_name = "K,...")]
    pub opening_plies: Vec<usize>,
    /// Skip the per-ply statistics (evaluation by ply, comebacks; version-2 records only).
    #[arg(long)]
    pub no_plies: bool,
    /// Comebacks: the lead, in centipawns, the eventual loser's own search must have seen.
    #[arg(long, default_value_t = 100, value_name = "CP")]
    pub comeback_cp: i32,
    /// A user-defined rule set the records use (repeatable), so that their games can be replayed
    /// for piece values.
    #[arg(long = "rules", value_name = "FILE")]
    pub rules: Vec<std::path::PathBuf>,
}

impl AnalysisArgs {
    /// The library's options, after loading the `--rules` files.
    pub fn options(&self) -> anyhow::Result<Options> {
        for path in &self.rules {
            stackchess_variants::Variant::load_rules(path)?;
        }
        Ok(Options {
            opening_plies: self.opening_plies.clone(),
            pieces: (!self.no_pieces).then_some(PieceOptions {
                skip_plies: self.sample_after,
                every: self.sample_every.max(1),
                bootstrap: self.bootstrap,
                seed: self.seed,
                ..PieceOptions::default()
            }),
            plies: (!self.no_plies).then_some(stackchess_analysis::plies::PlyOptions {
                comeback_cp: self.comeback_cp,
                ..stackchess_analysis::plies::PlyOptions::default()
            }),
        })
    }
}

impl OutputArgs {
    /// The library's format.
    pub fn format(&self) -> Format {
        match self.format {
            FormatArg::Table => Format::Table,
            FormatArg::Csv => Format::Csv,
            FormatArg::Json => Format::Json,
        }
    }

    /// Prints `tables` on stdout and writes them to `--out`.
    pub fn emit(&self, tables: &[Table]) -> Result<()> {
        print!("{}", render(tables, self.format())?);
        if let Some(path) = &self.out {
            let files = write_all(tables, path)?;
            let names: Vec<String> = files.iter().map(|f| f.display().to_string()).collect();
            eprintln!("wrote {}", names.join(", "));
        }
        Ok(())
    }

    /// Writes the report if asked.
    pub fn write_report(&self, html: impl FnOnce() -> Result<String>) -> Result<()> {
        if let Some(path) = &self.report {
            std::fs::write(path, html()?).with_context(|| format!("writing the report {}", path.display()))?;
            eprintln!("wrote {}", path.display());
        }
        Ok(())
    }
}

/// Loads inputs, saying on stderr what was read.
pub fn load_inputs(inputs: &[String]) -> Result<Games> {
    let games = load(inputs)?;
    eprintln!(
        "read {} games from {} file{}{}",
        games.len(),
        games.files.len(),
        if games.files.len() == 1 { "" } else { "s" },
        if games.duplicates > 0 {
            format!(" ({} duplicate game ids dropped)", games.duplicates)
        } else {
            String::new()
        }
    );
    Ok(games)
}

/// Warns on stderr about games the piece-value regression could not replay, and games the
/// per-ply statistics leave out.
pub fn warn_skipped(a: &Analysis) {
    for line in a.warnings() {
        eprintln!("{line}");
    }
}
