//! One module per subcommand.

pub mod analyse;
pub mod apply;
pub mod bench;
pub mod engine;
pub mod match_;
pub mod moves;
pub mod perft;
pub mod selfplay;
pub mod show;
