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

/// The variable that gives the number of shards of a Kubernetes Indexed Job (its
/// `.spec.completions`), when `--shard-count` is not given.
pub const SHARD_COUNT_VAR: &str = "STACKCHESS_SHARD_COUNT";

impl Shard {
    /// The shard of this task of a job array (`--shard auto`), read through `var` (the
    /// environment): a Slurm array (`SLURM_ARRAY_TASK_ID` less `SLURM_ARRAY_TASK_MIN`, divided
    /// by `SLURM_ARRAY_TASK_STEP`, of `SLURM_ARRAY_TASK_COUNT`), else a Kubernetes Indexed Job
    /// (`JOB_COMPLETION_INDEX` of `count`, or of [`SHARD_COUNT_VAR`]). A `count` given with a
    /// Slurm array must agree with it. Returns the shard and where it came from.
    ///
    /// # Errors
    /// When neither is set, a value is not a whole number (naming the variable and value), or
    /// the index does not fit the count.
    pub fn from_env(var: impl Fn(&str) -> Option<String>, count: Option<u32>) -> Result<(Shard, String), Error> {
        let num = |name: &str| -> Result<Option<u32>, Error> {
            var(name)
                .map(|v| {
                    v.trim()
                        .parse::<u32>()
                        .map_err(|_| Error::Config(format!("--shard auto: {name}='{v}' is not a whole number from 0")))
                })
                .transpose()
        };
        let bad = |what: String| Error::Config(format!("--shard auto: {what}"));
        if let Some(id) = num("SLURM_ARRAY_TASK_ID")? {
            let total = num("SLURM_ARRAY_TASK_COUNT")?.ok_or_else(|| {
                bad("SLURM_ARRAY_TASK_ID is set but SLURM_ARRAY_TASK_COUNT is not (is this a job array?)".into())
            })?;
            let min = num("SLURM_ARRAY_TASK_MIN")?.unwrap_or(0);
            let step = num("SLURM_ARRAY_TASK_STEP")?.unwrap_or(1).max(1);
            if id < min || (id - min) % step != 0 {
                return Err(bad(format!(
                    "SLURM_ARRAY_TASK_ID={id} is not in the array from SLURM_ARRAY_TASK_MIN={min} by steps of {step}"
                )));
            }
            if let Some(n) = count.filter(|&n| n != total) {
                return Err(bad(format!("--shard-count {n} disagrees with SLURM_ARRAY_TASK_COUNT={total}")));
            }
            let index = (id - min) / step;
            let shard = Shard::new(index, total).map_err(|_| {
                bad(format!(
                    "SLURM_ARRAY_TASK_ID={id} is task {index} from SLURM_ARRAY_TASK_MIN={min}, but \
                     SLURM_ARRAY_TASK_COUNT={total}: give the array as one range (e.g. --array=0-{})",
                    total.saturating_sub(1)
                ))
            })?;
            return Ok((shard, format!("Slurm array task {id}")));
        }
        if let Some(index) = num("JOB_COMPLETION_INDEX")? {
            let total = match count {
                Some(n) => n,
                None => num(SHARD_COUNT_VAR)?.ok_or_else(|| {
                    bad(format!(
                        "JOB_COMPLETION_INDEX={index} is set, but not the number of shards: give --shard-count N \
                         or set {SHARD_COUNT_VAR} (the job's completions)"
                    ))
                })?,
            };
            let shard = Shard::new(index, total).map_err(|_| {
                bad(format!("JOB_COMPLETION_INDEX={index} does not fit {total} shards (indices 0 to N-1)"))
            })?;
            return Ok((shard, format!("Kubernetes completion index {index}")));
        }
        Err(bad("neither a Slurm array (SLURM_ARRAY_TASK_ID) nor a Kubernetes Indexed Job (JOB_COMPLETION_INDEX) \
             is set here; give --shard I/N"
            .into()))
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

    fn env<'a>(vars: &'a [(&'a str, &'a str)]) -> impl Fn(&str) -> Option<String> + 'a {
        move |k| vars.iter().find(|(n, _)| *n == k).map(|(_, v)| (*v).to_owned())
    }

    #[test]
    fn shards_from_slurm_and_kubernetes() {
        let slurm = [("SLURM_ARRAY_TASK_ID", "5"), ("SLURM_ARRAY_TASK_COUNT", "4"), ("SLURM_ARRAY_TASK_MIN", "3")];
        assert_eq!(Shard::from_env(env(&slurm), None).unwrap().0, Shard::new(2, 4).unwrap());
        let stepped = [
            ("SLURM_ARRAY_TASK_ID", "6"),
            ("SLURM_ARRAY_TASK_COUNT", "4"),
            ("SLURM_ARRAY_TASK_MIN", "0"),
            ("SLURM_ARRAY_TASK_STEP", "2"),
        ];
        assert_eq!(Shard::from_env(env(&stepped), None).unwrap().0, Shard::new(3, 4).unwrap());
        let k8s = [("JOB_COMPLETION_INDEX", "2")];
        assert_eq!(Shard::from_env(env(&k8s), Some(3)).unwrap().0, Shard::new(2, 3).unwrap());
        let k8s_var = [("JOB_COMPLETION_INDEX", "0"), (SHARD_COUNT_VAR, "7")];
        assert_eq!(Shard::from_env(env(&k8s_var), None).unwrap().0, Shard::new(0, 7).unwrap());
        // Slurm wins when both are set (a Slurm job running in a pod is still a Slurm task).
        let both = [slurm.as_slice(), k8s.as_slice()].concat();
        assert_eq!(Shard::from_env(env(&both), None).unwrap().0, Shard::new(2, 4).unwrap());
    }

    #[test]
    fn bad_environments_name_the_variable_and_value() {
        type Vars<'a> = &'a [(&'a str, &'a str)];
        let cases: &[(Vars, Option<u32>, &str)] = &[
            (&[], None, "neither a Slurm array"),
            (&[("SLURM_ARRAY_TASK_ID", "x1"), ("SLURM_ARRAY_TASK_COUNT", "4")], None, "SLURM_ARRAY_TASK_ID='x1'"),
            (&[("SLURM_ARRAY_TASK_ID", "1")], None, "SLURM_ARRAY_TASK_COUNT is not"),
            (&[("SLURM_ARRAY_TASK_ID", "1"), ("SLURM_ARRAY_TASK_COUNT", "-2")], None, "SLURM_ARRAY_TASK_COUNT='-2'"),
            (&[("SLURM_ARRAY_TASK_ID", "9"), ("SLURM_ARRAY_TASK_COUNT", "4")], None, "SLURM_ARRAY_TASK_ID=9"),
            (
                &[("SLURM_ARRAY_TASK_ID", "1"), ("SLURM_ARRAY_TASK_COUNT", "4"), ("SLURM_ARRAY_TASK_MIN", "2")],
                None,
                "SLURM_ARRAY_TASK_MIN=2",
            ),
            (&[("SLURM_ARRAY_TASK_ID", "1"), ("SLURM_ARRAY_TASK_COUNT", "4")], Some(3), "--shard-count 3"),
            (&[("JOB_COMPLETION_INDEX", "1")], None, SHARD_COUNT_VAR),
            (&[("JOB_COMPLETION_INDEX", "one")], Some(2), "JOB_COMPLETION_INDEX='one'"),
            (&[("JOB_COMPLETION_INDEX", "2")], Some(2), "JOB_COMPLETION_INDEX=2 does not fit 2"),
            (&[("JOB_COMPLETION_INDEX", "0"), (SHARD_COUNT_VAR, "")], None, "STACKCHESS_SHARD_COUNT=''"),
        ];
        for (vars, count, want) in cases {
            let e = Shard::from_env(env(vars), *count).unwrap_err().to_string();
            assert!(e.contains(want) && e.starts_with("--shard auto"), "{vars:?}: {e}");
        }
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
