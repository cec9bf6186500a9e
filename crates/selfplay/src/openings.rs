//! Where games start: the start position, a few random legal plies, positions from a file, or
//! positions the caller computed (lines walked in an opening book).

use crate::pgn_read::{pgn_openings, PgnOpening};
use crate::Error;
use stackchess_core::{Move, Position, Rules, SplitMix64};
use std::path::Path;

/// How openings are chosen. Opening `k` (the `pair` column) is a function of the run's seed and
/// `k` alone.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Openings {
    /// Every game from the start position.
    Start,
    /// `plies` random legal plies from the start position, drawn from `SplitMix64::for_item(seed, k)`.
    Random {
        /// Plies to play.
        plies: u32,
    },
    /// LFEN lines from a file (blank lines and `#` comments skipped), used in order and cycled.
    File {
        /// The file as given.
        path: String,
        /// The positions.
        lines: Vec<String>,
        /// FNV-1a hash of the file's bytes, so a changed file changes the run key.
        hash: u64,
        /// Whether the lines were shuffled by the run's seed (else in file order).
        shuffled: bool,
    },
    /// The games of a PGN file (`*.pgn`), used in order and cycled: opening `k` is where game
    /// `k` leaves, after its first `plies` moves when given.
    Pgn {
        /// The file as given.
        path: String,
        /// Each game's opening.
        games: Vec<PgnOpening>,
        /// FNV-1a hash of the file's bytes.
        hash: u64,
        /// The moves kept of each game (`--opening-plies`); all without a limit.
        plies: Option<u32>,
        /// Whether the games were shuffled by the run's seed (else in file order).
        shuffled: bool,
    },
    /// Lines computed by the caller (for example, walked in an opening book): opening `k` is the
    /// position after the moves `lines[k]` from the start position (cycled if the run needs
    /// more). Give as many lines as the run has openings, each a function of the seed and `k`,
    /// so resumed and extended runs agree.
    Lines {
        /// How the lines were made, as recorded in the run key (e.g. `book:PATH#HASH:K`).
        name: String,
        /// The moves of each line, from the start position.
        lines: Vec<Vec<Move>>,
    },
}

/// An opening: where a game starts, and the plies from the start position that lead there when
/// they are known.
#[derive(Clone, Debug)]
pub struct Opening<P> {
    /// The position the game starts from.
    pub position: P,
    /// The moves from the rule set's start position to `position`: empty for the start position,
    /// `None` when not known (openings from a file).
    pub moves: Option<Vec<Move>>,
}

impl Openings {
    /// Reads `start`, `random:K`, or a file path (whose lines must be valid LFEN for `P`, or EPD
    /// records for a one-level rule set; `#` comments).
    ///
    /// # Errors
    /// A bad `random:` count, an unreadable file, or an invalid line (with its number).
    pub fn parse<P: Position>(rules: P::Rules, spec: &str) -> Result<Openings, Error> {
        Openings::parse_with::<P>(rules, spec, None)
    }

    /// As [`Openings::parse`], and a file named `*.pgn` is read as PGN games (SAN or coordinate
    /// moves, from the start position or a `[FEN]`/`[LFEN]` tag), of which the first `plies`
    /// moves are kept when given.
    ///
    /// # Errors
    /// As [`Openings::parse`]; `plies` for openings other than PGN; malformed PGN (naming the
    /// file, the game and the move).
    pub fn parse_with<P: Position>(rules: P::Rules, spec: &str, plies: Option<u32>) -> Result<Openings, Error> {
        let is_pgn = Path::new(spec).extension().is_some_and(|e| e.eq_ignore_ascii_case("pgn"));
        if plies.is_some() && !is_pgn {
            return Err(Error::Openings(format!(
                "'{spec}': a limit of opening plies applies to PGN files (*.pgn) only"
            )));
        }
        if spec == "start" {
            return Ok(Openings::Start);
        }
        if let Some(k) = spec.strip_prefix("random:") {
            let plies = k
                .parse()
                .map_err(|_| Error::Openings(format!("'{spec}': expected random:K with K a number of plies")))?;
            return Ok(Openings::Random { plies });
        }
        let path = Path::new(spec);
        let bytes = std::fs::read(path).map_err(|e| Error::io(path, e))?;
        let hash = fnv1a(&bytes);
        let text = String::from_utf8(bytes).map_err(|_| Error::Openings(format!("{spec}: not UTF-8 text")))?;
        if is_pgn {
            let games = pgn_openings::<P>(rules, spec, &text, plies)?;
            return Ok(Openings::Pgn { path: spec.to_owned(), games, hash, plies, shuffled: false });
        }
        let mut lines = Vec::new();
        for (i, raw) in text.lines().enumerate() {
            let line = position_text(raw);
            if line.is_empty() {
                continue;
            }
            let pos = rules.from_lfen(&line).map_err(|e| Error::Openings(format!("{spec}, line {}: {e}", i + 1)))?;
            if pos.outcome().is_some() {
                return Err(Error::Openings(format!("{spec}, line {}: the game is already over here", i + 1)));
            }
            lines.push(line);
        }
        if lines.is_empty() {
            return Err(Error::Openings(format!("{spec}: no positions")));
        }
        Ok(Openings::File { path: spec.to_owned(), lines, hash, shuffled: false })
    }

    /// The same openings in an order shuffled by `seed` (deterministic), for openings from a
    /// file (`--openings-order random`).
    ///
    /// # Errors
    /// For openings that are not read from a file.
    pub fn shuffled(self, seed: u64) -> Result<Openings, Error> {
        let mut rng = SplitMix64::for_item(seed, u64::MAX);
        let mut shuffle = |n: usize, swap: &mut dyn FnMut(usize, usize)| {
            for i in (1..n).rev() {
                swap(i, rng.below(i + 1));
            }
        };
        match self {
            Openings::File { path, mut lines, hash, .. } => {
                shuffle(lines.len(), &mut |i, j| lines.swap(i, j));
                Ok(Openings::File { path, lines, hash, shuffled: true })
            }
            Openings::Pgn { path, mut games, hash, plies, .. } => {
                shuffle(games.len(), &mut |i, j| games.swap(i, j));
                Ok(Openings::Pgn { path, games, hash, plies, shuffled: true })
            }
            other => Err(Error::Openings(format!(
                "{}: --openings-order random applies to openings from a file (LFEN, EPD or PGN)",
                other.describe()
            ))),
        }
    }

    /// The specification as recorded: `start`, `random:K`, `file:PATH#HASH`, or a `Lines` name.
    #[must_use]
    pub fn describe(&self) -> String {
        match self {
            Openings::Start => "start".to_owned(),
            Openings::Random { plies } => format!("random:{plies}"),
            Openings::File { path, hash, shuffled, .. } => format!("file:{path}#{hash:016x}{}", order(*shuffled)),
            Openings::Pgn { path, hash, plies, shuffled, .. } => {
                let plies = plies.map(|k| format!(":{k}")).unwrap_or_default();
                format!("pgn:{path}#{hash:016x}{plies}{}", order(*shuffled))
            }
            Openings::Lines { name, .. } => name.clone(),
        }
    }

    /// Opening number `k`, with its plies from the start position when they are known (for
    /// `start`, `random:K` and given lines). `accept` may reject a random opening (for example,
    /// when a short search finds it lopsided); another is then drawn from the same generator.
    ///
    /// # Errors
    /// When no acceptable random opening turns up in 1000 tries, there are no lines, or a given
    /// line is not legal.
    pub fn opening<P: Position>(
        &self,
        rules: P::Rules,
        seed: u64,
        k: u64,
        mut accept: impl FnMut(&P) -> bool,
    ) -> Result<Opening<P>, Error> {
        let pick = |n: usize| usize::try_from(k % n as u64).unwrap_or(0);
        match self {
            Openings::Start => Ok(Opening { position: rules.startpos(), moves: Some(Vec::new()) }),
            Openings::File { lines, .. } => {
                if lines.is_empty() {
                    return Err(Error::Openings(format!("{}: no positions", self.describe())));
                }
                let position = rules
                    .from_lfen(&lines[pick(lines.len())])
                    .map_err(|e| Error::Openings(format!("opening {k}: {e}")))?;
                Ok(Opening { position, moves: None })
            }
            Openings::Lines { lines, .. } => {
                if lines.is_empty() {
                    return Err(Error::Openings(format!("{}: no lines", self.describe())));
                }
                line_opening(rules, k, &lines[pick(lines.len())])
            }
            Openings::Pgn { games, .. } => match games.get(pick(games.len().max(1))) {
                None => Err(Error::Openings(format!("{}: no games", self.describe()))),
                Some(PgnOpening::Moves(moves)) => line_opening(rules, k, moves),
                Some(PgnOpening::Position(lfen)) => {
                    let position = rules.from_lfen(lfen).map_err(|e| Error::Openings(format!("opening {k}: {e}")))?;
                    Ok(Opening { position, moves: None })
                }
            },
            Openings::Random { plies } => {
                let mut rng = SplitMix64::for_item(seed, k);
                for _ in 0..TRIES {
                    if let Some((position, moves)) = random_walk::<P>(rules, &mut rng, *plies) {
                        if accept(&position) {
                            return Ok(Opening { position, moves: Some(moves) });
                        }
                    }
                }
                Err(Error::Openings(format!("no acceptable opening of {plies} random plies found for opening {k}")))
            }
        }
    }
}

/// ` shuffled` for a shuffled order, nothing for the file's.
fn order(shuffled: bool) -> &'static str {
    if shuffled {
        " shuffled"
    } else {
        ""
    }
}

/// Opening `k` reached by `moves` from the start position.
fn line_opening<P: Position>(rules: P::Rules, k: u64, moves: &[Move]) -> Result<Opening<P>, Error> {
    let mut position = rules.startpos();
    for (i, &m) in moves.iter().enumerate() {
        position.play(m).map_err(|e| Error::Openings(format!("opening {k}, ply {}: {e}", i + 1)))?;
    }
    Ok(Opening { position, moves: Some(moves.to_vec()) })
}

/// The position of an openings-file line: LFEN (clocks optional), or an EPD record (the four
/// position fields, its operations such as `ce 12;` ignored); `#` starts a comment.
fn position_text(line: &str) -> String {
    let line = line.split('#').next().unwrap_or("").trim();
    let fields: Vec<&str> = line.split_whitespace().collect();
    // EPD: operations (an opcode starts with a letter) follow the four position fields.
    if fields.len() > 4 && fields[4].starts_with(|c: char| c.is_ascii_alphabetic()) {
        return fields[..4].join(" ");
    }
    line.to_owned()
}

/// Random openings drawn for one opening number before giving up.
const TRIES: usize = 1000;

impl Openings {
    /// The moves from the start position that led to opening `k`'s position `start` (a record's
    /// `start_lfen`), for version-1 records, which do not hold them (version 2 has the
    /// `opening_moves` column): none for [`Openings::Start`]; for [`Openings::Random`], the random
    /// plies, found again by drawing the run's walks until one reaches `start` (walks the run's
    /// filter rejected are drawn and skipped the same way). `None` when they cannot be told:
    /// openings from a file or given lines, or a `start` no walk reaches.
    #[must_use]
    pub fn opening_moves<P: Position>(&self, seed: u64, k: u64, start: &P) -> Option<Vec<Move>> {
        match self {
            Openings::Start => (start.hash() == start.rules().startpos().hash()).then(Vec::new),
            Openings::Random { plies } => {
                let mut rng = SplitMix64::for_item(seed, k);
                let target = start.to_lfen();
                (0..TRIES).find_map(|_| {
                    random_walk::<P>(start.rules(), &mut rng, *plies)
                        .and_then(|(pos, moves)| (pos.to_lfen() == target).then_some(moves))
                })
            }
            Openings::File { .. } | Openings::Pgn { .. } | Openings::Lines { .. } => None,
        }
    }
}

/// `plies` random legal moves from the start, and the position they reach; `None` if the game
/// ends on the way or at the end.
fn random_walk<P: Position>(rules: P::Rules, rng: &mut SplitMix64, plies: u32) -> Option<(P, Vec<Move>)> {
    let mut pos = rules.startpos();
    let mut seen = vec![pos.hash()];
    let mut played = Vec::with_capacity(plies as usize);
    for _ in 0..plies {
        let moves = pos.moves();
        if moves.is_empty() {
            return None;
        }
        let m = moves[rng.below(moves.len())];
        pos.play_unchecked(m);
        played.push(m);
        seen.push(pos.hash());
    }
    let repeated = seen.iter().filter(|&&h| h == pos.hash()).count() >= 3;
    (pos.outcome().is_none() && !repeated).then_some((pos, played))
}

/// FNV-1a, 64 bits: a stable hash for run keys and file contents.
#[must_use]
pub fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |h, &b| (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3))
}

#[cfg(test)]
mod tests {
    use super::*;
    use stackchess_malka::Malka;
    use stackchess_traditional::Fide;

    fn fide() -> <Fide as Position>::Rules {
        stackchess_traditional::fide_rules()
    }

    #[test]
    fn random_openings_are_a_function_of_seed_and_number() {
        let o = Openings::parse::<Fide>(fide(), "random:6").unwrap();
        let opening: Opening<Fide> = o.opening(fide(), 7, 3, |_| true).unwrap();
        // The plies come with the position and lead to it.
        let moves = opening.moves.clone().unwrap();
        assert_eq!(moves.len(), 6);
        let mut replayed = fide().startpos();
        for m in moves {
            replayed.play(m).unwrap();
        }
        assert_eq!(replayed.to_lfen(), opening.position.to_lfen());
        let a: Fide = opening.position;
        let b: Fide = o.opening(fide(), 7, 3, |_| true).unwrap().position;
        let c: Fide = o.opening(fide(), 7, 4, |_| true).unwrap().position;
        assert_eq!(a.to_lfen(), b.to_lfen());
        assert_ne!(a.to_lfen(), c.to_lfen());
        assert_eq!(a.fullmove_number(), 4);
        // A rejected opening is replaced by another from the same stream.
        let first = a.to_lfen();
        let d: Fide = o.opening(fide(), 7, 3, |p: &Fide| p.to_lfen() != first).unwrap().position;
        assert_ne!(d.to_lfen(), first);
        assert!(o.opening::<Fide>(fide(), 7, 3, |_| false).is_err());
    }

    #[test]
    fn the_plies_of_a_random_opening_are_found_again() {
        let o = Openings::parse::<Malka>(stackchess_malka::rules(), "random:6").unwrap();
        let first: Malka = o.opening(stackchess_malka::rules(), 7, 3, |_| true).unwrap().position;
        // The second walk of the stream, as when a filter rejected the first.
        let second: Malka =
            o.opening(stackchess_malka::rules(), 7, 3, |p: &Malka| p.to_lfen() != first.to_lfen()).unwrap().position;
        for target in [first, second] {
            let moves = o.opening_moves(7, 3, &target).unwrap();
            assert_eq!(moves.len(), 6);
            let mut pos = stackchess_malka::startpos();
            for m in moves {
                pos.play(m).unwrap();
            }
            assert_eq!(pos.to_lfen(), target.to_lfen());
        }
        // Another opening number's stream does not reach it; start and file openings.
        let elsewhere: Malka = o.opening(stackchess_malka::rules(), 7, 4, |_| true).unwrap().position;
        assert!(o.opening_moves(7, 3, &elsewhere).is_none());
        assert_eq!(Openings::Start.opening_moves(7, 3, &stackchess_malka::startpos()), Some(vec![]));
        assert!(Openings::Start.opening_moves(7, 3, &elsewhere).is_none());
    }

    #[test]
    fn file_openings_cycle_and_bad_lines_are_named() {
        let dir = std::env::temp_dir().join(format!("sp-openings-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let f = dir.join("o.lfen");
        let start = fide().startpos().to_lfen();
        let e4 = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1";
        std::fs::write(&f, format!("# two\n{start}\n\n{e4}\n")).unwrap();
        let o = Openings::parse::<Fide>(fide(), f.to_str().unwrap()).unwrap();
        let at = |k| o.opening::<Fide>(fide(), 0, k, |_| true).unwrap().position.to_lfen();
        assert!(o.opening::<Fide>(fide(), 0, 0, |_| true).unwrap().moves.is_none(), "a file's plies are not known");
        assert_eq!((at(0), at(1), at(2)), (start.clone(), fide().from_lfen(e4).unwrap().to_lfen(), start));
        assert!(o.describe().starts_with("file:"));
        std::fs::write(&f, format!("{e4}\nnot a position\n")).unwrap();
        let err = Openings::parse::<Fide>(fide(), f.to_str().unwrap()).unwrap_err().to_string();
        assert!(err.contains("line 2"), "{err}");
        assert!(Openings::parse::<Fide>(fide(), "random:x").is_err());
        // EPD records (operations ignored) and trailing comments read as their positions.
        std::fs::write(&f, "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - ce 17; id \"e4\";\n").unwrap();
        let o = Openings::parse::<Fide>(fide(), f.to_str().unwrap()).unwrap();
        assert_eq!(
            o.opening::<Fide>(fide(), 0, 0, |_| true).unwrap().position.to_lfen(),
            fide().from_lfen(e4).unwrap().to_lfen()
        );
        std::fs::write(&f, format!("{e4} # ce 17\n")).unwrap();
        let o = Openings::parse::<Fide>(fide(), f.to_str().unwrap()).unwrap();
        assert_eq!(
            o.opening::<Fide>(fide(), 0, 0, |_| true).unwrap().position.to_lfen(),
            fide().from_lfen(e4).unwrap().to_lfen()
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn given_lines_are_used_in_order_and_named() {
        let start = fide().startpos();
        let e4 = stackchess_core::parse_move(&start, "e2e4").unwrap();
        let o = Openings::Lines { name: "book:b.book#00:4".into(), lines: vec![vec![], vec![e4]] };
        assert_eq!(o.describe(), "book:b.book#00:4");
        let one = o.opening::<Fide>(fide(), 0, 1, |_| true).unwrap();
        assert_eq!(one.position.to_lfen(), "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1");
        assert_eq!(one.moves, Some(vec![e4]));
        assert_eq!(o.opening::<Fide>(fide(), 0, 2, |_| true).unwrap().position.to_lfen(), start.to_lfen());
        let none = Openings::Lines { name: "x".into(), lines: vec![] };
        assert!(none.opening::<Fide>(fide(), 0, 0, |_| true).is_err());
        // An illegal line is an error naming the ply.
        let bad = Openings::Lines { name: "x".into(), lines: vec![vec![e4, e4]] };
        let err = bad.opening::<Fide>(fide(), 0, 0, |_| true).unwrap_err().to_string();
        assert!(err.contains("ply 2"), "{err}");
    }
}
