//! `stackchess engine`: the UCI engine (`stackchess_uci`, docs/engine-protocol.md) with the
//! engine flags as its settings, which the options `Hash`, `Plain`, `Param`, `Params`, `Clear
//! Params` and `EvalFile` change.

use crate::common::EngineArgs;
use anyhow::Result;
use stackchess_search::SearchConfig;
use stackchess_uci::{spin, Settings};
use stackchess_variants::VariantArg;

/// Flags of `engine` (the initial option values).
#[derive(clap::Args, Debug)]
pub struct Args {
    /// Initial variant (the `Variant` option): malka, traditional, fide, air-attack, or rules:FILE.
    #[arg(long, short, default_value = "malka")]
    variant: VariantArg,
    #[command(flatten)]
    engine: EngineArgs,
}

/// The engine flags as the UCI engine's settings.
#[derive(Clone)]
struct Flags(EngineArgs);

impl Settings for Flags {
    fn config(&self, variant: &str) -> Result<SearchConfig> {
        self.0.config(variant)
    }

    fn set(&mut self, name: &str, value: &str, variant: &str) -> Result<bool> {
        let e = &mut self.0;
        match name {
            "hash" => e.hash = Some(usize::try_from(spin("Hash", value, 0, 65_536)?)?),
            "plain" => e.plain = value.eq_ignore_ascii_case("true"),
            "param" => {
                // Check it before keeping it.
                SearchConfig::default().set_pair(value)?;
                e.param.push(value.to_owned());
            }
            "params" => e.params = if value.is_empty() { None } else { Some(value.into()) },
            "evalfile" => {
                let eval =
                    if value.is_empty() || value == "<empty>" { "default".to_owned() } else { format!("net:{value}") };
                // Checked against the rule set before it is kept.
                crate::common::net_of(&eval, variant, &e.config(variant)?.eval)?;
                e.eval = eval;
            }
            "clear params" => {
                e.param.clear();
                e.params = None;
            }
            _ => return Ok(false),
        }
        Ok(true)
    }

    fn options(&self, variant: &str) -> Vec<String> {
        let hash = self.0.config(variant).map_or(16, |c| c.hash_mb);
        vec![
            format!("option name Hash type spin default {hash} min 0 max 65536"),
            "option name Plain type check default false".to_owned(),
            "option name Param type string default <empty>".to_owned(),
            "option name Params type string default <empty>".to_owned(),
            "option name Clear Params type button".to_owned(),
            "option name EvalFile type string default <empty>".to_owned(),
        ]
    }
}

/// Runs the command.
pub fn run(a: &Args) -> Result<()> {
    stackchess_uci::run(a.variant.load()?, Flags(a.engine.clone()))
}
