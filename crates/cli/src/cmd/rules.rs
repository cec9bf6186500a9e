//! `stackchess rules`: the effective rules of a rule file or variant, and a rule file checked.

use anyhow::Result;
use stackchess_core::{Position, Rules as _};
use stackchess_variants::{VariantArg, WithPosition};
use std::io::Write as _;

/// Flags of `rules`.
#[derive(clap::Args, Debug)]
pub struct Args {
    #[command(subcommand)]
    command: Command,
}

#[derive(clap::Subcommand, Debug)]
enum Command {
    /// Print the effective rules as a complete rule file (every default filled in) and the id.
    Show {
        /// A rule file, or a variant's name (malka, traditional, fide, air-attack).
        what: String,
    },
    /// Validate a rule file and print its id and the number of legal moves at the start.
    Check {
        /// The rule file.
        file: std::path::PathBuf,
    },
}

/// The variant named by a file path or a name.
fn variant(what: &str) -> Result<stackchess_variants::Variant> {
    let arg: VariantArg =
        if std::path::Path::new(what).is_file() { format!("rules:{what}") } else { what.to_owned() }.parse()?;
    Ok(arg.load()?)
}

struct FirstMoves;
impl WithPosition for FirstMoves {
    type Output = (usize, String);
    fn call<P: Position>(self, rules: P::Rules) -> (usize, String) {
        let p = rules.startpos();
        (p.count_legal_moves(), p.to_lfen())
    }
}

/// Runs the command.
pub fn run(a: &Args) -> Result<()> {
    let mut out = std::io::stdout().lock();
    match &a.command {
        Command::Show { what } => {
            let v = variant(what)?;
            writeln!(out, "# id = {}", v.rules_id())?;
            write!(out, "{}", v.rule_set().to_toml())?;
        }
        Command::Check { file } => {
            let v = variant(&format!("{}", file.display()))?;
            let (moves, start) = v.with(FirstMoves);
            writeln!(out, "{}: valid rule set '{}' (id {})", file.display(), v.name(), v.rules_id())?;
            writeln!(out, "start position: {start}")?;
            writeln!(out, "legal moves at the start: {moves}")?;
        }
    }
    Ok(())
}
