//! The data pipeline: packed positions and files round-trip, foreign and damaged files are
//! refused, the quiet filter drops pieces left en prise, and a run is deterministic, independent
//! of its threads and resumable to the same file.

use stackchess_core::{Position, Rules, SplitMix64};
use stackchess_datagen::sample::{is_quiet, Quiet};
use stackchess_datagen::{
    generate, DataReader, DataWriter, Error, Header, NoHook, Packed, Record, Settings, WhiteResult,
};
use stackchess_search::{Engine, SearchConfig};
use stackchess_variants::{Variant, WithPosition};
use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};

fn preset(v: Variant) -> SearchConfig {
    SearchConfig::preset(v.eval_params().unwrap()).unwrap()
}

/// Positions of a random game of `rules`, seeded.
fn random_positions<P: Position>(rules: P::Rules, seed: u64, plies: usize) -> Vec<P> {
    let mut rng = SplitMix64::for_item(seed, 0);
    let mut pos = rules.startpos();
    let mut out = vec![pos.clone()];
    for _ in 0..plies {
        let moves = pos.moves();
        if moves.is_empty() {
            break;
        }
        pos.play_unchecked(moves[rng.below(moves.len())]);
        out.push(pos.clone());
    }
    out
}

struct RoundTrip;
impl WithPosition for RoundTrip {
    type Output = usize;
    fn call<P: Position>(self, rules: P::Rules) -> usize {
        let mut n = 0;
        for seed in 0..20 {
            for pos in random_positions::<P>(rules, seed, 120) {
                let packed = Packed::of(&pos);
                let mut bytes = Vec::new();
                packed.encode(P::LEVELS, &mut bytes);
                let (back, used) = Packed::decode(&bytes, P::LEVELS).unwrap();
                assert_eq!(used, bytes.len());
                assert_eq!(back, packed);
                let again: P = back.position(rules).unwrap();
                assert_eq!(again.to_lfen(), pos.to_lfen());
                assert_eq!(again.hash(), pos.hash());
                n += 1;
            }
        }
        n
    }
}

#[test]
fn packed_positions_round_trip_in_every_builtin() {
    for v in [Variant::Malka, Variant::Traditional, Variant::AirAttack, Variant::Fide] {
        assert!(v.with(RoundTrip) > 1000, "{v}");
    }
}

fn header(rules_id: &str) -> Header {
    Header {
        levels: 1,
        rules_id: rules_id.into(),
        variant: "fide".into(),
        seed: 7,
        settings: "test".into(),
        command: "test".into(),
    }
}

fn records(n: usize) -> Vec<Record> {
    let rules = stackchess_traditional::fide_rules();
    random_positions::<stackchess_traditional::Fide>(rules, 3, n)
        .into_iter()
        .take(n)
        .enumerate()
        .map(|(i, p)| Record {
            hash: p.hash(),
            game: i as u64 / 4,
            ply: i as u16,
            score: (i as i16 - 20) * 13,
            result: [WhiteResult::Win, WhiteResult::Draw, WhiteResult::Loss, WhiteResult::None][i % 4],
            position: Packed::of(&p),
        })
        .collect()
}

/// A header value ending in '\r' (found by the `data` fuzz target: read as the last line it kept
/// its '\r', written back before a '\n' it was dropped) reads back the same through a file.
#[test]
fn a_header_value_ending_in_a_carriage_return_reads_back_the_same() {
    let dir = tempdir("cr");
    let id = stackchess_traditional::fide_rules().id();
    let h = Header { command: "made by hand\r".into(), settings: "a\rb".into(), ..header(id) };
    let (a, b) = (dir.join("a.data"), dir.join("b.data"));
    DataWriter::create(&a, &h).unwrap().commit(&records(4), 1).unwrap();
    let first = DataReader::open(&a).unwrap().read_all().unwrap();
    assert_eq!(first.header, h);
    DataWriter::create(&b, &first.header).unwrap().commit(&first.records, first.games).unwrap();
    assert_eq!(DataReader::open(&b).unwrap().read_all().unwrap(), first);
}

#[test]
fn files_round_trip_and_refuse_foreign_or_damaged_data() {
    let dir = tempdir("files");
    let path = dir.join("a.data");
    let id = stackchess_traditional::fide_rules().id();
    let recs = records(40);
    let mut w = DataWriter::create(&path, &header(id)).unwrap();
    w.commit(&recs[..25], 3).unwrap();
    w.commit(&recs[25..], 2).unwrap();
    drop(w);
    let back = DataReader::open_for(&path, id).unwrap().read_all().unwrap();
    assert_eq!(back.records, recs);
    assert_eq!(back.games, 5);
    assert_eq!(back.header, header(id));
    // Another rule set's data is refused, naming both ids.
    let e = DataReader::open_for(&path, "0123456789abcdef").err().unwrap().to_string();
    assert!(e.contains(id) && e.contains("0123456789abcdef"), "{e}");
    // Cut inside the last record: refused with its number, no panic.
    let bytes = std::fs::read(&path).unwrap();
    let cut = dir.join("cut.data");
    std::fs::write(&cut, &bytes[..bytes.len() - 5]).unwrap();
    let e = DataReader::open(&cut).unwrap().read_all().err().unwrap().to_string();
    assert!(e.contains("record 40") && e.contains("ends inside"), "{e}");
    // Cut at every length: an error or the records, never a panic.
    for len in (0..bytes.len()).step_by(7) {
        std::fs::write(&cut, &bytes[..len]).unwrap();
        if let Ok(r) = DataReader::open(&cut) {
            assert!(r.read_all().is_err());
        }
    }
    // Not a data file.
    std::fs::write(&cut, b"games.csv,is,not,data\n").unwrap();
    assert!(DataReader::open(&cut).err().unwrap().to_string().contains("not a stackchess data file"));
    // Records past the committed counts (a batch cut short) are dropped when appending.
    std::fs::write(&cut, &bytes).unwrap();
    let mut w = DataWriter::open(&cut, &header(id)).unwrap().0;
    drop(w);
    let mut longer = bytes.clone();
    longer.extend_from_slice(&[9, 0, 1, 2, 3]);
    std::fs::write(&cut, &longer).unwrap();
    let (w2, games) = DataWriter::open(&cut, &header(id)).unwrap();
    w = w2;
    assert_eq!((games, w.positions()), (5, 40));
    drop(w);
    assert_eq!(std::fs::read(&cut).unwrap(), bytes);
    // Other settings are refused on resume.
    let other = Header { settings: "other".into(), ..header(id) };
    assert!(DataWriter::open(&cut, &other).err().unwrap().to_string().contains("other settings"));
}

/// A position whose mover has no capture but leaves a piece the other side can take, and a
/// calm one where neither side can capture (both checked with the generator).
struct EnPrise(&'static str, &'static str, Variant);
impl WithPosition for EnPrise {
    type Output = ();
    fn call<P: Position>(self, rules: P::Rules) {
        let mut engine = Engine::<P>::new(rules, preset(self.2));
        let captures = |p: &P| {
            let mut l = stackchess_core::MoveList::new();
            p.legal_captures(&mut l);
            l.len()
        };
        let hanging: P = rules.from_lfen(self.0).unwrap();
        let mut passed = hanging.clone();
        passed.play_null();
        assert_eq!(captures(&hanging), 0, "{}: the mover has a capture", self.0);
        assert!(captures(&passed) > 0, "{}: nothing is en prise", self.0);
        assert!(!is_quiet(&mut engine, &hanging, Quiet::default()), "{}: kept", self.0);
        let calm: P = rules.from_lfen(self.1).unwrap();
        let mut passed = calm.clone();
        passed.play_null();
        assert_eq!(captures(&calm) + captures(&passed), 0, "{}: not calm", self.1);
        assert!(is_quiet(&mut engine, &calm, Quiet::default()), "{}: dropped", self.1);
    }
}

#[test]
fn the_quiet_filter_drops_a_piece_en_prise_in_each_family() {
    // fide: the queen on d4 is attacked by the knight on f5.
    Variant::Fide.with(EnPrise(
        "4k3/8/8/5n2/3Q4/8/8/4K3 w - - 0 1",
        "4k3/8/8/5n2/8/1Q6/8/4K3 w - - 0 1",
        Variant::Fide,
    ));
    // Nardeshir (three levels): a rook on the middle level attacked by a knight (and a pawn, so
    // that Malka's scale for a lone rook, which cannot mate there, does not shrink the loss).
    let (k0, k2) = ("8/8/8/8/8/8/P7/4K3", "4k3/8/8/8/8/8/8/8");
    let hanging: &'static str = Box::leak(format!("{k0}|8/8/8/5n2/3R4/8/8/8|{k2} w - - 0 1").into_boxed_str());
    let calm: &'static str = Box::leak(format!("{k0}|8/8/8/5n2/8/8/8/R7|{k2} w - - 0 1").into_boxed_str());
    Variant::Malka.with(EnPrise(hanging, calm, Variant::Malka));
    Variant::Traditional.with(EnPrise(hanging, calm, Variant::Traditional));
    // Air Attack (two levels, transfers).
    Variant::AirAttack.with(EnPrise(
        "4k3/8/8/5n2/3R4/8/8/4K3|8/8/8/8/8/8/8/8 w - - 0 1",
        "4k3/8/8/5n2/8/8/8/R3K3|8/8/8/8/8/8/8/8 w - - 0 1",
        Variant::AirAttack,
    ));
}

fn tempdir(name: &str) -> std::path::PathBuf {
    let d = std::env::temp_dir().join(format!("stackchess-datagen-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

fn small() -> Settings {
    Settings { games: 6, nodes: 150, per_game: 3, label_nodes: 400, max_plies: 80, batch: 2, ..Settings::default() }
}

struct Gen<'a>(&'a Path, Settings, &'a AtomicBool);
impl WithPosition for Gen<'_> {
    type Output = Result<stackchess_datagen::Summary, Error>;
    fn call<P: Position>(self, rules: P::Rules) -> Self::Output {
        generate::<P>(rules, &preset(Variant::Fide), &self.1, self.0, "test", self.2, &mut NoHook)
    }
}

/// Stops the run once the file has one committed batch.
struct StopAfterBatch<'a>(&'a AtomicBool);
impl stackchess_datagen::Hook for StopAfterBatch<'_> {
    fn committed(&mut self, _games: u64, _positions: u64) {
        self.0.store(true, Ordering::Relaxed);
    }
}

struct GenHooked<'a>(&'a Path, Settings, &'a AtomicBool);
impl WithPosition for GenHooked<'_> {
    type Output = Result<stackchess_datagen::Summary, Error>;
    fn call<P: Position>(self, rules: P::Rules) -> Self::Output {
        generate::<P>(rules, &preset(Variant::Fide), &self.1, self.0, "test", self.2, &mut StopAfterBatch(self.2))
    }
}

#[test]
fn a_run_is_deterministic_thread_independent_and_resumes_to_the_same_file() {
    let dir = tempdir("run");
    let go = AtomicBool::new(false);
    let one = dir.join("one.data");
    let s = Variant::Fide.with(Gen(&one, Settings { threads: 1, ..small() }, &go)).unwrap();
    assert_eq!(s.games, 6);
    assert!(s.positions > 6, "{s:?}");
    let two = dir.join("two.data");
    Variant::Fide.with(Gen(&two, Settings { threads: 2, ..small() }, &go)).unwrap();
    assert_eq!(std::fs::read(&one).unwrap(), std::fs::read(&two).unwrap());
    // Every position is distinct, quiet by the filter, and within its game's plies.
    let data = DataReader::open(&one).unwrap().read_all().unwrap();
    let mut hashes: Vec<u64> = data.records.iter().map(|r| r.hash).collect();
    hashes.sort_unstable();
    hashes.dedup();
    assert_eq!(hashes.len(), data.records.len());
    assert!(data.records.iter().all(|r| r.score.abs() < 32_000));
    // Interrupted after the first batch, then resumed: the same file.
    let cut = dir.join("cut.data");
    let stop = AtomicBool::new(false);
    let e = Variant::Fide.with(GenHooked(&cut, Settings { threads: 2, ..small() }, &stop)).unwrap_err();
    assert!(matches!(e, Error::Interrupted { done: 2, games: 6 }), "{e}");
    let resumed = Variant::Fide.with(Gen(&cut, Settings { threads: 1, ..small() }, &go)).unwrap();
    assert_eq!(resumed.played, 4);
    assert_eq!(std::fs::read(&one).unwrap(), std::fs::read(&cut).unwrap());
    // A run of four games extended to six: the same file.
    let grown = dir.join("grown.data");
    Variant::Fide.with(Gen(&grown, Settings { games: 4, ..small() }, &go)).unwrap();
    Variant::Fide.with(Gen(&grown, small(), &go)).unwrap();
    assert_eq!(std::fs::read(&one).unwrap(), std::fs::read(&grown).unwrap());
    let e = Variant::Fide.with(Gen(&grown, Settings { games: 2, ..small() }, &go)).unwrap_err();
    assert!(e.to_string().contains("holds 6 games, more than the 2"), "{e}");
    // A resume with other settings is refused.
    let e = Variant::Fide.with(Gen(&cut, Settings { nodes: 151, ..small() }, &go)).unwrap_err();
    assert!(e.to_string().contains("other settings"), "{e}");
    // Shards: the two halves merged hold the whole run's positions.
    let (s0, s1) = (dir.join("s0.data"), dir.join("s1.data"));
    for (i, p) in [(0, &s0), (1, &s1)] {
        let shard = stackchess_selfplay::Shard::new(i, 2).unwrap();
        Variant::Fide.with(Gen(p, Settings { shard, ..small() }, &go)).unwrap();
    }
    let merged = dir.join("merged.data");
    stackchess_datagen::merge(&[&s0, &s1], &merged, "test").unwrap();
    let mut whole: Vec<u64> = data.records.iter().map(|r| r.hash).collect();
    let mut parts: Vec<u64> =
        DataReader::open(&merged).unwrap().read_all().unwrap().records.iter().map(|r| r.hash).collect();
    whole.sort_unstable();
    parts.sort_unstable();
    assert_eq!(whole, parts);
}
