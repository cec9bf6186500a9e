//! Clocks (`--tc`, `--time-margin`) and external engines in `match` (`--engine name=...,cmd=...`):
//! per-move times within the clock and its margin, losses on time, and fake engines that crash,
//! stall or play an illegal move, each losing its games with the right termination while the run
//! goes on; and a real match of `stackchess engine`, run as an external engine, against the
//! built-in engine.

use assert_cmd::Command;
use stackchess_selfplay::records::{read_plies, PlyRecord};
use stackchess_selfplay::{read_records, GameRecord};
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

fn tmp(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("stackchess-clock-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

const BIN: &str = env!("CARGO_BIN_EXE_stackchess");

fn stackchess() -> Command {
    Command::new(BIN)
}

/// Runs the command; returns stdout, failing with stderr when it fails.
fn ok(cmd: &mut Command) -> String {
    let out = cmd.output().unwrap();
    let (stdout, stderr) = (String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
    assert!(out.status.success(), "{cmd:?} failed: {stderr}\n{stdout}");
    stdout.into_owned()
}

/// Games by index, and each game's plies in order.
fn run_records(dir: &Path) -> (Vec<GameRecord>, HashMap<String, Vec<PlyRecord>>) {
    let mut games = read_records(&dir.join("games.csv")).unwrap();
    games.sort_by_key(|g| g.index);
    let mut plies: HashMap<String, Vec<PlyRecord>> = HashMap::new();
    for p in read_plies(&dir.join("plies.csv")).unwrap() {
        plies.entry(p.game_id.clone()).or_default().push(p);
    }
    (games, plies)
}

/// A shell script in `dir`, executable.
fn script(dir: &Path, name: &str, body: &str) -> PathBuf {
    let path = dir.join(name);
    std::fs::write(&path, format!("#!/bin/sh\n{body}")).unwrap();
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
    }
    path
}

/// A fake UCI engine: answers the handshake, and on `go` does `on_go`.
fn fake(dir: &Path, name: &str, on_go: &str) -> PathBuf {
    script(
        dir,
        name,
        &format!(
            r#"while read -r line; do
  case "$line" in
    uci) echo "id name {name}"; echo "option name Hash type spin default 16 min 1 max 64"; echo uciok ;;
    isready) echo readyok ;;
    go*) {on_go} ;;
    quit) exit 0 ;;
  esac
done
"#
        ),
    )
}

#[test]
fn under_a_clock_no_mover_exceeds_its_time_by_more_than_the_margin() {
    let d = tmp("tc");
    let out = d.join("run");
    let args = ["selfplay", "-v", "fide", "--games", "2", "--max-plies", "40", "--threads", "2", "-q"];
    ok(stackchess().args(args).args(["--tc", "2+0.05", "--out"]).arg(&out));
    let (games, plies) = run_records(&out);
    assert_eq!(games.len(), 2);
    for g in &games {
        assert!(g.settings.starts_with("tc=2+0.05 "), "{}", g.settings);
        let rows = &plies[&g.game_id];
        assert_eq!(rows.len(), g.plies as usize);
        // Replay each side's clock from the recorded move times: 2 s, 50 ms a move.
        let mut clock = [2000i64, 2000];
        for (i, p) in rows.iter().enumerate() {
            let side = i % 2;
            clock[side] -= i64::try_from(p.time_ms).unwrap();
            assert!(
                clock[side] >= -50,
                "{} ply {}: the mover exceeded its clock by {} ms",
                g.game_id,
                p.ply,
                -clock[side]
            );
            assert_eq!(p.clock_ms, Some(clock[side]), "{} ply {}", g.game_id, p.ply);
            clock[side] += 50;
        }
        assert_ne!(g.termination, "time forfeit", "the built-in engine keeps within its clock");
    }
    let pgn = std::fs::read_to_string(out.join("games.pgn")).unwrap();
    assert!(pgn.contains("[TimeControl \"2+0.05\"]"), "{pgn}");
    assert!(pgn.contains("[%emt 0:00:0"), "{pgn}");
    // A resumed run with another time control is another run.
    let refused = stackchess().args(args).args(["--tc", "3+0.05"]).arg("--resume").arg("--out").arg(&out).output();
    let refused = refused.unwrap();
    assert!(!refused.status.success());
    let stderr = String::from_utf8_lossy(&refused.stderr);
    assert!(stderr.contains("settings differ") && stderr.contains("tc=3+0.05"), "{stderr}");
    // So is one with another margin.
    let refused = stackchess()
        .args(args)
        .args(["--tc", "2+0.05", "--time-margin", "80", "--resume", "--out"])
        .arg(&out)
        .output()
        .unwrap();
    assert!(String::from_utf8_lossy(&refused.stderr).contains("time_margin_ms"), "{refused:?}");
    std::fs::remove_dir_all(d).unwrap();
}

/// A match of the built-in engine (A) against `engine` (its spec), `games` games in fide.
fn match_against(dir: &Path, engine: &str, games: u32, extra: &[&str]) -> (String, Vec<GameRecord>) {
    let out = dir.join("run");
    let stdout = ok(stackchess()
        .args(["match", "-v", "fide", "--games", &games.to_string(), "--threads", "1", "-q", "--nodes", "200"])
        .args(["--engine", "name=builtin", "--engine", engine, "--max-plies", "80"])
        .args(extra)
        .arg("--out")
        .arg(&out));
    let mut games = read_records(&out.join("games.csv")).unwrap();
    games.sort_by_key(|g| g.index);
    (stdout, games)
}

/// Every game is a loss of `loser` with `termination`.
fn all_lost(games: &[GameRecord], loser: &str, termination: &str) {
    for g in games {
        let want = if g.white == loser { "0-1" } else { "1-0" };
        assert_eq!((g.result.as_str(), g.termination.as_str()), (want, termination), "{g:?}");
        assert!(g.white == loser || g.black == loser);
    }
}

#[test]
fn an_engine_that_crashes_loses_each_game_and_is_restarted() {
    let d = tmp("crash");
    // It crashes on its first `go`; restarted for each game, it crashes again.
    let cmd = fake(&d, "crasher", "exit 3");
    let (stdout, games) = match_against(&d, &format!("name=crasher,cmd={}", cmd.display()), 4, &[]);
    assert_eq!(games.len(), 4);
    all_lost(&games, "crasher", "engine crashed");
    assert!(stdout.contains("Score of builtin vs crasher: 4 - 0 - 0"), "{stdout}");
    let pgn = std::fs::read_to_string(d.join("run/games.pgn")).unwrap();
    assert!(pgn.contains("[Termination \"engine crashed\"]") && pgn.contains("engine crashed: exited"), "{pgn}");
    std::fs::remove_dir_all(d).unwrap();
}

#[test]
fn an_engine_that_stalls_loses_each_game() {
    let d = tmp("stall");
    // It never answers `go`: under a node limit the stall timeout ends its wait.
    let cmd = fake(&d, "staller", ":");
    let spec = format!("name=staller,cmd={},option.Hash=8", cmd.display());
    let (_, games) = match_against(&d, &spec, 2, &["--stall-timeout", "0.3"]);
    assert_eq!(games.len(), 2);
    all_lost(&games, "staller", "stalled");
    // Under a clock it is stopped at its time plus the margin and, silent still, has stalled.
    let d2 = tmp("stall-tc");
    let (_, games) = match_against(&d2, &format!("{spec},tc=0.5"), 2, &[]);
    all_lost(&games, "staller", "stalled");
    std::fs::remove_dir_all(d).unwrap();
    std::fs::remove_dir_all(d2).unwrap();
}

#[test]
fn an_engine_that_plays_an_illegal_move_loses_each_game() {
    let d = tmp("illegal");
    let cmd = fake(&d, "cheat", "echo 'info depth 1 score cp 10'; echo 'bestmove e2e5'");
    let (_, games) = match_against(&d, &format!("name=cheat,cmd={}", cmd.display()), 2, &[]);
    assert_eq!(games.len(), 2);
    all_lost(&games, "cheat", "illegal move e2e5");
    // Unreadable text is an illegal move too.
    let d2 = tmp("garbage");
    let cmd = fake(&d2, "babbler", "echo 'bestmove hello'");
    let (_, games) = match_against(&d2, &format!("name=babbler,cmd={}", cmd.display()), 2, &[]);
    all_lost(&games, "babbler", "illegal move hello");
    std::fs::remove_dir_all(d).unwrap();
    std::fs::remove_dir_all(d2).unwrap();
}

#[test]
fn an_engine_too_slow_for_its_clock_loses_on_time() {
    let d = tmp("slow");
    // The real engine behind a pipe that holds each `go` back 300 ms: at 1 s a game it flags.
    let slow = script(
        &d,
        "slow",
        &format!(
            "while read -r line; do case \"$line\" in go*) sleep 0.3; echo 'go depth 1' ;; *) echo \"$line\" ;; esac; done | {BIN} engine --variant fide\n"
        ),
    );
    let (_, games) = match_against(&d, &format!("name=slow,cmd={},tc=1", slow.display()), 2, &[]);
    assert_eq!(games.len(), 2);
    all_lost(&games, "slow", "time forfeit");
    let (_, plies) = run_records(&d.join("run"));
    for g in &games {
        // Its recorded moves kept within the clock; the move that did not is not played.
        let slow_moves: Vec<&PlyRecord> =
            plies[&g.game_id].iter().filter(|p| (p.ply % 2 == 1) == (g.white == "slow")).collect();
        assert!(slow_moves.iter().all(|p| p.clock_ms.is_some_and(|c| c >= -50) && p.time_ms >= 300), "{slow_moves:?}");
    }
    let pgn = std::fs::read_to_string(d.join("run/games.pgn")).unwrap();
    assert!(pgn.contains("[Termination \"time forfeit\"]"), "{pgn}");
    assert!(pgn.contains("[BlackTimeControl \"1\"]") || pgn.contains("[WhiteTimeControl \"1\"]"), "{pgn}");
    std::fs::remove_dir_all(d).unwrap();
}

#[test]
fn an_engine_that_does_not_start_stops_the_run_before_it_begins() {
    let d = tmp("nostart");
    let out = stackchess()
        .args(["match", "-v", "fide", "--games", "2", "-q", "--engine", "name=a", "--engine"])
        .arg(format!("name=ghost,cmd={}", d.join("missing").display()))
        .arg("--out")
        .arg(d.join("run"))
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success() && stderr.contains("engine ghost") && stderr.contains("cannot start"), "{stderr}");
    assert!(!stderr.contains("Crashed("), "the failure is said in words: {stderr}");
    // Spec errors name the spec and the key; a match takes exactly two engines.
    let e = |args: &[&str]| {
        let out = stackchess().args(["match", "--games", "2", "--out"]).arg(d.join("x")).args(args).output().unwrap();
        String::from_utf8_lossy(&out.stderr).into_owned()
    };
    assert!(e(&["--engine", "name=a,speed=9", "--engine", "name=b"]).contains("--engine name=a,speed=9: key 'speed'"));
    assert!(e(&["--engine", "name=a"]).contains("exactly twice"));
    // A stall timeout too long for a duration is refused, not a panic.
    let huge = e(&["--engine", "name=a", "--engine", "name=b", "--stall-timeout", "1e300"]);
    assert!(
        huge.contains("--stall-timeout 1e300: give a positive number of seconds") && !huge.contains("panicked"),
        "{huge}"
    );
    assert!(e(&["--engine", "name=a", "--engine", "name=a"]).contains("same name"));
    std::fs::remove_dir_all(d).unwrap();
}

#[test]
fn stackchess_engine_as_an_external_engine_plays_the_built_in_one() {
    let d = tmp("real");
    let spec = format!("name=external,cmd={BIN},arg=engine,option.Hash=8");
    let (stdout, games) = match_against(&d, &spec, 4, &["--paired", "--openings", "random:4"]);
    assert_eq!(games.len(), 4);
    for g in &games {
        assert!(!Ending::is_forfeit_name(&g.termination), "{g:?}");
        assert!([g.white.as_str(), g.black.as_str()].contains(&"external"));
    }
    assert!(stdout.contains("Score of builtin vs external"), "{stdout}");
    assert!(stdout.contains("external: nodes=200 cmd="), "{stdout}");
    let (_, plies) = run_records(&d.join("run"));
    // The external engine's searches are read from its `info` lines.
    let ext_ply =
        plies[&games[0].game_id].iter().find(|p| p.ply % 2 == u32::from(games[0].white != "external")).unwrap();
    assert!(ext_ply.nodes > 0 && ext_ply.depth > 0 && ext_ply.score_cp.or(ext_ply.mate).is_some(), "{ext_ply:?}");
    // A stacked board: the engine is told the variant and reads the coordinate moves.
    let out = d.join("malka");
    ok(stackchess()
        .args(["match", "-v", "malka", "--games", "2", "--threads", "1", "-q", "--tc", "4+0.1", "--max-plies", "16"])
        .args(["--engine", &spec, "--engine", "name=builtin", "--out"])
        .arg(&out));
    let (games, _) = run_records(&out);
    assert_eq!(games.len(), 2);
    for g in &games {
        assert!(!Ending::is_forfeit_name(&g.termination), "{g:?}");
        assert!(g.plies > 0, "{g:?}");
    }
    std::fs::remove_dir_all(d).unwrap();
}

/// Termination names of forfeits.
struct Ending;
impl Ending {
    fn is_forfeit_name(t: &str) -> bool {
        stackchess_selfplay::Ending::from_name(t).is_some_and(stackchess_selfplay::Ending::is_forfeit)
    }
}

/// The real engine behind a filter (a shell pipeline on its output), as an external engine.
fn filtered(dir: &Path, name: &str, filter: &str) -> String {
    let cmd = script(dir, name, &format!("{BIN} engine --variant fide | {filter}\n"));
    format!("name={name},cmd={}", cmd.display())
}

/// Garbage on the engine's output (bytes that are not UTF-8, an 80 KiB line, words no protocol
/// has) between its lines is ignored: the games are played out and recorded as usual.
#[test]
fn an_engine_that_writes_garbage_lines_plays_on() {
    let d = tmp("liar-garbage");
    let long = "z".repeat(80 * 1024);
    let filter = format!(
        "while IFS= read -r l; do printf '\\377\\376 garbage %s\\n' \"$l\"; echo '{long}'; echo 'infox bestmovez'; echo \"$l\"; done"
    );
    let (_, games) = match_against(&d, &filtered(&d, "garbler", &filter), 2, &[]);
    assert_eq!(games.len(), 2);
    for g in &games {
        assert!(!Ending::is_forfeit_name(&g.termination), "{g:?}");
        assert!(g.plies > 2, "{g:?}");
    }
    std::fs::remove_dir_all(d).unwrap();
}

/// A `bestmove` with no `info` before it is a move like any other: played, with no score.
#[test]
fn an_engine_that_sends_bestmove_before_any_info_plays_on() {
    let d = tmp("liar-noinfo");
    let (_, games) = match_against(&d, &filtered(&d, "mute", "grep --line-buffered -v '^info'"), 2, &[]);
    assert_eq!(games.len(), 2);
    let (_, plies) = run_records(&d.join("run"));
    for g in &games {
        assert!(!Ending::is_forfeit_name(&g.termination), "{g:?}");
        let mute: Vec<&PlyRecord> =
            plies[&g.game_id].iter().filter(|p| (p.ply % 2 == 1) == (g.white == "mute")).collect();
        assert!(
            !mute.is_empty() && mute.iter().all(|p| p.score_cp.is_none() && p.mate.is_none() && p.depth == 0),
            "{mute:?}"
        );
    }
    std::fs::remove_dir_all(d).unwrap();
}

/// A move in another notation (SAN, or with a level prefix in a one-level game) is not a UCI
/// move: the engine loses the game, and the record says which text it sent.
#[test]
fn an_engine_that_answers_in_the_wrong_notation_loses_each_game() {
    let d = tmp("liar-san");
    let cmd = fake(&d, "sanner", "echo 'info depth 1 score cp 3'; echo 'bestmove Nf3'");
    let (_, games) = match_against(&d, &format!("name=sanner,cmd={}", cmd.display()), 2, &[]);
    all_lost(&games, "sanner", "illegal move Nf3");
    let pgn = std::fs::read_to_string(d.join("run/games.pgn")).unwrap();
    assert!(pgn.contains("illegal move Nf3"), "{pgn}");
    std::fs::remove_dir_all(d).unwrap();
}

/// An engine that floods `info` lines and never moves cannot hold the game: it is stopped at its
/// deadline and has stalled one grace period later, as a silent one has.
#[test]
fn an_engine_that_floods_info_lines_stalls_and_loses_without_a_hang() {
    let d = tmp("liar-flood");
    let cmd = fake(&d, "flooder", "while :; do echo 'info depth 1 score cp 0 nodes 1 pv e2e4'; done");
    let started = Instant::now();
    let (_, games) = match_against(&d, &format!("name=flooder,cmd={}", cmd.display()), 2, &["--stall-timeout", "0.3"]);
    all_lost(&games, "flooder", "stalled");
    // Two games, each lost at its first move by the flooder: 0.3 s and the 1 s grace, with room.
    assert!(started.elapsed() < Duration::from_secs(20), "{:?}", started.elapsed());
    std::fs::remove_dir_all(d).unwrap();
}

/// An engine that ignores `quit` (and SIGTERM) is killed after a short wait: the match ends.
#[test]
fn an_engine_that_ignores_quit_is_ended_and_the_match_finishes() {
    let d = tmp("liar-quit");
    // The real engine, behind a shell that drops `quit` and ignores the signals that ask it to end.
    let stubborn = script(
        &d,
        "stubborn",
        &format!("trap '' TERM INT HUP\ngrep --line-buffered -v '^quit' | {BIN} engine --variant fide\n"),
    );
    let started = Instant::now();
    let (_, games) = match_against(&d, &format!("name=stubborn,cmd={}", stubborn.display()), 2, &[]);
    assert_eq!(games.len(), 2);
    for g in &games {
        assert!(!Ending::is_forfeit_name(&g.termination), "{g:?}");
    }
    assert!(started.elapsed() < Duration::from_mins(1), "{:?}", started.elapsed());
    std::fs::remove_dir_all(d).unwrap();
}
