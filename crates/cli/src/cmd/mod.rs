//! One module per subcommand.

pub mod analyse;
pub mod apply;
#[cfg(feature = "analysis")]
pub mod balance;
pub mod bench;
pub mod book;
#[cfg(feature = "analysis")]
pub mod compare;
pub mod engine;
pub mod match_;
pub mod merge;
pub mod moves;
pub mod perft;
pub mod replay;
pub mod rules;
pub mod selfplay;
pub mod serve;
pub mod show;
#[cfg(feature = "analysis")]
pub mod stats;
pub mod tournament;
pub mod tune;
pub mod view;
