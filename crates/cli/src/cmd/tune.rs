//! `stackchess tune`: fit a rule set's evaluation to scored positions of its own games (Texel's
//! method with score-blended labels; docs/tuning.md).

use crate::common::{note, EngineArgs};
use anyhow::{bail, Context, Result};
use stackchess_datagen::Labels;
use stackchess_search::EvalParams;
use stackchess_tune::{FitOptions, Settings};
use stackchess_variants::VariantArg;
use std::io::Write as _;
use std::path::PathBuf;

/// Flags of `tune`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// Variant: malka, traditional, fide, air-attack, or rules:FILE (a user-defined rule set).
    #[arg(long, short, default_value = "malka")]
    pub variant: VariantArg,
    /// Data files to fit (`stackchess datagen`); without, the data is made first (--games ...).
    #[arg(long, value_name = "FILE", num_args = 1..)]
    pub from: Vec<PathBuf>,
    /// Games of the data run.
    #[arg(long, default_value_t = Settings::default().data.games)]
    pub games: u64,
    /// Nodes a move in its games.
    #[arg(long, default_value_t = Settings::default().data.nodes)]
    pub nodes: u64,
    /// Quiet positions kept a game.
    #[arg(long, default_value_t = Settings::default().data.per_game)]
    pub per_game: usize,
    /// Nodes of the search that scores each kept position.
    #[arg(long, default_value_t = Settings::default().data.label_nodes)]
    pub label_nodes: u64,
    /// Where the data run writes (default: the --out file with .data); the same command resumes it.
    #[arg(long, value_name = "FILE")]
    pub data: Option<PathBuf>,
    /// The weight of the deep score in each target: λ·σ(score) + (1 − λ)·result (0: the result alone).
    #[arg(long, default_value_t = Labels::default().lambda)]
    pub lambda: f64,
    /// Share of games held out of the fit to measure it.
    #[arg(long, default_value_t = Settings::default().holdout)]
    pub holdout: f64,
    /// Pull toward the prior (0: none; docs/tuning.md).
    #[arg(long, default_value_t = FitOptions::default().ridge)]
    pub ridge: f64,
    /// A piece's value stays within this share of the prior's.
    #[arg(long, default_value_t = FitOptions::default().band)]
    pub band: f64,
    /// Keys held at the prior's values, comma-separated (besides value.pawn.mg and the mop-up).
    #[arg(long, value_delimiter = ',', value_name = "KEY,...")]
    pub keep: Vec<String>,
    /// Hold every key: the null control (the fit must give the prior back).
    #[arg(long)]
    pub keep_all: bool,
    /// Bootstrap resamples over games for the standard errors (0: none).
    #[arg(long, default_value_t = Settings::default().bootstrap)]
    pub bootstrap: usize,
    /// Seed of the data run's games, the held-out split and the bootstrap.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Worker threads (default: one per core).
    #[arg(long, default_value_t = 0)]
    pub threads: usize,
    /// The parameter file to write (`--params` reads it).
    #[arg(long)]
    pub out: PathBuf,
    /// No progress display.
    #[arg(long, short)]
    pub quiet: bool,
    /// The prior and the engine of the data run (default: the rule set's preset).
    #[command(flatten)]
    pub engine: EngineArgs,
}

impl Args {
    fn settings(&self) -> Result<Settings> {
        if !(0.0..1.0).contains(&self.holdout) {
            bail!("--holdout {}: give a share from 0 to below 1", self.holdout);
        }
        if !(0.0..=1.0).contains(&self.lambda) {
            bail!("--lambda {}: give a weight from 0 to 1", self.lambda);
        }
        if !(self.ridge >= 0.0 && self.ridge.is_finite() && (0.0..=1.0).contains(&self.band)) {
            bail!("--ridge {} / --band {}: give a weight of 0 or more and a share from 0 to 1", self.ridge, self.band);
        }
        let mut keep: Vec<String> = self.keep.clone();
        if let Some(k) = keep.iter().find(|k| !EvalParams::KEYS.contains(&k.as_str())) {
            bail!("--keep {k}: not a key of the evaluation (one of {})", EvalParams::KEYS.join(", "));
        }
        if self.keep_all {
            keep = EvalParams::KEYS.iter().map(|k| (*k).to_owned()).collect();
        }
        let mut s = Settings {
            from: self.from.clone(),
            labels: Labels { lambda: self.lambda, ..Labels::default() },
            holdout: self.holdout,
            seed: self.seed,
            fit: FitOptions {
                threads: self.threads,
                ridge: self.ridge,
                band: self.band,
                keep,
                ..FitOptions::default()
            },
            bootstrap: self.bootstrap,
            ..Settings::default()
        };
        s.data.games = self.games;
        s.data.nodes = self.nodes;
        s.data.per_game = self.per_game;
        s.data.label_nodes = self.label_nodes;
        s.data.seed = self.seed;
        s.data.threads = self.threads;
        Ok(s)
    }
}

/// Runs `tune`.
pub fn run(a: &Args) -> Result<()> {
    let settings = a.settings()?;
    let variant = a.variant.load()?;
    let engine = a.engine.config(variant.name())?;
    if let Some(text) = crate::common::Evaluation::preset(variant)?.borrowed() {
        note(&format!("{text}; it is the prior of the fit"));
    }
    let data = a.data.clone().unwrap_or_else(|| a.out.with_extension("data"));
    let o = crate::tuned::tune(variant, &engine, &settings, &data, a.quiet)?;
    let command = std::env::args().collect::<Vec<_>>().join(" ");
    let header = vec![
        format!("evaluation of {variant} (rules {}), tuned by stackchess tune", variant.rules_id()),
        format!("command: {command}"),
        format!("prior: {}", engine.eval_source),
        format!("settings: {}", settings.describe(&engine)),
    ];
    stackchess_files::write(&a.out, o.to_file(&header)).with_context(|| format!("writing {}", a.out.display()))?;
    let mut out = std::io::stdout().lock();
    let l = &o.losses;
    writeln!(
        out,
        "{} positions fitted ({} games), {} held out ({} games); {} iterations, {:.1} s with the bootstrap",
        o.positions.0, o.games.0, o.positions.1, o.games.1, o.iterations, o.fit_seconds
    )?;
    writeln!(out, "mean loss      training   held out   K")?;
    writeln!(out, "prior          {:.5}    {:.5}    {:.4}", l.prior_train, l.prior_holdout, o.prior_k)?;
    writeln!(out, "fit            {:.5}    {:.5}    {:.4}", l.fit_train, l.fit_holdout, o.k)?;
    writeln!(out, "{:<24} {:>7} {:>7} {:>7}", "parameter", "prior", "fit", "s.e.")?;
    for (j, ((k, p), f)) in EvalParams::KEYS.iter().zip(o.prior.values()).zip(o.params.values()).enumerate() {
        let se = match (o.fitted[j], o.errors) {
            (false, _) => "held".to_owned(),
            (true, Some(e)) => format!("{:.1}", e[j]),
            (true, None) => "-".to_owned(),
        };
        writeln!(out, "{k:<24} {p:>7} {f:>7} {se:>7}{}", if p == f { "" } else { " *" })?;
    }
    writeln!(
        out,
        "wrote {} (data: {})",
        a.out.display(),
        if a.from.is_empty() { data.display().to_string() } else { "--from".into() }
    )?;
    Ok(())
}
