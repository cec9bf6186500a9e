//! Finds the magic numbers of the in-plane slider tables once, at build time.

#[allow(dead_code)]
mod magic_search {
    include!("src/magic_search.rs");
}

use std::fmt::Write as _;

fn main() {
    println!("cargo:rerun-if-changed=src/magic_search.rs");
    let mut out = String::new();
    for (name, dirs, seed) in [
        ("ROOK_MAGICS", &magic_search::ROOK, 0x9E37_79B9_7F4A_7C15u64),
        ("BISHOP_MAGICS", &magic_search::BISHOP, 0xD1B5_4A32_D192_ED03u64),
    ] {
        let magics = magic_search::find_magics(dirs, seed);
        let _ = writeln!(out, "/// Magic numbers found by build.rs.\nconst {name}: [u64; 64] = {magics:?};");
    }
    let dir = std::env::var("OUT_DIR").expect("cargo sets OUT_DIR");
    std::fs::write(std::path::Path::new(&dir).join("magics.rs"), out).expect("write magics.rs");
}
