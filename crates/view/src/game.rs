//! One recorded game replayed into what the page shows at each ply.

use crate::ViewError;
use serde::Serialize;
use stackchess_core::{parse_coord, san, Cell, Color, Position, Rules};
use stackchess_records::{RecordedGame, Score};
use std::fmt::Write as _;

/// A game as the page holds it: its header, its start placement, and per ply the SAN, the
/// changed cells and a check flag. The page replays nothing itself.
///
/// Field names are short because a page holds a thousand games. `plies` entries read
/// `"<SAN> <changes>"`, then ` +` when the move gives check; `<changes>` is a run of three-character
/// groups (cell index in two hex digits, then the piece there after the move, `.` for empty), the
/// move's from and to cells first.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct GameData {
    /// Game id.
    pub id: String,
    /// Variant name.
    #[serde(rename = "v")]
    pub variant: String,
    /// White's label.
    #[serde(rename = "w")]
    pub white: String,
    /// Black's label.
    #[serde(rename = "b")]
    pub black: String,
    /// Result.
    #[serde(rename = "r")]
    pub result: String,
    /// Termination.
    #[serde(rename = "t")]
    pub termination: String,
    /// Number of levels.
    #[serde(rename = "l")]
    pub levels: usize,
    /// The LFEN the replay starts from (the rule set's start when there is an opening).
    #[serde(rename = "f")]
    pub start_lfen: String,
    /// The start placement: one character a cell (`.` empty), cell index order.
    #[serde(rename = "s")]
    pub start: String,
    /// `w` or `b`: the side to move at the start.
    #[serde(rename = "c")]
    pub turn: char,
    /// The full-move number at the start.
    #[serde(rename = "n")]
    pub fullmove: u32,
    /// How many of the first plies are the opening (before the searched moves).
    #[serde(rename = "o")]
    pub opening: usize,
    /// The plies, encoded as described above.
    #[serde(rename = "p")]
    pub plies: Vec<String>,
    /// Per ply, the evaluation from White's view: centipawns, or `"M3"` / `"-M3"` for a mate
    /// for White / Black; `null` where none was recorded. Absent when the game has none at all.
    #[serde(rename = "e", skip_serializing_if = "Option::is_none")]
    pub evals: Option<Vec<serde_json::Value>>,
}

impl GameData {
    /// The searched plies (the record's `moves`, without the opening).
    #[must_use]
    pub fn searched_plies(&self) -> usize {
        self.plies.len() - self.opening
    }
}

fn placement<P: Position>(pos: &P) -> Vec<char> {
    (0..P::LEVELS * 64).map(|i| pos.piece_at(Cell::from_index(i)).map_or('.', stackchess_core::Piece::char)).collect()
}

/// Plays `moves` (coordinate notation) from `pos`, appending one encoded ply for each.
fn play_all<P: Position>(
    pos: &mut P,
    moves: &str,
    part: &'static str,
    id: &str,
    out: &mut Vec<String>,
    sides: &mut Vec<Color>,
) -> Result<(), ViewError> {
    let mut before = placement(pos);
    for (i, text) in moves.split_whitespace().enumerate() {
        let m = parse_coord(pos, text).map_err(|e| ViewError::Move {
            game: id.to_owned(),
            part,
            ply: i + 1,
            text: text.to_owned(),
            message: e.reason,
        })?;
        let mut ply = san(pos, m);
        sides.push(pos.turn());
        pos.play_unchecked(m);
        let after = placement(pos);
        ply.push(' ');
        let (from, to) = (m.from().index(), m.to().index());
        for c in
            [from, to].into_iter().chain((0..after.len()).filter(|&c| c != from && c != to && before[c] != after[c]))
        {
            let _ = write!(ply, "{c:02x}{}", after[c]);
        }
        if pos.is_check() {
            ply.push_str(" +");
        }
        out.push(ply);
        before = after;
    }
    Ok(())
}

fn white_view(score: Score, mover: Color) -> serde_json::Value {
    let sign = mover.sign();
    match score {
        Score::Cp(cp) => serde_json::Value::from(cp * sign),
        Score::Mate(n) => {
            let n = n * sign;
            serde_json::Value::from(if n < 0 { format!("-M{}", -n) } else { format!("M{n}") })
        }
    }
}

/// Replays a game with the move generator into the page's data.
///
/// # Errors
/// A start position that does not parse, a move that is not legal, an opening that does not
/// reach the start position, or evaluations for plies the game does not have.
pub fn replay<P: Position>(rules: P::Rules, recorded: &RecordedGame) -> Result<GameData, ViewError> {
    let game = &recorded.game;
    let id = game.game_id.as_str();
    let start = rules
        .from_lfen(&game.start_lfen)
        .map_err(|e| ViewError::Start { game: id.to_owned(), message: e.to_string() })?;
    let first = if game.opening_moves.trim().is_empty() { start.clone() } else { rules.startpos() };
    let mut pos = first.clone();
    let (mut plies, mut movers) = (Vec::new(), Vec::new());
    play_all(&mut pos, &game.opening_moves, "opening", id, &mut plies, &mut movers)?;
    let opening = plies.len();
    if opening > 0 && pos.to_lfen() != start.to_lfen() {
        return Err(ViewError::Opening { game: id.to_owned(), reached: pos.to_lfen(), recorded: start.to_lfen() });
    }
    play_all(&mut pos, &game.moves, "game", id, &mut plies, &mut movers)?;
    let searched = plies.len() - opening;
    let scores = recorded.scores();
    if scores.len() > searched {
        return Err(ViewError::Evaluation { game: id.to_owned(), ply: scores.len(), plies: searched });
    }
    let evals = scores.iter().any(Option::is_some).then(|| {
        let mut e = vec![serde_json::Value::Null; plies.len()];
        for (i, s) in scores.iter().enumerate() {
            if let Some(s) = s {
                e[opening + i] = white_view(*s, movers[opening + i]);
            }
        }
        e
    });
    Ok(GameData {
        id: id.to_owned(),
        variant: game.variant.clone(),
        white: game.white.clone(),
        black: game.black.clone(),
        result: game.result.clone(),
        termination: game.termination.clone(),
        levels: P::LEVELS,
        start_lfen: first.to_lfen(),
        start: placement(&first).into_iter().collect(),
        turn: first.turn().char(),
        fullmove: first.fullmove_number(),
        opening,
        plies,
        evals,
    })
}
