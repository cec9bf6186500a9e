//! Every relative link of the repository's Markdown (README, ARCHITECTURE, docs/, data/, the
//! crates' READMEs) points at a file or directory that exists.

use std::path::{Path, PathBuf};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..").canonicalize().expect("the workspace root")
}

/// The Markdown files checked: top-level ones, and those under docs/, data/ and crates/*/.
fn markdown(root: &Path) -> Vec<PathBuf> {
    let mut files = Vec::new();
    let mut dirs = vec![root.to_path_buf()];
    while let Some(d) = dirs.pop() {
        for e in std::fs::read_dir(&d).expect("a readable directory").flatten() {
            let p = e.path();
            let name = e.file_name().to_string_lossy().into_owned();
            if p.is_dir() {
                let top = d == root;
                if !name.starts_with('.')
                    && name != "target"
                    && (!top || ["docs", "data", "crates"].contains(&name.as_str()))
                {
                    dirs.push(p);
                }
            } else if p.extension().is_some_and(|x| x.eq_ignore_ascii_case("md")) {
                files.push(p);
            }
        }
    }
    files
}

/// The targets of the inline links `[text](target)` in `text`.
fn links(text: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let mut rest = text;
    while let Some(i) = rest.find("](") {
        rest = &rest[i + 2..];
        if let Some(j) = rest.find(')') {
            out.push(&rest[..j]);
            rest = &rest[j..];
        }
    }
    out
}

#[test]
fn every_relative_link_resolves() {
    let root = root();
    let mut broken = Vec::new();
    let files = markdown(&root);
    assert!(files.iter().any(|f| f.ends_with("README.md")) && files.len() > 10, "{files:?}");
    for f in &files {
        let text = std::fs::read_to_string(f).expect("a readable file");
        for target in links(&text) {
            let target = target.split('#').next().unwrap_or_default();
            if target.is_empty() || target.contains("://") || target.starts_with("mailto:") || target.contains(' ') {
                continue;
            }
            if !f.parent().expect("a parent").join(target).exists() {
                broken.push(format!("{}: {target}", f.strip_prefix(&root).unwrap_or(f).display()));
            }
        }
    }
    assert!(broken.is_empty(), "links to nothing:\n{}", broken.join("\n"));
}

#[test]
fn a_link_to_nothing_is_found() {
    assert_eq!(links("see [a](docs/a.md) and [b](../b.md#x), not [c] (d)"), vec!["docs/a.md", "../b.md#x"]);
}
