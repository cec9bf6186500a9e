use super::*;
#[test]
fn scratch() {
    let a = Reference::builtin("air-attack").unwrap();
    let text = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../../data/rules/air-attack-full-range.toml")).unwrap();
    let b = Reference::from_toml(&text, &|n| rules::builtin_text(n).map(str::to_string)).unwrap();
    let s = a.start_lfen();
    let ma = a.legal_moves(&s).unwrap();
    let mb = b.legal_moves(&s).unwrap();
    let extra: Vec<_> = mb.iter().filter(|m| !ma.contains(m)).collect();
    println!("{extra:?}");
    let missing: Vec<_> = ma.iter().filter(|m| !mb.contains(m)).collect();
    println!("{missing:?} {} {}", ma.len(), mb.len());
}
