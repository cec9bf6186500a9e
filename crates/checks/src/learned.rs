//! Files of the learning pipeline that users pass around: data files (`stackchess datagen`) and
//! nets (`stackchess train`).

use crate::records::fresh;
use stackchess_core::Position;
use stackchess_datagen::{DataReader, DataWriter, Record};
use stackchess_nnue::{Features, Net};
use stackchess_variants::{Variant, WithPosition};
use std::path::Path;

/// A net file: one that is read writes back bytes that read as the same net; for a built-in rule
/// set whose id it names, it is accepted or refused for that rule set with an error, and an
/// accepted one evaluates the start position and every position one move on.
pub fn net(data: &[u8]) {
    let Ok(net) = Net::from_bytes(data, "fuzz.nnue") else { return };
    let again = Net::from_bytes(&net.to_bytes(), "again.nnue")
        .unwrap_or_else(|e| panic!("a net written from a net read is refused: {e}"));
    assert!(again == net, "the net changed through its file");
    if let Some(v) = Variant::ALL.iter().find(|v| v.rules_id() == net.rules_id) {
        v.with(NetCheck { bytes: data });
    }
}

struct NetCheck<'a> {
    bytes: &'a [u8],
}

impl WithPosition for NetCheck<'_> {
    type Output = ();
    fn call<P: Position>(self, rules: P::Rules) {
        use stackchess_core::Rules as _;
        let start = rules.startpos();
        let mut pieces = 0;
        start.for_each_piece(|_, _| pieces += 1);
        let Ok(net) = Net::for_rules(self.bytes, "fuzz.nnue", rules.id(), P::LEVELS, pieces) else { return };
        let features = Features::of::<P>(rules);
        let mut positions = vec![start.clone()];
        for &m in &start.moves() {
            let mut child = start.clone();
            child.play_unchecked(m);
            positions.push(child);
        }
        for pos in &positions {
            let acc = net.refresh(&features, pos);
            let _ = net.evaluate(&acc, pos.turn() == stackchess_core::Color::White);
        }
    }
}

/// A data file: one that is read (header and every committed record) writes back, through the
/// writer `datagen` uses, a file that reads as the same data; for a built-in rule set whose id it
/// names, every record's position is a position of that rule set or refused with an error.
pub fn data(data: &[u8]) {
    let Ok(reader) = DataReader::from_bytes(data.to_vec(), Path::new("fuzz.data")) else { return };
    let Ok(file) = reader.read_all() else { return };
    let path = fresh("again.data");
    let mut w = DataWriter::create(&path, &file.header).unwrap_or_else(|e| panic!("writing the data back: {e}"));
    w.commit(&file.records, file.games).unwrap_or_else(|e| panic!("writing the data back: {e}"));
    drop(w);
    let again = DataReader::open(&path)
        .and_then(DataReader::read_all)
        .unwrap_or_else(|e| panic!("a data file written from one read is refused: {e}"));
    let _ = std::fs::remove_file(&path);
    assert_eq!(again, file, "the data changed through its file");
    if let Some(v) = Variant::ALL.iter().find(|v| v.rules_id() == file.header.rules_id) {
        v.with(DataCheck { records: &file.records });
    }
}

struct DataCheck<'a> {
    records: &'a [Record],
}

impl WithPosition for DataCheck<'_> {
    type Output = ();
    fn call<P: Position>(self, rules: P::Rules) {
        use stackchess_core::Rules as _;
        for r in self.records {
            if let Ok(pos) = r.position.position::<P>(rules) {
                let lfen = pos.to_lfen();
                let back = rules.from_lfen(&lfen).unwrap_or_else(|e| panic!("{lfen} from a data file: {e}"));
                assert_eq!(back.to_lfen(), lfen, "a data file's position writes another LFEN");
            }
        }
    }
}
