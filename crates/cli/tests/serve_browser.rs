//! `stackchess serve` driven in headless Chromium over the `DevTools` protocol, clicked and dragged
//! as a person would (mouse events on the cells and buttons). Ignored by a plain `cargo test`, as it
//! needs `chromium` on the PATH: `cargo xtask serve-check` runs it (and CI, after installing
//! chromium).
//!
//! The page loads; a click on a piece highlights its targets and a click on one plays the move,
//! after which the boards show exactly the position `stackchess apply` gives; an illegal click is
//! refused; a drag plays a move; undo and redo step; a second move at a ply makes a variation;
//! analysis shows at least two `MultiPV` lines and stops when asked; a click on a line's move plays
//! it; the engine answers a move; a pasted malformed LFEN shows an error and the page still
//! plays; a game of the run directory opens and shows its position at a ply. With
//! `SERVE_SCREENSHOT=FILE.png` it saves a screenshot of the page analysing (the README's).

mod browser;

use anyhow::{ensure, Context, Result};
use browser::{bin, chromium, cli, eval, eval_str, launch, lfen_pieces, wait_for};
use headless_chrome::protocol::cdp::Input;
use headless_chrome::protocol::cdp::Page::CaptureScreenshotFormatOption;
use headless_chrome::Tab;
use std::collections::{BTreeMap, HashMap};
use std::io::{BufRead, BufReader};
use std::path::Path;
use std::process::{Child, Stdio};
use std::time::{Duration, Instant};

/// The status line's data (`node`, `lfen`, `turn`, `outcome`, `game`, `refused`).
fn status(tab: &Tab, key: &str) -> Result<String> {
    eval_str(tab, &format!("document.getElementById('status').dataset.{key} || ''"))
}

fn node(tab: &Tab) -> Result<usize> {
    Ok(status(tab, "node")?.parse()?)
}

fn wait_node(tab: &Tab, n: usize) -> Result<()> {
    wait_for(tab, &format!("document.getElementById('status').dataset.node === '{n}'"), 20)
}

fn cell<'a>(tab: &'a Tab, name: &str) -> Result<headless_chrome::Element<'a>> {
    tab.find_element(&format!("#boards .sq[data-cell='{name}']")).with_context(|| format!("cell {name}"))
}

fn click(tab: &Tab, selector: &str) -> Result<()> {
    tab.find_element(selector).with_context(|| selector.to_owned())?.click()?;
    Ok(())
}

/// Presses the mouse on one cell, moves it to another in steps and releases it there.
fn drag(tab: &Tab, from: &str, to: &str) -> Result<()> {
    let a = cell(tab, from)?.get_midpoint()?;
    let b = cell(tab, to)?.get_midpoint()?;
    let event = |kind, x: f64, y: f64, buttons: Option<u32>| Input::DispatchMouseEvent {
        Type: kind,
        x,
        y,
        modifiers: None,
        timestamp: None,
        button: Some(Input::MouseButton::Left),
        buttons,
        click_count: Some(1),
        force: None,
        tangential_pressure: None,
        tilt_x: None,
        tilt_y: None,
        twist: None,
        delta_x: None,
        delta_y: None,
        pointer_Type: None,
    };
    tab.move_mouse_to_point(a)?;
    tab.call_method(event(Input::DispatchMouseEventTypeOption::MousePressed, a.x, a.y, Some(1)))?;
    for k in 1..=5 {
        let t = f64::from(k) / 5.0;
        let (x, y) = (a.x + (b.x - a.x) * t, a.y + (b.y - a.y) * t);
        tab.call_method(event(Input::DispatchMouseEventTypeOption::MouseMoved, x, y, Some(1)))?;
    }
    tab.call_method(event(Input::DispatchMouseEventTypeOption::MouseReleased, b.x, b.y, Some(0)))?;
    Ok(())
}

/// The pieces shown, by cell name.
fn shown(tab: &Tab) -> Result<BTreeMap<String, char>> {
    let v = eval_str(
        tab,
        "JSON.stringify([...document.querySelectorAll('#boards .sq')].filter(s => s.dataset.piece).map(s => [s.dataset.cell, s.dataset.piece]))",
    )?;
    let pairs: Vec<(String, String)> = serde_json::from_str(&v)?;
    Ok(pairs.into_iter().filter_map(|(c, p)| p.chars().next().map(|p| (c, p))).collect())
}

/// The boards show exactly what `stackchess apply` gives after `moves` from `start` (or the start position).
fn check_board(tab: &Tab, variant: &str, start: Option<&str>, moves: &[String], how: &str) -> Result<String> {
    let mut args = vec!["apply", "-v", variant];
    if let Some(s) = start {
        args.extend(["--lfen", s]);
    }
    args.extend(moves.iter().map(String::as_str));
    let want = cli(&args)?.trim().to_owned();
    let pieces = shown(tab)?;
    ensure!(pieces == lfen_pieces(&want), "{how}: the page shows {pieces:?}\nbut apply gives {want}");
    let lfen = status(tab, "lfen")?;
    ensure!(lfen == want, "{how}: the page's LFEN {lfen}, apply's {want}");
    Ok(want)
}

/// The first legal move of a position, by `stackchess moves` (coordinate notation).
fn a_legal_move(variant: &str, lfen: &str) -> Result<String> {
    let out = cli(&["moves", "-v", variant, "--lfen", lfen])?;
    out.lines().find_map(|l| l.split_whitespace().next().map(str::to_owned)).context("a legal move")
}

/// From and to cells of a coordinate move (`1e21e3`, or `e2e4` on one level).
fn cells(m: &str, levels: usize) -> (String, String) {
    let n = if levels > 1 { 3 } else { 2 };
    (m[..n].to_owned(), m[n..2 * n].to_owned())
}

struct Server(Child);

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// Starts `stackchess serve --port 0 ARGS` and reads the URL it prints.
fn serve(args: &[&str]) -> Result<(Server, String, Duration)> {
    let t = Instant::now();
    let mut child =
        bin().args(["serve", "--port", "0"]).args(args).stdout(Stdio::piped()).stderr(Stdio::null()).spawn()?;
    let stdout = child.stdout.take().context("stdout")?;
    let server = Server(child);
    let mut line = String::new();
    BufReader::new(stdout).read_line(&mut line)?;
    let took = t.elapsed();
    let url = line.split_whitespace().find(|w| w.starts_with("http://")).context("a URL")?.to_owned();
    Ok((server, url, took))
}

fn run_games(dir: &Path) -> Result<Vec<HashMap<String, String>>> {
    let o = dir.to_str().context("path")?;
    cli(&[
        "selfplay",
        "-v",
        "fide",
        "--games",
        "2",
        "--nodes",
        "200",
        "--max-plies",
        "40",
        "--openings",
        "random:2",
        "-q",
        "--out",
        o,
    ])?;
    let mut rows = Vec::new();
    for row in csv::Reader::from_path(dir.join("games.csv"))?.deserialize::<HashMap<String, String>>() {
        rows.push(row?);
    }
    Ok(rows)
}

#[test]
#[ignore = "needs chromium (apt-get install -y chromium): cargo xtask serve-check"]
// One person's session with the board, step after step: split, its steps would lose their order.
#[allow(clippy::too_many_lines)]
fn the_board_plays_analyses_and_opens_games_as_a_person_uses_it() -> Result<()> {
    if chromium().is_none() {
        eprintln!("skipped: chromium is not installed (apt-get install -y chromium), so the page is not driven");
        return Ok(());
    }
    let dir = std::env::temp_dir().join(format!("stackchess-serve-browser-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir)?;
    let run = dir.join("fide-run");
    let games = run_games(&run)?;
    let (_server, url, took) = serve(&[run.to_str().context("path")?])?;
    println!("stackchess serve printed its URL {took:.2?} after it was started");
    ensure!(took < Duration::from_secs(1), "serve took {took:?} to say its URL");
    let browser = launch(&dir.join("profile"), (1500, 1000))?;
    let tab = browser.new_tab()?;
    tab.navigate_to(&url)?.wait_until_navigated()?;
    wait_for(&tab, "document.body.dataset.ready === '1'", 20)?;
    ensure!(eval_str(&tab, "document.getElementById('variant').value")? == "malka", "malka is offered first");
    ensure!(eval(&tab, "document.querySelectorAll('#boards .level').length")?.as_u64() == Some(3), "three levels");

    // A click on a piece shows its targets; a click on one plays the move.
    let start = cli(&["apply", "-v", "malka"])?.trim().to_owned();
    let first = a_legal_move("malka", &start)?;
    let (from, to) = cells(&first, 3);
    cell(&tab, &from)?.click()?;
    ensure!(
        eval_str(&tab, &format!("document.querySelector(\"[data-cell='{to}']\").className"))?.contains("tgt"),
        "{to} is a target of {from}"
    );
    cell(&tab, &to)?.click()?;
    wait_node(&tab, 1)?;
    let mut moves = vec![first];
    let lfen = check_board(&tab, "malka", None, &moves, "a move by two clicks")?;

    // An illegal click is refused: a piece of the side to move, then a cell it cannot reach.
    let reply = a_legal_move("malka", &lfen)?;
    let (from, _) = cells(&reply, 3);
    let targets: Vec<String> = cli(&["moves", "-v", "malka", "--lfen", &lfen])?
        .lines()
        .filter(|l| l.starts_with(from.as_str()))
        .map(|l| cells(l.split_whitespace().next().unwrap_or(""), 3).1)
        .collect();
    let unreachable =
        ["2d5", "2e5", "1d5", "1a5"].into_iter().find(|c| !targets.iter().any(|t| t == c)).context("a cell")?;
    let refused = status(&tab, "refused")?;
    cell(&tab, &from)?.click()?;
    cell(&tab, unreachable)?.click()?;
    wait_for(&tab, &format!("document.getElementById('status').dataset.refused !== '{refused}'"), 5)?;
    ensure!(node(&tab)? == 1, "the refused click played nothing");
    check_board(&tab, "malka", None, &moves, "after the refused click")?;

    // A drag plays a move.
    let (from, to) = cells(&reply, 3);
    drag(&tab, &from, &to)?;
    wait_node(&tab, 2)?;
    moves.push(reply);
    check_board(&tab, "malka", None, &moves, "a move by a drag")?;

    // Undo, redo; another move at ply 1 is a variation.
    click(&tab, "#b-back")?;
    wait_node(&tab, 1)?;
    check_board(&tab, "malka", None, &moves[..1], "undo")?;
    click(&tab, "#b-forward")?;
    wait_node(&tab, 2)?;
    click(&tab, "#b-back")?;
    wait_node(&tab, 1)?;
    let other = cli(&["moves", "-v", "malka", "--lfen", &lfen])?
        .lines()
        .filter_map(|l| l.split_whitespace().next().map(str::to_owned))
        .find(|m| *m != moves[1])
        .context("a second legal move")?;
    let (from, to) = cells(&other, 3);
    cell(&tab, &from)?.click()?;
    cell(&tab, &to)?.click()?;
    wait_node(&tab, 3)?;
    check_board(&tab, "malka", None, &[moves[0].clone(), other.clone()], "a variation")?;
    ensure!(
        eval(&tab, "document.querySelectorAll('#moves .var .mv').length")?.as_u64() == Some(1),
        "one move in a variation"
    );

    // Analysis: at least two lines within a few seconds, then stop.
    click(&tab, "#b-analyse")?;
    let t = Instant::now();
    wait_for(&tab, "Number(document.getElementById('lines').dataset.count) >= 2 && document.querySelectorAll('#lines .line .pm').length > 4", 15)?;
    println!("analysis showed its lines {:.2?} after the click", t.elapsed());
    std::thread::sleep(Duration::from_millis(700));
    if let Some(path) = std::env::var_os("SERVE_SCREENSHOT") {
        let png = tab.capture_screenshot(CaptureScreenshotFormatOption::Png, None, None, true)?;
        std::fs::write(&path, png)?;
    }
    click(&tab, "#b-analyse")?;
    wait_for(&tab, "document.getElementById('b-analyse').dataset.on === ''", 5)?;
    let info = eval_str(&tab, "document.getElementById('a-info').textContent")?;
    std::thread::sleep(Duration::from_millis(800));
    ensure!(
        eval_str(&tab, "document.getElementById('a-info').textContent")? == info,
        "the analysis went on after stop"
    );
    // A click on a line's first move plays it.
    let uci = eval_str(&tab, "document.querySelector(\"#lines .line[data-k='1'] .pm[data-i='0']\").dataset.uci")?;
    click(&tab, "#lines .line[data-k='1'] .pm[data-i='0']")?;
    wait_node(&tab, 4)?;
    check_board(&tab, "malka", None, &[moves[0].clone(), other, uci], "the line's move played")?;

    // Against the engine: it plays Black, it answers White's move.
    click(&tab, "#b-new")?;
    wait_node(&tab, 0)?;
    eval(&tab, "document.getElementById('e-side').value = 'b'")?;
    click(&tab, "#b-engine")?;
    wait_for(&tab, "document.getElementById('e-status').textContent.startsWith('engine plays Black')", 5)?;
    let (from, to) = cells(&moves[0], 3);
    cell(&tab, &from)?.click()?;
    cell(&tab, &to)?.click()?;
    wait_for(&tab, "document.querySelectorAll('#moves .mv').length === 2 && document.getElementById('status').dataset.turn === 'w'", 30)?;
    let answer = eval_str(&tab, "document.querySelector(\"#moves .mv[data-ply='2']\").textContent")?;
    check_board(&tab, "malka", None, &[moves[0].clone(), answer.clone()], "the engine's answer")?;
    println!("the engine answered {} with {answer}", moves[0]);
    eval(&tab, "document.getElementById('e-side').value = 'none'")?;
    click(&tab, "#b-engine")?;
    wait_for(&tab, "document.getElementById('e-status').textContent === ''", 5)?;

    // A malformed LFEN pasted: an error, and the page still plays.
    let before = status(&tab, "lfen")?;
    let field = tab.find_element("#lfen")?;
    field.click()?;
    eval(&tab, "document.getElementById('lfen').select()")?;
    tab.type_str("rnbqkbnr/pppppppp/8 w KQkq -")?;
    click(&tab, "#b-load")?;
    wait_for(&tab, "!document.getElementById('error').hidden", 5)?;
    let error = eval_str(&tab, "document.getElementById('error-text').textContent")?;
    ensure!(error.starts_with("invalid LFEN"), "the error shown: {error}");
    ensure!(status(&tab, "lfen")? == before, "the position stayed");
    let next = a_legal_move("malka", &before)?;
    let (from, to) = cells(&next, 3);
    cell(&tab, &from)?.click()?;
    cell(&tab, &to)?.click()?;
    wait_for(&tab, "document.querySelectorAll('#moves .mv').length === 3", 10)?;
    check_board(&tab, "malka", Some(&before), &[next], "a move after the error")?;
    ensure!(
        eval_str(&tab, "String(document.getElementById('error').hidden)")? == "true",
        "the error is cleared by the move"
    );

    // A game of the run at ply N.
    let game = games.iter().max_by_key(|g| g["moves"].split_whitespace().count()).context("a game")?;
    let id = &game["game_id"];
    let opening: Vec<String> =
        game.get("opening_moves").map_or("", String::as_str).split_whitespace().map(str::to_owned).collect();
    let all: Vec<String> = opening.iter().cloned().chain(game["moves"].split_whitespace().map(str::to_owned)).collect();
    let start = if opening.is_empty() { Some(game["start_lfen"].as_str()) } else { None };
    ensure!(all.len() >= 10, "game {id} has {} plies", all.len());
    click(&tab, &format!("#g-list .grow[data-game='{id}']"))?;
    wait_for(&tab, &format!("document.getElementById('status').dataset.game === '{id}'"), 10)?;
    let n = all.len() / 2 + 1;
    click(&tab, &format!("#moves .mv[data-ply='{n}']"))?;
    wait_node(&tab, n)?;
    ensure!(eval_str(&tab, "document.getElementById('variant').value")? == "fide");
    check_board(&tab, "fide", start, &all[..n], &format!("game {id} at ply {n}"))?;
    // Its PGN.
    click(&tab, "#b-pgn")?;
    wait_for(&tab, "document.getElementById('pgn').value.includes('[Result')", 5)?;
    let pgn = eval_str(&tab, "document.getElementById('pgn').value")?;
    ensure!(pgn.contains(&format!("[GameId \"{id}\"]")) && !pgn.contains("[Variant"), "{pgn}");
    let _ = std::fs::remove_dir_all(&dir);
    Ok(())
}
