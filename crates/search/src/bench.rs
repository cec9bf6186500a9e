//! The workload of `stackchess bench` and the search-speed benches: the start position plus a
//! few fixed positions, each searched to a fixed depth. The rule crates hold each variant's as a
//! bench file (`depth = N`, then one LFEN a line; `#` comments), which [`Bench::parse`] reads.
//! Changing a bench file changes the bench signature.

use crate::ParamError;

/// A variant's bench workload besides its start position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Bench {
    /// The depth each position is searched to.
    pub depth: u32,
    /// The positions besides the start position, as LFEN.
    pub positions: Vec<String>,
}

impl Bench {
    /// Reads a bench file: a `depth = N` line and LFEN lines; blank lines and `#` comments skipped.
    ///
    /// # Errors
    /// A bad or repeated `depth` line, or none, by line number. The positions are read by the
    /// caller, who knows the rules.
    pub fn parse(text: &str) -> Result<Bench, ParamError> {
        let mut depth = None;
        let mut positions = Vec::new();
        let mut lines = 0;
        for (i, raw) in text.lines().enumerate() {
            lines = i + 1;
            let line = raw.split('#').next().unwrap_or("").trim();
            if line.is_empty() {
                continue;
            }
            let Some((k, v)) = line.split_once('=') else {
                positions.push(line.to_owned());
                continue;
            };
            let bad = |source| ParamError::Line { line: i + 1, source: Box::new(source) };
            if k.trim() != "depth" || depth.is_some() {
                return Err(ParamError::Syntax { line: i + 1, text: raw.to_owned() });
            }
            let d = v.trim().parse::<u32>().ok().filter(|d| (1..=64).contains(d));
            depth = Some(d.ok_or_else(|| {
                bad(ParamError::BadValue {
                    key: "depth".into(),
                    value: v.trim().to_owned(),
                    expected: "1 to 64".into(),
                })
            })?);
        }
        let depth = depth.ok_or(ParamError::Missing { line: lines + 1, missing: "depth".into() })?;
        Ok(Bench { depth, positions })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bench_files_are_read_and_bad_ones_named() {
        let b = Bench::parse("# c\ndepth = 7\n8/8/8/8/8/8/8/K6k w - - 0 1\n").unwrap();
        assert_eq!((b.depth, b.positions.len()), (7, 1));
        assert!(Bench::parse("depth = 0\n").unwrap_err().to_string().starts_with("line 1:"));
        assert!(Bench::parse("depth = 3\ndepth = 4\n").unwrap_err().to_string().starts_with("line 2:"));
        assert!(Bench::parse("K6k/8/8/8/8/8/8/8 w - - 0 1\n").unwrap_err().to_string().starts_with("line 2:"));
    }
}
