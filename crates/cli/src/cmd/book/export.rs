//! `stackchess book export`: a fide book in PolyGlot's format, for other tools.

use anyhow::{bail, Result};
use std::path::PathBuf;

/// Flags of `book export`.
#[derive(clap::Args, Debug)]
pub struct ExportArgs {
    /// The book file (a fide book).
    file: PathBuf,
    /// The PolyGlot file to write (`.bin`; replaced atomically).
    #[arg(long, value_name = "OUT")]
    polyglot: PathBuf,
    /// Follow the book this many plies from the start position.
    #[arg(long, default_value_t = 40)]
    plies: u32,
}

/// Runs `book export`.
#[cfg(not(feature = "polyglot"))]
pub fn run(a: &ExportArgs) -> Result<()> {
    bail!(
        "{}: this build of stackchess leaves out the PolyGlot export; build it with `--features polyglot` \
         (PolyGlot keys come from shakmaty, which is GPL-3.0: such a build is GPL-3.0 as a whole)",
        a.file.display()
    )
}

/// Runs `book export`.
#[cfg(feature = "polyglot")]
pub fn run(a: &ExportArgs) -> Result<()> {
    use stackchess_book::{polyglot, Book};
    use stackchess_variants::Variant;
    let header = stackchess_book::read_header(&a.file)?;
    if header.variant != Variant::Fide.name() {
        bail!("{}: a {} book; PolyGlot books are for standard chess (fide) only", a.file.display(), header.variant);
    }
    let book: Book<stackchess_variants::Fide> = Book::read(stackchess_variants::traditional::fide_rules(), &a.file)?;
    let n = polyglot::write_polyglot(&book, a.plies, &a.polyglot)?;
    eprintln!("{}: {n} PolyGlot entries from {}", a.polyglot.display(), a.file.display());
    Ok(())
}
