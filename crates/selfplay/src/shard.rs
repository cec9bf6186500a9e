//! Splitting one run across processes or machines: shard `i/N` plays the openings `k` with
//! `k % N == i` (both games of a colour-swapped pair stay together), and `merge` puts the shards'
//! directories back together as one run.
//!
//! A game depends on (settings, seed, index) alone, so a shard's games are exactly the games the
//! whole run would have played at those indices, and the shards share one run key.

use crate::Error;
use serde::{Deserialize, Serialize};
use std::fmt;
use std::str::FromStr;

/// Shard `index` of `count` (`0/1` is the whole run).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Shard {
    /// This shard, from 0.
    pub index: u32,
    /// Number of shards, at least 1.
    pub count: u32,
}

impl Shard {
    /// The whole run.
    pub const WHOLE: Shard = Shard { index: 0, count: 1 };

    /// Shard `index` of `count`.
    ///
    /// # Errors
    /// When `count` is 0 or `index >= count`.
    pub fn new(index: u32, count: u32) -> Result<Shard, Error> {
        if count == 0 || index >= count {
            return Err(Error::Config(format!(
                "shard {index}/{count}: expected I/N with N at least 1 and I from 0 to N-1"
            )));
        }
        Ok(Shard { index, count })
    }

    /// Whether this is the whole run.
    #[must_use]
    pub fn is_whole(self) -> bool {
        self.count == 1
    }

    /// Whether opening `pair` belongs to this shard.
    #[must_use]
    pub fn has_pair(self, pair: u64) -> bool {
        pair % u64::from(self.count) == u64::from(self.index)
    }
}

impl Default for Shard {
    fn default() -> Shard {
        Shard::WHOLE
    }
}

impl fmt::Display for Shard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.index, self.count)
    }
}

impl FromStr for Shard {
    type Err = Error;
    /// `I/N`, e.g. `3/16`.
    fn from_str(s: &str) -> Result<Shard, Error> {
        let bad = || Error::Config(format!("shard '{s}': expected I/N, e.g. 0/4 (shards are numbered from 0)"));
        let (i, n) = s.split_once('/').ok_or_else(bad)?;
        let (i, n) = (i.trim().parse().map_err(|_| bad())?, n.trim().parse().map_err(|_| bad())?);
        Shard::new(i, n)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shards_partition_the_openings() {
        let shards: Vec<Shard> = (0..3).map(|i| Shard::new(i, 3).unwrap()).collect();
        for pair in 0..30 {
            assert_eq!(shards.iter().filter(|s| s.has_pair(pair)).count(), 1);
        }
        assert!(Shard::WHOLE.has_pair(7) && Shard::WHOLE.is_whole());
    }

    #[test]
    fn parse_and_errors() {
        assert_eq!("2/5".parse::<Shard>().unwrap(), Shard { index: 2, count: 5 });
        assert_eq!(Shard { index: 2, count: 5 }.to_string(), "2/5");
        for bad in ["5/5", "1/0", "x/2", "3", "-1/2", ""] {
            let e = bad.parse::<Shard>().unwrap_err().to_string();
            assert!(e.contains("I/N"), "{bad}: {e}");
        }
    }
}
