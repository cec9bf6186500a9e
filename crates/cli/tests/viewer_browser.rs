//! The viewer page driven in headless Chromium over the `DevTools` protocol (`cargo xtask
//! viewer-check` runs these; they are ignored otherwise, as they need `chromium` on the PATH).
//!
//! A small real run (fide and malka self-play through the CLI): stepping by arrow keys, buttons,
//! Home/End, a click on a move and the URL fragment shows exactly the pieces that
//! `stackchess apply` gives after that many plies, with the last move and check marked; a filter
//! changes the list. Then a page of 1000 synthetic games with evaluations: it opens, filters,
//! scrolls and steps within generous bounds, timed by the page itself and from outside.

mod browser;

use anyhow::{ensure, Context, Result};
use browser::{cli, eval, eval_str, launch, lfen_pieces};
use headless_chrome::Tab;
use stackchess_core::{coord, Position, Rules, SplitMix64};
use stackchess_variants::{Variant, WithPosition};
use std::collections::{BTreeMap, HashMap};
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::time::Instant;

fn tmp(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("stackchess-viewer-browser-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// Waits until `js` is true (the page updates synchronously, so this is short).
fn wait_for(tab: &Tab, js: &str) -> Result<()> {
    browser::wait_for(tab, js, 20)
}

/// What the page shows: (pieces by cell, last-move cells, checked cells, ply, game).
struct Shown {
    pieces: BTreeMap<String, char>,
    last_move: Vec<String>,
    check: Vec<String>,
    ply: usize,
    game: String,
}

fn shown(tab: &Tab) -> Result<Shown> {
    let v = eval(
        tab,
        "JSON.stringify({
            pieces: [...document.querySelectorAll('#boards .sq')].filter(s => s.dataset.piece).map(s => [s.dataset.cell, s.dataset.piece]),
            lm: [...document.querySelectorAll('#boards .sq.lm')].map(s => s.dataset.cell),
            chk: [...document.querySelectorAll('#boards .sq.chk')].map(s => s.dataset.cell),
            ply: document.getElementById('pos').dataset.ply,
            game: document.getElementById('pos').dataset.game })",
    )?;
    let v: serde_json::Value = serde_json::from_str(v.as_str().context("a string")?)?;
    let strings = |k: &str| -> Vec<String> {
        v[k].as_array().map(|a| a.iter().filter_map(|s| s.as_str().map(str::to_owned)).collect()).unwrap_or_default()
    };
    let mut pieces = BTreeMap::new();
    for pair in v["pieces"].as_array().context("pieces")? {
        let cell = pair[0].as_str().context("cell")?.to_owned();
        let piece = pair[1].as_str().and_then(|p| p.chars().next()).context("piece")?;
        pieces.insert(cell, piece);
    }
    Ok(Shown {
        pieces,
        last_move: strings("lm"),
        check: strings("chk"),
        ply: v["ply"].as_str().context("ply")?.parse()?,
        game: v["game"].as_str().context("game")?.to_owned(),
    })
}

/// Whether the side to move is in check in `lfen`.
struct InCheck<'a>(&'a str);
impl WithPosition for InCheck<'_> {
    type Output = bool;
    fn call<P: Position>(self, rules: P::Rules) -> bool {
        rules.from_lfen(self.0).is_ok_and(|p| p.is_check())
    }
}

/// The start position's LFEN of a variant.
struct StartLfen;

impl WithPosition for StartLfen {
    type Output = String;
    fn call<P: Position>(self, rules: P::Rules) -> String {
        rules.startpos().to_lfen()
    }
}

/// A recorded game: its variant, start, moves (the opening's first, where known).
struct Game {
    id: String,
    variant: String,
    start: String,
    moves: Vec<String>,
}

fn games(path: &Path) -> Result<Vec<Game>> {
    let mut out = Vec::new();
    for row in csv::Reader::from_path(path)?.deserialize::<HashMap<String, String>>() {
        let row = row?;
        // A version-2 game with opening plies replays from the variant's start position: the
        // page counts those plies too.
        let opening: Vec<String> =
            row.get("opening_moves").map_or("", String::as_str).split_whitespace().map(str::to_owned).collect();
        let start = if opening.is_empty() {
            row["start_lfen"].clone()
        } else {
            row["variant"].parse::<Variant>()?.with(StartLfen)
        };
        out.push(Game {
            id: row["game_id"].clone(),
            variant: row["variant"].clone(),
            start,
            moves: opening.into_iter().chain(row["moves"].split_whitespace().map(str::to_owned)).collect(),
        });
    }
    Ok(out)
}

/// The page shows the position `stackchess apply` gives after `n` plies of `g`, with the n-th
/// move's cells marked and the checked king marked when the side to move is in check.
fn check_position(tab: &Tab, g: &Game, n: usize, how: &str) -> Result<()> {
    let s = shown(tab)?;
    ensure!(s.game == g.id && s.ply == n, "{how}: the page is at {} ply {}, expected {} ply {n}", s.game, s.ply, g.id);
    let lfen = if n == 0 {
        g.start.clone()
    } else {
        let mut args = vec!["apply", "-v", &g.variant, "--lfen", &g.start];
        args.extend(g.moves[..n].iter().map(String::as_str));
        cli(&args)?.trim().to_owned()
    };
    let want = lfen_pieces(&lfen);
    ensure!(s.pieces == want, "{how}: game {} ply {n}: the page shows {:?}\nbut apply gives {lfen}", g.id, s.pieces);
    if n > 0 {
        let m = &g.moves[n - 1];
        let mut lm = s.last_move.clone();
        lm.sort();
        let cells: Vec<&str> = if g.variant == "fide" { vec![&m[..2], &m[2..4]] } else { vec![&m[..3], &m[3..6]] };
        let mut want: Vec<String> = cells.into_iter().map(str::to_owned).collect();
        want.sort();
        ensure!(lm == want, "{how}: last move {m} marks {lm:?}");
    }
    let variant: Variant = g.variant.parse()?;
    let in_check = variant.with(InCheck(&lfen));
    let king = if lfen.split(' ').nth(1) == Some("w") { 'K' } else { 'k' };
    let marked: Vec<char> = s.check.iter().filter_map(|c| s.pieces.get(c).copied()).collect();
    ensure!(
        if in_check { marked == vec![king] } else { s.check.is_empty() },
        "{how}: in check {in_check}, marked {:?}",
        s.check
    );
    Ok(())
}

fn open_hash(tab: &Tab, id: &str, ply: usize) -> Result<()> {
    eval(tab, &format!("location.hash = 'game={id}&ply={ply}'"))?;
    wait_for(tab, &format!("document.getElementById('pos').dataset.game === '{id}' && document.getElementById('pos').dataset.ply === '{ply}'"))
}

fn play_small_runs(dir: &Path) -> Result<Vec<Game>> {
    let mut all = Vec::new();
    for v in ["fide", "malka"] {
        let out = dir.join(v);
        let o = out.to_str().context("path")?;
        cli(&[
            "selfplay",
            "-v",
            v,
            "--games",
            "4",
            "--nodes",
            "300",
            "--max-plies",
            "60",
            "--openings",
            "random:2",
            "-q",
            "--out",
            o,
        ])?;
        all.extend(games(&out.join("games.csv"))?);
    }
    Ok(all)
}

#[test]
#[ignore = "needs chromium (apt-get install -y chromium): cargo xtask viewer-check"]
fn stepping_shows_the_positions_apply_gives_and_filters_change_the_list() -> Result<()> {
    let dir = tmp("small");
    let games = play_small_runs(&dir)?;
    let page = dir.join("games.html");
    let (f, m) = (dir.join("fide"), dir.join("malka"));
    cli(&["view", f.to_str().unwrap(), m.to_str().unwrap(), "--out", page.to_str().unwrap()])?;
    let browser = launch(&dir.join("profile"), (1400, 1000))?;
    let tab = browser.new_tab()?;
    // Each variant's longest game.
    let mut picked: Vec<&Game> = Vec::new();
    for v in ["fide", "malka"] {
        let g = games.iter().filter(|g| g.variant == v).max_by_key(|g| g.moves.len()).context("a game")?;
        ensure!(g.moves.len() >= 12, "game {} has only {} plies", g.id, g.moves.len());
        picked.push(g);
    }
    let url = format!("file://{}#game={}&ply=0", page.display(), picked[0].id);
    tab.navigate_to(&url)?.wait_until_navigated()?;
    wait_for(&tab, "document.body.dataset.ready === '1'")?;
    for g in picked {
        open_hash(&tab, &g.id, 0)?;
        check_position(&tab, g, 0, "opened by the fragment")?;
        // Forward: 7 plies by the arrow key, 3 by the button.
        for _ in 0..7 {
            tab.press_key("ArrowRight")?;
        }
        check_position(&tab, g, 7, "7 x ArrowRight")?;
        for _ in 0..3 {
            tab.find_element("#b-next")?.click()?;
        }
        check_position(&tab, g, 10, "then 3 x the forward button")?;
        tab.press_key("ArrowLeft")?;
        check_position(&tab, g, 9, "ArrowLeft")?;
        tab.find_element("#b-prev")?.click()?;
        check_position(&tab, g, 8, "the back button")?;
        tab.press_key("End")?;
        check_position(&tab, g, g.moves.len(), "End")?;
        tab.find_element("#b-first")?.click()?;
        check_position(&tab, g, 0, "the first button")?;
        tab.find_element("#b-last")?.click()?;
        check_position(&tab, g, g.moves.len(), "the last button")?;
        tab.press_key("Home")?;
        check_position(&tab, g, 0, "Home")?;
        let k = g.moves.len() / 2;
        tab.find_element(&format!("#moves .mv[data-ply='{k}']"))?.click()?;
        check_position(&tab, g, k, "a click on a move")?;
        let spans = eval(&tab, "document.querySelectorAll('#moves .mv').length")?;
        ensure!(spans.as_u64() == Some(g.moves.len() as u64), "{spans} moves listed for {} plies", g.moves.len());
        // The fragment follows the position, and a fragment opens a ply.
        let hash = eval_str(&tab, "location.hash")?;
        ensure!(hash == format!("#game={}&ply={k}", g.id), "{hash}");
        open_hash(&tab, &g.id, 11)?;
        check_position(&tab, g, 11, "the fragment ply=11")?;
        // The runs wrote plies.csv: the game's evaluations are drawn.
        ensure!(
            eval_str(&tab, "String(document.querySelector('#graph svg') !== null)")? == "true",
            "no evaluation graph for {}",
            g.id
        );
    }
    // The filters change the list.
    let count = |tab: &Tab| -> Result<u64> {
        eval_str(tab, "document.getElementById('list').dataset.count")?.parse::<u64>().context("count")
    };
    ensure!(count(&tab)? == games.len() as u64, "all games listed");
    eval(
        &tab,
        "(s => { s.value = 'fide'; s.dispatchEvent(new Event('change')); })(document.getElementById('f-variant'))",
    )?;
    let fide = games.iter().filter(|g| g.variant == "fide").count() as u64;
    ensure!(count(&tab)? == fide, "variant filter: {} listed, {fide} fide games", count(&tab)?);
    let rows =
        eval_str(&tab, "[...document.querySelectorAll('#list .row')].map(r => r.children[1].textContent).join(',')")?;
    ensure!(rows.split(',').all(|v| v == "fide") && rows.split(',').count() == fide as usize, "rows: {rows}");
    eval(
        &tab,
        "(s => { s.value = '1/2-1/2'; s.dispatchEvent(new Event('change')); })(document.getElementById('f-result'))",
    )?;
    ensure!(count(&tab)? <= fide);
    // A click on a listed game opens it.
    tab.find_element("#list .row")?.click()?;
    let first = eval_str(&tab, "document.querySelector('#list .row').dataset.game")?;
    wait_for(&tab, &format!("document.getElementById('pos').dataset.game === '{first}'"))?;
    let _ = std::fs::remove_dir_all(dir);
    Ok(())
}

/// `count` games of random legal play under `variant` (lengths 40 to 240 plies), as games.csv
/// rows (schema 1) and plies.csv rows (a made-up score per ply).
struct Synthetic<'a> {
    first: u64,
    count: u64,
    games: &'a mut String,
    plies: &'a mut String,
}

impl WithPosition for Synthetic<'_> {
    type Output = ();
    fn call<P: Position>(self, rules: P::Rules) {
        for i in self.first..self.first + self.count {
            let mut rng = SplitMix64::for_item(7, i);
            let length = 40 + rng.below(200);
            let mut pos = rules.startpos();
            let mut moves = Vec::new();
            while moves.len() < length {
                let legal = pos.moves();
                if legal.is_empty() {
                    break;
                }
                let m = legal[rng.below(legal.len())];
                moves.push(coord::<P>(m));
                pos.play_unchecked(m);
            }
            let (result, termination) = if pos.count_legal_moves() == 0 && pos.is_check() {
                (if pos.turn() == stackchess_core::Color::White { "0-1" } else { "1-0" }, "checkmate")
            } else {
                [("1-0", "resign"), ("0-1", "resign"), ("1/2-1/2", "max-plies")][rng.below(3)]
            };
            let id = format!("5e1f7e7c0ffee000-{i:06}");
            let start = rules.startpos().to_lfen();
            let _ = writeln!(
                self.games,
                "{id},5e1f7e7c0ffee000,{},7,{i},{i},default,default,{start},{},{result},{termination},{},0,0,0,0,0,0,0,0,0,0,synthetic,0.1.0",
                rules.name(),
                moves.join(" "),
                moves.len()
            );
            for (k, m) in moves.iter().enumerate() {
                let cp = ((k as f64 / 9.0).sin() * 300.0) as i32;
                let _ = writeln!(self.plies, "{id},{},{m},x,{cp},,8,12,1000,5", k + 1);
            }
        }
    }
}

#[test]
#[ignore = "needs chromium (apt-get install -y chromium): cargo xtask viewer-check"]
fn a_page_of_1000_games_opens_filters_and_steps_promptly() -> Result<()> {
    let dir = tmp("big");
    let run = dir.join("run");
    std::fs::create_dir_all(&run)?;
    let mut games = String::from(
        "game_id,run_key,variant,seed,index,pair,white,black,start_lfen,moves,result,termination,plies,material_white,material_black,level_changes_white,level_changes_black,captures_white,captures_black,checks_white,checks_black,nodes,duration_ms,settings,version\n",
    );
    let mut plies = String::from("game_id,ply,move,san,score_cp,mate,depth,seldepth,nodes,time_ms\n");
    for (variant, first, count) in
        [(Variant::Malka, 0, 500), (Variant::Traditional, 500, 300), (Variant::Fide, 800, 200)]
    {
        variant.with(Synthetic { first, count, games: &mut games, plies: &mut plies });
    }
    std::fs::write(run.join("games.csv"), games)?;
    std::fs::write(run.join("plies.csv"), plies)?;
    let page = dir.join("big.html");
    let t = Instant::now();
    cli(&["view", run.to_str().unwrap(), "--out", page.to_str().unwrap()])?;
    let write_s = t.elapsed().as_secs_f64();
    let size = std::fs::metadata(&page)?.len();

    let browser = launch(&dir.join("profile"), (1400, 1000))?;
    let tab = browser.new_tab()?;
    let t = Instant::now();
    tab.navigate_to(&format!("file://{}", page.display()))?.wait_until_navigated()?;
    wait_for(&tab, "document.body.dataset.ready === '1'")?;
    let open_ms = t.elapsed().as_secs_f64() * 1000.0;
    let load_ms: f64 = eval_str(&tab, "document.body.dataset.loadMs")?.parse()?;
    let nav_ms = eval(&tab, "performance.now()")?.as_f64().unwrap_or(f64::NAN);
    ensure!(eval_str(&tab, "document.getElementById('list').dataset.count")? == "1000");
    let rows = eval(&tab, "document.querySelectorAll('#list .row').length")?.as_u64().unwrap_or(0);
    ensure!(rows > 5 && rows < 120, "{rows} list rows in the DOM: the list must render only what is visible");
    ensure!(
        eval(&tab, "document.querySelectorAll('#graph svg path').length")?.as_u64() == Some(2),
        "an evaluation graph"
    );

    // Filter, then step through the first listed game by key.
    let t = Instant::now();
    eval(&tab, "(s => { s.value = 'traditional'; s.dispatchEvent(new Event('change')); })(document.getElementById('f-variant'))")?;
    let filter_wall_ms = t.elapsed().as_secs_f64() * 1000.0;
    let filter_ms: f64 = eval_str(&tab, "document.body.dataset.filterMs")?.parse()?;
    ensure!(eval_str(&tab, "document.getElementById('list').dataset.count")? == "300");
    tab.find_element("#list .row")?.click()?;
    let t = Instant::now();
    for _ in 0..50 {
        tab.press_key("ArrowRight")?;
    }
    wait_for(&tab, "document.getElementById('pos').dataset.ply === '50'")?;
    let steps_wall_ms = t.elapsed().as_secs_f64() * 1000.0;
    let step_max_ms: f64 = eval_str(&tab, "document.body.dataset.stepMaxMs")?.parse()?;
    // Scroll to the end of the list: the last game is rendered.
    eval(&tab, "(l => { l.scrollTop = l.scrollHeight; l.dispatchEvent(new Event('scroll')); })(document.getElementById('list'))")?;
    wait_for(
        &tab,
        "[...document.querySelectorAll('#list .row')].some(r => r.dataset.game === '5e1f7e7c0ffee000-000799')",
    )?;
    // From the last game of the list to the next, by key, across the whole list.
    eval(&tab, "(s => { s.value = ''; s.dispatchEvent(new Event('change')); })(document.getElementById('f-variant'))")?;
    tab.press_key("ArrowDown")?;
    println!(
        "1000 games: page {:.1} MB written in {write_s:.2}s; opened in {open_ms:.0} ms from outside \
         (navigation to ready, page clock {nav_ms:.0} ms; its script {load_ms:.0} ms); \
         filter {filter_ms:.1} ms in the page ({filter_wall_ms:.0} ms from outside); \
         50 key steps {steps_wall_ms:.0} ms from outside, the page's slowest step {step_max_ms:.1} ms",
        size as f64 / 1e6
    );
    ensure!(load_ms < 3000.0 && open_ms < 10_000.0, "opening took {load_ms} ms in the page, {open_ms} ms in all");
    ensure!(filter_ms < 500.0, "filtering took {filter_ms} ms");
    // The time from outside is mostly the protocol's round trips (two key events a step).
    ensure!(step_max_ms < 250.0, "the slowest step took {step_max_ms} ms in the page");
    ensure!(steps_wall_ms < 60_000.0, "50 steps took {steps_wall_ms} ms from outside");
    let _ = std::fs::remove_dir_all(dir);
    Ok(())
}
