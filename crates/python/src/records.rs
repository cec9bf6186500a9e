//! The records of a run directory, read by `stackchess-records`, handed to Python as columns.

use crate::value_error;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList};
use pyo3::IntoPyObjectExt;
use stackchess_records::{read_run, Column, Error, Kind, Value, PLY_COLUMNS};
use std::path::PathBuf;

/// A column's type, as the Python side names it.
fn kind_name(k: Kind) -> &'static str {
    match k {
        Kind::Text => "text",
        Kind::UInt => "uint",
        Kind::Int => "int",
        Kind::OptInt => "optint",
    }
}

fn cell<'py>(py: Python<'py>, v: Value<'_>) -> PyResult<Bound<'py, PyAny>> {
    match v {
        Value::Text(s) => s.into_bound_py_any(py),
        Value::UInt(n) => n.into_bound_py_any(py),
        Value::Int(n) => n.into_bound_py_any(py),
        Value::OptInt(n) => n.into_bound_py_any(py),
    }
}

/// `{"columns": [(name, kind), ...], "data": {name: [values]}}` for `rows`, each row's cells
/// read by `value(row, column index)`.
fn table<'py, T>(
    py: Python<'py>,
    columns: &[Column],
    rows: &[&T],
    value: impl for<'a> Fn(&'a T, usize) -> Value<'a>,
) -> PyResult<Bound<'py, PyDict>> {
    let out = PyDict::new(py);
    let names: Vec<(&str, &str)> = columns.iter().map(|c| (c.name, kind_name(c.kind))).collect();
    out.set_item("columns", names)?;
    let data = PyDict::new(py);
    for (i, c) in columns.iter().enumerate() {
        let list = PyList::empty(py);
        for r in rows {
            list.append(cell(py, value(r, i))?)?;
        }
        data.set_item(c.name, list)?;
    }
    out.set_item("data", data)?;
    Ok(out)
}

/// Reads a run directory (``games.csv`` and, for a version-2 run, ``plies.csv``) with the
/// records' one reader: ``{"version": 1 | 2, "games": table, "plies": table | None}``, each
/// table ``{"columns": [(name, kind)], "data": {name: values}}`` (kinds ``text``, ``uint``,
/// ``int``, ``optint``), games in file order and plies game by game. Used by
/// ``stackchess.read_run``.
#[pyfunction(name = "_read_run")]
#[allow(clippy::needless_pass_by_value, reason = "pyo3 extracts owned arguments")]
pub fn read_run_columns(py: Python<'_>, directory: PathBuf) -> PyResult<Bound<'_, PyDict>> {
    let run = py.detach(|| read_run(&directory)).map_err(|e| match &e {
        Error::Io { error, .. } if error.kind() == std::io::ErrorKind::NotFound => {
            pyo3::exceptions::PyFileNotFoundError::new_err(e.to_string())
        }
        Error::Io { .. } => pyo3::exceptions::PyOSError::new_err(e.to_string()),
        _ => value_error(e),
    })?;
    let out = PyDict::new(py);
    out.set_item("version", run.version.number())?;
    let games: Vec<_> = run.games.iter().collect();
    out.set_item("games", table(py, run.version.columns(), &games, stackchess_records::GameRecord::value)?)?;
    let plies = match &run.plies {
        Some(_) => {
            let rows: Vec<_> = run.games.iter().flat_map(|g| run.plies_of(&g.game_id).unwrap_or(&[])).collect();
            Some(table(py, &PLY_COLUMNS, &rows, stackchess_records::PlyRecord::value)?)
        }
        None => None,
    };
    out.set_item("plies", plies)?;
    Ok(out)
}
