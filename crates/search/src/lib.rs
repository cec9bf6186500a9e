//! Iterative-deepening alpha-beta search and a tunable evaluation, generic over [`Position`].
//!
//! The engine does no I/O. On one thread, under a depth or node limit, its result is a pure
//! function of (position, history, settings) after [`Engine::new_game`]: the clock is read only for
//! a time limit, and the `stop` flag only when someone sets it. [`Engine::set_threads`] adds helper
//! threads (Lazy SMP), which trades that reproducibility for speed.
//!
//! [`Position`]: stackchess_core::Position

mod bench;
mod config;
mod correction;
mod engine;
mod epd;
mod eval;
mod limits;
mod margins;
mod params;
mod score;
mod searcher;
mod see;
mod state;
mod tt;

pub use bench::Bench;
pub use config::{SearchConfig, Switch, Switches};
pub use engine::Engine;
pub use epd::{parse_epd, EpdCase, EpdError};
pub use eval::{evaluate, EvalChoice, Evaluation, NetFile, Trace};
pub use limits::{Clock, Limits, TimeBounds};
pub use margins::{at as margin, Margin, Margins, MARGINS};
pub use params::{t as term, EvalParams, Legacy, ParamError, SingleDef, TermDef, SINGLES, TERMS};
pub use score::{Report, Score};
pub use state::Request;
