//! Playing one game between two engines and describing it as a record, its plies and a PGN text.

use crate::adjudication::{Adjudication, Adjudicator, Ending, MATE_CP};
use crate::pgn::{game_text, Movetext, PgnMove};
use crate::{Error, GameRecord, PlyRecord};
use stackchess_core::{coord, san, Color, Game, Move, Position, Role, Rules};
use stackchess_search::{Engine, Limits, Report, Score, SearchConfig};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

/// One engine of a run: its label in records, its search settings and its limits per move.
#[derive(Clone, Debug)]
pub struct EngineSpec {
    /// `default` in self-play, `A` or `B` in a match.
    pub label: String,
    /// Search settings.
    pub config: SearchConfig,
    /// Limits of each move's search.
    pub limits: Limits,
}

impl EngineSpec {
    /// Limits and settings on one line: `nodes=1000 hash=16 features=... eval: ...`.
    #[must_use]
    pub fn describe(&self) -> String {
        format!("{} {}", describe_limits(&self.limits), self.config.describe()).replace(['\n', '|'], " ")
    }
}

/// `depth=D nodes=N movetime=Tms`, the limits given.
#[must_use]
pub fn describe_limits(l: &Limits) -> String {
    let mut parts = Vec::new();
    if let Some(d) = l.depth {
        parts.push(format!("depth={d}"));
    }
    if let Some(n) = l.nodes {
        parts.push(format!("nodes={n}"));
    }
    if let Some(t) = l.movetime {
        parts.push(format!("movetime={}ms", t.as_millis()));
    }
    if parts.is_empty() {
        "infinite".to_owned()
    } else {
        parts.join(" ")
    }
}

/// Piece points: P 1, N 3, B 3, R 5, Q 9, K 0.
#[must_use]
pub const fn points(role: Role) -> u32 {
    match role {
        Role::Pawn => 1,
        Role::Knight | Role::Bishop => 3,
        Role::Rook => 5,
        Role::Queen => 9,
        Role::King => 0,
    }
}

/// The score from White's side in centipawns, mates as `±MATE_CP`.
#[must_use]
pub fn white_cp(score: Score, mover: Color) -> i32 {
    let cp = match score {
        Score::Cp(c) => c,
        Score::Mate(n) if n > 0 => MATE_CP,
        Score::Mate(_) => -MATE_CP,
    };
    if mover == Color::White {
        cp
    } else {
        -cp
    }
}

/// The evaluation comment of a move, as cutechess-cli writes it: `+0.35/8 0.12s`, `-M2/12 0.05s`
/// (the mover's score in pawns or moves to mate, the depth, the search's time in seconds).
#[must_use]
pub fn eval_comment(r: &Report, time: Duration) -> String {
    let secs = time.as_secs_f64();
    match r.score {
        Score::Cp(c) => {
            format!("{}{}.{:02}/{} {secs:.2}s", if c < 0 { "-" } else { "+" }, c.abs() / 100, c.abs() % 100, r.depth)
        }
        Score::Mate(n) => format!("{}M{}/{} {secs:.2}s", if n > 0 { "+" } else { "-" }, n.abs(), r.depth),
    }
}

/// The per-ply row of a searched move.
fn ply_record(game_id: &str, ply: u32, mv: String, san: String, r: &Report, time: Duration) -> PlyRecord {
    let (score_cp, mate) = match r.score {
        Score::Cp(c) => (Some(c), None),
        Score::Mate(n) => (None, Some(n)),
    };
    PlyRecord {
        game_id: game_id.to_owned(),
        ply,
        mv,
        san,
        score_cp,
        mate,
        depth: r.depth,
        seldepth: r.seldepth,
        nodes: r.nodes,
        time_ms: u64::try_from(time.as_millis()).unwrap_or(u64::MAX),
    }
}

/// Everything about a game that is not a function of the run: which game, from where, by whom.
pub(crate) struct Setup<'a, P: Position> {
    pub index: u64,
    pub pair: u64,
    pub start: P,
    /// The plies from the start position to `start`, when known.
    pub opening: Option<Vec<Move>>,
    /// The engines' specs, White's first.
    pub specs: [&'a EngineSpec; 2],
    pub adjudication: Adjudication,
}

/// A finished game.
pub(crate) struct Played {
    pub record: GameRecord,
    /// One row per searched ply.
    pub plies: Vec<PlyRecord>,
    pub pgn: String,
}

/// Counters kept per side while the game runs.
#[derive(Default)]
struct Side {
    level_changes: u32,
    captures: u32,
    checks: u32,
}

/// Plays a game; `engines` are White's and Black's, already reset for a new game. Returns `None`
/// if `halt` was set before the game ended (the game is dropped).
pub(crate) fn play<P: Position>(
    setup: &Setup<'_, P>,
    engines: [&mut Engine<P>; 2],
    halt: &AtomicBool,
    base: &GameRecord,
    event: &str,
) -> Result<Option<Played>, Error> {
    let clock = Instant::now();
    let [white, black] = engines;
    let mut game = Game::new(setup.start.clone());
    let mut adjudicator = Adjudicator::new(setup.adjudication);
    let mut sides = [Side::default(), Side::default()];
    let (mut nodes, mut coords, mut pgn_moves, mut plies) = (0u64, Vec::new(), Vec::new(), Vec::new());
    let game_id = GameRecord::id(&base.run_key, setup.index);
    let by_rules = |g: &Game<P>| g.outcome().map(|o| (o.winner, Ending::Rule(o.reason)));
    let mut verdict = by_rules(&game);
    let (winner, ending) = loop {
        if let Some(v) = verdict {
            break v;
        }
        if halt.load(Ordering::Relaxed) {
            return Ok(None);
        }
        let pos = game.position().clone();
        let mover = pos.turn();
        let (engine, spec) =
            if mover == Color::White { (&mut *white, setup.specs[0]) } else { (&mut *black, setup.specs[1]) };
        let history = &game.hashes()[..game.hashes().len() - 1];
        let searching = Instant::now();
        let report = engine.search(&pos, history, &spec.limits, halt, &mut |_| {});
        let time = searching.elapsed();
        if halt.load(Ordering::Relaxed) {
            return Ok(None);
        }
        let m = report.best_move().ok_or_else(|| Error::Game {
            index: setup.index,
            message: format!("the engine gave no move in {}", pos.to_lfen()),
        })?;
        let side = &mut sides[mover.index()];
        side.captures += u32::from(pos.captured(m).is_some());
        side.level_changes += u32::from(m.from().level() != m.to().level());
        let (text, san) = (coord::<P>(m), san(&pos, m));
        #[allow(clippy::cast_possible_truncation)]
        let ply = coords.len() as u32 + 1;
        plies.push(ply_record(&game_id, ply, text.clone(), san.clone(), &report, time));
        pgn_moves.push(PgnMove { san, comment: eval_comment(&report, time) });
        coords.push(text);
        game.play(m).map_err(|e| Error::Game { index: setup.index, message: e.to_string() })?;
        let after = game.position();
        side.checks += u32::from(after.is_check());
        nodes += report.nodes;
        #[allow(clippy::cast_possible_truncation)]
        let plies = coords.len() as u32;
        verdict = by_rules(&game).or_else(|| {
            adjudicator.update(white_cp(report.score, mover), after.halfmove_clock(), after.fullmove_number(), plies)
        });
    };
    let mut material = [0u32; 2];
    game.position().for_each_piece(|_, p| material[p.color.index()] += points(p.role));
    let result = match winner {
        Some(Color::White) => "1-0",
        Some(Color::Black) => "0-1",
        None => "1/2-1/2",
    };
    let opening_moves = setup.opening.as_ref().map(|ms| ms.iter().map(|&m| coord::<P>(m)).collect::<Vec<_>>());
    #[allow(clippy::cast_possible_truncation)]
    let record = GameRecord {
        index: setup.index,
        pair: setup.pair,
        game_id,
        white: setup.specs[0].label.clone(),
        black: setup.specs[1].label.clone(),
        start_lfen: setup.start.to_lfen(),
        moves: coords.join(" "),
        result: result.to_owned(),
        termination: ending.name().to_owned(),
        plies: coords.len() as u32,
        material_white: material[0],
        material_black: material[1],
        level_changes_white: sides[0].level_changes,
        level_changes_black: sides[1].level_changes,
        captures_white: sides[0].captures,
        captures_black: sides[1].captures,
        checks_white: sides[0].checks,
        checks_black: sides[1].checks,
        nodes,
        duration_ms: u64::try_from(clock.elapsed().as_millis()).unwrap_or(u64::MAX),
        opening_moves: opening_moves.as_ref().map(|m| m.join(" ")).unwrap_or_default(),
        ..base.clone()
    };
    let pgn = pgn_text(setup, &record, opening_moves.is_some(), &pgn_moves, event)?;
    Ok(Some(Played { record, plies, pgn }))
}

/// The game's PGN: from the rule set's start position through the opening plies when they are
/// known, else from the game's start position.
fn pgn_text<P: Position>(
    setup: &Setup<'_, P>,
    record: &GameRecord,
    plies_known: bool,
    moves: &[PgnMove],
    event: &str,
) -> Result<String, Error> {
    let rules = setup.start.rules();
    let (from, opening) = match &setup.opening {
        Some(opening) if plies_known && !opening.is_empty() => {
            let mut pos = rules.startpos();
            let mut sans = Vec::with_capacity(opening.len());
            for &m in opening {
                sans.push(san(&pos, m));
                pos.play(m).map_err(|e| Error::Game { index: setup.index, message: format!("opening: {e}") })?;
            }
            (rules.startpos(), sans)
        }
        _ => (setup.start.clone(), Vec::new()),
    };
    let text = Movetext {
        from_lfen: &from.to_lfen(),
        at_start: from.to_lfen() == rules.startpos().to_lfen(),
        first_move: from.fullmove_number(),
        white_to_move: from.turn() == Color::White,
        opening: &opening,
        moves,
    };
    Ok(game_text(event, &crate::manifest::pgn_date_now(), record, &text))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn comments_and_scores_read_as_in_cutechess() {
        let r = |score, depth| Report {
            depth,
            seldepth: depth,
            score,
            nodes: 0,
            elapsed: std::time::Duration::default(),
            pv: vec![],
        };
        let ms = Duration::from_millis;
        assert_eq!(eval_comment(&r(Score::Cp(35), 8), ms(120)), "+0.35/8 0.12s");
        assert_eq!(eval_comment(&r(Score::Cp(-5), 3), ms(4)), "-0.05/3 0.00s");
        assert_eq!(eval_comment(&r(Score::Cp(-250), 3), ms(1500)), "-2.50/3 1.50s");
        assert_eq!(eval_comment(&r(Score::Mate(-2), 12), ms(50)), "-M2/12 0.05s");
        assert_eq!(eval_comment(&r(Score::Mate(1), 1), ms(0)), "+M1/1 0.00s");
        let p = ply_record("g", 3, "e2e4".into(), "e4".into(), &r(Score::Mate(-2), 12), ms(7));
        assert_eq!((p.score_cp, p.mate, p.depth, p.time_ms, p.ply), (None, Some(-2), 12, 7, 3));
        let p = ply_record("g", 1, "e2e4".into(), "e4".into(), &r(Score::Cp(-40), 5), ms(0));
        assert_eq!((p.score_cp, p.mate), (Some(-40), None));
        assert_eq!(white_cp(Score::Cp(40), Color::Black), -40);
        assert_eq!(white_cp(Score::Mate(0), Color::White), -MATE_CP);
        assert_eq!(white_cp(Score::Mate(3), Color::Black), -MATE_CP);
    }

    #[test]
    fn limits_are_described_in_one_line() {
        assert_eq!(describe_limits(&Limits::nodes(500)), "nodes=500");
        let l = Limits { depth: Some(4), movetime: Some(std::time::Duration::from_millis(50)), ..Limits::default() };
        assert_eq!(describe_limits(&l), "depth=4 movetime=50ms");
    }
}
