//! One module per subcommand.

pub mod analyse;
pub mod apply;
pub mod moves;
pub mod perft;
pub mod show;
