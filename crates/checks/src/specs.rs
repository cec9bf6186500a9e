//! Short specs on the command line: time controls and shards.

use stackchess_selfplay::{Shard, TimeControl};

/// A time control (`--tc`, `tc=` in engine specs): one that is read writes back (`Display`, the
/// PGN tag) a text that reads as the same time control.
pub fn time_control(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else { return };
    if let Ok(tc) = text.parse::<TimeControl>() {
        let written = tc.to_string();
        assert_eq!(written.parse::<TimeControl>(), Ok(tc), "'{text}' writes back as '{written}', read otherwise");
    }
}

/// A shard (`--shard I/N`): one that is read writes back a text that reads as the same shard.
pub fn shard(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else { return };
    if let Ok(s) = text.parse::<Shard>() {
        let written = s.to_string();
        assert_eq!(written.parse::<Shard>().ok(), Some(s), "'{text}' writes back as '{written}', read otherwise");
    }
}
