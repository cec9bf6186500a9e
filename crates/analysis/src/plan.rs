//! The plan of a balance study: one batch of games per variant and strength (a slot, in its own
//! directory), and, with a precision target, how the batches grow until every White-score
//! interval is narrow enough. The caller plays the slots; the plan says what to play next.

use crate::ladder::{Ladder, Rung};
use crate::load::load;
use crate::Result;
use std::path::{Path, PathBuf};

/// One variant at one strength: its directory and the games it is to have.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Slot {
    /// The variant's index in the plan's variants.
    pub variant: usize,
    /// Nodes a move.
    pub nodes: u64,
    /// The batch's run directory.
    pub dir: PathBuf,
    /// Games the batch is to have.
    pub games: u64,
}

/// The slots of a study, strength by strength.
#[derive(Clone, Debug)]
pub struct Plan {
    /// The variants' names, as their records carry them.
    pub variants: Vec<String>,
    /// Every variant at every strength, rung by rung.
    pub slots: Vec<Slot>,
}

/// A precision target: batches grow by `step` games (up to `max_games`) while a White-score
/// interval is wider than ±`half_width`.
#[derive(Clone, Copy, Debug)]
pub struct Precision {
    /// The widest interval half-width accepted.
    pub half_width: f64,
    /// Games added to a batch that is not yet precise enough.
    pub step: u64,
    /// No batch grows beyond this.
    pub max_games: u64,
    /// Paired openings: batches stay even.
    pub paired: bool,
}

/// What [`Plan::grow`] decided.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Growth {
    /// Some batches have more games to play.
    More,
    /// Nothing grows: every interval is within the target (`within`), or the batches that are
    /// not have reached the maximum; `widest` is the widest half-width.
    Done {
        /// Every interval is within the target with enough games behind it.
        within: bool,
        /// The widest White-score half-width.
        widest: f64,
    },
}

impl Plan {
    /// A plan of `games` per variant at each of `rungs`. `dir_names` name each variant's
    /// directory (a shard's batches sit beside the merged ones); with `ladder` each rung's
    /// batches are in `DIR/<nodes>-nodes/`, else (one rung) directly in `dir`.
    #[must_use]
    pub fn new(dir: &Path, variants: &[String], dir_names: &[String], rungs: &[u64], ladder: bool, games: u64) -> Plan {
        let mut slots = Vec::new();
        for &nodes in rungs {
            for (variant, name) in dir_names.iter().enumerate() {
                let dir = if ladder { dir.join(format!("{nodes}-nodes")).join(name) } else { dir.join(name) };
                slots.push(Slot { variant, nodes, dir, games });
            }
        }
        Plan { variants: variants.to_vec(), slots }
    }

    /// The slots' directories, in order.
    #[must_use]
    pub fn dirs(&self) -> Vec<String> {
        self.slots.iter().map(|s| s.dir.display().to_string()).collect()
    }

    /// The ladder of the games recorded so far (a single rung for a one-strength plan).
    ///
    /// # Errors
    /// A slot's records unreadable.
    pub fn ladder(&self) -> Result<Ladder> {
        let mut rungs: Vec<Rung> = Vec::new();
        for s in &self.slots {
            let rows = load(&[s.dir.display().to_string()])?.rows()?;
            let name = self.variants[s.variant].clone();
            match rungs.iter_mut().find(|r| r.0 == s.nodes) {
                Some(r) => r.1.push((name, rows)),
                None => rungs.push((s.nodes, vec![(name, rows)])),
            }
        }
        Ok(Ladder::new(&rungs))
    }

    /// Grows every batch whose White-score interval in `ladder` is wider than the target (or
    /// that has fewer games than [`min_games`] trusts) by `step` games, up to the maximum.
    pub fn grow(&mut self, ladder: &Ladder, p: &Precision) -> Growth {
        let x = p.half_width;
        let mut more = false;
        for s in &mut self.slots {
            let name = &self.variants[s.variant];
            let wide = ladder.cells.iter().any(|c| {
                &c.variant == name && c.nodes == s.nodes && (c.score_half_width() > x || c.games < min_games(x))
            });
            if wide && s.games < p.max_games {
                s.games = (s.games + p.step).min(p.max_games);
                s.games += u64::from(p.paired && s.games % 2 == 1);
                more = true;
            }
        }
        if more {
            return Growth::More;
        }
        let widest = ladder.widest_score_half_width();
        let enough = ladder.cells.iter().all(|c| c.games >= min_games(x));
        Growth::Done { within: widest <= x && enough, widest }
    }
}

/// What a study of one variant at one strength will take, from a pilot batch: the games for a
/// White-score interval of ±`x`, and their cost.
#[derive(Clone, Debug, PartialEq)]
pub struct Sizing {
    /// The variant.
    pub variant: String,
    /// Nodes a move.
    pub nodes: u64,
    /// Games of the pilot.
    pub pilot_games: u64,
    /// Seconds one game takes on one core (the pilot's mean).
    pub seconds_per_game: f64,
    /// The pilot's standard deviation of White's score per game (pairs counted as the clusters
    /// they are: the interval's half-width times √games over z).
    pub sd_per_game: f64,
    /// Games for a half-width of ±x: `games·(half-width/x)²` of the pilot, at least
    /// [`min_games`], even when paired.
    pub games: u64,
    /// Core-hours of those games.
    pub core_hours: f64,
}

impl Sizing {
    /// Hours on `cores` cores (games spread evenly over them).
    #[must_use]
    pub fn wall_hours(&self, cores: usize) -> f64 {
        self.core_hours / cores.max(1) as f64
    }
}

/// The sizing of `cell` (a pilot batch whose games took `seconds_per_game` each on one core)
/// for a White-score half-width of ±`x`.
#[must_use]
#[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss, clippy::cast_precision_loss)]
pub fn size(cell: &crate::ladder::Cell, seconds_per_game: f64, x: f64, paired: bool) -> Sizing {
    let n = cell.games.max(1) as f64;
    let hw = cell.score_half_width();
    let mut games = ((n * (hw / x).powi(2)).ceil() as u64).max(min_games(x));
    games += u64::from(paired && games % 2 == 1);
    Sizing {
        variant: cell.variant.clone(),
        nodes: cell.nodes,
        pilot_games: cell.games,
        seconds_per_game,
        sd_per_game: hw * n.sqrt() / crate::stats::Z95,
        games,
        core_hours: games as f64 * seconds_per_game / 3600.0,
    }
}

/// The fewest games whose White-score interval `--precision x` trusts: those at which a per-game
/// standard deviation of 0.25 (a game score with three draws in four) gives ±x. A short run of
/// identical results has an interval of zero width; it says little, and must not stop the batches.
#[must_use]
#[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
pub fn min_games(x: f64) -> u64 {
    (crate::stats::Z95 * 0.25 / x).powi(2).ceil() as u64
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ladder::tests::game;
    use crate::load::GameRow;

    /// `n` games of `variant` at `nodes` whose White points cycle through `pattern`.
    fn cell(variant: &str, n: i64, pattern: &[f64]) -> (String, Vec<GameRow>) {
        (
            variant.into(),
            (0..n).map(|i| game(variant, variant, i / 2, pattern[i as usize % pattern.len()], 40)).collect(),
        )
    }

    fn plan(ladder: bool, rungs: &[u64]) -> Plan {
        let names = ["malka".to_string(), "traditional".to_string()];
        Plan::new(Path::new("out"), &names, &names, rungs, ladder, 100)
    }

    #[test]
    fn slots_are_every_variant_at_every_rung_in_their_directories() {
        let p = plan(true, &[500, 1000]);
        let dirs = p.dirs();
        assert_eq!(
            dirs,
            ["out/500-nodes/malka", "out/500-nodes/traditional", "out/1000-nodes/malka", "out/1000-nodes/traditional"]
        );
        assert_eq!(p.slots[3], Slot { variant: 1, nodes: 1000, dir: "out/1000-nodes/traditional".into(), games: 100 });
        assert_eq!(plan(false, &[1000]).dirs(), ["out/malka", "out/traditional"]);
    }

    #[test]
    fn wide_batches_grow_by_a_step_up_to_the_maximum_and_stay_even() {
        // Malka: all decisive, pairs won both times by one colour (wide); Traditional: draws with a rare win (narrow).
        let mut drawn = vec![0.5; 399];
        drawn.push(1.0);
        let ladder =
            Ladder::new(&[(1000, vec![cell("malka", 100, &[1.0, 1.0, 0.0, 0.0]), cell("traditional", 400, &drawn)])]);
        let mut p = plan(false, &[1000]);
        p.slots[1].games = 400;
        let target = Precision { half_width: 0.05, step: 75, max_games: 220, paired: true };
        assert_eq!(p.grow(&ladder, &target), Growth::More);
        assert_eq!((p.slots[0].games, p.slots[1].games), (176, 400), "100 + 75 = 175, made even; the narrow one stays");
        assert_eq!(p.grow(&ladder, &target), Growth::More);
        assert_eq!(p.slots[0].games, 220, "capped at --max-games");
        match p.grow(&ladder, &target) {
            Growth::Done { within, widest } => {
                assert!(!within, "the wide batch reached the maximum, not the target");
                assert!(widest > 0.05);
            }
            Growth::More => panic!("nothing can grow"),
        }
    }

    #[test]
    fn a_short_run_of_identical_results_does_not_stop_the_batches() {
        // Ten draws: an interval of width zero, but far fewer games than ±0.05 needs.
        let ladder = Ladder::new(&[(1000, vec![cell("malka", 10, &[0.5]), cell("traditional", 10, &[0.5])])]);
        let mut p = plan(false, &[1000]);
        for s in &mut p.slots {
            s.games = 10;
        }
        assert_eq!(min_games(0.05), 97);
        let target = Precision { half_width: 0.05, step: 10, max_games: 1000, paired: false };
        assert_eq!(p.grow(&ladder, &target), Growth::More);
        assert!(p.slots.iter().all(|s| s.games == 20));
    }

    #[test]
    fn a_sizing_follows_from_the_pilot_s_interval_and_time() {
        // 40 games, all decisive, pairs won both times by one colour: a wide interval.
        let ladder = Ladder::new(&[(2000, vec![cell("malka", 40, &[1.0, 1.0, 0.0, 0.0])])]);
        let c = &ladder.cells[0];
        let hw = c.score_half_width();
        let s = size(c, 1.5, 0.02, true);
        let expected = (40.0 * (hw / 0.02f64).powi(2)).ceil() as u64;
        assert_eq!(s.games, expected + expected % 2, "40·(hw/x)², even");
        assert!((s.core_hours - s.games as f64 * 1.5 / 3600.0).abs() < 1e-12);
        assert!((s.wall_hours(2) - s.core_hours / 2.0).abs() < 1e-12);
        assert!((s.sd_per_game - hw * 40f64.sqrt() / crate::stats::Z95).abs() < 1e-12);
        assert_eq!((s.variant.as_str(), s.nodes, s.pilot_games), ("malka", 2000, 40));
        // A narrow pilot still asks for the games an interval of that width needs to be trusted.
        let drawn = Ladder::new(&[(2000, vec![cell("malka", 40, &[0.5])])]);
        assert_eq!(size(&drawn.cells[0], 1.0, 0.02, true).games, min_games(0.02) + min_games(0.02) % 2);
    }
}
