//! Perft without the CLI (and without polars), for quick timing and profiling of the generators:
//! `cargo run --release -p stackchess-benches --example perft -- VARIANT DEPTH [LFEN]`, where
//! VARIANT is a built-in name or `rules:FILE`. Prints the leaf count and the time taken.

use stackchess_core::{Position, Rules};
use stackchess_variants::{VariantArg, WithPosition};
use std::time::Instant;

struct Perft(u32, Option<String>);

impl WithPosition for Perft {
    type Output = Result<(), String>;
    fn call<P: Position>(self, rules: P::Rules) -> Result<(), String> {
        let pos = match &self.1 {
            Some(text) => rules.from_lfen(text).map_err(|e| e.to_string())?,
            None => rules.startpos(),
        };
        let start = Instant::now();
        let n = pos.perft(self.0);
        let t = start.elapsed();
        println!("{} depth {} nodes {n} time {:.3} s", rules.name(), self.0, t.as_secs_f64());
        Ok(())
    }
}

fn main() -> Result<(), String> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [variant, depth, rest @ ..] = args.as_slice() else {
        return Err("usage: perft VARIANT DEPTH [LFEN]".into());
    };
    let variant = variant.parse::<VariantArg>().and_then(|v| v.load()).map_err(|e| e.to_string())?;
    let depth = depth.parse().map_err(|_| format!("bad depth '{depth}'"))?;
    variant.with(Perft(depth, rest.first().cloned()))
}
