//! `stackchess engine`, `analyse` and `bench` as a tool drives them.

use assert_cmd::Command;
use std::io::{BufRead, BufReader, Write};
use std::process::Stdio;
use std::time::{Duration, Instant};

fn stackchess() -> Command {
    Command::cargo_bin("stackchess").unwrap()
}

#[test]
fn engine_protocol_session() {
    // End of input (not `quit`) lets the last search finish.
    let script = "uci\nisready\nsetoption name Variant value fide\nucinewgame\n\
                  position startpos moves e2e4 e7e5\ngo depth 3\n\
                  position fen 6k1/5ppp/8/8/8/8/8/K2R4 w - - 0 1\ngo depth 4\nbogus\n";
    let out = stackchess().arg("engine").write_stdin(script).assert().success().get_output().stdout.clone();
    let text = String::from_utf8(out).unwrap();
    for want in ["uciok", "readyok", "option name Variant", "info depth 3 ", "score mate 1", "bestmove d1d8"] {
        assert!(text.contains(want), "no '{want}' in:\n{text}");
    }
    assert_eq!(text.matches("bestmove").count(), 2, "{text}");
    assert!(text.contains("info string unknown command: bogus"), "{text}");
}

#[test]
fn engine_stops_an_infinite_search_on_request() {
    let bin = assert_cmd::cargo::cargo_bin("stackchess");
    let mut child = std::process::Command::new(bin)
        .args(["engine", "--variant", "traditional"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let mut input = child.stdin.take().unwrap();
    let mut lines = BufReader::new(child.stdout.take().unwrap()).lines();
    writeln!(input, "position startpos\ngo infinite").unwrap();
    // Wait for the first iteration, then ask for the move.
    let first = lines.next().unwrap().unwrap();
    assert!(first.starts_with("info depth 1 "), "{first}");
    let asked = Instant::now();
    writeln!(input, "stop").unwrap();
    let best = lines.by_ref().map(Result::unwrap).find(|l| l.starts_with("bestmove")).unwrap();
    assert!(asked.elapsed() < Duration::from_secs(10), "stop took {:?}", asked.elapsed());
    assert!(best.len() > "bestmove ".len() && !best.contains("none"), "{best}");
    writeln!(input, "quit").unwrap();
    assert!(child.wait().unwrap().success());
}

#[test]
fn analyse_prints_iterations_then_the_move() {
    let out = stackchess()
        .args(["analyse", "--variant", "malka", "--depth", "3", "--param", "tempo=0"])
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    let text = String::from_utf8(out).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 4, "{text}");
    assert!(lines[0].starts_with("depth 1 seldepth ") && lines[0].contains(" pv "), "{text}");
    assert!(lines[3].starts_with("bestmove "), "{text}");
    stackchess().args(["analyse", "--param", "nonsense=1", "--depth", "1"]).assert().failure();
}

#[test]
fn bench_signature_is_reproducible() {
    let run = || {
        let out = stackchess()
            .args(["bench", "--only", "fide", "--depth", "5"])
            .assert()
            .success()
            .get_output()
            .stdout
            .clone();
        let text = String::from_utf8(out).unwrap();
        let total = text.lines().last().unwrap().split_whitespace().nth(2).unwrap().to_owned();
        total.parse::<u64>().unwrap()
    };
    let a = run();
    assert!(a > 0);
    assert_eq!(a, run());
}
