//! The grammar of the UCI commands `stackchess engine` reads (docs/engine-protocol.md): a line
//! is read into a [`Command`], which writes back ([`fmt::Display`]) as a line that reads as the
//! same command. Executing them (positions, searches, options) is the engine loop's.

use stackchess_core::Color;
use stackchess_search::{Clock, Limits};
use std::fmt;
use std::time::Duration;

/// One line from a UCI client.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Command {
    /// A blank line (ignored).
    Empty,
    /// `uci`.
    Uci,
    /// `isready`.
    IsReady,
    /// `ucinewgame`.
    NewGame,
    /// `quit`.
    Quit,
    /// `stop` (words after it are ignored).
    Stop,
    /// `ponderhit` (words after it are ignored).
    PonderHit,
    /// `debug ...` (ignored).
    Debug,
    /// `setoption name <name> [value <value>]`: both joined by single spaces.
    SetOption {
        /// The option's name.
        name: String,
        /// Its value ("" when none is given).
        value: String,
    },
    /// `position startpos|lfen <LFEN>|fen <LFEN> [moves <move>...]`.
    Position {
        /// `None` for `startpos`, else the LFEN's fields joined by single spaces.
        lfen: Option<String>,
        /// The moves, as sent.
        moves: Vec<String>,
    },
    /// `go ...`.
    Go(Go),
    /// `d`: draw the board.
    Show,
    /// `eval`: the static evaluation.
    Eval,
    /// Anything else: the whole line (answered `info string unknown command`).
    Unknown(String),
}

/// The arguments of a `go`, as sent (clocks for both sides; the engine takes its own).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Go {
    /// `wtime`, `btime` (ms; a negative clock is read as 0).
    pub time: [Option<u64>; 2],
    /// `winc`, `binc` (ms).
    pub inc: [Option<u64>; 2],
    /// `movestogo`.
    pub movestogo: Option<u64>,
    /// `depth`.
    pub depth: Option<u64>,
    /// `nodes`.
    pub nodes: Option<u64>,
    /// `mate` (moves).
    pub mate: Option<u64>,
    /// `movetime` (ms).
    pub movetime: Option<u64>,
    /// `infinite`: `bestmove` only after `stop`.
    pub infinite: bool,
    /// `ponder`.
    pub ponder: bool,
    /// `searchmoves`, as sent.
    pub searchmoves: Vec<String>,
}

/// A line that names a command but cannot be read as it: what is wrong.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct UciError(pub String);

/// The words that start a `go` argument (and end a `searchmoves` list).
const GO_WORDS: [&str; 13] = [
    "searchmoves",
    "ponder",
    "wtime",
    "btime",
    "winc",
    "binc",
    "movestogo",
    "depth",
    "nodes",
    "mate",
    "movetime",
    "infinite",
    "perft",
];

impl Command {
    /// Reads one line (without its line end; a line that was not UTF-8 is read with its bad
    /// bytes replaced before it comes here).
    ///
    /// # Errors
    /// A `position` that is neither `startpos` nor `lfen`/`fen` with fields, or a `go` with an
    /// unknown argument or a missing or non-numeric number: the message says which.
    pub fn parse(line: &str) -> Result<Command, UciError> {
        let words: Vec<&str> = line.split_whitespace().collect();
        Ok(match words.as_slice() {
            [] => Command::Empty,
            ["stop", ..] => Command::Stop,
            ["ponderhit", ..] => Command::PonderHit,
            ["debug", ..] => Command::Debug,
            ["uci"] => Command::Uci,
            ["isready"] => Command::IsReady,
            ["ucinewgame"] => Command::NewGame,
            ["quit"] => Command::Quit,
            ["d"] => Command::Show,
            ["eval"] => Command::Eval,
            ["setoption", "name", rest @ ..] => {
                let at = rest.iter().position(|w| *w == "value").unwrap_or(rest.len());
                let value = rest.get(at + 1..).map(|v| v.join(" ")).unwrap_or_default();
                Command::SetOption { name: rest[..at].join(" "), value }
            }
            ["position", rest @ ..] => parse_position(rest)?,
            ["go", rest @ ..] => Command::Go(parse_go(rest)?),
            _ => Command::Unknown(line.to_owned()),
        })
    }
}

fn parse_position(args: &[&str]) -> Result<Command, UciError> {
    let split = args.iter().position(|w| *w == "moves").unwrap_or(args.len());
    let (head, moves) = (&args[..split], args.get(split + 1..).unwrap_or(&[]));
    let lfen = match head {
        ["startpos"] => None,
        [kind, fields @ ..] if (*kind == "lfen" || *kind == "fen") && !fields.is_empty() => Some(fields.join(" ")),
        _ => return Err(UciError("expected 'position startpos|lfen <LFEN>|fen <FEN> [moves ...]'".into())),
    };
    Ok(Command::Position { lfen, moves: moves.iter().map(|m| (*m).to_owned()).collect() })
}

fn parse_go(args: &[&str]) -> Result<Go, UciError> {
    let mut go = Go::default();
    let mut i = 0;
    while i < args.len() {
        let w = args[i];
        i += 1;
        // A number; clocks may be sent negative by a client whose engine ran out of time.
        let mut num = || -> Result<Option<u64>, UciError> {
            let v = args.get(i).ok_or_else(|| UciError(format!("go: '{w}' needs a number")))?;
            i += 1;
            let n = v.parse::<i64>().map_err(|_| UciError(format!("go: '{w}': '{v}' is not a number")))?;
            Ok(Some(n.max(0).unsigned_abs()))
        };
        match w {
            "depth" => go.depth = num()?,
            "nodes" => go.nodes = num()?,
            "mate" => go.mate = num()?,
            "movetime" => go.movetime = num()?,
            "wtime" => go.time[0] = num()?,
            "btime" => go.time[1] = num()?,
            "winc" => go.inc[0] = num()?,
            "binc" => go.inc[1] = num()?,
            "movestogo" => go.movestogo = num()?,
            "infinite" => go.infinite = true,
            "ponder" => go.ponder = true,
            "searchmoves" => {
                let end = args[i..].iter().position(|a| GO_WORDS.contains(a)).map_or(args.len(), |p| i + p);
                go.searchmoves = args[i..end].iter().map(|m| (*m).to_owned()).collect();
                i = end;
            }
            _ => return Err(UciError(format!("go: unknown argument '{w}'"))),
        }
    }
    Ok(go)
}

impl Go {
    /// The search limits for the side to move `turn`, its clock kept `overhead` short of empty.
    /// Depths and move counts beyond `u32` mean "without end" (the search caps depths itself).
    #[must_use]
    pub fn limits(&self, turn: Color, overhead: Duration) -> Limits {
        let side = usize::from(turn != Color::White);
        let big = |n: u64| u32::try_from(n).unwrap_or(u32::MAX);
        let clock = self.time[side].map(|t| {
            let inc = Duration::from_millis(self.inc[side].unwrap_or(0));
            let mut clock = Clock::new(Duration::from_millis(t), inc, self.movestogo.map(big));
            clock.margin = overhead;
            clock
        });
        Limits {
            depth: self.depth.map(big),
            nodes: self.nodes,
            movetime: self.movetime.map(Duration::from_millis),
            clock,
            mate: self.mate.map(|m| big(m).max(1)),
        }
    }
}

impl fmt::Display for Command {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Command::Empty => Ok(()),
            Command::Uci => f.write_str("uci"),
            Command::IsReady => f.write_str("isready"),
            Command::NewGame => f.write_str("ucinewgame"),
            Command::Quit => f.write_str("quit"),
            Command::Stop => f.write_str("stop"),
            Command::PonderHit => f.write_str("ponderhit"),
            Command::Debug => f.write_str("debug"),
            Command::Show => f.write_str("d"),
            Command::Eval => f.write_str("eval"),
            Command::SetOption { name, value } => {
                f.write_str("setoption name")?;
                if !name.is_empty() {
                    write!(f, " {name}")?;
                }
                if !value.is_empty() {
                    write!(f, " value {value}")?;
                }
                Ok(())
            }
            Command::Position { lfen, moves } => {
                match lfen {
                    None => f.write_str("position startpos")?,
                    Some(l) => write!(f, "position lfen {l}")?,
                }
                if !moves.is_empty() {
                    write!(f, " moves {}", moves.join(" "))?;
                }
                Ok(())
            }
            Command::Go(go) => write!(f, "go{go}"),
            Command::Unknown(line) => f.write_str(line),
        }
    }
}

/// The arguments, each after a space.
impl fmt::Display for Go {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let numbers = [
            ("wtime", self.time[0]),
            ("btime", self.time[1]),
            ("winc", self.inc[0]),
            ("binc", self.inc[1]),
            ("movestogo", self.movestogo),
            ("depth", self.depth),
            ("nodes", self.nodes),
            ("mate", self.mate),
            ("movetime", self.movetime),
        ];
        for (word, n) in numbers {
            if let Some(n) = n {
                write!(f, " {word} {n}")?;
            }
        }
        if self.infinite {
            f.write_str(" infinite")?;
        }
        if self.ponder {
            f.write_str(" ponder")?;
        }
        if !self.searchmoves.is_empty() {
            write!(f, " searchmoves {}", self.searchmoves.join(" "))?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn round_trip(line: &str) -> Command {
        let c = Command::parse(line).unwrap_or_else(|e| panic!("{line}: {e}"));
        assert_eq!(Command::parse(&c.to_string()).unwrap(), c, "{line} -> {c}");
        c
    }

    #[test]
    fn commands_read_and_write_back() {
        assert_eq!(round_trip("  "), Command::Empty);
        assert_eq!(round_trip("isready"), Command::IsReady);
        assert_eq!(round_trip("stop now"), Command::Stop);
        assert_eq!(round_trip("isready please"), Command::Unknown("isready please".into()));
        assert_eq!(
            round_trip("setoption name Move Overhead value 10 0"),
            Command::SetOption { name: "Move Overhead".into(), value: "10 0".into() }
        );
        assert_eq!(
            round_trip("setoption name Clear Params"),
            Command::SetOption { name: "Clear Params".into(), value: String::new() }
        );
        assert_eq!(round_trip("setoption Hash"), Command::Unknown("setoption Hash".into()));
        assert_eq!(
            round_trip("position fen  a b   c moves e2e4 e7e5"),
            Command::Position { lfen: Some("a b c".into()), moves: vec!["e2e4".into(), "e7e5".into()] }
        );
        assert_eq!(round_trip("position startpos moves"), Command::Position { lfen: None, moves: vec![] });
        let Command::Go(go) = round_trip("go wtime -30 btime 500 searchmoves e2e4 0000 depth 4 ponder") else {
            panic!()
        };
        assert_eq!((go.time, go.depth, go.ponder, go.searchmoves.len()), ([Some(0), Some(500)], Some(4), true, 2));
    }

    #[test]
    fn bad_lines_say_what_is_wrong() {
        let e = |l: &str| Command::parse(l).unwrap_err().to_string();
        assert_eq!(e("position"), "expected 'position startpos|lfen <LFEN>|fen <FEN> [moves ...]'");
        assert_eq!(e("position lfen moves e2e4"), "expected 'position startpos|lfen <LFEN>|fen <FEN> [moves ...]'");
        assert_eq!(e("go depth"), "go: 'depth' needs a number");
        assert_eq!(e("go nodes many"), "go: 'nodes': 'many' is not a number");
        assert_eq!(e("go perft 3"), "go: unknown argument 'perft'");
    }

    #[test]
    fn limits_take_the_movers_clock() {
        let Command::Go(go) =
            round_trip("go wtime 1000 btime 2000 winc 10 binc 20 movestogo 5 mate 0 depth 99999999999")
        else {
            panic!()
        };
        let white = go.limits(Color::White, Duration::from_millis(7));
        let black = go.limits(Color::Black, Duration::ZERO);
        let (w, b) = (white.clock.unwrap(), black.clock.unwrap());
        assert_eq!((w.margin, b.margin), (Duration::from_millis(7), Duration::ZERO));
        assert_ne!(w, b);
        let mut want = Clock::new(Duration::from_secs(2), Duration::from_millis(20), Some(5));
        want.margin = Duration::ZERO;
        assert_eq!(b, want);
        assert_eq!((white.mate, white.depth), (Some(1), Some(u32::MAX)));
    }
}
