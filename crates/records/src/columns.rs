//! Column types, shared by the games and plies tables.

/// How a column's values are typed (in Parquet and polars: string, u64, i64, nullable i64).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// Text (empty allowed).
    Text,
    /// An unsigned 64-bit integer.
    UInt,
    /// A signed 64-bit integer.
    Int,
    /// A signed integer or nothing (an empty CSV field).
    OptInt,
}

/// One column of a table.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Column {
    /// Its name in the header.
    pub name: &'static str,
    /// Its type.
    pub kind: Kind,
}

/// One cell, typed by its column's [`Kind`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Value<'a> {
    /// [`Kind::Text`].
    Text(&'a str),
    /// [`Kind::UInt`].
    UInt(u64),
    /// [`Kind::Int`].
    Int(i64),
    /// [`Kind::OptInt`].
    OptInt(Option<i64>),
}

impl Value<'_> {
    /// The cell as CSV field text (before quoting).
    #[must_use]
    pub fn to_field(self) -> String {
        match self {
            Value::Text(s) => s.to_owned(),
            Value::UInt(n) => n.to_string(),
            Value::Int(n) => n.to_string(),
            Value::OptInt(n) => n.map(|n| n.to_string()).unwrap_or_default(),
        }
    }
}

pub(crate) const fn col(name: &'static str, kind: Kind) -> Column {
    Column { name, kind }
}

/// The header line of `columns`, newline included.
pub(crate) fn header_line(columns: &[Column]) -> String {
    let names: Vec<&str> = columns.iter().map(|c| c.name).collect();
    format!("{}\n", names.join(","))
}

/// How a header differs from the expected columns: missing, unexpected, or out of order.
pub(crate) fn header_difference(want: &[Column], got: &[String]) -> String {
    let want: Vec<&str> = want.iter().map(|c| c.name).collect();
    let got: Vec<&str> = got.iter().map(|s| s.trim().trim_start_matches('\u{feff}')).collect();
    let missing: Vec<&str> = want.iter().filter(|w| !got.contains(w)).copied().collect();
    let extra: Vec<&str> = got.iter().filter(|g| !want.contains(g)).copied().collect();
    let mut parts = Vec::new();
    if !missing.is_empty() {
        parts.push(format!("missing column(s) {}", missing.join(", ")));
    }
    if !extra.is_empty() {
        parts.push(format!("unexpected column(s) {}", extra.join(", ")));
    }
    if parts.is_empty() {
        parts.push(format!("columns out of order (expected {})", want.join(",")));
    }
    parts.join("; ")
}

/// Writes `fields` as one CSV line (RFC 4180 quoting), newline included.
pub(crate) fn csv_line(fields: impl IntoIterator<Item = String>) -> Result<Vec<u8>, String> {
    let mut w =
        csv::WriterBuilder::new().has_headers(false).terminator(csv::Terminator::Any(b'\n')).from_writer(Vec::new());
    w.write_record(fields).map_err(|e| e.to_string())?;
    w.into_inner().map_err(|e| e.to_string())
}
