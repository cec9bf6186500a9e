//! `stackchess view` and `replay` as a user runs them, on version-1 record directories (the
//! analysis fixtures), with and without a plies.csv, and on damaged records.

use assert_cmd::Command;
use std::path::{Path, PathBuf};

const FIXTURES: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../analysis/tests/fixtures");

fn tmp(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("stackchess-cli-view-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

fn run(args: &[&str]) -> (bool, String, String) {
    let out = Command::cargo_bin("stackchess").unwrap().args(args).output().unwrap();
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// The records of a games.csv as (column name → value) maps.
fn records(path: &Path) -> Vec<std::collections::HashMap<String, String>> {
    csv::Reader::from_path(path).unwrap().deserialize().map(Result::unwrap).collect()
}

/// The data element of a viewer page.
fn page_data(path: &Path) -> serde_json::Value {
    let html = std::fs::read_to_string(path).unwrap();
    let at = html.find("<script type=\"application/json\" id=\"data\">").expect("data element");
    let body = &html[at..];
    serde_json::from_str(&body[body.find('>').unwrap() + 1..body.find("</script>").unwrap()]).unwrap()
}

#[test]
fn view_writes_every_game_of_version_1_directories() {
    let dir = tmp("v1");
    let out = dir.join("page.html");
    let (malka, trad) = (format!("{FIXTURES}/basic/malka"), format!("{FIXTURES}/basic/traditional"));
    let (ok, _, err) = run(&["view", &malka, &trad, "--out", out.to_str().unwrap()]);
    assert!(ok, "{err}");
    assert!(err.contains("wrote") && err.contains("(14 games)"), "{err}");
    let data = page_data(&out);
    let games = data["games"].as_array().unwrap();
    let mut want: Vec<_> = records(&Path::new(&malka).join("games.csv"));
    want.extend(records(&Path::new(&trad).join("games.csv")));
    want.sort_by(|a, b| a["game_id"].cmp(&b["game_id"]));
    assert_eq!(games.len(), want.len());
    for (g, r) in games.iter().zip(&want) {
        assert_eq!(g["id"], r["game_id"].as_str());
        assert_eq!(g["v"], r["variant"].as_str());
        assert_eq!(g["r"], r["result"].as_str());
        assert_eq!(g["t"], r["termination"].as_str());
        assert_eq!(g["f"], r["start_lfen"].as_str());
        assert_eq!(g["p"].as_array().unwrap().len().to_string(), r["plies"]);
        assert_eq!((g["l"].as_u64(), g["o"].as_u64()), (Some(3), Some(0)));
        assert!(g.get("e").is_none(), "no plies.csv: no evaluations");
    }
    // --game keeps the named games only; an id that is not there is an error.
    let (ok, _, err) = run(&["view", &malka, "--game", "r1-000001", "--out", out.to_str().unwrap()]);
    assert!(ok, "{err}");
    let data = page_data(&out);
    assert_eq!(data["games"].as_array().unwrap().len(), 1);
    assert_eq!(data["games"][0]["id"], "r1-000001");
    let (ok, _, err) = run(&["view", &malka, "--game", "r9-000001", "--out", out.to_str().unwrap()]);
    assert!(!ok && err.contains("game r9-000001 is not in"), "{err}");
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn replay_draws_the_position_that_apply_reaches() {
    let malka = format!("{FIXTURES}/basic/malka");
    let rec = &records(&Path::new(&malka).join("games.csv"))[0];
    let moves: Vec<&str> = rec["moves"].split(' ').collect();
    for n in [0, 1, 5, moves.len()] {
        let (ok, out, err) = run(&["replay", &malka, "--game", &rec["game_id"], "--ply", &n.to_string()]);
        assert!(ok, "{err}");
        assert!(out.contains(&format!("ply {n} of {}", moves.len())), "{out}");
        assert!(out.contains("   level 1") && out.contains("   level 3"), "drawn like show: {out}");
        let lfen = out.lines().last().unwrap();
        let want = if n == 0 {
            rec["start_lfen"].clone()
        } else {
            let mut args = vec!["apply", "-v", "malka", "--lfen", &rec["start_lfen"]];
            args.extend(&moves[..n]);
            run(&args).1.trim().to_owned()
        };
        assert_eq!(lfen, want, "ply {n}");
    }
    // Without --ply: the end of the game.
    let (ok, out, _) = run(&["replay", &malka, "--game", &rec["game_id"]]);
    assert!(ok && out.contains(&format!("ply {0} of {0}; last move", moves.len())), "{out}");
    let (ok, _, err) = run(&["replay", &malka, "--game", &rec["game_id"], "--ply", "99"]);
    assert!(!ok && err.contains("--ply 99 is past its end"), "{err}");
    let (ok, _, err) = run(&["replay", &malka, "--game", "nope"]);
    assert!(!ok && err.contains("game nope is not in"), "{err}");
}

#[test]
fn evaluations_come_from_plies_csv_in_whites_view() {
    let dir = tmp("plies");
    let run_dir = dir.join("run");
    std::fs::create_dir_all(&run_dir).unwrap();
    std::fs::copy(format!("{FIXTURES}/basic/traditional/games.csv"), run_dir.join("games.csv")).unwrap();
    let id = records(&run_dir.join("games.csv"))[0]["game_id"].clone();
    // White's first move +0.30, Black's reply: mated in 3 from Black's view, the third ply without
    // a row (so unscored).
    let plies = format!(
        "game_id,ply,move,san,score_cp,mate,depth,seldepth,nodes,time_ms\n\
         {id},1,x,x,30,,5,7,100,1\n{id},2,x,x,,-3,5,7,100,1\nother-game,1,x,x,5,,1,1,1,1\n"
    );
    std::fs::write(run_dir.join("plies.csv"), plies).unwrap();
    let out = dir.join("p.html");
    let (ok, _, err) = run(&["view", run_dir.to_str().unwrap(), "--out", out.to_str().unwrap()]);
    assert!(ok, "{err}");
    let data = page_data(&out);
    let g = data["games"].as_array().unwrap().iter().find(|g| g["id"] == id.as_str()).unwrap().clone();
    let e = g["e"].as_array().unwrap();
    assert_eq!(e.len(), g["p"].as_array().unwrap().len());
    assert_eq!((&e[0], &e[1], &e[2]), (&serde_json::json!(30), &serde_json::json!("M3"), &serde_json::Value::Null));
    let others = data["games"].as_array().unwrap().iter().filter(|g| g.get("e").is_some()).count();
    assert_eq!(others, 1, "only the game with plies has evaluations");
    let (ok, shown, _) = run(&["replay", run_dir.to_str().unwrap(), "--game", &id, "--ply", "1"]);
    assert!(ok && shown.contains("the mover's evaluation +0.30"), "{shown}");
    // A damaged plies.csv is an error naming it.
    let header = "game_id,ply,move,san,score_cp,mate,depth,seldepth,nodes,time_ms\n";
    std::fs::write(run_dir.join("plies.csv"), format!("{header}x,one,a,b,1,,1,1,1,1\n")).unwrap();
    let (ok, _, err) = run(&["view", run_dir.to_str().unwrap(), "--out", out.to_str().unwrap()]);
    assert!(!ok && err.contains("plies.csv:2"), "{err}");
    // So is one that is not a per-ply table at all.
    std::fs::write(run_dir.join("plies.csv"), "game_id,ply,move,san,score_cp,mate\nx,1,a,b,1,\n").unwrap();
    let (ok, _, err) = run(&["view", run_dir.to_str().unwrap(), "--out", out.to_str().unwrap()]);
    assert!(!ok && err.contains("plies.csv") && err.contains("missing column(s) depth"), "{err}");
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn a_game_that_does_not_replay_or_an_unknown_variant_is_an_error_naming_it() {
    let dir = tmp("bad");
    let text = std::fs::read_to_string(format!("{FIXTURES}/basic/malka/games.csv")).unwrap();
    // The first game's third move made illegal (a pawn jumping to the far rank).
    std::fs::write(dir.join("games.csv"), text.replacen("1g22g3", "1g22g8", 1)).unwrap();
    let out = dir.join("p.html");
    let (ok, _, err) = run(&["view", dir.to_str().unwrap(), "--out", out.to_str().unwrap()]);
    assert!(!ok && err.contains("game r1-000000: game move 3 (1g22g8)"), "{err}");
    std::fs::write(dir.join("games.csv"), text.replace(",malka,", ",mine,")).unwrap();
    let (ok, _, err) = run(&["view", dir.to_str().unwrap(), "--out", out.to_str().unwrap()]);
    assert!(!ok && err.contains("variant 'mine'") && err.contains("--rules FILE"), "{err}");
    let (ok, _, err) = run(&["view", dir.join("missing").to_str().unwrap()]);
    assert!(!ok && err.contains("missing"), "{err}");
    let _ = std::fs::remove_dir_all(dir);
}
