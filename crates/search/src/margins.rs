//! The search's margins, depths and reductions as named parameters (`search.<name>` keys), each
//! with a range: what `stackchess spsa` tunes by play. The defaults are the constants the search
//! was written with.

use crate::ParamError;

/// One tunable constant: its name (after `search.`), default, range and meaning.
#[derive(Clone, Copy, Debug)]
pub struct Margin {
    /// The name, after `search.`.
    pub name: &'static str,
    /// The search's value.
    pub default: i32,
    /// The values it may take.
    pub range: (i32, i32),
    /// What it is.
    pub doc: &'static str,
}

const fn m(name: &'static str, default: i32, range: (i32, i32), doc: &'static str) -> Margin {
    Margin { name, default, range, doc }
}

/// Every tunable constant, in the order of [`Margins`]' values.
pub const MARGINS: [Margin; 36] = [
    m("rfp_margin", 100, (10, 400), "reverse futility: centipawns a depth above beta that return the static score"),
    m("rfp_depth", 3, (1, 10), "reverse futility: the deepest depth it applies at"),
    m(
        "futility_margin",
        120,
        (10, 500),
        "futility: centipawns a depth that the static score must fall short of alpha by",
    ),
    m("futility_depth", 2, (1, 8), "futility: the deepest depth it applies at"),
    m("lmp_base", 4, (1, 30), "late-move pruning: quiet moves searched at least"),
    m("lmp_scale", 3, (1, 12), "late-move pruning: more quiet moves per depth squared"),
    m("lmp_depth", 3, (1, 8), "late-move pruning: the deepest depth it applies at"),
    m("delta_margin", 200, (0, 1000), "quiescence delta pruning: the margin over the capture's gain"),
    m("aspiration_window", 25, (5, 300), "aspiration: the first window's half width in centipawns"),
    m("aspiration_depth", 4, (1, 12), "aspiration: the first depth with a window"),
    m("nmp_base", 3, (1, 8), "null move: the reduction at every depth"),
    m("nmp_divisor", 6, (2, 24), "null move: a ply more reduction per this many plies of depth"),
    m("nmp_depth", 3, (1, 8), "null move: the shallowest depth it is tried at"),
    m("lmr_base", 50, (0, 300), "late move reductions: the constant of the table, in hundredths of a ply"),
    m("lmr_divisor", 225, (50, 800), "late move reductions: ln(depth)·ln(moves) over this, in hundredths"),
    m("lmr_history", 8192, (512, 65536), "late move reductions: a ply less per this much history"),
    m("lmr_depth", 3, (1, 8), "late move reductions: the shallowest depth"),
    m("lmr_moves", 3, (1, 12), "late move reductions: moves searched before the first reduced one"),
    m("iir_depth", 4, (2, 12), "internal iterative reduction: the shallowest depth"),
    m("razor_margin", 250, (50, 1000), "razoring: centipawns a depth below alpha that hand the node to quiescence"),
    m("razor_depth", 2, (1, 6), "razoring: the deepest depth it applies at"),
    m("see_quiet_margin", 60, (0, 500), "SEE pruning: centipawns a depth a quiet move may lose"),
    m("see_capture_margin", 20, (0, 300), "SEE pruning: centipawns a depth squared a capture may lose"),
    m("see_depth", 6, (1, 12), "SEE pruning: the deepest depth it applies at"),
    m("cont_weight", 100, (0, 400), "continuation history: its weight in ordering and reductions, in hundredths"),
    m("lmp_falling", 50, (10, 100), "improving: late-move pruning's count where the static score fell, in percent"),
    m("lmr_falling", 1, (0, 3), "improving: plies more reduction where the static score fell"),
    m("capture_weight", 100, (0, 400), "capture history: its weight in the captures' order, in hundredths"),
    m(
        "history_prune",
        0,
        (0, 8000),
        "history pruning: quiet moves whose history is below minus this a depth, near the horizon (0: off)",
    ),
    m("lmr_cut", 0, (0, 3), "late move reductions: plies more at an expected cut node"),
    m("rfp_improving", 0, (0, 400), "improving: centipawns less reverse-futility margin where the static score rose"),
    m(
        "nmp_eval",
        0,
        (0, 2000),
        "null move: a ply more reduction per this many centipawns above beta, up to 3 (0: off)",
    ),
    m("corr_weight", 100, (0, 400), "correction history: the share of its correction applied, in hundredths"),
    m("corr_max", 64, (1, 512), "correction history: the largest correction, in centipawns"),
    m(
        "history_scale",
        1,
        (1, 256),
        "history: a cutoff's bonus (and the malus of the quiets before it) per depth squared",
    ),
    m("history_max", 400, (1, 16_384), "history: the largest bonus"),
];

/// The constants' values, in [`MARGINS`] order.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Margins(pub [i32; MARGINS.len()]);

impl Default for Margins {
    fn default() -> Self {
        Margins(MARGINS.map(|m| m.default))
    }
}

/// The position of each constant in [`Margins`].
#[allow(missing_docs)]
pub mod at {
    pub const RFP_MARGIN: usize = 0;
    pub const RFP_DEPTH: usize = 1;
    pub const FUTILITY_MARGIN: usize = 2;
    pub const FUTILITY_DEPTH: usize = 3;
    pub const LMP_BASE: usize = 4;
    pub const LMP_SCALE: usize = 5;
    pub const LMP_DEPTH: usize = 6;
    pub const DELTA_MARGIN: usize = 7;
    pub const ASPIRATION_WINDOW: usize = 8;
    pub const ASPIRATION_DEPTH: usize = 9;
    pub const NMP_BASE: usize = 10;
    pub const NMP_DIVISOR: usize = 11;
    pub const NMP_DEPTH: usize = 12;
    pub const LMR_BASE: usize = 13;
    pub const LMR_DIVISOR: usize = 14;
    pub const LMR_HISTORY: usize = 15;
    pub const LMR_DEPTH: usize = 16;
    pub const LMR_MOVES: usize = 17;
    pub const IIR_DEPTH: usize = 18;
    pub const RAZOR_MARGIN: usize = 19;
    pub const RAZOR_DEPTH: usize = 20;
    pub const SEE_QUIET_MARGIN: usize = 21;
    pub const SEE_CAPTURE_MARGIN: usize = 22;
    pub const SEE_DEPTH: usize = 23;
    pub const CONT_WEIGHT: usize = 24;
    pub const LMP_FALLING: usize = 25;
    pub const LMR_FALLING: usize = 26;
    pub const CAPTURE_WEIGHT: usize = 27;
    pub const HISTORY_PRUNE: usize = 28;
    pub const LMR_CUT: usize = 29;
    pub const RFP_IMPROVING: usize = 30;
    pub const NMP_EVAL: usize = 31;
    pub const CORR_WEIGHT: usize = 32;
    pub const CORR_MAX: usize = 33;
    pub const HISTORY_SCALE: usize = 34;
    pub const HISTORY_MAX: usize = 35;
}

impl Margins {
    /// The value of constant `i` (an [`at`] index).
    #[inline]
    #[must_use]
    pub fn get(&self, i: usize) -> i32 {
        self.0[i]
    }

    /// Sets the constant `name` (after `search.`); `Ok(false)` when no constant has that name.
    ///
    /// # Errors
    /// A value that is not an integer in the constant's range.
    pub fn set(&mut self, name: &str, value: &str) -> Result<bool, ParamError> {
        let Some(i) = MARGINS.iter().position(|m| m.name == name) else {
            return Ok(false);
        };
        let (lo, hi) = MARGINS[i].range;
        self.0[i] = value.parse().ok().filter(|v| (lo..=hi).contains(v)).ok_or_else(|| ParamError::BadValue {
            key: format!("search.{name}"),
            value: value.to_owned(),
            expected: format!("an integer from {lo} to {hi}"),
        })?;
        Ok(true)
    }

    /// The constants that differ from the defaults, as `name=value` (empty when none does).
    #[must_use]
    pub fn describe_changes(&self) -> String {
        let d = Margins::default();
        MARGINS
            .iter()
            .enumerate()
            .filter(|&(i, _)| self.0[i] != d.0[i])
            .map(|(i, m)| format!("{}={}", m.name, self.0[i]))
            .collect::<Vec<_>>()
            .join(",")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn indices_follow_the_table_and_defaults_are_in_range() {
        let names = [
            (at::RFP_MARGIN, "rfp_margin"),
            (at::RFP_DEPTH, "rfp_depth"),
            (at::FUTILITY_MARGIN, "futility_margin"),
            (at::FUTILITY_DEPTH, "futility_depth"),
            (at::LMP_BASE, "lmp_base"),
            (at::LMP_SCALE, "lmp_scale"),
            (at::LMP_DEPTH, "lmp_depth"),
            (at::DELTA_MARGIN, "delta_margin"),
            (at::ASPIRATION_WINDOW, "aspiration_window"),
            (at::ASPIRATION_DEPTH, "aspiration_depth"),
            (at::NMP_BASE, "nmp_base"),
            (at::NMP_DIVISOR, "nmp_divisor"),
            (at::NMP_DEPTH, "nmp_depth"),
            (at::LMR_BASE, "lmr_base"),
            (at::LMR_DIVISOR, "lmr_divisor"),
            (at::LMR_HISTORY, "lmr_history"),
            (at::LMR_DEPTH, "lmr_depth"),
            (at::LMR_MOVES, "lmr_moves"),
            (at::IIR_DEPTH, "iir_depth"),
            (at::RAZOR_MARGIN, "razor_margin"),
            (at::RAZOR_DEPTH, "razor_depth"),
            (at::SEE_QUIET_MARGIN, "see_quiet_margin"),
            (at::SEE_CAPTURE_MARGIN, "see_capture_margin"),
            (at::SEE_DEPTH, "see_depth"),
            (at::CONT_WEIGHT, "cont_weight"),
            (at::LMP_FALLING, "lmp_falling"),
            (at::LMR_FALLING, "lmr_falling"),
            (at::CAPTURE_WEIGHT, "capture_weight"),
            (at::HISTORY_PRUNE, "history_prune"),
            (at::LMR_CUT, "lmr_cut"),
            (at::RFP_IMPROVING, "rfp_improving"),
            (at::NMP_EVAL, "nmp_eval"),
            (at::CORR_WEIGHT, "corr_weight"),
            (at::CORR_MAX, "corr_max"),
            (at::HISTORY_SCALE, "history_scale"),
            (at::HISTORY_MAX, "history_max"),
        ];
        for (i, name) in names {
            assert_eq!(MARGINS[i].name, name);
        }
        assert_eq!(names.len(), MARGINS.len());
        for m in MARGINS {
            assert!((m.range.0..=m.range.1).contains(&m.default), "{}", m.name);
        }
        let mut x = Margins::default();
        assert_eq!(x.describe_changes(), "");
        assert!(x.set("rfp_margin", "130").unwrap());
        assert!(!x.set("nope", "1").unwrap());
        assert!(x.set("rfp_margin", "5").is_err());
        assert_eq!(x.describe_changes(), "rfp_margin=130");
    }
}
