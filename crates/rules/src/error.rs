//! Errors that name the key and the line.

use std::fmt;

/// What is wrong with a rule file, and where.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct RuleError {
    /// The key at fault, as a dotted path (`pieces.queen`), or empty for the file as a whole.
    pub key: String,
    /// The 1-based line, where the file has one.
    pub line: Option<usize>,
    /// What is wrong.
    pub message: String,
}

impl RuleError {
    /// An error at `key` on `line`.
    #[must_use]
    pub fn new(key: &str, line: Option<usize>, message: impl Into<String>) -> RuleError {
        RuleError { key: key.to_owned(), line, message: message.into() }
    }
}

impl fmt::Display for RuleError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(line) = self.line {
            write!(f, "line {line}: ")?;
        }
        if !self.key.is_empty() {
            write!(f, "{}: ", self.key)?;
        }
        f.write_str(&self.message)
    }
}

impl std::error::Error for RuleError {}
