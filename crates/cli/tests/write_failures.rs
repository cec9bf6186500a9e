//! Runs whose writes fail, or that are killed, lose nothing (docs/reliability.md): a file-size
//! limit, a full disk and a directory made read-only stop the run with an error naming the file,
//! leave every journal readable, and `--resume` then gives exactly the games of an uninterrupted
//! run; so does resuming after `kill -9` at 20 moments of a run. Two processes never write one
//! run directory: the second is refused, naming the first; a killed holder's lock is taken over.
//!
//! Every command that plays games writes them through the same run (`stackchess_selfplay::run`):
//! `selfplay`, `match`, `tournament` (one run per pairing) and `balance`; the first three are run
//! here. A new command that writes a run is tested by adding its arguments to [`COMMANDS`] (the
//! file-size limit test runs each). `datagen` (and `tune`, which makes its data with it) writes a
//! data file instead: its tests are at the end.
#![cfg(target_os = "linux")]

use stackchess_selfplay::{read_records, GameRecord};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::sync::OnceLock;
use std::time::{Duration, Instant};

fn bin() -> PathBuf {
    assert_cmd::cargo::cargo_bin("stackchess")
}

fn tmp(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("stackchess-writes-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    d
}

/// The commands that write runs, each with the arguments of a small run (before `--out DIR`)
/// and a file-size limit (KiB) that its run passes after a few games.
const COMMANDS: &[(&str, &[&str], u32)] = &[
    (
        "selfplay",
        &["selfplay", "-v", "fide", "--games", "16", "--nodes", "150", "--max-plies", "70", "--seed", "5", "-q"],
        24,
    ),
    (
        "match",
        &[
            "match",
            "-v",
            "fide",
            "--games",
            "12",
            "--nodes",
            "120",
            "--max-plies",
            "60",
            "--seed",
            "6",
            "-q",
            "--engine",
            "name=a",
            "--engine",
            "name=b,nodes=200",
        ],
        20,
    ),
    (
        "tournament",
        &[
            "tournament",
            "-v",
            "fide",
            "--games-per-pair",
            "8",
            "--nodes",
            "120",
            "--max-plies",
            "60",
            "--seed",
            "9",
            "-q",
            "--engine",
            "name=a",
            "--engine",
            "name=b,nodes=160",
            "--engine",
            "name=c,nodes=200",
        ],
        12,
    ),
];

fn command(name: &str) -> &'static [&'static str] {
    COMMANDS.iter().find(|(n, ..)| *n == name).map(|(_, a, _)| *a).expect("a command")
}

/// `stackchess ARGS --out DIR [--resume] --threads 2`. A tournament resumes when run again as it
/// was: it takes no `--resume`.
fn cmd(args: &[&str], dir: &Path, resume: bool) -> Command {
    let mut c = Command::new(bin());
    c.args(args).args(["--threads", "2", "--out"]).arg(dir);
    if resume && args[0] != "tournament" {
        c.arg("--resume");
    }
    c
}

/// Games by the run directory that holds them (relative to the command's `--out`: "" for the
/// run itself, a pairing's directory in a tournament) and index, without their timing.
type Games = BTreeMap<(String, u64), GameRecord>;

/// The files named `name` in `dir` and every directory below it, each with its directory
/// relative to `dir`.
fn files_named(dir: &Path, name: &str) -> Vec<(String, PathBuf)> {
    let mut out = Vec::new();
    let mut todo = vec![dir.to_path_buf()];
    while let Some(d) = todo.pop() {
        let Ok(entries) = std::fs::read_dir(&d) else { continue };
        for e in entries.flatten() {
            let path = e.path();
            if path.is_dir() {
                todo.push(path);
            } else if e.file_name() == name {
                let rel = d.strip_prefix(dir).unwrap().display().to_string();
                out.push((rel, path));
            }
        }
    }
    out.sort();
    out
}

/// A command's games: every `games.csv` of its run directories.
fn games(dir: &Path) -> Games {
    let mut out = BTreeMap::new();
    for (rel, path) in files_named(dir, "games.csv") {
        for r in read_records(&path).unwrap_or_else(|e| panic!("{e}")) {
            let index = r.index;
            assert!(out.insert((rel.clone(), index), r.without_timing()).is_none(), "game {index} of {rel:?} twice");
        }
    }
    out
}

/// The games of an uninterrupted run of `name`, played once per test process.
fn uninterrupted(name: &str) -> &'static Games {
    static RUNS: OnceLock<std::sync::Mutex<BTreeMap<String, &'static Games>>> = OnceLock::new();
    let runs = RUNS.get_or_init(Default::default);
    let mut map = runs.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
    map.entry(name.to_owned()).or_insert_with(|| {
        let dir = tmp(&format!("whole-{name}"));
        let out = cmd(command(name), &dir, false).output().unwrap();
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        let g = Box::leak(Box::new(games(&dir)));
        let _ = std::fs::remove_dir_all(&dir);
        g
    })
}

/// Every journal of a stopped run reads with the strict readers (no record cut off), and its
/// games are some of the uninterrupted run's.
fn journals_are_readable(dir: &Path, whole: &Games) {
    for (key, g) in games(dir) {
        assert_eq!(Some(&g), whole.get(&key), "game {key:?} differs from the uninterrupted run's");
    }
    for (_, path) in files_named(dir, "plies.csv") {
        stackchess_records::read_plies(&path).unwrap_or_else(|e| panic!("{e}"));
    }
    for (_, path) in files_named(dir, "games.pgn") {
        let text = std::fs::read_to_string(&path).unwrap();
        assert!(text.is_empty() || text.ends_with("\n\n"), "{} ends inside a game", path.display());
    }
}

/// Resumes the run in `dir` to its end and checks it holds the uninterrupted run's games.
fn resume_gives_the_whole_run(name: &str, dir: &Path) {
    let out = cmd(command(name), dir, true).output().unwrap();
    assert!(out.status.success(), "resume: {}", String::from_utf8_lossy(&out.stderr));
    assert_eq!(&games(dir), uninterrupted(name), "{name}: the resumed run differs from the uninterrupted one");
}

/// The failure message names a file of the run and says how to go on.
fn names_the_file(out: &Output, dir: &Path, cause: &str) {
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success(), "the run did not fail: {stderr}");
    assert!(!stderr.contains("panicked"), "{stderr}");
    assert!(stderr.contains(cause), "no '{cause}' in: {stderr}");
    assert!(stderr.contains(&dir.display().to_string()), "the message names no file of {}: {stderr}", dir.display());
}

/// `ulimit -f` (in KiB blocks, bash): the write that passes it fails, the run stops naming the
/// file, the journals hold whole records, and resuming without the limit completes the run.
fn size_limit(name: &str, kib: u32) {
    let dir = tmp(&format!("ulimit-{name}"));
    let whole = uninterrupted(name);
    let mut c = Command::new("bash");
    c.arg("-c").arg(format!("ulimit -f {kib} && exec \"$0\" \"$@\"")).arg(bin()).args(command(name));
    let out = c.args(["--threads", "2", "--out"]).arg(&dir).output().unwrap();
    names_the_file(&out, &dir, "File too large");
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("resuming the run"),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let kept = games(&dir).len();
    assert!(kept < whole.len(), "the limit stopped nothing ({kept} games)");
    journals_are_readable(&dir, whole);
    resume_gives_the_whole_run(name, &dir);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn every_command_past_a_file_size_limit_stops_naming_the_file_and_resumes_exactly() {
    for &(name, _, kib) in COMMANDS {
        size_limit(name, kib);
    }
}

/// Runs `script` as root of a user and mount namespace of its own (`unshare -rm`), where it may
/// mount a small tmpfs; `None` where this system allows no such namespace.
fn in_mount_namespace(script: &str, env: &[(&str, &Path)]) -> Option<Output> {
    let probe = Command::new("unshare").args(["-rm", "true"]).output();
    if !probe.is_ok_and(|o| o.status.success()) {
        eprintln!("skipped: unshare -rm is not allowed here, so no tmpfs can be mounted");
        return None;
    }
    let mut c = Command::new("unshare");
    c.args(["-rm", "bash", "-c", script]);
    for (k, v) in env {
        c.env(k, v);
    }
    Some(c.output().unwrap())
}

#[test]
fn a_full_disk_stops_the_run_naming_the_file_and_resume_elsewhere_completes_it() {
    let name = "selfplay";
    let whole = uninterrupted(name);
    let base = tmp("full");
    std::fs::create_dir_all(base.join("mnt")).unwrap();
    let args = command(name).iter().map(|a| format!("'{a}'")).collect::<Vec<_>>().join(" ");
    // A 48 KiB file system holds the manifest and a few games; the run's copy is taken out
    // before the namespace (and its tmpfs) ends.
    let script = format!(
        "set -u; mount -t tmpfs -o size=48k tmpfs \"$BASE/mnt\" || exit 97; \
         \"$BIN\" {args} --threads 2 --out \"$BASE/mnt/run\" 2> \"$BASE/stderr\"; echo $? > \"$BASE/status\"; \
         cp -a \"$BASE/mnt/run\" \"$BASE/run\""
    );
    let Some(out) = in_mount_namespace(&script, &[("BASE", &base), ("BIN", &bin())]) else { return };
    assert!(out.status.success(), "the namespace script: {}", String::from_utf8_lossy(&out.stderr));
    let status = std::fs::read_to_string(base.join("status")).unwrap();
    let stderr = std::fs::read_to_string(base.join("stderr")).unwrap();
    assert_ne!(status.trim(), "0", "the run fitted in 48 KiB: {stderr}");
    assert!(stderr.contains("No space left on device") && stderr.contains("mnt/run/"), "{stderr}");
    let dir = base.join("run");
    let kept = games(&dir).len();
    assert!(kept > 0 && kept < whole.len(), "{kept} games before the disk filled");
    journals_are_readable(&dir, whole);
    resume_gives_the_whole_run(name, &dir);
    let _ = std::fs::remove_dir_all(&base);
}

/// Whether this process can run a command as another user (it is root and has `setpriv`).
fn can_drop_to_nobody() -> bool {
    let root = Command::new("id").arg("-u").output().is_ok_and(|o| o.stdout.starts_with(b"0"));
    root && Command::new("setpriv").arg("--version").output().is_ok_and(|o| o.status.success())
}

/// A directory made read-only during a run: files already open go on taking appends, so the run
/// ends (complete, or stopped naming the first file it could not create); resuming in the
/// read-only directory is refused naming the file and changes nothing; once writable, resuming
/// completes the run exactly.
#[test]
fn a_directory_made_read_only_mid_run_loses_nothing() {
    let name = "selfplay";
    let whole = uninterrupted(name);
    let dir = tmp("readonly");
    std::fs::create_dir_all(&dir).unwrap();
    // Permissions bind only a user other than root: run as nobody where we are root.
    let as_nobody = can_drop_to_nobody();
    let wrap = |mut c: Command| -> Command {
        if !as_nobody {
            return c;
        }
        let mut w = Command::new("setpriv");
        w.args(["--reuid=65534", "--regid=65534", "--clear-groups", "--"]).arg(c.get_program()).args(c.get_args());
        c = w;
        c
    };
    if as_nobody {
        assert!(Command::new("chown").args(["-R", "65534:65534"]).arg(&dir).status().unwrap().success());
    }
    let run = dir.join("run");
    let child = wrap(cmd(command(name), &run, false)).stdout(Stdio::null()).stderr(Stdio::piped()).spawn().unwrap();
    let started = Instant::now();
    while std::fs::read_to_string(run.join("games.csv")).map_or(0, |t| t.lines().count()) < 3 {
        assert!(started.elapsed() < Duration::from_mins(1), "no game finished");
        std::thread::sleep(Duration::from_millis(2));
    }
    let chmod = |mode: &str| assert!(Command::new("chmod").args(["-R", mode]).arg(&run).status().unwrap().success());
    chmod("a-w");
    let out = child.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!stderr.contains("panicked"), "{stderr}");
    if !out.status.success() {
        assert!(stderr.contains(&run.display().to_string()), "the failure names no file: {stderr}");
    }
    journals_are_readable(&run, whole);
    if as_nobody || !out.status.success() {
        let before = std::fs::read(run.join("games.csv")).unwrap();
        let again = wrap(cmd(command(name), &run, true)).output().unwrap();
        if as_nobody {
            names_the_file(&again, &run, "Permission denied");
        }
        assert_eq!(std::fs::read(run.join("games.csv")).unwrap(), before, "a refused resume changed games.csv");
    }
    chmod("u+w");
    let again = wrap(cmd(command(name), &run, true)).output().unwrap();
    assert!(again.status.success(), "{}", String::from_utf8_lossy(&again.stderr));
    assert_eq!(&games(&run), whole, "the resumed run differs from the uninterrupted one");
    let _ = std::fs::remove_dir_all(&dir);
}

/// The run the kill test interrupts: long enough (about 50 games) that 20 short lives of it
/// cannot finish it on a fast machine.
const KILL_RUN: &[&str] =
    &["selfplay", "-v", "fide", "--games", "48", "--nodes", "150", "--max-plies", "70", "--seed", "5", "-q"];

/// `kill -9` at 20 moments spread over the first quarter of a run (each process lives a fraction of
/// the uninterrupted run's time, measured here, so a faster machine kills as often), each
/// followed by `--resume` (which takes over the killed process's lock), then a resume to the
/// end: exactly the uninterrupted run's games.
#[test]
fn kill_9_at_twenty_moments_then_resume_gives_the_uninterrupted_games() {
    let whole_dir = tmp("kill9-whole");
    let started = Instant::now();
    let out = cmd(KILL_RUN, &whole_dir, false).output().unwrap();
    let whole_ms = u64::try_from(started.elapsed().as_millis()).unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let whole = games(&whole_dir);
    let _ = std::fs::remove_dir_all(&whole_dir);
    let window = (whole_ms / 40).max(20);
    let dir = tmp("kill9");
    let mut killed_running = 0;
    for point in 0..20u64 {
        let mut child = cmd(KILL_RUN, &dir, point > 0 && dir.join("manifest.json").exists())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        // From just after start-up to a fortieth of the whole run: on average the 20 lives add
        // up to a quarter of it (less the work each kill loses), so a machine four times faster
        // than when it was timed still kills it running.
        std::thread::sleep(Duration::from_millis(10 + (point * 7919) % 150 * window / 150));
        if child.try_wait().unwrap().is_none() {
            killed_running += 1;
        }
        child.kill().unwrap();
        let _ = child.wait();
        journals_are_readable_after_a_kill(&dir, &whole);
    }
    assert!(
        killed_running >= 18,
        "only {killed_running} of the 20 kills found the run going (whole run {whole_ms} ms)"
    );
    let out = cmd(KILL_RUN, &dir, true).output().unwrap();
    assert!(out.status.success(), "resume: {}", String::from_utf8_lossy(&out.stderr));
    assert_eq!(games(&dir), whole, "the resumed run differs from the uninterrupted one");
    let _ = std::fs::remove_dir_all(&dir);
}

/// After a kill the last record may be cut (the resume repairs it): the complete ones are the
/// uninterrupted run's games.
fn journals_are_readable_after_a_kill(dir: &Path, whole: &Games) {
    let Ok(text) = std::fs::read_to_string(dir.join("games.csv")) else { return };
    let complete = text.rfind('\n').map_or("", |i| &text[..=i]);
    let copy = dir.with_extension("check.csv");
    std::fs::write(&copy, complete).unwrap();
    if !complete.is_empty() {
        for r in read_records(&copy).unwrap_or_else(|e| panic!("{e}")) {
            assert_eq!(Some(&r.without_timing()), whole.get(&(String::new(), r.index)), "game {} differs", r.index);
        }
    }
    let _ = std::fs::remove_file(copy);
}

/// A second process on a run directory in use is refused naming the first, and writes nothing.
#[test]
fn a_second_process_on_a_run_in_use_is_refused() {
    let dir = tmp("twice");
    let long = ["selfplay", "-v", "fide", "--games", "400", "--nodes", "400", "--seed", "8", "-q"];
    let mut first = cmd(&long, &dir, false).stdout(Stdio::null()).stderr(Stdio::null()).spawn().unwrap();
    let started = Instant::now();
    while !dir.join("run.lock").exists() || !dir.join("manifest.json").exists() {
        assert!(started.elapsed() < Duration::from_secs(30), "the first run did not start");
        std::thread::sleep(Duration::from_millis(2));
    }
    for resume in [true, false] {
        let out = cmd(&long, &dir, resume).output().unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(!out.status.success(), "{stderr}");
        if resume {
            assert!(stderr.contains(&format!("in use by process {}", first.id())), "{stderr}");
            assert!(stderr.contains("run.lock"), "{stderr}");
        } else {
            assert!(stderr.contains("not empty") || stderr.contains("in use"), "{stderr}");
        }
    }
    first.kill().unwrap();
    let _ = first.wait();
    // The killed holder's lock is free: a resume takes it over (and names itself in the file).
    let short = ["selfplay", "-v", "fide", "--games", "2", "--nodes", "400", "--seed", "8", "-q"];
    let out = cmd(&short, &dir, true).output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let holder = std::fs::read_to_string(dir.join("run.lock")).unwrap();
    assert!(!holder.contains(&format!("process {} ", first.id())), "{holder}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// `stackchess data --positions FILE`: every committed position of a data file, in order.
fn data_positions(file: &Path) -> String {
    let out = Command::new(bin()).args(["data", "--positions"]).arg(file).output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8_lossy(&out.stdout).lines().filter(|l| !l.starts_with('#')).collect::<Vec<_>>().join("\n")
}

/// A data run past a file-size limit stops naming its file, keeps only whole committed batches,
/// and the same command without the limit completes it to exactly the uninterrupted data.
#[test]
fn datagen_past_a_file_size_limit_stops_naming_the_file_and_resumes_exactly() {
    let dir = tmp("datagen");
    std::fs::create_dir_all(&dir).unwrap();
    let args = ["datagen", "-v", "fide", "--games", "24", "--nodes", "150", "--max-plies", "80", "--seed", "4"];
    let args: Vec<&str> = args.iter().copied().chain(["--batch", "4", "--threads", "2", "-q", "--out"]).collect();
    let (whole, cut) = (dir.join("whole.data"), dir.join("cut.data"));
    let out = Command::new(bin()).args(&args).arg(&whole).output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let want = data_positions(&whole);
    let size = std::fs::metadata(&whole).unwrap().len();
    let kib = (size / 1024 / 2).max(4);
    let mut c = Command::new("bash");
    c.arg("-c").arg(format!("ulimit -f {kib} && exec \"$0\" \"$@\"")).arg(bin()).args(&args);
    let out = c.arg(&cut).output().unwrap();
    names_the_file(&out, &cut, "File too large");
    let kept = data_positions(&cut);
    assert!(kept.lines().count() < want.lines().count(), "the limit stopped nothing");
    assert!(want.starts_with(&kept), "the cut file's positions are not the first of the whole run's");
    let out = Command::new(bin()).args(&args).arg(&cut).output().unwrap();
    assert!(out.status.success(), "resume: {}", String::from_utf8_lossy(&out.stderr));
    assert_eq!(data_positions(&cut), want, "the resumed data differs from the uninterrupted data");
    let _ = std::fs::remove_dir_all(&dir);
}

/// A parameter file without its `# command:` line (which names the file it was written to).
fn params_without_command(path: &Path) -> String {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    text.lines().filter(|l| !l.starts_with("# command:")).collect::<Vec<_>>().join("\n")
}

/// `tune` makes its data with a data run: past a file-size limit it stops naming the data file
/// and writes no parameters; the same command without the limit resumes the data and writes
/// exactly the parameters of an uninterrupted tune.
#[test]
fn tune_past_a_file_size_limit_stops_naming_the_file_and_resumes_exactly() {
    let dir = tmp("tune");
    std::fs::create_dir_all(&dir).unwrap();
    let args = ["tune", "-v", "fide", "--games", "60", "--nodes", "150", "--per-game", "8", "--label-nodes", "300"];
    let args: Vec<&str> =
        args.iter().copied().chain(["--bootstrap", "0", "--seed", "4", "--threads", "2", "-q", "--out"]).collect();
    let (whole, cut) = (dir.join("whole.params"), dir.join("cut.params"));
    let out = Command::new(bin()).args(&args).arg(&whole).output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let size = std::fs::metadata(whole.with_extension("data")).unwrap().len();
    let kib = (size / 1024 / 2).max(4);
    let mut c = Command::new("bash");
    c.arg("-c").arg(format!("ulimit -f {kib} && exec \"$0\" \"$@\"")).arg(bin()).args(&args);
    let out = c.arg(&cut).output().unwrap();
    names_the_file(&out, &cut.with_extension("data"), "File too large");
    assert!(!cut.exists(), "a tune whose data run failed wrote parameters");
    let kept = data_positions(&cut.with_extension("data"));
    let want = data_positions(&whole.with_extension("data"));
    assert!(
        kept.lines().count() < want.lines().count() && want.starts_with(&kept),
        "the cut data is not a start of the whole"
    );
    let out = Command::new(bin()).args(&args).arg(&cut).output().unwrap();
    assert!(out.status.success(), "resume: {}", String::from_utf8_lossy(&out.stderr));
    assert_eq!(data_positions(&cut.with_extension("data")), want, "the resumed data differs");
    assert_eq!(
        params_without_command(&cut),
        params_without_command(&whole),
        "the resumed tune fitted other parameters"
    );
    let _ = std::fs::remove_dir_all(&dir);
}
