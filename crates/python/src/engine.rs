//! `Engine` and `Line`: the search of `stackchess-search` on a board, without the GIL.

use crate::board::{variant_of, AnyBoard, Board, Hist, PyMove};
use crate::{io_error, value_error};
use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyDict};
use stackchess_core::{san_line, Position, Rules};
use stackchess_nnue::NetError;
use stackchess_search::{EvalChoice, Limits, Report, Request, Score, SearchConfig};
use stackchess_variants::{Variant, WithPosition};
use std::path::PathBuf;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

/// A line found: the search's report and its moves in SAN.
pub(crate) struct Found {
    report: Report,
    san: Vec<String>,
}

/// An engine for one position type, its type erased: what a Python [`Engine`] holds.
pub(crate) trait AnyEngine: Send + Sync {
    /// Searches `board` afresh (the engine's table and heuristics cleared first): the lines,
    /// best first. Fails for a board of another rule set.
    fn analyse(&mut self, board: &dyn AnyBoard, limits: Limits, multipv: usize) -> Result<Vec<Found>, String>;
    /// The static evaluation for the side to move.
    fn evaluate(&self, board: &dyn AnyBoard) -> Result<i32, String>;
    /// The settings as records write them.
    fn describe(&self) -> String;
}

struct Eng<P: Position> {
    engine: stackchess_search::Engine<P>,
    rules: P::Rules,
}

impl<P: Position> Eng<P> {
    fn board<'a>(&self, board: &'a dyn AnyBoard) -> Result<&'a Hist<P>, String> {
        board
            .as_any()
            .downcast_ref::<Hist<P>>()
            .filter(|h| h.pos.rules() == self.rules)
            .ok_or_else(|| format!("the board is not of the engine's rule set, {}", self.rules.name()))
    }
}

/// The lines to return: the search's result first (from an interrupted iteration when that one
/// completed its best line or proved a better root move), then the other lines of the last
/// completed iteration, best first, without the result's first move.
fn lines(best: Report, mut last: Vec<Report>) -> Vec<Report> {
    if last.first() == Some(&best) {
        return last;
    }
    let first = best.best_move();
    last.retain(|r| r.best_move() != first);
    let mut out = vec![best];
    out.append(&mut last);
    out
}

impl<P: Position> AnyEngine for Eng<P> {
    fn analyse(&mut self, board: &dyn AnyBoard, limits: Limits, multipv: usize) -> Result<Vec<Found>, String> {
        let hist = self.board(board)?;
        self.engine.new_game();
        let stop = AtomicBool::new(false);
        let request = Request { multipv, ..Request::new(limits, &stop) };
        let mut last = Vec::new();
        let history = &hist.hashes[..hist.hashes.len() - 1];
        let best = self.engine.analyse(&hist.pos, history, &request, &mut |lines| last = lines.to_vec());
        let mut out = lines(best, last);
        out.truncate(multipv);
        Ok(out.into_iter().map(|report| Found { san: san_line(&hist.pos, &report.pv), report }).collect())
    }

    fn evaluate(&self, board: &dyn AnyBoard) -> Result<i32, String> {
        Ok(self.engine.evaluate(&self.board(board)?.pos))
    }

    fn describe(&self) -> String {
        self.engine.config().describe()
    }
}

struct Make {
    config: SearchConfig,
    eval: EvalChoice,
    variant: Variant,
    threads: usize,
}

impl WithPosition for Make {
    type Output = Result<Box<dyn AnyEngine>, NetError>;
    fn call<P: Position>(mut self, rules: P::Rules) -> Self::Output {
        let name = format!("builtin:{}", self.variant);
        self.config.net = self.eval.net::<P>(rules, self.variant.default_net(), &name, &self.config.eval)?;
        let mut engine = stackchess_search::Engine::<P>::new(rules, self.config);
        engine.set_threads(self.threads);
        Ok(Box::new(Eng { engine, rules }))
    }
}

/// The evaluation `net` names: `None` the rule set's default (its shipped net, else the linear
/// evaluation), `"linear"`, or the path of a net file.
fn eval_choice(net: Option<&Bound<'_, PyAny>>) -> PyResult<EvalChoice> {
    let Some(net) = net else { return Ok(EvalChoice::Default) };
    if net.extract::<String>().is_ok_and(|s| s == "linear") {
        return Ok(EvalChoice::Linear);
    }
    let path: PathBuf =
        net.extract().map_err(|_| PyTypeError::new_err("net must be None, \"linear\" or the path of a net file"))?;
    Ok(EvalChoice::File(path))
}

/// A net refused: `FileNotFoundError` when the file is missing, else `ValueError`.
fn net_error(e: NetError, path: &EvalChoice) -> PyErr {
    match (&e, path) {
        (NetError::Io { .. }, EvalChoice::File(p)) if !p.exists() => {
            pyo3::exceptions::PyFileNotFoundError::new_err(e.to_string())
        }
        (NetError::Io { .. }, _) => pyo3::exceptions::PyOSError::new_err(e.to_string()),
        _ => value_error(e),
    }
}

/// The full search with the rule set's evaluation preset (a loaded rule set plays its base's).
fn preset(v: Variant) -> PyResult<SearchConfig> {
    let base = v.base();
    let text = v.eval_params().or(base.eval_params()).ok_or_else(|| value_error(format!("{v} has no preset")))?;
    let engine = SearchConfig::preset(text).map_err(value_error)?;
    let source = if v.eval_params().is_some() {
        format!("preset {v}")
    } else {
        format!("preset {base}, the base of {v}, which has none of its own")
    };
    Ok(engine.with_source(source))
}

/// Applies `params`: a parameter file's path, or a dict of `key: value` overrides.
fn apply(config: &mut SearchConfig, params: &Bound<'_, PyAny>) -> PyResult<()> {
    if let Ok(dict) = params.cast::<PyDict>() {
        let mut pairs = Vec::new();
        for (k, v) in dict.iter() {
            let key: String = k.extract().map_err(|_| PyTypeError::new_err("params keys must be strings"))?;
            let value = if v.is_instance_of::<PyBool>() {
                if v.is_truthy()? { "true" } else { "false" }.to_owned()
            } else {
                v.str()?.to_string()
            };
            config.set(&key, &value).map_err(value_error)?;
            pairs.push(format!("{key}={value}"));
        }
        if !pairs.is_empty() {
            config.eval_source = format!("{} with {}", config.eval_source, pairs.join(" "));
        }
        return Ok(());
    }
    let path: PathBuf =
        params.extract().map_err(|_| PyTypeError::new_err("params must be a parameter file's path or a dict"))?;
    let text = std::fs::read_to_string(&path).map_err(|e| io_error("params file", &path, &e))?;
    if config.apply_file(&text).map_err(|e| value_error(format!("params file {}: {e}", path.display())))? {
        config.eval_source = format!("file {}", path.display());
    }
    Ok(())
}

/// One line of an analysis: its score from the side to move's view, and its moves.
#[pyclass(frozen, module = "stackchess")]
pub struct Line {
    /// The score in centipawns, or ``None`` for a mate score.
    #[pyo3(get)]
    score_cp: Option<i32>,
    /// Moves to mate: positive when the side to move mates, negative (or 0: mated now) when it
    /// is mated; ``None`` for a centipawn score.
    #[pyo3(get)]
    mate: Option<i32>,
    /// The depth of the iteration that found it.
    #[pyo3(get)]
    depth: u32,
    /// The deepest ply reached, quiescence included.
    #[pyo3(get)]
    seldepth: u32,
    /// Nodes searched in all (every line of the search).
    #[pyo3(get)]
    nodes: u64,
    /// Milliseconds the search took.
    #[pyo3(get)]
    time_ms: u64,
    /// The principal variation, best move first (empty when there is no legal move).
    #[pyo3(get)]
    pv: Vec<PyMove>,
    /// The principal variation in SAN.
    #[pyo3(get)]
    pv_san: Vec<String>,
}

#[pymethods]
impl Line {
    /// ``"cp 35"`` or ``"mate 3"``, as UCI writes scores.
    #[getter]
    fn score(&self) -> String {
        match (self.score_cp, self.mate) {
            (Some(cp), _) => Score::Cp(cp).to_string(),
            (None, m) => Score::Mate(m.unwrap_or(0)).to_string(),
        }
    }

    fn __repr__(&self) -> String {
        format!("Line(score='{}', depth={}, pv='{}')", self.score(), self.depth, self.pv_san.join(" "))
    }
}

impl Line {
    fn new(found: Found, levels: usize) -> Line {
        let r = found.report;
        let (score_cp, mate) = match r.score {
            Score::Cp(c) => (Some(c), None),
            Score::Mate(m) => (None, Some(m)),
        };
        Line {
            score_cp,
            mate,
            depth: r.depth,
            seldepth: r.seldepth,
            nodes: r.nodes,
            time_ms: u64::try_from(r.elapsed.as_millis()).unwrap_or(u64::MAX),
            pv: r.pv.iter().map(|&m| PyMove::new(m, levels)).collect(),
            pv_san: found.san,
        }
    }
}

/// The search engine of ``stackchess analyse`` for one rule set.
///
/// ``Engine(rules, params=None, net=None, threads=1)``: ``rules`` a ``RuleSet`` or a name;
/// ``params`` the evaluation and search settings: ``None`` for the rule set's preset (a loaded
/// rule set plays its base's), the path of a parameter file (the format of ``--params``:
/// ``key = value`` lines), or a dict of overrides of the preset (``{"value.queen": 450,
/// "search.lmr": False, "search.hash": 64}``). ``net``: ``None`` for the rule set's default
/// evaluation (its shipped net where it has one, else the linear evaluation of ``params``),
/// ``"linear"``, or the path of a net file (``stackchess train``; refused with ``ValueError`` when
/// it is for another rule set, ``FileNotFoundError`` when missing; the piece values of ``params``
/// still order moves). ``threads``
/// above 1 searches with helper threads, and results then vary from run to run.
///
/// Each search starts afresh (the table cleared), so on one thread under a node or depth limit
/// the same board always gives the same lines. Searches run without holding the GIL; one search
/// at a time per engine.
#[pyclass(module = "stackchess")]
pub struct Engine {
    inner: Box<dyn AnyEngine>,
    variant: Variant,
}

impl Engine {
    fn search(&mut self, py: Python<'_>, board: &Board, limits: Limits, multipv: usize) -> PyResult<Vec<Line>> {
        if board.variant != self.variant {
            return Err(value_error(format!(
                "the board is of {} and the engine plays {}",
                board.variant.name(),
                self.variant.name()
            )));
        }
        if limits == Limits::default() {
            return Err(value_error("give a limit: nodes=, depth=, movetime= (milliseconds) or mate="));
        }
        if multipv == 0 {
            return Err(value_error("multipv must be at least 1"));
        }
        let (inner, pos) = (&mut self.inner, &*board.inner);
        let found = py.detach(|| inner.analyse(pos, limits, multipv)).map_err(value_error)?;
        let levels = self.variant.levels();
        Ok(found.into_iter().map(|f| Line::new(f, levels)).collect())
    }
}

fn limits(nodes: Option<u64>, depth: Option<u32>, movetime: Option<u64>, mate: Option<u32>) -> Limits {
    Limits { nodes, depth, movetime: movetime.map(Duration::from_millis), mate, ..Limits::default() }
}

#[pymethods]
impl Engine {
    #[new]
    #[pyo3(signature = (rules, params=None, net=None, threads=1))]
    fn new(
        rules: &Bound<'_, PyAny>,
        params: Option<&Bound<'_, PyAny>>,
        net: Option<&Bound<'_, PyAny>>,
        threads: usize,
    ) -> PyResult<Engine> {
        let eval = eval_choice(net)?;
        let variant = variant_of(rules)?;
        let mut config = preset(variant)?;
        if let Some(p) = params {
            apply(&mut config, p)?;
        }
        let make = Make { config, eval: eval.clone(), variant, threads: threads.max(1) };
        let inner = variant.with(make).map_err(|e| net_error(e, &eval))?;
        Ok(Engine { inner, variant })
    }

    /// Searches ``board`` within the limits given (at least one: ``nodes``, ``depth``,
    /// ``movetime`` in milliseconds, ``mate`` in moves) and returns ``multipv`` lines, best first
    /// (fewer when there are fewer legal moves; one line with an empty ``pv`` when there is
    /// none). The game's earlier positions on the board count for repetition. Raises
    /// ``ValueError`` without a limit, or for a board of another rule set.
    #[pyo3(signature = (board, *, nodes=None, depth=None, movetime=None, mate=None, multipv=1))]
    #[allow(clippy::too_many_arguments, reason = "Python keyword arguments")]
    fn analyse(
        &mut self,
        py: Python<'_>,
        board: &Board,
        nodes: Option<u64>,
        depth: Option<u32>,
        movetime: Option<u64>,
        mate: Option<u32>,
        multipv: usize,
    ) -> PyResult<Vec<Line>> {
        self.search(py, board, limits(nodes, depth, movetime, mate), multipv)
    }

    /// The move the engine plays on ``board`` within the limits (as ``analyse``), or ``None``
    /// when there is no legal move. The board is not changed: push the move to play it.
    #[pyo3(signature = (board, *, nodes=None, depth=None, movetime=None, mate=None))]
    fn play(
        &mut self,
        py: Python<'_>,
        board: &Board,
        nodes: Option<u64>,
        depth: Option<u32>,
        movetime: Option<u64>,
        mate: Option<u32>,
    ) -> PyResult<Option<PyMove>> {
        let lines = self.search(py, board, limits(nodes, depth, movetime, mate), 1)?;
        Ok(lines.into_iter().next().and_then(|l| l.pv.into_iter().next()))
    }

    /// The static evaluation of ``board`` in centipawns, for the side to move.
    fn evaluate(&self, board: &Board) -> PyResult<i32> {
        self.inner.evaluate(&*board.inner).map_err(value_error)
    }

    /// The rule set.
    #[getter]
    fn rules(&self) -> crate::rules::RuleSet {
        crate::rules::RuleSet { variant: self.variant }
    }

    /// The settings in one line, as the records' ``settings`` column writes them after the
    /// limits: table size, search features, and the evaluation with where it came from.
    fn describe(&self) -> String {
        self.inner.describe()
    }

    fn __repr__(&self) -> String {
        format!("Engine('{}')", self.variant.name())
    }
}
