//! Search settings: table size, feature switches, evaluation.

use crate::margins::Margins;
use crate::params::split_pair;
use crate::{EvalParams, ParamError};

/// How the engine searches. [`SearchConfig::full`] is the full engine; [`SearchConfig::plain`]
/// switches every enhancement off. Both take the evaluation: a rule set's preset, a tuned set or
/// [`EvalParams::default`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SearchConfig {
    /// Transposition table size in MiB (0: no table).
    pub hash_mb: usize,
    /// The feature switches (`search.<name>`, [`SearchConfig::SWITCHES`]).
    pub switches: Switches,
    /// The search's margins, depths and reductions (`search.rfp_margin=...`).
    pub margins: Margins,
    /// The evaluation (with a net: its piece values still order moves and count exchanges).
    pub eval: EvalParams,
    /// A neural evaluation instead (`--eval net:FILE`).
    pub net: Option<crate::NetFile>,
    /// Where the evaluation came from (`preset malka`, `file tuned.params`, ...), written by
    /// [`SearchConfig::describe`] so that records say which parameters played; empty: unnamed.
    pub eval_source: String,
}

/// The search's feature switches, one bool each: the one declaration of them (the search
/// reads them through its `Features`, with the unsound prunings off in a mate search).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Switches {
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
    /// The transposition table in the quiescence search: its cutoffs, its move first, its results
    /// stored.
    pub qs_tt: bool,
    /// Whether the static score rose since the side's previous move ("improving") sets the
    /// reverse-futility margin, the late-move pruning count and the reductions.
    pub improving: bool,
    /// Continuation history: quiet moves ordered (and reduced) by how they did after the
    /// opponent's last move and the side's own previous one.
    pub cont_history: bool,
    /// Razoring: near the horizon, far below alpha, a quiescence search decides.
    pub razoring: bool,
    /// Moves that lose material by static exchange are pruned near the horizon.
    pub see_pruning: bool,
    /// Capture history: captures of equal victims ordered by how such captures did.
    pub capture_history: bool,
    /// The table's score refines the static score for the prunings (where its bound says the
    /// true score lies beyond the static one).
    pub tt_eval: bool,
    /// Check extension only for checks that do not lose material by static exchange.
    pub check_see: bool,
    /// Correction history: the static score corrected by how searches of positions with the same
    /// pawns differed from it.
    pub corr_history: bool,
    /// With a net, positions without pawns are scored by the linear evaluation alone (a residual
    /// net's base, else the parameters): its mop-up guidance and drawish scale.
    pub net_endgame: bool,
}

/// A feature switch: its key (`search.<name>`), its short name in [`SearchConfig::describe`],
/// what it does, and its field.
#[derive(Clone, Copy)]
pub struct Switch {
    /// The key, after `search.`.
    pub name: &'static str,
    /// The name in the `features=` list of [`SearchConfig::describe`].
    pub short: &'static str,
    /// What it switches.
    pub doc: &'static str,
    /// The field.
    pub get: fn(&SearchConfig) -> bool,
    /// The field, to change it.
    pub get_mut: fn(&mut SearchConfig) -> &mut bool,
    /// Whether the full engine ([`SearchConfig::full`]) has it on.
    pub in_full: bool,
}

macro_rules! switch {
    ($field:ident, $short:literal, $doc:literal) => {
        switch!($field, $short, $doc, true)
    };
    ($field:ident, $short:literal, $doc:literal, $in_full:literal) => {
        Switch {
            name: stringify!($field),
            short: $short,
            doc: $doc,
            get: |c| c.switches.$field,
            get_mut: |c| &mut c.switches.$field,
            in_full: $in_full,
        }
    };
}

impl SearchConfig {
    /// Every feature switch, in the order [`SearchConfig::describe`] lists them: the one table
    /// that setting, describing and listing the switches read.
    pub const SWITCHES: [Switch; 21] = [
        switch!(pvs, "pvs", "principal variation search"),
        switch!(aspiration, "asp", "aspiration windows from depth 4"),
        switch!(null_move, "nmp", "null-move pruning"),
        switch!(lmr, "lmr", "late move reductions and internal iterative reduction"),
        switch!(killers, "killers", "killer moves in ordering"),
        switch!(history, "history", "history heuristic in ordering"),
        switch!(check_extension, "checkext", "one ply more for moves that give check"),
        switch!(rfp, "rfp", "reverse futility pruning at depth 1-3"),
        switch!(futility, "futility", "futility and late-move pruning of quiet moves"),
        switch!(see, "see", "static exchange evaluation of captures"),
        switch!(quiescence, "qs", "quiescence search at the horizon"),
        switch!(qs_tt, "qstt", "transposition table in the quiescence search"),
        switch!(improving, "improving", "margins and reductions by whether the static score rose", false),
        switch!(cont_history, "conthist", "continuation history in ordering and reductions"),
        switch!(razoring, "razor", "razoring near the horizon", false),
        switch!(see_pruning, "seeprune", "pruning of moves that lose material by SEE near the horizon"),
        switch!(capture_history, "capthist", "capture history in the order of captures", false),
        switch!(tt_eval, "tteval", "the table's score as the static score for pruning", false),
        switch!(check_see, "checksee", "check extension only for checks that keep material by SEE", false),
        switch!(corr_history, "corrhist", "the static score corrected by searches of the same pawns", false),
        switch!(net_endgame, "netend", "with a net, positions without pawns scored by the linear evaluation alone"),
    ];

    /// The full engine with the evaluation `eval`, with a 16 MiB table.
    #[must_use]
    pub fn full(eval: EvalParams) -> Self {
        let mut c = SearchConfig::plain(eval);
        c.hash_mb = 16;
        for s in Self::SWITCHES {
            *(s.get_mut)(&mut c) = s.in_full;
        }
        c
    }

    /// The full engine a rule set's preset file describes: its evaluation (every key), and the
    /// `search.` keys it sets over [`SearchConfig::full`] (a switch or margin that won for that
    /// rule set only).
    ///
    /// # Errors
    /// The first bad line, as [`SearchConfig::apply_file`]; a file without an evaluation.
    pub fn preset(text: &str) -> Result<Self, ParamError> {
        let (mut c, eval_text, _) = SearchConfig::full(EvalParams::default()).with_search_lines(text)?;
        c.eval = EvalParams::parse(&eval_text)?;
        Ok(c)
    }

    /// Plain alpha-beta with the evaluation `eval`: iterative deepening (the previous iteration's
    /// best move searched first at the root only), MVV-LVA capture ordering, quiescence search
    /// (captures, promotions, check evasions), mate-distance scores, repetition and 50-move draws.
    /// No transposition table, PVS, aspiration, null move, LMR, killers, history, check extension,
    /// pruning or SEE.
    #[must_use]
    pub fn plain(eval: EvalParams) -> Self {
        SearchConfig {
            hash_mb: 0,
            switches: Switches {
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
                qs_tt: false,
                improving: false,
                cont_history: false,
                razoring: false,
                see_pruning: false,
                capture_history: false,
                tt_eval: false,
                check_see: false,
                corr_history: false,
                net_endgame: false,
            },
            margins: Margins::default(),
            eval,
            net: None,
            eval_source: String::new(),
        }
    }

    /// The same settings, the evaluation's source named.
    #[must_use]
    pub fn with_source(self, source: impl Into<String>) -> Self {
        SearchConfig { eval_source: source.into(), ..self }
    }

    /// Sets a search switch (`search.lmr=false`), the table size (`search.hash=64`), a margin
    /// (`search.rfp_margin=120`, [`crate::MARGINS`]) or, for any other key, an evaluation
    /// parameter (see [`EvalParams::set`]).
    ///
    /// # Errors
    /// An unknown key or a bad value.
    pub fn set(&mut self, key: &str, value: &str) -> Result<(), ParamError> {
        let (key, value) = (key.trim(), value.trim());
        let Some(name) = key.strip_prefix("search.") else {
            return self.eval.set(key, value);
        };
        let bad = |expected: &str| ParamError::BadValue {
            key: key.to_owned(),
            value: value.to_owned(),
            expected: expected.to_owned(),
        };
        if name == "hash" {
            self.hash_mb = value.parse().map_err(|_| bad("a size in MiB"))?;
            return Ok(());
        }
        if self.margins.set(name, value)? {
            return Ok(());
        }
        let known = || {
            let mut k: Vec<String> = Self::SWITCHES.iter().map(|s| format!("search.{}", s.name)).collect();
            k.push("search.hash".to_owned());
            k.extend(crate::MARGINS.iter().map(|m| format!("search.{}", m.name)));
            k.join(", ")
        };
        let switch = Self::SWITCHES
            .iter()
            .find(|s| s.name == name)
            .ok_or_else(|| ParamError::UnknownKey { key: key.to_owned(), known: known() })?;
        *(switch.get_mut)(self) = match value {
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

    /// Applies a parameter file (`--params`): `key = value` lines, `#` comments. Lines with
    /// `search.` keys set switches or the table size; the others, if there are any, are a whole
    /// evaluation ([`EvalParams::parse`]: every evaluation key once) that replaces this one.
    ///
    /// Returns whether the file held an evaluation.
    ///
    /// # Errors
    /// The first bad line, by number (for an evaluation that lacks keys, the line after the
    /// last). Nothing is changed unless the whole file is good.
    pub fn apply_file(&mut self, text: &str) -> Result<bool, ParamError> {
        let (mut next, eval_text, has_eval) = self.with_search_lines(text)?;
        if has_eval {
            next.eval = EvalParams::parse(&eval_text)?;
        }
        *self = next;
        Ok(has_eval)
    }

    /// A copy with the file's `search.` lines applied; the evaluation's lines (search lines made
    /// blank, so every line keeps its number) and whether it has any.
    fn with_search_lines(&self, text: &str) -> Result<(SearchConfig, String, bool), ParamError> {
        let mut next = self.clone();
        let mut eval_text = String::new();
        let mut has_eval = false;
        for (i, raw) in text.lines().enumerate() {
            let line = raw.split('#').next().unwrap_or("").trim();
            if line.starts_with("search.") {
                let (k, v) =
                    line.split_once('=').ok_or_else(|| ParamError::Syntax { line: i + 1, text: raw.to_owned() })?;
                next.set(k, v).map_err(|e| ParamError::Line { line: i + 1, source: Box::new(e) })?;
            } else {
                has_eval |= !line.is_empty();
                eval_text.push_str(raw);
            }
            eval_text.push('\n');
        }
        Ok((next, eval_text, has_eval))
    }

    /// The settings as one line: `hash=16 features=pvs,asp,... eval: <params>`, or
    /// `eval (<source>): <params>` when the source is named. Stable, for records.
    #[must_use]
    pub fn describe(&self) -> String {
        let on: Vec<&str> = Self::SWITCHES.iter().filter(|s| (s.get)(self)).map(|s| s.short).collect();
        let features = if on.is_empty() { "none".to_owned() } else { on.join(",") };
        let source = if self.eval_source.is_empty() { String::new() } else { format!(" ({})", self.eval_source) };
        let changes = self.margins.describe_changes();
        let margins = if changes.is_empty() { String::new() } else { format!(" margins={changes}") };
        let net = self.net.as_ref().map_or_else(String::new, |n| format!(" net={} ({})", n.path, n.net.checksum()));
        format!("hash={} features={}{margins}{net} eval{source}: {}", self.hash_mb, features, self.eval.describe())
    }
}

/// The full engine with the generic evaluation.
impl Default for SearchConfig {
    fn default() -> Self {
        SearchConfig::full(EvalParams::default())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn switches_and_eval_keys_are_set_by_name() {
        let mut c = SearchConfig::default();
        assert!(c
            .describe()
            .starts_with("hash=16 features=pvs,asp,nmp,lmr,killers,history,checkext,rfp,futility,see,qs,qstt,conthist,seeprune,netend eval: "));
        c.set_pair("search.lmr=false").unwrap();
        c.set_pair("search.see=off").unwrap();
        c.set_pair("search.hash=3").unwrap();
        c.set_pair("value.queen=500").unwrap();
        assert!(!c.switches.lmr && !c.switches.see && c.hash_mb == 3 && c.eval.mg[crate::term::VALUE + 4] == 500);
        assert!(c
            .describe()
            .contains("features=pvs,asp,nmp,killers,history,checkext,rfp,futility,qs,qstt,conthist,seeprune,netend"));
        let e = c.set("search.nope", "true").unwrap_err().to_string();
        assert!(e.contains("search.lmr") && e.contains("search.see"), "{e}");
        assert!(c.set("search.pvs", "maybe").is_err());
        let plain = SearchConfig::plain(EvalParams::default()).with_source("preset fide");
        assert!(plain.describe().starts_with("hash=0 features=qs eval (preset fide): "));
    }

    #[test]
    fn every_switch_is_its_own_field() {
        let mut all_on = SearchConfig::default();
        for s in SearchConfig::SWITCHES {
            *(s.get_mut)(&mut all_on) = true;
        }
        for s in SearchConfig::SWITCHES {
            let mut c = all_on.clone();
            c.set(&format!("search.{}", s.name), "false").unwrap();
            let off: Vec<&str> = SearchConfig::SWITCHES.iter().filter(|t| !(t.get)(&c)).map(|t| t.name).collect();
            assert_eq!(off, [s.name]);
        }
    }

    #[test]
    fn parameter_files_replace_the_evaluation_whole() {
        let mut c = SearchConfig::default();
        let e = EvalParams { tempo: 17, ..EvalParams::default() };
        assert!(c.apply_file(&format!("search.lmr = false\n{}", e.to_file())).unwrap());
        assert!(!c.switches.lmr && c.eval == e);
        // Switches alone leave the evaluation as it is.
        assert!(!c.apply_file("search.lmr = true # on again\n").unwrap());
        assert!(c.switches.lmr && c.eval == e);
        // An incomplete evaluation is refused at the line where the file ends, and nothing changes.
        let before = c.clone();
        let err = c.apply_file("search.lmr = false\ntempo = 3\n").unwrap_err().to_string();
        assert!(err.starts_with("line 3: the file ends without value.pawn"), "{err}");
        assert_eq!(c, before);
    }

    #[test]
    fn a_preset_sets_its_search_keys_over_the_full_engine() {
        let e = EvalParams { tempo: 17, ..EvalParams::default() };
        let c =
            SearchConfig::preset(&format!("# a rule set's preset\n{}search.improving = true\n", e.to_file())).unwrap();
        let mut want = SearchConfig::full(e.clone());
        want.switches.improving = true;
        assert_eq!(c, want);
        assert_eq!(SearchConfig::preset(&e.to_file()).unwrap(), SearchConfig::full(e));
        let err = SearchConfig::preset("search.improving = true\n").unwrap_err().to_string();
        assert!(err.starts_with("line 2: the file ends without value.pawn"), "{err}");
        let err = SearchConfig::preset("search.improving = maybe\n").unwrap_err().to_string();
        assert!(err.starts_with("line 1"), "{err}");
    }
}
