//! Bad inputs give errors that name the file (and the line where there is one).

use stackchess_analysis::{load, AnalysisError};
use stackchess_records::Error as RecordsError;

const DIR: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/errors");

fn err(case: &str) -> (AnalysisError, String) {
    let e = load(&[format!("{DIR}/{case}")]).unwrap_err();
    let text = e.to_string();
    (e, text)
}

#[test]
fn missing_inputs() {
    let e = load(&[format!("{DIR}/no_such_dir")]).unwrap_err();
    assert!(matches!(e, AnalysisError::NotFound { .. }));
    assert!(e.to_string().contains("no_such_dir: no such file or directory"), "{e}");
    let (e, text) = err("no_games_file");
    assert!(matches!(e, AnalysisError::NoGamesFile { .. }));
    assert!(text.contains("no_games_file: directory has no games.csv"), "{text}");
    let e = load(&[format!("{DIR}/nothing-*")]).unwrap_err();
    assert!(e.to_string().contains("nothing-*") && e.to_string().contains("matches no file"), "{e}");
    let e = load(&[format!("{DIR}/[")]).unwrap_err();
    assert!(matches!(e, AnalysisError::Pattern { .. }), "{e}");
}

#[test]
fn empty_and_header_only_files() {
    let (e, text) = err("empty");
    assert!(matches!(e, AnalysisError::Records(RecordsError::Empty { .. })), "{e:?}");
    assert!(text.contains("empty/games.csv: empty file"), "{text}");
    let (e, text) = err("header_only");
    assert!(matches!(e, AnalysisError::NoGames { .. }));
    assert!(text.contains("header_only"), "{text}");
}

#[test]
fn truncated_last_line_names_file_and_line() {
    let (e, text) = err("truncated");
    assert!(matches!(e, AnalysisError::Records(RecordsError::Record { line: 3, .. })), "{e:?}");
    assert!(text.contains("truncated/games.csv:3: truncated last line: 10 of 25 fields"), "{text}");
}

#[test]
fn schema_mismatches_name_the_columns() {
    let (e, text) = err("missing_column");
    assert!(matches!(e, AnalysisError::Records(RecordsError::Header { .. })), "{e:?}");
    assert!(
        text.contains("missing_column/games.csv: header does not match")
            && text.contains("missing column(s) checks_black"),
        "{text}"
    );
    let (_, text) = err("extra_column");
    assert!(text.contains("unexpected column(s) eval") && !text.contains("missing"), "{text}");
    let (_, text) = err("out_of_order");
    assert!(text.contains("out of order"), "{text}");
}

#[test]
fn bad_values_name_file_and_line() {
    let (e, text) = err("bad_result");
    assert!(matches!(e, AnalysisError::Records(RecordsError::Record { line: 3, .. })), "{e:?}");
    assert!(text.contains("bad_result/games.csv:3: result '1-1'"), "{text}");
    let (e, text) = err("bad_number");
    assert!(matches!(e, AnalysisError::Records(RecordsError::Record { line: 3, .. })), "{e:?}");
    assert!(text.contains("bad_number/games.csv:3: column 'plies': 'two' is not valid"), "{text}");
}

#[test]
fn one_bad_file_among_good_ones_is_named() {
    let good = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/basic/malka");
    let e = load(&[good.to_owned(), format!("{DIR}/truncated")]).unwrap_err();
    assert!(e.to_string().contains("truncated/games.csv:3"), "{e}");
}
