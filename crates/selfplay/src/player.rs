//! The two kinds of player a game loop plays: the built-in engine, searched in this process, and
//! an external engine, a process spoken to over UCI ([`crate::external`]).

use crate::engine::EngineSpec;
use crate::external::{External, Request};
use crate::turn::{Failure, Thought, Turn};
use stackchess_core::{Position, Rules};
use stackchess_search::Engine;
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

/// A side of a game: the built-in engine or an external one.
pub enum Player<P: Position> {
    /// The built-in engine.
    Builtin(Box<Engine<P>>),
    /// An engine in another process.
    External(External),
}

impl<P: Position> Player<P> {
    /// The player of `spec`: an external engine (not started until its first game) or the
    /// built-in engine with the spec's settings.
    #[must_use]
    pub fn new(rules: P::Rules, spec: &EngineSpec, stall: Duration) -> Player<P> {
        match &spec.external {
            Some(ext) => Player::External(External::new(ext.clone(), stall)),
            None => Player::Builtin(Box::new(Engine::new(rules, spec.config.clone()))),
        }
    }

    /// Readies the player for a new game (an external engine is started if it is not running).
    ///
    /// # Errors
    /// An external engine that cannot be started or does not answer.
    pub fn new_game(&mut self) -> Result<(), Failure> {
        match self {
            Player::Builtin(e) => {
                e.new_game();
                Ok(())
            }
            Player::External(x) => x.new_game(),
        }
    }

    /// The built-in engine, if this is one.
    pub fn builtin(&mut self) -> Option<&mut Engine<P>> {
        match self {
            Player::Builtin(e) => Some(e),
            Player::External(_) => None,
        }
    }

    /// Asks for a move.
    ///
    /// # Errors
    /// See [`Failure`].
    pub fn think(&mut self, turn: &Turn<'_, P>, halt: &AtomicBool) -> Result<Thought, Failure> {
        match self {
            Player::Builtin(engine) => {
                let searching = Instant::now();
                let r = engine.search(turn.position, turn.history, &turn.limits, halt, &mut |_| {});
                let elapsed = searching.elapsed();
                if halt.load(std::sync::atomic::Ordering::Relaxed) {
                    return Err(Failure::Halted);
                }
                let mv = r.best_move().ok_or_else(|| {
                    Failure::Internal(format!("the engine gave no move in {}", turn.position.to_lfen()))
                })?;
                Ok(Thought { mv, score: Some(r.score), depth: r.depth, seldepth: r.seldepth, nodes: r.nodes, elapsed })
            }
            Player::External(x) => {
                let rules = turn.start.rules();
                let mut position = if turn.start.to_lfen() == rules.startpos().to_lfen() {
                    "startpos".to_owned()
                } else {
                    format!("fen {}", turn.start.to_lfen())
                };
                if !turn.moves.is_empty() {
                    position = format!("{position} moves {}", turn.moves.join(" "));
                }
                let go = go_words(turn);
                let req = Request {
                    position: &position,
                    go: &go,
                    clock_deadline: turn.clock_deadline,
                    movetime: turn.limits.movetime,
                };
                x.think(turn.position, &req, halt)
            }
        }
    }
}

/// The words after `go`: `wtime btime winc binc movestogo` for the sides on a clock, then
/// `nodes`, `depth`, `movetime`.
fn go_words<P: Position>(turn: &Turn<'_, P>) -> String {
    let mut w = Vec::new();
    for (side, (time, inc)) in
        [("w", turn.clocks[0]), ("b", turn.clocks[1])].into_iter().filter_map(|(s, c)| c.map(|c| (s, c)))
    {
        w.push(format!("{side}time {} {side}inc {inc}", time.max(0)));
    }
    let mover_on_clock = turn.clocks[turn.position.turn().index()].is_some();
    if let Some(m) = turn.moves_to_go.filter(|_| mover_on_clock) {
        w.push(format!("movestogo {m}"));
    }
    if let Some(n) = turn.limits.nodes {
        w.push(format!("nodes {n}"));
    }
    if let Some(d) = turn.limits.depth {
        w.push(format!("depth {d}"));
    }
    if let Some(t) = turn.limits.movetime {
        w.push(format!("movetime {}", t.as_millis()));
    }
    if w.is_empty() {
        // No limit at all would be `go infinite`: never sent (a run needs a limit).
        w.push("infinite".into());
    }
    w.join(" ")
}
