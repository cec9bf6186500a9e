//! An SPRT kept with its run: `sprt.csv`, the log-likelihood ratio after every game in the order
//! the games are in `games.csv`, and `sprt.json`, the test's bounds, model and verdict now.
//! The statistics are computed by the caller with `stackchess_stats`; this module only writes them.

use crate::stats::{Sprt, SprtDecision};
use crate::Error;
use serde::{Deserialize, Serialize};
use std::fs::{File, OpenOptions};
use std::io::Write;
use std::path::{Path, PathBuf};

/// The per-game log of an SPRT.
pub const SPRT_CSV: &str = "sprt.csv";
/// The SPRT's settings and verdict.
pub const SPRT_JSON: &str = "sprt.json";
/// The header of `sprt.csv`.
pub const SPRT_HEADER: &str = "games,game_id,a_score,a_wins,a_draws,a_losses,llr";

/// One row of `sprt.csv`: the test after a game.
#[derive(Clone, Debug, PartialEq)]
pub struct SprtRow {
    /// Games counted so far, this one included.
    pub games: u64,
    /// The game just counted.
    pub game_id: String,
    /// Engine A's points in it: 1, 0.5 or 0.
    pub a_score: f64,
    /// A's wins, draws and losses so far.
    pub wdl: [u64; 3],
    /// The log-likelihood ratio after it.
    pub llr: f64,
}

impl SprtRow {
    fn line(&self) -> String {
        let [w, d, l] = self.wdl;
        format!("{},{},{},{w},{d},{l},{:.6}\n", self.games, self.game_id, self.a_score, self.llr)
    }
}

/// `sprt.json`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SprtState {
    /// Elo under H0.
    pub elo0: f64,
    /// Elo under H1.
    pub elo1: f64,
    /// False positive rate.
    pub alpha: f64,
    /// False negative rate.
    pub beta: f64,
    /// `normalized` or `logistic`.
    pub model: String,
    /// Whether the LLR counts game pairs (pentanomial) or single games (trinomial).
    pub pentanomial: bool,
    /// H0 is accepted at or below this LLR.
    pub lower: f64,
    /// H1 is accepted at or above this LLR.
    pub upper: f64,
    /// Games counted.
    pub games: u64,
    /// The LLR now.
    pub llr: f64,
    /// `H0 accepted`, `H1 accepted` or `no decision yet`.
    pub verdict: String,
}

impl SprtState {
    /// The state of `sprt` at `llr` after `games` games.
    #[must_use]
    pub fn new(sprt: &Sprt, pentanomial: bool, games: u64, llr: f64) -> SprtState {
        SprtState {
            elo0: sprt.elo0,
            elo1: sprt.elo1,
            alpha: sprt.alpha,
            beta: sprt.beta,
            model: sprt.model.name().to_owned(),
            pentanomial,
            lower: sprt.lower(),
            upper: sprt.upper(),
            games,
            llr,
            verdict: verdict(sprt.decide(llr)).to_owned(),
        }
    }

    /// Reads `sprt.json` of `dir`.
    ///
    /// # Errors
    /// When it is missing or not an SPRT state.
    pub fn read(dir: &Path) -> Result<SprtState, Error> {
        let path = dir.join(SPRT_JSON);
        let text = std::fs::read_to_string(&path).map_err(|e| Error::io(&path, e))?;
        serde_json::from_str(&text).map_err(|e| Error::Manifest { path, message: e.to_string() })
    }

    /// Writes `sprt.json` into `dir`, whole (`stackchess_files::write`).
    ///
    /// # Errors
    /// On an I/O error.
    pub fn write(&self, dir: &Path) -> Result<(), Error> {
        let path = dir.join(SPRT_JSON);
        let text = serde_json::to_string_pretty(self)
            .map_err(|e| Error::Manifest { path: path.clone(), message: e.to_string() })?;
        stackchess_files::write(&path, text + "\n").map_err(|e| Error::io(&path, e))
    }
}

/// How a decision reads in `sprt.json` and in the match's summary.
#[must_use]
pub fn verdict(d: SprtDecision) -> &'static str {
    match d {
        SprtDecision::H0 => "H0 accepted",
        SprtDecision::H1 => "H1 accepted",
        SprtDecision::Continue => "no decision yet",
    }
}

/// `sprt.csv`, open for appending.
#[derive(Debug)]
pub struct SprtLog {
    path: PathBuf,
    file: File,
}

impl SprtLog {
    /// Writes `sprt.csv` in `dir` afresh with `rows` (the games a resumed run already has, in
    /// `games.csv` order, so the log always matches the records), then opens it for appending.
    ///
    /// # Errors
    /// On an I/O error.
    pub fn start(dir: &Path, rows: &[SprtRow]) -> Result<SprtLog, Error> {
        let path = dir.join(SPRT_CSV);
        let mut text = format!("{SPRT_HEADER}\n");
        for r in rows {
            text.push_str(&r.line());
        }
        stackchess_files::write(&path, text).map_err(|e| Error::io(&path, e))?;
        let file = OpenOptions::new().append(true).open(&path).map_err(|e| Error::io(&path, e))?;
        Ok(SprtLog { path, file })
    }

    /// Appends a row.
    ///
    /// # Errors
    /// On an I/O error.
    pub fn append(&mut self, row: &SprtRow) -> Result<(), Error> {
        self.file.write_all(row.line().as_bytes()).map_err(|e| Error::io(&self.path, e))
    }
}

/// Reads the rows of a `sprt.csv`.
///
/// # Errors
/// When the file cannot be read, or a line (named) is not a row.
pub fn read_rows(path: &Path) -> Result<Vec<SprtRow>, Error> {
    let text = std::fs::read_to_string(path).map_err(|e| Error::io(path, e))?;
    let mut lines = text.lines().enumerate();
    if lines.next().map(|(_, h)| h) != Some(SPRT_HEADER) {
        return Err(Error::corrupt(path, 1, format!("expected the header {SPRT_HEADER}")));
    }
    lines
        .map(|(i, line)| {
            let bad = || Error::corrupt(path, i as u64 + 1, format!("not a row of {SPRT_HEADER}: '{line}'"));
            let f: Vec<&str> = line.split(',').collect();
            let [games, id, score, w, d, l, llr] = f[..] else { return Err(bad()) };
            let num = |s: &str| s.parse::<u64>().map_err(|_| bad());
            let float = |s: &str| s.parse::<f64>().map_err(|_| bad());
            Ok(SprtRow {
                games: num(games)?,
                game_id: id.to_owned(),
                a_score: float(score)?,
                wdl: [num(w)?, num(d)?, num(l)?],
                llr: float(llr)?,
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::stats::SprtModel;

    #[test]
    fn a_log_restarts_with_the_resumed_rows_and_appends() {
        let dir = std::env::temp_dir().join(format!("sp-sprt-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let row = |games: u64, llr: f64| SprtRow {
            games,
            game_id: format!("k-{games}"),
            a_score: 0.5,
            wdl: [0, games, 0],
            llr,
        };
        let mut log = SprtLog::start(&dir, &[row(1, 0.25), row(2, -0.5)]).unwrap();
        log.append(&row(3, 0.125)).unwrap();
        drop(log);
        assert_eq!(read_rows(&dir.join(SPRT_CSV)).unwrap(), vec![row(1, 0.25), row(2, -0.5), row(3, 0.125)]);
        // A resume writes the rows of the records it found, whatever the old log held.
        drop(SprtLog::start(&dir, &[row(1, 0.25)]).unwrap());
        assert_eq!(read_rows(&dir.join(SPRT_CSV)).unwrap(), vec![row(1, 0.25)]);
        let sprt = Sprt::new(0.0, 10.0, 0.05, 0.05, SprtModel::Logistic).unwrap();
        let state = SprtState::new(&sprt, true, 3, 3.0);
        assert_eq!((state.verdict.as_str(), state.model.as_str()), ("H1 accepted", "logistic"));
        state.write(&dir).unwrap();
        assert_eq!(SprtState::read(&dir).unwrap(), state);
        std::fs::write(dir.join(SPRT_CSV), format!("{SPRT_HEADER}\n1,k-1,x,0,1,0,0.1\n")).unwrap();
        let e = read_rows(&dir.join(SPRT_CSV)).unwrap_err().to_string();
        assert!(e.contains("line 2"), "{e}");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
