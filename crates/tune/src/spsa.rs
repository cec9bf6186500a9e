//! SPSA (simultaneous perturbation stochastic approximation) as `OpenBench` and fishtest run it:
//! each iteration perturbs every parameter at once by `±c_k`, plays `θ+` against `θ−`, and moves θ by
//! the result along the perturbation.
//!
//! With `N` iterations, for each parameter its final perturbation `c_end` (the `step` given) and
//! the final learning rate `r_end`: `c = c_end·N^γ`, `a = r_end·c_end²·(A + N)^α`, `A = a_ratio·N`;
//! iteration `k` (from 1) uses `c_k = c / k^γ` and `a_k = a / (A + k)^α`, draws `δ` (±1 each, from
//! the seed and `k`), plays `θ + c_k·δ` against `θ − c_k·δ` (each clamped to the range) and sets
//! `θ ← θ + (a_k / c_k)·(W − L)·δ`, clamped, `W − L` the wins less the losses of θ+.
//!
//! A run keeps its state in a file, rewritten after every iteration (written aside and renamed):
//! stopped at any point, the same call resumes it at the next iteration, and since `δ` and the
//! games of iteration `k` are functions of the seed and `k`, the resumed run ends where an
//! uninterrupted one does (under node limits).

use stackchess_core::SplitMix64;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::str::FromStr;
use std::sync::atomic::{AtomicBool, Ordering};

/// A parameter to tune: `NAME=start,min,max,step`.
#[derive(Clone, Debug, PartialEq)]
pub struct Param {
    /// Its key (`search.rfp_margin`, an evaluation key, ...).
    pub name: String,
    /// Where it starts.
    pub start: f64,
    /// Its least value.
    pub min: f64,
    /// Its greatest value.
    pub max: f64,
    /// The perturbation of the last iteration (`c_end`).
    pub step: f64,
}

impl FromStr for Param {
    type Err = String;
    fn from_str(s: &str) -> Result<Param, String> {
        let bad = || format!("--param {s}: expected NAME=start,min,max,step (numbers, min <= start <= max, step > 0)");
        let (name, rest) = s.split_once('=').ok_or_else(bad)?;
        let v: Vec<f64> =
            rest.split(',').map(|x| x.trim().parse::<f64>()).collect::<Result<_, _>>().map_err(|_| bad())?;
        let [start, min, max, step] = v[..] else { return Err(bad()) };
        if name.trim().is_empty()
            || !(min <= start && start <= max)
            || step.is_nan()
            || step <= 0.0
            || !max.is_finite()
            || !min.is_finite()
        {
            return Err(bad());
        }
        Ok(Param { name: name.trim().to_owned(), start, min, max, step })
    }
}

impl std::fmt::Display for Param {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}={},{},{},{}", self.name, self.start, self.min, self.max, self.step)
    }
}

/// The schedule.
#[derive(Clone, Debug, PartialEq)]
pub struct Settings {
    /// Iterations.
    pub iterations: u64,
    /// Game pairs an iteration (each pair: one opening, θ+ with White and then with Black).
    pub pairs: u64,
    /// The learning rate at the end (`r_end`).
    pub r_end: f64,
    /// The exponent of `a_k`.
    pub alpha: f64,
    /// The exponent of `c_k`.
    pub gamma: f64,
    /// `A` as a share of the iterations.
    pub a_ratio: f64,
    /// Seed of the perturbations and the openings.
    pub seed: u64,
}

impl Default for Settings {
    fn default() -> Self {
        Settings { iterations: 1000, pairs: 1, r_end: 0.002, alpha: 0.602, gamma: 0.101, a_ratio: 0.1, seed: 1 }
    }
}

impl Settings {
    fn describe(&self) -> String {
        format!(
            "iterations={} pairs={} r_end={} alpha={} gamma={} a_ratio={} seed={}",
            self.iterations, self.pairs, self.r_end, self.alpha, self.gamma, self.a_ratio, self.seed
        )
    }
}

/// What plays an iteration: θ+ against θ−.
pub trait Objective {
    /// Plays `pairs` game pairs of iteration `k` between `plus` and `minus` (values in the order
    /// of the parameters) and returns the wins less the losses of `plus`; `None` if stopped.
    ///
    /// # Errors
    /// A game that cannot be played.
    fn play(&mut self, plus: &[f64], minus: &[f64], k: u64, pairs: u64) -> Result<Option<f64>, String>;
}

/// A run's state: the iterations done and where θ stands.
#[derive(Clone, Debug, PartialEq)]
pub struct State {
    /// Iterations done.
    pub iteration: u64,
    /// The parameters now.
    pub theta: Vec<f64>,
    /// Each iteration's wins less losses of θ+.
    pub results: Vec<f64>,
}

/// Why SPSA stopped.
#[derive(Debug, thiserror::Error)]
pub enum SpsaError {
    /// The state file cannot be read or written, or belongs to another run.
    #[error("{}: {message}", path.display())]
    State {
        /// The file.
        path: PathBuf,
        /// What is wrong.
        message: String,
    },
    /// A game failed.
    #[error("iteration {iteration}: {message}")]
    Game {
        /// The iteration.
        iteration: u64,
        /// What failed.
        message: String,
    },
    /// Stopped; the state file holds every finished iteration.
    #[error("interrupted after {done} of {iterations} iterations: run the same command again to resume")]
    Interrupted {
        /// Iterations done.
        done: u64,
        /// Iterations asked for.
        iterations: u64,
    },
}

/// The perturbation and the step of iteration `k` (from 1) for `p`.
fn schedule(p: &Param, s: &Settings, k: u64) -> (f64, f64) {
    let n = s.iterations.max(1) as f64;
    let big_a = s.a_ratio * n;
    let c = p.step * n.powf(s.gamma);
    let a = s.r_end * p.step * p.step * (big_a + n).powf(s.alpha);
    let k = k as f64;
    (c / k.powf(s.gamma), a / (big_a + k).powf(s.alpha))
}

/// The signs of iteration `k`'s perturbation.
fn deltas(seed: u64, k: u64, n: usize) -> Vec<f64> {
    let mut rng = SplitMix64::for_item(seed ^ 0x5B5A_0D1E, k);
    (0..n).map(|_| if rng.next_u64() >> 63 == 0 { 1.0 } else { -1.0 }).collect()
}

/// Runs (or resumes from `state_path`) SPSA over `params`. `on_iteration` sees the state after
/// each iteration. Setting `halt` stops after the iteration in progress is dropped.
///
/// # Errors
/// A state file of another run or that cannot be written, a failed game, or [`SpsaError::Interrupted`].
pub fn run(
    params: &[Param],
    settings: &Settings,
    state_path: &Path,
    objective: &mut dyn Objective,
    halt: &AtomicBool,
    on_iteration: &mut dyn FnMut(&State),
) -> Result<State, SpsaError> {
    let header = header(params, settings);
    let mut state = if state_path.exists() {
        read_state(state_path, &header, params.len())?
    } else {
        State { iteration: 0, theta: params.iter().map(|p| p.start).collect(), results: Vec::new() }
    };
    while state.iteration < settings.iterations {
        if halt.load(Ordering::Relaxed) {
            return Err(SpsaError::Interrupted { done: state.iteration, iterations: settings.iterations });
        }
        let k = state.iteration + 1;
        let delta = deltas(settings.seed, k, params.len());
        let steps: Vec<(f64, f64)> = params.iter().map(|p| schedule(p, settings, k)).collect();
        let clamp = |i: usize, v: f64| v.clamp(params[i].min, params[i].max);
        let plus: Vec<f64> = (0..params.len()).map(|i| clamp(i, state.theta[i] + steps[i].0 * delta[i])).collect();
        let minus: Vec<f64> = (0..params.len()).map(|i| clamp(i, state.theta[i] - steps[i].0 * delta[i])).collect();
        let result = objective
            .play(&plus, &minus, k, settings.pairs)
            .map_err(|message| SpsaError::Game { iteration: k, message })?;
        let Some(result) = result else {
            return Err(SpsaError::Interrupted { done: state.iteration, iterations: settings.iterations });
        };
        for i in 0..params.len() {
            let (c_k, a_k) = steps[i];
            state.theta[i] = clamp(i, state.theta[i] + a_k / c_k * result * delta[i]);
        }
        state.iteration = k;
        state.results.push(result);
        write_state(state_path, &header, &state)?;
        on_iteration(&state);
    }
    Ok(state)
}

/// What a state file must begin with to belong to this run.
fn header(params: &[Param], settings: &Settings) -> String {
    let list: Vec<String> = params.iter().map(ToString::to_string).collect();
    format!("# stackchess spsa state\nparams = {}\nsettings = {}\n", list.join(" "), settings.describe())
}

fn write_state(path: &Path, header: &str, s: &State) -> Result<(), SpsaError> {
    let mut text = header.to_owned();
    let join = |v: &[f64]| v.iter().map(|x| format!("{x:?}")).collect::<Vec<_>>().join(",");
    let _ = writeln!(text, "iteration = {}\ntheta = {}\nresults = {}", s.iteration, join(&s.theta), join(&s.results));
    stackchess_files::write(path, text).map_err(|e| SpsaError::State { path: path.to_owned(), message: e.to_string() })
}

fn read_state(path: &Path, header: &str, n: usize) -> Result<State, SpsaError> {
    let bad = |message: String| SpsaError::State { path: path.to_owned(), message };
    let text = std::fs::read_to_string(path).map_err(|e| bad(e.to_string()))?;
    let Some(rest) = text.strip_prefix(header) else {
        return Err(bad(
            "the state of another run (other parameters or settings): remove it or give another --state".into()
        ));
    };
    let mut state = State { iteration: 0, theta: Vec::new(), results: Vec::new() };
    let floats = |v: &str| -> Result<Vec<f64>, SpsaError> {
        v.split(',')
            .filter(|x| !x.is_empty())
            .map(|x| x.trim().parse().map_err(|_| bad(format!("bad number '{x}'"))))
            .collect()
    };
    for line in rest.lines() {
        match line.split_once(" = ") {
            Some(("iteration", v)) => state.iteration = v.parse().map_err(|_| bad(format!("bad iteration '{v}'")))?,
            Some(("theta", v)) => state.theta = floats(v)?,
            Some(("results", v)) => state.results = floats(v)?,
            _ => return Err(bad(format!("unexpected line '{line}'"))),
        }
    }
    if state.theta.len() != n || state.results.len() as u64 != state.iteration {
        return Err(bad("damaged: the values do not match the parameters and iterations".into()));
    }
    Ok(state)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A noisy quadratic: θ± are judged by `−Σ((θ − opt)/scale)²`, and each of `2·pairs` games is a
    /// win for θ+ with the logistic probability of the difference (drawn from the iteration).
    struct Quadratic {
        opt: Vec<f64>,
        scale: Vec<f64>,
        seed: u64,
    }

    impl Objective for Quadratic {
        fn play(&mut self, plus: &[f64], minus: &[f64], k: u64, pairs: u64) -> Result<Option<f64>, String> {
            let f = |x: &[f64]| {
                -x.iter().zip(&self.opt).zip(&self.scale).map(|((x, o), s)| ((x - o) / s).powi(2)).sum::<f64>()
            };
            let p = 1.0 / (1.0 + (-(f(plus) - f(minus))).exp());
            let mut rng = SplitMix64::for_item(self.seed, k);
            let mut r = 0.0;
            for _ in 0..2 * pairs {
                let u = (rng.next_u64() >> 11) as f64 / (1u64 << 53) as f64;
                r += if u < p { 1.0 } else { -1.0 };
            }
            Ok(Some(r))
        }
    }

    fn params() -> Vec<Param> {
        vec!["a=20,0,200,4".parse().unwrap(), "b=150,0,300,6".parse().unwrap(), "c=5,-50,50,2".parse().unwrap()]
    }

    fn quadratic() -> Quadratic {
        Quadratic { opt: vec![100.0, 60.0, -10.0], scale: vec![40.0, 60.0, 20.0], seed: 3 }
    }

    #[test]
    fn it_finds_the_optimum_of_a_noisy_quadratic_and_resumes_to_the_same_result() {
        let dir = std::env::temp_dir().join(format!("stackchess-spsa-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let s = Settings { iterations: 3000, pairs: 2, seed: 7, r_end: 0.01, ..Settings::default() };
        let go = AtomicBool::new(false);
        let whole = dir.join("whole.state");
        let _ = std::fs::remove_file(&whole);
        let done = run(&params(), &s, &whole, &mut quadratic(), &go, &mut |_| {}).unwrap();
        let opt = quadratic().opt;
        for ((x, o), tol) in done.theta.iter().zip(&opt).zip([15.0, 20.0, 6.0]) {
            assert!((x - o).abs() < tol, "{:?} vs {opt:?}", done.theta);
        }
        // Deterministic for a seed.
        let again = dir.join("again.state");
        let _ = std::fs::remove_file(&again);
        assert_eq!(run(&params(), &s, &again, &mut quadratic(), &go, &mut |_| {}).unwrap(), done);
        // Stopped after 1000 iterations, then resumed: the same end.
        let cut = dir.join("cut.state");
        let _ = std::fs::remove_file(&cut);
        let stop = AtomicBool::new(false);
        let e = run(&params(), &s, &cut, &mut quadratic(), &stop, &mut |st| {
            if st.iteration == 1000 {
                stop.store(true, Ordering::Relaxed);
            }
        })
        .unwrap_err();
        assert!(matches!(e, SpsaError::Interrupted { done: 1000, .. }), "{e}");
        assert_eq!(run(&params(), &s, &cut, &mut quadratic(), &go, &mut |_| {}).unwrap(), done);
        // Another run's state is refused.
        let other = Settings { seed: 8, ..s };
        let e = run(&params(), &other, &cut, &mut quadratic(), &go, &mut |_| {}).unwrap_err();
        assert!(e.to_string().contains("another run"), "{e}");
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn params_parse_and_refuse_bad_text() {
        let p: Param = "search.rfp_margin=100,20,300,8".parse().unwrap();
        assert_eq!((p.start, p.min, p.max, p.step), (100.0, 20.0, 300.0, 8.0));
        for bad in ["x", "x=1,2,3", "x=5,6,7,1", "x=1,0,2,0", "=1,0,2,1", "x=a,0,2,1"] {
            assert!(bad.parse::<Param>().is_err(), "{bad}");
        }
    }
}
