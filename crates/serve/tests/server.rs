//! The server without a browser: WebSocket clients on the loopback address drive it as the page
//! does. Bad messages are answered with errors on a connection that stays up; tabs analyse
//! independently; a disconnect stops its search; the engine answers a move; recorded games open
//! at a ply; the editor refuses an illegal position with the engine's reason; the move tree is
//! capped; foreign pages may not connect.

use serde_json::{json, Value};
use stackchess_core::{parse_move, Position, Rules};
use stackchess_search::SearchConfig;
use stackchess_serve::{bind, Options, Stats};
use stackchess_variants::{Variant, WithPosition};
use std::net::{SocketAddr, TcpStream};
use std::path::PathBuf;
use std::time::{Duration, Instant};
use tungstenite::stream::MaybeTlsStream;
use tungstenite::{Message, WebSocket};

fn config(v: Variant) -> SearchConfig {
    let preset = SearchConfig::preset(v.eval_params().expect("a built-in has a preset")).expect("the preset reads");
    SearchConfig { hash_mb: 4, ..preset }
}

/// A server on a free loopback port, serving on its own thread.
fn start(runs: Vec<PathBuf>, cap: usize) -> (SocketAddr, Stats) {
    let variants = [Variant::Fide, Variant::Malka, Variant::AirAttack].into_iter().map(|v| (v, config(v))).collect();
    let server = bind(Options { port: 0, variants, runs, cap, ..Options::default() }).expect("the server binds");
    let (addr, stats) = (server.addr(), server.stats());
    std::thread::spawn(move || server.run());
    (addr, stats)
}

struct Tab {
    ws: WebSocket<MaybeTlsStream<TcpStream>>,
}

impl Tab {
    /// Connects and reads the hello and the first state.
    fn open(addr: SocketAddr) -> (Tab, Value, Value) {
        let (ws, _) = tungstenite::connect(format!("ws://{addr}/ws")).expect("the WebSocket connects");
        if let MaybeTlsStream::Plain(s) = ws.get_ref() {
            s.set_read_timeout(Some(Duration::from_millis(200))).unwrap();
        }
        let mut tab = Tab { ws };
        let hello = tab.until("hello", |_| true);
        let state = tab.until("state", |_| true);
        (tab, hello, state)
    }

    fn send(&mut self, v: &Value) {
        self.send_text(&v.to_string());
    }

    fn send_text(&mut self, text: &str) {
        self.ws.send(Message::text(text)).expect("the frame is sent");
    }

    /// The next message of kind `t` for which `ok` holds, within 20 s.
    fn until(&mut self, t: &str, ok: impl Fn(&Value) -> bool) -> Value {
        let start = Instant::now();
        while start.elapsed() < Duration::from_secs(20) {
            match self.ws.read() {
                Ok(Message::Text(text)) => {
                    let v: Value = serde_json::from_str(text.as_str()).expect("the server sends JSON");
                    if v["t"] == t && ok(&v) {
                        return v;
                    }
                }
                Ok(_) => {}
                Err(tungstenite::Error::Io(e))
                    if matches!(e.kind(), std::io::ErrorKind::WouldBlock | std::io::ErrorKind::TimedOut) => {}
                Err(e) => panic!("reading: {e}"),
            }
        }
        panic!("no '{t}' message within 20 s")
    }

    fn error(&mut self) -> String {
        self.until("error", |_| true)["message"].as_str().unwrap_or_default().to_owned()
    }
}

/// The LFEN after `moves` from the start position of `v`, by the library (what `stackchess apply` prints).
fn after(v: Variant, moves: &[&str]) -> String {
    struct Apply<'a>(&'a [&'a str]);
    impl WithPosition for Apply<'_> {
        type Output = String;
        fn call<P: Position>(self, rules: P::Rules) -> String {
            let mut p = rules.startpos();
            for m in self.0 {
                let mv = parse_move(&p, m).expect("a legal move");
                p.play_unchecked(mv);
            }
            p.to_lfen()
        }
    }
    v.with(Apply(moves))
}

fn wait(what: &str, mut ok: impl FnMut() -> bool) {
    let start = Instant::now();
    while !ok() {
        assert!(start.elapsed() < Duration::from_secs(10), "timed out waiting until {what}");
        std::thread::sleep(Duration::from_millis(20));
    }
}

#[test]
fn bad_messages_get_errors_and_the_connection_stays_up() {
    let (addr, _) = start(Vec::new(), 100);
    let (mut tab, hello, state) = Tab::open(addr);
    let names: Vec<&str> = hello["variants"].as_array().unwrap().iter().map(|v| v["name"].as_str().unwrap()).collect();
    assert_eq!(names, ["fide", "malka", "air-attack"]);
    assert_eq!(state["variant"], "fide");
    assert_eq!(state["legal"].as_array().unwrap().len(), 20);
    tab.send_text("not json at all");
    assert!(tab.error().starts_with("bad message:"));
    tab.send(&json!({"t": "fly"}));
    assert!(tab.error().contains("unknown variant `fly`"));
    tab.send(&json!({"t": "move", "node": 0, "mv": "e2e5"}));
    assert_eq!(tab.error(), "bad move 'e2e5': no legal move goes between these cells");
    tab.send(&json!({"t": "move", "node": 7, "mv": "e2e4"}));
    assert!(tab.error().contains("node 7 is not the current node 0"));
    tab.send(&json!({"t": "new", "variant": "fide", "lfen": "8/8/8 w - -"}));
    assert!(tab.error().starts_with("invalid LFEN, placement of level 1"));
    tab.send(&json!({"t": "new", "variant": "chess960"}));
    assert!(tab.error().contains("rule set 'chess960' is not offered here"));
    tab.send(&json!({"t": "analyse", "on": true, "multipv": 9}));
    assert_eq!(tab.error(), "multipv must be 1 to 5, not 9");
    tab.send(&json!({"t": "engine", "side": "b", "limit": {"kind": "nodes", "value": 0}}));
    assert!(tab.error().contains("nodes must be 1 to"));
    tab.send(&json!({"t": "open", "game": "../../etc/passwd"}));
    assert_eq!(tab.error(), "no game '../../etc/passwd' in the run directories");
    tab.ws.send(Message::binary(vec![1, 2, 3])).unwrap();
    assert!(tab.error().starts_with("binary frames"));
    // Still up: a move by SAN, then one by coordinates.
    tab.send(&json!({"t": "move", "node": 0, "mv": "e4"}));
    let s = tab.until("state", |s| s["node"] == 1);
    assert_eq!(s["lfen"], after(Variant::Fide, &["e2e4"]));
    tab.send(&json!({"t": "move", "node": 1, "mv": "e7e5"}));
    let s = tab.until("state", |s| s["node"] == 2);
    assert_eq!(s["lfen"], after(Variant::Fide, &["e2e4", "e7e5"]));
    // The PGN of the line.
    tab.send(&json!({"t": "pgn"}));
    let pgn = tab.until("pgn", |_| true)["text"].as_str().unwrap().to_owned();
    assert!(pgn.contains("[Result \"*\"]") && pgn.contains("\n1. e4 e5 *\n"), "{pgn}");
    assert!(!pgn.contains("[Variant") && !pgn.contains("GameId"), "{pgn}");
}

#[test]
fn tabs_analyse_independently_and_a_new_request_replaces_the_search() {
    let (addr, stats) = start(Vec::new(), 100);
    let (mut a, _, _) = Tab::open(addr);
    let (mut b, _, _) = Tab::open(addr);
    b.send(&json!({"t": "new", "variant": "malka"}));
    let malka = b.until("state", |s| s["variant"] == "malka");
    a.send(&json!({"t": "analyse", "on": true, "multipv": 3}));
    b.send(&json!({"t": "analyse", "on": true, "multipv": 2}));
    let la =
        a.until("lines", |l| l["lines"].as_array().unwrap().len() == 3 && l["lines"][0]["depth"].as_u64() >= Some(3));
    let lb =
        b.until("lines", |l| l["lines"].as_array().unwrap().len() == 2 && l["lines"][0]["depth"].as_u64() >= Some(2));
    assert_eq!((la["node"].as_u64(), lb["node"].as_u64()), (Some(0), Some(0)));
    // Each line starts with a legal move of its own tab's position.
    let first = |l: &Value, k: usize| l["lines"][k]["uci"][0].as_str().unwrap().to_owned();
    assert_eq!(first(&la, 0).len(), 4, "a fide move: {}", first(&la, 0));
    assert_eq!(first(&lb, 0).len(), 6, "a malka move: {}", first(&lb, 0));
    assert_ne!(first(&la, 0), first(&la, 1), "MultiPV lines start with different moves");
    wait("both tabs search", || stats.searching() == 2);
    // A move in tab a replaces its search: lines of the new node only, b unaffected.
    a.send(&json!({"t": "move", "node": 0, "mv": "d2d4"}));
    a.until("state", |s| s["node"] == 1);
    let next = a.until("lines", |l| l["node"] == 1);
    assert!(next["lines"][0]["uci"][0].as_str().unwrap().starts_with(['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h']));
    assert_eq!(stats.searching(), 2, "one search a tab");
    b.until("lines", |l| l["node"] == 0);
    assert_eq!(malka["lfen"], after(Variant::Malka, &[]));
    // Stop.
    a.send(&json!({"t": "analyse", "on": false, "multipv": 3}));
    a.until("state", |s| s["analysing"] == false);
    wait("tab a's search stops", || stats.searching() == 1);
}

#[test]
fn a_disconnect_stops_its_search() {
    let (addr, stats) = start(Vec::new(), 100);
    let (mut tab, _, _) = Tab::open(addr);
    tab.send(&json!({"t": "analyse", "on": true, "multipv": 1}));
    tab.until("lines", |_| true);
    assert_eq!((stats.sessions(), stats.searching()), (1, 1));
    drop(tab);
    wait("the search stops after the disconnect", || stats.searching() == 0 && stats.sessions() == 0);
}

#[test]
fn the_engine_replies_to_a_move() {
    let (addr, _) = start(Vec::new(), 100);
    let (mut tab, _, _) = Tab::open(addr);
    tab.send(&json!({"t": "engine", "side": "b", "limit": {"kind": "nodes", "value": 300}}));
    tab.until("state", |s| s["engine"]["side"] == "b");
    tab.send(&json!({"t": "move", "node": 0, "mv": "e2e4"}));
    let s = tab.until("state", |s| s["path"].as_array().unwrap().len() == 3);
    let reply = s["tree"][2]["s"].as_str().unwrap().to_owned();
    assert_eq!(s["turn"], "w", "after the engine's reply {reply} White is to move");
    assert_eq!(s["engine"]["thinking"], false);
    // Black's clock: the engine on a clock.
    tab.send(&json!({"t": "engine", "side": "w", "limit": {"kind": "clock", "value": 5000, "inc": 100}}));
    let s = tab.until("state", |s| s["path"].as_array().unwrap().len() == 4);
    let left = s["engine"]["clock_ms"].as_u64().unwrap();
    assert!(left > 0 && left <= 5100, "the clock after one move: {left} ms");
}

#[test]
fn the_editor_refuses_an_illegal_position_with_the_reason() {
    let (addr, _) = start(Vec::new(), 100);
    let (mut tab, _, state) = Tab::open(addr);
    let mut placement: Vec<char> = state["board"].as_str().unwrap().chars().collect();
    // Another white king on e4.
    placement[28] = 'K';
    let text: String = placement.iter().collect();
    tab.send(&json!({"t": "setup", "placement": text, "turn": "w", "castling": "KQkq"}));
    assert_eq!(tab.error(), "invalid LFEN, placement: white has 2 kings; exactly one is needed");
    // Without the white queen's rook, the right Q is refused.
    placement[28] = '.';
    placement[0] = '.';
    let text: String = placement.iter().collect();
    tab.send(&json!({"t": "setup", "placement": text, "turn": "b", "castling": "KQkq"}));
    assert!(tab.error().starts_with("invalid LFEN, castling rights (field 3)"));
    tab.send(&json!({"t": "setup", "placement": text, "turn": "b", "castling": "Kkq"}));
    let s = tab.until("state", |_| true);
    assert_eq!(s["lfen"], "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/1NBQKBNR b Kkq - 0 1");
    tab.send(&json!({"t": "setup", "placement": "K", "turn": "w", "castling": "-"}));
    assert_eq!(tab.error(), "the placement has 1 cells, not 64 (1 levels)");
}

#[test]
fn the_move_tree_is_capped_and_its_variations_kept() {
    let (addr, _) = start(Vec::new(), 4);
    let (mut tab, _, _) = Tab::open(addr);
    tab.send(&json!({"t": "line", "node": 0, "moves": ["e2e4", "e7e5"]}));
    tab.until("state", |s| s["node"] == 2);
    tab.send(&json!({"t": "back"}));
    tab.until("state", |s| s["node"] == 1);
    tab.send(&json!({"t": "move", "node": 1, "mv": "c7c5"}));
    let s = tab.until("state", |s| s["node"] == 3);
    assert_eq!(s["tree"][1]["c"], json!([2, 3]), "e5 is the main line, c5 a variation");
    tab.send(&json!({"t": "move", "node": 3, "mv": "g1f3"}));
    assert!(tab.error().starts_with("the move tree is full (4 positions)"));
    // Redo goes back along the line last visited; delete frees room.
    tab.send(&json!({"t": "promote", "node": 3}));
    let s = tab.until("state", |s| s["tree"][1]["c"] == json!([3, 2]));
    assert_eq!(s["node"], 3);
    tab.send(&json!({"t": "delete", "node": 2}));
    let s = tab.until("state", |s| s["tree"].as_array().unwrap().len() == 3);
    assert_eq!(s["node"], 2, "c5 renumbered");
    tab.send(&json!({"t": "move", "node": 2, "mv": "g1f3"}));
    tab.until("state", |s| s["node"] == 3);
}

const HEADER: &str = "game_id,run_key,variant,seed,index,pair,white,black,start_lfen,moves,result,termination,plies,material_white,material_black,level_changes_white,level_changes_black,captures_white,captures_black,checks_white,checks_black,nodes,duration_ms,settings,version";

#[test]
fn a_recorded_game_opens_at_a_ply() {
    let dir = std::env::temp_dir().join(format!("stackchess-serve-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let start_lfen = after(Variant::Malka, &[]);
    let moves = ["1e21e3", "3e73e6", "1d21d3", "3d73d6"];
    let rows = format!(
        "{HEADER}\nabc-000000,abc,malka,1,0,0,A,B,{start_lfen},{},1/2-1/2,max-plies,4,0,0,0,0,0,0,0,0,0,0,x,0.1.0\n",
        moves.join(" ")
    );
    std::fs::write(dir.join("games.csv"), rows).unwrap();
    let (addr, _) = start(vec![dir.clone()], 100);
    let (mut tab, hello, _) = Tab::open(addr);
    assert_eq!(hello["games"][0]["id"], "abc-000000");
    assert_eq!(hello["games"][0]["n"], 4);
    tab.send(&json!({"t": "open", "game": "abc-000000", "ply": 3}));
    let s = tab.until("state", |s| s["game"] == "abc-000000");
    assert_eq!((s["variant"].as_str(), s["node"].as_u64()), (Some("malka"), Some(3)));
    assert_eq!(s["lfen"], after(Variant::Malka, &moves[..3]));
    assert_eq!(s["line_end"], 4);
    tab.send(&json!({"t": "open", "game": "abc-000000", "ply": 9}));
    assert_eq!(tab.error(), "game abc-000000: ply 9 is beyond the game's 4 plies");
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn only_this_servers_page_may_connect() {
    let (addr, _) = start(Vec::new(), 100);
    let mut request = tungstenite::client::IntoClientRequest::into_client_request(format!("ws://{addr}/ws")).unwrap();
    request.headers_mut().insert("Origin", "http://evil.example".parse().unwrap());
    let refused = tungstenite::connect(request);
    assert!(matches!(refused, Err(tungstenite::Error::Http(ref r)) if r.status() == 403), "{refused:?}");
    let mut request = tungstenite::client::IntoClientRequest::into_client_request(format!("ws://{addr}/ws")).unwrap();
    request.headers_mut().insert("Origin", format!("http://{addr}").parse().unwrap());
    assert!(tungstenite::connect(request).is_ok());
}
