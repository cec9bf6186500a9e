//! Result tables and their output: aligned text, CSV, JSON, and files (CSV, Parquet or JSON by
//! extension).

use crate::error::{AnalysisError, Result};
use polars::prelude::*;
use polars_io::prelude::{CsvWriter, ParquetWriter, SerWriter};
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

/// A named result table.
#[derive(Clone, Debug)]
pub struct Table {
    /// Short machine name (`summary`, `terminations`, ...), used for file suffixes and JSON keys.
    pub name: &'static str,
    /// Heading for people.
    pub title: String,
    /// The rows.
    pub df: DataFrame,
}

/// How tables are printed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Format {
    /// Aligned text for a terminal.
    #[default]
    Table,
    /// CSV; several tables are separated by a `# name` line.
    Csv,
    /// One JSON object with an array of row objects per table.
    Json,
}

/// Decimal places shown for a float column in text.
fn decimals(column: &str) -> usize {
    if column.contains("elo") || column.starts_with("plies") {
        1
    } else if column.contains("p_value") {
        4
    } else if column.ends_with("per_game") || column.contains("bits") {
        2
    } else {
        3
    }
}

fn cell(value: &AnyValue<'_>, column: &str) -> String {
    match value {
        AnyValue::Null => "-".into(),
        AnyValue::Float64(x) => float(*x, decimals(column)),
        AnyValue::Float32(x) => float(f64::from(*x), decimals(column)),
        AnyValue::String(s) => (*s).to_owned(),
        AnyValue::StringOwned(s) => s.to_string(),
        v => v.to_string(),
    }
}

fn float(x: f64, decimals: usize) -> String {
    if x == f64::INFINITY {
        "+inf".into()
    } else if x == f64::NEG_INFINITY {
        "-inf".into()
    } else {
        format!("{x:.decimals$}")
    }
}

fn json_value(value: &AnyValue<'_>) -> serde_json::Value {
    use serde_json::Value;
    match value {
        AnyValue::Null => Value::Null,
        AnyValue::Boolean(b) => Value::Bool(*b),
        AnyValue::Float64(x) => serde_json::Number::from_f64(*x).map_or(Value::Null, Value::Number),
        AnyValue::Float32(x) => serde_json::Number::from_f64(f64::from(*x)).map_or(Value::Null, Value::Number),
        AnyValue::Int64(x) => Value::from(*x),
        AnyValue::Int32(x) => Value::from(*x),
        AnyValue::UInt64(x) => Value::from(*x),
        AnyValue::UInt32(x) => Value::from(*x),
        AnyValue::String(s) => Value::from(*s),
        AnyValue::StringOwned(s) => Value::from(s.as_str()),
        v => Value::from(v.to_string()),
    }
}

/// A table's cells as shown to people: see [`Table::display`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Shown {
    /// Column headers.
    pub headers: Vec<String>,
    /// Cells, one vector a row.
    pub rows: Vec<Vec<String>>,
    /// Which columns hold numbers (aligned right).
    pub numeric: Vec<bool>,
}

impl Table {
    /// A table. Rows with `variant` and `settings` columns are put in their natural order (a
    /// ladder's `nodes=4000` before its `nodes=16000`), keeping the order within each group.
    #[must_use]
    pub fn new(name: &'static str, title: impl Into<String>, df: DataFrame) -> Table {
        Table { name, title: title.into(), df: in_natural_order(df) }
    }

    /// The cells as text, one vector a row.
    ///
    /// # Errors
    /// Never for frames built by this crate (a polars access error otherwise).
    pub fn text_rows(&self) -> Result<Vec<Vec<String>>> {
        let cols = self.df.columns();
        let mut rows = vec![Vec::with_capacity(cols.len()); self.df.height()];
        for c in cols {
            for (i, row) in rows.iter_mut().enumerate() {
                row.push(cell(&c.get(i)?, c.name()));
            }
        }
        Ok(rows)
    }

    /// Column names.
    #[must_use]
    pub fn headers(&self) -> Vec<String> {
        self.df.columns().iter().map(|c| c.name().to_string()).collect()
    }

    /// The table as people read it: long settings replaced by their short names, and each
    /// `x`, `x_lo`, `x_hi` column triple merged into one `x [95%]` column reading `v [lo, hi]`.
    ///
    /// # Errors
    /// As [`Table::text_rows`].
    pub fn display(&self, names: &ShortNames) -> Result<Shown> {
        let headers = self.headers();
        let rows = self.text_rows()?;
        let numeric: Vec<bool> = self.df.columns().iter().map(|c| c.dtype().is_primitive_numeric()).collect();
        let (mut h_out, mut num_out) = (Vec::new(), Vec::new());
        let mut r_out = vec![Vec::new(); rows.len()];
        let mut j = 0;
        while j < headers.len() {
            let h = &headers[j];
            let triple =
                headers.get(j + 1) == Some(&format!("{h}_lo")) && headers.get(j + 2) == Some(&format!("{h}_hi"));
            if triple {
                for (out, r) in r_out.iter_mut().zip(&rows) {
                    out.push(if r[j + 1] == "-" {
                        r[j].clone()
                    } else {
                        format!("{} [{}, {}]", r[j], r[j + 1], r[j + 2])
                    });
                }
                h_out.push(format!("{h} [95%]"));
                num_out.push(true);
                j += 3;
                continue;
            }
            for (out, r) in r_out.iter_mut().zip(&rows) {
                out.push(if h == "settings" { names.short(&r[j]).to_owned() } else { r[j].clone() });
            }
            h_out.push(h.clone());
            num_out.push(numeric[j]);
            j += 1;
        }
        Ok(Shown { headers: h_out, rows: r_out, numeric: num_out })
    }

    /// Aligned text ([`Table::display`]): text columns left, numbers right.
    ///
    /// # Errors
    /// As [`Table::text_rows`].
    pub fn to_text(&self, names: &ShortNames) -> Result<String> {
        let Shown { headers, rows, numeric } = self.display(names)?;
        let widths: Vec<usize> = (0..headers.len())
            .map(|j| rows.iter().map(|r| r[j].chars().count()).chain([headers[j].chars().count()]).max().unwrap_or(0))
            .collect();
        let mut out = String::new();
        let line = |out: &mut String, cells: &[String]| {
            let parts: Vec<String> = cells
                .iter()
                .enumerate()
                .map(
                    |(j, c)| {
                        if numeric[j] {
                            format!("{c:>w$}", w = widths[j])
                        } else {
                            format!("{c:<w$}", w = widths[j])
                        }
                    },
                )
                .collect();
            let _ = writeln!(out, "{}", parts.join("  ").trim_end());
        };
        line(&mut out, &headers);
        let rule: Vec<String> = widths.iter().map(|&w| "-".repeat(w)).collect();
        let _ = writeln!(out, "{}", rule.join("  "));
        for r in &rows {
            line(&mut out, r);
        }
        Ok(out)
    }

    /// CSV with a header line.
    ///
    /// # Errors
    /// A polars write error.
    pub fn to_csv(&self) -> Result<String> {
        let mut buf = Vec::new();
        CsvWriter::new(&mut buf).include_header(true).finish(&mut self.df.clone())?;
        Ok(String::from_utf8_lossy(&buf).into_owned())
    }

    /// An array of row objects; non-finite numbers become `null`.
    ///
    /// # Errors
    /// As [`Table::text_rows`].
    pub fn to_json(&self) -> Result<serde_json::Value> {
        let cols = self.df.columns();
        let mut rows = Vec::with_capacity(self.df.height());
        for i in 0..self.df.height() {
            let mut obj = serde_json::Map::new();
            for c in cols {
                obj.insert(c.name().to_string(), json_value(&c.get(i)?));
            }
            rows.push(serde_json::Value::Object(obj));
        }
        Ok(serde_json::Value::Array(rows))
    }

    /// Writes the table to `path`: CSV, Parquet or JSON by the extension.
    ///
    /// # Errors
    /// An unknown extension, or a failed write (naming the file).
    pub fn write(&self, path: &Path) -> Result<()> {
        let werr = |message: String| AnalysisError::Write { path: path.to_owned(), message };
        let ext = path.extension().and_then(|e| e.to_str()).map(str::to_ascii_lowercase);
        match ext.as_deref() {
            Some("csv") => std::fs::write(path, self.to_csv()?).map_err(|e| werr(e.to_string())),
            Some("json") => write_json(std::slice::from_ref(self), path),
            Some("parquet") => {
                let file = std::fs::File::create(path).map_err(|e| werr(e.to_string()))?;
                ParquetWriter::new(file).finish(&mut self.df.clone()).map_err(|e| werr(e.to_string()))?;
                Ok(())
            }
            _ => Err(AnalysisError::OutputFormat { path: path.to_owned() }),
        }
    }
}

/// `a` against `b` with every run of digits compared as a number (then as text, so that `01`
/// and `1` still differ).
/// `df` with its rows stably sorted by `variant`, then `settings` in natural order, when it has
/// both as text columns (unchanged otherwise).
fn in_natural_order(df: DataFrame) -> DataFrame {
    let text = |name: &str| df.column(name).ok().and_then(|c| c.str().ok().cloned());
    let (Some(variant), Some(settings)) = (text("variant"), text("settings")) else { return df };
    let mut order: Vec<usize> = (0..df.height()).collect();
    order.sort_by(|&i, &j| {
        let (vi, vj) = (variant.get(i).unwrap_or(""), variant.get(j).unwrap_or(""));
        vi.cmp(vj).then_with(|| natural_order(settings.get(i).unwrap_or(""), settings.get(j).unwrap_or("")))
    });
    if order.windows(2).all(|w| w[0] < w[1]) {
        return df;
    }
    let idx = IdxCa::from_vec("order".into(), order.iter().map(|&i| i as IdxSize).collect());
    df.take(&idx).unwrap_or(df)
}

fn natural_order(a: &str, b: &str) -> std::cmp::Ordering {
    fn chunks(s: &str) -> Vec<(bool, &str)> {
        let mut out = Vec::new();
        let mut start = 0;
        for (i, c) in s.char_indices().skip(1) {
            let prev = s[..i].chars().next_back().is_some_and(|p| p.is_ascii_digit());
            if prev != c.is_ascii_digit() {
                out.push((prev, &s[start..i]));
                start = i;
            }
        }
        if !s.is_empty() {
            out.push((s[start..].chars().next().is_some_and(|c| c.is_ascii_digit()), &s[start..]));
        }
        out
    }
    let key = |(digits, text): (bool, &str)| {
        let trimmed = if digits { text.trim_start_matches('0') } else { text };
        (!digits, if digits { trimmed.len() } else { 0 }, trimmed.to_owned())
    };
    let (x, y) = (chunks(a), chunks(b));
    x.iter()
        .zip(&y)
        .map(|(&p, &q)| key(p).cmp(&key(q)))
        .find(|o| o.is_ne())
        .unwrap_or_else(|| x.len().cmp(&y.len()))
        .then_with(|| a.cmp(b))
}

/// Settings strings longer than this are shown by a short name.
const LONG: usize = 24;

/// Short names for long engine-settings strings (`#1 nodes=1000`), with their legend.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ShortNames(Vec<(String, String)>);

impl ShortNames {
    /// Names `#1`, `#2`, ... for the distinct long values, in natural order (numbers compared as
    /// numbers, so a ladder's `nodes=4000` comes before its `nodes=16000`), each followed by the
    /// value's first word.
    pub fn new<'a>(values: impl IntoIterator<Item = &'a str>) -> ShortNames {
        let mut long: Vec<&str> = values.into_iter().filter(|s| s.chars().count() > LONG).collect();
        long.sort_unstable_by(|a, b| natural_order(a, b));
        long.dedup();
        let named = long.iter().enumerate().map(|(i, s)| {
            let head: String = s.split_whitespace().next().unwrap_or("").chars().take(LONG - 6).collect();
            ((*s).to_owned(), format!("#{} {head}", i + 1))
        });
        ShortNames(named.collect())
    }

    /// Short names for the `settings` columns of `tables`.
    ///
    /// # Errors
    /// A polars error.
    pub fn of_tables(tables: &[Table]) -> Result<ShortNames> {
        let mut all = Vec::new();
        for t in tables {
            if let Ok(c) = t.df.column("settings") {
                all.extend(c.str()?.iter().flatten().map(str::to_owned));
            }
        }
        Ok(ShortNames::new(all.iter().map(String::as_str)))
    }

    /// The short name of `s`, or `s` itself.
    #[must_use]
    pub fn short<'a>(&'a self, s: &'a str) -> &'a str {
        self.0.iter().find(|(long, _)| long == s).map_or(s, |(_, short)| short.as_str())
    }

    /// `text` with every long value in it replaced by its short name (for titles).
    #[must_use]
    pub fn shorten(&self, text: &str) -> String {
        // Longest first, so that a value containing another is replaced whole.
        let mut by_length: Vec<&(String, String)> = self.0.iter().collect();
        by_length.sort_by_key(|(long, _)| std::cmp::Reverse(long.len()));
        by_length.iter().fold(text.to_owned(), |t, (long, short)| t.replace(long.as_str(), short))
    }

    /// `#1 nodes=1000 = <the whole string>`, one line each.
    #[must_use]
    pub fn legend(&self) -> Vec<String> {
        self.0.iter().map(|(long, short)| format!("{short} = {long}")).collect()
    }

    /// Whether no value needed a short name.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}

/// Tables in one text block.
///
/// # Errors
/// As [`Table::to_text`], [`Table::to_csv`] and [`Table::to_json`].
pub fn render(tables: &[Table], format: Format) -> Result<String> {
    let mut out = String::new();
    match format {
        Format::Table => {
            let names = ShortNames::of_tables(tables)?;
            for (i, t) in tables.iter().enumerate() {
                let sep = if i > 0 { "\n" } else { "" };
                let _ = write!(out, "{sep}{}\n{}", names.shorten(&t.title), t.to_text(&names)?);
            }
            if !names.is_empty() {
                out.push_str("\nSettings:\n");
                for l in names.legend() {
                    let _ = writeln!(out, "  {l}");
                }
            }
        }
        Format::Csv if tables.len() == 1 => out = tables[0].to_csv()?,
        Format::Csv => {
            for (i, t) in tables.iter().enumerate() {
                let sep = if i > 0 { "\n" } else { "" };
                let _ = write!(out, "{sep}# {}\n{}", t.name, t.to_csv()?);
            }
        }
        Format::Json => {
            out = serde_json::to_string_pretty(&json_object(tables)?).unwrap_or_default();
            out.push('\n');
        }
    }
    Ok(out)
}

fn json_object(tables: &[Table]) -> Result<serde_json::Value> {
    let mut obj = serde_json::Map::new();
    for t in tables {
        obj.insert(t.name.to_owned(), t.to_json()?);
    }
    Ok(serde_json::Value::Object(obj))
}

fn write_json(tables: &[Table], path: &Path) -> Result<()> {
    let text = serde_json::to_string_pretty(&json_object(tables)?).unwrap_or_default();
    std::fs::write(path, text + "\n")
        .map_err(|e| AnalysisError::Write { path: path.to_owned(), message: e.to_string() })
}

/// Writes tables to `path`: JSON holds them all in one object; for CSV and Parquet the first table
/// goes to `path` and each other to `<stem>.<name>.<ext>` beside it. Returns the files written.
///
/// # Errors
/// An unknown extension, or a failed write (naming the file).
pub fn write_all(tables: &[Table], path: &Path) -> Result<Vec<PathBuf>> {
    let ext = path.extension().and_then(|e| e.to_str()).map(str::to_ascii_lowercase).unwrap_or_default();
    if ext == "json" {
        write_json(tables, path)?;
        return Ok(vec![path.to_owned()]);
    }
    let mut written = Vec::new();
    for (i, t) in tables.iter().enumerate() {
        let file = if i == 0 {
            path.to_owned()
        } else {
            let stem = path.file_stem().and_then(|s| s.to_str()).unwrap_or("table");
            path.with_file_name(format!("{stem}.{}.{ext}", t.name))
        };
        t.write(&file)?;
        written.push(file);
    }
    Ok(written)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn long_settings_get_short_names() {
        let long_b = "nodes=2000 hash=16 features=pvs,asp eval: value.pawn=100";
        let long_a = "nodes=1000 hash=16 features=pvs,asp eval: value.pawn=100";
        let n = ShortNames::new([long_b, "nodes=50", long_a, long_b]);
        assert_eq!(
            (n.short(long_a), n.short(long_b), n.short("nodes=50")),
            ("#1 nodes=1000", "#2 nodes=2000", "nodes=50")
        );
        assert_eq!(n.legend(), [format!("#1 nodes=1000 = {long_a}"), format!("#2 nodes=2000 = {long_b}")]);
        assert!(ShortNames::new(["short"]).is_empty());
        // A ladder's rungs in their order, not the text's (`16000` < `4000` as text).
        let rung = |n: u32| format!("nodes={n} hash=16 features=pvs,asp eval: preset fide");
        let rungs: Vec<String> = [64000, 1000, 16000, 4000].map(rung).to_vec();
        let ladder = ShortNames::new(rungs.iter().map(String::as_str));
        assert_eq!(
            [1000, 4000, 16000, 64000].map(|r| ladder.short(&rung(r)).to_owned()),
            ["#1 nodes=1000", "#2 nodes=4000", "#3 nodes=16000", "#4 nodes=64000"]
        );
        assert_eq!(natural_order("a01", "a1"), std::cmp::Ordering::Less);
        assert_eq!(natural_order("x9y", "x10"), std::cmp::Ordering::Less);
        // Rows follow that order too, by variant first, keeping the order within a group.
        let df = df!(
            "variant" => ["fide", "fide", "fide", "fide", "malka"],
            "settings" => [rung(1000), rung(16000), rung(16000), rung(4000), rung(500)],
            "n" => [1i64, 2, 3, 4, 5],
        )
        .unwrap();
        let t = Table::new("t", "t", df);
        let order: Vec<i64> = t.df.column("n").unwrap().i64().unwrap().into_no_null_iter().collect();
        assert_eq!(order, [1, 4, 2, 3, 5]);
        let title = format!("A = malka ({long_a})  v  B = fide ({long_b})");
        assert_eq!(n.shorten(&title), "A = malka (#1 nodes=1000)  v  B = fide (#2 nodes=2000)");
    }
}
