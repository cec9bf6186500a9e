//! One tab's board under one rule set: the variation tree, the current node, the moves asked for,
//! the engine's analysis and its moves as an opponent, and the PGN of the current line.

use crate::protocol::{self, ClientMsg, EngineView, LegalView, LimitMsg, OutcomeView, PgnMsg, StateMsg};
use crate::search::{after_move, Purpose, Searcher};
use crate::tree::Tree;
use crate::Event;
use stackchess_core::{parse_move, Color, Game, Move, MoveKind, Position, Role, Rules};
use stackchess_records::GameRecord;
use stackchess_search::{Limits, SearchConfig};
use stackchess_selfplay::pgn::{game_text, Movetext};
use std::sync::atomic::AtomicUsize;
use std::sync::Arc;
use std::time::Duration;
use tokio::sync::mpsc::UnboundedSender;

/// The most analysis lines.
pub const MAX_MULTIPV: usize = 5;

/// What a tab keeps when its board is replaced (a new game, another rule set).
#[derive(Clone, Debug)]
pub struct Settings {
    /// Analysis on.
    pub analysing: bool,
    /// Its lines.
    pub multipv: usize,
    /// The engine opponent's side and strength.
    pub engine: Option<(Color, LimitMsg)>,
}

/// What a board needs from its tab.
pub struct Context {
    /// Where messages to the page go.
    pub out: UnboundedSender<Event>,
    /// The engine's settings for this rule set.
    pub config: SearchConfig,
    /// Search threads.
    pub threads: usize,
    /// The most nodes in the tree.
    pub cap: usize,
    /// The server's count of running searches.
    pub searching: Arc<AtomicUsize>,
}

/// A board of any rule set, as the tab drives it.
pub trait AnyBoard: Send {
    /// Handles a message about the board (not `new`, `setup` or `open`).
    ///
    /// # Errors
    /// A message that does not apply (a bad move, an unknown node, a value out of range).
    fn handle(&mut self, msg: &ClientMsg) -> Result<(), String>;
    /// A search ended by itself with this move (for the engine opponent).
    fn done(&mut self, job: u64, node: usize, best: Option<Move>, elapsed: Duration);
    /// Sends the state and starts what should search.
    fn refresh(&mut self);
    /// The settings to carry over.
    fn settings(&self) -> Settings;
}

impl Default for Settings {
    /// Analysis off, three lines when it is switched on, no engine opponent.
    fn default() -> Self {
        Settings { analysing: false, multipv: 3, engine: None }
    }
}

struct Opponent {
    side: Color,
    limit: LimitMsg,
    left: Duration,
}

/// The board of rule set `P`.
pub struct Board<P: Position> {
    rules: P::Rules,
    tree: Tree<P>,
    cur: usize,
    searcher: Searcher<P>,
    analysing: bool,
    multipv: usize,
    engine: Option<Opponent>,
    /// The game opened from a run (its id and players).
    game: Option<(String, String, String)>,
    out: UnboundedSender<Event>,
}

fn kind_name(k: MoveKind) -> &'static str {
    match k {
        MoveKind::Normal => "normal",
        MoveKind::DoubleStep => "double-step",
        MoveKind::EnPassant => "en-passant",
        MoveKind::Castle => "castle",
        MoveKind::Transfer => "transfer",
    }
}

/// Reads a move (coordinate notation or SAN) of `pos`, of `kind` when given.
///
/// # Errors
/// Text that is no legal move here, naming it.
pub fn read_move<P: Position>(pos: &P, text: &str, kind: Option<&str>) -> Result<Move, String> {
    let m = parse_move(pos, text.trim()).map_err(|e| e.to_string())?;
    let Some(kind) = kind else { return Ok(m) };
    pos.moves()
        .iter()
        .copied()
        .find(|o| {
            o.from() == m.from() && o.to() == m.to() && o.promotion() == m.promotion() && kind_name(o.kind()) == kind
        })
        .ok_or_else(|| format!("bad move '{text}': no legal {kind} move goes between these cells"))
}

impl<P: Position> Board<P> {
    /// A board from `start`, the settings carried over, with `moves` (coordinate notation) played
    /// as the main line and the current node `ply` moves in.
    ///
    /// # Errors
    /// A move that is not legal, or a ply beyond the moves.
    pub fn new(
        rules: P::Rules,
        start: P,
        moves: &[&str],
        ply: usize,
        settings: &Settings,
        ctx: Context,
    ) -> Result<Board<P>, String> {
        let mut tree = Tree::new(start, ctx.cap);
        let mut at = 0;
        for (i, text) in moves.iter().enumerate() {
            let pos = &tree.get(at).map(|n| n.pos.clone()).ok_or("no node")?;
            let m = read_move(pos, text, None).map_err(|e| format!("move {}: {e}", i + 1))?;
            at = tree.add(at, m)?;
        }
        if ply > moves.len() {
            return Err(format!("ply {ply} is beyond the game's {} plies", moves.len()));
        }
        let mut cur = 0;
        for _ in 0..ply {
            cur = tree.forward(cur).unwrap_or(cur);
        }
        tree.visit(cur);
        let engine = settings.engine.as_ref().map(|(side, limit)| Opponent {
            side: *side,
            limit: limit.clone(),
            left: Duration::from_millis(limit.value),
        });
        Ok(Board {
            searcher: Searcher::new(rules, ctx.config, ctx.threads, ctx.out.clone(), ctx.searching),
            rules,
            tree,
            cur,
            analysing: settings.analysing,
            multipv: settings.multipv.clamp(1, MAX_MULTIPV),
            engine,
            game: None,
            out: ctx.out,
        })
    }

    /// Names the game this board was opened from, and its players.
    pub fn set_game(&mut self, id: &str, white: &str, black: &str) {
        self.game = Some((id.to_owned(), white.to_owned(), black.to_owned()));
    }

    fn pos(&self, id: usize) -> &P {
        &self.tree.get(id).expect("node ids come from the tree").pos
    }

    fn node(&self, id: usize) -> Result<usize, String> {
        if id < self.tree.len() {
            Ok(id)
        } else {
            Err(format!("there is no node {id} (the tree has {})", self.tree.len()))
        }
    }

    fn at_current(&self, node: usize) -> Result<(), String> {
        if node == self.cur {
            Ok(())
        } else {
            Err(format!("the board moved on (node {node} is not the current node {})", self.cur))
        }
    }

    /// The game from the root to `id`: for repetition and the outcome.
    fn game_to(&self, id: usize) -> Game<P> {
        let path = self.tree.path(id);
        let mut g = Game::new(self.pos(0).clone());
        for &n in &path[1..] {
            if let Some(m) = self.tree.get(n).and_then(|n| n.mv) {
                // Every move in the tree was legal where it was played.
                let _ = g.play(m);
            }
        }
        g
    }

    fn goto(&mut self, id: usize) {
        self.cur = id;
        self.tree.visit(id);
        self.refresh();
    }

    fn say(&self, text: String) {
        let _ = self.out.send(Event::Text(text));
    }

    fn state(&self, outcome: Option<OutcomeView>) -> StateMsg {
        let pos = self.pos(self.cur);
        let root = self.pos(0);
        let board: String = (0..P::LEVELS * 64)
            .map(|i| pos.piece_at(stackchess_core::Cell::from_index(i)).map_or('.', stackchess_core::Piece::char))
            .collect();
        let mut check = None;
        if pos.is_check() {
            pos.for_each_piece(|c, p| {
                if p.role == Role::King && p.color == pos.turn() {
                    check = Some(c.index());
                }
            });
        }
        let legal = pos
            .moves()
            .iter()
            .map(|&m| {
                LegalView(
                    m.from().index(),
                    m.to().index(),
                    m.promotion().map(|r| r.lower().to_string()).unwrap_or_default(),
                    kind_name(m.kind()),
                    stackchess_core::san(pos, m),
                )
            })
            .collect();
        let node = self.tree.get(self.cur).expect("current node");
        StateMsg {
            t: "state",
            variant: self.rules.name().to_owned(),
            levels: P::LEVELS,
            node: self.cur,
            path: self.tree.path(self.cur),
            line_end: self.tree.line_end(self.cur),
            board,
            turn: pos.turn().char(),
            lfen: pos.to_lfen(),
            root_turn: root.turn().char(),
            root_fullmove: root.fullmove_number(),
            tree: self.tree.view(),
            cap: self.tree.cap(),
            last: node.mv.map(|m| [m.from().index(), m.to().index()]),
            check,
            legal,
            outcome,
            engine: self.engine.as_ref().map(|e| EngineView {
                side: e.side.char(),
                limit: e.limit.clone(),
                clock_ms: (e.limit.kind == "clock").then(|| u64::try_from(e.left.as_millis()).unwrap_or(u64::MAX)),
                thinking: matches!(self.searcher.current, Some((_, Purpose::Play))),
            }),
            analysing: self.analysing,
            multipv: self.multipv,
            game: self.game.as_ref().map(|g| g.0.clone()),
        }
    }

    /// Starts the search the position calls for: the engine's move when it is to play, else the
    /// analysis when it is on; stops any other.
    fn schedule(&mut self, over: bool) {
        let pos = self.pos(self.cur).clone();
        let history = {
            let g = self.game_to(self.cur);
            let h = g.hashes();
            h[..h.len() - 1].to_vec()
        };
        if let Some(e) = self.engine.as_ref().filter(|e| !over && e.side == pos.turn()) {
            let limits = e.limit.limits(e.left);
            self.searcher.start(self.cur, pos, history, limits, 1, Purpose::Play);
        } else if self.analysing && pos.count_legal_moves() > 0 {
            self.searcher.start(self.cur, pos, history, Limits::default(), self.multipv, Purpose::Analyse);
        } else {
            self.searcher.stop();
        }
    }

    /// The current line (from the root to the end of the line through the current node) as PGN.
    fn pgn(&self) -> String {
        let end = self.tree.line_end(self.cur);
        let path = self.tree.path(end);
        let sans: Vec<String> = path[1..].iter().filter_map(|&n| self.tree.get(n).map(|n| n.san.clone())).collect();
        let outcome = self.game_to(end).outcome();
        let root = self.pos(0);
        let root_lfen = root.to_lfen();
        let (white, black) = match (&self.game, &self.engine) {
            (Some((_, w, b)), _) => (w.clone(), b.clone()),
            (None, Some(e)) => {
                let engine = format!("stackchess ({})", e.limit.describe());
                if e.side == Color::White {
                    (engine, "?".to_owned())
                } else {
                    ("?".to_owned(), engine)
                }
            }
            (None, None) => ("?".to_owned(), "?".to_owned()),
        };
        let rec = GameRecord {
            game_id: self.game.as_ref().map(|g| g.0.clone()).unwrap_or_default(),
            variant: self.rules.name().to_owned(),
            white,
            black,
            result: outcome.map_or("*", |o| o.result()).to_owned(),
            termination: outcome.map_or("unterminated", |o| o.reason.name()).to_owned(),
            ..GameRecord::default()
        };
        let text = Movetext {
            from_lfen: &root_lfen,
            at_start: root_lfen == self.rules.startpos().to_lfen(),
            first_move: root.fullmove_number(),
            white_to_move: root.turn() == Color::White,
            opening: &sans,
            moves: &[],
            time_controls: [None, None],
            ending: None,
        };
        let date = stackchess_selfplay::manifest::pgn_date_now();
        let pgn = game_text("stackchess analysis board", &date, &rec, &text);
        let mut out = String::with_capacity(pgn.len());
        for line in pgn.lines().filter(|l| *l != "[GameId \"\"]") {
            out.push_str(line);
            out.push('\n');
        }
        out
    }

    fn play_line(&mut self, node: usize, moves: &[String]) -> Result<(), String> {
        self.at_current(node)?;
        let mut at = self.cur;
        let mut result = Ok(());
        for text in moves {
            match read_move(self.pos(at), text, None).and_then(|m| self.tree.add(at, m)) {
                Ok(next) => at = next,
                Err(e) => {
                    result = Err(e);
                    break;
                }
            }
        }
        self.goto(at);
        result
    }

    fn delete(&mut self, node: usize) -> Result<(), String> {
        let node = self.node(node)?;
        if node == 0 {
            return Err("the first position cannot be deleted (start a new game instead)".to_owned());
        }
        let parent = self.tree.get(node).and_then(|n| n.parent).unwrap_or(0);
        let cur = if self.tree.path(self.cur).contains(&node) { parent } else { self.cur };
        let map = self.tree.delete(node);
        self.searcher.stop();
        self.goto(map[cur].unwrap_or(0));
        Ok(())
    }

    fn set_engine(&mut self, side: &str, limit: Option<&LimitMsg>) -> Result<(), String> {
        let side = match side {
            "none" => {
                self.engine = None;
                self.refresh();
                return Ok(());
            }
            "w" => Color::White,
            "b" => Color::Black,
            s => return Err(format!("the engine plays 'w', 'b' or 'none', not '{s}'")),
        };
        let limit = limit.ok_or("the engine needs a limit (nodes, depth, movetime or clock)")?;
        limit.check()?;
        self.engine = Some(Opponent { side, limit: limit.clone(), left: Duration::from_millis(limit.value) });
        self.refresh();
        Ok(())
    }
}

impl<P: Position> AnyBoard for Board<P> {
    fn handle(&mut self, msg: &ClientMsg) -> Result<(), String> {
        match msg {
            ClientMsg::Move { node, mv, kind } => {
                self.at_current(*node)?;
                let m = read_move(self.pos(self.cur), mv, kind.as_deref())?;
                let next = self.tree.add(self.cur, m)?;
                self.goto(next);
            }
            ClientMsg::Line { node, moves } => self.play_line(*node, moves)?,
            ClientMsg::Goto { node } => {
                let n = self.node(*node)?;
                self.goto(n);
            }
            ClientMsg::Back => self.goto(self.tree.get(self.cur).and_then(|n| n.parent).unwrap_or(0)),
            ClientMsg::Forward => self.goto(self.tree.forward(self.cur).unwrap_or(self.cur)),
            ClientMsg::First => self.goto(0),
            ClientMsg::Last => self.goto(self.tree.line_end(self.cur)),
            ClientMsg::Delete { node } => self.delete(*node)?,
            ClientMsg::Promote { node } => {
                let n = self.node(*node)?;
                self.tree.promote(n);
                self.refresh();
            }
            ClientMsg::Analyse { on, multipv } => {
                if !(1..=MAX_MULTIPV).contains(multipv) {
                    return Err(format!("multipv must be 1 to {MAX_MULTIPV}, not {multipv}"));
                }
                self.analysing = *on;
                self.multipv = *multipv;
                self.refresh();
            }
            ClientMsg::Engine { side, limit } => self.set_engine(side, limit.as_ref())?,
            ClientMsg::Pgn => self.say(protocol::text(&PgnMsg { t: "pgn", text: self.pgn() })),
            ClientMsg::New { .. } | ClientMsg::Setup { .. } | ClientMsg::Open { .. } => {
                return Err("a new board is the tab's to make".to_owned());
            }
        }
        Ok(())
    }

    fn done(&mut self, job: u64, node: usize, best: Option<Move>, elapsed: Duration) {
        match self.searcher.current {
            Some((j, Purpose::Play)) if j == job && node == self.cur => {
                self.searcher.current = None;
                if let Some(e) = &mut self.engine {
                    e.left = after_move(e.left, elapsed, Duration::from_millis(e.limit.inc));
                }
                match best.map(|m| self.tree.add(self.cur, m)) {
                    Some(Ok(next)) => self.goto(next),
                    Some(Err(e)) => {
                        self.say(protocol::error(e));
                        self.refresh();
                    }
                    None => self.refresh(),
                }
            }
            Some((j, Purpose::Analyse)) if j == job => self.searcher.current = None,
            _ => {}
        }
    }

    fn refresh(&mut self) {
        let outcome =
            self.game_to(self.cur).outcome().map(|o| OutcomeView { result: o.result(), reason: o.reason.name() });
        let over = outcome.is_some();
        self.schedule(over);
        let state = self.state(outcome);
        self.say(protocol::text(&state));
    }

    fn settings(&self) -> Settings {
        Settings {
            analysing: self.analysing,
            multipv: self.multipv,
            engine: self.engine.as_ref().map(|e| (e.side, e.limit.clone())),
        }
    }
}
