//! The messages between the page and the server: JSON text frames over the WebSocket, each an
//! object whose `t` names its kind (docs/serve.md lists them).

use serde::{Deserialize, Serialize};
use stackchess_search::{Clock, Limits};
use std::time::Duration;

/// A message from the page.
#[derive(Clone, Debug, Deserialize, PartialEq, Eq)]
#[serde(tag = "t", rename_all = "kebab-case", deny_unknown_fields)]
pub enum ClientMsg {
    /// A new game of `variant`, from its start or from `lfen`.
    New {
        /// A variant the server offers.
        variant: String,
        /// The position to start from (the start position when absent).
        #[serde(default)]
        lfen: Option<String>,
    },
    /// The position editor's position: `placement` has one character a cell in cell order
    /// (`.` empty), `turn` is `w` or `b`, `castling` the rights (`KQkq`, `-` for none).
    Setup {
        /// The placement.
        placement: String,
        /// Side to move.
        turn: String,
        /// Castling rights.
        castling: String,
    },
    /// Play a move (coordinate notation or SAN) at `node`, which must be the current node.
    Move {
        /// The node the move is played at.
        node: usize,
        /// The move.
        mv: String,
        /// Its kind, when moves of several kinds join the same cells (`transfer`, ...).
        #[serde(default)]
        kind: Option<String>,
    },
    /// Play a line of moves (coordinate notation) from `node`, which must be the current node.
    Line {
        /// The node the line starts at.
        node: usize,
        /// The moves.
        moves: Vec<String>,
    },
    /// Go to a node.
    Goto {
        /// Its id.
        node: usize,
    },
    /// Back one move (undo).
    Back,
    /// Forward along the line last visited (redo).
    Forward,
    /// To the root.
    First,
    /// To the end of the current line.
    Last,
    /// Remove a node and everything after it.
    Delete {
        /// Its id.
        node: usize,
    },
    /// Make the line through a node the main line.
    Promote {
        /// Its id.
        node: usize,
    },
    /// Analysis on or off, with this many lines.
    Analyse {
        /// On or off.
        on: bool,
        /// Lines (1 to 5).
        #[serde(default = "one")]
        multipv: usize,
    },
    /// Play against the engine: it plays `side` (`w`, `b`, or `none` to stop) within `limit`.
    Engine {
        /// The engine's side.
        side: String,
        /// Its strength.
        #[serde(default)]
        limit: Option<LimitMsg>,
    },
    /// Open a game of the run directories at a ply.
    Open {
        /// The game id.
        game: String,
        /// The ply (0: the first position).
        #[serde(default)]
        ply: usize,
    },
    /// The current game as PGN.
    Pgn,
}

fn one() -> usize {
    1
}

/// A strength for the engine: `nodes`, `depth`, `movetime` (ms) or `clock` (`value` ms, plus `inc` ms a move).
#[derive(Clone, Debug, Deserialize, Serialize, PartialEq, Eq)]
#[serde(deny_unknown_fields)]
pub struct LimitMsg {
    /// `nodes`, `depth`, `movetime` or `clock`.
    pub kind: String,
    /// Nodes, plies, or milliseconds.
    pub value: u64,
    /// The clock's increment in milliseconds.
    #[serde(default)]
    pub inc: u64,
}

impl LimitMsg {
    /// Checks the ranges: 1 to 10⁹ nodes, 1 to 64 plies, 1 ms to 10 minutes a move, a clock of
    /// 1 s to 10 hours with an increment of at most 1 minute.
    ///
    /// # Errors
    /// An unknown kind or a value out of range, saying which.
    pub fn check(&self) -> Result<(), String> {
        let (lo, hi, unit) = match self.kind.as_str() {
            "nodes" => (1, 1_000_000_000, "nodes"),
            "depth" => (1, 64, "plies"),
            "movetime" => (1, 600_000, "ms"),
            "clock" => (1_000, 36_000_000, "ms"),
            k => return Err(format!("unknown engine limit '{k}' (nodes, depth, movetime or clock)")),
        };
        if !(lo..=hi).contains(&self.value) {
            return Err(format!("{} must be {lo} to {hi} {unit}, not {}", self.kind, self.value));
        }
        if self.inc > 60_000 {
            return Err(format!("the increment must be at most 60000 ms, not {}", self.inc));
        }
        Ok(())
    }

    /// The search limits for one move, the clock holding `left`.
    #[must_use]
    pub fn limits(&self, left: Duration) -> Limits {
        match self.kind.as_str() {
            "nodes" => Limits::nodes(self.value),
            "depth" => Limits::depth(self.value as u32),
            "clock" => Limits::clock(Clock::new(left, Duration::from_millis(self.inc), None)),
            _ => Limits::movetime(Duration::from_millis(self.value)),
        }
    }

    /// `nodes 1000`, `depth 8`, `movetime 500 ms`, `clock 60+1 s`.
    #[must_use]
    pub fn describe(&self) -> String {
        match self.kind.as_str() {
            "clock" => format!("clock {}+{} s", self.value as f64 / 1000.0, self.inc as f64 / 1000.0),
            "movetime" => format!("movetime {} ms", self.value),
            k => format!("{k} {}", self.value),
        }
    }
}

/// One legal move as the page needs it: from, to, promotion letter (or empty), kind, SAN.
#[derive(Clone, Debug, Serialize, PartialEq, Eq)]
pub struct LegalView(pub usize, pub usize, pub String, pub &'static str, pub String);

/// A game's end by the rules.
#[derive(Clone, Debug, Serialize, PartialEq, Eq)]
pub struct OutcomeView {
    /// `1-0`, `0-1` or `1/2-1/2`.
    pub result: &'static str,
    /// `checkmate`, `stalemate`, `repetition`, `fifty-moves`, `dead-material`.
    pub reason: &'static str,
}

/// What the engine plays, if anything.
#[derive(Clone, Debug, Serialize, PartialEq, Eq)]
pub struct EngineView {
    /// `w` or `b`.
    pub side: char,
    /// Its limit.
    pub limit: LimitMsg,
    /// Its clock's time left, in ms, when it plays on a clock.
    pub clock_ms: Option<u64>,
    /// Whether it is thinking.
    pub thinking: bool,
}

/// The board after any change: everything the page draws.
#[derive(Clone, Debug, Serialize)]
pub struct StateMsg {
    /// `state`.
    pub t: &'static str,
    /// The rule set.
    pub variant: String,
    /// Its levels.
    pub levels: usize,
    /// The current node.
    pub node: usize,
    /// The nodes from the root to it.
    pub path: Vec<usize>,
    /// The end of its line (where "last" goes).
    pub line_end: usize,
    /// The placement, one character a cell (`.` empty).
    pub board: String,
    /// Side to move.
    pub turn: char,
    /// The position as LFEN.
    pub lfen: String,
    /// The root's side to move and move number (to number the moves).
    pub root_turn: char,
    /// The root's move number.
    pub root_fullmove: u32,
    /// The tree, in id order.
    pub tree: Vec<crate::tree::NodeView>,
    /// How many nodes the tree may hold.
    pub cap: usize,
    /// The last move's cells.
    pub last: Option<[usize; 2]>,
    /// The cell of a king in check.
    pub check: Option<usize>,
    /// The legal moves.
    pub legal: Vec<LegalView>,
    /// The game's end, if it has ended.
    pub outcome: Option<OutcomeView>,
    /// The engine opponent.
    pub engine: Option<EngineView>,
    /// Whether analysis is on.
    pub analysing: bool,
    /// Its line count.
    pub multipv: usize,
    /// Id of the game opened from a run, if any.
    pub game: Option<String>,
}

/// One analysis line.
#[derive(Clone, Debug, Serialize, PartialEq, Eq)]
pub struct LineView {
    /// Depth completed.
    pub depth: u32,
    /// Selective depth.
    pub seldepth: u32,
    /// The score from White's view: `+0.35`, `-1.20`, `#3` (White mates), `-#2` (Black mates).
    pub score: String,
    /// The same in centipawns for the bar (a mate as ±100000 less its distance).
    pub cp: i64,
    /// Nodes so far.
    pub nodes: u64,
    /// Nodes a second.
    pub nps: u64,
    /// Milliseconds so far.
    pub ms: u64,
    /// The line in SAN.
    pub san: Vec<String>,
    /// The line in coordinate notation.
    pub uci: Vec<String>,
}

/// Analysis lines of a node.
#[derive(Clone, Debug, Serialize)]
pub struct LinesMsg {
    /// `lines`.
    pub t: &'static str,
    /// The node analysed.
    pub node: usize,
    /// Best first.
    pub lines: Vec<LineView>,
    /// Whether the search has ended.
    pub done: bool,
}

/// A rule set the page may choose.
#[derive(Clone, Debug, Serialize)]
pub struct VariantView {
    /// Its name.
    pub name: String,
    /// Its levels.
    pub levels: usize,
}

/// A game of the run directories, as the list shows it.
#[derive(Clone, Debug, Serialize)]
pub struct GameRow {
    /// Game id.
    pub id: String,
    /// Variant.
    pub v: String,
    /// Result.
    pub r: String,
    /// Termination.
    pub t: String,
    /// Plies from the first position shown (the opening included).
    pub n: usize,
    /// White's label.
    pub w: String,
    /// Black's label.
    pub b: String,
}

/// The first message: what the server offers.
#[derive(Clone, Debug, Serialize)]
pub struct HelloMsg {
    /// `hello`.
    pub t: &'static str,
    /// The rule sets.
    pub variants: Vec<VariantView>,
    /// The games of the run directories.
    pub games: Vec<GameRow>,
    /// Notes on the runs read (paths and counts).
    pub notes: Vec<String>,
    /// The most analysis lines.
    pub max_multipv: usize,
}

/// An error to show on the page.
#[derive(Clone, Debug, Serialize)]
pub struct ErrorMsg {
    /// `error`.
    pub t: &'static str,
    /// What was wrong.
    pub message: String,
}

/// The PGN of the current line.
#[derive(Clone, Debug, Serialize)]
pub struct PgnMsg {
    /// `pgn`.
    pub t: &'static str,
    /// The text.
    pub text: String,
}

/// JSON text of a message.
pub fn text(msg: &impl Serialize) -> String {
    serde_json::to_string(msg).unwrap_or_else(|e| format!("{{\"t\":\"error\",\"message\":\"{e}\"}}"))
}

/// An error message's text.
pub fn error(message: impl Into<String>) -> String {
    text(&ErrorMsg { t: "error", message: message.into() })
}
