//! The Parquet copy of the records: written from `games.csv`, read back to the same frame,
//! and checked like the CSV on the way in.

use polars::prelude::*;
use polars_io::prelude::ParquetWriter;
use stackchess_analysis::load::write_games_parquet;
use stackchess_analysis::{load, AnalysisError};
use std::path::{Path, PathBuf};

const DIR: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures");

fn scratch(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("stackchess-parquet-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

fn path(d: &Path) -> String {
    d.to_str().unwrap().to_owned()
}

/// Whether `dir` holds no temporary file of the whole-file writer.
fn no_temporary(dir: &Path) -> bool {
    std::fs::read_dir(dir).unwrap().all(|e| !stackchess_files::is_temporary(&e.unwrap().file_name()))
}

#[test]
fn parquet_copy_reads_back_to_the_same_games() {
    let csv = format!("{DIR}/basic/malka/games.csv");
    let d = scratch("roundtrip");
    let n = write_games_parquet(Path::new(&csv), &d.join("games.parquet")).unwrap();
    let from_csv = load(&[&csv]).unwrap();
    assert_eq!(n, from_csv.len());
    assert!(no_temporary(&d));
    // The directory holds only the Parquet copy: it is found and read.
    let from_parquet = load(&[path(&d)]).unwrap();
    assert_eq!(from_parquet.files, vec![d.join("games.parquet")]);
    assert!(from_parquet.df.equals_missing(&from_csv.df), "{:?}\n{:?}", from_parquet.df, from_csv.df);
    // Mixed with the CSV it came from, every game is a duplicate.
    let both = load(&[csv, path(&d.join("games.parquet"))]).unwrap();
    assert_eq!((both.len(), both.duplicates), (n, n));
}

#[test]
fn a_directory_with_both_files_is_read_from_its_journal() {
    let d = scratch("both");
    std::fs::copy(format!("{DIR}/basic/malka/games.csv"), d.join("games.csv")).unwrap();
    write_games_parquet(&d.join("games.csv"), &d.join("games.parquet")).unwrap();
    assert_eq!(load(&[path(&d)]).unwrap().files, vec![d.join("games.csv")]);
}

#[test]
fn a_bad_journal_writes_no_copy() {
    let d = scratch("bad-journal");
    let e = write_games_parquet(Path::new(&format!("{DIR}/errors/truncated/games.csv")), &d.join("games.parquet"))
        .unwrap_err();
    assert!(matches!(e, AnalysisError::Records(stackchess_records::Error::Record { line: 3, .. })), "{e:?}");
    assert!(!d.join("games.parquet").exists() && no_temporary(&d));
}

#[test]
fn corrupt_or_foreign_parquet_files_are_named() {
    let good = load(&[format!("{DIR}/basic/malka")]).unwrap().df;
    let d = scratch("corrupt");
    let write = |name: &str, df: &mut DataFrame| {
        let p = d.join(name);
        ParquetWriter::new(std::fs::File::create(&p).unwrap()).finish(df).unwrap();
        p
    };
    let err = |p: &Path| load(&[path(p)]).unwrap_err().to_string();

    // Cut in half, as by a full disk: not readable.
    let whole = write("whole.parquet", &mut good.clone());
    let bytes = std::fs::read(&whole).unwrap();
    let cut = d.join("cut.parquet");
    std::fs::write(&cut, &bytes[..bytes.len() / 2]).unwrap();
    assert!(err(&cut).contains("cut.parquet: not a readable Parquet file"), "{}", err(&cut));
    let empty = d.join("empty.parquet");
    std::fs::write(&empty, b"").unwrap();
    assert!(err(&empty).contains("empty.parquet: empty file"), "{}", err(&empty));

    // A column missing, a column of another type, a bad result.
    let missing = write("missing.parquet", &mut good.drop("checks_black").unwrap());
    assert!(err(&missing).contains("missing column(s) checks_black"), "{}", err(&missing));
    let mut retyped = good.clone();
    let plies = retyped.column("plies").unwrap().cast(&DataType::Float64).unwrap();
    retyped.with_column(plies).unwrap();
    let retyped = write("retyped.parquet", &mut retyped);
    assert!(err(&retyped).contains("column 'plies' has type f64, expected i64"), "{}", err(&retyped));
    let mut bad = good.clone();
    let mut results: Vec<String> =
        bad.column("result").unwrap().str().unwrap().iter().map(|r| r.unwrap().to_owned()).collect();
    results[1] = "2-0".into();
    bad.with_column(Column::new("result".into(), results)).unwrap();
    let bad = write("bad.parquet", &mut bad);
    assert!(err(&bad).contains("bad.parquet:2: result '2-0'"), "{}", err(&bad));
}
