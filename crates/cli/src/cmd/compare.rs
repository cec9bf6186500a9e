//! `stackchess compare`: two sets of runs (two variants, or two settings) side by side.

use crate::analysis_flags::{load_inputs, warn_skipped, AnalysisArgs, OutputArgs};
use anyhow::Result;
use stackchess_analysis::compare_sets;

/// Flags of `compare`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// Set A: a self-play output directory, a games.csv file, or a quoted glob pattern.
    #[arg(value_name = "A")]
    pub a: String,
    /// Set B, likewise.
    #[arg(value_name = "B")]
    pub b: String,
    #[command(flatten)]
    pub output: OutputArgs,
    #[command(flatten)]
    pub analysis: AnalysisArgs,
}

/// Runs the command.
pub fn run(a: &Args) -> Result<()> {
    let (ga, gb) = (load_inputs(std::slice::from_ref(&a.a))?, load_inputs(std::slice::from_ref(&a.b))?);
    let mut opts = a.analysis.options()?;
    if a.output.report.is_none() {
        opts.pieces = None; // only the report shows them
    }
    let (cmp, analysis) = compare_sets(&ga, &gb, &opts)?;
    warn_skipped(&analysis);
    a.output.emit(&[cmp.metrics_table()?, cmp.sides_table()?])?;
    a.output.write_report(|| {
        let mut n = ga.notes(std::slice::from_ref(&a.a));
        n.extend(gb.notes(std::slice::from_ref(&a.b)));
        n.insert(0, format!("A = {}; B = {}", cmp.labels[0], cmp.labels[1]));
        Ok(analysis.report("stackchess comparison", n, Some(&cmp))?)
    })
}
