//! Playing one game between two engines and describing it as a record, its plies and a PGN text.

use crate::adjudication::{Adjudication, Adjudicator, Ending, MATE_CP};
use crate::clock::{hms, SideClock};
use crate::engine::EngineSpec;
use crate::pgn::{game_text, Movetext, PgnMove};
use crate::player::Player;
use crate::turn::{Failure, Thought, Turn};
use crate::{Error, GameRecord, PlyRecord};
use stackchess_core::{coord, san, ByColor, Color, Game, Move, Position, Role, Rules};
use stackchess_search::{Limits, Score};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

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
/// (the mover's score in pawns or moves to mate, the depth, the search's time in seconds); only
/// the time when the engine gave no score.
#[must_use]
pub fn eval_comment(score: Option<Score>, depth: u32, time: Duration) -> String {
    let secs = time.as_secs_f64();
    match score {
        Some(Score::Cp(c)) => {
            format!("{}{}.{:02}/{depth} {secs:.2}s", if c < 0 { "-" } else { "+" }, c.abs() / 100, c.abs() % 100)
        }
        Some(Score::Mate(n)) => format!("{}M{}/{depth} {secs:.2}s", if n > 0 { "+" } else { "-" }, n.abs()),
        None => format!("{secs:.2}s"),
    }
}

/// Milliseconds, rounded to the nearest.
fn rounded_ms(t: Duration) -> u64 {
    u64::try_from((t.as_micros() + 500) / 1000).unwrap_or(u64::MAX)
}

/// The per-ply row of a searched move.
fn ply_record(
    game_id: &str,
    ply: u32,
    mv: String,
    san: String,
    t: &Thought,
    time_ms: u64,
    clock_ms: Option<i64>,
) -> PlyRecord {
    let (score_cp, mate) = match t.score {
        Some(Score::Cp(c)) => (Some(c), None),
        Some(Score::Mate(n)) => (None, Some(n)),
        None => (None, None),
    };
    PlyRecord {
        game_id: game_id.to_owned(),
        ply,
        mv,
        san,
        score_cp,
        mate,
        depth: t.depth,
        seldepth: t.seldepth,
        nodes: t.nodes,
        time_ms,
        clock_ms,
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
    /// What a mover may exceed its clock by.
    pub time_margin: Duration,
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

/// How a game ended: the winner, the ending, and for a forfeit what happened (the illegal move's
/// text goes into the termination; other details into the PGN).
struct Verdict {
    winner: Option<Color>,
    ending: Ending,
    detail: Option<String>,
}

impl Verdict {
    fn of(winner: Option<Color>, ending: Ending) -> Verdict {
        Verdict { winner, ending, detail: None }
    }

    /// `loser` forfeits the game.
    fn forfeit(loser: Color, ending: Ending, detail: String) -> Verdict {
        Verdict { winner: Some(loser.other()), ending, detail: Some(detail) }
    }

    /// The `termination` column: the ending's name, with the move for an illegal one.
    fn termination(&self) -> String {
        match (&self.ending, &self.detail) {
            (Ending::IllegalMove, Some(text)) => format!("{} {text}", self.ending.name()),
            _ => self.ending.name().to_owned(),
        }
    }
}

/// Plays a game; `players` are White's and Black's. Returns `None` if `halt` was set before the
/// game ended (the game is dropped).
pub(crate) fn play<P: Position>(
    setup: &Setup<'_, P>,
    players: [&mut Player<P>; 2],
    halt: &AtomicBool,
    base: &GameRecord,
    event: &str,
) -> Result<Option<Played>, Error> {
    let started = Instant::now();
    let mut players = players;
    let mut game = InPlay::new(setup, GameRecord::id(&base.run_key, setup.index));
    let mut verdict = None;
    for (color, player) in [Color::White, Color::Black].into_iter().zip(players.iter_mut()) {
        if let Err(f) = player.new_game() {
            verdict = verdict.or(failed(f, color, setup.index)?);
        }
    }
    let verdict = verdict.or_else(|| game.by_rules());
    let Some(verdict) = game.play_out(verdict, &mut players, halt)? else { return Ok(None) };
    game.finish(&verdict, base, started.elapsed(), event).map(Some)
}

/// A game being played: the position and everything recorded about it so far.
struct InPlay<'s, 'a, P: Position> {
    setup: &'s Setup<'a, P>,
    game: Game<P>,
    game_id: String,
    adjudicator: Adjudicator,
    clocks: [Option<SideClock>; 2],
    sides: ByColor<Side>,
    nodes: u64,
    /// The moves played, in coordinate notation.
    coords: Vec<String>,
    pgn_moves: Vec<PgnMove>,
    plies: Vec<PlyRecord>,
}

impl<'s, 'a, P: Position> InPlay<'s, 'a, P> {
    fn new(setup: &'s Setup<'a, P>, game_id: String) -> Self {
        InPlay {
            setup,
            game: Game::new(setup.start.clone()),
            game_id,
            adjudicator: Adjudicator::new(setup.adjudication),
            clocks: setup.specs.map(|s| s.tc.map(SideClock::new)),
            sides: ByColor::default(),
            nodes: 0,
            coords: Vec::new(),
            pgn_moves: Vec::new(),
            plies: Vec::new(),
        }
    }

    /// The rules' verdict on the position now (mate, stalemate, a draw rule), if any.
    fn by_rules(&self) -> Option<Verdict> {
        self.game.outcome().map(|o| Verdict::of(o.winner, Ending::Rule(o.reason)))
    }

    /// Asks the sides for moves until a verdict; `None` when the game is dropped (`halt`).
    fn play_out(
        &mut self,
        mut verdict: Option<Verdict>,
        players: &mut [&mut Player<P>; 2],
        halt: &AtomicBool,
    ) -> Result<Option<Verdict>, Error> {
        loop {
            if let Some(v) = verdict {
                return Ok(Some(v));
            }
            if halt.load(Ordering::Relaxed) {
                return Ok(None);
            }
            let pos = self.game.position().clone();
            let mover = pos.turn();
            let thought = match players[mover.index()].think(&self.turn(&pos), halt) {
                Ok(t) => t,
                Err(f) => {
                    verdict = failed(f, mover, self.setup.index)?;
                    if verdict.is_none() {
                        return Ok(None);
                    }
                    continue;
                }
            };
            if halt.load(Ordering::Relaxed) {
                return Ok(None);
            }
            verdict = match self.charge(mover, thought.elapsed) {
                Ok((time_ms, clock_ms)) => self.record(&pos, &thought, time_ms, clock_ms)?,
                Err(forfeit) => Some(forfeit),
            };
        }
    }

    /// What the side to move in `pos` is asked.
    fn turn<'t>(&'t self, pos: &'t P) -> Turn<'t, P> {
        let mover = pos.turn();
        let spec = self.setup.specs[mover.index()];
        let history = &self.game.hashes()[..self.game.hashes().len() - 1];
        let mine = self.clocks[mover.index()];
        Turn {
            start: &self.setup.start,
            moves: &self.coords,
            position: pos,
            history,
            limits: Limits { clock: mine.map(|c| c.search_clock()), ..spec.limits },
            clocks: self.clocks.map(|c| c.map(|c| (c.remaining_ms, c.tc.increment_ms))),
            moves_to_go: mine.and_then(|c| c.moves_to_go()),
            clock_deadline: mine
                .map(|c| Duration::from_millis(c.remaining_ms.max(0).unsigned_abs()) + self.setup.time_margin),
        }
    }

    /// Charges the mover's clock for a move that took `elapsed`: the move's milliseconds and the
    /// clock after it, or the forfeit of a mover past its time margin.
    fn charge(&mut self, mover: Color, elapsed: Duration) -> Result<(u64, Option<i64>), Verdict> {
        let margin = self.setup.time_margin;
        let Some(c) = self.clocks[mover.index()].as_mut() else { return Ok((rounded_ms(elapsed), None)) };
        let charge = c.charge(elapsed, margin);
        if charge.flagged {
            let detail = format!(
                "{mover:?} took {} ms with {} ms left (margin {} ms)",
                charge.time_ms,
                charge.after_ms.saturating_add_unsigned(charge.time_ms),
                margin.as_millis()
            );
            return Err(Verdict::forfeit(mover, Ending::TimeForfeit, detail));
        }
        Ok((charge.time_ms, Some(charge.after_ms)))
    }

    /// Plays and records the move `thought` chose in `pos`; the verdict after it, if any (the
    /// rules' or the adjudicator's).
    fn record(
        &mut self,
        pos: &P,
        thought: &Thought,
        time_ms: u64,
        clock_ms: Option<i64>,
    ) -> Result<Option<Verdict>, Error> {
        let (m, mover) = (thought.mv, pos.turn());
        let side = &mut self.sides[mover];
        side.captures += u32::from(pos.captured(m).is_some());
        side.level_changes += u32::from(m.from().level() != m.to().level());
        let (text, san) = (coord::<P>(m), san(pos, m));
        #[allow(clippy::cast_possible_truncation)]
        let ply = self.coords.len() as u32 + 1;
        self.plies.push(ply_record(&self.game_id, ply, text.clone(), san.clone(), thought, time_ms, clock_ms));
        let comment = format!(
            "{} [%emt {}]",
            eval_comment(thought.score, thought.depth, Duration::from_millis(time_ms)),
            hms(i64::try_from(time_ms).unwrap_or(i64::MAX))
        );
        self.pgn_moves.push(PgnMove { san, comment });
        self.coords.push(text);
        self.game.play(m).map_err(|e| Error::Game { index: self.setup.index, message: e.to_string() })?;
        let after = self.game.position();
        let (check, halfmove, fullmove) = (after.is_check(), after.halfmove_clock(), after.fullmove_number());
        self.sides[mover].checks += u32::from(check);
        self.nodes += thought.nodes;
        if let Some(v) = self.by_rules() {
            return Ok(Some(v));
        }
        let v = match thought.score {
            Some(score) => self.adjudicator.update(white_cp(score, mover), halfmove, fullmove, ply),
            None => self.adjudicator.update_unscored(ply),
        };
        Ok(v.map(|(w, e)| Verdict::of(w, e)))
    }

    /// The finished game: its record, plies and PGN.
    fn finish(self, verdict: &Verdict, base: &GameRecord, elapsed: Duration, event: &str) -> Result<Played, Error> {
        let setup = self.setup;
        let mut material = ByColor::<u32>::default();
        self.game.position().for_each_piece(|_, p| material[p.color] += points(p.role));
        let result = match verdict.winner {
            Some(Color::White) => "1-0",
            Some(Color::Black) => "0-1",
            None => "1/2-1/2",
        };
        let opening_moves = setup.opening.as_ref().map(|ms| ms.iter().map(|&m| coord::<P>(m)).collect::<Vec<_>>());
        let sides = &self.sides;
        #[allow(clippy::cast_possible_truncation)]
        let record = GameRecord {
            index: setup.index,
            pair: setup.pair,
            game_id: self.game_id,
            white: setup.specs[0].label.clone(),
            black: setup.specs[1].label.clone(),
            start_lfen: setup.start.to_lfen(),
            moves: self.coords.join(" "),
            result: result.to_owned(),
            termination: verdict.termination(),
            plies: self.coords.len() as u32,
            material_white: material[Color::White],
            material_black: material[Color::Black],
            level_changes_white: sides[Color::White].level_changes,
            level_changes_black: sides[Color::Black].level_changes,
            captures_white: sides[Color::White].captures,
            captures_black: sides[Color::Black].captures,
            checks_white: sides[Color::White].checks,
            checks_black: sides[Color::Black].checks,
            nodes: self.nodes,
            duration_ms: u64::try_from(elapsed.as_millis()).unwrap_or(u64::MAX),
            opening_moves: opening_moves.as_ref().map(|m| m.join(" ")).unwrap_or_default(),
            ..base.clone()
        };
        let ending_comment = verdict.detail.as_ref().filter(|_| verdict.ending.is_forfeit()).map(|d| {
            let loser = if verdict.winner == Some(Color::White) { "Black" } else { "White" };
            format!("{loser} {}: {d}", verdict.ending.name())
        });
        let pgn = pgn_text(setup, &record, opening_moves.is_some(), &self.pgn_moves, ending_comment.as_deref(), event)?;
        Ok(Played { record, plies: self.plies, pgn })
    }
}

/// The verdict when `side` failed to move: a forfeit, `None` when the run is stopping (the game
/// is dropped), or an error for a built-in engine without a move.
fn failed(f: Failure, side: Color, index: u64) -> Result<Option<Verdict>, Error> {
    Ok(Some(match f {
        Failure::Crashed(d) => Verdict::forfeit(side, Ending::Crashed, d),
        Failure::Stalled(d) => Verdict::forfeit(side, Ending::Stalled, d),
        Failure::Illegal(text) => Verdict::forfeit(side, Ending::IllegalMove, text),
        Failure::Halted => return Ok(None),
        Failure::Internal(message) => return Err(Error::Game { index, message }),
    }))
}

/// The game's PGN: from the rule set's start position through the opening plies when they are
/// known, else from the game's start position.
fn pgn_text<P: Position>(
    setup: &Setup<'_, P>,
    record: &GameRecord,
    plies_known: bool,
    moves: &[PgnMove],
    ending: Option<&str>,
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
        time_controls: setup.specs.map(|s| s.tc.map(|tc| tc.to_string())),
        ending,
    };
    Ok(game_text(event, &crate::manifest::pgn_date_now(), record, &text))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn comments_and_scores_read_as_in_cutechess() {
        let ms = Duration::from_millis;
        assert_eq!(eval_comment(Some(Score::Cp(35)), 8, ms(120)), "+0.35/8 0.12s");
        assert_eq!(eval_comment(Some(Score::Cp(-5)), 3, ms(4)), "-0.05/3 0.00s");
        assert_eq!(eval_comment(Some(Score::Cp(-250)), 3, ms(1500)), "-2.50/3 1.50s");
        assert_eq!(eval_comment(Some(Score::Mate(-2)), 12, ms(50)), "-M2/12 0.05s");
        assert_eq!(eval_comment(Some(Score::Mate(1)), 1, ms(0)), "+M1/1 0.00s");
        assert_eq!(eval_comment(None, 0, ms(1234)), "1.23s");
        let t = |score| Thought {
            mv: Move::normal(stackchess_core::Cell::from_index(12), stackchess_core::Cell::from_index(28)),
            score,
            depth: 12,
            seldepth: 12,
            nodes: 0,
            elapsed: Duration::ZERO,
        };
        let p = ply_record("g", 3, "e2e4".into(), "e4".into(), &t(Some(Score::Mate(-2))), 7, Some(-4));
        assert_eq!((p.score_cp, p.mate, p.depth, p.time_ms, p.ply, p.clock_ms), (None, Some(-2), 12, 7, 3, Some(-4)));
        let p = ply_record("g", 1, "e2e4".into(), "e4".into(), &t(Some(Score::Cp(-40))), 0, None);
        assert_eq!((p.score_cp, p.mate), (Some(-40), None));
        let p = ply_record("g", 1, "e2e4".into(), "e4".into(), &t(None), 0, None);
        assert_eq!((p.score_cp, p.mate), (None, None));
        assert_eq!(white_cp(Score::Cp(40), Color::Black), -40);
        assert_eq!(white_cp(Score::Mate(0), Color::White), -MATE_CP);
        assert_eq!(white_cp(Score::Mate(3), Color::Black), -MATE_CP);
        assert_eq!(rounded_ms(Duration::from_micros(1_499)), 1);
        assert_eq!(rounded_ms(Duration::from_micros(1_500)), 2);
    }
}
