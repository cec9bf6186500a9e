//! One tab: its board (replaced on a new game, a set-up position or a game opened from a run),
//! the messages it reads, and the replies it sends.

use crate::board::{AnyBoard, Board, Context, Settings};
use crate::protocol::{self, ClientMsg, HelloMsg, VariantView};
use crate::{App, Event};
use stackchess_core::{write_lfen, Castling, Cell, Color, LfenState, Piece, Position, Rules};
use stackchess_records::GameRecord;
use stackchess_variants::{Variant, WithPosition};
use std::sync::Arc;
use tokio::sync::mpsc::UnboundedSender;

/// Where a new board starts.
enum Start<'a> {
    /// From an LFEN, or the start position.
    Lfen(Option<&'a str>),
    /// The editor's position.
    Setup { placement: &'a str, turn: &'a str, castling: &'a str },
    /// A recorded game at a ply.
    Game(&'a GameRecord, usize),
}

struct Make<'a> {
    start: Start<'a>,
    settings: &'a Settings,
    ctx: Context,
}

impl WithPosition for Make<'_> {
    type Output = Result<Box<dyn AnyBoard>, String>;
    fn call<P: Position>(self, rules: P::Rules) -> Self::Output {
        let lfen = |text: &str| rules.from_lfen(text.trim()).map_err(|e| e.to_string());
        let board = match self.start {
            Start::Lfen(None) => Board::<P>::new(rules, rules.startpos(), &[], 0, self.settings, self.ctx)?,
            Start::Lfen(Some(text)) => Board::new(rules, lfen(text)?, &[], 0, self.settings, self.ctx)?,
            Start::Setup { placement, turn, castling } => {
                let text = setup_lfen(P::LEVELS, placement, turn, castling)?;
                Board::new(rules, lfen(&text)?, &[], 0, self.settings, self.ctx)?
            }
            Start::Game(rec, ply) => {
                let opening: Vec<&str> = rec.opening_moves.split_whitespace().collect();
                let start = if opening.is_empty() {
                    lfen(&rec.start_lfen).map_err(|e| format!("game {}: {e}", rec.game_id))?
                } else {
                    rules.startpos()
                };
                let moves: Vec<&str> = opening.into_iter().chain(rec.moves.split_whitespace()).collect();
                let mut b = Board::new(rules, start, &moves, ply, self.settings, self.ctx)
                    .map_err(|e| format!("game {}: {e}", rec.game_id))?;
                b.set_game(&rec.game_id, &rec.white, &rec.black);
                b
            }
        };
        Ok(Box::new(board))
    }
}

/// The LFEN of the editor's position: `placement` one character a cell in cell order (`.`
/// empty), `turn` `w` or `b`, `castling` a subset of `KQkq` or `-`.
///
/// # Errors
/// A placement of the wrong length or with a character that is no piece, a bad side or right.
pub fn setup_lfen(levels: usize, placement: &str, turn: &str, castling: &str) -> Result<String, String> {
    let cells: Vec<char> = placement.chars().collect();
    if cells.len() != levels * 64 {
        return Err(format!("the placement has {} cells, not {} ({levels} levels)", cells.len(), levels * 64));
    }
    let mut pieces = Vec::with_capacity(cells.len());
    for (i, &c) in cells.iter().enumerate() {
        pieces.push(match c {
            '.' => None,
            c => Some(Piece::from_char(c).ok_or_else(|| format!("cell {i}: '{c}' is not a piece letter"))?),
        });
    }
    let turn = match turn {
        "w" => Color::White,
        "b" => Color::Black,
        t => return Err(format!("the side to move is 'w' or 'b', not '{t}'")),
    };
    let mut rights = 0u8;
    if castling != "-" {
        for ch in castling.chars() {
            let bit = match ch {
                'K' => Castling::bit(Color::White, false),
                'Q' => Castling::bit(Color::White, true),
                'k' => Castling::bit(Color::Black, false),
                'q' => Castling::bit(Color::Black, true),
                c => return Err(format!("castling rights are K, Q, k, q or '-', not '{c}'")),
            };
            rights |= bit;
        }
    }
    let state = LfenState { turn, castling: Castling(rights), ep: None, halfmove: 0, fullmove: 1 };
    Ok(write_lfen(levels, |c: Cell| pieces[c.index()], state))
}

/// A tab.
pub struct Session {
    app: Arc<App>,
    out: UnboundedSender<Event>,
    board: Box<dyn AnyBoard>,
    variant: Variant,
}

impl Session {
    /// A tab: says hello and shows the first rule set's start position.
    ///
    /// # Errors
    /// A server without rule sets.
    pub fn new(app: Arc<App>, out: UnboundedSender<Event>) -> Result<Session, String> {
        let variant = app.variants.first().map(|v| v.0).ok_or("the server offers no rule set")?;
        let hello = HelloMsg {
            t: "hello",
            variants: app
                .variants
                .iter()
                .map(|(v, _)| VariantView { name: v.name().to_owned(), levels: v.levels() })
                .collect(),
            games: app.runs.rows(),
            notes: app.runs.notes.clone(),
            max_multipv: crate::board::MAX_MULTIPV,
        };
        let _ = out.send(Event::Text(protocol::text(&hello)));
        let board = make(&app, &out, variant, Start::Lfen(None), &Settings::default())?;
        let mut s = Session { app, out, board, variant };
        s.board.refresh();
        Ok(s)
    }

    /// Handles one text frame; a bad one is answered with an error.
    pub fn text(&mut self, text: &str) {
        let result = match serde_json::from_str::<ClientMsg>(text) {
            Ok(msg) => self.handle(&msg),
            Err(e) => Err(format!("bad message: {e}")),
        };
        if let Err(e) = result {
            self.error(e);
        }
    }

    /// Sends an error.
    pub fn error(&self, message: impl Into<String>) {
        let _ = self.out.send(Event::Text(protocol::error(message)));
    }

    /// A search ended by itself.
    pub fn done(&mut self, job: u64, node: usize, best: Option<stackchess_core::Move>, elapsed: std::time::Duration) {
        self.board.done(job, node, best, elapsed);
    }

    fn handle(&mut self, msg: &ClientMsg) -> Result<(), String> {
        match msg {
            ClientMsg::New { variant, lfen } => {
                let v = self.offered(variant)?;
                self.replace(v, Start::Lfen(lfen.as_deref()))
            }
            ClientMsg::Setup { placement, turn, castling } => {
                self.replace(self.variant, Start::Setup { placement, turn, castling })
            }
            ClientMsg::Open { game, ply } => {
                let app = Arc::clone(&self.app);
                let rec = app.runs.get(game).ok_or_else(|| format!("no game '{game}' in the run directories"))?;
                let v = self.offered(&rec.variant).map_err(|e| format!("game {game}: {e}"))?;
                self.replace(v, Start::Game(rec, *ply))
            }
            other => self.board.handle(other),
        }
    }

    fn offered(&self, name: &str) -> Result<Variant, String> {
        self.app.variants.iter().map(|v| v.0).find(|v| v.name() == name).ok_or_else(|| {
            let names: Vec<&str> = self.app.variants.iter().map(|v| v.0.name()).collect();
            format!(
                "rule set '{name}' is not offered here ({}; a rule file is given with --rules FILE)",
                names.join(", ")
            )
        })
    }

    /// A new board; the old one (and its search) stays when the new one cannot be made.
    fn replace(&mut self, v: Variant, start: Start<'_>) -> Result<(), String> {
        let board = make(&self.app, &self.out, v, start, &self.board.settings())?;
        self.board = board;
        self.variant = v;
        self.board.refresh();
        Ok(())
    }
}

fn make(
    app: &App,
    out: &UnboundedSender<Event>,
    v: Variant,
    start: Start<'_>,
    settings: &Settings,
) -> Result<Box<dyn AnyBoard>, String> {
    let config = app.variants.iter().find(|(w, _)| *w == v).map(|(_, c)| c.clone()).ok_or("rule set not offered")?;
    let ctx =
        Context { out: out.clone(), config, threads: app.threads, cap: app.cap, searching: Arc::clone(&app.searching) };
    v.with(Make { start, settings, ctx })
}
