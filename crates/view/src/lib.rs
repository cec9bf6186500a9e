//! The game viewer: recorded games replayed with the move generator into one self-contained HTML
//! page (levels side by side, move list in SAN, stepping by buttons and keys, the evaluation
//! graph, a filtered game list). See docs/viewer.md.
//!
//! Generic over [`stackchess_core::Position`]: [`replay`] turns one game (start LFEN, coordinate
//! moves, result, optional opening and evaluations) into [`GameData`], which holds per ply what
//! changes on the board, so the page needs no move generator; [`page`] writes the page.
//! [`telling_games`] picks games worth a look for the balance report. [`read_all`] reads the games of
//! run directories (through [`stackchess_records::read_recorded`]) and [`replay_all`] replays
//! them, each with its rule set's generator.

mod error;
mod game;
mod games;
mod page;
mod pick;

pub use error::ViewError;
pub use game::{replay, GameData};
pub use games::{read_all, replay_all, variant_of};
pub use page::page;
pub use pick::{telling_games, GameSummary, Pick};

/// The fragment that opens game `id` at `ply` in a viewer page (`#game=ID&ply=N`).
#[must_use]
pub fn fragment(id: &str, ply: usize) -> String {
    let id: String = id
        .bytes()
        .map(|b| {
            if b.is_ascii_alphanumeric() || b"-_.~".contains(&b) {
                char::from(b).to_string()
            } else {
                format!("%{b:02X}")
            }
        })
        .collect();
    format!("#game={id}&ply={ply}")
}
