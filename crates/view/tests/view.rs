//! The viewer's data: replays that the page can step through exactly, evaluations turned to
//! White's view, openings, errors that name the game and move, the page's self-containment,
//! and the choice of games for the report.

use stackchess_core::{coord, Cell, Position, Rules, SplitMix64};
use stackchess_malka::Malka;
use stackchess_records::{GameRecord, PlyRecord, RecordedGame, Score};
use stackchess_traditional::Fide;
use stackchess_view::{fragment, page, replay, telling_games, GameData, GameSummary, ViewError};

fn input(id: &str, start: &str, moves: &str) -> RecordedGame {
    let game = GameRecord {
        game_id: id.into(),
        variant: "test".into(),
        white: "A".into(),
        black: "B".into(),
        result: "1/2-1/2".into(),
        termination: "max-plies".into(),
        start_lfen: start.into(),
        moves: moves.into(),
        ..GameRecord::default()
    };
    RecordedGame { game, plies: Vec::new() }
}

/// A `plies.csv` row per score, from ply 1 (a `None`: a row without a score).
fn plies(scores: Vec<Option<Score>>) -> Vec<PlyRecord> {
    let row = |(i, s): (usize, Option<Score>)| PlyRecord {
        ply: i as u32 + 1,
        score_cp: if let Some(Score::Cp(cp)) = s { Some(cp) } else { None },
        mate: if let Some(Score::Mate(m)) = s { Some(m) } else { None },
        ..PlyRecord::default()
    };
    scores.into_iter().enumerate().map(row).collect()
}

/// What the page does: the start placement with the changes of the first `n` plies applied.
fn placement_after(g: &GameData, n: usize) -> Vec<char> {
    let mut a: Vec<char> = g.start.chars().collect();
    for p in &g.plies[..n] {
        let changes = p.split(' ').nth(1).unwrap();
        assert_eq!(changes.len() % 3, 0, "{p}");
        for group in changes.as_bytes().chunks(3) {
            let cell = usize::from_str_radix(std::str::from_utf8(&group[..2]).unwrap(), 16).unwrap();
            a[cell] = char::from(group[2]);
        }
    }
    a
}

fn placement<P: Position>(pos: &P) -> Vec<char> {
    (0..P::LEVELS * 64).map(|i| pos.piece_at(Cell::from_index(i)).map_or('.', stackchess_core::Piece::char)).collect()
}

#[test]
fn fide_plies_are_san_then_the_changed_cells_from_and_to_first() {
    let rules = stackchess_traditional::fide_rules();
    let start = rules.startpos().to_lfen();
    let g = replay::<Fide>(rules, &input("g1", &start, "e2e4 e7e5 g1f3 b8c6 f1c4 g8f6 e1g1 f6e4 c4f7")).unwrap();
    assert_eq!(g.levels, 1);
    assert_eq!((g.turn, g.fullmove, g.opening), ('w', 1, 0));
    assert_eq!(&g.start[..16], "RNBQKBNRPPPPPPPP");
    assert_eq!(g.plies[0], "e4 0c.1cP"); // e2 is cell 12, e4 cell 28
    assert_eq!(g.plies[6], "O-O 04.06K05R07."); // king e1-g1 first, then the other cells in order
    assert_eq!(g.plies[7], "Nxe4 2d.1cn");
    assert_eq!(g.plies[8], "Bxf7+ 1a.35B +"); // check is flagged after the changes
    assert_eq!(g.searched_plies(), 9);
    assert!(g.evals.is_none());
}

#[test]
fn en_passant_and_promotion_change_the_cells_they_change() {
    let rules = stackchess_traditional::fide_rules();
    // White pawn e5, Black plays d7d5, White takes en passant: d5 empties too.
    let ep = "4k3/3p4/8/4P3/8/8/8/4K3 b - - 0 1";
    let g = replay::<Fide>(rules, &input("ep", ep, "d7d5 e5d6")).unwrap();
    assert_eq!(g.plies[1], "exd6 24.2bP23."); // e5 (36) empty, d6 (43) pawn, d5 (35) empty
    assert_eq!((g.turn, g.fullmove), ('b', 1));
    let promo = "8/4P3/8/8/8/8/8/k1K5 w - - 0 1";
    let g = replay::<Fide>(rules, &input("pr", promo, "e7e8n")).unwrap();
    assert_eq!(g.plies[0], "e8=N 34.3cN");
}

/// The page's replay (start placement plus changes) agrees with the move generator's position
/// after every ply of long random games, in one- and three-level rule sets.
fn random_games_replay_exactly<P: Position>(rules: P::Rules, seed: u64) {
    for game in 0..20 {
        let mut rng = SplitMix64::for_item(seed, game);
        let mut pos = rules.startpos();
        let mut positions = vec![pos.clone()];
        let mut moves = Vec::new();
        for _ in 0..160 {
            let legal = pos.moves();
            if legal.is_empty() {
                break;
            }
            let m = legal[rng.below(legal.len())];
            moves.push(coord::<P>(m));
            pos.play_unchecked(m);
            positions.push(pos.clone());
        }
        let text = moves.join(" ");
        let start = rules.startpos().to_lfen();
        let g = replay::<P>(rules, &input("r", &start, &text)).unwrap();
        assert_eq!(g.plies.len(), moves.len());
        for (n, p) in positions.iter().enumerate() {
            assert_eq!(placement_after(&g, n), placement(p), "game {game} ply {n}");
            if n > 0 {
                assert_eq!(g.plies[n - 1].ends_with(" +"), p.is_check(), "check flag, game {game} ply {n}");
            }
        }
    }
}

#[test]
fn random_fide_games_replay_exactly() {
    random_games_replay_exactly::<Fide>(stackchess_traditional::fide_rules(), 1);
}

#[test]
fn random_malka_games_replay_exactly() {
    random_games_replay_exactly::<Malka>(stackchess_malka::rules(), 2);
}

#[test]
fn evaluations_are_turned_to_whites_view() {
    let rules = stackchess_traditional::fide_rules();
    let start = rules.startpos().to_lfen();
    let mut g = input("e", &start, "e2e4 e7e5 g1f3");
    g.plies = plies(vec![Some(Score::Cp(30)), Some(Score::Cp(20)), None]);
    let d = replay::<Fide>(rules, &g).unwrap();
    assert_eq!(d.evals.unwrap(), vec![serde_json::json!(30), serde_json::json!(-20), serde_json::Value::Null]);
    g.plies = plies(vec![Some(Score::Mate(3)), Some(Score::Mate(2)), Some(Score::Mate(-1))]);
    let d = replay::<Fide>(rules, &g).unwrap();
    assert_eq!(d.evals.unwrap(), vec![serde_json::json!("M3"), serde_json::json!("-M2"), serde_json::json!("-M1")]);
    g.plies = plies(vec![None, None]);
    assert!(replay::<Fide>(rules, &g).unwrap().evals.is_none(), "no evaluation at all: none shown");
    g.plies = plies(vec![None; 4]);
    let e = replay::<Fide>(rules, &g).unwrap_err();
    assert_eq!(e, ViewError::Evaluation { game: "e".into(), ply: 4, plies: 3 });
}

#[test]
fn an_opening_is_replayed_from_the_start_and_marked() {
    let rules = stackchess_malka::rules();
    let mut pos = rules.startpos();
    let opening = ["1e21e3", "3d73d6"];
    for m in opening {
        pos.play_unchecked(stackchess_core::parse_coord(&pos, m).unwrap());
    }
    let start = pos.to_lfen();
    let mut g = input("o", &start, "1g11f3");
    g.game.opening_moves = "1e21e3 3d73d6".into();
    let mut scores = vec![Some(Score::Cp(15))];
    g.plies = plies(std::mem::take(&mut scores));
    let d = replay::<Malka>(rules, &g).unwrap();
    assert_eq!((d.opening, d.plies.len(), d.searched_plies()), (2, 3, 1));
    assert_eq!(d.start_lfen, rules.startpos().to_lfen());
    // The searched ply's evaluation sits at its index after the opening.
    assert_eq!(d.evals.unwrap(), vec![serde_json::Value::Null, serde_json::Value::Null, serde_json::json!(15)]);
    // An opening that does not reach the recorded start is refused.
    g.game.opening_moves = "1e21e3 3e73e6".into();
    assert!(matches!(replay::<Malka>(rules, &g), Err(ViewError::Opening { .. })));
}

#[test]
fn errors_name_the_game_and_the_move() {
    let rules = stackchess_traditional::fide_rules();
    let start = rules.startpos().to_lfen();
    let e = replay::<Fide>(rules, &input("bad-7", &start, "e2e4 e7e5 e4e5")).unwrap_err();
    assert_eq!(e.to_string(), "game bad-7: game move 3 (e4e5): no legal move goes between these cells");
    let e = replay::<Fide>(rules, &input("bad-8", &start, "e2e4 zz")).unwrap_err();
    assert!(e.to_string().starts_with("game bad-8: game move 2 (zz): not a coordinate move"), "{e}");
    let e = replay::<Fide>(rules, &input("bad-9", "not a fen", "")).unwrap_err();
    assert!(e.to_string().starts_with("game bad-9: start position:"), "{e}");
    let mut g = input("bad-10", &start, "");
    g.game.opening_moves = "e2e5".into();
    assert!(replay::<Fide>(rules, &g).unwrap_err().to_string().starts_with("game bad-10: opening move 1 (e2e5)"));
}

#[test]
fn the_page_is_self_contained_and_its_data_cannot_close_the_script() {
    let rules = stackchess_traditional::fide_rules();
    let start = rules.startpos().to_lfen();
    let mut g = input("</script><script>alert(1)</script>", &start, "e2e4");
    g.game.white = "<b>&".into();
    let data = vec![replay::<Fide>(rules, &g).unwrap()];
    let html = page("games <&>", &["a note".into()], &data).unwrap();
    assert!(html.starts_with("<!DOCTYPE html>"));
    assert!(html.contains("<title>games &lt;&amp;&gt;</title>"));
    assert_eq!(html.matches("</script>").count(), 2, "only the data and the code elements close");
    assert!(!html.contains("{{"), "every marker is filled");
    for external in ["<link", " src=", "url(", "@import", "fetch(", "XMLHttpRequest"] {
        assert!(!html.contains(external), "the page loads nothing: found {external}");
    }
    // The data element holds the games as JSON that reads back.
    let start_at = html.find("<script type=\"application/json\" id=\"data\">").unwrap();
    let body = &html[start_at..];
    let json = &body[body.find('>').unwrap() + 1..body.find("</script>").unwrap()];
    let v: serde_json::Value = serde_json::from_str(json).unwrap();
    assert_eq!(v["games"][0]["id"], "</script><script>alert(1)</script>");
    assert_eq!(v["games"][0]["w"], "<b>&");
    assert_eq!(v["games"][0]["p"][0], "e4 0c.1cP");
    assert_eq!(v["notes"][0], "a note");
}

#[test]
fn a_thousand_long_games_make_a_page_of_a_few_megabytes() {
    let rules = stackchess_malka::rules();
    let start = rules.startpos().to_lfen();
    let mut rng = SplitMix64::for_item(9, 0);
    let mut pos = rules.startpos();
    let mut moves = Vec::new();
    while moves.len() < 150 {
        let legal = pos.moves();
        let m = legal[rng.below(legal.len())];
        moves.push(coord::<Malka>(m));
        pos.play_unchecked(m);
    }
    let text = moves.join(" ");
    let mut g = input("x", &start, &text);
    g.plies = plies((0..150).map(|i| Some(Score::Cp(i * 7 - 300))).collect());
    let one = replay::<Malka>(rules, &g).unwrap();
    let games: Vec<GameData> =
        (0..1000).map(|i| GameData { id: format!("0123456789abcdef-{i:06}"), ..one.clone() }).collect();
    let html = page("t", &[], &games).unwrap();
    // About 3 KB a game of 150 plies with evaluations: a page a browser opens at once.
    assert!(html.len() < 4_000_000, "{} bytes", html.len());
}

#[test]
fn telling_games_pick_per_variant_with_ties_to_the_smaller_id() {
    let g = |id, variant, result, plies| GameSummary { id, variant, result, termination: "x", plies };
    let games = [
        g("m-5", "malka", "1-0", 40),
        g("m-2", "malka", "1-0", 40),
        g("m-3", "malka", "0-1", 90),
        g("m-4", "malka", "1/2-1/2", 300),
        g("m-1", "malka", "1/2-1/2", 120),
        g("f-1", "fide", "1-0", 10),
        g("f-2", "fide", "1-0", 30),
    ];
    let picks: Vec<(String, &str, String)> =
        telling_games(&games).into_iter().map(|p| (p.variant, p.reason, p.id)).collect();
    let want = [
        ("fide", "shortest White win", "f-1"),
        // lengths 10, 30: the lower median is 10
        ("fide", "typical length", "f-1"),
        ("malka", "shortest White win", "m-2"),
        ("malka", "shortest Black win", "m-3"),
        ("malka", "longest draw", "m-4"),
        // lengths 40, 40, 90, 120, 300: median 90
        ("malka", "typical length", "m-3"),
    ];
    let want: Vec<(String, &str, String)> = want.iter().map(|(v, r, i)| ((*v).into(), *r, (*i).into())).collect();
    assert_eq!(picks, want);
    assert!(telling_games(&[]).is_empty());
}

#[test]
fn fragments_escape_the_id() {
    assert_eq!(fragment("363131fe2a12a105-000042", 17), "#game=363131fe2a12a105-000042&ply=17");
    assert_eq!(fragment("a b&c", 0), "#game=a%20b%26c&ply=0");
}
