//! `stackchess analyse`: search one position and print each completed iteration.
//!
//! Output: one line per iteration,
//! `depth D seldepth S score cp X|mate N nodes N nps N time MS pv <SAN moves>` (with `--multipv K`,
//! K lines per iteration, `multipv k` after the seldepth), then `bestmove <coordinate move>`
//! (`bestmove (none)` when there is no legal move).

use crate::common::{EngineArgs, PositionArgs};
use anyhow::Result;
use stackchess_core::{coord, Move, Position, Rules};
use stackchess_search::{Engine, Limits, Report, Request};
use stackchess_variants::WithPosition;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

/// Flags of `analyse`.
#[derive(clap::Args, Debug)]
pub struct Args {
    #[command(flatten)]
    pos: PositionArgs,
    #[command(flatten)]
    engine: EngineArgs,
    #[command(flatten)]
    limits: LimitArgs,
    /// Report this many lines, best first (each with a first move the better ones do not have).
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u16).range(1..=256))]
    multipv: u16,
    /// Search threads (Lazy SMP; results then vary from run to run).
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u16).range(1..=256))]
    threads: u16,
}

/// `--depth`, `--nodes`, `--movetime`, `--mate`.
#[derive(clap::Args, Debug, Clone, Default)]
pub struct LimitArgs {
    /// Search to this depth (plies).
    #[arg(long, short)]
    pub depth: Option<u32>,
    /// Search at most this many nodes (reproducible).
    #[arg(long)]
    pub nodes: Option<u64>,
    /// Search for this many milliseconds (default 2000 when no limit is given).
    #[arg(long)]
    pub movetime: Option<u64>,
    /// Search for a mate in at most N moves: stop when one is found, or when depth 2N − 1 has
    /// proved there is none.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..))]
    pub mate: Option<u32>,
}

impl LimitArgs {
    /// The limits; a 2-second search when none is given.
    pub fn limits(&self) -> Limits {
        let mut l = Limits {
            depth: self.depth,
            nodes: self.nodes,
            movetime: self.movetime.map(Duration::from_millis),
            mate: self.mate,
            ..Limits::default()
        };
        if l == Limits::default() {
            l.movetime = Some(Duration::from_secs(2));
        }
        l
    }
}

/// The moves of a line in SAN, played from `pos`.
pub fn san_line<P: Position>(pos: &P, line: &[Move]) -> String {
    stackchess_core::san_line(pos, line).join(" ")
}

/// One `info`-style line for a report; `multipv` names its line when there are several.
pub fn report_line<P: Position>(pos: &P, r: &Report, multipv: Option<usize>) -> String {
    let line = multipv.map(|k| format!("multipv {k} ")).unwrap_or_default();
    format!(
        "depth {} seldepth {} {line}score {} nodes {} nps {} time {} pv {}",
        r.depth,
        r.seldepth,
        r.score,
        r.nodes,
        r.nps(),
        r.elapsed.as_millis(),
        san_line(pos, &r.pv)
    )
}

struct Run<'a>(&'a Args);

impl WithPosition for Run<'_> {
    type Output = Result<()>;
    fn call<P: Position>(self, rules: P::Rules) -> Result<()> {
        let a = self.0;
        let pos: P = a.pos.position(rules)?;
        let mut engine = Engine::<P>::new(rules, a.engine.config(rules.name())?);
        engine.set_threads(usize::from(a.threads));
        let stop = AtomicBool::new(false);
        let request = Request { multipv: usize::from(a.multipv), ..Request::new(a.limits.limits(), &stop) };
        let r = engine.analyse(&pos, &[], &request, &mut |lines| {
            for (k, r) in lines.iter().enumerate() {
                println!("{}", report_line(&pos, r, (a.multipv > 1).then_some(k + 1)));
            }
        });
        match r.best_move() {
            Some(m) => println!("bestmove {}", coord::<P>(m)),
            None => println!("bestmove (none)"),
        }
        Ok(())
    }
}

/// Runs the command.
pub fn run(a: &Args) -> Result<()> {
    a.pos.variant()?.with(Run(a))
}
