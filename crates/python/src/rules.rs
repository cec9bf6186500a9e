//! `RuleSet`: a built-in rule set or one loaded from a rule file.

use crate::{io_error, value_error};
use pyo3::prelude::*;
use stackchess_variants::{Variant, VariantError};
use std::path::PathBuf;

/// A rule set: one of the built-ins (``malka``, ``traditional``, ``fide``, ``air-attack``) or
/// one loaded from a rule file (docs/rule-files.md). Any number can be loaded in one process;
/// loading the same rules again gives the same rule set.
#[pyclass(frozen, eq, hash, module = "stackchess")]
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct RuleSet {
    pub(crate) variant: Variant,
}

#[pymethods]
impl RuleSet {
    /// The built-in rule set called ``name`` (``malka``, ``traditional``, ``fide``,
    /// ``air-attack``). Raises ``ValueError`` for any other name.
    #[staticmethod]
    fn builtin(name: &str) -> PyResult<RuleSet> {
        Variant::ALL
            .into_iter()
            .find(|v| v.name() == name)
            .map(|variant| RuleSet { variant })
            .ok_or_else(|| value_error(VariantError::Unknown(name.to_owned())))
    }

    /// The rule set called ``name``: a built-in, or one loaded in this process (by
    /// ``from_file`` or ``from_toml``). Records name their rule set this way. Raises
    /// ``ValueError`` for a name that is neither.
    #[staticmethod]
    fn named(name: &str) -> PyResult<RuleSet> {
        name.parse().map(|variant| RuleSet { variant }).map_err(value_error)
    }

    /// Loads the rule file at ``path``. Raises ``FileNotFoundError`` when there is no such file,
    /// and ``ValueError`` for a file that is not a valid rule set (the message names the key and
    /// the line), a built-in's name for other rules, or a name already loaded for other rules.
    #[staticmethod]
    #[allow(clippy::needless_pass_by_value, reason = "pyo3 extracts owned arguments")]
    fn from_file(path: PathBuf) -> PyResult<RuleSet> {
        let text = std::fs::read_to_string(&path).map_err(|e| io_error("rule file", &path, &e))?;
        let variant =
            Variant::from_text(&text).map_err(|e| value_error(format!("rule file {}: {e}", path.display())))?;
        Ok(RuleSet { variant })
    }

    /// Loads a rule set from the text of a rule file. Raises ``ValueError`` as ``from_file``.
    #[staticmethod]
    fn from_toml(text: &str) -> PyResult<RuleSet> {
        Variant::from_text(text).map(|variant| RuleSet { variant }).map_err(value_error)
    }

    /// The rule set's name, as records and the command line name it.
    #[getter]
    fn name(&self) -> &'static str {
        self.variant.name()
    }

    /// The rule set's id: 16 hexadecimal digits of its effective rules (``rules_id`` in records).
    #[getter]
    fn id(&self) -> &'static str {
        self.variant.rules_id()
    }

    /// The number of levels (1 to 4).
    #[getter]
    fn levels(&self) -> usize {
        self.variant.levels()
    }

    /// The effective rules as a complete rule file, every default filled in (what
    /// ``stackchess rules show`` prints after its id line).
    #[allow(clippy::wrong_self_convention, reason = "the Python name; pyo3 methods take &self")]
    fn to_toml(&self) -> String {
        self.variant.rule_set().to_toml()
    }

    fn __repr__(&self) -> String {
        format!("RuleSet('{}', id='{}')", self.variant.name(), self.variant.rules_id())
    }

    fn __str__(&self) -> &'static str {
        self.variant.name()
    }
}
