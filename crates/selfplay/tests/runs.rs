//! Runs end to end on real variants with tiny node budgets: determinism across thread counts,
//! interruption and resume, damaged files, and the legality of every recorded game.

use stackchess_core::Position;
use stackchess_core::Rules as _;
use stackchess_malka::Malka;
use stackchess_search::{EvalParams, Limits, SearchConfig};
use stackchess_selfplay::{
    read_records, replay, run, Adjudication, DrawRule, EngineSpec, Error, GameRecord, NoProgress, Openings, Progress,
    ResignRule, RunConfig, RunEnd, Shard,
};
use stackchess_traditional::Fide;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};

/// A fresh directory under the system's temporary directory.
fn tmp(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("stackchess-selfplay-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    d
}

fn spec(label: &str, config: SearchConfig, nodes: u64) -> EngineSpec {
    EngineSpec::builtin(label, SearchConfig { hash_mb: 1, ..config }, Limits::nodes(nodes))
}

/// The evaluation preset of `name` (malka, else fide's, which is the generic default).
fn preset(name: &str) -> EvalParams {
    if name == "malka" {
        SearchConfig::preset(stackchess_malka::EVAL_PARAMS).unwrap().eval
    } else {
        EvalParams::default()
    }
}

fn selfplay<P: Position>(rules: P::Rules, games: u64, threads: usize) -> RunConfig {
    RunConfig {
        seed: 42,
        games,
        threads,
        openings: Openings::Random { plies: 4 },
        opening_filter: None,
        paired: false,
        adjudication: Adjudication {
            max_plies: Some(80),
            resign: Some(ResignRule { moves: 3, score: 600 }),
            draw: Some(DrawRule { after_move: 30, moves: 4, score: 10 }),
        },
        engines: vec![spec("default", SearchConfig::full(preset(rules.name())), 150)],
        event: "test".into(),
        shard: Shard::WHOLE,
        timing: stackchess_selfplay::Timing::default(),
    }
}

/// The records by index, without the time column.
fn games(dir: &Path) -> BTreeMap<u64, GameRecord> {
    let mut out = BTreeMap::new();
    for r in read_records(&dir.join("games.csv")).unwrap() {
        assert!(out.insert(r.index, r.without_timing()).is_none(), "game {} recorded twice", r.index);
    }
    out
}

fn play<P: Position>(
    rules: P::Rules,
    dir: &Path,
    cfg: &RunConfig,
    resume: bool,
) -> Result<stackchess_selfplay::Summary, Error> {
    run::<P>(rules, dir, cfg, resume, &AtomicBool::new(false), &mut NoProgress)
}

/// Sets the stop flag after `after` games, as a SIGINT handler would.
struct StopAfter<'a> {
    after: u64,
    seen: u64,
    stop: &'a AtomicBool,
}

impl Progress for StopAfter<'_> {
    fn finished(&mut self, _: &GameRecord) -> bool {
        self.seen += 1;
        if self.seen >= self.after {
            self.stop.store(true, Ordering::Relaxed);
        }
        true
    }
}

#[test]
fn same_seed_same_games_on_one_and_two_threads() {
    let (one, two) = (tmp("t1"), tmp("t2"));
    let s1 = play::<Fide>(
        stackchess_traditional::fide_rules(),
        &one,
        &selfplay::<Fide>(stackchess_traditional::fide_rules(), 6, 1),
        false,
    )
    .unwrap();
    let s2 = play::<Fide>(
        stackchess_traditional::fide_rules(),
        &two,
        &selfplay::<Fide>(stackchess_traditional::fide_rules(), 6, 2),
        false,
    )
    .unwrap();
    assert_eq!((s1.end, s1.done, s2.end, s2.done), (RunEnd::Complete, 6, RunEnd::Complete, 6));
    let (a, b) = (games(&one), games(&two));
    assert_eq!(a.keys().copied().collect::<Vec<_>>(), (0..6).collect::<Vec<_>>());
    assert_eq!(a, b);
    // Different games were played (the openings differ), and every one replays legally.
    assert!(a.values().map(|r| &r.moves).collect::<std::collections::HashSet<_>>().len() > 1);
    for r in a.values() {
        replay::<Fide>(stackchess_traditional::fide_rules(), r).unwrap();
        assert_eq!(r.run_key, s1.run_key);
        assert_eq!(r.game_id, format!("{}-{:06}", s1.run_key, r.index));
    }
    // Another seed gives another run key and other games.
    let other = tmp("t3");
    let s3 = play::<Fide>(
        stackchess_traditional::fide_rules(),
        &other,
        &RunConfig { seed: 43, ..selfplay::<Fide>(stackchess_traditional::fide_rules(), 6, 2) },
        false,
    )
    .unwrap();
    assert_ne!(s3.run_key, s1.run_key);
    assert_ne!(
        games(&other).values().map(|r| r.moves.clone()).collect::<Vec<_>>(),
        a.values().map(|r| r.moves.clone()).collect::<Vec<_>>()
    );
    for d in [one, two, other] {
        std::fs::remove_dir_all(d).unwrap();
    }
}

#[test]
fn interrupted_then_resumed_equals_uninterrupted() {
    let (whole, cut) = (tmp("whole"), tmp("cut"));
    let cfg = selfplay::<Malka>(stackchess_malka::rules(), 8, 2);
    play::<Malka>(stackchess_malka::rules(), &whole, &cfg, false).unwrap();
    let stop = AtomicBool::new(false);
    let s = run::<Malka>(
        stackchess_malka::rules(),
        &cut,
        &cfg,
        false,
        &stop,
        &mut StopAfter { after: 3, seen: 0, stop: &stop },
    )
    .unwrap();
    assert_eq!(s.end, RunEnd::Interrupted);
    assert!(s.done >= 3 && s.done < 8, "{s:?}");
    let partial = games(&cut);
    assert_eq!(partial.len() as u64, s.done);
    // Without --resume the directory is refused; with other settings the resume is refused.
    assert!(matches!(play::<Malka>(stackchess_malka::rules(), &cut, &cfg, false), Err(Error::NotEmpty(_))));
    let other = RunConfig { seed: 7, ..cfg.clone() };
    let err = play::<Malka>(stackchess_malka::rules(), &cut, &other, true).unwrap_err();
    assert!(err.to_string().contains("seed: 42 -> 7"), "{err}");
    let r = play::<Malka>(stackchess_malka::rules(), &cut, &cfg, true).unwrap();
    assert_eq!((r.end, r.done, r.played), (RunEnd::Complete, 8, 8 - s.done));
    let (a, b) = (games(&whole), games(&cut));
    assert_eq!(a, b);
    for (i, g) in &partial {
        assert_eq!(&b[i], g, "a game recorded before the interruption changed");
    }
    // The PGN holds each game once, in agreement with the records.
    let pgn = std::fs::read_to_string(cut.join("games.pgn")).unwrap();
    assert_eq!(pgn.matches("[Event ").count(), 8);
    for g in b.values() {
        assert_eq!(pgn.matches(&format!("[GameId \"{}\"]", g.game_id)).count(), 1);
        replay::<Malka>(stackchess_malka::rules(), g).unwrap();
    }
    // Resuming a complete run plays nothing; a larger --games extends it.
    assert_eq!(play::<Malka>(stackchess_malka::rules(), &cut, &cfg, true).unwrap().played, 0);
    let more = play::<Malka>(stackchess_malka::rules(), &cut, &RunConfig { games: 10, ..cfg }, true).unwrap();
    assert_eq!((more.played, more.done), (2, 10));
    std::fs::remove_dir_all(whole).unwrap();
    std::fs::remove_dir_all(cut).unwrap();
}

#[test]
fn a_cut_off_last_record_is_dropped_and_replayed() {
    let dir = tmp("trunc");
    let cfg = selfplay::<Fide>(stackchess_traditional::fide_rules(), 4, 2);
    play::<Fide>(stackchess_traditional::fide_rules(), &dir, &cfg, false).unwrap();
    let before = games(&dir);
    let csv = dir.join("games.csv");
    let text = std::fs::read_to_string(&csv).unwrap();
    // A power cut in the middle of the last line, and in the middle of the last PGN game.
    std::fs::write(&csv, &text[..text.len() - 40]).unwrap();
    assert!(read_records(&csv).is_err(), "a strict read sees the damage");
    let pgn = dir.join("games.pgn");
    let ptext = std::fs::read_to_string(&pgn).unwrap();
    std::fs::write(&pgn, &ptext[..ptext.len() - 30]).unwrap();
    let s = play::<Fide>(stackchess_traditional::fide_rules(), &dir, &cfg, true).unwrap();
    assert!(s.recovered.truncated_bytes > 0);
    assert_eq!((s.recovered.records, s.played, s.end), (3, 1, RunEnd::Complete));
    assert_eq!(games(&dir), before);
    let ptext = std::fs::read_to_string(&pgn).unwrap();
    assert_eq!(ptext.matches("[Event ").count(), 4);
    // A last line with a wrong field count (a newline written, fields lost) is dropped too.
    let text = std::fs::read_to_string(&csv).unwrap();
    let last = text.trim_end().rfind('\n').unwrap() + 1;
    std::fs::write(&csv, format!("{}{}\n", &text[..last], "a,b,c")).unwrap();
    let s = play::<Fide>(stackchess_traditional::fide_rules(), &dir, &cfg, true).unwrap();
    assert_eq!((s.recovered.records, s.played), (3, 1));
    assert_eq!(games(&dir), before);
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn a_damaged_record_in_the_middle_is_an_error_naming_the_line() {
    let dir = tmp("corrupt");
    let cfg = selfplay::<Fide>(stackchess_traditional::fide_rules(), 4, 1);
    play::<Fide>(stackchess_traditional::fide_rules(), &dir, &cfg, false).unwrap();
    let csv = dir.join("games.csv");
    let text = std::fs::read_to_string(&csv).unwrap();
    let mut lines: Vec<&str> = text.lines().collect();
    lines[2] = "garbage,1,2";
    std::fs::write(&csv, lines.join("\n") + "\n").unwrap();
    let err = play::<Fide>(stackchess_traditional::fide_rules(), &dir, &cfg, true).unwrap_err().to_string();
    assert!(err.contains("games.csv:3: "), "{err}");
    // The file is left as it was.
    assert_eq!(std::fs::read_to_string(&csv).unwrap(), lines.join("\n") + "\n");
    // A wrong header is named too.
    std::fs::write(&csv, text.replacen("game_id", "id", 1)).unwrap();
    let err = play::<Fide>(stackchess_traditional::fide_rules(), &dir, &cfg, true).unwrap_err().to_string();
    assert!(err.contains("games.csv: header does not match"), "{err}");
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn a_match_alternates_colours_and_pairs_openings() {
    let dir = tmp("match");
    let cfg = RunConfig {
        paired: true,
        engines: vec![
            spec("A", SearchConfig::full(EvalParams::default()), 200),
            spec("B", SearchConfig::plain(EvalParams::default()), 200),
        ],
        ..selfplay::<Fide>(stackchess_traditional::fide_rules(), 6, 2)
    };
    play::<Fide>(stackchess_traditional::fide_rules(), &dir, &cfg, false).unwrap();
    let g = games(&dir);
    for r in g.values() {
        assert_eq!(r.pair, r.index / 2);
        let a_white = r.index % 2 == 0;
        assert_eq!((r.white.as_str(), r.black.as_str()), if a_white { ("A", "B") } else { ("B", "A") });
        assert!(r.settings.starts_with("A: nodes=200") && r.settings.contains(" | B: nodes=200"), "{}", r.settings);
        replay::<Fide>(stackchess_traditional::fide_rules(), r).unwrap();
    }
    for k in 0..3 {
        assert_eq!(g[&(2 * k)].start_lfen, g[&(2 * k + 1)].start_lfen, "pair {k} shares its opening");
    }
    assert_ne!(g[&0].start_lfen, g[&2].start_lfen);
    std::fs::remove_dir_all(dir).unwrap();
}

/// The plies of a run without their times (the one column that differs between identical runs).
fn plies(dir: &Path) -> Vec<stackchess_selfplay::PlyRecord> {
    let mut rows = stackchess_selfplay::records::read_plies(&dir.join("plies.csv")).unwrap();
    for r in &mut rows {
        r.time_ms = 0;
    }
    rows.sort_by(|a, b| (&a.game_id, a.ply).cmp(&(&b.game_id, b.ply)));
    rows
}

#[test]
fn plies_match_their_games_and_cut_lines_are_repaired_in_both_files() {
    use stackchess_selfplay::Version;
    let dir = tmp("plies");
    let rules = stackchess_traditional::fide_rules();
    let cfg = selfplay::<Fide>(rules, 4, 2);
    let s = play::<Fide>(rules, &dir, &cfg, false).unwrap();
    assert_eq!(s.version, Version::V2);
    let run_records = stackchess_selfplay::records::read_run(&dir).unwrap();
    assert_eq!(run_records.version, Version::V2);
    for g in &run_records.games {
        // Every searched ply has its row, in order, with the game's moves.
        let rows = run_records.plies_of(&g.game_id).unwrap();
        let moves: Vec<&str> = g.moves.split_whitespace().collect();
        assert_eq!(rows.len(), moves.len());
        for (i, (p, m)) in rows.iter().zip(&moves).enumerate() {
            assert_eq!((p.ply as usize, p.mv.as_str()), (i + 1, *m));
            // The search goes as deep as its depth, or to a mate it found sooner (with the mate in
            // hand, mate-distance pruning cuts every other line at the next ply).
            let mate_plies =
                p.mate.map_or(u32::MAX, |n| if n > 0 { 2 * n.unsigned_abs() - 1 } else { 2 * n.unsigned_abs() });
            assert!(p.nodes > 0 && p.seldepth >= p.depth.min(mate_plies) && !p.san.is_empty(), "{p:?}");
            assert!(p.score_cp.is_some() != p.mate.is_some());
        }
        // The opening plies lead from the start position to start_lfen (checked by replay).
        assert_eq!(g.opening_moves.split_whitespace().count(), 4);
        assert_eq!(g.rules_id, rules.id(), "the rule set's id");
        replay::<Fide>(rules, g).unwrap();
    }
    let (before, before_plies) = (games(&dir), plies(&dir));

    // A kill in the middle of a line of each file.
    for (name, cut) in [("games.csv", 40), ("plies.csv", 25)] {
        let path = dir.join(name);
        let text = std::fs::read_to_string(&path).unwrap();
        std::fs::write(&path, &text[..text.len() - cut]).unwrap();
    }
    let s = play::<Fide>(rules, &dir, &cfg, true).unwrap();
    assert!(s.recovered.truncated_bytes > 0 && s.recovered_plies.truncated_bytes > 0, "{s:?}");
    // The last game lost its games.csv line, so its surviving plies were dropped and it was played again.
    assert!(s.recovered_plies.dropped > 0, "{s:?}");
    assert_eq!((s.recovered.records, s.played), (3, 1));
    assert_eq!((games(&dir), plies(&dir)), (before.clone(), before_plies.clone()));

    // A kill between a game's plies and its games.csv line: its plies are dropped, the game played again.
    let csv = dir.join("games.csv");
    let text = std::fs::read_to_string(&csv).unwrap();
    let last = text.trim_end().rfind('\n').unwrap() + 1;
    let lost_plies = read_records(&csv).unwrap().last().unwrap().plies;
    std::fs::write(&csv, &text[..last]).unwrap();
    let s = play::<Fide>(rules, &dir, &cfg, true).unwrap();
    assert_eq!((s.recovered_plies.dropped, s.recovered_plies.truncated_bytes, s.played), (u64::from(lost_plies), 0, 1));
    assert_eq!((games(&dir), plies(&dir)), (before, before_plies));

    // A committed game without its plies is damage, named.
    let p = dir.join("plies.csv");
    let text = std::fs::read_to_string(&p).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    std::fs::write(&p, lines[..lines.len() - 3].join("\n") + "\n").unwrap();
    let err = play::<Fide>(rules, &dir, &cfg, true).unwrap_err().to_string();
    assert!(err.contains("plies.csv") && err.contains("ply rows for its"), "{err}");
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn a_version_1_run_resumes_as_version_1() {
    use stackchess_selfplay::{GamesFile, Version};
    let dir = tmp("v1");
    let rules = stackchess_traditional::fide_rules();
    let cfg = selfplay::<Fide>(rules, 3, 1);
    play::<Fide>(rules, &dir, &cfg, false).unwrap();
    // Rewrite it as an old build left it: version-1 columns, no plies.
    let old = read_records(&dir.join("games.csv")).unwrap();
    std::fs::remove_file(dir.join("games.csv")).unwrap();
    std::fs::remove_file(dir.join("plies.csv")).unwrap();
    let mut v1 = GamesFile::create_version(&dir.join("games.csv"), Version::V1).unwrap();
    for r in &old {
        v1.append(r).unwrap();
    }
    drop(v1);
    let header = std::fs::read_to_string(dir.join("games.csv")).unwrap();
    assert!(header.lines().next().unwrap().ends_with(",settings,version"));

    let s = play::<Fide>(rules, &dir, &RunConfig { games: 5, ..cfg }, true).unwrap();
    assert_eq!((s.version, s.played, s.done), (Version::V1, 2, 5));
    assert!(!dir.join("plies.csv").exists(), "a version-1 run gets no plies table");
    let read = stackchess_selfplay::records::read_run(&dir).unwrap();
    assert_eq!((read.version, read.games.len(), read.plies.is_none()), (Version::V1, 5, true));
    for r in &read.games {
        assert!(r.opening_moves.is_empty() && r.rules_id.is_empty());
        replay::<Fide>(rules, r).unwrap();
    }
    for (a, b) in old.iter().zip(&read.games) {
        assert_eq!(a.as_v1().without_timing(), b.without_timing());
    }
    std::fs::remove_dir_all(dir).unwrap();
}

/// Both games of every colour-swapped pair replay from the start: the swapped game's opening
/// moves are its opening's, mirrored, and lead to its start (`replay` checks that they do).
fn swapped_games_keep_their_opening<P: Position>(rules: P::Rules, plies: u32) -> (usize, usize) {
    let dir = tmp(&format!("swapped-{}-{plies}", rules.name()));
    let cfg = RunConfig {
        paired: true,
        openings: Openings::Random { plies },
        adjudication: Adjudication { max_plies: Some(12), resign: None, draw: None },
        ..selfplay::<P>(rules, 24, 2)
    };
    play::<P>(rules, &dir, &cfg, false).unwrap();
    let g = games(&dir);
    assert_eq!(g.len(), 24);
    let mut with_line = 0;
    for r in g.values() {
        replay::<P>(rules, r).unwrap();
        if r.index % 2 == 0 {
            assert_eq!(r.opening_moves.split_whitespace().count(), plies as usize, "{}", r.game_id);
        } else if !r.opening_moves.is_empty() {
            with_line += 1;
            let first = rules.from_lfen(&g[&(r.index - 1)].start_lfen).unwrap();
            let board = |l: &str| l.split(' ').take(3).collect::<Vec<_>>().join(" ");
            let turned = stackchess_selfplay::colour_swapped(&first).unwrap().to_lfen();
            assert_eq!(board(&r.start_lfen), board(&turned), "{}: not its pair's opening turned over", r.game_id);
        }
    }
    std::fs::remove_dir_all(dir).unwrap();
    (with_line, 12)
}

#[test]
fn colour_swapped_games_keep_their_opening_from_the_start() {
    // Two random plies (balance's openings): a pair of moves never answers the other, so every
    // swapped game has its line.
    assert_eq!(swapped_games_keep_their_opening::<Fide>(stackchess_traditional::fide_rules(), 2), (12, 12));
    assert_eq!(swapped_games_keep_their_opening::<Malka>(stackchess_malka::rules(), 2), (12, 12));
    // Four: most do (a recapture in a pair has none); three, none (an odd line has none).
    let (four, of) = swapped_games_keep_their_opening::<Fide>(stackchess_traditional::fide_rules(), 4);
    assert!(four * 2 >= of, "{four} of {of}");
    assert_eq!(swapped_games_keep_their_opening::<Fide>(stackchess_traditional::fide_rules(), 3).0, 0);
}
