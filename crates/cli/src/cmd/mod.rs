//! One module per subcommand.

pub mod analyse;
pub mod apply;
#[cfg(feature = "analysis")]
pub mod balance;
pub mod bench;
pub mod book;
#[cfg(feature = "analysis")]
pub mod compare;
pub mod datagen;
pub mod engine;
pub mod match_;
pub mod merge;
pub mod moves;
pub mod nnue;
pub mod perft;
pub mod replay;
pub mod rules;
pub mod selfplay;
pub mod show;
pub mod spsa;
#[cfg(feature = "analysis")]
pub mod stats;
pub mod tournament;
pub mod train;
pub mod tune;
pub mod view;
