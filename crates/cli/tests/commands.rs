//! Command modules do not import each other: what two commands share lives outside `cmd/` (the
//! flag groups, the progress display, the run's summary in `crates/cli/src/*.rs`) or in a library
//! crate. A command made of several files (`cmd/book/`) reaches its own parts with `super::`.

use std::path::{Path, PathBuf};

fn cmd_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("src/cmd")
}

/// The command modules: `cmd/<name>.rs` and `cmd/<name>/`.
fn commands(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .expect("crates/cli/src/cmd")
        .flatten()
        .filter_map(|e| {
            let name = e.file_name().to_string_lossy().into_owned();
            let stem = name.strip_suffix(".rs").map_or(name.clone(), str::to_owned);
            (stem != "mod").then_some(stem)
        })
        .collect();
    names.sort();
    names.dedup();
    names
}

/// Every `.rs` file under `dir` with the command it belongs to.
fn files(dir: &Path) -> Vec<(String, PathBuf, bool)> {
    let mut out = Vec::new();
    for e in std::fs::read_dir(dir).expect("crates/cli/src/cmd").flatten() {
        let p = e.path();
        let name = e.file_name().to_string_lossy().into_owned();
        if p.is_dir() {
            for f in std::fs::read_dir(&p).expect("a command's directory").flatten() {
                out.push((name.clone(), f.path(), true));
            }
        } else if name != "mod.rs" && p.extension().is_some_and(|x| x == "rs") {
            out.push((name.trim_end_matches(".rs").to_owned(), p, false));
        }
    }
    out
}

/// The identifier that starts `text`.
fn ident(text: &str) -> &str {
    let end = text.find(|c: char| !(c.is_alphanumeric() || c == '_')).unwrap_or(text.len());
    &text[..end]
}

/// The other command modules `source` (a file of command `own`; `nested` when it is a file of a
/// command's directory) reaches: through `crate::cmd::`, or `super::` to a sibling.
fn imports_of_others(source: &str, own: &str, nested: bool, commands: &[String]) -> Vec<String> {
    let mut found = Vec::new();
    for (i, _) in source.match_indices("crate::cmd::") {
        let name = ident(&source[i + "crate::cmd::".len()..]);
        if name != own {
            found.push(format!("crate::cmd::{name}"));
        }
    }
    for (i, _) in source.match_indices("super::") {
        let rest = &source[i + "super::".len()..];
        if nested {
            if let Some(further) = rest.strip_prefix("super::") {
                found.push(format!("super::super::{}", ident(further)));
            }
        } else {
            let name = ident(rest);
            if name != own && commands.iter().any(|c| c == name) {
                found.push(format!("super::{name}"));
            }
        }
    }
    found
}

#[test]
fn command_modules_do_not_import_each_other() {
    let dir = cmd_dir();
    let commands = commands(&dir);
    assert!(commands.len() > 20 && commands.iter().any(|c| c == "balance"), "{commands:?}");
    let mut offences = Vec::new();
    for (own, path, nested) in files(&dir) {
        let source = std::fs::read_to_string(&path).expect("a readable source file");
        for import in imports_of_others(&source, &own, nested, &commands) {
            offences.push(format!("{}: {import}", path.strip_prefix(&dir).unwrap_or(&path).display()));
        }
    }
    assert!(
        offences.is_empty(),
        "command modules import each other (move what they share out of cmd/):\n{}",
        offences.join("\n")
    );
}

#[test]
fn the_scan_finds_every_way_of_reaching_another_command() {
    let commands: Vec<String> = ["book", "show", "stats"].map(String::from).to_vec();
    let top =
        "use crate::cmd::stats::{notes, AnalysisArgs};\nfn f() { super::show::draw(p); }\nmod tests { use super::*; }";
    assert_eq!(imports_of_others(top, "balance", false, &commands), ["crate::cmd::stats", "super::show"]);
    let nested = "use super::Args;\nlet x = crate::cmd::book::openings();\nuse super::super::stats::notes;";
    assert_eq!(imports_of_others(nested, "book", true, &commands), ["super::super::stats"]);
    assert!(imports_of_others("use crate::run_flags::RunArgs;", "match_", false, &commands).is_empty());
}
