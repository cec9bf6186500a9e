//! The rule commands end to end: perft, moves, apply, show, and their errors.

use assert_cmd::Command;

fn run(args: &[&str]) -> (bool, String, String) {
    let out = Command::cargo_bin("stackchess").expect("binary").args(args).output().expect("runs");
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn perft_prints_the_total_last_and_divide_adds_up() {
    let (ok, out, _) = run(&["perft", "--variant", "traditional", "--depth", "2"]);
    assert!(ok);
    assert_eq!(out.lines().last(), Some("9992"));
    let (ok, out, _) = run(&["perft", "--variant", "malka", "--depth", "2", "--divide"]);
    assert!(ok);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 71, "70 moves and the total");
    let sum: u64 = lines[..70].iter().map(|l| l.split(' ').nth(1).unwrap().parse::<u64>().unwrap()).sum();
    assert_eq!(lines[70].parse::<u64>().unwrap(), sum);
    assert!(lines.iter().any(|l| l.starts_with("1b12b3 ")), "the knight leap 1b1-2b3 is listed");
}

#[test]
fn moves_lists_coordinates_then_san() {
    let (ok, out, _) = run(&["moves", "--variant", "fide"]);
    assert!(ok);
    assert_eq!(out.lines().count(), 20);
    assert!(out.lines().any(|l| l == "g1f3 Nf3"));
    let (ok, out, _) = run(&["moves"]);
    assert!(ok);
    assert!(out.lines().any(|l| l == "1b12b3 N2b3"), "{out}");
}

#[test]
fn apply_accepts_coordinates_and_san_and_names_an_illegal_move() {
    let (ok, out, _) = run(&["apply", "--variant", "fide", "e2e4", "e5", "Nf3"]);
    assert!(ok);
    assert_eq!(out.trim(), "rnbqkbnr/pppp1ppp/8/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 2");
    let (ok, out, _) = run(&["apply", "--variant", "traditional", "1e2-3e4", "3d7-1d5"]);
    assert!(ok, "{out}");
    assert!(out.contains(" w KQkq 2d6 0 2"), "{out}");
    // No moves: the position itself, as the engine writes it.
    let (ok, out, _) = run(&["apply", "--variant", "fide"]);
    assert!(ok);
    assert_eq!(out.trim(), "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
    let (ok, out, _) = run(&["apply", "--variant", "fide", "--lfen", "4k3/8/8/8/8/8/8/4K3 w - - 0 1"]);
    assert!(ok && out.trim() == "4k3/8/8/8/8/8/8/4K3 w - - 0 1", "{out}");
    let (ok, _, err) = run(&["apply", "--variant", "malka", "2e3", "1e23e4"]);
    assert!(!ok);
    assert!(err.contains("move 2 ('1e23e4')") && err.contains("b KQkq - 0 1"), "{err}");
    assert!(!err.contains("panicked"));
}

#[test]
fn show_draws_every_level() {
    let (ok, out, _) = run(&["show", "--variant", "traditional"]);
    assert!(ok);
    assert!(out.contains("level 1") && out.contains("level 3") && out.contains("white to move"), "{out}");
    let (ok, out, _) = run(&["show", "--variant", "air-attack"]);
    assert!(ok);
    assert!(out.contains("level 2") && !out.contains("level 3"), "{out}");
    let mate = "rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3";
    let (ok, out, _) = run(&["show", "--variant", "fide", "--lfen", mate]);
    assert!(ok);
    assert!(out.contains("game over: 0-1 (checkmate)"), "{out}");
}

#[test]
fn bad_input_is_a_clear_error_not_a_panic() {
    for args in [
        &["perft", "--variant", "malka", "--lfen", "8/8/8 w - -", "--depth", "1"][..],
        &["moves", "--variant", "fide", "--lfen", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0"],
        &["perft", "--variant", "chess", "--depth", "1"],
        &["perft", "--depth", "two"],
        &["show", "--lfen", "8/8/8/8/8/8/8/8|8/8/8/8/8/8/8/8|8/8/8/8/8/8/8/8 w - -"],
    ] {
        let (ok, _, err) = run(args);
        assert!(!ok, "{args:?} should fail");
        assert!(!err.contains("panicked") && !err.is_empty(), "{args:?}: {err}");
    }
    let (_, _, err) = run(&["show", "--lfen", "8/8/8/8/8/8/8/8|8/8/8/8/8/8/8/8|8/8/8/8/8/8/8/8 w - -"]);
    assert!(err.contains("white has 0 kings"), "{err}");
}
