//! The plan of a study (`balance --plan`): a pilot batch of every variant at every rung (in `DIR/plan/`), then, from
//! its seconds per game and its spread, the games each needs for White's score within
//! ±`--precision`, their core-hours and the wall time here; `--slurm FILE` writes the array job
//! that plays the study on a cluster (`stackchess_analysis::plan::size` does the arithmetic).

use crate::cluster::{k8s, slurm};
use crate::{batch, Hooks, PilotPlan, Setup, Study};
use anyhow::{Context, Result};
use stackchess_analysis::plan::{size, Plan, Sizing};
use stackchess_selfplay::Shard;
use std::fmt::Write as _;

/// The half-width planned for when the study gives none.
const DEFAULT_PRECISION: f64 = 0.02;

/// Plays the pilots and prints the plan.
pub fn run(study: &Study, pilot: &PilotPlan, setup: &impl Setup, hooks: &mut impl Hooks) -> Result<()> {
    let x = study.precision.unwrap_or(DEFAULT_PRECISION);
    let (names, dir_names) = batch::names(study, Shard::WHOLE);
    let dir = study.dir.join("plan");
    let plan = Plan::new(&dir, &names, &dir_names, &study.rungs, true, pilot.games);
    for slot in &plan.slots {
        batch::play_slot(study, setup, hooks, slot, Shard::WHOLE)?;
    }
    let ladder = plan.ladder()?;
    let mut sizings = Vec::new();
    for s in &plan.slots {
        let games = stackchess_selfplay::records::read_games(&s.dir.join("games.csv"))?.records;
        let ms: u64 = games.iter().map(|g| g.duration_ms).sum();
        let per_game = ms as f64 / 1000.0 / games.len().max(1) as f64;
        let name = &plan.variants[s.variant];
        let cell = ladder.cells.iter().find(|c| &c.variant == name && c.nodes == s.nodes).context("a pilot's cell")?;
        sizings.push(size(cell, per_game, x, study.paired));
    }
    let cores =
        if study.threads == 0 { std::thread::available_parallelism().map_or(1, usize::from) } else { study.threads };
    hooks.print(&table(&sizings, x, pilot.games, cores, &dir.display().to_string()));
    // `balance` gives every batch the same games: the most any needs.
    let games = sizings.iter().map(|s| s.games).max().unwrap_or(study.games);
    let study_dir = study.dir.display().to_string();
    if let Some(path) = &pilot.k8s {
        std::fs::write(path, k8s(&pilot.flags, games, pilot.shards, &study_dir))
            .with_context(|| format!("writing {}", path.display()))?;
        hooks.say(&format!("wrote {} (an Indexed Job of {} pods; kubectl apply -f it)", path.display(), pilot.shards));
    }
    if let Some(path) = &pilot.slurm {
        let hours = sizings.iter().map(|s| games as f64 * s.seconds_per_game / 3600.0).sum::<f64>();
        std::fs::write(path, slurm(&pilot.flags, games, pilot.shards, hours, &study_dir))
            .with_context(|| format!("writing {}", path.display()))?;
        hooks.say(&format!("wrote {} (an array of {} tasks; submit it with sbatch)", path.display(), pilot.shards));
    }
    Ok(())
}

/// The plan as text: a row per variant and rung, then the totals.
fn table(sizings: &[Sizing], x: f64, pilot: u64, cores: usize, dir: &str) -> String {
    let mut t = format!(
        "Plan for White's score within ±{x} (pilot: {pilot} games per variant and rung, in {dir})\n{:<12} {:>6} {:>6} {:>9} {:>8} {:>8} {:>11} {:>12}\n",
        "variant", "nodes", "pilot", "s/game", "sd/game", "games", "core_hours", format!("hours({cores}c)")
    );
    for s in sizings {
        let _ = writeln!(
            t,
            "{:<12} {:>6} {:>6} {:>9.3} {:>8.3} {:>8} {:>11.2} {:>12.2}",
            s.variant,
            s.nodes,
            s.pilot_games,
            s.seconds_per_game,
            s.sd_per_game,
            s.games,
            s.core_hours,
            s.wall_hours(cores)
        );
    }
    let games: u64 = sizings.iter().map(|s| s.games).sum();
    let hours: f64 = sizings.iter().map(|s| s.core_hours).sum();
    let _ = writeln!(
        t,
        "Total: {games} games, {hours:.2} core-hours, {:.2} hours on {cores} cores here",
        hours / cores as f64
    );
    t
}
