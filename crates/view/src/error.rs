//! What can go wrong reading recorded games and turning them into viewer data; each error names
//! the game or the file.

/// A game that cannot be replayed.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ViewError {
    /// The start position does not parse.
    #[error("game {game}: start position: {message}")]
    Start {
        /// The game's id.
        game: String,
        /// What is wrong.
        message: String,
    },
    /// A move is not coordinate notation or not legal where it is played.
    #[error("game {game}: {part} move {ply} ({text}): {message}")]
    Move {
        /// The game's id.
        game: String,
        /// `opening` or `game`.
        part: &'static str,
        /// 1-based index of the move in its part.
        ply: usize,
        /// The move as recorded.
        text: String,
        /// Why it was refused.
        message: String,
    },
    /// An opening that does not lead to the recorded start position.
    #[error("game {game}: the opening moves lead to {reached}, not to the recorded start {recorded}")]
    Opening {
        /// The game's id.
        game: String,
        /// The LFEN the opening reaches.
        reached: String,
        /// The start LFEN of the record.
        recorded: String,
    },
    /// An evaluation for a ply the game does not have.
    #[error("game {game}: an evaluation for ply {ply}, but the game has {plies} plies")]
    Evaluation {
        /// The game's id.
        game: String,
        /// The 1-based ply of the evaluation.
        ply: usize,
        /// The game's plies.
        plies: usize,
    },
    /// A record file that cannot be read.
    #[error("reading the records of {input}: {message}")]
    Records {
        /// The run directory or games.csv.
        input: String,
        /// What is wrong, and where.
        message: String,
    },
    /// A record of a rule set that is not known (a user-defined one not loaded).
    #[error("game {game}: variant '{variant}' (a user-defined rule set's games need --rules FILE): {message}")]
    Variant {
        /// The game's id.
        game: String,
        /// The variant as recorded.
        variant: String,
        /// Why it is not known.
        message: String,
    },
}
