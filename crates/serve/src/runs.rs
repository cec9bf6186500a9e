//! The games of the run directories named on the command line, read once at start-up. The page
//! names a game by its id; it never names a file.

use crate::protocol::GameRow;
use crate::ServeError;
use stackchess_records::GameRecord;
use std::collections::HashSet;
use std::path::{Path, PathBuf};

/// The games of the run directories, each id once, in id order.
#[derive(Debug, Default)]
pub struct Runs {
    games: Vec<GameRecord>,
    /// What was read: one line per input.
    pub notes: Vec<String>,
}

impl Runs {
    /// Reads the `games.csv` of each input (a run directory, or the file itself).
    ///
    /// # Errors
    /// An unreadable or damaged file, naming it and the line.
    pub fn read(inputs: &[PathBuf]) -> Result<Runs, ServeError> {
        let mut games = Vec::new();
        let mut notes = Vec::new();
        for input in inputs {
            let file: PathBuf = if input.is_dir() { input.join(stackchess_records::GAMES_CSV) } else { input.clone() };
            let read = stackchess_records::read_games(&file)
                .map_err(|e| ServeError::Runs { path: file.display().to_string(), message: e.to_string() })?;
            notes.push(format!("{}: {} games", display(input), read.records.len()));
            games.extend(read.records);
        }
        games.sort_by(|a, b| a.game_id.cmp(&b.game_id));
        let mut seen = HashSet::new();
        games.retain(|g| seen.insert(g.game_id.clone()));
        Ok(Runs { games, notes })
    }

    /// The game with this id.
    #[must_use]
    pub fn get(&self, id: &str) -> Option<&GameRecord> {
        self.games.binary_search_by(|g| g.game_id.as_str().cmp(id)).ok().map(|i| &self.games[i])
    }

    /// The list the page shows.
    #[must_use]
    pub fn rows(&self) -> Vec<GameRow> {
        self.games
            .iter()
            .map(|g| GameRow {
                id: g.game_id.clone(),
                v: g.variant.clone(),
                r: g.result.clone(),
                t: g.termination.clone(),
                n: g.opening_moves.split_whitespace().count() + g.moves.split_whitespace().count(),
                w: g.white.clone(),
                b: g.black.clone(),
            })
            .collect()
    }
}

fn display(p: &Path) -> String {
    p.display().to_string()
}
