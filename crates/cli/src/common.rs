//! Flags shared by the commands.

use anyhow::{Context, Result};
use clap::Args;
use stackchess_core::{Position, Rules};
use stackchess_variants::{Variant, VariantArg};

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
}

impl EngineArgs {
    /// The search settings for a variant: its defaults (a user-defined rule set's are its base's),
    /// then the file, then each `--param`.
    pub fn config(&self, variant: &str) -> Result<stackchess_search::SearchConfig> {
        use stackchess_search::SearchConfig;
        let variant = stackchess_variants::eval_name(variant);
        let mut c = if self.plain { SearchConfig::plain(variant) } else { SearchConfig::for_variant(variant) };
        if let Some(h) = self.hash {
            c.hash_mb = h;
        }
        if let Some(path) = &self.params {
            let text = std::fs::read_to_string(path).with_context(|| format!("reading --params {}", path.display()))?;
            c.apply_file(&text).with_context(|| format!("in --params {}", path.display()))?;
        }
        for p in &self.param {
            c.set_pair(p).with_context(|| format!("--param {p}"))?;
        }
        Ok(c)
    }
}
