//! `stackchess replay`: one recorded game's position at a ply, drawn in the terminal like `show`.

use anyhow::{anyhow, bail, Result};
use stackchess_core::{parse_coord, san, Position, Rules};
use stackchess_records::{RecordedGame, Score};
use stackchess_variants::WithPosition;
use stackchess_view::{read_all, variant_of};
use std::io::Write as _;
use std::path::PathBuf;

/// Flags of `replay`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// A run directory (or a games.csv file).
    #[arg(value_name = "RUN_DIR")]
    input: PathBuf,
    /// The game's id (`game_id`).
    #[arg(long, value_name = "ID")]
    game: String,
    /// Plies played from the game's first position (its opening included, as in the viewer);
    /// the end of the game if omitted.
    #[arg(long, value_name = "N")]
    ply: Option<usize>,
    /// A user-defined rule set the records use (repeatable).
    #[arg(long = "rules", value_name = "FILE")]
    rules: Vec<PathBuf>,
}

struct Run<'a> {
    rec: &'a RecordedGame,
    ply: Option<usize>,
}

impl WithPosition for Run<'_> {
    type Output = Result<()>;
    fn call<P: Position>(self, rules: P::Rules) -> Result<()> {
        let r = &self.rec.game;
        // Check the whole game (and its opening) first: the same replay the viewer does.
        let data = stackchess_view::replay::<P>(rules, self.rec)?;
        let total = data.plies.len();
        let n = self.ply.unwrap_or(total);
        if n > total {
            bail!("game {} has {total} plies; --ply {n} is past its end", r.game_id);
        }
        let mut pos = rules.from_lfen(&data.start_lfen).map_err(|e| anyhow!("game {}: {e}", r.game_id))?;
        let moves: Vec<&str> = r.opening_moves.split_whitespace().chain(r.moves.split_whitespace()).collect();
        let mut last = None;
        for (i, text) in moves.iter().take(n).enumerate() {
            let m = parse_coord(&pos, text).map_err(|e| anyhow!("game {}: move {}: {e}", r.game_id, i + 1))?;
            let number = pos.fullmove_number();
            let dots = if pos.turn() == stackchess_core::Color::White { "." } else { "..." };
            last = Some(format!("{number}{dots} {}", san(&pos, m)));
            pos.play_unchecked(m);
        }
        let mut out = std::io::stdout().lock();
        writeln!(
            out,
            "game {} ({}): White {}, Black {}; {} ({})",
            r.game_id, r.variant, r.white, r.black, r.result, r.termination
        )?;
        write!(out, "ply {n} of {total}")?;
        if data.opening > 0 {
            write!(out, " (the first {} the opening)", data.opening)?;
        }
        if let Some(last) = last {
            write!(out, "; last move {last}")?;
        }
        match n.checked_sub(data.opening + 1).and_then(|i| self.rec.scores().get(i).copied().flatten()) {
            Some(Score::Cp(cp)) => write!(out, "; the mover's evaluation {:+.2}", f64::from(cp) / 100.0)?,
            Some(Score::Mate(m)) => write!(out, "; the mover's evaluation: mate in {m}")?,
            None => {}
        }
        writeln!(out, "\n")?;
        write!(out, "{}", stackchess_core::diagram(&pos))?;
        Ok(())
    }
}

/// Runs the command.
pub fn run(a: &Args) -> Result<()> {
    for path in &a.rules {
        stackchess_variants::Variant::load_rules(path)?;
    }
    let (records, _) = read_all(std::slice::from_ref(&a.input))?;
    let Some(rec) = records.iter().find(|r| r.game.game_id == a.game) else {
        bail!("game {} is not in {} ({} games there)", a.game, a.input.display(), records.len());
    };
    variant_of(rec)?.with(Run { rec, ply: a.ply })
}
