use super::*;

#[test]
fn scratch() {
    for v in ["fide", "traditional", "malka", "air-attack"] {
        let s = start_lfen(v).unwrap();
        let t = std::time::Instant::now();
        let p: Vec<u64> = (1..=3).map(|d| perft(v, &s, d).unwrap()).collect();
        eprintln!("{v}: {p:?} {:?}", t.elapsed());
    }
}
