//! One engine of the variant in play, behind a trait object: its position, its searches and
//! their `info` and `bestmove` lines.

use crate::reader::Flags;
use anyhow::{anyhow, Result};
use stackchess_core::{coord, parse_move, Color, Game, Move, Position, Rules};
use stackchess_search::{Engine, Limits, Report, Request, SearchConfig};
use stackchess_variants::WithPosition;
use std::io::Write;
use std::sync::atomic::Ordering;
use std::sync::Arc;
use std::time::Duration;

/// Writes lines to stdout as one block, flushed (the search thread and the main thread share it).
pub(crate) fn emit(text: &str) -> std::io::Result<()> {
    let mut out = std::io::stdout().lock();
    out.write_all(text.as_bytes())?;
    out.flush()
}

/// A `go` for the current position.
pub(crate) struct Go {
    pub limits: Limits,
    pub searchmoves: Vec<Move>,
    pub multipv: usize,
    /// `go infinite`: `bestmove` only after `stop`.
    pub infinite: bool,
    pub flags: Arc<Flags>,
}

/// What the protocol needs from an engine of any variant.
pub(crate) trait Session: Send {
    fn new_game(&mut self);
    /// `position`: the start (`None`: the start position) and the moves played from it.
    fn set_position(&mut self, lfen: Option<&str>, moves: &[String]) -> Result<()>;
    /// Moves of the current position (`searchmoves`); `0000` (python-chess's filler) is skipped.
    fn parse_moves(&self, words: &[String]) -> Result<Vec<Move>>;
    /// Searches, printing `info` lines and then `bestmove` (after `stop` for `go infinite`, and
    /// after `ponderhit` or `stop` while pondering).
    fn go(&mut self, go: &Go);
    fn show(&self) -> String;
    fn eval(&self) -> i32;
    fn turn(&self) -> Color;
    fn set_threads(&mut self, n: usize);
}

struct Sess<P: Position> {
    rules: P::Rules,
    engine: Engine<P>,
    game: Game<P>,
}

/// The `info` line of one PV line of an iteration.
fn info_line<P: Position>(k: usize, r: &Report) -> String {
    let pv: Vec<String> = r.pv.iter().map(|&m| coord::<P>(m)).collect();
    format!(
        "info depth {} seldepth {} multipv {k} score {} nodes {} nps {} time {} pv {}\n",
        r.depth,
        r.seldepth,
        r.score,
        r.nodes,
        r.nps(),
        r.elapsed.as_millis(),
        pv.join(" ")
    )
}

impl<P: Position> Session for Sess<P> {
    fn new_game(&mut self) {
        self.engine.new_game();
    }

    fn set_position(&mut self, lfen: Option<&str>, moves: &[String]) -> Result<()> {
        let start = match lfen {
            None => self.rules.startpos(),
            Some(text) => self.rules.from_lfen(text)?,
        };
        let mut game = Game::new(start);
        for (i, text) in moves.iter().enumerate() {
            let m =
                parse_move(game.position(), text).map_err(|e| anyhow!("move {} ('{text}'): {}", i + 1, e.reason))?;
            game.play(m)?;
        }
        self.game = game;
        Ok(())
    }

    fn parse_moves(&self, words: &[String]) -> Result<Vec<Move>> {
        let pos = self.game.position();
        words
            .iter()
            .filter(|w| *w != "0000")
            .map(|w| parse_move(pos, w).map_err(|e| anyhow!("searchmoves: '{w}': {}", e.reason)))
            .collect()
    }

    fn go(&mut self, go: &Go) {
        let pos = self.game.position().clone();
        let hashes = self.game.hashes();
        let history = &hashes[..hashes.len() - 1];
        let flags = &go.flags;
        let request = Request {
            limits: go.limits,
            searchmoves: &go.searchmoves,
            multipv: go.multipv,
            stop: &flags.stop,
            pondering: Some(&flags.pondering),
        };
        let r = self.engine.analyse(&pos, history, &request, &mut |lines| {
            let text: String = lines.iter().enumerate().map(|(k, r)| info_line::<P>(k + 1, r)).collect();
            let _ = emit(&text);
        });
        // UCI: no `bestmove` before `stop` in infinite mode, nor while pondering.
        while !flags.stop.load(Ordering::SeqCst) && (go.infinite || flags.pondering.load(Ordering::SeqCst)) {
            std::thread::sleep(Duration::from_millis(1));
        }
        let line = match r.pv.as_slice() {
            [] => "bestmove (none)\n".to_owned(),
            [m] => format!("bestmove {}\n", coord::<P>(*m)),
            [m, reply, ..] => format!("bestmove {} ponder {}\n", coord::<P>(*m), coord::<P>(*reply)),
        };
        let _ = emit(&line);
    }

    fn show(&self) -> String {
        stackchess_core::diagram(self.game.position())
    }

    fn eval(&self) -> i32 {
        self.engine.evaluate(self.game.position())
    }

    fn turn(&self) -> Color {
        self.game.position().turn()
    }

    fn set_threads(&mut self, n: usize) {
        self.engine.set_threads(n);
    }
}

pub(crate) struct Build(pub SearchConfig);

impl WithPosition for Build {
    type Output = Box<dyn Session>;
    fn call<P: Position>(self, rules: P::Rules) -> Box<dyn Session> {
        Box::new(Sess::<P> { rules, engine: Engine::new(rules, self.0), game: Game::new(rules.startpos()) })
    }
}
