//! The cluster jobs that play a planned study: a Slurm array job, a Kubernetes Indexed Job, each
//! process playing its shard of every batch (docs/cluster.md).

/// A Slurm array job of `shards` tasks, each playing its shard of every batch of the study
/// (`args`: the balance flags without the plan's), then what to run once all are done.
pub fn slurm(args: &[String], games: u64, shards: u64, core_hours: f64, dir: &str) -> String {
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
pub fn k8s(args: &[String], games: u64, shards: u64, dir: &str) -> String {
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

/// The flags of a `balance` command line, less those of the plan and those the array job sets
/// (the planned games replace `--precision`, which needs every game of a batch in one process).
pub fn study_flags(line: impl Iterator<Item = String>) -> Vec<String> {
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

/// Adds `flag value` to `flags` unless they give `flag` already (as `flag value` or `flag=value`).
pub fn pin_flag(flags: &mut Vec<String>, flag: &str, value: &str) {
    if !flags.iter().any(|f| f == flag || f.strip_prefix(flag).is_some_and(|rest| rest.starts_with('='))) {
        flags.extend([flag.to_owned(), value.to_owned()]);
    }
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
        let kept = study_flags(line.split_whitespace().map(String::from));
        assert_eq!(kept, ["--variants", "fide", "--ladder", "500,1000", "-q"]);
    }

    #[test]
    fn a_pinned_flag_is_added_once_and_never_over_one_given() {
        let mut flags: Vec<String> = vec!["--nnue".into()];
        pin_flag(&mut flags, "--nnue-cache", "out/cache/nnue");
        pin_flag(&mut flags, "--nnue-cache", "elsewhere");
        assert_eq!(flags, ["--nnue", "--nnue-cache", "out/cache/nnue"]);
        let mut given: Vec<String> = vec!["--tune-cache=mine".into()];
        pin_flag(&mut given, "--tune-cache", "out/cache/tuned");
        pin_flag(&mut given, "--tune", "x");
        assert_eq!(given, ["--tune-cache=mine", "--tune", "x"]);
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
