//! The crate layering of ARCHITECTURE.md, read from `cargo metadata`: every library crate sits on a
//! layer and depends (normal dependencies) only on crates of lower layers, so no crate below the
//! CLI depends on one above it and there is no circle; the heavy or special-purpose outside crates
//! stay where ARCHITECTURE.md says. Dev-dependencies may reach up (tests play real variants).

use serde_json::Value;
use std::collections::BTreeMap;
use std::process::Command;

/// Layer of each workspace package, lowest first. A new crate must be placed here.
const LAYERS: &[(&str, u32)] = &[
    ("stackchess-geometry", 0),
    // Writing a file whole: under everything that replaces a file.
    ("stackchess-files", 0),
    ("stackchess-records", 1),
    ("stackchess-stats", 0),
    ("stackchess-reference", 0),
    ("stackchess-core", 1),
    ("stackchess-rules", 2),
    ("stackchess-nnue", 2),
    ("stackchess-board", 3),
    ("stackchess-malka", 4),
    ("stackchess-traditional", 4),
    ("stackchess-air-attack", 4),
    ("stackchess-variants", 5),
    ("stackchess-search", 5),
    ("stackchess-book", 5),
    ("stackchess-view", 6),
    ("stackchess-selfplay", 6),
    ("stackchess-uci", 6),
    ("stackchess-analysis", 6),
    ("stackchess-python", 6),
    ("stackchess-datagen", 7),
    ("stackchess-serve", 7),
    ("stackchess-tune", 8),
    ("stackchess-train", 8),
    // The parsers' invariants for the fuzz targets and property tests (docs/reliability.md).
    ("stackchess-checks", 8),
    ("stackchess-study", 9),
    ("stackchess", 10),
    // Tools over everything.
    ("stackchess-benches", 11),
    ("xtask", 11),
];

/// Outside crates allowed only in these packages (normal dependencies).
const CONFINED: &[(&str, &[&str])] = &[
    ("polars", &["stackchess-analysis"]),
    ("polars-io", &["stackchess-analysis"]),
    ("clap", &["stackchess"]),
    ("indicatif", &["stackchess"]),
    ("rayon", &["stackchess", "stackchess-selfplay", "stackchess-datagen"]),
    ("criterion", &["stackchess-benches"]),
    ("cozy-chess", &["stackchess-benches"]),
    ("shakmaty", &["stackchess-book", "stackchess-benches"]),
    ("pgn-reader", &[]),
    ("headless_chrome", &[]),
    ("pyo3", &["stackchess-python"]),
    // The web server of `stackchess serve` and the runtime under it.
    ("axum", &["stackchess-serve"]),
    ("tokio", &["stackchess-serve"]),
    ("tungstenite", &[]),
];

/// Each workspace package with its normal dependencies.
fn packages() -> BTreeMap<String, Vec<(String, bool)>> {
    let out = Command::new(env!("CARGO"))
        .args(["metadata", "--format-version", "1", "--no-deps", "--offline"])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .expect("cargo runs");
    assert!(out.status.success(), "cargo metadata: {}", String::from_utf8_lossy(&out.stderr));
    let meta: Value = serde_json::from_slice(&out.stdout).expect("cargo metadata prints JSON");
    let mut map = BTreeMap::new();
    for p in meta["packages"].as_array().expect("packages") {
        let deps = p["dependencies"]
            .as_array()
            .expect("dependencies")
            .iter()
            .filter(|d| d["kind"].is_null())
            .map(|d| (d["name"].as_str().expect("name").to_owned(), d["optional"].as_bool().unwrap_or(false)))
            .collect();
        map.insert(p["name"].as_str().expect("name").to_owned(), deps);
    }
    map
}

fn layer(name: &str) -> Option<u32> {
    LAYERS.iter().find(|(n, _)| *n == name).map(|(_, l)| *l)
}

#[test]
fn no_crate_depends_on_a_crate_above_it() {
    let packages = packages();
    let mut wrong = Vec::new();
    for (name, deps) in &packages {
        let Some(own) = layer(name) else {
            wrong.push(format!("{name} is on no layer (add it to LAYERS and ARCHITECTURE.md)"));
            continue;
        };
        for (dep, _) in deps.iter().filter(|(d, _)| packages.contains_key(d)) {
            match layer(dep) {
                Some(l) if l < own => {}
                Some(l) => wrong.push(format!("{name} (layer {own}) depends on {dep} (layer {l})")),
                None => wrong.push(format!("{name} depends on {dep}, which is on no layer")),
            }
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
    // The check sees the real graph: the CLI uses the libraries below it.
    assert!(packages["stackchess"].iter().any(|(d, _)| d == "stackchess-selfplay"));
}

#[test]
fn heavy_and_special_crates_stay_where_they_belong() {
    let packages = packages();
    let mut wrong = Vec::new();
    for (name, deps) in &packages {
        for (dep, optional) in deps {
            if let Some((_, allowed)) = CONFINED.iter().find(|(c, _)| c == dep) {
                // An optional dependency behind a feature (shakmaty for PolyGlot keys) is allowed
                // only where listed too.
                if !allowed.contains(&name.as_str()) {
                    wrong.push(format!("{name} depends on {dep} (optional: {optional})"));
                }
            }
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
    assert!(packages["stackchess-analysis"].iter().any(|(d, _)| d == "polars"));
    assert!(packages["stackchess-python"].iter().any(|(d, _)| d == "pyo3"));
}
