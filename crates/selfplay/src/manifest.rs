//! `manifest.json`: the settings of a run, so that `--resume` can refuse a run with other settings.

use crate::adjudication::Adjudication;
use crate::openings::fnv1a;
use crate::{Error, Shard};
use serde::{Deserialize, Serialize};
use std::path::Path;
use std::time::{SystemTime, UNIX_EPOCH};

/// One engine of a run, as recorded.
#[derive(Clone, PartialEq, Eq, Debug, Serialize, Deserialize)]
pub struct EngineEntry {
    /// `default`, `A` or `B`.
    pub label: String,
    /// Limits and search settings, one line.
    pub settings: String,
}

/// The settings that decide which games a run plays: the run key is their hash.
#[derive(Clone, PartialEq, Eq, Debug, Serialize, Deserialize)]
pub struct RunSettings {
    /// Variant name.
    pub variant: String,
    /// The rule set's id (docs/rule-files.md): a resume, a merge or an analysis that meets another
    /// id under the same name refuses to mix them. Empty in runs made before rule sets had ids.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub rules_id: String,
    /// Base seed.
    pub seed: u64,
    /// Openings: `start`, `random:K`, `file:PATH#HASH`, `book:PATH#HASH:K`.
    pub openings: String,
    /// Reject random openings whose short-search score is beyond this many centipawns.
    pub opening_max_cp: Option<i32>,
    /// Limits of that short search.
    pub opening_check: Option<String>,
    /// Each opening played twice, colours swapped.
    pub paired: bool,
    /// Adjudication rules.
    pub adjudication: Adjudication,
    /// The engines: one for self-play, A and B for a match.
    pub engines: Vec<EngineEntry>,
    /// The time margin in milliseconds, when an engine plays on a clock (absent otherwise, so
    /// runs without clocks keep their keys).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub time_margin_ms: Option<u64>,
}

impl RunSettings {
    /// 16 hex digits of the FNV-1a hash of the settings' JSON.
    #[must_use]
    pub fn run_key(&self) -> String {
        let json = serde_json::to_string(self).unwrap_or_default();
        format!("{:016x}", fnv1a(json.as_bytes()))
    }

    /// The settings that differ from `new`, as `name: old -> new`.
    #[must_use]
    pub fn differences(&self, new: &RunSettings) -> Vec<String> {
        let (a, b) = (serde_json::to_value(self), serde_json::to_value(new));
        let (Ok(serde_json::Value::Object(a)), Ok(serde_json::Value::Object(b))) = (a, b) else {
            return vec!["settings".to_owned()];
        };
        a.iter().filter(|(k, v)| b.get(*k) != Some(v)).map(|(k, v)| format!("{k}: {v} -> {}", b[k])).collect()
    }
}

/// The manifest of a run.
#[derive(Clone, PartialEq, Eq, Debug, Serialize, Deserialize)]
pub struct Manifest {
    /// The program that wrote it.
    pub program: String,
    /// Its version.
    pub version: String,
    /// Hash of `settings`: the first part of every game id.
    pub run_key: String,
    /// The settings.
    pub settings: RunSettings,
    /// Games the run is to have (the latest `--games`).
    pub games: u64,
    /// The record files: `csv`, or `csv+parquet` when `games.parquet` is kept beside the journal
    /// `games.csv` (`stackchess selfplay --format parquet`).
    pub format: String,
    /// The shard of the run this directory holds (absent: the whole run).
    #[serde(default, skip_serializing_if = "is_whole")]
    pub shard: Shard,
    /// Start of the run, UTC, RFC 3339.
    pub started: String,
    /// Start of each session of the run (the first, then each resume) and its thread count.
    pub sessions: Vec<Session>,
}

#[allow(clippy::trivially_copy_pass_by_ref, reason = "serde's skip_serializing_if passes a reference")]
fn is_whole(shard: &Shard) -> bool {
    shard.is_whole()
}

/// One invocation that played games of a run.
#[derive(Clone, PartialEq, Eq, Debug, Serialize, Deserialize)]
pub struct Session {
    /// Start, UTC, RFC 3339.
    pub started: String,
    /// Worker threads.
    pub threads: usize,
    /// Program version.
    pub version: String,
}

impl Manifest {
    /// Reads a manifest.
    ///
    /// # Errors
    /// When the file is missing or is not a manifest.
    pub fn read(path: &Path) -> Result<Manifest, Error> {
        let text = std::fs::read_to_string(path).map_err(|e| Error::io(path, e))?;
        serde_json::from_str(&text).map_err(|e| Error::Manifest { path: path.to_owned(), message: e.to_string() })
    }
    /// Writes the manifest, whole (`stackchess_files::write`).
    ///
    /// # Errors
    /// On an I/O error.
    pub fn write(&self, path: &Path) -> Result<(), Error> {
        let text = serde_json::to_string_pretty(self)
            .map_err(|e| Error::Manifest { path: path.to_owned(), message: e.to_string() })?;
        stackchess_files::write(path, text + "\n").map_err(|e| Error::io(path, e))
    }
}

/// The current time, UTC, as `YYYY-MM-DDThh:mm:ssZ`.
#[must_use]
pub fn now_utc() -> String {
    let secs = SystemTime::now().duration_since(UNIX_EPOCH).map_or(0, |d| d.as_secs());
    rfc3339(secs)
}

/// Today's date, UTC, as PGN writes dates: `YYYY.MM.DD`.
#[must_use]
pub fn pgn_date_now() -> String {
    let secs = SystemTime::now().duration_since(UNIX_EPOCH).map_or(0, |d| d.as_secs());
    pgn_date(secs)
}

/// A Unix time's UTC date as `YYYY.MM.DD`.
fn pgn_date(secs: u64) -> String {
    rfc3339(secs)[..10].replace('-', ".")
}

/// A Unix time as RFC 3339 (days to civil date by Howard Hinnant's algorithm).
fn rfc3339(secs: u64) -> String {
    let days = i64::try_from(secs / 86_400).unwrap_or(0);
    let rem = secs % 86_400;
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    format!("{year:04}-{month:02}-{day:02}T{:02}:{:02}:{:02}Z", rem / 3600, rem % 3600 / 60, rem % 60)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates_convert() {
        assert_eq!(rfc3339(0), "1970-01-01T00:00:00Z");
        assert_eq!(rfc3339(951_782_400), "2000-02-29T00:00:00Z");
        assert_eq!(rfc3339(1_700_000_000), "2023-11-14T22:13:20Z");
        assert_eq!(pgn_date(1_700_000_000), "2023.11.14");
        assert_eq!(pgn_date(951_782_400), "2000.02.29");
    }

    #[test]
    fn run_key_depends_on_settings_and_differences_are_named() {
        let s = RunSettings {
            variant: "fide".into(),
            rules_id: String::new(),
            seed: 1,
            openings: "start".into(),
            opening_max_cp: None,
            opening_check: None,
            paired: false,
            adjudication: Adjudication::default(),
            engines: vec![EngineEntry { label: "default".into(), settings: "nodes=100".into() }],
            time_margin_ms: None,
        };
        let t = RunSettings { seed: 2, ..s.clone() };
        assert!(!serde_json::to_string(&s).unwrap().contains("time_margin"), "runs without clocks keep their keys");
        assert_ne!(s.run_key(), RunSettings { time_margin_ms: Some(50), ..s.clone() }.run_key());
        assert_eq!(s.run_key(), s.clone().run_key());
        assert_ne!(s.run_key(), t.run_key());
        assert_eq!(s.run_key().len(), 16);
        assert_eq!(s.differences(&t), vec!["seed: 1 -> 2".to_owned()]);
    }
}
