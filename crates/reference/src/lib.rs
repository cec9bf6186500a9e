//! Reference move generator for stackchess: slow, independent and obviously correct.
//!
//! It reads the TOML rule files of `docs/rule-files.md` (with serde and the `toml` crate) and
//! plays them as that page and `shared/RULES.md` say, written from those two texts alone: no
//! code of the fast generators was read to write it. The board is a plain array of cells
//! (mailbox); pieces walk their direction vectors one step at a time, up to their range; a move
//! is legal when, made on a copy, it does not leave the mover's king attacked; and a cell is
//! attacked when some pseudo-move of the attacker, normal or transfer (geometric: the promotion
//! pool and the attacker's own king do not matter), could capture a piece standing on it. It
//! exists to be compared with the fast generator on many positions; speed is not a goal.
//!
//! [`Reference`] is one rule set: a built-in ([`Reference::builtin`]: the crates' own rule
//! files, compiled in) or any rule file ([`Reference::from_toml`]). Moves are written in
//! level-prefixed coordinate notation for every rule set (`1e21e4`, `2a73a8q`, castling as the
//! king's move `1e11g1`); positions in LFEN, which for a one-level rule set is plain FEN.
//!
//! The free functions ([`legal_moves`], [`perft`], ...) take a built-in rule set's name and are
//! thin wrappers over [`Reference::builtin`].

mod board;
mod lfen;
mod movegen;
mod rule_file;
mod rules;
#[cfg(test)]
mod tests;

use board::{Color, Kind, Position};
use movegen::Move;
use rules::{Rules, Stalemate};

/// One rule set, ready to generate moves.
#[derive(Clone, Debug)]
pub struct Reference {
    rules: Rules,
}

impl Reference {
    /// Reads a rule file; `base` gives the text of a built-in rule file by name (for
    /// `base = "..."`). A user file may not take a built-in's name unless its rules are that
    /// built-in's (so the built-in files themselves load).
    ///
    /// # Errors
    /// Bad TOML or any refusal of the doc's "Validation" section, naming the key (and the line
    /// where the file gives it).
    pub fn from_toml(text: &str, base: &dyn Fn(&str) -> Option<String>) -> Result<Reference, String> {
        Ok(Reference { rules: rule_file::read(text, base, true)? })
    }

    /// A built-in rule set: "malka", "traditional", "fide" or "air-attack".
    ///
    /// # Errors
    /// An unknown name.
    pub fn builtin(name: &str) -> Result<Reference, String> {
        let text = rule_file::builtin_text(name)
            .ok_or_else(|| format!("unknown variant {name:?} (expected malka, traditional, fide or air-attack)"))?;
        let base = |n: &str| rule_file::builtin_text(n).map(str::to_string);
        Ok(Reference { rules: rule_file::read(text, &base, false)? })
    }

    /// Whether `other` is the same rule set (its name aside).
    #[must_use]
    pub fn same_rules(&self, other: &Reference) -> bool {
        self.rules.same_rules(&other.rules)
    }

    /// The rule set's name.
    #[must_use]
    pub fn name(&self) -> &str {
        &self.rules.name
    }

    /// Number of stacked levels.
    #[must_use]
    pub fn levels(&self) -> usize {
        self.rules.levels as usize
    }

    /// The start position as LFEN, with the castling rights of the start placement.
    #[must_use]
    pub fn start_lfen(&self) -> String {
        lfen::write(&self.rules.start_position())
    }

    fn position(&self, lfen: &str) -> Result<Position, String> {
        lfen::parse(&self.rules, lfen)
    }

    /// Legal moves of the side to move: sorted, deduplicated, level-prefixed coordinates.
    ///
    /// # Errors
    /// A bad LFEN, as text.
    pub fn legal_moves(&self, lfen: &str) -> Result<Vec<String>, String> {
        let pos = self.position(lfen)?;
        let mut moves: Vec<String> = movegen::legal_moves(&self.rules, &pos).iter().map(Move::notation).collect();
        moves.sort();
        moves.dedup();
        Ok(moves)
    }

    /// Number of leaves of the legal move tree of `depth` plies.
    ///
    /// # Errors
    /// A bad LFEN, as text.
    pub fn perft(&self, lfen: &str, depth: u32) -> Result<u64, String> {
        let pos = self.position(lfen)?;
        Ok(movegen::perft(&self.rules, &pos, depth))
    }

    /// Plays one move given in coordinate notation (`1e21e4`, `1e2-1e4`, `2a7x3b8q`, `3a8=Q`,
    /// and on one level also `e2e4`) and returns the resulting LFEN. The en-passant cell is
    /// written after every double step when the rule set has en passant.
    ///
    /// # Errors
    /// A bad LFEN, a malformed move or an illegal one, as text.
    pub fn play(&self, lfen: &str, mv: &str) -> Result<String, String> {
        let pos = self.position(lfen)?;
        let wanted = parse_move(pos.levels, mv)?;
        let m = movegen::legal_moves(&self.rules, &pos)
            .into_iter()
            .find(|m| m.notation() == wanted)
            .ok_or_else(|| format!("illegal move {mv:?}"))?;
        Ok(lfen::write(&movegen::make(&self.rules, &pos, &m)))
    }

    /// Whether the side to move's king is attacked.
    ///
    /// # Errors
    /// A bad LFEN, as text.
    pub fn in_check(&self, lfen: &str) -> Result<bool, String> {
        let pos = self.position(lfen)?;
        Ok(movegen::king_attacked(&self.rules, &pos, pos.side))
    }

    /// How the game stands by the rule set's draw rules (not repetition, which needs the
    /// game's history): `("checkmate" | "stalemate" | "fifty-moves" | "dead-material", winner)`
    /// with the winner `"white"`, `"black"` or `None` for a draw; `None` while the game goes on.
    /// Checkmate and stalemate come first, then the fifty-move rule, then dead material.
    ///
    /// # Errors
    /// A bad LFEN, as text.
    pub fn outcome(&self, lfen: &str) -> Result<Option<(String, Option<String>)>, String> {
        let rules = &self.rules;
        let pos = self.position(lfen)?;
        let side = pos.side;
        let name = |c: Color| Some(c.name().to_string());
        if movegen::legal_moves(rules, &pos).is_empty() {
            if movegen::king_attacked(rules, &pos, side) {
                return Ok(Some(("checkmate".to_string(), name(side.other()))));
            }
            // The stalemate value is the result for the stalemated side, the side to move.
            let winner = match rules.draws.stalemate {
                Stalemate::Draw => None,
                Stalemate::Win => name(side),
                Stalemate::Loss => name(side.other()),
            };
            return Ok(Some(("stalemate".to_string(), winner)));
        }
        let fifty = rules.draws.fifty_moves;
        if fifty > 0 && u64::from(pos.halfmove) >= fifty.saturating_mul(2) {
            return Ok(Some(("fifty-moves".to_string(), None)));
        }
        if rules.draws.insufficient_material {
            // K v K, K+B v K, K+N v K: besides the kings, nothing or one bishop or knight.
            let others: Vec<Kind> = pos.pieces().map(|(_, p)| p.kind).filter(|&k| k != Kind::King).collect();
            if matches!(others.as_slice(), [] | [Kind::Bishop | Kind::Knight]) {
                return Ok(Some(("dead-material".to_string(), None)));
            }
        }
        Ok(None)
    }
}

/// The text of a built-in rule file ("malka", "traditional", "fide", "air-attack"), as the
/// reference compiles it in (for a user file's `base = "..."`).
#[must_use]
pub fn builtin_text(name: &str) -> Option<&'static str> {
    rule_file::builtin_text(name)
}

/// Legal moves of the side to move, sorted, in level-prefixed coordinate notation.
/// `variant` is one of "malka", "traditional", "fide", "air-attack".
///
/// # Errors
/// An unknown variant or a bad LFEN, as text.
pub fn legal_moves(variant: &str, lfen: &str) -> Result<Vec<String>, String> {
    Reference::builtin(variant)?.legal_moves(lfen)
}

/// Number of leaves of the legal move tree of `depth` plies.
///
/// # Errors
/// An unknown variant or a bad LFEN, as text.
pub fn perft(variant: &str, lfen: &str, depth: u32) -> Result<u64, String> {
    Reference::builtin(variant)?.perft(lfen, depth)
}

/// Plays one move given in coordinate notation (`1e21e4`, `1e2-1e4`, `2a7x3b8q`, and for
/// fide also `e2e4`) and returns the resulting LFEN.
///
/// # Errors
/// An unknown variant or a bad LFEN or move, as text.
pub fn play(variant: &str, lfen: &str, mv: &str) -> Result<String, String> {
    Reference::builtin(variant)?.play(lfen, mv)
}

/// Start position of a variant as LFEN.
///
/// # Errors
/// An unknown variant, as text.
pub fn start_lfen(variant: &str) -> Result<String, String> {
    Ok(Reference::builtin(variant)?.start_lfen())
}

/// Whether the side to move's king is attacked.
///
/// # Errors
/// An unknown variant or a bad LFEN, as text.
pub fn in_check(variant: &str, lfen: &str) -> Result<bool, String> {
    Reference::builtin(variant)?.in_check(lfen)
}

/// Normalises a coordinate move to the level-prefixed form of [`Move::notation`].
fn parse_move(levels: i32, mv: &str) -> Result<String, String> {
    let err = || format!("bad move {mv:?}: expected e.g. 1e21e4 or 2a73a8q");
    let s: String = mv.trim().chars().filter(|&c| c != '-' && c != 'x').collect();
    let (from, rest) = lfen::parse_cell_prefix(levels, &s).ok_or_else(err)?;
    let (to, rest) = lfen::parse_cell_prefix(levels, rest).ok_or_else(err)?;
    let rest = rest.strip_prefix('=').unwrap_or(rest);
    let mut out = format!("{from}{to}");
    match rest.chars().collect::<Vec<_>>().as_slice() {
        [] => {}
        [c] if "qrbnQRBN".contains(*c) => out.push(c.to_ascii_lowercase()),
        _ => return Err(err()),
    }
    Ok(out)
}
