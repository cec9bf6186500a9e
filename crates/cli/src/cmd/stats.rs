//! `stackchess stats`: balance statistics of self-play output directories.

use crate::analysis_flags::{load_inputs, warn_skipped, AnalysisArgs, OutputArgs};
use anyhow::Result;
use stackchess_analysis::analyse;

/// Flags of `stats`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// Self-play output directories, games.csv files, or quoted glob patterns of them.
    #[arg(required = true, value_name = "DIR")]
    pub inputs: Vec<String>,
    #[command(flatten)]
    pub output: OutputArgs,
    #[command(flatten)]
    pub analysis: AnalysisArgs,
}

/// Runs the command.
pub fn run(a: &Args) -> Result<()> {
    let games = load_inputs(&a.inputs)?;
    let analysis = analyse(&games, &a.analysis.options()?)?;
    warn_skipped(&analysis);
    a.output.emit(&analysis.tables)?;
    a.output.write_report(|| Ok(analysis.report("stackchess balance statistics", games.notes(&a.inputs), None)?))
}
