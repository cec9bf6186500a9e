//! `stackchess engine`, `analyse` and `bench` as a tool drives them.

use assert_cmd::Command;
use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Stdio};
use std::sync::mpsc::{self, Receiver};
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

/// The whole output of a script sent at once (the reader then has every line before the first
/// answer is written: the order of the answers is the engine's doing alone).
/// What a successful run of stackchess with `args` prints.
fn stdout_of(args: &[&str]) -> String {
    String::from_utf8(stackchess().args(args).assert().success().get_output().stdout.clone()).unwrap()
}

fn answers(args: &[&str], script: &str) -> Vec<String> {
    let out = stackchess().args(args).write_stdin(script).assert().success().get_output().stdout.clone();
    String::from_utf8(out).unwrap().lines().map(str::to_owned).collect()
}

fn index_of(lines: &[String], pred: impl Fn(&str) -> bool) -> usize {
    lines.iter().position(|l| pred(l)).unwrap_or_else(|| panic!("not found in {lines:#?}"))
}

#[test]
fn answers_come_in_command_order() {
    let lines = answers(
        &["engine", "--variant", "fide"],
        "position startpos moves e2e5\nisready\nuci\nisready\nsetoption name Hash value lots\nisready\n\
         setoption name Threads value 0\nd\nisready\n",
    );
    let readyok: Vec<usize> = lines.iter().enumerate().filter(|(_, l)| *l == "readyok").map(|(i, _)| i).collect();
    assert_eq!(readyok.len(), 4, "{lines:#?}");
    let bad_move = index_of(&lines, |l| l.starts_with("info string error: move 1 ('e2e5')"));
    let id = index_of(&lines, |l| l.starts_with("id name stackchess "));
    let uciok = index_of(&lines, |l| l == "uciok");
    let bad_hash = index_of(&lines, |l| l.starts_with("info string error: Hash: 'lots'"));
    let bad_threads = index_of(&lines, |l| l.starts_with("info string error: Threads: '0'"));
    let diagram = index_of(&lines, |l| l.contains("level 1"));
    assert!(bad_move < readyok[0] && readyok[0] < id && uciok < readyok[1], "{lines:#?}");
    assert!(readyok[1] < bad_hash && bad_hash < readyok[2] && readyok[2] < bad_threads, "{lines:#?}");
    assert!(bad_threads < diagram && diagram < readyok[3], "{lines:#?}");
    assert!(lines.contains(&"id author stackchess developers".to_owned()), "{lines:#?}");
    assert!(lines.iter().any(|l| l == "option name Threads type spin default 1 min 1 max 256"), "{lines:#?}");
    assert!(lines.iter().any(|l| l == "option name MultiPV type spin default 1 min 1 max 256"), "{lines:#?}");
}

#[test]
fn a_failed_option_leaves_the_options_as_they_were() {
    let lines = answers(
        &["engine", "--variant", "fide"],
        "setoption name Params value /nonexistent/stackchess.params\nsetoption name Hash value 1\n\
         position startpos moves e2e4\ngo depth 1\n",
    );
    let errors: Vec<&String> = lines.iter().filter(|l| l.starts_with("info string error")).collect();
    assert_eq!(errors.len(), 1, "{lines:#?}");
    assert!(errors[0].contains("/nonexistent/stackchess.params"), "{lines:#?}");
    assert!(lines.last().unwrap().starts_with("bestmove "), "{lines:#?}");
}

/// An engine process whose output lines arrive on a channel (so a test can wait with a timeout).
struct Session {
    child: Child,
    input: ChildStdin,
    lines: Receiver<String>,
}

impl Session {
    fn start(variant: &str) -> Session {
        let bin = assert_cmd::cargo::cargo_bin("stackchess");
        let mut child = std::process::Command::new(bin)
            .args(["engine", "--variant", variant])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .unwrap();
        let input = child.stdin.take().unwrap();
        let output = BufReader::new(child.stdout.take().unwrap());
        let (tx, lines) = mpsc::channel();
        std::thread::spawn(move || {
            for line in output.lines() {
                let Ok(line) = line else { break };
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        Session { child, input, lines }
    }

    fn send(&mut self, text: &str) {
        writeln!(self.input, "{text}").unwrap();
        self.input.flush().unwrap();
    }

    /// The lines up to and including the first that `until` accepts (60 s at most).
    fn read_until(&self, until: impl Fn(&str) -> bool) -> Vec<String> {
        let mut got = Vec::new();
        loop {
            let line =
                self.lines.recv_timeout(Duration::from_mins(1)).unwrap_or_else(|_| panic!("no answer: {got:#?}"));
            let done = until(&line);
            got.push(line);
            if done {
                return got;
            }
        }
    }

    /// Whatever arrives within `wait`.
    fn read_for(&self, wait: Duration) -> Vec<String> {
        let end = Instant::now() + wait;
        let mut got = Vec::new();
        while let Ok(line) = self.lines.recv_timeout(end.saturating_duration_since(Instant::now())) {
            got.push(line);
        }
        got
    }

    fn quit(mut self) {
        self.send("quit");
        assert!(self.child.wait().unwrap().success());
    }
}

fn bestmove(lines: &[String]) -> &str {
    lines.last().and_then(|l| l.strip_prefix("bestmove ")).and_then(|l| l.split(' ').next()).unwrap_or("")
}

#[test]
fn go_infinite_waits_for_stop_and_answers_isready_meanwhile() {
    let mut e = Session::start("fide");
    // Mate in one: found at once, but an infinite search answers only after `stop`.
    e.send("position fen 6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1\ngo infinite");
    let early = e.read_for(Duration::from_millis(500));
    assert!(early.iter().any(|l| l.contains("score mate 1")), "{early:#?}");
    assert!(!early.iter().any(|l| l.starts_with("bestmove")), "bestmove before stop: {early:#?}");
    e.send("isready");
    assert_eq!(e.read_until(|l| l == "readyok").last().unwrap(), "readyok");
    let asked = Instant::now();
    e.send("stop");
    let tail = e.read_until(|l| l.starts_with("bestmove"));
    assert_eq!(bestmove(&tail), "d1d8");
    assert!(asked.elapsed() < Duration::from_secs(5), "stop took {:?}", asked.elapsed());
    // `stop` right behind `go` (both queued): the search starts, stops, and answers.
    let asked = Instant::now();
    e.send("position startpos\ngo infinite\nstop");
    let lines = e.read_until(|l| l.starts_with("bestmove"));
    assert!(!bestmove(&lines).is_empty(), "{lines:#?}");
    assert!(asked.elapsed() < Duration::from_secs(5), "stop took {:?}", asked.elapsed());
    e.quit();
}

#[test]
fn ponder_waits_for_ponderhit() {
    let mut e = Session::start("fide");
    e.send("position startpos moves e2e4\ngo ponder wtime 1000 btime 1000");
    let early = e.read_for(Duration::from_millis(600));
    assert!(!early.iter().any(|l| l.starts_with("bestmove")), "bestmove while pondering: {early:#?}");
    let hit = Instant::now();
    e.send("ponderhit");
    let tail = e.read_until(|l| l.starts_with("bestmove"));
    assert!(hit.elapsed() < Duration::from_secs(5), "ponderhit took {:?}", hit.elapsed());
    assert!(!bestmove(&tail).is_empty(), "{tail:#?}");
    e.quit();
}

#[test]
fn go_mate_searchmoves_and_multipv() {
    let lines = answers(
        &["engine", "--variant", "fide"],
        "position fen 8/k7/7R/8/8/8/K2R4/8 w - - 0 1\ngo mate 2\n\
         position startpos\ngo depth 4 searchmoves a2a3 h2h4\n\
         go depth 2 searchmoves e2e5\n\
         setoption name MultiPV value 3\ngo depth 4\n",
    );
    let ends: Vec<usize> =
        lines.iter().enumerate().filter(|(_, l)| l.starts_with("bestmove")).map(|(i, _)| i).collect();
    assert_eq!(ends.len(), 4, "{lines:#?}");
    // go mate 2: the mate is found and the search stops there.
    let mate = &lines[..=ends[0]];
    assert!(mate[ends[0] - 1].contains(" score mate 2 "), "{mate:#?}");
    // searchmoves: every line starts with one of them.
    let restricted = &lines[ends[0] + 1..=ends[1]];
    for l in restricted.iter().filter(|l| l.starts_with("info depth")) {
        let first = l.split(" pv ").nth(1).unwrap().split(' ').next().unwrap();
        assert!(["a2a3", "h2h4"].contains(&first), "{l}");
    }
    assert!(["a2a3", "h2h4"].contains(&bestmove(&restricted[restricted.len() - 1..])), "{restricted:#?}");
    // An illegal searchmoves move: the reason, then a bestmove so the client does not hang.
    assert!(lines[ends[2] - 1].starts_with("info string error: searchmoves: 'e2e5'"), "{lines:#?}");
    assert_eq!(lines[ends[2]], "bestmove (none)");
    // MultiPV 3: three distinct lines per iteration, multipv 1 to 3, the best line's move played.
    let multi: Vec<&String> = lines[ends[2] + 1..ends[3]].iter().filter(|l| l.starts_with("info depth")).collect();
    assert_eq!(multi.len(), 12, "{multi:#?}");
    for (i, group) in multi.chunks(3).enumerate() {
        let mut firsts = Vec::new();
        for (k, l) in group.iter().enumerate() {
            assert!(l.starts_with(&format!("info depth {} ", i + 1)), "{l}");
            assert!(l.contains(&format!(" multipv {} ", k + 1)), "{l}");
            firsts.push(l.split(" pv ").nth(1).unwrap().split(' ').next().unwrap().to_owned());
        }
        firsts.dedup();
        assert_eq!(firsts.len(), 3, "{group:#?}");
    }
    let best_line_move = multi[9].split(" pv ").nth(1).unwrap().split(' ').next().unwrap();
    assert_eq!(bestmove(&lines[ends[3]..=ends[3]]), best_line_move);
}

#[test]
fn threads_search_in_parallel() {
    let lines =
        answers(&["engine", "--variant", "malka"], "setoption name Threads value 2\nposition startpos\ngo depth 5\n");
    assert!(lines.iter().any(|l| l.starts_with("info depth 5 ")), "{lines:#?}");
    assert!(lines.last().unwrap().starts_with("bestmove "), "{lines:#?}");
}

#[test]
fn analyse_prints_iterations_then_the_move() {
    let text = stdout_of(&["analyse", "--variant", "malka", "--depth", "3", "--param", "tempo=0"]);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 4, "{text}");
    assert!(lines[0].starts_with("depth 1 seldepth ") && lines[0].contains(" pv "), "{text}");
    assert!(lines[3].starts_with("bestmove "), "{text}");
    stackchess().args(["analyse", "--param", "nonsense=1", "--depth", "1"]).assert().failure();
}

#[test]
fn analyse_reports_several_lines_and_mate_searches() {
    let run = |args: &[&str]| -> Vec<String> {
        let out = stackchess().arg("analyse").args(args).assert().success().get_output().stdout.clone();
        String::from_utf8(out).unwrap().lines().map(str::to_owned).collect()
    };
    let lines = run(&["--variant", "fide", "--depth", "3", "--multipv", "2", "--threads", "2"]);
    assert_eq!(lines.len(), 7, "{lines:#?}");
    for (i, l) in lines[..6].iter().enumerate() {
        assert!(l.starts_with(&format!("depth {} seldepth ", i / 2 + 1)), "{l}");
        assert!(l.contains(&format!(" multipv {} score ", i % 2 + 1)), "{l}");
    }
    let lines = run(&["--variant", "fide", "--lfen", "8/k7/7R/8/8/8/K2R4/8 w - - 0 1", "--mate", "2"]);
    assert!(lines[lines.len() - 2].contains(" score mate 2 "), "{lines:#?}");
    stackchess().args(["analyse", "--multipv", "0", "--depth", "1"]).assert().failure();
}

/// The node total (the signature) `bench --only VARIANT --depth DEPTH [EXTRA...]` prints.
fn bench_total(variant: &str, depth: &str, extra: &[&str]) -> u64 {
    let text = stdout_of(&[&["bench", "--only", variant, "--depth", depth], extra].concat());
    let total = text.lines().last().unwrap().split_whitespace().nth(2).unwrap();
    total.parse().unwrap_or_else(|_| panic!("no node total in {text}"))
}

#[test]
fn bench_signature_is_reproducible() {
    let a = bench_total("fide", "5", &[]);
    assert!(a > 0);
    assert_eq!(a, bench_total("fide", "5", &[]));
}

#[test]
fn bench_signatures_are_those_the_search_has_always_had() {
    // `bench --depth 4` node totals per variant: pinned so that speed work provably visits the
    // same tree. A change of search behaviour updates these, with its reason in the commit (last:
    // Traditional's default became its tenth-generation net, `crates/traditional/traditional.nnue`;
    // before that, its ninth). The linear evaluation is pinned too, so a change to the nets'
    // inference shows apart from one to the search.
    for (variant, nodes) in [("fide", 12_479u64), ("malka", 31_751), ("traditional", 33_040), ("air-attack", 60_936)] {
        assert_eq!(bench_total(variant, "4", &[]), nodes, "{variant}");
    }
    assert_eq!(bench_total("malka", "4", &["--eval", "linear"]), 33_441, "malka, linear");
    assert_eq!(bench_total("fide", "4", &["--eval", "linear"]), 14_767, "fide, linear");
    assert_eq!(bench_total("traditional", "4", &["--eval", "linear"]), 37_861, "traditional, linear");
    assert_eq!(bench_total("air-attack", "4", &["--eval", "linear"]), 59_536, "air-attack, linear");
}

#[test]
fn parameters_of_ones_own_set_the_default_net_aside_and_say_so() {
    // Malka's default is a residual net of its preset: with other evaluation parameters it would
    // ignore them, so the default plays their linear evaluation, and stderr says why.
    let out = stackchess()
        .args(["bench", "--only", "malka", "--depth", "4", "--param", "value.queen=1234"])
        .output()
        .unwrap();
    assert!(out.status.success());
    let note = String::from_utf8_lossy(&out.stderr);
    assert!(note.contains("malka plays the linear evaluation: its net corrects the preset"), "{note}");
    let total =
        |text: &str| -> u64 { text.lines().last().unwrap().split_whitespace().nth(2).unwrap().parse().unwrap() };
    let linear = bench_total("malka", "4", &["--eval", "linear", "--param", "value.queen=1234"]);
    assert_eq!(total(&String::from_utf8_lossy(&out.stdout)), linear);
    assert_ne!(linear, 33_441, "value.queen changed the linear search");
}

#[test]
fn huge_go_numbers_search_as_deep_as_the_engine_goes() {
    // Depths and mate lengths beyond u32 are "without end" (the search caps them), not errors.
    let lines = answers(
        &["engine", "--variant", "fide"],
        "position startpos\ngo depth 99999999999\nstop\ngo mate 99999999999\nstop\nisready\n",
    );
    assert!(!lines.iter().any(|l| l.starts_with("info string error")), "{lines:#?}");
    assert_eq!(lines.iter().filter(|l| l.starts_with("bestmove ")).count(), 2, "{lines:#?}");
    assert!(lines.iter().any(|l| l == "readyok"), "{lines:#?}");
}
