//! Reading PGN files as opening suites: tags and movetext, moves in SAN or coordinate notation
//! (our own `games.pgn`, in every rule set, and standard chess PGN), resolved with the move
//! generator. Comments, variations, NAGs, move numbers and results are skipped.

use crate::Error;
use stackchess_core::{parse_move, Move, Position, Rules};

/// A game of a PGN file, its moves not yet resolved.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PgnGame {
    /// The line where it starts, from 1.
    pub line: usize,
    /// Its tags in order.
    pub tags: Vec<(String, String)>,
    /// Its move tokens, each with its line.
    pub moves: Vec<(String, usize)>,
}

impl PgnGame {
    /// The value of tag `name`.
    #[must_use]
    pub fn tag(&self, name: &str) -> Option<&str> {
        self.tags.iter().find(|(k, _)| k == name).map(|(_, v)| v.as_str())
    }
}

/// The games of a PGN text. `Err((line, message))` when the text is not PGN.
///
/// # Errors
/// An unterminated tag, comment or variation, or a tag without a quoted value.
pub fn split_games(text: &str) -> Result<Vec<PgnGame>, (usize, String)> {
    let mut games: Vec<PgnGame> = Vec::new();
    let mut current: Option<PgnGame> = None;
    let mut in_moves = false;
    let chars: Vec<char> = text.chars().collect();
    let (mut i, mut line) = (0, 1);
    while i < chars.len() {
        let c = chars[i];
        let at_line_start = i == 0 || chars[i - 1] == '\n';
        match c {
            '\n' => {
                line += 1;
                i += 1;
            }
            c if c.is_whitespace() => i += 1,
            '%' if at_line_start => i = skip_until(&chars, i, '\n', &mut line).unwrap_or(chars.len()),
            ';' => i = skip_until(&chars, i, '\n', &mut line).unwrap_or(chars.len()),
            '{' => {
                let start = line;
                i = skip_until(&chars, i, '}', &mut line).ok_or((start, "a comment '{' is never closed".into()))? + 1;
            }
            '(' => {
                let (start, mut depth) = (line, 0);
                loop {
                    match chars.get(i) {
                        None => return Err((start, "a variation '(' is never closed".into())),
                        Some('(') => depth += 1,
                        Some(')') => depth -= 1,
                        Some('{') => i = skip_until(&chars, i, '}', &mut line).unwrap_or(chars.len() - 1),
                        Some('\n') => line += 1,
                        _ => {}
                    }
                    i += 1;
                    if depth == 0 {
                        break;
                    }
                }
            }
            '[' => {
                let start = line;
                let end = skip_until(&chars, i, ']', &mut line).ok_or((start, "a tag '[' is never closed".into()))?;
                let body: String = chars[i + 1..end].iter().collect();
                let tag = parse_tag(&body).ok_or((start, format!("not a tag: [{body}]")))?;
                if in_moves || current.is_none() {
                    games.extend(current.take());
                    current = Some(PgnGame { line: start, tags: Vec::new(), moves: Vec::new() });
                    in_moves = false;
                }
                if let Some(g) = current.as_mut() {
                    g.tags.push(tag);
                }
                i = end + 1;
            }
            // A closer with nothing open (it would end no token, and the scan would stand still).
            '}' | ')' | ']' => return Err((line, format!("a '{c}' that closes nothing"))),
            _ => {
                let start = i;
                while i < chars.len() && !chars[i].is_whitespace() && !"{}()[];".contains(chars[i]) {
                    i += 1;
                }
                let token: String = chars[start..i].iter().collect();
                let g = current.get_or_insert_with(|| PgnGame { line, tags: Vec::new(), moves: Vec::new() });
                in_moves = true;
                if matches!(token.as_str(), "1-0" | "0-1" | "1/2-1/2" | "*") {
                    games.extend(current.take());
                    in_moves = false;
                    continue;
                }
                // `12.`, `12...`, `12.e4`: the move number is dropped; `$1` is a NAG.
                let digits = token.trim_start_matches(|c: char| c.is_ascii_digit());
                let mv = if digits.len() < token.len() && digits.starts_with('.') {
                    digits.trim_start_matches('.')
                } else {
                    &token
                };
                if !mv.is_empty() && !mv.starts_with('$') {
                    g.moves.push((mv.to_owned(), line));
                }
            }
        }
    }
    games.extend(current);
    Ok(games)
}

/// The index of the next `end` from `i`, counting the lines passed.
fn skip_until(chars: &[char], mut i: usize, end: char, line: &mut usize) -> Option<usize> {
    i += 1;
    while i < chars.len() {
        if chars[i] == end {
            return Some(i);
        }
        if chars[i] == '\n' {
            *line += 1;
        }
        i += 1;
    }
    None
}

/// `Name "value"` (with `\"` and `\\` escapes).
fn parse_tag(body: &str) -> Option<(String, String)> {
    let (name, rest) = body.trim().split_once(char::is_whitespace)?;
    let rest = rest.trim().strip_prefix('"')?.strip_suffix('"')?;
    let (mut value, mut escaped) = (String::new(), false);
    for c in rest.chars() {
        if !escaped && c == '\\' {
            escaped = true;
        } else {
            value.push(c);
            escaped = false;
        }
    }
    Some((name.to_owned(), value))
}

/// Where a PGN game leaves an opening: moves from the start position, or (a game with a `[FEN]`
/// or `[LFEN]` start elsewhere) the position reached, as LFEN.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PgnOpening {
    /// The moves from the rule set's start position.
    Moves(Vec<Move>),
    /// The position reached from a set-up start.
    Position(String),
}

/// The openings of the PGN text of `file` (named in errors): for each game, its first `plies`
/// moves (all without a limit).
///
/// # Errors
/// Text that is not PGN, a game of another variant, a bad start position or an illegal move
/// (naming the file, the game and the move), a game over, or no games.
pub fn pgn_openings<P: Position>(
    rules: P::Rules,
    file: &str,
    text: &str,
    plies: Option<u32>,
) -> Result<Vec<PgnOpening>, Error> {
    let games = split_games(text).map_err(|(line, m)| Error::Openings(format!("{file}, line {line}: {m}")))?;
    if games.is_empty() {
        return Err(Error::Openings(format!("{file}: no games")));
    }
    let mut out = Vec::with_capacity(games.len());
    for (n, g) in games.iter().enumerate() {
        let at = |m: String| Error::Openings(format!("{file}, game {} (line {}): {m}", n + 1, g.line));
        if let Some(v) = g.tag("Variant").filter(|v| !v.eq_ignore_ascii_case(rules.name())) {
            return Err(at(format!("[Variant \"{v}\"], but the run plays {}", rules.name())));
        }
        let set_up = g.tag("LFEN").or_else(|| g.tag("FEN"));
        let mut pos = match set_up {
            Some(lfen) => rules.from_lfen(lfen).map_err(|e| at(format!("its start position: {e}")))?,
            None => rules.startpos(),
        };
        // Our 3D games name their start in `[LFEN]` even when it is the rule set's.
        let from_start = pos.to_lfen() == rules.startpos().to_lfen();
        let limit = plies.map_or(usize::MAX, |k| k as usize);
        let mut moves = Vec::new();
        for (k, (token, line)) in g.moves.iter().take(limit).enumerate() {
            let m = parse_move(&pos, token)
                .map_err(|e| at(format!("move {} '{token}' (line {line}): {}", k / 2 + 1, e.reason)))?;
            pos.play_unchecked(m);
            moves.push(m);
        }
        if pos.outcome().is_some() {
            return Err(at(format!("the game is over after its {} plies: no opening", moves.len())));
        }
        out.push(if from_start { PgnOpening::Moves(moves) } else { PgnOpening::Position(pos.to_lfen()) });
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use stackchess_traditional::Fide;

    fn fide() -> <Fide as Position>::Rules {
        stackchess_traditional::fide_rules()
    }

    /// Found by the `pgn` fuzz target: a stray `}`, `)` or `]` after a move stopped the scan in
    /// its place forever (the move token ended before it, and nothing else took it).
    #[test]
    fn a_closer_with_nothing_open_is_an_error_not_a_hang() {
        for text in ["1. e4 } e5 *", "1. e4) e5", "[Event \"x\"]\n1. e4 e5]"] {
            let (line, m) = split_games(text).expect_err(text);
            assert!(m.contains("closes nothing") && line >= 1, "{text}: {m}");
        }
    }

    #[test]
    fn tags_comments_variations_and_numbers_are_read_or_skipped() {
        let text = "[Event \"a \\\"b\\\"\"]\n[Result \"*\"]\n\n1. e4 {best; by test} e5 (1... c5 {x} 2. Nf3) \
                    2.Nf3 $1 Nc6 ; rest\n% escaped line\n3. Bb5 a6 *\n\n[Event \"two\"]\n1. d4 1-0\n";
        let games = split_games(text).unwrap();
        assert_eq!(games.len(), 2);
        assert_eq!(games[0].tag("Event"), Some("a \"b\""));
        let moves: Vec<&str> = games[0].moves.iter().map(|(m, _)| m.as_str()).collect();
        assert_eq!(moves, ["e4", "e5", "Nf3", "Nc6", "Bb5", "a6"]);
        assert_eq!((games[1].line, games[1].moves[0].1), (8, 9));
        for (bad, want) in
            [("1. e4 {open", "line 1: a comment"), ("[Event \"x\"\n1. e4", "line 1: a tag"), ("1. e4 (e5", "variation")]
        {
            let (line, m) = split_games(bad).unwrap_err();
            assert!(format!("line {line}: {m}").contains(want), "{bad}: {m}");
        }
    }

    #[test]
    fn openings_are_cut_and_bad_moves_are_named() {
        let text = "1. e4 e5 2. Nf3 *\n\n[SetUp \"1\"]\n[FEN \"4k3/8/8/8/8/8/4P3/4K3 w - - 0 1\"]\n1. e2e4 Kd7 *\n";
        let all = pgn_openings::<Fide>(fide(), "o.pgn", text, None).unwrap();
        let cut = pgn_openings::<Fide>(fide(), "o.pgn", text, Some(1)).unwrap();
        let PgnOpening::Moves(m) = &all[0] else { panic!("{all:?}") };
        assert_eq!(m.len(), 3);
        assert_eq!(cut[0], PgnOpening::Moves(m[..1].to_vec()));
        assert_eq!(all[1], PgnOpening::Position("8/3k4/8/8/4P3/8/8/4K3 w - - 1 2".into()));
        assert_eq!(cut[1], PgnOpening::Position("4k3/8/8/8/4P3/8/8/4K3 b - e3 0 1".into()));
        let e = pgn_openings::<Fide>(fide(), "o.pgn", "1. e4 e5\n2. Ke3 *", None).unwrap_err().to_string();
        assert!(e.contains("o.pgn, game 1 (line 1): move 2 'Ke3' (line 2)"), "{e}");
        let e = pgn_openings::<Fide>(fide(), "o.pgn", "1. e4 *\n[Variant \"malka\"]\n*", None).unwrap_err().to_string();
        assert!(e.contains("game 2 (line 2): [Variant \"malka\"]"), "{e}");
        let mate = "1. f3 e5 2. g4 Qh4# 0-1";
        assert!(pgn_openings::<Fide>(fide(), "o.pgn", mate, None).unwrap_err().to_string().contains("over"));
        assert!(pgn_openings::<Fide>(fide(), "o.pgn", "\n", None).unwrap_err().to_string().contains("no games"));
    }
}
