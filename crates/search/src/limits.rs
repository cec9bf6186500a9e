//! Limits in: when a search stops, and how much of a clock one move may take.

use std::time::Duration;

/// When to stop searching. Every limit given applies; `Default` is no limit (search until stopped).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Limits {
    /// Iterations to complete (plies of nominal depth).
    pub depth: Option<u32>,
    /// Nodes to visit at most (checked exactly with one thread: the result is reproducible).
    pub nodes: Option<u64>,
    /// Wall time for this move.
    pub movetime: Option<Duration>,
    /// Clock play: the move's time is taken from the mover's clock ([`Clock::bounds`]).
    pub clock: Option<Clock>,
    /// Mate search: stop once a mate in at most this many moves is found, or once the iteration of
    /// depth `2·mate − 1` has proved there is none (pruning is switched off for such a search).
    pub mate: Option<u32>,
}

impl Limits {
    /// A depth limit.
    #[must_use]
    pub fn depth(d: u32) -> Limits {
        Limits { depth: Some(d), ..Limits::default() }
    }
    /// A node limit.
    #[must_use]
    pub fn nodes(n: u64) -> Limits {
        Limits { nodes: Some(n), ..Limits::default() }
    }
    /// A time limit.
    #[must_use]
    pub fn movetime(t: Duration) -> Limits {
        Limits { movetime: Some(t), ..Limits::default() }
    }
    /// Clock play.
    #[must_use]
    pub fn clock(c: Clock) -> Limits {
        Limits { clock: Some(c), ..Limits::default() }
    }
    /// A search for a mate in at most `moves` moves.
    #[must_use]
    pub fn mate(moves: u32) -> Limits {
        Limits { mate: Some(moves), ..Limits::default() }
    }

    /// The time bounds of the time limits (the tighter of `movetime` and `clock`), if any.
    ///
    /// `movetime t` gives a soft bound of `t/2` (an iteration begun later would rarely finish) and a
    /// hard bound of `t`.
    #[must_use]
    pub fn time_bounds(&self) -> Option<TimeBounds> {
        let fixed = self.movetime.map(|t| TimeBounds { soft: t / 2, hard: t });
        let clock = self.clock.map(|c| c.bounds());
        match (fixed, clock) {
            (Some(a), Some(b)) => Some(TimeBounds { soft: a.soft.min(b.soft), hard: a.hard.min(b.hard) }),
            (a, b) => a.or(b),
        }
    }

    /// Whether a wall-clock limit applies (results then depend on the machine).
    #[must_use]
    pub fn timed(&self) -> bool {
        self.movetime.is_some() || self.clock.is_some()
    }
}

/// When a timed search stops: no iteration starts after `soft`, and the running one is abandoned
/// at `hard` (its better root move, if it proved one, is kept).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TimeBounds {
    /// No new iteration after this.
    pub soft: Duration,
    /// Stop at once after this.
    pub hard: Duration,
}

/// The mover's clock, as UCI's `go wtime btime winc binc movestogo` gives it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Clock {
    /// Time left on the mover's clock.
    pub remaining: Duration,
    /// Added to the mover's clock after each move.
    pub increment: Duration,
    /// Moves until the next time control (`None`: the rest of the game).
    pub moves_to_go: Option<u32>,
    /// Kept back for what the search does not see: reading the command, printing the move, the
    /// client's own delay. Never more than half the remaining time is kept back.
    pub margin: Duration,
}

impl Clock {
    /// The default [`Clock::margin`].
    pub const MARGIN: Duration = Duration::from_millis(30);
    /// Moves the remaining time is shared among when `moves_to_go` is not given.
    pub const MOVES_TO_GO: u32 = 30;

    /// A clock with the default margin.
    #[must_use]
    pub fn new(remaining: Duration, increment: Duration, moves_to_go: Option<u32>) -> Clock {
        Clock { remaining, increment, moves_to_go, margin: Clock::MARGIN }
    }

    /// This move's time bounds. The usable time is the remaining time less the margin; the move's
    /// share of it is `usable / moves_to_go + ¾ increment`; the soft bound is half the share and
    /// the hard bound twice the share, never more than half the usable time (all of it when this
    /// is the last move before the time control). So `hard ≤ remaining − min(margin, remaining/2)`:
    /// a search that stops at its hard bound never loses on time by its own doing.
    #[must_use]
    pub fn bounds(&self) -> TimeBounds {
        let usable = self.remaining.saturating_sub(self.margin.min(self.remaining / 2));
        let moves = self.moves_to_go.unwrap_or(Clock::MOVES_TO_GO).max(1);
        let share = usable / moves + self.increment * 3 / 4;
        let cap = if moves == 1 { usable } else { usable / 2 };
        let hard = share.saturating_mul(2).min(cap);
        TimeBounds { soft: (share / 2).min(hard), hard }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ms(n: u64) -> Duration {
        Duration::from_millis(n)
    }

    #[test]
    fn clock_bounds_never_exceed_the_remaining_time() {
        for remaining in [0, 1, 5, 31, 60, 100, 1_000, 10_000, 300_000] {
            for inc in [0, 10, 100, 2_000, 60_000] {
                for mtg in [None, Some(0), Some(1), Some(2), Some(40)] {
                    let b = Clock::new(ms(remaining), ms(inc), mtg).bounds();
                    assert!(b.soft <= b.hard, "{remaining} {inc} {mtg:?}: {b:?}");
                    assert!(b.hard <= ms(remaining), "{remaining} {inc} {mtg:?}: {b:?}");
                    if remaining >= 60 {
                        assert!(b.hard + Clock::MARGIN <= ms(remaining), "{remaining} {inc} {mtg:?}: {b:?}");
                    }
                }
            }
        }
    }

    #[test]
    fn clock_shares() {
        // Sudden death, 60 s: (60000 − 30) / 30 = 1999 ms a move, soft half, hard twice.
        let b = Clock::new(ms(60_000), Duration::ZERO, None).bounds();
        assert_eq!(b, TimeBounds { soft: Duration::from_micros(999_500), hard: ms(3_998) });
        // A large increment is capped by half the usable time.
        let b = Clock::new(ms(1_000), ms(5_000), None).bounds();
        assert_eq!(b.hard, ms(485));
        // The last move before the control may use all the usable time.
        let b = Clock::new(ms(1_000), Duration::ZERO, Some(1)).bounds();
        assert_eq!(b.hard, ms(970));
        // movetime and a clock: the tighter bound of each kind.
        let l = Limits { movetime: Some(ms(500)), ..Limits::clock(Clock::new(ms(60_000), Duration::ZERO, None)) };
        assert_eq!(l.time_bounds(), Some(TimeBounds { soft: ms(250), hard: ms(500) }));
        assert_eq!(Limits::depth(3).time_bounds(), None);
    }
}
