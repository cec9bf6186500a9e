//! A [`RuleSet`] compiled into the bitboard tables the generator looks up, one file for each
//! kind: the moves of the pieces other than pawns (`pieces.rs`), the pawns' (`pawns.rs`),
//! castling (`castling.rs`), transfers (`transfers.rs`) and the Zobrist keys (`zobrist.rs`); the
//! cells and vectors their builders share in `vectors.rs`.

mod castling;
mod pawns;
mod pieces;
mod transfers;
mod vectors;
mod zobrist;

use castling::Castles;
use pawns::Pawns;
use pieces::Pieces;
pub(crate) use transfers::TransferTables;
use zobrist::Zobrist;

use stackchess_core::{ByColor, ByRole, Color, DrawRules, Role};
use stackchess_geometry::Rays;
use stackchess_rules::RuleSet;

/// Everything the generator looks up, compiled from a [`RuleSet`] for `L` levels.
///
/// Tables are built once per rule set and live for the rest of the process ([`Tables::leak`]);
/// a `&'static Tables` is the rule set's handle ([`stackchess_core::Rules`]).
pub struct Tables<const L: usize> {
    /// The rule set these tables were compiled from.
    pub rules: RuleSet,
    pub(crate) name: &'static str,
    pub(crate) id: &'static str,
    /// The start position as LFEN.
    pub(crate) start: String,
    pub(crate) draws: DrawRules,
    /// [`RuleSet::pawn_moves_reversible`], kept for the repetition test of every node.
    pub(crate) pawn_moves_reversible: bool,
    pub(crate) rays: Rays<L>,
    /// How many of each role a side's army starts with.
    pub(crate) start_counts: ByColor<ByRole<u32>>,
    pub(crate) pieces: Pieces<L>,
    pub(crate) pawns: Pawns<L>,
    pub(crate) castles: Castles<L>,
    /// Present when the rules have transfers.
    pub(crate) transfer: Option<TransferTables>,
    pub(crate) zobrist: Zobrist,
}

impl<const L: usize> std::fmt::Debug for Tables<L> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Tables({} {}, {L} levels)", self.name, self.id)
    }
}

/// Two handles are equal when they are the same tables.
impl<const L: usize> PartialEq for Tables<L> {
    fn eq(&self, other: &Self) -> bool {
        std::ptr::eq(self, other)
    }
}

impl<const L: usize> Tables<L> {
    /// Compiles the tables and keeps them for the rest of the process.
    ///
    /// # Panics
    /// When `rules.board.levels != L` (a programming error: the caller picks `L` from the rules).
    #[must_use]
    pub fn leak(rules: RuleSet) -> &'static Tables<L> {
        Box::leak(Box::new(Tables::new(rules)))
    }

    /// Compiles the tables.
    ///
    /// # Panics
    /// When `rules.board.levels != L`.
    #[must_use]
    pub fn new(rules: RuleSet) -> Self {
        assert_eq!(rules.board.levels, L, "rule set level count");
        let rays = Rays::<L>::new();
        let pawns = Pawns::new(&rules);
        let transfer = rules.transfer.enabled.then(|| TransferTables::new(&rules));
        let pieces = Pieces::new(&rules, &rays, &pawns.captures, transfer.is_some());
        let castles = Castles::new(&rules, &rays);
        Tables {
            name: Box::leak(rules.name.clone().into_boxed_str()),
            id: Box::leak(rules.id().into_boxed_str()),
            start: start_lfen(&rules, &castles),
            draws: rules.draws,
            pawn_moves_reversible: rules.pawn_moves_reversible(),
            rays,
            start_counts: start_counts(&rules),
            pieces,
            pawns,
            castles,
            transfer,
            zobrist: Zobrist::new::<L>(),
            rules,
        }
    }
}

/// How many of each role each army starts with.
fn start_counts(rules: &RuleSet) -> ByColor<ByRole<u32>> {
    let mut counts = ByColor::<ByRole<u32>>::default();
    for (c, army) in [(Color::White, &rules.board.white), (Color::Black, &rules.board.black)] {
        for ch in army.iter().flat_map(|l| l.chars()) {
            if let Some(r) = Role::from_char(ch.to_ascii_uppercase()) {
                counts[c][r] += 1;
            }
        }
    }
    counts
}

/// The start position: the armies, White to move, the castling rights their kings and rooks have.
fn start_lfen<const L: usize>(rules: &RuleSet, castles: &Castles<L>) -> String {
    let placement = rules.start_placement();
    let mut rights = String::new();
    let levels: Vec<&str> = placement.split('|').collect();
    let mut at = std::collections::HashMap::new();
    // The placement is valid: it was checked when the rules were read.
    let _ = stackchess_core::parse_placement(&levels, |c, p| {
        at.insert(c, p);
    });
    for (color, letters) in [(Color::White, ['K', 'Q']), (Color::Black, ['k', 'q'])] {
        for (long, letter) in [(false, letters[0]), (true, letters[1])] {
            if let Some(cm) = castles.get(color, long) {
                let king = at.get(&cm.king_from).is_some_and(|p| p.color == color && p.role == Role::King);
                let rook = at.get(&cm.rook_from).is_some_and(|p| p.color == color && p.role == Role::Rook);
                if king && rook {
                    rights.push(letter);
                }
            }
        }
    }
    if rights.is_empty() {
        rights.push('-');
    }
    format!("{placement} w {rights} - 0 1")
}
