//! The neural evaluation in the search: the net, its inputs, and one accumulator a ply, each
//! made from the nearest ancestor's by the pieces that changed between them (or afresh).

use crate::eval::{Eval, Evaluation};
use crate::EvalParams;
use stackchess_core::{CellSet, Color, Position, Role};
use stackchess_nnue::{Accumulator, Features, Net, Pieces};
use std::sync::Arc;

/// A net as the search settings hold it: the file it came from, the net, and the linear
/// evaluation a residual net's output is added to.
#[derive(Clone)]
pub struct NetFile {
    /// The path as given (records name it).
    pub path: String,
    /// The net.
    pub net: Arc<Net>,
    /// A residual net's base: the parameters of the linear evaluation it corrects.
    pub base: Option<Arc<EvalParams>>,
}

impl NetFile {
    /// Whether the net plays with the evaluation parameters `params`: a plain net always, a
    /// residual one only with the parameters it corrects (with others it would ignore them).
    #[must_use]
    pub fn corrects(&self, params: &EvalParams) -> bool {
        self.base.as_deref().is_none_or(|base| base == params)
    }
}

impl PartialEq for NetFile {
    fn eq(&self, other: &Self) -> bool {
        self.path == other.path && (Arc::ptr_eq(&self.net, &other.net) || self.net == other.net)
    }
}
impl Eq for NetFile {}

impl std::fmt::Debug for NetFile {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let residual = if self.base.is_some() { ", residual" } else { "" };
        write!(f, "NetFile({}, {} neurons, rules {}{residual})", self.path, self.net.hidden, self.net.rules_id)
    }
}

/// The pieces of the start position of `rules` (what bounds a net's sums).
fn start_pieces<P: Position>(rules: P::Rules) -> usize {
    use stackchess_core::Rules;
    let mut pieces = 0;
    rules.startpos().for_each_piece(|_, _| pieces += 1);
    pieces
}

/// The net of an engine, the numbering of its inputs, and a residual net's base evaluation.
pub(crate) struct NetEval {
    pub net: Arc<Net>,
    pub features: Features,
    pub base: Option<Evaluation>,
    /// The linear evaluation that scores positions without pawns instead of the net (a residual
    /// net's base, else the engine's parameters): its mop-up guidance and drawish scale convert
    /// endings that a net, which sees few of them in its data, draws by the fifty-move rule.
    pub endgame: Option<Evaluation>,
}

impl NetEval {
    /// The net of `n`; with `endgame` (the engine's parameters), positions without pawns are
    /// left to the linear evaluation: a residual net's base, else those parameters'.
    pub fn new<P: Position>(rules: P::Rules, n: &NetFile, endgame: Option<&EvalParams>) -> NetEval {
        let base = n.base.as_deref().map(|p| Evaluation::new::<P>(rules, p));
        let endgame = endgame.map(|p| base.clone().unwrap_or_else(|| Evaluation::new::<P>(rules, p)));
        NetEval { net: n.net.clone(), features: Features::of::<P>(rules), base, endgame }
    }
}

/// One ply's accumulator and the pieces it was made for.
struct Slot<C: CellSet> {
    acc: Accumulator,
    pieces: Pieces<C>,
    valid: bool,
}

/// A search thread's accumulators, one a ply.
pub(crate) struct Stack<C: CellSet> {
    slots: Vec<Slot<C>>,
}

impl<C: CellSet> Stack<C> {
    pub fn new(n: &NetEval, plies: usize) -> Stack<C> {
        let blank = || Slot { acc: Accumulator::new(&n.net), pieces: Pieces([C::default(); 12]), valid: false };
        Stack { slots: (0..plies).map(|_| blank()).collect() }
    }

    /// A new node at `ply`: its accumulator is not made yet.
    #[inline]
    pub fn enter(&mut self, ply: usize) {
        if let Some(s) = self.slots.get_mut(ply) {
            s.valid = false;
        }
    }

    /// The evaluation of `pos` at `ply`.
    pub fn eval<P: Position<Cells = C>>(&mut self, n: &NetEval, pos: &P, ply: usize) -> Eval {
        if let Some(linear) = &n.endgame {
            if Color::ALL.iter().all(|&c| pos.pieces(c, Role::Pawn).is_empty()) {
                return linear.eval(pos);
            }
        }
        let ply = ply.min(self.slots.len() - 1);
        let pieces = Pieces::of(pos);
        if !self.slots[ply].valid {
            let from = (0..ply).rev().take(8).find(|&q| self.slots[q].valid);
            let (before, here) = self.slots.split_at_mut(ply);
            let slot = &mut here[0];
            match from {
                // Into the slot's own buffer: no allocation a node.
                Some(q) => {
                    slot.acc.clone_from(&before[q].acc);
                    slot.acc.update(&n.net, &n.features, &before[q].pieces, &pieces);
                }
                None => slot.acc = n.net.refresh(&n.features, pos),
            }
            slot.pieces = pieces;
            slot.valid = true;
        }
        let mut score = n.net.evaluate(&self.slots[ply].acc, pos.turn() == Color::White);
        if let Some(base) = &n.base {
            score += base.eval(pos).score;
        }
        Eval { score, pieces: officers(&pieces) }
    }
}

/// Whether each side has a piece besides pawns and the king (roles 1 to 4: knight to queen).
fn officers<C: CellSet>(p: &Pieces<C>) -> [bool; 2] {
    let has = |side: usize| (Role::Knight as usize..=Role::Queen as usize).any(|r| !p.0[side * 6 + r].is_empty());
    [has(0), has(1)]
}

impl NetFile {
    /// Reads the net in `path` for `rules` (refused when it is for another rule set or board, or
    /// its sums could overflow with the start position's pieces).
    ///
    /// # Errors
    /// As [`Net::read`].
    pub fn load<P: Position>(rules: P::Rules, path: &std::path::Path) -> Result<NetFile, stackchess_nnue::NetError> {
        use stackchess_core::Rules;
        let net = Net::read(path, rules.id(), P::LEVELS, start_pieces::<P>(rules))?;
        NetFile::of(path.display().to_string(), net)
    }

    /// The net in `bytes` (a net file built into the program, named `name`: `builtin:malka`),
    /// checked for `rules` as [`NetFile::load`] checks a file.
    ///
    /// # Errors
    /// As [`Net::for_rules`].
    pub fn from_bytes<P: Position>(
        rules: P::Rules,
        bytes: &[u8],
        name: &str,
    ) -> Result<NetFile, stackchess_nnue::NetError> {
        use stackchess_core::Rules;
        let net = Net::for_rules(bytes, name, rules.id(), P::LEVELS, start_pieces::<P>(rules))?;
        NetFile::of(name.to_owned(), net)
    }

    /// The evaluation of `pos` for the side to move, made from scratch (a residual net's base
    /// added): for tools and tests, not for a search loop.
    #[must_use]
    pub fn score<P: Position>(&self, rules: P::Rules, pos: &P) -> i32 {
        let n = NetEval::new::<P>(rules, self, None);
        Stack::new(&n, 1).eval(&n, pos, 0).score
    }

    /// The net read from `path`, its base (if any) parsed.
    fn of(path: String, net: Net) -> Result<NetFile, stackchess_nnue::NetError> {
        let base = if net.base.is_empty() {
            None
        } else {
            let p = EvalParams::parse(&net.base).map_err(|e| stackchess_nnue::NetError::Format {
                path: path.clone(),
                message: format!("its base parameters: {e}"),
            })?;
            Some(Arc::new(p))
        };
        Ok(NetFile { path, net: Arc::new(net), base })
    }
}

/// Which evaluation an engine plays with, as `--eval` names it: `default` (the rule set's own
/// net where it ships one, else the linear evaluation), `linear`, or `net:FILE`.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub enum EvalChoice {
    /// The rule set's shipped net, else the linear evaluation.
    #[default]
    Default,
    /// The linear evaluation of the parameters.
    Linear,
    /// The net in a file.
    File(std::path::PathBuf),
}

impl std::str::FromStr for EvalChoice {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        match s {
            "default" | "" => Ok(EvalChoice::Default),
            "linear" => Ok(EvalChoice::Linear),
            _ => match s.strip_prefix("net:") {
                Some(path) if !path.is_empty() => Ok(EvalChoice::File(path.into())),
                _ => Err(format!("`{s}`: give default, linear or net:FILE")),
            },
        }
    }
}

impl EvalChoice {
    /// The net this choice plays for `rules` with the evaluation parameters `params`: `shipped`
    /// is the rule set's built-in net file (its bytes) and `name` what to call it
    /// (`builtin:malka`); `None` for the linear evaluation. A shipped residual net plays only
    /// with the parameters it corrects (its base): with others (a tuned set, `--params`) the
    /// default is the linear evaluation of those, since the net would ignore them.
    ///
    /// # Errors
    /// A net file that cannot be read, or one refused for `rules` (another rule set or board).
    pub fn net<P: Position>(
        &self,
        rules: P::Rules,
        shipped: Option<&[u8]>,
        name: &str,
        params: &EvalParams,
    ) -> Result<Option<NetFile>, stackchess_nnue::NetError> {
        match self {
            EvalChoice::Linear => Ok(None),
            EvalChoice::Default => {
                let net = shipped.map(|b| NetFile::from_bytes::<P>(rules, b, name)).transpose()?;
                Ok(net.filter(|n| n.corrects(params)))
            }
            EvalChoice::File(path) => NetFile::load::<P>(rules, path).map(Some),
        }
    }
}
