//! Helpers shared by the integration tests: a brute-force mate solver and position builders.

#![allow(dead_code)]

use stackchess_core::Rules as _;
use stackchess_core::{Cell, Move, Piece, Position};

/// The moves of `pos`, checking moves first (order only speeds up finding a mate; all are tried).
fn checks_first<P: Position>(pos: &P) -> Vec<Move> {
    let (mut checks, quiet): (Vec<Move>, Vec<Move>) = pos.moves().iter().partition(|&&m| {
        let mut q = pos.clone();
        q.play_unchecked(m);
        q.is_check()
    });
    checks.extend(quiet);
    checks
}

/// Whether `m` (legal in `pos`) forces mate within `n` moves of the mover, `m` included, by
/// exhaustive search: every defence is tried, and every attacking move at each later turn.
pub fn mates_with<P: Position>(pos: &P, m: Move, n: u32) -> bool {
    let mut q = pos.clone();
    q.play_unchecked(m);
    let replies = q.moves();
    if replies.is_empty() {
        return q.is_check();
    }
    n > 1
        && replies.iter().all(|&r| {
            let mut s = q.clone();
            s.play_unchecked(r);
            mate_in(&s, n - 1)
        })
}

/// Whether the side to move can force mate within `n` of its moves (exhaustive search).
pub fn mate_in<P: Position>(pos: &P, n: u32) -> bool {
    n > 0 && checks_first(pos).into_iter().any(|m| mates_with(pos, m, n))
}

/// The exact mate distance of `pos` for the side to move, if it is at most `max`.
pub fn mate_distance<P: Position>(pos: &P, max: u32) -> Option<u32> {
    (1..=max).find(|&n| mate_in(pos, n))
}

/// An LFEN from pieces on cells, for `P`'s level count.
pub fn lfen<P: Position>(pieces: &[(Cell, Piece)], white_to_move: bool) -> String {
    let mut levels = Vec::new();
    for l in 0..P::LEVELS {
        let mut ranks = Vec::new();
        for r in (0..8).rev() {
            let mut s = String::new();
            let mut empty = 0;
            for f in 0..8 {
                let c = Cell::from_index(l * 64 + r * 8 + f);
                match pieces.iter().find(|(pc, _)| *pc == c) {
                    Some((_, p)) => {
                        if empty > 0 {
                            s.push_str(&empty.to_string());
                            empty = 0;
                        }
                        s.push(p.char());
                    }
                    None => empty += 1,
                }
            }
            if empty > 0 {
                s.push_str(&empty.to_string());
            }
            ranks.push(s);
        }
        levels.push(ranks.join("/"));
    }
    format!("{} {} - - 0 1", levels.join("|"), if white_to_move { 'w' } else { 'b' })
}

/// The same position with colours swapped and the board turned around (ranks reversed, and levels
/// too where the armies start on different levels), the other side to move.
pub fn mirror<P: Position>(pos: &P) -> P {
    let rules = pos.rules();
    let mut kings = [0usize; 2];
    rules.startpos().for_each_piece(|c, p| {
        if p.role == stackchess_core::Role::King {
            kings[p.color.index()] = c.level();
        }
    });
    let flip_levels = kings[0] != kings[1];
    let mut pieces = Vec::new();
    pos.for_each_piece(|c, p| {
        let level = if flip_levels { P::LEVELS - 1 - c.level() } else { c.level() };
        let cell = Cell::from_index(level * 64 + (7 - c.rank()) * 8 + c.file());
        pieces.push((cell, Piece { color: p.color.other(), role: p.role }));
    });
    let text = lfen::<P>(&pieces, pos.turn() == stackchess_core::Color::Black);
    rules.from_lfen(&text).unwrap_or_else(|e| panic!("mirror of {} is {text}: {e}", pos.to_lfen()))
}

/// A fresh full engine's search of `pos` to `depth`.
pub fn search_depth<P: Position>(pos: &P, depth: u32) -> stackchess_search::Report {
    search_depth_with(pos, depth, full(pos.rules().name()))
}

/// [`search_depth`] with the settings `config`.
pub fn search_depth_with<P: Position>(
    pos: &P,
    depth: u32,
    config: stackchess_search::SearchConfig,
) -> stackchess_search::Report {
    let rules = pos.rules();
    let mut e = stackchess_search::Engine::<P>::new(rules, config);
    let stop = std::sync::atomic::AtomicBool::new(false);
    e.search(pos, &[], &stackchess_search::Limits::depth(depth), &stop, &mut |_| {})
}

/// The full engine the preset of the built-in variant `name` describes (its `search.` keys too).
pub fn full(name: &str) -> stackchess_search::SearchConfig {
    let v: stackchess_variants::Variant = name.parse().expect("a built-in variant");
    stackchess_search::SearchConfig::preset(v.eval_params().expect("a preset")).expect("a valid preset")
}

/// The evaluation preset of the built-in variant `name`.
pub fn preset(name: &str) -> stackchess_search::EvalParams {
    full(name).eval
}

/// An LFEN placement with its pawns taken off (runs of empty cells merged).
pub fn without_pawns(lfen: &str) -> String {
    let (placement, rest) = lfen.split_once(' ').unwrap();
    let rank = |r: &str| {
        let mut out = String::new();
        let mut empty = 0;
        for ch in r.chars() {
            match ch {
                'p' | 'P' => empty += 1,
                d if d.is_ascii_digit() => empty += d.to_digit(10).unwrap(),
                c => {
                    if empty > 0 {
                        out.push_str(&empty.to_string());
                        empty = 0;
                    }
                    out.push(c);
                }
            }
        }
        if empty > 0 {
            out.push_str(&empty.to_string());
        }
        out
    };
    let levels: Vec<String> =
        placement.split('|').map(|l| l.split('/').map(rank).collect::<Vec<_>>().join("/")).collect();
    format!("{} {rest}", levels.join("|"))
}
