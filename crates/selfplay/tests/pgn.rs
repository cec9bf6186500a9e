//! Every `fide` game we write is PGN that an independent reader accepts: pgn-reader parses
//! `games.pgn`, shakmaty replays each game from its tags (the standard start, or `[SetUp]` and
//! `[FEN]`), and the end position agrees with the recorded result and termination.

use pgn_reader::{BufferedReader, RawComment, RawHeader, SanPlus, Skip, Visitor};
use shakmaty::fen::{Epd, Fen};
use shakmaty::{CastlingMode, Chess, Color, EnPassantMode, Position};
use stackchess_search::{Limits, SearchConfig};
use stackchess_selfplay::{
    read_records, run, Adjudication, EngineSpec, GameRecord, NoProgress, Openings, ResignRule, RunConfig, Shard,
};
use stackchess_traditional::Fide;
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicBool;

fn tmp(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("stackchess-pgn-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    d
}

/// One game as shakmaty sees it.
#[derive(Default)]
struct Read {
    tags: Vec<(String, String)>,
    pos: Chess,
    /// How often each position (EPD: placement, turn, castling, legal en passant) occurred.
    seen: HashMap<String, u32>,
    moves: usize,
    comments: Vec<String>,
    error: Option<String>,
}

struct Reader(Read);

impl Visitor for Reader {
    type Result = Read;
    fn begin_game(&mut self) {
        self.0 = Read::default();
    }
    fn header(&mut self, key: &[u8], value: RawHeader<'_>) {
        let (k, v) = (String::from_utf8_lossy(key).into_owned(), value.decode_utf8_lossy().into_owned());
        if k == "FEN" {
            let pos =
                Fen::from_ascii(v.as_bytes()).ok().and_then(|f| f.into_position::<Chess>(CastlingMode::Standard).ok());
            match pos {
                Some(pos) => self.0.pos = pos,
                None => self.0.error = Some(format!("bad FEN tag {v}")),
            }
        }
        self.0.tags.push((k, v));
    }
    fn end_headers(&mut self) -> Skip {
        let key = Epd::from_position(self.0.pos.clone(), EnPassantMode::Legal).to_string();
        self.0.seen.insert(key, 1);
        Skip(false)
    }
    fn san(&mut self, san: SanPlus) {
        if self.0.error.is_some() {
            return;
        }
        match san.san.to_move(&self.0.pos) {
            Ok(m) => {
                self.0.pos.play_unchecked(&m);
                self.0.moves += 1;
                let key = Epd::from_position(self.0.pos.clone(), EnPassantMode::Legal).to_string();
                *self.0.seen.entry(key).or_default() += 1;
            }
            Err(e) => self.0.error = Some(format!("move {}: {san}: {e}", self.0.moves + 1)),
        }
    }
    fn comment(&mut self, c: RawComment<'_>) {
        self.0.comments.push(String::from_utf8_lossy(c.as_bytes()).trim().to_owned());
    }
    fn begin_variation(&mut self) -> Skip {
        Skip(true)
    }
    fn end_game(&mut self) -> Read {
        std::mem::take(&mut self.0)
    }
}

fn config(openings: Openings, games: u64) -> RunConfig {
    RunConfig {
        seed: 3,
        games,
        threads: 2,
        openings,
        opening_filter: None,
        paired: false,
        adjudication: Adjudication {
            max_plies: Some(160),
            resign: Some(ResignRule { moves: 3, score: 900 }),
            ..Adjudication::default()
        },
        engines: vec![EngineSpec {
            label: "default".into(),
            config: SearchConfig {
                hash_mb: 1,
                ..SearchConfig::preset(stackchess_traditional::FIDE_EVAL_PARAMS).unwrap()
            },
            limits: Limits::nodes(120),
            tc: None,
            external: None,
        }],
        event: "pgn test".into(),
        shard: Shard::WHOLE,
        timing: stackchess_selfplay::Timing::default(),
    }
}

/// Reads every game of `dir/games.pgn` with pgn-reader and checks it against its record.
fn check_run(dir: &Path) -> (usize, usize) {
    let records: HashMap<String, GameRecord> =
        read_records(&dir.join("games.csv")).unwrap().into_iter().map(|r| (r.game_id.clone(), r)).collect();
    let bytes = std::fs::read(dir.join("games.pgn")).unwrap();
    let mut reader = BufferedReader::new_cursor(&bytes[..]);
    let mut visitor = Reader(Read::default());
    let (mut games, mut with_fen) = (0, 0);
    while let Some(g) = reader.read_game(&mut visitor).unwrap() {
        games += 1;
        assert!(g.error.is_none(), "{:?} in {:?}", g.error, g.tags);
        let tag = |k: &str| g.tags.iter().find(|(key, _)| key == k).map(|(_, v)| v.as_str());
        // The Seven Tag Roster, first and in order; no Variant tag.
        let names: Vec<&str> = g.tags.iter().map(|(k, _)| k.as_str()).take(7).collect();
        assert_eq!(names, ["Event", "Site", "Date", "Round", "White", "Black", "Result"]);
        let date = tag("Date").unwrap();
        assert!(date.len() == 10 && date.as_bytes()[4] == b'.' && date.as_bytes()[7] == b'.', "{date}");
        assert!(tag("Variant").is_none() && tag("LFEN").is_none());
        let rec = &records[tag("GameId").unwrap()];
        assert_eq!(tag("Result"), Some(rec.result.as_str()));
        with_fen += usize::from(tag("FEN").is_some());
        assert_eq!(tag("FEN").is_some(), tag("SetUp") == Some("1"));
        // The movetext holds the opening plies and the game's moves; every searched move has
        // its `{+0.35/8 0.12s}` comment.
        let opening = rec.opening_moves.split_whitespace().count();
        assert_eq!(g.moves, opening + rec.plies as usize, "{}", rec.game_id);
        assert_eq!(g.comments.len(), rec.plies as usize);
        for c in &g.comments {
            // `+0.35/8 0.12s [%emt 0:00:00.120]`: cutechess-cli's comment, then the move's time.
            let (text, emt) = c.split_once(" [%emt ").unwrap();
            let (eval, time) = text.split_once(' ').unwrap();
            assert!(eval.contains('/') && (eval.starts_with('+') || eval.starts_with('-')), "{c}");
            assert!(time.ends_with('s') && time[..time.len() - 1].parse::<f64>().is_ok(), "{c}");
            assert!(emt.starts_with("0:00:") && emt.ends_with(']') && emt.len() == "0:00:00.120]".len(), "{c}");
        }
        // shakmaty's end position is the record's, and it agrees with the result.
        let fen = Fen::from_position(g.pos.clone(), EnPassantMode::Legal).to_string();
        let end = rec_end(rec);
        let ours: Vec<&str> = end.split(' ').take(3).collect();
        let theirs: Vec<&str> = fen.split(' ').take(3).collect();
        assert_eq!(theirs, ours, "{}", rec.game_id);
        let loser_to_move = match rec.result.as_str() {
            "1-0" => Some(Color::Black),
            "0-1" => Some(Color::White),
            _ => None,
        };
        let key = Epd::from_position(g.pos.clone(), EnPassantMode::Legal).to_string();
        match rec.termination.as_str() {
            "checkmate" => assert!(g.pos.is_checkmate() && Some(g.pos.turn()) == loser_to_move, "{}", rec.game_id),
            "stalemate" => assert!(g.pos.is_stalemate() && loser_to_move.is_none()),
            "fifty-moves" => assert!(g.pos.halfmoves() >= 100 && loser_to_move.is_none()),
            "repetition" => assert!(g.seen[&key] >= 3 && loser_to_move.is_none(), "{}", rec.game_id),
            "dead-material" => assert!(g.pos.is_insufficient_material() && loser_to_move.is_none()),
            "max-plies" | "draw-adjudication" => assert!(loser_to_move.is_none() && !g.pos.is_game_over()),
            "resign" => assert!(loser_to_move.is_some() && !g.pos.is_game_over()),
            other => panic!("unknown termination {other}"),
        }
    }
    assert_eq!(games, records.len());
    (games, with_fen)
}

/// The record's end position, by our own replay of its moves.
fn rec_end(rec: &GameRecord) -> String {
    use stackchess_core::{parse_coord, Position as _, Rules as _};
    let rules = stackchess_traditional::fide_rules();
    let mut pos: Fide = rules.from_lfen(&rec.start_lfen).unwrap();
    for text in rec.moves.split_whitespace() {
        let m = parse_coord(&pos, text).unwrap();
        pos.play_unchecked(m);
    }
    pos.to_lfen()
}

fn play(dir: &Path, cfg: &RunConfig) {
    run::<Fide>(stackchess_traditional::fide_rules(), dir, cfg, false, &AtomicBool::new(false), &mut NoProgress)
        .unwrap();
}

#[test]
fn every_fide_game_reads_and_replays_in_an_independent_pgn_reader() {
    // Random openings: the movetext starts at the standard start, opening plies included.
    let random = tmp("random");
    play(&random, &config(Openings::Random { plies: 6 }, 24));
    let (games, with_fen) = check_run(&random);
    assert_eq!((games, with_fen), (24, 0));

    // Openings from a file: the plies are unknown, so the games carry SetUp and FEN.
    let root = tmp("file");
    std::fs::create_dir_all(&root).unwrap();
    let file = root.join("openings.fen");
    std::fs::write(
        &file,
        "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3\n\
         8/8/4k3/8/8/3K4/4P3/8 w - - 0 40\n\
         rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq e6 0 2\n",
    )
    .unwrap();
    let openings = Openings::parse::<Fide>(stackchess_traditional::fide_rules(), file.to_str().unwrap()).unwrap();
    let dir = root.join("run");
    play(&dir, &config(openings, 6));
    let (games, with_fen) = check_run(&dir);
    assert_eq!((games, with_fen), (6, 6));

    // From the start position: no SetUp, no opening plies.
    let start = tmp("start");
    play(&start, &config(Openings::Start, 2));
    assert_eq!(check_run(&start), (2, 0));
    for d in [random, root, start] {
        std::fs::remove_dir_all(d).unwrap();
    }
}
