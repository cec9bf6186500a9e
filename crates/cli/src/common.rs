//! Flags shared by the commands.

use anyhow::{Context, Result};
use clap::Args;
use stackchess_core::{Position, Rules};
use stackchess_search::{EvalParams, SearchConfig};
use stackchess_variants::{Variant, VariantArg};
use std::sync::Mutex;

/// `--variant` and `--lfen`.
#[derive(Args, Debug, Clone)]
pub struct PositionArgs {
    /// Variant: malka, traditional, fide, air-attack, or rules:FILE (a user-defined rule set).
    #[arg(long, short, default_value = "malka")]
    pub variant: VariantArg,
    /// Position as LFEN (FEN for fide); the start position if omitted.
    #[arg(long)]
    pub lfen: Option<String>,
}

impl PositionArgs {
    /// The variant, its rule file loaded if one is named.
    pub fn variant(&self) -> Result<Variant> {
        Ok(self.variant.load()?)
    }

    /// The position these flags name.
    pub fn position<P: Position>(&self, rules: P::Rules) -> Result<P> {
        match &self.lfen {
            None => Ok(rules.startpos()),
            Some(s) => rules.from_lfen(s).with_context(|| format!("reading --lfen for {}", rules.name())),
        }
    }
}

/// Engine settings: `--hash`, `--param key=value` (repeatable), `--params FILE`, `--plain`.
#[derive(Args, Debug, Clone, Default)]
pub struct EngineArgs {
    /// Transposition table size in MiB (default 16; 0 with --plain).
    #[arg(long)]
    pub hash: Option<usize>,
    /// Parameter override, `key=value` (repeatable; applied after --params): an evaluation key
    /// (`value.queen=450`), a search switch (`search.lmr=false`) or the table size (`search.hash=64`).
    #[arg(long = "param", value_name = "KEY=VALUE")]
    pub param: Vec<String>,
    /// File of parameters (keys as --param), `key = value` per line, `#` comments.
    #[arg(long = "params", value_name = "FILE")]
    pub params: Option<std::path::PathBuf>,
    /// Plain alpha-beta (no TT, PVS, aspiration, null move, LMR, killers, history, extensions, pruning).
    #[arg(long)]
    pub plain: bool,
    /// The evaluation: `default` (the rule set's: its net when it ships one, else the
    /// parameters), `linear` (the parameters), or `net:FILE`, a network trained for the rule set
    /// (`stackchess train`; piece values for move ordering still come from the parameters).
    #[arg(long, value_name = "default|linear|net:FILE", default_value = "default")]
    pub eval: String,
}

impl EngineArgs {
    /// The search settings for the variant called `variant`: its evaluation preset (a
    /// user-defined rule set, which has none, plays its base's, and stderr says so), then the
    /// file, then each `--param`. The settings name where their evaluation came from.
    pub fn config(&self, variant: &str) -> Result<SearchConfig> {
        self.config_from(variant, None)
    }

    /// As [`EngineArgs::config`], over the evaluation `base` (with its source) instead of the preset
    /// when one is given (tuned parameters).
    pub fn config_from(&self, variant: &str, base: Option<&Evaluation>) -> Result<SearchConfig> {
        let base = if let Some(b) = base {
            b.clone()
        } else {
            let p = Evaluation::preset(variant.parse()?)?;
            if let Some(note_text) = p.borrowed() {
                note(&note_text);
            }
            p
        };
        let learned = base.engine.net.clone();
        let mut c =
            if self.plain { SearchConfig::plain(base.engine.eval) } else { base.engine }.with_source(base.source);
        if let Some(h) = self.hash {
            c.hash_mb = h;
        }
        if let Some(path) = &self.params {
            let text = std::fs::read_to_string(path).with_context(|| format!("reading --params {}", path.display()))?;
            if c.apply_file(&text).with_context(|| format!("in --params {}", path.display()))? {
                c.eval_source = format!("file {}", path.display());
            }
        }
        for p in &self.param {
            c.set_pair(p).with_context(|| format!("--param {p}"))?;
        }
        if !self.param.is_empty() {
            c.eval_source = format!("{} with --param {}", c.eval_source, self.param.join(" --param "));
        }
        // An evaluation that brings its own net (`balance --nnue`) plays it by default, as long
        // as it corrects these parameters.
        c.net = match learned {
            Some(n) if self.eval == "default" && n.corrects(&c.eval) => Some(n),
            _ => net_of(&self.eval, variant, &c.eval)?,
        };
        Ok(c)
    }
}

/// The net `--eval` names (`None` for `linear`, and for `default` where the rule set ships none),
/// read for the rule set `variant` and an engine of the evaluation parameters `params` (a shipped
/// residual net plays only with those it corrects: stderr says when it is set aside).
pub fn net_of(eval: &str, variant: &str, params: &EvalParams) -> Result<Option<stackchess_search::NetFile>> {
    struct Load<'a>(stackchess_search::EvalChoice, Variant, &'a EvalParams);
    impl stackchess_variants::WithPosition for Load<'_> {
        type Output = Result<Option<stackchess_search::NetFile>, stackchess_nnue::NetError>;
        fn call<P: Position>(self, rules: P::Rules) -> Self::Output {
            self.0.net::<P>(rules, self.1.default_net(), &format!("builtin:{}", self.1), self.2)
        }
    }
    let choice: stackchess_search::EvalChoice = eval.parse().map_err(|e| anyhow::anyhow!("--eval {e}"))?;
    let v: Variant = variant.parse()?;
    let default = choice == stackchess_search::EvalChoice::Default;
    let net = v.with(Load(choice, v, params)).with_context(|| format!("--eval {eval}"))?;
    if default && net.is_none() && v.default_net().is_some() {
        note(&format!("{v} plays the linear evaluation: its net corrects the preset, not these parameters"));
    }
    Ok(net)
}

/// An evaluation and where it came from.
#[derive(Clone, Debug)]
pub struct Evaluation {
    /// The full engine with these parameters as its evaluation (and the `search.` keys of the
    /// rule set's preset).
    pub engine: SearchConfig,
    /// `preset malka`, `tuned <file> (rules <id>)`, ...: written into the settings of records.
    pub source: String,
    /// For a user-defined rule set playing its base's preset: the base.
    pub borrowed_from: Option<Variant>,
    /// The rule set.
    pub variant: Variant,
}

impl Evaluation {
    /// The evaluation preset of `v`: its own, or for a user-defined rule set its base's.
    pub fn preset(v: Variant) -> Result<Evaluation> {
        let base = v.base();
        let text = v.eval_params().or(base.eval_params()).context("no evaluation preset")?;
        let engine = SearchConfig::preset(text).with_context(|| format!("the evaluation preset of {base}"))?;
        if v.eval_params().is_some() {
            return Ok(Evaluation { engine, source: format!("preset {v}"), borrowed_from: None, variant: v });
        }
        let source = format!("preset {base}, the base of {v}, which has none of its own");
        Ok(Evaluation { engine, source, borrowed_from: Some(base), variant: v })
    }

    /// The parameters of the evaluation.
    pub fn params(&self) -> &EvalParams {
        &self.engine.eval
    }

    /// What to say when a rule set plays another's evaluation.
    pub fn borrowed(&self) -> Option<String> {
        self.borrowed_from.map(|b| {
            format!(
                "{} plays with the evaluation preset of {b}, the rule set it changes (--tune learns its own)",
                self.variant
            )
        })
    }
}

/// Prints `text` on stderr, once per process.
pub fn note(text: &str) {
    static SAID: Mutex<Vec<String>> = Mutex::new(Vec::new());
    let mut said = SAID.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
    if !said.iter().any(|s| s == text) {
        eprintln!("note: {text}");
        said.push(text.to_owned());
    }
}

/// The cache directory of one kind of run (`tuned`, `nnue`): `given` (its flag `flag`), else the
/// user's ([`stackchess_tune::cache::user_dir`]).
pub fn cache_dir(given: Option<&std::path::Path>, kind: &str, flag: &str) -> Result<std::path::PathBuf> {
    match given {
        Some(d) => Ok(d.to_owned()),
        None => stackchess_tune::cache::user_dir(kind)
            .with_context(|| format!("no cache directory: set XDG_CACHE_HOME or HOME, or give {flag}")),
    }
}
