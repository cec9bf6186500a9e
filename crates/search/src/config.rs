//! Search settings: table size, feature switches, evaluation.

use crate::EvalParams;

/// How the engine searches. [`SearchConfig::for_variant`] is the full engine; [`SearchConfig::plain`]
/// switches every enhancement off.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SearchConfig {
    /// Transposition table size in MiB (0: no table).
    pub hash_mb: usize,
    /// Principal variation search (null windows after the first move).
    pub pvs: bool,
    /// Aspiration windows from depth 4 on.
    pub aspiration: bool,
    /// Null-move pruning (never in check, never without a piece besides pawns and king).
    pub null_move: bool,
    /// Late move reductions for quiet moves.
    pub lmr: bool,
    /// Killer moves in ordering.
    pub killers: bool,
    /// History heuristic in ordering.
    pub history: bool,
    /// Extend moves that give check by one ply.
    pub check_extension: bool,
    /// Reverse futility pruning (static null move) at depth 1–3.
    pub rfp: bool,
    /// Futility pruning of quiet moves at depth 1–2, and late-move pruning.
    pub futility: bool,
    /// Quiescence search: captures and promotions, all moves when in check. Without it, the
    /// horizon node returns the static evaluation.
    pub quiescence: bool,
    /// The evaluation.
    pub eval: EvalParams,
}

impl SearchConfig {
    /// The full engine for a variant, with a 16 MiB table.
    #[must_use]
    pub fn for_variant(name: &str) -> Self {
        SearchConfig {
            hash_mb: 16,
            pvs: true,
            aspiration: true,
            null_move: true,
            lmr: true,
            killers: true,
            history: true,
            check_extension: true,
            rfp: true,
            futility: true,
            quiescence: true,
            eval: EvalParams::for_variant(name),
        }
    }

    /// Plain alpha-beta: iterative deepening (the previous iteration's best move searched first at
    /// the root only), MVV-LVA capture ordering, quiescence search (captures, promotions, check
    /// evasions), mate-distance scores, repetition and 50-move draws, and the same evaluation as
    /// the full engine. No transposition table, PVS, aspiration, null move, LMR, killers, history,
    /// check extension or pruning.
    #[must_use]
    pub fn plain(name: &str) -> Self {
        SearchConfig {
            hash_mb: 0,
            pvs: false,
            aspiration: false,
            null_move: false,
            lmr: false,
            killers: false,
            history: false,
            check_extension: false,
            rfp: false,
            futility: false,
            quiescence: true,
            eval: EvalParams::for_variant(name),
        }
    }

    /// The settings as one line: `hash=16 features=pvs,asp,... eval: <params>`. Stable, for records.
    #[must_use]
    pub fn describe(&self) -> String {
        let flags = [
            (self.pvs, "pvs"),
            (self.aspiration, "asp"),
            (self.null_move, "nmp"),
            (self.lmr, "lmr"),
            (self.killers, "killers"),
            (self.history, "history"),
            (self.check_extension, "checkext"),
            (self.rfp, "rfp"),
            (self.futility, "futility"),
            (self.quiescence, "qs"),
        ];
        let on: Vec<&str> = flags.iter().filter(|f| f.0).map(|f| f.1).collect();
        let features = if on.is_empty() { "none".to_owned() } else { on.join(",") };
        format!("hash={} features={} eval: {}", self.hash_mb, features, self.eval.describe())
    }
}

impl Default for SearchConfig {
    fn default() -> Self {
        SearchConfig::for_variant("fide")
    }
}
