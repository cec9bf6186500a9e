//! `balance --plan`: a pilot batch of every variant at every rung (in `DIR/plan/`), then, from
//! its seconds per game and its spread, the games each needs for White's score within
//! ±`--precision`, their core-hours and the wall time here; `--slurm FILE` writes the array job
//! that plays the study on a cluster (`stackchess_analysis::plan::size` does the arithmetic).

use super::Args;
use crate::common::Evaluation;
use anyhow::{Context, Result};
use stackchess_analysis::plan::{size, Plan, Sizing};
use stackchess_selfplay::Shard;
use stackchess_variants::Variant;
use std::fmt::Write as _;

/// The half-width planned for when `--precision` is not given.
const DEFAULT_PRECISION: f64 = 0.02;

/// Plays the pilots and prints the plan.
pub fn run(a: &Args, variants: &[Variant], evals: &[Evaluation], rungs: &[u64]) -> Result<()> {
    let x = a.precision.unwrap_or(DEFAULT_PRECISION);
    let names: Vec<String> = variants.iter().map(ToString::to_string).collect();
    let dir_names: Vec<String> = variants.iter().map(|v| v.name().to_owned()).collect();
    let dir = a.dir.join("plan");
    let plan = Plan::new(&dir, &names, &dir_names, rungs, true, a.pilot_games);
    for s in &plan.slots {
        a.play(s, variants, evals, Shard::WHOLE)?;
    }
    let ladder = plan.ladder()?;
    let mut sizings = Vec::new();
    for s in &plan.slots {
        let games = stackchess_selfplay::records::read_games(&s.dir.join("games.csv"))?.records;
        let ms: u64 = games.iter().map(|g| g.duration_ms).sum();
        let per_game = ms as f64 / 1000.0 / games.len().max(1) as f64;
        let name = &plan.variants[s.variant];
        let cell = ladder.cells.iter().find(|c| &c.variant == name && c.nodes == s.nodes).context("a pilot's cell")?;
        sizings.push(size(cell, per_game, x, !a.unpaired));
    }
    let cores = if a.threads == 0 { std::thread::available_parallelism().map_or(1, usize::from) } else { a.threads };
    print!("{}", table(&sizings, x, a.pilot_games, cores, &dir.display().to_string()));
    if let Some(path) = &a.k8s {
        let games = sizings.iter().map(|s| s.games).max().unwrap_or(a.games);
        std::fs::write(path, k8s(&study_flags(), games, a.shards, &a.dir.display().to_string()))
            .with_context(|| format!("writing {}", path.display()))?;
        eprintln!("wrote {} (an Indexed Job of {} pods; kubectl apply -f it)", path.display(), a.shards);
    }
    if let Some(path) = &a.slurm {
        // `balance` gives every batch the same games: the most any needs.
        let games = sizings.iter().map(|s| s.games).max().unwrap_or(a.games);
        let hours = sizings.iter().map(|s| games as f64 * s.seconds_per_game / 3600.0).sum::<f64>();
        std::fs::write(path, slurm(&study_flags(), games, a.shards, hours, &a.dir.display().to_string()))
            .with_context(|| format!("writing {}", path.display()))?;
        eprintln!("wrote {} (an array of {} tasks; submit it with sbatch)", path.display(), a.shards);
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

/// A Slurm array job of `shards` tasks, each playing its shard of every batch of the study
/// (`args`: the balance flags without the plan's), then what to run once all are done.
fn slurm(args: &[String], games: u64, shards: u64, core_hours: f64, dir: &str) -> String {
    let per_task = (core_hours / shards.max(1) as f64 * 1.5 * 60.0).ceil().max(10.0) as u64;
    let flags = args.iter().map(|a| shell_word(a)).collect::<Vec<_>>().join(" ");
    format!(
        "#!/bin/bash\n\
         # The study planned by stackchess balance --plan: {games} games per variant and rung, about\n\
         # {core_hours:.1} core-hours in all. Each task plays its shard of every batch (--shard auto reads\n\
         # SLURM_ARRAY_TASK_ID and SLURM_ARRAY_TASK_COUNT); resubmitting a task resumes it.\n\
         #SBATCH --job-name=stackchess-balance\n\
         #SBATCH --array=0-{last}\n\
         #SBATCH --cpus-per-task=1\n\
         #SBATCH --time={h:02}:{m:02}:00\n\
         stackchess balance {flags} --games {games} --threads 1 --shard auto --dir {dir}\n\
         # Once every task is done: merge each batch's shards, then the report (no --shard):\n\
         #   shopt -s nullglob; for b in {dir}/*.shard-0 {dir}/*/*.shard-0; do stackchess merge --out \"${{b%.shard-0}}\" \"${{b%.shard-0}}\".shard-*; done\n\
         #   stackchess balance {flags} --games {games} --dir {dir}\n",
        last = shards.max(1) - 1,
        h = per_task / 60,
        m = per_task % 60,
        dir = shell_word(dir),
    )
}

/// A Kubernetes Indexed Job of `shards` pods playing the study (`args` as for [`slurm`]) into
/// `dir` on the shared volume `stackchess-runs`, then what to run once it completes.
fn k8s(args: &[String], games: u64, shards: u64, dir: &str) -> String {
    let mut command: Vec<String> = ["stackchess", "balance"].map(String::from).to_vec();
    command.extend(args.iter().cloned());
    command.extend(["--games".into(), games.to_string(), "--threads".into(), "1".into()]);
    command.extend(["--shard".into(), "auto".into(), "--dir".into(), dir.to_owned()]);
    let quoted: Vec<String> = command.iter().map(|w| format!("{w:?}")).collect();
    format!(
        "# The study planned by stackchess balance --plan: {games} games per variant and rung, in\n\
         # {shards} pods (JOB_COMPLETION_INDEX and STACKCHESS_SHARD_COUNT give each its shard; a pod\n\
         # started again resumes it). The volume `stackchess-runs` holds {dir}. Once the job\n\
         # completes, merge each batch's shards and write the report as docs/cluster.md says.\n\
         apiVersion: batch/v1\n\
         kind: Job\n\
         metadata:\n  name: stackchess-balance\n\
         spec:\n  completionMode: Indexed\n  completions: {shards}\n  parallelism: {shards}\n  backoffLimitPerIndex: 3\n\
         \x20 template:\n    spec:\n      restartPolicy: Never\n      containers:\n\
         \x20       - name: balance\n          image: stackchess:latest\n          command: [{command}]\n\
         \x20         env:\n            - name: STACKCHESS_SHARD_COUNT\n              value: \"{shards}\"\n\
         \x20         resources:\n            requests:\n              cpu: \"1\"\n\
         \x20         volumeMounts:\n            - name: runs\n              mountPath: {dir:?}\n\
         \x20     volumes:\n        - name: runs\n          persistentVolumeClaim:\n            claimName: stackchess-runs\n",
        command = quoted.join(", "),
    )
}

/// The flags this `balance` was given, less those of the plan and those the array job sets (the
/// planned games replace `--precision`, which needs every game of a batch in one process).
fn study_flags() -> Vec<String> {
    study_flags_of(std::env::args())
}

/// [`study_flags`] of a command line.
fn study_flags_of(line: impl Iterator<Item = String>) -> Vec<String> {
    const WITH_VALUE: [&str; 10] = [
        "--pilot-games",
        "--slurm",
        "--k8s",
        "--shards",
        "--games",
        "--dir",
        "--threads",
        "--shard",
        "--shard-count",
        "--precision",
    ];
    let mut out = Vec::new();
    let mut args = line.skip_while(|a| a != "balance").skip(1);
    while let Some(a) = args.next() {
        let name = a.split('=').next().unwrap_or_default();
        if name == "--plan" || WITH_VALUE.contains(&name) {
            if WITH_VALUE.contains(&name) && !a.contains('=') {
                args.next();
            }
            continue;
        }
        out.push(a);
    }
    out
}

/// `word` quoted for the shell where it needs it.
fn shell_word(word: &str) -> String {
    if !word.is_empty() && word.chars().all(|c| c.is_ascii_alphanumeric() || "-_./:=,+@".contains(c)) {
        word.to_owned()
    } else {
        format!("'{}'", word.replace('\'', "'\\''"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_study_keeps_the_flags_of_the_question_and_drops_those_of_the_plan() {
        let line = "stackchess balance --variants fide --plan --pilot-games 8 --slurm s.sh --k8s=j.yaml --shards 4 \
                    --precision 0.02 --games 10 --dir out --threads=2 --ladder 500,1000 -q";
        let kept = study_flags_of(line.split_whitespace().map(String::from));
        assert_eq!(kept, ["--variants", "fide", "--ladder", "500,1000", "-q"]);
    }

    #[test]
    fn the_indexed_job_runs_the_study_in_as_many_pods_as_shards() {
        let text = k8s(&["--variants".into(), "malka".into()], 600, 6, "/runs/study");
        for line in [
            "  completionMode: Indexed\n",
            "  completions: 6\n",
            "          command: [\"stackchess\", \"balance\", \"--variants\", \"malka\", \"--games\", \"600\", \"--threads\", \"1\", \"--shard\", \"auto\", \"--dir\", \"/runs/study\"]\n",
            "              value: \"6\"\n",
            "              mountPath: \"/runs/study\"\n",
        ] {
            assert!(text.contains(line), "{line:?} not in\n{text}");
        }
    }

    #[test]
    fn the_slurm_script_names_the_array_and_the_command() {
        let text =
            slurm(&["--variants".into(), "fide,malka".into(), "--nodes".into(), "1000".into()], 800, 4, 3.0, "out dir");
        assert!(text.contains("#SBATCH --array=0-3"), "{text}");
        assert!(text.contains("#SBATCH --time=01:08:00"), "3 core-hours over 4 tasks, half again: {text}");
        assert!(
            text.contains("stackchess balance --variants fide,malka --nodes 1000 --games 800 --threads 1 --shard auto --dir 'out dir'\n"),
            "{text}"
        );
    }
}
