//! A balance study, `stackchess balance`'s work: a self-play batch of each rule set (at each rung
//! of a node ladder), grown in batches until every White-score interval is narrow enough, the
//! rungs' strength measured by matches, then the tables, the HTML report and the viewer page of
//! its games; or, with a [`PilotPlan`], pilot batches and the games, core-hours and cluster job
//! files the study would need.
//!
//! The caller says how to make a rule set's engine and openings ([`Setup`]) and how to show
//! progress and print ([`Hooks`]); [`run`] does the rest. Each batch is a normal self-play
//! directory, so running a study again reuses its finished games and plays only missing ones.

mod batch;
mod calibrate;
mod cluster;
mod pilot;
mod report;

pub use cluster::{pin_flag, study_flags};

use anyhow::{bail, Result};
use stackchess_analysis::{Format, Options};
use stackchess_core::Position;
use stackchess_search::{Limits, SearchConfig};
use stackchess_selfplay::spec::EngineDef;
use stackchess_selfplay::{EngineSpec, Openings, Progress, Shard, TimeControl};
use stackchess_variants::Variant;
use std::path::PathBuf;
use std::sync::atomic::AtomicBool;

/// What a study plays and how it reports.
#[derive(Clone, Debug)]
pub struct Study {
    /// The rule sets, the first as A of the comparisons.
    pub variants: Vec<Variant>,
    /// Where each rule set's evaluation comes from (a line of the report each).
    pub evaluations: Vec<String>,
    /// Games per rule set (and rung); with `precision`, the size of each batch.
    pub games: u64,
    /// The node budgets a move: one, or the rungs of a ladder.
    pub rungs: Vec<u64>,
    /// Whether `rungs` is a ladder (its own directories and tables), even of one rung.
    pub ladder: bool,
    /// A clock instead of a node budget.
    pub tc: Option<TimeControl>,
    /// Milliseconds a mover on a clock may exceed it by.
    pub time_margin_ms: u64,
    /// Grow the batches until every White-score interval is within ±this.
    pub precision: Option<f64>,
    /// With `precision`: the most games per rule set and rung.
    pub max_games: u64,
    /// Each opening twice, colours swapped.
    pub paired: bool,
    /// The study's directory.
    pub dir: PathBuf,
    /// Base seed of the batches.
    pub seed: u64,
    /// The openings as given (for the report).
    pub openings: String,
    /// Draw adjudicated after this many plies.
    pub max_plies: u32,
    /// Loss adjudicated at this many centipawns down for 4 moves each (0: never).
    pub resign_score: i32,
    /// Worker threads (0: one per core).
    pub threads: usize,
    /// The part of every batch this process plays.
    pub shard: Shard,
    /// Games of each calibration match between neighbouring rungs (0: none).
    pub calibrate: u64,
    /// An external engine the lowest rung also plays, and its rating.
    pub anchor: Option<(EngineDef, f64)>,
    /// Instead of playing the study: pilot batches and the plan.
    pub pilot: Option<PilotPlan>,
    /// The analysis of the games.
    pub analysis: Options,
    /// How the tables are printed.
    pub format: Format,
    /// Where the tables are written as files, if anywhere.
    pub out: Option<PathBuf>,
    /// The report's path (default `dir/report.html`).
    pub report: Option<PathBuf>,
}

/// `balance --plan`: pilot batches, then the games each rule set and rung needs.
#[derive(Clone, Debug)]
pub struct PilotPlan {
    /// Games of each pilot batch.
    pub games: u64,
    /// Write the Slurm array job to this file.
    pub slurm: Option<PathBuf>,
    /// Write the Kubernetes Indexed Job to this file.
    pub k8s: Option<PathBuf>,
    /// Tasks of the array job, or pods of the Indexed Job.
    pub shards: u64,
    /// The flags of the study the jobs run (without the plan's own).
    pub flags: Vec<String>,
}

/// How the caller makes a rule set's players and openings.
pub trait Setup {
    /// The search settings of the `variant`-th rule set of the study, whose rules are `rules_name`.
    ///
    /// # Errors
    /// Settings that cannot be made (an unreadable parameter file, a net for other rules).
    fn engine(&self, variant: usize, rules_name: &str) -> Result<SearchConfig>;

    /// The anchor's engine as the `variant`-th rule set plays it, with `shared` limits when its
    /// spec gives none.
    ///
    /// # Errors
    /// As [`Setup::engine`].
    fn anchor(
        &self,
        variant: usize,
        def: &EngineDef,
        rules_name: &str,
        shared: (Limits, Option<TimeControl>),
    ) -> Result<EngineSpec>;

    /// The study's first `count` openings for `rules`, and the description of the balanced suite
    /// they come from, when they do.
    ///
    /// # Errors
    /// Openings that cannot be read or made.
    fn openings<P: Position>(&self, rules: P::Rules, count: u64) -> Result<(Openings, Option<String>)>;
}

/// How the caller shows a study's progress and output.
pub trait Hooks {
    /// A self-play run begins (`label`: what it plays; `first`: engine A's name when it is a
    /// match): its display, which lives (and keeps signals stopping the run cleanly) until dropped.
    ///
    /// # Errors
    /// When the run cannot be watched (a signal handler that cannot be installed).
    fn run(&mut self, label: &str, first: Option<&str>) -> Result<Box<dyn Progress>>;
    /// Text for stdout (the tables).
    fn print(&mut self, text: &str);
    /// A line for stderr (what was played and written).
    fn say(&mut self, line: &str);
    /// Set when the runs are to stop cleanly.
    fn stop(&self) -> &AtomicBool;
}

/// Plays the study (or its pilots) and reports it.
///
/// # Errors
/// Bad settings (said before any game is played), a batch that cannot be played or resumed, an
/// interruption (run it again to complete), a report that cannot be written.
pub fn run(study: &Study, setup: &impl Setup, hooks: &mut impl Hooks) -> Result<()> {
    check(study)?;
    if let Some(pilot) = &study.pilot {
        return pilot::run(study, pilot, setup, hooks);
    }
    let Some(played) = batch::play_all(study, setup, hooks)? else {
        return Ok(());
    };
    report::report(study, &played, setup, hooks)
}

/// Refuses settings that cannot go together (before anything is played or tuned).
///
/// # Errors
/// The first bad setting, named as its flag.
pub fn check(s: &Study) -> Result<()> {
    if s.variants.is_empty() {
        bail!("--variants names no variant");
    }
    if s.paired && s.games % 2 == 1 {
        bail!("--games {}: paired openings need an even number (or --unpaired)", s.games);
    }
    if let Some(x) = s.precision {
        if !(x > 0.0 && x < 0.5) {
            bail!("--precision {x}: give a half-width between 0 and 0.5 (e.g. 0.02 for ±2%)");
        }
        if !s.shard.is_whole() {
            bail!("--precision needs every game of a batch: it cannot go with --shard {}", s.shard);
        }
    }
    if s.calibrate > 0 && (s.rungs.len() < 2 || !s.shard.is_whole() || s.calibrate % 2 == 1) {
        bail!(
            "--calibrate {}: give an even number of games, with a --ladder of two or more rungs and no --shard",
            s.calibrate
        );
    }
    if let Some(p) = &s.pilot {
        if !s.shard.is_whole() {
            bail!("--plan plays its pilots whole: it cannot go with --shard {}", s.shard);
        }
        if p.games < 4 || (s.paired && p.games % 2 == 1) {
            bail!("--pilot-games {}: give at least 4 (even with paired openings)", p.games);
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests;
