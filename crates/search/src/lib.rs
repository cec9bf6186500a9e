//! Iterative-deepening alpha-beta search and a tunable evaluation, generic over [`Position`].
//!
//! The engine is single-threaded and does no I/O. Under a depth or node limit its result is a pure
//! function of (position, history, settings) after [`Engine::new_game`]: the clock is read only for
//! a `movetime` limit, and the `stop` flag only when someone sets it.
//!
//! [`Position`]: stackchess_core::Position

mod bench;
mod config;
mod engine;
mod epd;
mod eval;
mod params;
mod score;
mod see;
mod tt;

pub use bench::Bench;
pub use config::{SearchConfig, Switch};
pub use engine::Engine;
pub use epd::{parse_epd, EpdCase, EpdError};
pub use eval::{evaluate, Evaluation};
pub use params::{EvalParams, ParamError};
pub use score::{Limits, Report, Score};
