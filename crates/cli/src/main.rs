//! `stackchess`: the command-line tool. Thin glue: parse flags, pick the variant, call the libraries.

#[cfg(feature = "analysis")]
mod analysis_flags;
mod cmd;
mod common;
mod engine_spec;
mod interrupt;
mod learned;
mod openings_flags;
mod progress;
mod run_flags;
mod shard;
mod tuned;

use clap::{Parser, Subcommand};
use std::process::ExitCode;

/// Chess on stacked boards: Nardeshir 3D (Malka, Traditional), Air Attack, and standard chess.
#[derive(Parser, Debug)]
#[command(name = "stackchess", version, about)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Count the leaf nodes of the move tree (perft).
    Perft(cmd::perft::Args),
    /// List the legal moves: coordinate notation, then SAN.
    Moves(cmd::moves::Args),
    /// Play moves (coordinate or SAN) and print the resulting LFEN.
    Apply(cmd::apply::Args),
    /// Draw the position, levels side by side.
    Show(cmd::show::Args),
    /// Search a position: one line per completed iteration, then the best move.
    Analyse(cmd::analyse::Args),
    /// Search a fixed set of positions (a signature of search behaviour), or solve an EPD suite.
    Bench(cmd::bench::Args),
    /// Speak a UCI-like engine protocol on stdin/stdout (see docs/engine-protocol.md).
    Engine(cmd::engine::Args),
    /// Play an engine against itself: N games in parallel, recorded in a directory (resumable).
    Selfplay(cmd::selfplay::Args),
    /// Opening books: build one from self-play records, probe a position.
    Book(cmd::book::Args),
    /// Play engine A against engine B: score, Elo with a 95% interval, pentanomial counts, SPRT.
    Match(cmd::match_::Args),
    /// Three or more engines, round robin or gauntlet: per-pair results and an Elo table (maximum likelihood).
    Tournament(cmd::tournament::Args),
    /// Rule sets: print the effective rules of a rule file or variant, or check a rule file.
    Rules(cmd::rules::Args),
    /// Learn a rule set's evaluation parameters from its own self-play games (Texel's method).
    Tune(cmd::tune::Args),
    /// Training data: quiet positions of self-play games with a search score and the result.
    Datagen(cmd::datagen::Args),
    /// What data files hold: header, counts, and (--positions) every position.
    Data(cmd::data::Args),
    /// Tune numeric parameters (search margins, evaluation keys) by play: SPSA.
    ///
    /// Each `--param NAME=start,min,max,step` is tuned (`step`: the last iteration's perturbation);
    /// a `--param KEY=VALUE` with one value sets that key for both sides.
    Spsa(cmd::spsa::Args),
    /// Train a neural evaluation for a rule set from data files (on the CPU).
    Train(cmd::train::Args),
    /// Generations of nets: data from the best player, train, gate by a match, keep the winner.
    Nnue(cmd::nnue::Args),
    /// Join the directories of a run's shards (`selfplay --shard I/N`) into one run directory.
    Merge(cmd::merge::Args),
    /// Write the games of run directories into one self-contained HTML page that replays them.
    View(cmd::view::Args),
    /// Print a recorded game's position at a ply, levels side by side.
    Replay(cmd::replay::Args),
    /// A local analysis board in the browser: move, analyse, play the engine, open recorded games.
    Serve(cmd::serve::Args),
    /// Balance statistics of self-play directories: W/D/L, White's score and Elo, lengths, terminations, piece values.
    #[cfg(feature = "analysis")]
    Stats(cmd::stats::Args),
    /// Compare two sets of runs (two variants, or two settings): differences with intervals and tests.
    #[cfg(feature = "analysis")]
    Compare(cmd::compare::Args),
    /// The main job: self-play each variant, print the comparison, write an HTML report.
    #[cfg(feature = "analysis")]
    Balance(cmd::balance::Args),
}

fn main() -> ExitCode {
    interrupt::fail_writes_beyond_the_size_limit();
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Perft(a) => cmd::perft::run(&a),
        Command::Moves(a) => cmd::moves::run(&a),
        Command::Apply(a) => cmd::apply::run(&a),
        Command::Show(a) => cmd::show::run(&a),
        Command::Analyse(a) => cmd::analyse::run(&a),
        Command::Bench(a) => cmd::bench::run(&a),
        Command::Engine(a) => cmd::engine::run(&a),
        Command::Selfplay(a) => cmd::selfplay::run(&a),
        Command::Match(a) => cmd::match_::run(&a),
        Command::Tournament(a) => cmd::tournament::run(&a),
        Command::Merge(a) => cmd::merge::run(&a),
        Command::Rules(a) => cmd::rules::run(&a),
        Command::View(a) => cmd::view::run(&a),
        Command::Replay(a) => cmd::replay::run(&a),
        Command::Serve(a) => cmd::serve::run(&a),
        Command::Tune(a) => cmd::tune::run(&a),
        Command::Datagen(a) => cmd::datagen::run(&a),
        Command::Data(a) => cmd::data::run(&a),
        Command::Spsa(a) => cmd::spsa::run(&a),
        Command::Train(a) => cmd::train::run(&a),
        Command::Nnue(a) => cmd::nnue::run(&a),
        Command::Book(a) => cmd::book::run(&a),
        #[cfg(feature = "analysis")]
        Command::Stats(a) => cmd::stats::run(&a),
        #[cfg(feature = "analysis")]
        Command::Compare(a) => cmd::compare::run(&a),
        #[cfg(feature = "analysis")]
        Command::Balance(a) => cmd::balance::run(&a),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        // A closed pipe (`stackchess moves | head`) is not an error of ours.
        Err(e)
            if e.chain().any(|c| {
                c.downcast_ref::<std::io::Error>().is_some_and(|io| io.kind() == std::io::ErrorKind::BrokenPipe)
            }) =>
        {
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("error: {e:#}");
            ExitCode::FAILURE
        }
    }
}

#[cfg(test)]
mod tests {
    /// Every command's flags are well formed (unique names, valid defaults): clap checks this only
    /// in debug builds and only for the command a user runs, so a flaw in one would otherwise
    /// surface as a panic there.
    #[test]
    fn every_command_s_flags_are_well_formed() {
        <super::Cli as clap::CommandFactory>::command().debug_assert();
    }
}
