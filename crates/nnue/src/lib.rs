//! The neural evaluation (docs/nnue.md): a network `(inputs → H)×2 → 1` over one input per
//! (colour, role, cell), seen from each side, with a squared clipped `ReLU`; trained in floats
//! (`stackchess train`) and run quantised, with the first layer's sums (the accumulators) kept up
//! to date move by move.
//!
//! [`Features`] numbers the inputs of a rule set's board; [`FloatNet`] is the reference model
//! (what training fits); [`Net`] its quantised form and the net file ([`Net::read`],
//! [`Net::write`]), keyed by the rule set's id; [`Accumulator`] holds the sums for both sides and
//! [`Net::evaluate`] turns them into centipawns.

mod accumulator;
mod features;
mod file;
mod float;
mod net;

pub use accumulator::{Accumulator, Pieces};
pub use features::Features;
pub use file::NetError;
pub use float::{screlu, FloatNet, CLIP};
pub use net::{Net, QA, QB, SCALE};
