//! Opening books, generic over [`Position`]: built from finished games, stored in a versioned
//! binary file (docs/book.md), probed for the moves of a position, walked for opening lines.
//!
//! Positions are keyed by [`Position::hash`] (Zobrist). A key collision cannot yield an illegal
//! move: [`Book::probe`] keeps only the stored moves that are legal in the position probed.
//! The crate reads no record files itself; callers hand each game over as the records'
//! [`stackchess_records::GameRecord`] (the columns it reads: `game_id`, `start_lfen`, `moves`, `result`).

mod builder;
mod error;
pub mod format;
#[cfg(feature = "polyglot")]
pub mod polyglot;

pub use builder::{Added, BookBuilder};
pub use error::BookError;
pub use format::Header;

use stackchess_core::{Move, Position, Rules, SplitMix64};
use std::path::Path;

/// One stored (position, move) with the mover's results.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Entry {
    /// The position's [`Position::hash`].
    pub key: u64,
    /// The move played there.
    pub mv: Move,
    /// Games the side that played the move went on to win.
    pub wins: u32,
    /// Games drawn.
    pub draws: u32,
    /// Games the side that played the move lost.
    pub losses: u32,
}

impl Entry {
    /// Games through this (position, move).
    #[must_use]
    pub fn games(&self) -> u64 {
        u64::from(self.wins) + u64::from(self.draws) + u64::from(self.losses)
    }
}

/// A book move of a position, as [`Book::probe`] returns it.
#[derive(Clone, Copy, PartialEq, Debug)]
pub struct BookMove {
    /// The move (legal in the position probed).
    pub mv: Move,
    /// Games won by the side that played it.
    pub wins: u32,
    /// Games drawn.
    pub draws: u32,
    /// Games lost by the side that played it.
    pub losses: u32,
    /// Games through it: wins + draws + losses.
    pub games: u64,
    /// The mover's score, (wins + draws / 2) / games, in 0..=1.
    pub score: f64,
    /// The weight for picking it: 2 wins + draws (`PolyGlot`'s convention).
    pub weight: u64,
}

/// An opening book for the variant of `P`: entries sorted by (key, move).
#[derive(Clone, Debug)]
pub struct Book<P: Position> {
    rules: P::Rules,
    entries: Vec<Entry>,
}

impl<P: Position> Book<P> {
    /// A book of `entries` under `rules`, which must be sorted by (key, move) without duplicates.
    fn from_sorted(rules: P::Rules, entries: Vec<Entry>) -> Book<P> {
        Book { rules, entries }
    }

    /// The rules of the book's games.
    #[must_use]
    pub fn rules(&self) -> P::Rules {
        self.rules
    }

    /// The entries, sorted by (key, move).
    #[must_use]
    pub fn entries(&self) -> &[Entry] {
        &self.entries
    }

    /// Number of distinct positions.
    #[must_use]
    pub fn positions(&self) -> usize {
        self.entries.chunk_by(|a, b| a.key == b.key).count()
    }

    /// The file's bytes (see [`format`]).
    #[must_use]
    pub fn to_bytes(&self) -> Vec<u8> {
        format::encode(self.rules.name(), self.rules.id(), self.rules.startpos().hash(), &self.entries)
    }

    /// Writes the book to `path` through a temporary file renamed over it.
    ///
    /// # Errors
    /// On an I/O error, naming the file.
    pub fn write(&self, path: &Path) -> Result<(), BookError> {
        stackchess_files::write(path, self.to_bytes()).map_err(|e| BookError::io(path, e))
    }

    /// Reads a book from bytes; `path` names the source in errors.
    ///
    /// # Errors
    /// Wrong magic, unknown version, a length that does not match the entry count, another
    /// variant or other Zobrist keys, impossible or unsorted entries.
    pub fn from_bytes(rules: P::Rules, bytes: &[u8], path: &Path) -> Result<Book<P>, BookError> {
        let (header, rest) = format::decode_header(bytes, path)?;
        if header.variant != rules.name() {
            return Err(BookError::Variant {
                path: path.to_owned(),
                found: header.variant,
                expected: rules.name().to_owned(),
            });
        }
        if let Some(found) = header.rules_id.filter(|id| id != rules.id()) {
            return Err(BookError::RulesId {
                path: path.to_owned(),
                variant: header.variant,
                found,
                expected: rules.id().to_owned(),
            });
        }
        let expected = rules.startpos().hash();
        if header.key_check != expected {
            return Err(BookError::KeyCheck { path: path.to_owned(), found: header.key_check, expected });
        }
        Ok(Book::from_sorted(rules, format::decode_entries(rest, P::LEVELS, path)?))
    }

    /// Reads a book file.
    ///
    /// # Errors
    /// A missing or unreadable file, and every error of [`Book::from_bytes`].
    pub fn read(rules: P::Rules, path: &Path) -> Result<Book<P>, BookError> {
        let bytes = std::fs::read(path).map_err(|e| BookError::io(path, e))?;
        Book::from_bytes(rules, &bytes, path)
    }

    /// The book moves of `pos` that are legal there, by weight (highest first), then by move.
    #[must_use]
    pub fn probe(&self, pos: &P) -> Vec<BookMove> {
        let key = pos.hash();
        let lo = self.entries.partition_point(|e| e.key < key);
        let hi = lo + self.entries[lo..].partition_point(|e| e.key == key);
        if lo == hi {
            return Vec::new();
        }
        let legal = pos.moves();
        let mut out: Vec<BookMove> = self.entries[lo..hi]
            .iter()
            .filter(|e| legal.contains(&e.mv))
            .map(|e| {
                let games = e.games();
                #[allow(clippy::cast_precision_loss)]
                let score = (f64::from(e.wins) + f64::from(e.draws) / 2.0) / games.max(1) as f64;
                BookMove {
                    mv: e.mv,
                    wins: e.wins,
                    draws: e.draws,
                    losses: e.losses,
                    games,
                    score,
                    weight: 2 * u64::from(e.wins) + u64::from(e.draws),
                }
            })
            .collect();
        out.sort_by_key(|b| (std::cmp::Reverse(b.weight), b.mv.to_u32()));
        out
    }

    /// The moves of opening line `k` of a run seeded with `seed`: from the start position, up to
    /// `plies` book moves, each drawn with probability proportional to its weight from
    /// `SplitMix64::for_item(seed, k)`. Stops early where the book has no move of positive weight,
    /// or before a move that would end the game.
    #[must_use]
    pub fn walk_moves(&self, seed: u64, k: u64, plies: u32) -> Vec<Move> {
        let mut rng = SplitMix64::for_item(seed, k);
        let mut pos = self.rules.startpos();
        let mut line = Vec::new();
        for _ in 0..plies {
            let moves = self.probe(&pos);
            let total: u64 = moves.iter().map(|b| b.weight).sum();
            if total == 0 {
                break;
            }
            #[allow(clippy::cast_possible_truncation)]
            let mut r = ((u128::from(rng.next_u64()) * u128::from(total)) >> 64) as u64;
            let Some(pick) = moves.iter().find(|b| {
                if r < b.weight {
                    true
                } else {
                    r -= b.weight;
                    false
                }
            }) else {
                break;
            };
            let mut next = pos.clone();
            next.play_unchecked(pick.mv);
            if next.outcome().is_some() {
                break;
            }
            pos = next;
            line.push(pick.mv);
        }
        line
    }

    /// The position at the end of [`Book::walk_moves`].
    #[must_use]
    pub fn walk(&self, seed: u64, k: u64, plies: u32) -> P {
        let mut pos = self.rules.startpos();
        for m in self.walk_moves(seed, k, plies) {
            pos.play_unchecked(m);
        }
        pos
    }
}

/// Reads only the header of a book file (to learn its variant before choosing `P`).
///
/// # Errors
/// A missing file, wrong magic, unknown version, or a length that does not match the entry count.
pub fn read_header(path: &Path) -> Result<Header, BookError> {
    let bytes = std::fs::read(path).map_err(|e| BookError::io(path, e))?;
    format::decode_header(&bytes, path).map(|(h, _)| h)
}
