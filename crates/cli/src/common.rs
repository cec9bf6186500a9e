//! Flags shared by the commands.

use anyhow::{Context, Result};
use clap::Args;
use stackchess_core::Position;
use stackchess_variants::Variant;

/// `--variant` and `--lfen`.
#[derive(Args, Debug, Clone)]
pub struct PositionArgs {
    /// Variant: malka, traditional, fide, air-attack.
    #[arg(long, short, default_value = "malka")]
    pub variant: Variant,
    /// Position as LFEN (FEN for fide); the start position if omitted.
    #[arg(long)]
    pub lfen: Option<String>,
}

impl PositionArgs {
    /// The position these flags name.
    pub fn position<P: Position>(&self) -> Result<P> {
        match &self.lfen {
            None => Ok(P::startpos()),
            Some(s) => P::from_lfen(s).with_context(|| format!("reading --lfen for {}", P::variant_name())),
        }
    }
}
