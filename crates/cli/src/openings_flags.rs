//! The openings flags of `selfplay`, `match`, `balance` and `tournament`: `--openings` with a
//! book (`book:FILE[:K]`) or a balanced suite (`balanced[:K[:X[:N]]]`), and the order and length
//! of openings read from files.

use anyhow::{bail, Context, Result};
use stackchess_book::Book;
use stackchess_core::{coord, parse_move, Position, Rules};
use stackchess_selfplay::openings::fnv1a;
use stackchess_selfplay::suite::{balanced, SuiteSpec};
use stackchess_selfplay::Openings;
use std::fmt::Write as _;
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
    if spec.starts_with("book:") || Balanced::parse(spec).is_some() {
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
    if let Some(b) = Balanced::parse(spec) {
        return Ok(b?.openings::<P>(rules, seed, count, None)?.0);
    }
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

/// `balanced[:K[:X[:N]]]`: openings of K random plies (4 by default) kept only when a search of
/// N nodes (4000) scores them within ±X centipawns (75), each position once
/// (`stackchess_selfplay::suite`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Balanced {
    /// Random plies from the start position.
    pub plies: u32,
    /// The bound, centipawns.
    pub max_cp: u32,
    /// The search's node budget per candidate.
    pub nodes: u64,
}

impl Balanced {
    /// The suite of `--openings balanced` alone.
    pub const DEFAULT: Balanced = Balanced { plies: 4, max_cp: 75, nodes: 4000 };

    /// `None` when `spec` is not a balanced suite; else the suite or what is wrong with it.
    pub fn parse(spec: &str) -> Option<Result<Balanced>> {
        let rest = spec.strip_prefix("balanced")?;
        if !rest.is_empty() && !rest.starts_with(':') {
            return None;
        }
        let fields: Vec<&str> = rest.split(':').skip(1).collect();
        let field = |i: usize, default: u64| -> Result<u64> {
            match fields.get(i) {
                None => Ok(default),
                Some(f) => f.parse().with_context(|| format!("--openings {spec}: '{f}' is not a whole number")),
            }
        };
        let d = Balanced::DEFAULT;
        Some((|| {
            if fields.len() > 3 {
                bail!("--openings {spec}: give balanced[:PLIES[:MAX_CP[:NODES]]]");
            }
            let b = Balanced {
                plies: u32::try_from(field(0, d.plies.into())?).context("--openings: plies")?,
                max_cp: u32::try_from(field(1, d.max_cp.into())?).context("--openings: the bound")?,
                nodes: field(2, d.nodes)?,
            };
            if b.plies == 0 || b.nodes == 0 {
                bail!("--openings {spec}: plies and nodes must be at least 1");
            }
            Ok(b)
        })())
    }

    /// `balanced:K:X:N`.
    pub fn name(&self) -> String {
        format!("balanced:{}:{}:{}", self.plies, self.max_cp, self.nodes)
    }

    /// The first `count` openings of the suite for `rules` with `seed`, scored with the rule
    /// set's default evaluation, and a line describing the suite. With `cache`, the suite is kept
    /// in that directory under a name of the rule set's id and the settings, read back when it
    /// holds enough openings and made (and written) again when it does not.
    pub fn openings<P: Position>(
        &self,
        rules: P::Rules,
        seed: u64,
        count: u64,
        cache: Option<&Path>,
    ) -> Result<(Openings, String)> {
        let config = crate::common::EngineArgs::default().config(rules.name())?;
        let settings = fnv1a(config.describe().as_bytes());
        let name = format!("{}#{settings:016x}", self.name());
        let count = usize::try_from(count.max(1)).context("too many openings")?;
        let file = cache.map(|dir| {
            dir.join(format!(
                "{}-{}-{}-seed{seed}-{settings:016x}.lines",
                rules.name(),
                rules.id(),
                self.name().replace(':', "-")
            ))
        });
        if let Some(f) = file.as_ref().filter(|f| f.is_file()) {
            let (lines, tried) = read_lines::<P>(rules, f)?;
            if lines.len() >= count {
                let text = self.describe(count, lines.len(), tried, Some(f));
                return Ok((Openings::Lines { name, lines: lines[..count].to_vec() }, text));
            }
        }
        let spec = SuiteSpec { count, max_cp: self.max_cp, nodes: self.nodes, seed };
        let suite = balanced::<P>(rules, &Openings::Random { plies: self.plies }, &config, &spec, &mut |_, _| {})
            .with_context(|| format!("--openings {}", self.name()))?;
        let lines: Vec<_> = suite.kept.iter().filter_map(|k| k.moves.clone()).collect();
        if let Some(f) = &file {
            write_lines::<P>(f, &self.name(), rules, &lines, suite.tried)?;
        }
        let text = self.describe(count, lines.len(), Some(suite.tried), file.as_deref());
        Ok((Openings::Lines { name, lines }, text))
    }

    /// `used` openings of a suite of `kept`, made by scoring `tried` candidates.
    fn describe(&self, used: usize, kept: usize, tried: Option<usize>, file: Option<&Path>) -> String {
        let mut text = format!(
            "{} ({used} openings of {} random plies, each scored within ±{} cp by a {}-node search",
            self.name(),
            self.plies,
            self.max_cp,
            self.nodes
        );
        match tried {
            Some(t) => {
                let _ =
                    write!(text, "; the suite of {kept}: {t} candidates scored, {} rejected)", t.saturating_sub(kept));
            }
            None => text.push(')'),
        }
        if let Some(f) = file {
            let _ = write!(text, ", kept in {}", f.display());
        }
        text
    }
}

/// A cached suite: `# tried N` and comment lines, then one line of coordinate moves per opening.
fn read_lines<P: Position>(rules: P::Rules, path: &Path) -> Result<(Vec<Vec<stackchess_core::Move>>, Option<usize>)> {
    let text = std::fs::read_to_string(path).with_context(|| format!("reading {}", path.display()))?;
    let mut lines = Vec::new();
    let mut tried = None;
    for (i, line) in text.lines().enumerate() {
        if let Some(c) = line.strip_prefix('#') {
            if let Some(n) = c.trim().strip_prefix("tried ") {
                tried = n.trim().parse().ok();
            }
            continue;
        }
        let mut p = rules.startpos();
        let mut moves = Vec::new();
        for word in line.split_whitespace() {
            let m = parse_move(&p, word).map_err(|e| {
                anyhow::anyhow!("{}, line {}: {word}: {e} (remove the file to make it again)", path.display(), i + 1)
            })?;
            p.play(m).map_err(|e| anyhow::anyhow!("{}, line {}: {e}", path.display(), i + 1))?;
            moves.push(m);
        }
        lines.push(moves);
    }
    Ok((lines, tried))
}

/// Writes a suite's lines for [`read_lines`] (through a temporary file, so a kill leaves the old
/// file or the new one).
fn write_lines<P: Position>(
    path: &Path,
    name: &str,
    rules: P::Rules,
    lines: &[Vec<stackchess_core::Move>],
    tried: usize,
) -> Result<()> {
    let dir = path.parent().unwrap_or(Path::new("."));
    std::fs::create_dir_all(dir).with_context(|| format!("creating {}", dir.display()))?;
    let mut text = format!("# stackchess balanced opening suite {name} of {}\n# tried {tried}\n", rules.name());
    for line in lines {
        let words: Vec<String> = line.iter().map(|&m| coord::<P>(m)).collect();
        let _ = writeln!(text, "{}", words.join(" "));
    }
    stackchess_files::write(path, text).with_context(|| format!("writing {}", path.display()))
}
