//! `--shard I/N|auto` and `--shard-count N`: the part of a run this process plays, given or
//! read from the job array it runs in (docs/cluster.md).

use anyhow::Result;
use stackchess_selfplay::Shard;
use std::path::Path;

/// The value of `--shard`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ShardSpec {
    /// `I/N`.
    Given(Shard),
    /// `auto`: from a Slurm array or a Kubernetes Indexed Job.
    Auto,
}

impl std::str::FromStr for ShardSpec {
    type Err = stackchess_selfplay::Error;
    fn from_str(s: &str) -> Result<ShardSpec, Self::Err> {
        if s == "auto" {
            Ok(ShardSpec::Auto)
        } else {
            s.parse().map(ShardSpec::Given)
        }
    }
}

/// The shard flags of `selfplay`, `match` and `balance`.
#[derive(clap::Args, Debug, Clone)]
pub struct ShardArgs {
    /// Play only shard I of N of the run (openings k with k % N == I; colour-swapped pairs stay
    /// together; every shard has the run's key and game ids: `stackchess merge` joins them).
    /// `auto`: the shard of this Slurm array task or Kubernetes Indexed Job pod, resuming the
    /// shard by itself when --out holds it already.
    #[arg(long, value_name = "I/N|auto", default_value = "0/1")]
    pub shard: ShardSpec,
    /// With `--shard auto` in a Kubernetes Indexed Job: the number of shards (the job's
    /// completions); else read from `STACKCHESS_SHARD_COUNT`.
    #[arg(long, value_name = "N")]
    pub shard_count: Option<u32>,
}

impl ShardArgs {
    /// The shard to play; `auto` reads it from the environment and says on stderr where from.
    pub fn resolve(&self) -> Result<Shard> {
        match self.shard {
            ShardSpec::Given(s) => {
                if self.shard_count.is_some() {
                    anyhow::bail!("--shard-count goes with --shard auto (--shard {s} gives the count)");
                }
                Ok(s)
            }
            ShardSpec::Auto => {
                let (shard, source) = Shard::from_env(|k| std::env::var(k).ok(), self.shard_count)?;
                eprintln!("shard {shard} (--shard auto: {source})");
                Ok(shard)
            }
        }
    }

    /// Whether the run in `out` is to be resumed without `--resume`: with `--shard auto`, when
    /// `out` holds a run (which must then be this shard of this run).
    pub fn resumes_by_itself(&self, out: &Path) -> bool {
        self.shard == ShardSpec::Auto && out.join(stackchess_selfplay::records::MANIFEST).exists()
    }
}
