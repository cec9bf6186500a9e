//! The native module of the Python package `stackchess` (docs/python.md).
//!
//! Rule sets ([`rules::RuleSet`]), boards and moves ([`board`]), the engine ([`engine`]) and the
//! records of a run ([`records`]) for Python, over the library crates. A board or engine is of one
//! position type, chosen at run time: it is held behind a trait object ([`board::AnyBoard`],
//! [`engine::AnyEngine`]) made once by [`stackchess_variants::Variant::with`], so the calls from
//! Python are dynamic while the move generator and search below them stay monomorphised.
//! Errors are Python exceptions carrying the Rust error's message; nothing panics across.

mod board;
mod engine;
mod records;
mod rules;

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

/// A `ValueError` with `e`'s message.
pub(crate) fn value_error(e: impl std::fmt::Display) -> PyErr {
    PyValueError::new_err(e.to_string())
}

/// An error reading `path`: `FileNotFoundError` when it is not there, else `OSError`, with `what`
/// and the path in the message.
pub(crate) fn io_error(what: &str, path: &std::path::Path, e: &std::io::Error) -> PyErr {
    let message = format!("{what} {}: {e}", path.display());
    if e.kind() == std::io::ErrorKind::NotFound {
        pyo3::exceptions::PyFileNotFoundError::new_err(message)
    } else {
        pyo3::exceptions::PyOSError::new_err(message)
    }
}

/// Chess on stacked boards: rule sets, boards, moves, the engine and the records of a run.
#[pymodule]
fn _stackchess(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<rules::RuleSet>()?;
    m.add_class::<board::Board>()?;
    m.add_class::<board::PyMove>()?;
    m.add_class::<board::Outcome>()?;
    m.add_class::<engine::Engine>()?;
    m.add_class::<engine::Line>()?;
    m.add_function(wrap_pyfunction!(records::read_run_columns, m)?)?;
    Ok(())
}
