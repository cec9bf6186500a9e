//! Training samples: each position's active inputs from both sides, its target and its game.

use crate::TrainError;
use stackchess_core::{Color, Position};
use stackchess_datagen::{Labels, Record};
use stackchess_nnue::{Features, SCALE};
use stackchess_search::{EvalParams, Evaluation};

/// Positions as the trainer reads them: per sample the side to move's active inputs and the
/// other side's (as [`Features`] numbers them), the mover's target and the game.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Samples {
    /// Inputs of every sample, the mover's then the other's, one after the other.
    inputs: Vec<u16>,
    /// Where sample `i`'s inputs start, and how many each side has (`offsets[i]`, `counts[i]`).
    offsets: Vec<u32>,
    counts: Vec<u8>,
    /// The mover's target: λ·σ(score) + (1 − λ)·result, from the side to move.
    pub target: Vec<f32>,
    /// What a residual net's output is added to: the base evaluation for the mover, in the
    /// net's units (centipawns / 400); 0 for a net that evaluates alone.
    pub base: Vec<f32>,
    /// The game of each sample.
    pub game: Vec<u64>,
}

impl Samples {
    /// The number of samples.
    #[must_use]
    pub fn len(&self) -> usize {
        self.target.len()
    }

    /// Whether there is none.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.target.is_empty()
    }

    /// Adds a sample.
    ///
    /// # Panics
    /// Never for a board of at most 255 pieces and inputs below 65,536 (`12 · 64 · 4 = 3072`).
    pub fn push(&mut self, us: &[u16], them: &[u16], target: f32, game: u64) {
        self.push_on(us, them, target, 0.0, game);
    }

    /// Adds a sample whose prediction starts from `base` (a residual net's base evaluation for
    /// the mover, in centipawns / 400).
    pub fn push_on(&mut self, us: &[u16], them: &[u16], target: f32, base: f32, game: u64) {
        debug_assert_eq!(us.len(), them.len());
        self.offsets.push(self.inputs.len() as u32);
        self.counts.push(us.len().min(255) as u8);
        self.inputs.extend_from_slice(&us[..us.len().min(255)]);
        self.inputs.extend_from_slice(&them[..them.len().min(255)]);
        self.target.push(target);
        self.base.push(base);
        self.game.push(game);
    }

    /// Sample `i`'s inputs: the mover's and the other side's.
    #[inline]
    #[must_use]
    pub fn inputs(&self, i: usize) -> (&[u16], &[u16]) {
        let (at, n) = (self.offsets[i] as usize, usize::from(self.counts[i]));
        (&self.inputs[at..at + n], &self.inputs[at + n..at + 2 * n])
    }

    /// The samples with every base 0 (as for a net that evaluates alone).
    #[must_use]
    pub fn without_base(mut self) -> Samples {
        self.base.fill(0.0);
        self
    }

    /// The samples for which `keep(i)` holds.
    #[must_use]
    pub fn filter(&self, keep: impl Fn(usize) -> bool) -> Samples {
        let mut out = Samples::default();
        for i in (0..self.len()).filter(|&i| keep(i)) {
            let (us, them) = self.inputs(i);
            out.push_on(us, them, self.target[i], self.base[i], self.game[i]);
        }
        out
    }
}

/// The samples of `records` for the board `features` numbers, labelled by `labels`; `base`, for a
/// residual net, holds each record's base evaluation in centipawns from White's side
/// ([`base_scores`]).
///
/// # Panics
/// If `base` is given for another number of records.
#[must_use]
pub fn samples_of(features: &Features, records: &[Record], labels: Labels, base: Option<&[i32]>) -> Samples {
    assert!(base.is_none_or(|b| b.len() == records.len()), "a base score per record");
    let mut out = Samples::default();
    let (mut white, mut black) = (Vec::with_capacity(64), Vec::with_capacity(64));
    for (k, r) in records.iter().enumerate() {
        white.clear();
        black.clear();
        r.position.for_each_piece(|cell, piece| {
            white.push(features.index(Color::White, piece, cell) as u16);
            black.push(features.index(Color::Black, piece, cell) as u16);
        });
        let t = labels.target(f64::from(r.score), r.result.points()) as f32;
        let b = base.map_or(0.0, |b| b[k] as f32 / SCALE as f32);
        if r.position.turn == Color::White {
            out.push_on(&white, &black, t, b, r.game);
        } else {
            out.push_on(&black, &white, 1.0 - t, -b, r.game);
        }
    }
    out
}

/// The linear evaluation with `params` of every record's position, in centipawns from White's
/// side: the base of a residual net.
///
/// # Errors
/// A record whose position the rules refuse (its game and ply named).
pub fn base_scores<P: Position>(
    rules: P::Rules,
    params: &EvalParams,
    records: &[Record],
) -> Result<Vec<i32>, TrainError> {
    let eval = Evaluation::new::<P>(rules, params);
    records
        .iter()
        .map(|r| {
            let pos: P = r
                .position
                .position(rules)
                .map_err(|e| TrainError::Config(format!("the record of game {:016x} at ply {}: {e}", r.game, r.ply)))?;
            let s = eval.score(&pos);
            Ok(if pos.turn() == Color::White { s } else { -s })
        })
        .collect()
}

/// Data made ready for training: the samples split by game, and what the net has to beat.
#[derive(Clone, Debug)]
pub struct Prepared {
    /// Positions read (each once).
    pub positions: usize,
    /// The samples trained on.
    pub train: Samples,
    /// The samples of the held-out games.
    pub holdout: Samples,
    /// The held-out error of the linear evaluation alone: the figure a net has to beat.
    pub linear_alone: f64,
}

/// How [`prepare`] splits and labels the data.
#[derive(Clone, Debug)]
pub struct Split<'a> {
    /// The targets.
    pub labels: Labels,
    /// Share of games held out.
    pub holdout: f64,
    /// Seed of the split.
    pub seed: u64,
    /// The linear evaluation the net is measured against.
    pub linear: &'a EvalParams,
    /// Whether the net is a residual of it (its samples then carry its scores as their base).
    pub residual: bool,
}

/// Reads the data `files` of `rules` (each position once) and makes the samples: a share of the
/// games held out (by game, from the seed), each sample labelled, with the linear evaluation's
/// score as its base for a residual net.
///
/// # Errors
/// A data file that cannot be read, is damaged or is of another rule set; a position the rules
/// refuse.
pub fn prepare<P: Position>(
    rules: P::Rules,
    files: &[std::path::PathBuf],
    s: &Split<'_>,
) -> Result<Prepared, TrainError> {
    use stackchess_core::Rules;
    let records = stackchess_datagen::DataReader::read_files(files, rules.id())?;
    let features = Features::of::<P>(rules);
    let linear = base_scores::<P>(rules, s.linear, &records)?;
    let all = samples_of(&features, &records, s.labels, Some(&linear));
    let held_out = |i: usize| {
        let u = stackchess_core::SplitMix64::for_item(s.seed ^ 0x40DE, all.game[i]).next_u64() >> 11;
        (u as f64 / (1u64 << 53) as f64) < s.holdout
    };
    let (mut train, mut holdout) = (all.filter(|i| !held_out(i)), all.filter(held_out));
    let linear_alone = crate::base_mse(&holdout);
    if !s.residual {
        (train, holdout) = (train.without_base(), holdout.without_base());
    }
    Ok(Prepared { positions: all.len(), train, holdout, linear_alone })
}
