//! Games worth a look: per variant, the shortest win for each side, the longest draw, and a
//! typical game by length.

use std::collections::BTreeMap;

/// What the choice reads of a game.
#[derive(Clone, Copy, Debug)]
pub struct GameSummary<'a> {
    /// The game's id.
    pub id: &'a str,
    /// Its variant.
    pub variant: &'a str,
    /// `1-0`, `0-1` or `1/2-1/2`.
    pub result: &'a str,
    /// Why it ended.
    pub termination: &'a str,
    /// Its length in plies.
    pub plies: u64,
}

/// A game picked for a reason.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Pick {
    /// The variant.
    pub variant: String,
    /// Why: `shortest White win`, `shortest Black win`, `longest draw`, `typical length`.
    pub reason: &'static str,
    /// The game's id.
    pub id: String,
    /// `1-0`, `0-1` or `1/2-1/2`.
    pub result: String,
    /// Why it ended.
    pub termination: String,
    /// Its length in plies.
    pub plies: u64,
}

/// The picks of each variant, variants in name order, reasons in the order above (a reason no
/// game fits is left out). Ties go to the smaller id, so the choice does not depend on the order
/// of the input; the typical game is the one whose length is nearest the median (the lower
/// median for an even count).
#[must_use]
pub fn telling_games(games: &[GameSummary<'_>]) -> Vec<Pick> {
    let mut by_variant: BTreeMap<&str, Vec<&GameSummary<'_>>> = BTreeMap::new();
    for g in games {
        by_variant.entry(g.variant).or_default().push(g);
    }
    let mut out = Vec::new();
    for (variant, mut gs) in by_variant {
        gs.sort_by(|a, b| a.id.cmp(b.id));
        let pick = |reason, g: Option<&&GameSummary<'_>>| {
            g.map(|g| Pick {
                variant: variant.to_owned(),
                reason,
                id: g.id.to_owned(),
                result: g.result.to_owned(),
                termination: g.termination.to_owned(),
                plies: g.plies,
            })
        };
        let shortest = |result: &str| gs.iter().filter(|g| g.result == result).min_by_key(|g| g.plies);
        let longest_draw = gs.iter().filter(|g| g.result == "1/2-1/2").min_by_key(|g| std::cmp::Reverse(g.plies));
        let mut lengths: Vec<u64> = gs.iter().map(|g| g.plies).collect();
        lengths.sort_unstable();
        let median = lengths.get(lengths.len().saturating_sub(1) / 2).copied();
        let typical = median.and_then(|m| gs.iter().min_by_key(|g| g.plies.abs_diff(m)));
        out.extend(
            [
                pick("shortest White win", shortest("1-0")),
                pick("shortest Black win", shortest("0-1")),
                pick("longest draw", longest_draw),
                pick("typical length", typical),
            ]
            .into_iter()
            .flatten(),
        );
    }
    out
}
