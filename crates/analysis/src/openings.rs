//! Opening diversity: the Shannon entropy of the first `k` plies across a batch (ANCHORS §3.1,
//! metric 3).
//!
//! A game's opening is its start position and its first `k` moves (the whole game if shorter),
//! so batches that start from book or random positions count those as distinct openings too.

use crate::load::GameRow;
use crate::stats::entropy_bits;
use crate::summary::groups;
use crate::table::Table;
use crate::Result;
use polars::prelude::*;
use std::collections::HashMap;

/// Default prefix lengths reported.
pub const DEFAULT_PLIES: [usize; 4] = [1, 2, 4, 8];

/// The opening of a game: start position and first `k` moves.
#[must_use]
pub fn opening_key(game: &GameRow, k: usize) -> String {
    let moves: Vec<&str> = game.moves.split_whitespace().take(k).collect();
    format!("{}|{}", game.start_lfen, moves.join(" "))
}

/// Entropy in bits and the number of distinct openings of length `k` in `games`.
#[must_use]
pub fn diversity<'a>(games: impl IntoIterator<Item = &'a GameRow>, k: usize) -> (f64, usize) {
    let mut counts: HashMap<String, u64> = HashMap::new();
    for g in games {
        *counts.entry(opening_key(g, k)).or_default() += 1;
    }
    (entropy_bits(counts.values().copied()), counts.len())
}

/// Per variant, setting and prefix length: games, distinct start positions, distinct openings,
/// entropy (bits), its maximum `log2(games)` and their ratio. When every game has its own start
/// position (random openings), the diversity is that of the starts and is maximal at once.
///
/// # Errors
/// A polars error.
pub fn openings_table(rows: &[GameRow], plies: &[usize]) -> Result<Table> {
    let (mut variant, mut settings, mut k_col, mut games) = (Vec::new(), Vec::new(), Vec::new(), Vec::new());
    let mut starts = Vec::new();
    let (mut distinct, mut bits, mut max_bits, mut ratio) = (Vec::new(), Vec::new(), Vec::new(), Vec::new());
    for ((v, s), list) in groups(rows) {
        let distinct_starts =
            list.iter().map(|g| g.start_lfen.as_str()).collect::<std::collections::HashSet<_>>().len();
        for &k in plies {
            let (h, d) = diversity(list.iter().copied(), k);
            let n = list.len();
            let max = (n as f64).log2();
            variant.push(v.clone());
            settings.push(s.clone());
            k_col.push(k as i64);
            games.push(n as i64);
            starts.push(distinct_starts as i64);
            distinct.push(d as i64);
            bits.push(h);
            max_bits.push(max);
            ratio.push((n > 1).then(|| h / max));
        }
    }
    let df = DataFrame::new_infer_height(vec![
        Column::new("variant".into(), variant),
        Column::new("settings".into(), settings),
        Column::new("plies".into(), k_col),
        Column::new("games".into(), games),
        Column::new("start_positions".into(), starts),
        Column::new("distinct".into(), distinct),
        Column::new("entropy_bits".into(), bits),
        Column::new("max_bits".into(), max_bits),
        Column::new("diversity".into(), ratio),
    ])?;
    Ok(Table::new("openings", "Opening diversity: entropy of the first plies (diversity = entropy / log2(games))", df))
}
