//! The golden perft file format of `data/perft/*.perft`.
//!
//! Blocks of `# comment`, `id N`, `lfen LFEN` and `perft DEPTH COUNT` lines; blank lines between.

/// One position of a perft file with its expected counts.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PerftEntry {
    /// Line number of its `lfen` line (1-based).
    pub line: usize,
    /// The position.
    pub lfen: String,
    /// `(depth, count)` pairs in file order.
    pub counts: Vec<(u32, u64)>,
}

/// Reads a perft file.
///
/// # Errors
/// Names the line that is malformed.
pub fn parse_perft_file(text: &str) -> Result<Vec<PerftEntry>, String> {
    let mut out: Vec<PerftEntry> = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let line = raw.trim();
        let n = i + 1;
        if line.is_empty() || line.starts_with('#') || line.starts_with("id ") {
            continue;
        }
        if let Some(l) = line.strip_prefix("lfen ") {
            out.push(PerftEntry { line: n, lfen: l.trim().to_owned(), counts: Vec::new() });
        } else if let Some(rest) = line.strip_prefix("perft ") {
            let entry = out.last_mut().ok_or(format!("line {n}: perft before any lfen line"))?;
            let mut it = rest.split_whitespace().map(str::parse::<u64>);
            match (it.next(), it.next(), it.next()) {
                (Some(Ok(d)), Some(Ok(c)), None) => {
                    entry.counts.push((u32::try_from(d).map_err(|_| format!("line {n}: depth too large"))?, c));
                }
                _ => return Err(format!("line {n}: expected 'perft DEPTH COUNT', found '{line}'")),
            }
        } else {
            return Err(format!("line {n}: unexpected '{line}'"));
        }
    }
    Ok(out)
}

/// Checks every count of the perft file `text` of at most `node_limit` leaves under `rules`: each
/// position must read and write back unchanged and give its counts. Returns the number of counts
/// checked.
///
/// # Errors
/// The first malformed line, unreadable position or wrong count, named.
pub fn check_perft_file<P: crate::Position>(rules: P::Rules, text: &str, node_limit: u64) -> Result<usize, String> {
    use crate::Rules as _;
    let mut checked = 0;
    for e in parse_perft_file(text)? {
        let pos = rules.from_lfen(&e.lfen).map_err(|err| format!("line {}: {err}", e.line))?;
        if pos.to_lfen() != e.lfen {
            return Err(format!("line {}: {} writes back as {}", e.line, e.lfen, pos.to_lfen()));
        }
        for (d, n) in e.counts.into_iter().filter(|&(_, n)| n <= node_limit) {
            let got = pos.perft(d);
            if got != n {
                return Err(format!("line {}: perft({d}) of {} is {got}, the file says {n}", e.line, e.lfen));
            }
            checked += 1;
        }
    }
    Ok(checked)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_blocks_and_names_bad_lines() {
        let text = "# start\nid 1\nlfen 8/8 w - -\nperft 1 20\nperft 2 400\n\nid 2\nlfen x\nperft 1 3\n";
        let e = parse_perft_file(text).unwrap();
        assert_eq!(e.len(), 2);
        assert_eq!(e[0].counts, vec![(1, 20), (2, 400)]);
        assert_eq!(e[1].line, 8);
        assert!(parse_perft_file("perft 1 2").unwrap_err().contains("line 1"));
        assert!(parse_perft_file("lfen x\nperft one 2").unwrap_err().contains("line 2"));
    }
}
