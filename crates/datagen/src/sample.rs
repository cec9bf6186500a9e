//! Which positions of a game go into the data: the quiet ones, a few per game, never twice.

use stackchess_core::{parse_coord, Position, Rules, SplitMix64};
use stackchess_search::Engine;
use stackchess_selfplay::{GameRecord, PlyRecord};
use std::collections::HashSet;

/// The quiet filter.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Quiet {
    /// Largest gap, in centipawns, between the static evaluation and the quiescence search.
    pub margin: i32,
    /// Nodes a quiescence search may take (a position that needs more is not quiet).
    pub max_nodes: u64,
}

impl Default for Quiet {
    fn default() -> Self {
        Quiet { margin: 60, max_nodes: 4000 }
    }
}

/// Whether `pos` is quiet: the side to move is not in check, and for it and (after a pass) for
/// the other side the quiescence search finds nothing the static evaluation does not already see
/// (within `q.margin`). A piece left en prise fails the second test, a capture waiting for the
/// mover the first.
pub fn is_quiet<P: Position>(engine: &mut Engine<P>, pos: &P, q: Quiet) -> bool {
    if pos.is_check() {
        return false;
    }
    let calm = |engine: &mut Engine<P>, p: &P| {
        engine.quiescence(p, q.max_nodes).is_some_and(|s| (s - engine.evaluate(p)).abs() <= q.margin)
    };
    if !calm(engine, pos) {
        return false;
    }
    let mut passed = pos.clone();
    passed.play_null();
    calm(engine, &passed)
}

/// A position of a game that may go into the data.
#[derive(Clone, Debug)]
pub struct Candidate<P> {
    /// Its ply in the game (0: the game's start).
    pub ply: u16,
    /// The game's own search score of it, from White's side.
    pub score: i32,
    /// The position.
    pub position: P,
}

/// The candidates of a played game, in ply order: every position before a searched move that
/// was neither a capture nor a promotion, with a centipawn score (no mate).
///
/// # Errors
/// A record whose start or moves do not replay.
pub fn candidates<P: Position>(
    rules: P::Rules,
    record: &GameRecord,
    plies: &[PlyRecord],
) -> Result<Vec<Candidate<P>>, String> {
    let id = &record.game_id;
    let mut pos = rules.from_lfen(&record.start_lfen).map_err(|e| format!("game {id}: start position: {e}"))?;
    let mut out = Vec::new();
    for (i, text) in record.moves.split_whitespace().enumerate() {
        let m = parse_coord(&pos, text).map_err(|e| format!("game {id}: move {}: {e}", i + 1))?;
        let score = plies.get(i).filter(|p| p.mv == text).and_then(|p| p.score_cp);
        if let (Some(cp), Ok(ply)) = (score, u16::try_from(i)) {
            if pos.captured(m).is_none() && m.promotion().is_none() {
                let white = if pos.turn() == stackchess_core::Color::White { cp } else { -cp };
                out.push(Candidate { ply, score: white, position: pos.clone() });
            }
        }
        pos.play_unchecked(m);
    }
    Ok(out)
}

/// The quiet ones among `candidates`, in an order drawn from (`seed`, `game`): the candidates are
/// shuffled and tested in that order until `2k` are quiet (all of them with `k` 0), which leaves
/// [`pick`] room for positions an earlier game took.
pub fn quiet_in_order<P: Position>(
    engine: &mut Engine<P>,
    mut candidates: Vec<Candidate<P>>,
    k: usize,
    quiet: Quiet,
    seed: u64,
    game: u64,
) -> Vec<Candidate<P>> {
    let mut rng = SplitMix64::for_item(seed ^ 0x5EED_DA7A, game);
    for i in (1..candidates.len()).rev() {
        candidates.swap(i, rng.below(i + 1));
    }
    let want = if k == 0 { usize::MAX } else { 2 * k };
    let mut out = Vec::new();
    for c in candidates {
        if out.len() == want {
            break;
        }
        if is_quiet(engine, &c.position, quiet) {
            out.push(c);
        }
    }
    out
}

/// Takes up to `k` of the quiet candidates (all with `k` 0), in their order, leaving out positions
/// already in `seen` and adding the ones taken; returns them in ply order.
pub fn pick<P: Position, S: std::hash::BuildHasher>(
    quiet: Vec<Candidate<P>>,
    k: usize,
    seen: &mut HashSet<u64, S>,
) -> Vec<Candidate<P>> {
    let want = if k == 0 { usize::MAX } else { k };
    let mut taken: Vec<Candidate<P>> = Vec::new();
    for c in quiet {
        if taken.len() == want {
            break;
        }
        if seen.insert(c.position.hash()) {
            taken.push(c);
        }
    }
    taken.sort_by_key(|c| c.ply);
    taken
}
