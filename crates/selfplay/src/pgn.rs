//! `games.pgn`: the games as PGN, appended game by game.
//!
//! Standard chess (`fide`) games are plain PGN that standard tools read: the Seven Tag Roster
//! first, no `Variant` tag, and either the movetext from the standard start (opening plies
//! included) or `[SetUp "1"]` and `[FEN]` when the game starts elsewhere and its opening plies
//! are not known. Games of the other rule sets add `[Variant]` and `[LFEN]` (the position the
//! movetext starts from). Each searched move has a `{+0.35/8 0.12s}` comment (the mover's score
//! in pawns or `M<n>` moves to mate, the depth, the search's time), as cutechess-cli writes them.

use crate::{Error, GameRecord};
use std::fmt::Write as _;
use std::fs::{File, OpenOptions};
use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};

/// One move of the movetext: its SAN and the mover's evaluation comment (without braces).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PgnMove {
    /// The move in SAN.
    pub san: String,
    /// The comment, e.g. `+0.35/8 0.12s` or `-M2/12 0.05s`.
    pub comment: String,
}

/// The movetext of a game and where it starts.
#[derive(Clone, Debug)]
pub struct Movetext<'a> {
    /// The position the movetext starts from, as LFEN (FEN for `fide`).
    pub from_lfen: &'a str,
    /// Whether that is the rule set's start position.
    pub at_start: bool,
    /// Its move number.
    pub first_move: u32,
    /// Whether White moves first.
    pub white_to_move: bool,
    /// Opening plies in SAN, played before the searched moves (no comments).
    pub opening: &'a [String],
    /// The searched moves.
    pub moves: &'a [PgnMove],
    /// White's and Black's time controls (`40/60+0.6`), when they play on a clock: a
    /// `TimeControl` tag when they agree, `WhiteTimeControl` and `BlackTimeControl` otherwise.
    pub time_controls: [Option<String>; 2],
    /// A comment after the last move on how the game was lost without a move (a time forfeit,
    /// a crashed or stalled engine, an illegal move), if it was.
    pub ending: Option<&'a str>,
}

/// The text of one game: tags, a blank line, the movetext, a blank line. `date` is
/// `YYYY.MM.DD`.
#[must_use]
pub fn game_text(event: &str, date: &str, rec: &GameRecord, text: &Movetext<'_>) -> String {
    let mut s = String::new();
    let round = (rec.index + 1).to_string();
    let ply_count = (text.opening.len() + text.moves.len()).to_string();
    let mut tags: Vec<(&str, &str)> = vec![
        ("Event", event),
        ("Site", "?"),
        ("Date", date),
        ("Round", &round),
        ("White", &rec.white),
        ("Black", &rec.black),
        ("Result", &rec.result),
    ];
    if rec.variant == "fide" {
        if !text.at_start {
            tags.extend([("SetUp", "1"), ("FEN", text.from_lfen)]);
        }
    } else {
        tags.extend([("Variant", rec.variant.as_str()), ("LFEN", text.from_lfen)]);
    }
    tags.extend([("Termination", rec.termination.as_str()), ("PlyCount", &ply_count), ("GameId", &rec.game_id)]);
    match &text.time_controls {
        [Some(w), Some(b)] if w == b => tags.push(("TimeControl", w)),
        [w, b] => {
            tags.extend(w.as_deref().map(|w| ("WhiteTimeControl", w)));
            tags.extend(b.as_deref().map(|b| ("BlackTimeControl", b)));
        }
    }
    for (k, v) in tags {
        let _ = writeln!(s, "[{k} \"{}\"]", v.replace('\\', "\\\\").replace('"', "\\\""));
    }
    s.push('\n');
    let mut line = String::new();
    let mut push = |token: &str, s: &mut String| {
        if !line.is_empty() && line.len() + 1 + token.len() > 100 {
            s.push_str(&line);
            s.push('\n');
            line.clear();
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(token);
    };
    let (mut number, mut white) = (text.first_move, text.white_to_move);
    let all = text
        .opening
        .iter()
        .map(|san| (san.as_str(), None))
        .chain(text.moves.iter().map(|m| (m.san.as_str(), Some(&m.comment))));
    for (i, (san, comment)) in all.enumerate() {
        if white {
            push(&format!("{number}."), &mut s);
        } else if i == 0 {
            push(&format!("{number}..."), &mut s);
        }
        push(san, &mut s);
        if let Some(c) = comment {
            push(&format!("{{{c}}}"), &mut s);
        }
        if !white {
            number += 1;
        }
        white = !white;
    }
    if let Some(c) = text.ending {
        push(&format!("{{{}}}", c.replace(['{', '}'], "")), &mut s);
    }
    push(&rec.result, &mut s);
    s.push_str(&line);
    s.push_str("\n\n");
    s
}

/// `games.pgn`, appended one game at a time.
#[derive(Debug)]
pub struct PgnFile {
    path: PathBuf,
    file: File,
}

impl PgnFile {
    /// Opens (creating if needed) the file for appending.
    ///
    /// # Errors
    /// On an I/O error.
    pub fn append_to(path: &Path) -> Result<PgnFile, Error> {
        let file = OpenOptions::new().create(true).append(true).open(path).map_err(|e| Error::io(path, e))?;
        Ok(PgnFile { path: path.to_owned(), file })
    }
    /// Appends one game's text and flushes it.
    ///
    /// # Errors
    /// On an I/O error.
    pub fn append(&mut self, text: &str) -> Result<(), Error> {
        // Whole or not at all: a failed write leaves no part of the game behind.
        Ok(stackchess_records::append_whole(&mut self.file, &self.path, text.as_bytes())?)
    }
    /// Forces the games to disk.
    ///
    /// # Errors
    /// On an I/O error.
    pub fn sync(&self) -> Result<(), Error> {
        self.file.sync_data().map_err(|e| Error::io(&self.path, e))
    }
}

/// The complete games of a `games.pgn`, in file order, as (game id, text with its final blank
/// line). A partial last game (an interrupted write) and blocks without a `GameId` tag are skipped.
///
/// # Errors
/// On an I/O error.
pub fn read_games(path: &Path) -> Result<Vec<(String, String)>, Error> {
    let input = BufReader::new(File::open(path).map_err(|e| Error::io(path, e))?);
    let mut games = Vec::new();
    let mut block: Vec<String> = Vec::new();
    // A complete game ends with its result and a blank line; an interrupted write leaves less.
    let mut flush = |block: &mut Vec<String>| {
        let complete = block.len() >= 2 && block[block.len() - 1].is_empty() && {
            let last = &block[block.len() - 2];
            !last.starts_with('[') && ["1-0", "0-1", "1/2-1/2"].iter().any(|r| last.ends_with(r))
        };
        let id = block.iter().find_map(|l| l.strip_prefix("[GameId \"").and_then(|r| r.strip_suffix("\"]")));
        if let (true, Some(id)) = (complete, id) {
            let mut text = block.join("\n");
            text.push('\n');
            games.push((id.to_owned(), text));
        }
        block.clear();
    };
    for line in input.lines() {
        let line = line.map_err(|e| Error::io(path, e))?;
        if line.starts_with("[Event ") && !block.is_empty() {
            flush(&mut block);
        }
        block.push(line);
    }
    flush(&mut block);
    Ok(games)
}

/// Rewrites `path` keeping only complete games for which `keep(game_id)` holds, each once (an
/// interrupted run may leave a partial last game, or games whose record was never written).
/// Returns the number of games kept.
///
/// # Errors
/// On an I/O error.
pub fn repair(path: &Path, mut keep: impl FnMut(&str) -> bool) -> Result<u64, Error> {
    if !path.exists() {
        return Ok(0);
    }
    let games = read_games(path)?;
    let mut kept = std::collections::HashSet::new();
    stackchess_files::write_with(path, |out| {
        for (id, text) in games {
            if !kept.contains(&id) && keep(&id) {
                out.write_all(text.as_bytes())?;
                kept.insert(id);
            }
        }
        Ok(())
    })
    .map_err(|e| Error::io(path, e))?;
    Ok(kept.len() as u64)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rec(index: u64, result: &str) -> GameRecord {
        GameRecord {
            game_id: GameRecord::id("00000000000000ab", index),
            run_key: "00000000000000ab".into(),
            variant: "fide".into(),
            seed: 1,
            index,
            pair: index,
            white: "default".into(),
            black: "default".into(),
            start_lfen: "8/8/8/8/8/8/8/8 w - - 0 1".into(),
            result: result.into(),
            termination: "checkmate".into(),
            plies: 2,
            ..GameRecord::default()
        }
    }

    fn text<'a>(
        from: &'a str,
        at_start: bool,
        first: u32,
        white: bool,
        opening: &'a [String],
        moves: &'a [PgnMove],
    ) -> Movetext<'a> {
        Movetext {
            from_lfen: from,
            at_start,
            first_move: first,
            white_to_move: white,
            opening,
            moves,
            time_controls: [None, None],
            ending: None,
        }
    }

    #[test]
    fn movetext_numbers_moves_from_the_start_position() {
        let m = |s: &str| PgnMove { san: s.into(), comment: "+0.10/3 0.01s".into() };
        let moves = [m("Nf6"), m("Nc3"), m("Qh4#")];
        let t = game_text(
            "e",
            "2026.11.30",
            &rec(0, "0-1"),
            &text("8/8/8/8/8/8/8/8 w - - 0 1", false, 12, false, &[], &moves),
        );
        // The Seven Tag Roster first, in its order; then the FEN of a game that starts elsewhere.
        let tags: Vec<&str> =
            t.lines().take_while(|l| l.starts_with('[')).map(|l| &l[1..l.find(' ').unwrap()]).collect();
        assert_eq!(
            tags,
            [
                "Event",
                "Site",
                "Date",
                "Round",
                "White",
                "Black",
                "Result",
                "SetUp",
                "FEN",
                "Termination",
                "PlyCount",
                "GameId"
            ]
        );
        assert!(t.contains("[Date \"2026.11.30\"]\n") && t.contains("[FEN \"8/8/8/8/8/8/8/8 w - - 0 1\"]"), "{t}");
        assert!(!t.contains("Variant") && !t.contains("LFEN"), "{t}");
        assert!(
            t.contains("\n\n12... Nf6 {+0.10/3 0.01s} 13. Nc3 {+0.10/3 0.01s} Qh4# {+0.10/3 0.01s} 0-1\n\n"),
            "{t}"
        );
    }

    #[test]
    fn opening_plies_lead_the_movetext_and_other_variants_name_themselves() {
        let m = [PgnMove { san: "Nf3".into(), comment: "+0.20/4 0.00s".into() }];
        let opening = ["e4".to_owned(), "e5".to_owned()];
        let t = game_text("e", "2026.11.30", &rec(0, "1-0"), &text("start", true, 1, true, &opening, &m));
        assert!(!t.contains("SetUp") && !t.contains("FEN"), "{t}");
        assert!(t.contains("[PlyCount \"3\"]") && t.contains("\n\n1. e4 e5 2. Nf3 {+0.20/4 0.00s} 1-0\n\n"), "{t}");
        let malka = GameRecord { variant: "malka".into(), ..rec(1, "1-0") };
        let t = game_text("e", "2026.11.30", &malka, &text("L", true, 1, true, &[], &m));
        assert!(t.contains("[Variant \"malka\"]\n[LFEN \"L\"]\n") && !t.contains("SetUp"), "{t}");
    }

    #[test]
    fn repair_keeps_complete_wanted_games_once() {
        let dir = std::env::temp_dir().join(format!("sp-pgn-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let p = dir.join("games.pgn");
        let m = [PgnMove { san: "e4".into(), comment: "+0.20/1 0.00s".into() }];
        let g = |i| game_text("e", "2026.11.30", &rec(i, "1-0"), &text("x", true, 1, true, &[], &m));
        let partial = &g(3)[..g(3).len() - 12];
        std::fs::write(&p, format!("{}{}{}{}{}", g(0), g(1), g(0), g(2), partial)).unwrap();
        let kept = repair(&p, |id| !id.ends_with("000002")).unwrap();
        assert_eq!(kept, 2);
        assert_eq!(std::fs::read_to_string(&p).unwrap(), format!("{}{}", g(0), g(1)));
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
