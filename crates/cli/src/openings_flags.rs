//! The openings flags of `selfplay`, `match`, `balance` and `tournament`: `--openings` with a
//! book (`book:FILE[:K]`), and the order and length of openings read from files.

use anyhow::{bail, Context, Result};
use stackchess_book::Book;
use stackchess_core::Position;
use stackchess_selfplay::openings::fnv1a;
use stackchess_selfplay::Openings;
use std::path::Path;

/// The order of openings read from a file (`--openings-order`).
#[derive(clap::ValueEnum, Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum OpeningsOrder {
    /// The file's order.
    #[default]
    Sequential,
    /// Shuffled by the run's seed (the same seed, the same order).
    Random,
}

/// The openings flags of `selfplay`, `match` and `balance`, beside `--openings`.
#[derive(clap::Args, Debug, Clone, Default)]
pub struct OpeningFileArgs {
    /// With PGN openings: keep only the first K moves (plies) of each game.
    #[arg(long, value_name = "K")]
    pub opening_plies: Option<u32>,
    /// Openings from a file (LFEN, EPD, PGN) in the file's order, or shuffled by the seed.
    #[arg(long, value_enum, default_value_t = OpeningsOrder::Sequential)]
    pub openings_order: OpeningsOrder,
}

/// As [`openings`], with `--opening-plies` and `--openings-order`.
pub fn openings_with<P: Position>(
    rules: P::Rules,
    spec: &str,
    seed: u64,
    count: u64,
    file: &OpeningFileArgs,
) -> Result<Openings> {
    if spec.starts_with("book:") {
        if file.opening_plies.is_some() || file.openings_order != OpeningsOrder::Sequential {
            bail!("--openings {spec}: a book's lines are drawn by the seed; give their plies as book:FILE:K");
        }
        return openings::<P>(rules, spec, seed, count);
    }
    let o = Openings::parse_with::<P>(rules, spec, file.opening_plies)?;
    Ok(if file.openings_order == OpeningsOrder::Random { o.shuffled(seed)? } else { o })
}

/// The openings of an `--openings` flag: `book:FILE[:K]` gives, for opening `k` in `0..count`, the
/// moves of [`Book::walk_moves`] of K plies (8 by default) with `seed`, named
/// `book:FILE#<FNV-1a of the file>:K` so that a changed book changes the run key; anything else
/// is [`Openings::parse`]'s.
pub fn openings<P: Position>(rules: P::Rules, spec: &str, seed: u64, count: u64) -> Result<Openings> {
    let Some(spec) = spec.strip_prefix("book:") else {
        return Ok(Openings::parse::<P>(rules, spec)?);
    };
    let (file, plies) = match spec.rsplit_once(':') {
        Some((file, k)) if !file.is_empty() && !k.is_empty() && k.bytes().all(|b| b.is_ascii_digit()) => {
            (file, k.parse::<u32>().with_context(|| format!("--openings book:{spec}: bad ply count '{k}'"))?)
        }
        _ => (spec, 8),
    };
    if file.is_empty() {
        bail!("--openings book:FILE[:K]: no book file given");
    }
    let path = Path::new(file);
    let bytes = std::fs::read(path).with_context(|| format!("reading book {file}"))?;
    let book = Book::<P>::from_bytes(rules, &bytes, path)?;
    let lines = (0..count).map(|k| book.walk_moves(seed, k, plies)).collect();
    Ok(Openings::Lines { name: format!("book:{file}#{:016x}:{plies}", fnv1a(&bytes)), lines })
}
