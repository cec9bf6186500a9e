//! Short specs on the command line and in the engine protocol: time controls, shards, engine
//! specs and UCI commands.

use stackchess_core::Color;
use stackchess_selfplay::{spec, Shard, TimeControl};
use stackchess_uci::grammar::Command;
use std::time::Duration;

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

/// An `--engine` spec: one that is read writes back (`Display`) a spec that reads as the same
/// engine; one that is refused names itself (`--engine <spec>`) in the message.
pub fn engine_spec(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else { return };
    match spec::parse(text) {
        Ok(def) => {
            let written = def.to_string();
            assert_eq!(spec::parse(&written).as_ref(), Ok(&def), "'{text}' writes back as '{written}', read otherwise");
        }
        Err(e) => assert!(e.to_string().starts_with(&format!("--engine {text}")), "'{text}': {e}"),
    }
}

/// Lines of UCI commands (`stackchess engine`'s input): every line that is read writes back as a
/// line read as the same command, and a `go` gives limits whose clock never lets a search spend
/// more than the mover has, for either side and any overhead.
pub fn uci(data: &[u8]) {
    let text = String::from_utf8_lossy(data);
    let overhead = Duration::from_millis(u64::from(data.first().copied().unwrap_or(0)) * 40);
    for line in text.split('\n') {
        let Ok(command) = Command::parse(line) else { continue };
        let written = command.to_string();
        assert_eq!(
            Command::parse(&written).as_ref(),
            Ok(&command),
            "'{line}' writes back as '{written}', read otherwise"
        );
        if let Command::Go(go) = &command {
            for turn in [Color::White, Color::Black] {
                if let Some(clock) = go.limits(turn, overhead).clock {
                    let b = clock.bounds();
                    assert!(b.soft <= b.hard && b.hard <= clock.remaining, "'{line}': {b:?} for {clock:?}");
                }
            }
        }
    }
}
