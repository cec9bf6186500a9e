//! `stackchess train`: a neural evaluation for a rule set, trained on the CPU from data files
//! (`datagen`; docs/nnue.md).

use anyhow::{bail, Context, Result};
use stackchess_core::{Position, Rules};
use stackchess_datagen::Labels;
use stackchess_train::{Epoch, Hook, Options, Prepared, Split};
use stackchess_variants::{VariantArg, WithPosition};
use std::io::Write as _;
use std::path::PathBuf;

/// Flags of `train`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// Variant: malka, traditional, fide, air-attack, or rules:FILE (the data's rule set).
    #[arg(long, short, default_value = "malka")]
    pub variant: VariantArg,
    /// Data files (`stackchess datagen`), read together (a position of an earlier file is not repeated).
    #[arg(long, value_name = "FILE", num_args = 1.., required = true)]
    pub data: Vec<PathBuf>,
    /// The net file to write (`--eval net:FILE` reads it).
    #[arg(long)]
    pub out: PathBuf,
    /// Neurons of the first layer [default: 64; with --init, the net's].
    #[arg(long)]
    pub hidden: Option<usize>,
    /// Passes over the data.
    #[arg(long, default_value_t = Options::default().epochs)]
    pub epochs: usize,
    /// Samples a mini-batch.
    #[arg(long, default_value_t = Options::default().batch)]
    pub batch: usize,
    /// Adam's learning rate (a tenth of it for the last quarter of the epochs).
    #[arg(long, default_value_t = Options::default().lr)]
    pub lr: f32,
    /// The weight of the search score in each target: λ·σ(score) + (1 − λ)·result.
    #[arg(long, default_value_t = 0.75)]
    pub lambda: f64,
    /// Share of games held out to measure the net.
    #[arg(long, default_value_t = 0.05)]
    pub holdout: f64,
    /// Seed of the weights, the shuffles and the held-out split.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Worker threads (default: one per core).
    #[arg(long, default_value_t = 0)]
    pub threads: usize,
    /// A residual net: its output is added to this linear evaluation, `preset` (the rule set's) or
    /// a parameter file, which the net file carries (docs/nnue.md).
    #[arg(long, value_name = "preset|FILE")]
    pub base: Option<String>,
    /// Train with shared inputs (the piece on its square of any level, on a level, anywhere),
    /// folded into the net at the end: more learnt from fewer positions, nothing added to the search.
    #[arg(long)]
    pub factorise: bool,
    /// Start from this net's weights instead of random ones (a net of this rule set and the same
    /// `--base`): more training for a net whose data is gone, or on new data.
    #[arg(long, value_name = "NET")]
    pub init: Option<PathBuf>,
}

/// The parameters `--base` names.
fn base_params(base: &str, variant: stackchess_variants::Variant) -> Result<stackchess_search::EvalParams> {
    if base == "preset" {
        return Ok(crate::common::Evaluation::preset(variant)?.engine.eval);
    }
    let text = std::fs::read_to_string(base).with_context(|| format!("--base {base}"))?;
    stackchess_search::EvalParams::parse(&text).with_context(|| format!("--base {base}"))
}

/// Prints each epoch's losses.
struct Lines;
impl Hook for Lines {
    fn epoch(&mut self, e: &Epoch) {
        // A closed pipe ends the listing, not the training.
        let _ = writeln!(
            std::io::stdout(),
            "epoch {:>3}: train {:.6}  held out {:.6}  lr {:.5}  {:.1} s",
            e.epoch,
            e.train,
            e.holdout,
            e.lr,
            e.seconds
        );
    }
}

/// The flags, and the linear evaluation the net is measured against (`--base`'s, else the
/// preset's) with whether the net is its residual.
struct Run<'a> {
    args: &'a Args,
    linear: stackchess_search::EvalParams,
    residual: bool,
}
impl Run<'_> {
    /// The net `--init` names, as floats: refused when it is for another rule set or corrects
    /// another linear evaluation than this training's.
    fn init<P: Position>(&self, rules: P::Rules) -> Result<Option<stackchess_nnue::FloatNet>> {
        let Some(path) = &self.args.init else { return Ok(None) };
        let net = stackchess_search::NetFile::load::<P>(rules, path).with_context(|| "--init".to_owned())?.net;
        let base = if self.residual { self.linear.to_file() } else { String::new() };
        let (file, given) = (path.display(), self.args.base.as_deref().unwrap_or("preset"));
        match (net.base.is_empty(), base.is_empty()) {
            (true, false) => {
                bail!("--init {file} is a plain net; this training is a residual one (--base {given}): drop --base")
            }
            (false, true) => bail!("--init {file} is a residual net: give the --base it was trained with"),
            _ if net.base != base => bail!("--init {file} corrects another linear evaluation than --base {given}"),
            _ => {}
        }
        Ok(Some(stackchess_nnue::FloatNet::from_net(&net)))
    }
}

impl WithPosition for Run<'_> {
    type Output = Result<()>;
    fn call<P: Position>(self, rules: P::Rules) -> Result<()> {
        let a = self.args;
        let init = self.init::<P>(rules)?;
        let o = Options {
            hidden: a.hidden.or(init.as_ref().map(|n| n.hidden)).unwrap_or(Options::default().hidden),
            epochs: a.epochs,
            batch: a.batch,
            lr: a.lr,
            seed: a.seed,
            threads: a.threads,
            factor_levels: if a.factorise { P::LEVELS } else { 0 },
            init,
        };
        o.check()?;
        let labels = Labels { lambda: a.lambda, ..Labels::default() };
        let started = std::time::Instant::now();
        let split = Split { labels, holdout: a.holdout, seed: a.seed, linear: &self.linear, residual: self.residual };
        let Prepared { positions, train, holdout, linear_alone } =
            stackchess_train::prepare::<P>(rules, &a.data, &split)?;
        println!(
            "{positions} positions: {} to train on, {} held out ({:.1} s to read)",
            train.len(),
            holdout.len(),
            started.elapsed().as_secs_f64()
        );
        println!("held out, the linear evaluation alone: {linear_alone:.6}");
        let _run = crate::interrupt::run()?;
        let inputs = stackchess_nnue::Features::of::<P>(rules).inputs();
        let t = stackchess_train::train(inputs, &train, &holdout, &o, &crate::interrupt::STOP, &mut Lines)?;
        let command = std::env::args().collect::<Vec<_>>().join(" ");
        let about = format!(
            "command: {command}; data: {positions} positions ({} held out) from {}; seed {}",
            holdout.len(),
            a.data.iter().map(|p| p.display().to_string()).collect::<Vec<_>>().join(" "),
            a.seed
        );
        let mut net = t.net.quantise(rules.id(), P::LEVELS, &about);
        if self.residual {
            net.base = self.linear.to_file();
        }
        net.write(&a.out).with_context(|| format!("writing {}", a.out.display()))?;
        let secs: f64 = t.epochs.iter().map(|e| e.seconds).sum();
        println!(
            "wrote {} ({} neurons, {} epochs in {secs:.1} s: {:.0} positions/s)",
            a.out.display(),
            o.hidden,
            t.epochs.len(),
            (train.len() * t.epochs.len()) as f64 / secs.max(1e-9)
        );
        Ok(())
    }
}

/// Runs `train`.
pub fn run(a: &Args) -> Result<()> {
    if !(0.0..=1.0).contains(&a.lambda) || !(0.0..1.0).contains(&a.holdout) {
        bail!("--lambda {} / --holdout {}: give a weight from 0 to 1 and a share below 1", a.lambda, a.holdout);
    }
    let variant = a.variant.load()?;
    let linear = base_params(a.base.as_deref().unwrap_or("preset"), variant)?;
    variant.with(Run { args: a, linear, residual: a.base.is_some() })
}
