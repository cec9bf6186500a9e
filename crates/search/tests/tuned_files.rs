//! Every parameter file kept in `data/tuned/` loads as `--params` reads it, so the commands in
//! data/tuned/README.md that name one still run.

use stackchess_search::{EvalParams, SearchConfig};

#[test]
fn every_kept_params_file_loads() {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../../data/tuned");
    let mut seen = 0;
    for entry in std::fs::read_dir(dir).expect("data/tuned exists") {
        let path = entry.expect("a directory entry").path();
        if path.extension().is_none_or(|e| e != "params") {
            continue;
        }
        let text = std::fs::read_to_string(&path).expect("a readable file");
        let mut config = SearchConfig::full(EvalParams::default());
        let has_eval = config.apply_file(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let has_search = text.lines().any(|l| l.trim_start().starts_with("search."));
        assert!(has_eval || has_search, "{} sets nothing", path.display());
        seen += 1;
    }
    assert!(seen >= 6, "only {seen} params files in {dir}");
}
