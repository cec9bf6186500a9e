//! `stackchess analyse`: search one position and print each completed iteration.
//!
//! Output: one line per iteration,
//! `depth D seldepth S score cp X|mate N nodes N nps N time MS pv <SAN moves>`,
//! then `bestmove <coordinate move>` (`bestmove (none)` when there is no legal move).

use crate::common::{EngineArgs, PositionArgs};
use anyhow::Result;
use stackchess_core::{coord, san, Move, Position, Rules};
use stackchess_search::{Engine, Limits, Report};
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
}

/// `--depth`, `--nodes`, `--movetime`.
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
}

impl LimitArgs {
    /// The limits; a 2-second search when none is given.
    pub fn limits(&self) -> Limits {
        let mut l = Limits {
            depth: self.depth,
            nodes: self.nodes,
            movetime: self.movetime.map(Duration::from_millis),
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
    let mut p = pos.clone();
    let mut out = Vec::with_capacity(line.len());
    for &m in line {
        if !p.is_legal(m) {
            break;
        }
        out.push(san(&p, m));
        p.play_unchecked(m);
    }
    out.join(" ")
}

/// One `info`-style line for a report.
pub fn report_line<P: Position>(pos: &P, r: &Report) -> String {
    format!(
        "depth {} seldepth {} score {} nodes {} nps {} time {} pv {}",
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
        let stop = AtomicBool::new(false);
        let r = engine.search(&pos, &[], &a.limits.limits(), &stop, &mut |r| println!("{}", report_line(&pos, r)));
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
