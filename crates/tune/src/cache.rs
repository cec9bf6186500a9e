//! Tuned parameters kept for reuse, keyed by the rule set's id (which changes whenever its
//! effective rules do), the prior and the tuning settings: `DIR/<key>.params`, the data that
//! produced them in `DIR/<key>.data`.

use stackchess_search::{EvalParams, ParamError};
use std::path::{Path, PathBuf};

/// A directory of tuned parameter files.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Cache {
    dir: PathBuf,
}

/// A cache entry that could not be read or written.
#[derive(Debug, thiserror::Error)]
pub enum CacheError {
    /// Reading or writing failed.
    #[error("tuning cache {}: {message}", path.display())]
    Io {
        /// The file.
        path: PathBuf,
        /// What failed.
        message: String,
    },
    /// The entry is not a parameter file.
    #[error("tuning cache {}: {source} (remove the file to tune again)", path.display())]
    Damaged {
        /// The file.
        path: PathBuf,
        /// What is wrong.
        source: ParamError,
    },
}

impl Cache {
    /// The cache in `dir`.
    #[must_use]
    pub fn new(dir: impl Into<PathBuf>) -> Cache {
        Cache { dir: dir.into() }
    }

    /// The directory.
    #[must_use]
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// The key of tuning the rule set `rules_id` from the prior `start` with the settings
    /// described by `settings` ([`crate::Settings::describe`]): `<rules_id>-<16 hex digits of
    /// both>`.
    #[must_use]
    pub fn key(rules_id: &str, start: &EvalParams, settings: &str) -> String {
        let text = format!("{}\n{}", start.describe(), settings);
        let h = text.bytes().fold(0xcbf2_9ce4_8422_2325u64, |h, b| (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3));
        format!("{rules_id}-{h:016x}")
    }

    /// The parameter file of `key`.
    #[must_use]
    pub fn path(&self, key: &str) -> PathBuf {
        self.dir.join(format!("{key}.params"))
    }

    /// Where the data of `key` is made.
    #[must_use]
    pub fn data_path(&self, key: &str) -> PathBuf {
        self.dir.join(format!("{key}.data"))
    }

    /// The cached parameters of `key`, if there are any.
    ///
    /// # Errors
    /// An unreadable or damaged entry.
    pub fn get(&self, key: &str) -> Result<Option<EvalParams>, CacheError> {
        let path = self.path(key);
        if !path.exists() {
            return Ok(None);
        }
        let text = std::fs::read_to_string(&path)
            .map_err(|e| CacheError::Io { path: path.clone(), message: e.to_string() })?;
        EvalParams::parse(&text).map(Some).map_err(|source| CacheError::Damaged { path, source })
    }

    /// Stores `text` (a parameter file) as the entry of `key`: written aside, then renamed, so an
    /// entry is whole or absent.
    ///
    /// # Errors
    /// An I/O error.
    pub fn put(&self, key: &str, text: &str) -> Result<PathBuf, CacheError> {
        let path = self.path(key);
        let io = |e: std::io::Error, p: &Path| CacheError::Io { path: p.to_owned(), message: e.to_string() };
        std::fs::create_dir_all(&self.dir).map_err(|e| io(e, &self.dir))?;
        stackchess_files::write(&path, text).map_err(|e| io(e, &path))?;
        Ok(path)
    }
}

/// `$XDG_CACHE_HOME/stackchess/<kind>`, else `$HOME/.cache/stackchess/<kind>`: where the user's
/// cached runs of one kind (`tuned`, `nnue`) live; `None` when neither variable is set.
#[must_use]
pub fn user_dir(kind: &str) -> Option<PathBuf> {
    let xdg = std::env::var_os("XDG_CACHE_HOME").filter(|v| !v.is_empty()).map(PathBuf::from);
    let base = xdg.or_else(|| std::env::var_os("HOME").filter(|v| !v.is_empty()).map(|h| Path::new(&h).join(".cache")));
    base.map(|b| b.join("stackchess").join(kind))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_follow_rules_start_and_settings() {
        let (p, c) = (EvalParams::default(), stackchess_search::SearchConfig::default());
        let s = crate::Settings::default();
        let k = Cache::key("0123456789abcdef", &p, &s.describe(&c));
        assert!(k.starts_with("0123456789abcdef-") && k.len() == 33, "{k}");
        assert_eq!(k, Cache::key("0123456789abcdef", &p, &s.describe(&c)));
        assert_ne!(k, Cache::key("0123456789abcdee", &p, &s.describe(&c)));
        assert_ne!(k, Cache::key("0123456789abcdef", &EvalParams { tempo: 1, ..p.clone() }, &s.describe(&c)));
        let mut other = s.clone();
        other.data.games = 7;
        assert_ne!(k, Cache::key("0123456789abcdef", &p, &other.describe(&c)));
        // The thread count does not change the result, so it is not in the key.
        let mut threads = s.clone();
        threads.fit.threads = 7;
        threads.data.threads = 7;
        assert_eq!(k, Cache::key("0123456789abcdef", &p, &threads.describe(&c)));
    }

    #[test]
    fn entries_are_stored_read_and_damage_is_named() {
        let dir = std::env::temp_dir().join(format!("stackchess-tune-cache-{}", std::process::id()));
        let cache = Cache::new(&dir);
        assert!(cache.get("k").unwrap().is_none());
        let p = EvalParams { tempo: 23, ..EvalParams::default() };
        cache.put("k", &format!("# tuned\n{}", p.to_file())).unwrap();
        assert_eq!(cache.get("k").unwrap(), Some(p));
        std::fs::write(cache.path("k"), "format = 2\ntempo = 3\n").unwrap();
        let e = cache.get("k").unwrap_err().to_string();
        assert!(e.contains("k.params") && e.contains("line 3"), "{e}");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
