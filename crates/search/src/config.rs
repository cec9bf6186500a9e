//! Search settings: table size, feature switches, evaluation.

use crate::params::{apply_lines, split_pair};
use crate::{EvalParams, ParamError};

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
    /// Late move reductions for quiet moves (less for moves with good history), and internal
    /// iterative reduction (a ply less where the table has no move, from depth 4).
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
    /// Static exchange evaluation: losing captures are ordered after the quiet moves and left out
    /// of the quiescence search.
    pub see: bool,
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
            see: true,
            quiescence: true,
            eval: EvalParams::for_variant(name),
        }
    }

    /// Plain alpha-beta: iterative deepening (the previous iteration's best move searched first at
    /// the root only), MVV-LVA capture ordering, quiescence search (captures, promotions, check
    /// evasions), mate-distance scores, repetition and 50-move draws, and the same evaluation as
    /// the full engine. No transposition table, PVS, aspiration, null move, LMR, killers, history,
    /// check extension, pruning or SEE.
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
            see: false,
            quiescence: true,
            eval: EvalParams::for_variant(name),
        }
    }

    /// The names of the feature switches, as `search.<name>` keys of [`SearchConfig::set`].
    pub const SWITCHES: [&'static str; 10] = [
        "pvs",
        "aspiration",
        "null_move",
        "lmr",
        "killers",
        "history",
        "check_extension",
        "rfp",
        "futility",
        "quiescence",
    ];

    fn switch(&mut self, name: &str) -> Option<&mut bool> {
        Some(match name {
            "pvs" => &mut self.pvs,
            "aspiration" => &mut self.aspiration,
            "null_move" => &mut self.null_move,
            "lmr" => &mut self.lmr,
            "killers" => &mut self.killers,
            "history" => &mut self.history,
            "check_extension" => &mut self.check_extension,
            "rfp" => &mut self.rfp,
            "futility" => &mut self.futility,
            "see" => &mut self.see,
            "quiescence" => &mut self.quiescence,
            _ => return None,
        })
    }

    /// Sets a search switch (`search.lmr=false`), the table size (`search.hash=64`) or, for any
    /// other key, an evaluation parameter (see [`EvalParams::set`]).
    ///
    /// # Errors
    /// An unknown key or a bad value.
    pub fn set(&mut self, key: &str, value: &str) -> Result<(), ParamError> {
        let (key, value) = (key.trim(), value.trim());
        let Some(name) = key.strip_prefix("search.") else {
            return self.eval.set(key, value);
        };
        let bad = |expected| ParamError::BadValue { key: key.to_owned(), value: value.to_owned(), expected };
        if name == "hash" {
            self.hash_mb = value.parse().map_err(|_| bad("a size in MiB"))?;
            return Ok(());
        }
        let known = || {
            let mut k: Vec<String> = Self::SWITCHES.iter().map(|s| format!("search.{s}")).collect();
            k.push("search.hash".to_owned());
            k.join(", ")
        };
        let slot = self.switch(name).ok_or_else(|| ParamError::UnknownKey { key: key.to_owned(), known: known() })?;
        *slot = match value {
            "true" | "1" | "on" => true,
            "false" | "0" | "off" => false,
            _ => return Err(bad("true or false")),
        };
        Ok(())
    }

    /// Sets a `key=value` pair, as [`SearchConfig::set`].
    ///
    /// # Errors
    /// Text without `=`, an unknown key or a bad value.
    pub fn set_pair(&mut self, pair: &str) -> Result<(), ParamError> {
        let (k, v) = split_pair(pair)?;
        self.set(k, v)
    }

    /// Applies a parameter file of `key = value` lines (keys as [`SearchConfig::set`]); blank
    /// lines and `#` comments are skipped.
    ///
    /// # Errors
    /// The first bad line, by number. Nothing is changed unless every line is good.
    pub fn apply_file(&mut self, text: &str) -> Result<(), ParamError> {
        apply_lines(self, text, SearchConfig::set)
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
            (self.see, "see"),
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn switches_and_eval_keys_are_set_by_name() {
        let mut c = SearchConfig::for_variant("malka");
        c.set_pair("search.lmr=false").unwrap();
        c.set_pair("search.hash=3").unwrap();
        c.set_pair("value.queen=500").unwrap();
        assert!(!c.lmr && c.hash_mb == 3 && c.eval.value[4] == 500);
        assert!(c.describe().contains("features=pvs,asp,nmp,killers"));
        assert!(c.set("search.nope", "true").unwrap_err().to_string().contains("search.lmr"));
        assert!(c.set("search.pvs", "maybe").is_err());
        let plain = SearchConfig::plain("malka");
        assert!(plain.describe().starts_with("hash=0 features=qs eval: "));
    }
}
