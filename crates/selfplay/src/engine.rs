//! One engine of a run as configured: its label, the built-in engine's settings or an external
//! program, its limits per move and its clock; and how records describe them.

use crate::clock::TimeControl;
use crate::external::ExternalSpec;
use stackchess_search::{Limits, SearchConfig};

/// One engine of a run: its label in records, what plays (the built-in engine with its settings,
/// or an external engine), its limits per move and its time control.
#[derive(Clone, Debug, Default)]
pub struct EngineSpec {
    /// `default` in self-play, `A` or `B` in a match (or the name given with `--engine`).
    pub label: String,
    /// Search settings of the built-in engine (unused for an external one).
    pub config: SearchConfig,
    /// Limits of each move's search (without the clock, which the game keeps).
    pub limits: Limits,
    /// The time control, if the engine plays on a clock.
    pub tc: Option<TimeControl>,
    /// An external engine instead of the built-in one.
    pub external: Option<ExternalSpec>,
}

impl EngineSpec {
    /// The built-in engine with these settings and limits, without a clock.
    #[must_use]
    pub fn builtin(label: &str, config: SearchConfig, limits: Limits) -> EngineSpec {
        EngineSpec { label: label.to_owned(), config, limits, tc: None, external: None }
    }

    /// Limits and settings on one line: `nodes=1000 hash=16 features=... eval: ...`; with a clock
    /// `tc=40/60+0.6 ...`; for an external engine `cmd=PATH arg=... option.Hash=64 ...` in place
    /// of the settings.
    #[must_use]
    pub fn describe(&self) -> String {
        let mut limits = describe_limits(&self.limits);
        if let Some(tc) = self.tc {
            limits = if self.limits == Limits::default() { format!("tc={tc}") } else { format!("tc={tc} {limits}") };
        }
        let what = match &self.external {
            Some(x) => x.describe(),
            None => self.config.describe(),
        };
        format!("{limits} {what}").replace(['\n', '|'], " ")
    }
}

/// `depth=D nodes=N movetime=Tms`, the limits given.
#[must_use]
pub fn describe_limits(l: &Limits) -> String {
    let mut parts = Vec::new();
    if let Some(d) = l.depth {
        parts.push(format!("depth={d}"));
    }
    if let Some(n) = l.nodes {
        parts.push(format!("nodes={n}"));
    }
    if let Some(t) = l.movetime {
        parts.push(format!("movetime={}ms", t.as_millis()));
    }
    if parts.is_empty() {
        "infinite".to_owned()
    } else {
        parts.join(" ")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn limits_are_described_in_one_line() {
        assert_eq!(describe_limits(&Limits::nodes(500)), "nodes=500");
        let l = Limits { depth: Some(4), movetime: Some(std::time::Duration::from_millis(50)), ..Limits::default() };
        assert_eq!(describe_limits(&l), "depth=4 movetime=50ms");
        let spec = EngineSpec {
            tc: "40/60+0.6".parse().ok(),
            ..EngineSpec::builtin("A", SearchConfig::default(), Limits::default())
        };
        assert!(spec.describe().starts_with("tc=40/60+0.6 hash="), "{}", spec.describe());
        let spec =
            EngineSpec { tc: "10".parse().ok(), ..EngineSpec::builtin("A", SearchConfig::default(), Limits::nodes(9)) };
        assert!(spec.describe().starts_with("tc=10 nodes=9 "), "{}", spec.describe());
    }
}
