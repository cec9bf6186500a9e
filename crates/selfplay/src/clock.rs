//! Time controls and the clocks of a game, as cutechess-cli keeps them.
//!
//! A time control is `moves/base+increment` (seconds): `40/60+0.6` is 60 s for every 40 moves and
//! 0.6 s more after each move; `60+0.6` is 60 s for the whole game with the increment; `10` is
//! 10 s for the whole game. Clocks count whole milliseconds: each move's wall time is rounded to
//! the nearest millisecond, taken off the mover's clock, and the increment added; at the end of
//! each period of `moves` moves the base time is added again. A mover whose clock is below
//! `−margin` after a move has lost on time.

use stackchess_search::Clock;
use std::fmt;
use std::str::FromStr;
use std::time::Duration;

/// A time control: `moves/base+increment`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct TimeControl {
    /// Moves per period (`None`: the base time is for the whole game).
    pub moves: Option<u32>,
    /// Time per period, in milliseconds.
    pub base_ms: u64,
    /// Added after each move, in milliseconds.
    pub increment_ms: u64,
}

/// The time margin by default: what a mover may exceed its clock by without losing
/// (cutechess-cli's `timemargin`).
pub const DEFAULT_TIME_MARGIN: Duration = Duration::from_millis(50);

/// Seconds with up to three decimals as milliseconds.
fn millis(text: &str, what: &str, tc: &str) -> Result<u64, String> {
    let bad = || format!("time control '{tc}': {what} '{text}' is not a number of seconds (at most 3 decimals)");
    let (whole, frac) = text.split_once('.').unwrap_or((text, ""));
    if (whole.is_empty() && frac.is_empty())
        || frac.len() > 3
        || !whole.bytes().all(|b| b.is_ascii_digit())
        || !frac.bytes().all(|b| b.is_ascii_digit())
    {
        return Err(bad());
    }
    let whole: u64 = if whole.is_empty() { 0 } else { whole.parse().map_err(|_| bad())? };
    let frac: u64 = if frac.is_empty() { 0 } else { format!("{frac:0<3}").parse().map_err(|_| bad())? };
    whole.checked_mul(1000).and_then(|w| w.checked_add(frac)).ok_or_else(bad)
}

/// Milliseconds as seconds, without trailing zeros: `60`, `0.6`, `0.05`.
fn seconds(ms: u64) -> String {
    if ms.is_multiple_of(1000) {
        (ms / 1000).to_string()
    } else {
        format!("{}.{:03}", ms / 1000, ms % 1000).trim_end_matches('0').to_owned()
    }
}

impl FromStr for TimeControl {
    type Err = String;
    /// `40/60+0.6`, `60+0.6`, `10`, `0.5+0.05` (seconds; cutechess-cli's form without its
    /// `m:ss` minutes).
    fn from_str(s: &str) -> Result<TimeControl, String> {
        let text = s.trim();
        let (moves, rest) = match text.split_once('/') {
            Some((m, rest)) => {
                let m: u32 = m
                    .parse()
                    .ok()
                    .filter(|&m| m > 0)
                    .ok_or_else(|| format!("time control '{s}': moves '{m}' is not a positive whole number"))?;
                (Some(m), rest)
            }
            None => (None, text),
        };
        let (base, inc) = rest.split_once('+').unwrap_or((rest, "0"));
        let tc = TimeControl { moves, base_ms: millis(base, "base", s)?, increment_ms: millis(inc, "increment", s)? };
        if tc.base_ms == 0 && tc.increment_ms == 0 {
            return Err(format!("time control '{s}': no time at all"));
        }
        Ok(tc)
    }
}

impl fmt::Display for TimeControl {
    /// The form it is read in, and the PGN `TimeControl` tag cutechess-cli writes: `40/60+0.6`,
    /// `60+0.6`, `10`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(m) = self.moves {
            write!(f, "{m}/")?;
        }
        write!(f, "{}", seconds(self.base_ms))?;
        if self.increment_ms > 0 {
            write!(f, "+{}", seconds(self.increment_ms))?;
        }
        Ok(())
    }
}

/// One side's clock during a game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SideClock {
    /// The time control.
    pub tc: TimeControl,
    /// Milliseconds left (negative within the margin after a late move).
    pub remaining_ms: i64,
    /// Moves made by this side.
    pub moves: u32,
}

/// What a move did to the mover's clock.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Charge {
    /// The move's time in whole milliseconds (what the clock was charged).
    pub time_ms: u64,
    /// The clock after the move's time was taken off, before the increment.
    pub after_ms: i64,
    /// Whether that is below `−margin`: the mover lost on time.
    pub flagged: bool,
}

#[allow(clippy::cast_possible_wrap)]
const fn signed(ms: u64) -> i64 {
    if ms > i64::MAX as u64 {
        i64::MAX
    } else {
        ms as i64
    }
}

impl SideClock {
    /// A full clock at the start of a game.
    #[must_use]
    pub fn new(tc: TimeControl) -> SideClock {
        SideClock { tc, remaining_ms: signed(tc.base_ms), moves: 0 }
    }

    /// Moves until the next period, if the control has periods.
    #[must_use]
    pub fn moves_to_go(&self) -> Option<u32> {
        self.tc.moves.map(|m| m - self.moves % m)
    }

    /// The clock as the built-in search reads it ([`Clock`]), with its default margin.
    #[must_use]
    pub fn search_clock(&self) -> Clock {
        Clock::new(
            Duration::from_millis(self.remaining_ms.max(0).unsigned_abs()),
            Duration::from_millis(self.tc.increment_ms),
            self.moves_to_go(),
        )
    }

    /// Charges a move that took `elapsed`: rounds it to whole milliseconds, takes it off, says
    /// whether the mover is below `−margin`, then (if not) adds the increment and, at the end of a
    /// period, the base time.
    pub fn charge(&mut self, elapsed: Duration, margin: Duration) -> Charge {
        let time_ms = u64::try_from((elapsed.as_micros() + 500) / 1000).unwrap_or(u64::MAX);
        let after_ms = self.remaining_ms.saturating_sub(signed(time_ms));
        let flagged = after_ms < -signed(u64::try_from(margin.as_millis()).unwrap_or(u64::MAX));
        self.remaining_ms = after_ms;
        if !flagged {
            self.moves += 1;
            self.remaining_ms = self.remaining_ms.saturating_add(signed(self.tc.increment_ms));
            if self.tc.moves.is_some_and(|m| self.moves.is_multiple_of(m)) {
                self.remaining_ms = self.remaining_ms.saturating_add(signed(self.tc.base_ms));
            }
        }
        Charge { time_ms, after_ms, flagged }
    }
}

/// `[%emt 0:00:01.234]`-style `h:mm:ss.mmm` of milliseconds (negative with a leading `-`).
#[must_use]
pub fn hms(ms: i64) -> String {
    let sign = if ms < 0 { "-" } else { "" };
    let ms = ms.unsigned_abs();
    format!("{sign}{}:{:02}:{:02}.{:03}", ms / 3_600_000, ms / 60_000 % 60, ms / 1000 % 60, ms % 1000)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn time_controls_read_and_print_as_cutechess_writes_them() {
        for (text, moves, base, inc, shown) in [
            ("40/60+0.6", Some(40), 60_000, 600, "40/60+0.6"),
            ("60+0.6", None, 60_000, 600, "60+0.6"),
            ("10", None, 10_000, 0, "10"),
            ("2+0.05", None, 2_000, 50, "2+0.05"),
            ("0.5+.1", None, 500, 100, "0.5+0.1"),
            ("40/120", Some(40), 120_000, 0, "40/120"),
            ("1.25+0", None, 1_250, 0, "1.25"),
        ] {
            let tc: TimeControl = text.parse().unwrap();
            assert_eq!(tc, TimeControl { moves, base_ms: base, increment_ms: inc }, "{text}");
            assert_eq!(tc.to_string(), shown);
            assert_eq!(shown.parse::<TimeControl>(), Ok(tc));
        }
        for bad in ["", "abc", "0/60", "40/", "60+", "1.2345", "-5", "60+x", "0+0", "/60", "1:00"] {
            assert!(bad.parse::<TimeControl>().is_err(), "{bad}");
        }
        assert!("60+x".parse::<TimeControl>().unwrap_err().contains("increment 'x'"));
    }

    #[test]
    fn clocks_charge_add_increments_and_periods_and_flag_beyond_the_margin() {
        let ms = Duration::from_millis;
        let mut c = SideClock::new("2/1+0.1".parse().unwrap());
        assert_eq!(c.moves_to_go(), Some(2));
        let ch = c.charge(Duration::from_micros(300_400), ms(50));
        assert_eq!(ch, Charge { time_ms: 300, after_ms: 700, flagged: false });
        assert_eq!((c.remaining_ms, c.moves_to_go()), (800, Some(1)));
        // The end of the period adds the base time again.
        let ch = c.charge(ms(840), ms(50));
        assert_eq!((ch.after_ms, ch.flagged), (-40, false));
        assert_eq!((c.remaining_ms, c.moves_to_go()), (-40 + 100 + 1000, Some(2)));
        assert_eq!(c.search_clock().moves_to_go, Some(2));
        // Beyond the margin: flagged, nothing added.
        let ch = c.charge(ms(1_200), ms(50));
        assert_eq!((ch.after_ms, ch.flagged), (-140, true));
        assert_eq!(c.remaining_ms, -140);
        assert_eq!(c.search_clock().remaining, Duration::ZERO);
        assert_eq!(hms(3_723_004), "1:02:03.004");
        assert_eq!(hms(-40), "-0:00:00.040");
    }
}
