//! The batches: one self-play directory per rule set (and rung), played, completed or extended,
//! and grown until every White-score interval is narrow enough.

use crate::{Hooks, Setup, Study};
use anyhow::{bail, Context, Result};
use stackchess_analysis::plan::{Growth, Plan, Precision, Slot};
use stackchess_core::{Position, Rules};
use stackchess_search::Limits;
use stackchess_selfplay::{Adjudication, EngineSpec, Openings, ResignRule, RunConfig, RunEnd, Shard, Timing};
use stackchess_variants::WithPosition;
use std::collections::BTreeMap;
use std::path::Path;
use std::time::{Duration, Instant};

/// The batches played: where, each rule set's balanced suite, and how long it took.
pub struct Played {
    pub plan: Plan,
    pub suites: BTreeMap<String, String>,
    pub took: Duration,
    pub started: Instant,
}

/// A run of `games` games with the study's seed, adjudication and clock margin, played whole.
pub fn run_config(
    s: &Study,
    engines: Vec<EngineSpec>,
    openings: Openings,
    games: u64,
    paired: bool,
    event: &str,
) -> RunConfig {
    RunConfig {
        seed: s.seed,
        games,
        threads: s.threads,
        openings,
        opening_filter: None,
        paired,
        adjudication: Adjudication {
            max_plies: Some(s.max_plies),
            resign: (s.resign_score > 0).then_some(ResignRule { moves: 4, score: s.resign_score }),
            draw: None,
        },
        engines,
        event: event.to_owned(),
        shard: Shard::WHOLE,
        timing: Timing { margin: Duration::from_millis(s.time_margin_ms), ..Timing::default() },
    }
}

/// The event of the study's batches.
const EVENT: &str = "stackchess balance";

/// Plays `cfg` for `P` in `dir` (resuming what is there) under a display from `hooks`.
pub fn play<P: Position>(
    rules: P::Rules,
    dir: &Path,
    cfg: &RunConfig,
    hooks: &mut impl Hooks,
    (label, first): (&str, Option<&str>),
    progress: Option<&mut dyn stackchess_selfplay::Progress>,
) -> Result<stackchess_selfplay::Summary> {
    let resume = dir.join("manifest.json").exists();
    let mut shown = hooks.run(label, first)?;
    let mut nothing = stackchess_selfplay::NoProgress;
    let mut both = Both(progress.unwrap_or(&mut nothing), shown.as_mut());
    let summary = stackchess_selfplay::run::<P>(rules, dir, cfg, resume, hooks.stop(), &mut both);
    drop(shown);
    Ok(summary?)
}

/// Two displays of one run; the first decides whether it goes on.
struct Both<'a>(&'a mut dyn stackchess_selfplay::Progress, &'a mut dyn stackchess_selfplay::Progress);

impl stackchess_selfplay::Progress for Both<'_> {
    fn begin(&mut self, total: u64, done: u64) {
        self.0.begin(total, done);
        self.1.begin(total, done);
    }
    fn resumed(&mut self, record: &stackchess_selfplay::GameRecord) {
        self.0.resumed(record);
        self.1.resumed(record);
    }
    fn finished(&mut self, record: &stackchess_selfplay::GameRecord) -> bool {
        let go_on = self.0.finished(record);
        self.1.finished(record) && go_on
    }
}

/// Plays (or completes, or extends) one rule set's batch at one strength.
struct Batch<'a, S, H> {
    study: &'a Study,
    setup: &'a S,
    hooks: &'a mut H,
    slot: &'a Slot,
    shard: Shard,
}

impl<S: Setup, H: Hooks> WithPosition for Batch<'_, S, H> {
    /// The description of a balanced suite, when the batch plays one.
    type Output = Result<Option<String>>;
    fn call<P: Position>(self, rules: P::Rules) -> Result<Option<String>> {
        let (s, slot) = (self.study, self.slot);
        let variant = s.variants[slot.variant];
        let engine = EngineSpec {
            label: "default".into(),
            config: self.setup.engine(slot.variant, rules.name())?,
            limits: if s.tc.is_some() { Limits::default() } else { Limits::nodes(slot.nodes) },
            tc: s.tc,
            external: None,
        };
        let (openings, suite) = self.setup.openings::<P>(rules, if s.paired { slot.games / 2 } else { slot.games })?;
        let mut cfg = run_config(s, vec![engine], openings, slot.games, s.paired, EVENT);
        cfg.shard = self.shard;
        let label =
            if s.ladder { format!("{variant} games @{} nodes", slot.nodes) } else { format!("{variant} games") };
        let summary = play::<P>(rules, &slot.dir, &cfg, self.hooks, (&label, None), None).with_context(|| {
            format!("self-play of {variant} in {} (remove the directory to start it afresh)", slot.dir.display())
        })?;
        if summary.end == RunEnd::Interrupted {
            bail!(
                "interrupted: {} of {} {variant} games recorded; run the same command again to complete",
                summary.done,
                summary.games
            );
        }
        Ok(suite)
    }
}

/// Plays (or completes, or extends) `slot`'s batch; the balanced suite's description when it plays one.
pub fn play_slot(
    study: &Study,
    setup: &impl Setup,
    hooks: &mut impl Hooks,
    slot: &Slot,
    shard: Shard,
) -> Result<Option<String>> {
    std::fs::create_dir_all(&slot.dir).with_context(|| format!("creating {}", slot.dir.display()))?;
    study.variants[slot.variant].with(Batch { study, setup, hooks, slot, shard })
}

/// Every rule set's name, and its batches' directory name (a shard's beside the merged one:
/// `<variant>.shard-I`).
pub fn names(study: &Study, shard: Shard) -> (Vec<String>, Vec<String>) {
    let names = study.variants.iter().map(ToString::to_string).collect();
    let dirs = study
        .variants
        .iter()
        .map(|v| if shard.is_whole() { v.name().to_owned() } else { format!("{}.shard-{}", v.name(), shard.index) })
        .collect();
    (names, dirs)
}

/// Plays every batch (and, with a precision, more until the intervals are narrow enough); `None`
/// for a shard, whose report is made once the shards are merged.
pub fn play_all(study: &Study, setup: &impl Setup, hooks: &mut impl Hooks) -> Result<Option<Played>> {
    let started = Instant::now();
    let shard = study.shard;
    let (names, dir_names) = names(study, shard);
    let mut plan = Plan::new(&study.dir, &names, &dir_names, &study.rungs, study.ladder, study.games);
    // Each rule set's balanced suite, as its last batch played it.
    let mut suites = BTreeMap::new();
    let played = loop {
        for slot in &plan.slots {
            let t = Instant::now();
            let v = study.variants[slot.variant];
            if let Some(text) = play_slot(study, setup, hooks, slot, shard)? {
                suites.insert(v.to_string(), text);
            }
            hooks.say(&format!(
                "{v} at {} nodes: {} games in {} ({:.1}s)",
                slot.nodes,
                slot.games,
                slot.dir.display(),
                t.elapsed().as_secs_f64()
            ));
        }
        if !shard.is_whole() {
            hooks.say(&format!(
                "shard {shard} of every batch played; once all shards are done, merge each batch's shards \
                 (stackchess merge --out DIR/V DIR/V.shard-*, docs/cluster.md) and run balance again without --shard \
                 for the report"
            ));
            return Ok(None);
        }
        let Some(x) = study.precision else { break started.elapsed() };
        let target = Precision { half_width: x, step: study.games, max_games: study.max_games, paired: study.paired };
        if let Growth::Done { within, widest } = plan.grow(&plan.ladder()?, &target) {
            let verdict = if within { "within" } else { "not yet within (--max-games reached)" };
            hooks.say(&format!("every White-score interval {verdict} ±{x} (widest ±{widest:.4})"));
            break started.elapsed();
        }
    };
    Ok(Some(Played { plan, suites, took: played, started }))
}
