//! Finds the magic numbers of the in-plane slider tables once, at build time, and fills the
//! tables, so the lookups read statics and start-up builds nothing.

#[allow(dead_code)]
mod magic_search {
    include!("src/magic_search.rs");
}

use std::fmt::Write as _;

fn main() {
    println!("cargo:rerun-if-changed=src/magic_search.rs");
    println!("cargo:rerun-if-changed=build.rs");
    let mut out = String::new();
    for (name, dirs, seed) in [
        ("ROOK", &magic_search::ROOK, 0x9E37_79B9_7F4A_7C15u64),
        ("BISHOP", &magic_search::BISHOP, 0xD1B5_4A32_D192_ED03u64),
    ] {
        let magics = magic_search::find_magics(dirs, seed);
        let _ = writeln!(
            out,
            "/// Magic numbers found by build.rs.\n#[cfg(test)]\nconst {name}_MAGICS: [u64; 64] = {magics:?};"
        );
        let mut table = Vec::new();
        let mut entries = String::new();
        for (sq, &magic) in magics.iter().enumerate() {
            let (m, shift, slots) = magic_search::fill(sq, dirs, magic);
            let _ = write!(
                entries,
                "Entry {{ mask: {m:#x}, magic: {magic:#x}, shift: {shift}, offset: {} }},",
                table.len()
            );
            table.extend_from_slice(&slots);
        }
        let _ = writeln!(out, "/// Per square: the mask, magic, shift and table offset (build.rs).");
        let _ = writeln!(out, "static {name}_ENTRIES: [Entry; 64] = [{entries}];");
        let _ = writeln!(out, "/// The attack sets of every square, at their offsets (build.rs).");
        let _ = write!(out, "static {name}_TABLE: [u64; {}] = [", table.len());
        for a in &table {
            let _ = write!(out, "{a:#x},");
        }
        let _ = writeln!(out, "];");
    }
    let dir = std::env::var("OUT_DIR").expect("cargo sets OUT_DIR");
    std::fs::write(std::path::Path::new(&dir).join("magics.rs"), out).expect("write magics.rs");
}
