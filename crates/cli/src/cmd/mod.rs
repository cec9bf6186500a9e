//! One module per subcommand.

pub mod apply;
pub mod moves;
pub mod perft;
pub mod show;
