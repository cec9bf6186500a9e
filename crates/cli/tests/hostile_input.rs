//! What the parsers inside the binary read, fed hostile input through the binary itself
//! (docs/reliability.md): the UCI commands `stackchess engine` reads, and the `--engine` and
//! `--tc` specs of `match`. (The parsers of the library crates have fuzz targets and property
//! tests of their own in crates/checks.) Inputs are drawn from each grammar, with its words
//! mutated and garbage mixed in, from fixed seeds: no panic, no hang, and the engine still
//! answers `isready` at the end.

use stackchess_core::SplitMix64;
use std::io::{Read, Write};
use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

fn bin() -> PathBuf {
    assert_cmd::cargo::cargo_bin("stackchess")
}

fn pick<'a>(rng: &mut SplitMix64, items: &[&'a str]) -> &'a str {
    items[rng.below(items.len())]
}

/// A word, sometimes mutated: a byte changed, cut, doubled, or replaced by garbage.
fn mangle(rng: &mut SplitMix64, word: &str) -> Vec<u8> {
    let mut w = word.as_bytes().to_vec();
    match rng.below(10) {
        0 if !w.is_empty() => {
            let i = rng.below(w.len());
            w[i] = rng.next_u64() as u8;
        }
        1 => w.truncate(rng.below(w.len() + 1)),
        2 => w = w.repeat(2),
        3 => w = [&b"\xff\xfe"[..], &w].concat(),
        4 => w = "9".repeat(1 + rng.below(30)).into_bytes(),
        _ => {}
    }
    w
}

/// One UCI command line, from the commands `stackchess engine` knows and some it does not.
fn uci_line(rng: &mut SplitMix64) -> Vec<Vec<u8>> {
    let fen = pick(
        rng,
        &[
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            "8/8/8/8/8/8/8/8 w - - 0 1",
            "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1",
            "k7/8/8/8/8/8/8/K6R w - - 99 200",
            "rnbqkbnr/pppp/8 w - -",
        ],
    );
    let mv = || ["e2e4", "e7e5", "g1f3", "e1g1", "a7a8q", "0000", "e2e5", "Nf3", "1e21e4", "zz"];
    let moves = |rng: &mut SplitMix64| -> String {
        let list = mv();
        (0..rng.below(5)).map(|_| list[rng.below(list.len())]).collect::<Vec<_>>().join(" ")
    };
    let go = || {
        [
            "depth 2",
            "nodes 500",
            "movetime 5",
            "wtime 50 btime 50 winc 0 binc 0",
            "wtime -5 btime 0 movestogo 0",
            "mate 1",
            "depth 1 searchmoves e2e4 zz",
            "nodes 300 multipv 3",
            "ponder nodes 200",
            "infinite",
            "depth 99999999999999999999",
            "nodes -1",
            "movetime",
            "depth 1 depth 2",
        ]
    };
    let option = || {
        [
            "Hash value 1",
            "Hash value 0",
            "Hash value 999999999",
            "Threads value 2",
            "Threads value -1",
            "MultiPV value 4",
            "MultiPV value x",
            "Move Overhead value 10",
            "Variant value fide",
            "Variant value nope",
            "Ponder value true",
            "Nope value 1",
            "Hash",
            "value 3",
        ]
    };
    let text = match rng.below(14) {
        0 => "uci".to_owned(),
        1 => "isready".to_owned(),
        2 => "ucinewgame".to_owned(),
        3 => format!("setoption name {}", pick(rng, &option())),
        4 | 5 => format!("position startpos moves {}", moves(rng)),
        6 => format!("position fen {fen} moves {}", moves(rng)),
        7 => format!("position fen {fen}"),
        8 | 9 => format!("go {}", pick(rng, &go())),
        10 => pick(rng, &["stop", "ponderhit", "d", "eval", "debug on", "register later"]).to_owned(),
        11 => pick(rng, &["", "   ", "position", "go go go", "setoption name", "position moves e2e4"]).to_owned(),
        12 => "x".repeat(rng.below(20_000)),
        _ => {
            String::from_utf8_lossy(&(0..rng.below(40)).map(|_| rng.next_u64() as u8).collect::<Vec<_>>()).into_owned()
        }
    };
    let mut words: Vec<u8> = Vec::new();
    for (i, w) in text.split(' ').enumerate() {
        if i > 0 {
            words.push(b' ');
        }
        words.extend(if i > 0 && rng.below(4) == 0 { mangle(rng, w) } else { w.as_bytes().to_vec() });
    }
    // Every `go` is followed by `stop`: a search without a limit ends too.
    if text.starts_with("go") {
        vec![words, b"stop".to_vec()]
    } else {
        vec![words]
    }
}

/// 80 scripts of 16 commands each, every one ending `isready` then `quit`: the engine answers
/// `readyok`, exits cleanly, and never panics, within a few seconds a script.
#[test]
fn the_uci_loop_survives_random_and_mangled_commands() {
    let mut rng = SplitMix64(0x0bad_c0de);
    for script in 0..80 {
        let mut input: Vec<u8> = Vec::new();
        for _ in 0..16 {
            for line in uci_line(&mut rng) {
                input.extend(line);
                input.push(b'\n');
            }
        }
        input.extend(b"isready\nquit\n");
        let variant = pick(&mut rng, &["fide", "malka", "air-attack"]);
        let mut child = Command::new(bin())
            .args(["engine", "--variant", variant])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let mut stdin = child.stdin.take().unwrap();
        let writer = std::thread::spawn(move || {
            let _ = stdin.write_all(&input);
            input
        });
        // Its output is read while it runs: a script echoed back as unknown commands fills a pipe.
        let drain = |mut r: Box<dyn Read + Send>| {
            std::thread::spawn(move || {
                let mut v = Vec::new();
                let _ = r.read_to_end(&mut v);
                v
            })
        };
        let stdout = drain(Box::new(child.stdout.take().unwrap()));
        let stderr = drain(Box::new(child.stderr.take().unwrap()));
        let started = Instant::now();
        let status = loop {
            if let Some(status) = child.try_wait().unwrap() {
                break status;
            }
            if started.elapsed() > Duration::from_secs(30) {
                let _ = child.kill();
                panic!("script {script} hangs: {}", String::from_utf8_lossy(&writer.join().unwrap()));
            }
            std::thread::sleep(Duration::from_millis(5));
        };
        let input = writer.join().unwrap();
        let (stdout, stderr) = (stdout.join().unwrap(), stderr.join().unwrap());
        let (stdout, stderr) = (String::from_utf8_lossy(&stdout), String::from_utf8_lossy(&stderr));
        let shown = String::from_utf8_lossy(&input);
        assert!(!stderr.contains("panicked"), "script {script} ({variant}): {stderr}\n{shown}");
        assert!(status.success(), "script {script} ({variant}): {status}\n{stderr}\n{shown}");
        assert!(stdout.lines().any(|l| l == "readyok"), "script {script}: no readyok\n{stdout}\n{shown}");
    }
}

/// One `--engine` spec, from the keys of cutechess-style specs and some mangled ones.
fn spec(rng: &mut SplitMix64) -> String {
    let parts = [
        "name=a",
        "name=",
        "name=x y",
        "nodes=50",
        "nodes=-3",
        "nodes=99999999999999999999",
        "depth=1",
        "depth=x",
        "movetime=5",
        "tc=1+0.01",
        "tc=40/60+0.6",
        "tc=0",
        "tc=1/",
        "tc=+",
        "tc=0.0001",
        "hash=1",
        "hash=big",
        "plain",
        "plain=false",
        "plain=maybe",
        "param=value.pawn=90",
        "param=nope=1",
        "param=value.pawn",
        "params=/nonexistent",
        "cmd=/nonexistent/engine",
        "cmd=true",
        "arg=x",
        "option.Hash=8",
        "proto=uci",
        "proto=xboard",
        "=",
        ",",
        "speed=9",
        "name=a=b",
    ];
    let mut s: Vec<String> = vec!["name=a".into()];
    for _ in 0..rng.below(5) {
        let p = parts[rng.below(parts.len())];
        s.push(if rng.below(5) == 0 { String::from_utf8_lossy(&mangle(rng, p)).into_owned() } else { p.to_owned() });
    }
    if rng.below(6) == 0 {
        s.remove(0);
    }
    s.join(",")
}

/// 120 matches whose first engine's spec (and sometimes `--tc`) is drawn at random: each is refused
/// with a message (naming the spec when it is the spec's fault) or plays its one short game;
/// none panics.
#[test]
fn engine_and_time_control_specs_are_refused_or_played_never_a_panic() {
    let mut rng = SplitMix64(0x5bec);
    let dir = std::env::temp_dir().join(format!("stackchess-specs-{}", std::process::id()));
    for case in 0..120 {
        let a = spec(&mut rng);
        let out_dir = dir.join(case.to_string());
        let mut c = Command::new(bin());
        c.args(["match", "-v", "fide", "--games", "2", "--nodes", "20", "--max-plies", "4", "-q", "--threads", "1"]);
        c.args(["--engine", &a, "--engine", "name=b", "--stall-timeout", "2", "--out"]).arg(&out_dir);
        if rng.below(4) == 0 {
            let tc = pick(&mut rng, &["1+0.01", "0", "x", "40/", "/1", "1.0001", "99999999999999999999", "0.5+0.05"]);
            c.args(["--tc", tc]);
        }
        let out = c.output().unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(!stderr.contains("panicked"), "--engine {a}: {stderr}");
        assert!(out.status.success() || stderr.starts_with("error"), "--engine {a}: {} {stderr}", out.status);
        if stderr.contains("key '") {
            assert!(stderr.contains("--engine"), "a spec error names no spec: {stderr}");
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
}
