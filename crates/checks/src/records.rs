//! `games.csv` and `plies.csv` as another program (or a damaged disk) may leave them: the
//! strict readers and the journals' repair on resume.

use crate::input::Bytes;
use stackchess_records::{read_games, read_plies, GamesFile, PliesFile, Version};
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

/// A scratch directory of this process (under the system's temporary directory), made once.
#[must_use]
pub fn scratch_dir() -> PathBuf {
    let dir = std::env::temp_dir().join(format!("stackchess-checks-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap_or_else(|e| panic!("cannot make {}: {e}", dir.display()));
    dir
}

/// A fresh path in the scratch directory, named `name` (threads of one process do not share one).
pub(crate) fn fresh(name: &str) -> PathBuf {
    static N: AtomicU64 = AtomicU64::new(0);
    let dir = scratch_dir().join(N.fetch_add(1, Ordering::Relaxed).to_string());
    std::fs::create_dir_all(&dir).unwrap_or_else(|e| panic!("cannot make {}: {e}", dir.display()));
    dir.join(name)
}

/// Removes a scratch file's directory when dropped.
struct Scratch(PathBuf);

impl Drop for Scratch {
    fn drop(&mut self) {
        if let Some(dir) = self.0.parent() {
            let _ = std::fs::remove_dir_all(dir);
        }
    }
}

fn write(path: &Path, data: &[u8]) {
    std::fs::write(path, data).unwrap_or_else(|e| panic!("cannot write {}: {e}", path.display()));
}

/// `games.csv`. A file the strict reader takes writes back, record by record through a journal,
/// a file it reads as the same records. A journal opened on the bytes (the repair on resume)
/// hands over exactly the records the strict reader then reads from the repaired file, which
/// takes appends.
pub fn games_csv(data: &[u8]) {
    let file = Scratch(fresh("games.csv"));
    let path = &file.0;
    write(path, data);
    if let Ok(games) = read_games(path) {
        let copy = path.with_file_name("copy.csv");
        let mut out = GamesFile::create_version(&copy, games.version).expect("a fresh journal");
        for r in &games.records {
            out.append(r).unwrap_or_else(|e| panic!("a record read cannot be written: {e}"));
        }
        drop(out);
        let back = read_games(&copy).unwrap_or_else(|e| panic!("records written from records read are refused: {e}"));
        assert_eq!(back.records, games.records, "records changed through the file");
        assert_eq!(back.version, games.version);
    }
    let mut handed = Vec::new();
    let opened = GamesFile::open(path, |r| {
        handed.push(r);
        Ok(())
    });
    if let Ok((mut journal, recovered)) = opened {
        assert_eq!(recovered.records, handed.len() as u64);
        if let Some(last) = handed.last().cloned() {
            journal.append(&last).unwrap_or_else(|e| panic!("a repaired journal refuses an append: {e}"));
            handed.push(last);
        }
        drop(journal);
        let games = read_games(path).unwrap_or_else(|e| panic!("a repaired journal is unreadable: {e}"));
        assert_eq!(games.records, handed, "the repaired journal holds other records than it handed over");
        assert!(matches!(games.version, Version::V1 | Version::V2));
    }
}

/// `plies.csv`. A file the strict reader takes writes back the same rows; a journal opened on
/// the bytes with the games those rows belong to as committed either refuses (naming the file)
/// or leaves a file the strict reader takes, holding exactly the committed games' rows.
pub fn plies_csv(data: &[u8]) {
    let mut input = Bytes::new(data);
    // The first byte: how many of the games found count as committed (all, or one fewer).
    let drop_last = input.byte() % 2 == 1;
    let file = Scratch(fresh("plies.csv"));
    let path = &file.0;
    write(path, input.rest());
    let Ok(rows) = read_plies(path) else {
        // Unreadable to the strict reader: the journal may still repair a cut last row.
        let _ = PliesFile::open(path, &HashMap::new());
        return;
    };
    let mut committed: HashMap<String, u32> = HashMap::new();
    let mut order: Vec<String> = Vec::new();
    for r in &rows {
        let n = committed.entry(r.game_id.clone()).or_insert_with(|| {
            order.push(r.game_id.clone());
            0
        });
        *n += 1;
    }
    if drop_last {
        if let Some(id) = order.pop() {
            committed.remove(&id);
        }
    }
    if PliesFile::open(path, &committed).is_ok() {
        let kept = read_plies(path).unwrap_or_else(|e| panic!("a repaired plies journal is unreadable: {e}"));
        let expected: Vec<_> = rows.iter().filter(|r| committed.contains_key(&r.game_id)).cloned().collect();
        assert_eq!(kept, expected, "the repaired plies journal holds other rows than the committed games'");
    }
}
