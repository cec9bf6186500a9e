//! `stackchess view`: the games of run directories in one self-contained HTML page
//! (docs/viewer.md).

use anyhow::{bail, Context, Result};
use stackchess_view::{read_all, replay_all};
use std::path::PathBuf;

/// Flags of `view`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// Run directories (their games.csv, and plies.csv where there is one) or games.csv files.
    #[arg(required = true, value_name = "RUN_DIR")]
    inputs: Vec<PathBuf>,
    /// Put only this game in the page (repeatable); all games by default.
    #[arg(long, value_name = "ID")]
    game: Vec<String>,
    /// The page to write.
    #[arg(long, value_name = "FILE.html", default_value = "games.html")]
    out: PathBuf,
    /// A user-defined rule set the records use (repeatable).
    #[arg(long = "rules", value_name = "FILE")]
    rules: Vec<PathBuf>,
}

/// Runs the command.
pub fn run(a: &Args) -> Result<()> {
    for path in &a.rules {
        stackchess_variants::Variant::load_rules(path)?;
    }
    let (mut records, duplicates) = read_all(&a.inputs)?;
    if !a.game.is_empty() {
        for id in &a.game {
            if !records.iter().any(|r| &r.game.game_id == id) {
                bail!("game {id} is not in {}", inputs_text(&a.inputs));
            }
        }
        records.retain(|r| a.game.contains(&r.game.game_id));
    }
    let games = replay_all(&records)?.into_iter().collect::<Result<Vec<_>, _>>()?;
    let with_evals = games.iter().filter(|g| g.evals.is_some()).count();
    let mut notes = vec![format!("{} games from {}", games.len(), inputs_text(&a.inputs))];
    if duplicates > 0 {
        notes.push(format!("{duplicates} duplicate game ids dropped"));
    }
    notes.push(format!("{with_evals} with evaluations"));
    let html = stackchess_view::page("stackchess games", &notes, &games)?;
    std::fs::write(&a.out, html).with_context(|| format!("writing {}", a.out.display()))?;
    eprintln!("wrote {} ({} games)", a.out.display(), games.len());
    Ok(())
}

fn inputs_text(inputs: &[PathBuf]) -> String {
    inputs.iter().map(|p| p.display().to_string()).collect::<Vec<_>>().join(", ")
}
