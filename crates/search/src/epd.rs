//! Test suites in EPD: a FEN (four fields), then operations such as `bm Qg6; id "WAC.001";`.

use stackchess_core::{parse_move, Move, Position};
use thiserror::Error;

/// An EPD line that could not be read.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[error("EPD line {line}: {reason}")]
pub struct EpdError {
    /// 1-based line number.
    pub line: usize,
    /// What was wrong.
    pub reason: String,
}

/// One test position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EpdCase {
    /// The position (the EPD's four fields, clocks appended as `0 1`).
    pub lfen: String,
    /// The `id`, or `line N` when there is none.
    pub id: String,
    /// Best moves (`bm`), as written (SAN or coordinates).
    pub best: Vec<String>,
    /// Moves to avoid (`am`).
    pub avoid: Vec<String>,
}

impl EpdCase {
    /// Whether `m` solves the case in `pos`: one of the best moves, or (with only `am`) none of
    /// those to avoid. A listed move that is not legal in `pos` never matches.
    #[must_use]
    pub fn solved_by<P: Position>(&self, pos: &P, m: Move) -> bool {
        let is = |list: &[String]| list.iter().any(|t| parse_move(pos, t).is_ok_and(|x| x == m));
        if self.best.is_empty() {
            !is(&self.avoid)
        } else {
            is(&self.best) && !is(&self.avoid)
        }
    }
}

/// Reads an EPD suite; blank lines and lines starting with `#` are skipped.
///
/// # Errors
/// A line with fewer than four position fields, or with neither `bm` nor `am`.
pub fn parse_epd(text: &str) -> Result<Vec<EpdCase>, EpdError> {
    let mut out = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let line = raw.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let err = |reason: &str| EpdError { line: i + 1, reason: reason.to_owned() };
        let fields: Vec<&str> = line.splitn(5, ' ').collect();
        if fields.len() < 5 {
            return Err(err("expected four position fields and at least one operation"));
        }
        let lfen = format!("{} {} {} {} 0 1", fields[0], fields[1], fields[2], fields[3]);
        let mut case = EpdCase { lfen, id: format!("line {}", i + 1), best: Vec::new(), avoid: Vec::new() };
        for op in fields[4].split(';').map(str::trim).filter(|s| !s.is_empty()) {
            let (name, args) = op.split_once(' ').unwrap_or((op, ""));
            match name {
                "bm" => case.best.extend(args.split_whitespace().map(str::to_owned)),
                "am" => case.avoid.extend(args.split_whitespace().map(str::to_owned)),
                "id" => args.trim().trim_matches('"').clone_into(&mut case.id),
                _ => {}
            }
        }
        if case.best.is_empty() && case.avoid.is_empty() {
            return Err(err("no 'bm' or 'am' operation"));
        }
        out.push(case);
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_operations_and_rejects_bad_lines() {
        let cases = parse_epd("# c\n\n8/8/8/8/8/8/8/K1k5 w - - bm Ka2 Kb1; id \"X.1\";\n").unwrap();
        assert_eq!(cases.len(), 1);
        assert_eq!(cases[0].id, "X.1");
        assert_eq!(cases[0].best, ["Ka2", "Kb1"]);
        assert_eq!(cases[0].lfen, "8/8/8/8/8/8/8/K1k5 w - - 0 1");
        assert_eq!(parse_epd("8/8 w - -").unwrap_err().line, 1);
        assert!(parse_epd("\n8/8/8/8/8/8/8/K1k5 w - - id \"x\";").unwrap_err().to_string().contains("line 2"));
    }
}
