//! A run split into shards and merged back equals the run played whole; shards refuse to be
//! resumed as another shard, and directories of different runs refuse to merge.

use stackchess_search::{EvalParams, Limits, SearchConfig};
use stackchess_selfplay::{
    merge, read_records, run, Adjudication, EngineSpec, Error, GameRecord, Manifest, NoProgress, Openings, RunConfig,
    RunEnd, Shard,
};
use stackchess_traditional::Fide;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicBool;

fn tmp(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("stackchess-shards-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    d
}

fn config(games: u64, shard: Shard) -> RunConfig {
    RunConfig {
        seed: 9,
        games,
        threads: 2,
        openings: Openings::Random { plies: 4 },
        opening_filter: None,
        paired: true,
        adjudication: Adjudication { max_plies: Some(60), ..Adjudication::default() },
        engines: vec![EngineSpec {
            label: "default".into(),
            config: SearchConfig { hash_mb: 1, ..SearchConfig::full(EvalParams::default()) },
            limits: Limits::nodes(150),
            tc: None,
            external: None,
        }],
        event: "test".into(),
        shard,
        timing: stackchess_selfplay::Timing::default(),
    }
}

fn play(dir: &Path, cfg: &RunConfig, resume: bool) -> Result<stackchess_selfplay::Summary, Error> {
    run::<Fide>(stackchess_traditional::fide_rules(), dir, cfg, resume, &AtomicBool::new(false), &mut NoProgress)
}

fn games(dir: &Path) -> BTreeMap<u64, GameRecord> {
    read_records(&dir.join("games.csv")).unwrap().into_iter().map(|r| (r.index, r.without_timing())).collect()
}

#[test]
fn shards_merge_into_the_whole_run() {
    let root = tmp("merge");
    let shard = |i| Shard::new(i, 3).unwrap();
    let dirs: Vec<PathBuf> = (0..3).map(|i| root.join(format!("shard{i}"))).collect();
    for (i, dir) in (0..3).zip(&dirs) {
        let s = play(dir, &config(10, shard(i)), false).unwrap();
        // Pairs stay together: shard 0 has openings 0 and 3, shards 1 and 2 one or two each.
        assert_eq!((s.end, s.games, s.done), (RunEnd::Complete, [4, 4, 2][i as usize], [4, 4, 2][i as usize]));
        for (index, g) in games(dir) {
            assert!(shard(i).has_pair(index / 2) && g.pair == index / 2, "game {index} in shard {i}");
        }
        assert_eq!(Manifest::read(&dir.join("manifest.json")).unwrap().shard, shard(i));
    }
    let whole = root.join("whole");
    play(&whole, &config(10, Shard::WHOLE), false).unwrap();

    // Shard 1 twice: its games are duplicates, written once.
    let mut inputs = dirs.clone();
    inputs.push(dirs[1].clone());
    let merged = root.join("merged");
    let m = merge(&merged, &inputs).unwrap();
    assert_eq!((m.games, m.records, m.duplicates, m.missing.len()), (10, 10, 4, 0));
    assert_eq!(games(&merged), games(&whole));
    assert_eq!(games(&merged).keys().copied().collect::<Vec<_>>(), (0..10).collect::<Vec<_>>());
    // The plies came along, each game's once, in the games' order.
    let untimed = |dir: &Path| {
        let run = stackchess_selfplay::records::read_run(dir).unwrap();
        let mut rows: Vec<_> = run.plies.unwrap().into_values().flatten().collect();
        for r in &mut rows {
            r.time_ms = 0;
        }
        rows.sort_by(|a, b| (&a.game_id, a.ply).cmp(&(&b.game_id, b.ply)));
        rows
    };
    assert_eq!(untimed(&merged), untimed(&whole));
    let order: Vec<String> = stackchess_selfplay::records::read_plies(&merged.join("plies.csv"))
        .unwrap()
        .into_iter()
        .map(|p| p.game_id)
        .collect();
    assert!(order.windows(2).all(|w| w[0] <= w[1]), "plies follow the games' index order");
    let pgn = std::fs::read_to_string(merged.join("games.pgn")).unwrap();
    assert_eq!(pgn.matches("[GameId ").count(), 10);
    let manifest = Manifest::read(&merged.join("manifest.json")).unwrap();
    assert_eq!((manifest.shard, manifest.sessions.len()), (Shard::WHOLE, 4));
    // The merged directory is a run like any other: resuming it finds nothing to play.
    let s = play(&merged, &config(10, Shard::WHOLE), true).unwrap();
    assert_eq!((s.end, s.played), (RunEnd::Complete, 0));
    std::fs::remove_dir_all(root).unwrap();
}

#[test]
fn a_missing_shard_is_played_by_resuming_the_merge() {
    let root = tmp("partial");
    let dir0 = root.join("shard0");
    play(&dir0, &config(8, Shard::new(0, 2).unwrap()), false).unwrap();
    let merged = root.join("merged");
    let m = merge(&merged, std::slice::from_ref(&dir0)).unwrap();
    assert_eq!(m.missing, vec![2, 3, 6, 7]);
    let s = play(&merged, &config(8, Shard::WHOLE), true).unwrap();
    assert_eq!((s.end, s.played, s.done), (RunEnd::Complete, 4, 8));
    let whole = root.join("whole");
    play(&whole, &config(8, Shard::WHOLE), false).unwrap();
    assert_eq!(games(&merged), games(&whole));
    std::fs::remove_dir_all(root).unwrap();
}

#[test]
fn shards_and_runs_are_not_confused() {
    let root = tmp("errors");
    let dir = root.join("shard0");
    play(&dir, &config(4, Shard::new(0, 2).unwrap()), false).unwrap();
    let e = play(&dir, &config(4, Shard::new(1, 2).unwrap()), true).unwrap_err().to_string();
    assert!(e.contains("holds shard 0/2") && e.contains("--shard 0/2"), "{e}");

    let other = root.join("other");
    play(&other, &RunConfig { seed: 10, ..config(4, Shard::new(1, 2).unwrap()) }, false).unwrap();
    let e = merge(&root.join("m1"), &[dir.clone(), other.clone()]).unwrap_err().to_string();
    assert!(e.contains("only directories of one run merge"), "{e}");
    assert!(!root.join("m1").exists());

    // A record altered in one copy of a shard: the two copies disagree.
    let copy = root.join("copy");
    std::fs::create_dir_all(&copy).unwrap();
    for f in ["games.csv", "games.pgn", "manifest.json"] {
        std::fs::copy(dir.join(f), copy.join(f)).unwrap();
    }
    let csv = std::fs::read_to_string(copy.join("games.csv")).unwrap();
    let mut recs = read_records(&copy.join("games.csv")).unwrap();
    let changed = if recs[0].result == "1-0" { "0-1" } else { "1-0" };
    let line = csv.lines().nth(1).unwrap();
    let altered = line.replacen(&format!(",{},", recs[0].result), &format!(",{changed},"), 1);
    std::fs::write(copy.join("games.csv"), csv.replacen(line, &altered, 1)).unwrap();
    recs = read_records(&copy.join("games.csv")).unwrap();
    assert_eq!(recs[0].result, changed);
    let e = merge(&root.join("m2"), &[dir.clone(), copy]).unwrap_err().to_string();
    assert!(e.contains("differs from the same game") && e.contains("copy/games.csv, line 2"), "{e}");

    // An output that is not empty is refused, and an input without a manifest is named.
    let e = merge(&dir, std::slice::from_ref(&other)).unwrap_err().to_string();
    assert!(e.contains("is not empty"), "{e}");
    let e = merge(&root.join("m3"), &[root.join("nowhere")]).unwrap_err().to_string();
    assert!(e.contains("nowhere/manifest.json"), "{e}");
    std::fs::remove_dir_all(root).unwrap();
}
