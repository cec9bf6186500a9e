//! Checking a record: its moves replay legally from its start position, and its result,
//! termination and counters agree with the game they replay.

use crate::game::points;
use crate::{Ending, GameRecord};
use stackchess_core::{parse_coord, Color, Game, Position, Rules};

/// Replays `rec` and checks it; the message says what disagrees.
///
/// # Errors
/// An unreadable start position, opening plies (version 2) that do not lead from the start
/// position to it, an illegal move (with its number), moves after the end by the rules, or a
/// result, termination or counter that the replay contradicts.
pub fn replay<P: Position>(rules: P::Rules, rec: &GameRecord) -> Result<(), String> {
    let id = &rec.game_id;
    let start = rules.from_lfen(&rec.start_lfen).map_err(|e| format!("{id}: start position: {e}"))?;
    if !rec.opening_moves.trim().is_empty() {
        let mut pos = rules.startpos();
        for (i, text) in rec.opening_moves.split_whitespace().enumerate() {
            let m = parse_coord(&pos, text).map_err(|e| format!("{id}: opening ply {}: {e}", i + 1))?;
            pos.play(m).map_err(|e| format!("{id}: opening ply {}: {e}", i + 1))?;
        }
        if pos.to_lfen() != start.to_lfen() {
            return Err(format!("{id}: the opening plies reach {}, not start_lfen", pos.to_lfen()));
        }
    }
    let mut game = Game::new(start);
    let (mut captures, mut levels, mut checks) = ([0u32; 2], [0u32; 2], [0u32; 2]);
    for (i, text) in rec.moves.split_whitespace().enumerate() {
        if let Some(o) = game.outcome() {
            return Err(format!("{id}: move {} ({text}) after the game ended by {}", i + 1, o.reason.name()));
        }
        let pos = game.position().clone();
        let m = parse_coord(&pos, text).map_err(|e| format!("{id}: move {}: {e}", i + 1))?;
        let side = pos.turn().index();
        captures[side] += u32::from(pos.captured(m).is_some());
        levels[side] += u32::from(m.from().level() != m.to().level());
        game.play(m).map_err(|e| format!("{id}: move {}: {e}", i + 1))?;
        checks[side] += u32::from(game.position().is_check());
    }
    let ending =
        Ending::from_name(&rec.termination).ok_or_else(|| format!("{id}: unknown termination {}", rec.termination))?;
    let outcome = game.outcome();
    match (ending, outcome) {
        (Ending::Rule(t), Some(o)) if o.reason == t && o.result() != rec.result => {
            return Err(format!("{id}: the rules give {} but the record says {}", o.result(), rec.result));
        }
        (Ending::Rule(t), Some(o)) if o.reason == t => {}
        (Ending::Rule(t), o) => {
            return Err(format!("{id}: recorded {} but the replay ends {:?}", t.name(), o.map(|o| o.reason.name())));
        }
        (_, Some(o)) => return Err(format!("{id}: adjudicated, but the game is over by {}", o.reason.name())),
        (e, None) if e.is_forfeit() => {
            // The side to move at the end lost without moving.
            let want = if game.position().turn() == Color::White { "0-1" } else { "1-0" };
            if rec.result != want {
                return Err(format!("{id}: {} by the side to move must be {want}, not {}", e.name(), rec.result));
            }
        }
        (Ending::Resign, None) if rec.result == "1/2-1/2" => return Err(format!("{id}: a resignation cannot draw")),
        (Ending::MaxPlies | Ending::DrawAdjudication, None) if rec.result != "1/2-1/2" => {
            return Err(format!("{id}: {} must be a draw", ending.name()));
        }
        _ => {}
    }
    let mut material = [0u32; 2];
    game.position().for_each_piece(|_, p| material[p.color.index()] += points(p.role));
    let (w, b) = (Color::White.index(), Color::Black.index());
    let counted = [
        ("plies", game.moves().len() as u64, u64::from(rec.plies)),
        ("material_white", material[w].into(), rec.material_white.into()),
        ("material_black", material[b].into(), rec.material_black.into()),
        ("captures_white", captures[w].into(), rec.captures_white.into()),
        ("captures_black", captures[b].into(), rec.captures_black.into()),
        ("level_changes_white", levels[w].into(), rec.level_changes_white.into()),
        ("level_changes_black", levels[b].into(), rec.level_changes_black.into()),
        ("checks_white", checks[w].into(), rec.checks_white.into()),
        ("checks_black", checks[b].into(), rec.checks_black.into()),
    ];
    for (name, replayed, recorded) in counted {
        if replayed != recorded {
            return Err(format!("{id}: {name} is {recorded} in the record but {replayed} in the replay"));
        }
    }
    Ok(())
}
