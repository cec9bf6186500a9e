//! Watching a run as it plays: the tally of every game (resumed ones included), engine A's
//! rating line, and an SPRT kept beside the run (`sprt.csv`, `sprt.json`) that stops the run once
//! it decides. A [`Monitor`] is a [`Progress`]; a progress bar wraps one and shows what it counts.

use crate::run::Progress;
use crate::sprt_log::{SprtLog, SprtRow, SprtState};
use crate::stats::{EloEstimate, Sprt, SprtDecision};
use crate::{Error, GameRecord, Tally};
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

/// The running tally of a run, its rating and its SPRT.
pub struct Monitor {
    /// Every game of the run so far, resumed ones included.
    pub tally: Tally,
    /// Games played by this invocation.
    pub played: u64,
    paired: bool,
    sprt: Option<Sprt>,
    /// The SPRT's decision once reached.
    pub decision: SprtDecision,
    /// A rating line is due every this many games (`--rating-interval`).
    rating_interval: Option<u64>,
    /// Where the SPRT is kept, and its rows until the log is open.
    sprt_dir: Option<PathBuf>,
    sprt_rows: Vec<SprtRow>,
    sprt_log: Option<SprtLog>,
    /// The first error writing the SPRT's files (the run stops, and fails with it).
    failure: Option<Error>,
}

impl Monitor {
    /// A monitor of a run (paired or not) testing `sprt` if given; the SPRT is kept in memory
    /// only until [`Monitor::reporting`] names a directory.
    #[must_use]
    pub fn new(paired: bool, sprt: Option<Sprt>) -> Monitor {
        Monitor {
            tally: Tally::new(paired),
            played: 0,
            paired,
            sprt,
            decision: SprtDecision::Continue,
            rating_interval: None,
            sprt_dir: None,
            sprt_rows: Vec::new(),
            sprt_log: None,
            failure: None,
        }
    }

    /// Counts the results of the engine labelled `first` as A's (by default A is the label `A`,
    /// or White in self-play).
    #[must_use]
    pub fn counting(mut self, first: &str) -> Monitor {
        self.tally = Tally::of(self.paired, first);
        self
    }

    /// Also makes a rating line due every `interval` games, and keeps the SPRT, when there is
    /// one, in `dir` (`sprt.csv`: the LLR after every game; `sprt.json`).
    #[must_use]
    pub fn reporting(mut self, interval: Option<u64>, dir: &Path) -> Monitor {
        self.rating_interval = interval.filter(|&n| n > 0);
        self.sprt_dir = self.sprt.map(|_| dir.to_owned());
        self
    }

    /// Whether a rating line is due after the game just counted.
    #[must_use]
    pub fn rating_due(&self) -> bool {
        self.rating_interval.is_some_and(|n| self.tally.games > 0 && self.tally.games.is_multiple_of(n))
    }

    /// The rating now, in one line: games, A's W/D/L and score, Elo ± 95%, the pentanomial
    /// counts of a paired run, and the SPRT's LLR with its bounds.
    #[must_use]
    pub fn rating_line(&self) -> String {
        let f = &self.tally.first;
        let mut line = format!("Rating after {} games: A +{} ={} -{}", self.tally.games, f.wins, f.draws, f.losses);
        if let Some(e) = estimate(&self.tally) {
            let _ = write!(line, ", score {:.1}%, Elo {:+.1} ± {:.1} (95%)", e.score * 100.0, e.elo, e.error);
        }
        if self.paired {
            let _ = write!(line, ", Ptnml(0-2) {}", self.tally.penta);
        }
        if let (Some(s), Some(llr)) = (self.sprt, self.llr()) {
            let _ = write!(line, ", LLR {llr:.2} ({:.2}, {:.2}) [{}, {}]", s.lower(), s.upper(), s.elo0, s.elo1);
        }
        line
    }

    /// The SPRT's log-likelihood ratio now (pentanomial for paired runs).
    #[must_use]
    pub fn llr(&self) -> Option<f64> {
        let s = self.sprt?;
        Some(if self.paired { s.llr_pentanomial(&self.tally.penta) } else { s.llr_trinomial(&self.tally.first) })
    }

    /// The first error writing the SPRT's files, if any (taken: a second call gives `None`).
    pub fn take_failure(&mut self) -> Option<Error> {
        self.failure.take()
    }

    /// Counts `rec` and, with an SPRT kept, returns its row of `sprt.csv`.
    fn count(&mut self, rec: &GameRecord) -> Option<SprtRow> {
        let before = self.tally.first;
        self.tally.add(rec);
        self.sprt_dir.as_ref()?;
        let f = self.tally.first;
        let a_score = if f.wins > before.wins {
            1.0
        } else if f.draws > before.draws {
            0.5
        } else {
            0.0
        };
        let (games, game_id, wdl) = (self.tally.games, rec.game_id.clone(), [f.wins, f.draws, f.losses]);
        Some(SprtRow { games, game_id, a_score, wdl, llr: self.llr()? })
    }

    /// Writes `sprt.json` with the test as it stands.
    fn write_sprt_state(&self) -> Result<(), Error> {
        match (self.sprt, self.llr(), &self.sprt_dir) {
            (Some(s), Some(llr), Some(dir)) => SprtState::new(&s, self.paired, self.tally.games, llr).write(dir),
            _ => Ok(()),
        }
    }
}

impl Progress for Monitor {
    fn begin(&mut self, _total: u64, _done: u64) {
        if let Some(dir) = &self.sprt_dir {
            let rows = std::mem::take(&mut self.sprt_rows);
            match SprtLog::start(dir, &rows).and_then(|log| self.write_sprt_state().map(|()| log)) {
                Ok(log) => self.sprt_log = Some(log),
                Err(e) => self.failure = Some(e),
            }
        }
    }

    fn resumed(&mut self, rec: &GameRecord) {
        if let Some(row) = self.count(rec) {
            self.sprt_rows.push(row);
        }
    }

    fn finished(&mut self, rec: &GameRecord) -> bool {
        let row = self.count(rec);
        self.played += 1;
        if let (Some(s), Some(llr)) = (self.sprt, self.llr()) {
            self.decision = s.decide(llr);
        }
        if let (Some(row), Some(log), None) = (row, self.sprt_log.as_mut(), &self.failure) {
            if let Err(e) = log.append(&row).and_then(|()| self.write_sprt_state()) {
                self.failure = Some(e);
            }
        }
        self.decision == SprtDecision::Continue && self.failure.is_none()
    }
}

/// The Elo estimate of the first engine: pentanomial when pairs are complete, else trinomial.
#[must_use]
pub fn estimate(t: &Tally) -> Option<EloEstimate> {
    if t.penta.pairs() > 0 {
        EloEstimate::pentanomial(&t.penta)
    } else {
        EloEstimate::trinomial(&t.first)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sprt_log::{read_rows, SPRT_CSV};
    use crate::stats::SprtModel;

    /// Game `index` of a paired run between `A` and `B`, A White in even games, won by `winner`.
    fn game(index: u64, winner: &str) -> GameRecord {
        let (white, black) = if index.is_multiple_of(2) { ("A", "B") } else { ("B", "A") };
        let result = match winner {
            w if w == white => "1-0",
            w if w == black => "0-1",
            _ => "1/2-1/2",
        };
        GameRecord {
            game_id: format!("g{index}"),
            index,
            pair: index / 2,
            white: white.into(),
            black: black.into(),
            result: result.into(),
            termination: "checkmate".into(),
            ..GameRecord::default()
        }
    }

    fn scratch(name: &str) -> PathBuf {
        let d = std::env::temp_dir().join(format!("stackchess-monitor-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&d);
        std::fs::create_dir_all(&d).unwrap();
        d
    }

    #[test]
    fn the_rating_line_counts_a_s_games_and_pairs() {
        let mut m = Monitor::new(true, None).counting("A").reporting(Some(2), Path::new("unused"));
        m.begin(4, 0);
        assert!(m.finished(&game(0, "A")));
        assert!(!m.rating_due(), "one game: no line yet");
        assert!(m.finished(&game(1, "draw")));
        assert!(m.rating_due());
        let line = m.rating_line();
        assert!(line.starts_with("Rating after 2 games: A +1 =1 -0, score 75.0%, Elo +"), "{line}");
        assert!(line.ends_with("Ptnml(0-2) [0, 0, 0, 1, 0]"), "{line}");
        assert_eq!(m.played, 2);
        assert!(m.take_failure().is_none());
    }

    #[test]
    fn an_sprt_stops_the_run_once_decided_and_keeps_its_log_across_a_resume() {
        let dir = scratch("sprt");
        let sprt = Sprt::new(0.0, 10.0, 0.05, 0.05, SprtModel::Normalized).unwrap();
        // A resumed run: its first two games come from the file, then A wins every game.
        let mut m = Monitor::new(true, Some(sprt)).counting("A").reporting(None, &dir);
        m.resumed(&game(0, "A"));
        m.resumed(&game(1, "B"));
        m.begin(1000, 2);
        let mut played = 2;
        while m.finished(&game(played, "A")) {
            played += 1;
            assert!(played < 1000, "the SPRT never decided on a run of wins");
        }
        assert_eq!(m.decision, SprtDecision::H1);
        assert!(m.take_failure().is_none());
        let rows = read_rows(&dir.join(SPRT_CSV)).unwrap();
        assert_eq!(rows.len() as u64, m.tally.games, "a row for every game, resumed ones included");
        assert_eq!((rows[0].a_score, rows[1].a_score), (1.0, 0.0));
        // Pentanomial: the LLR moves when a pair completes, and A's won pairs only raise it.
        assert!(rows[2..].windows(2).all(|w| w[1].llr >= w[0].llr), "wins lower the LLR");
        assert!(rows[rows.len() - 1].llr > rows[1].llr);
        let state = SprtState::read(&dir).unwrap();
        assert_eq!(state.games, m.tally.games);
        std::fs::remove_dir_all(dir).unwrap();
    }

    #[test]
    fn a_failed_sprt_write_stops_the_run_and_is_reported() {
        let dir = scratch("sprt-fail");
        let sprt = Sprt::new(0.0, 10.0, 0.05, 0.05, SprtModel::Normalized).unwrap();
        let gone = dir.join("no-such-directory");
        let mut m = Monitor::new(false, Some(sprt)).reporting(None, &gone);
        m.begin(10, 0);
        assert!(!m.finished(&game(0, "A")), "a run whose SPRT cannot be kept stops");
        let e = m.take_failure().expect("the write error");
        assert!(e.to_string().contains("no-such-directory"), "{e}");
        std::fs::remove_dir_all(dir).unwrap();
    }
}
