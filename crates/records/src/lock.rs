//! The lock of a run directory: `run.lock`, held for as long as a process writes the run.
//!
//! The lock is the kernel's (`flock` through [`File::try_lock`]), not the file's existence: it is
//! released when its holder ends in any way, `kill -9` included, so a lock left by a killed
//! process is free and the next run takes it over by itself; a process id written into a file
//! would need a liveness check, and ids are reused. The file stays behind, naming the last holder
//! (its process id and start time), which the refusal quotes. It is never removed: removing it
//! would let two processes lock two different files of the same name.

use crate::Error;
use std::fs::{File, OpenOptions, TryLockError};
use std::io::{Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};
use std::time::{SystemTime, UNIX_EPOCH};

/// The lock file of a run directory.
pub const RUN_LOCK: &str = "run.lock";

/// A run directory held by this process until dropped.
#[derive(Debug)]
pub struct RunLock {
    path: PathBuf,
    // Holding the open file holds the lock; closing it (drop, or the process ending) releases it.
    _file: File,
}

impl RunLock {
    /// Takes the lock of `dir` (which must exist), or says who holds it.
    ///
    /// # Errors
    /// [`Error::Locked`] when another process holds it (or another handle of this one); an I/O
    /// error naming the lock file.
    pub fn acquire(dir: &Path) -> Result<RunLock, Error> {
        let path = dir.join(RUN_LOCK);
        let io = |e| Error::io(&path, e);
        let mut file =
            OpenOptions::new().read(true).write(true).create(true).truncate(false).open(&path).map_err(io)?;
        match file.try_lock() {
            Ok(()) => {}
            Err(TryLockError::WouldBlock) => {
                let mut holder = String::new();
                let _ = file.read_to_string(&mut holder);
                let holder = holder.trim();
                let holder = if holder.is_empty() { "a process that has not yet said who it is" } else { holder };
                return Err(Error::Locked { dir: dir.to_owned(), path, holder: holder.to_owned() });
            }
            Err(TryLockError::Error(e)) => return Err(io(e)),
        }
        let since = SystemTime::now().duration_since(UNIX_EPOCH).map_or(0, |d| d.as_secs());
        let me = format!("process {} (started at Unix time {since})\n", std::process::id());
        file.set_len(0).map_err(io)?;
        file.seek(SeekFrom::Start(0)).map_err(io)?;
        file.write_all(me.as_bytes()).map_err(io)?;
        Ok(RunLock { path, _file: file })
    }

    /// The lock file.
    #[must_use]
    pub fn path(&self) -> &Path {
        &self.path
    }
}

/// Whether a directory entry is the lock file (which does not make a run directory non-empty).
#[must_use]
pub fn is_lock_file(name: &std::ffi::OsStr) -> bool {
    name == RUN_LOCK
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tmp(name: &str) -> PathBuf {
        let d = std::env::temp_dir().join(format!("stackchess-records-lock-{}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&d);
        std::fs::create_dir_all(&d).unwrap();
        d
    }

    #[test]
    fn a_held_lock_refuses_a_second_holder_naming_the_first_and_is_free_once_dropped() {
        let dir = tmp("held");
        let first = RunLock::acquire(&dir).unwrap();
        let e = RunLock::acquire(&dir).unwrap_err().to_string();
        assert!(e.contains(&format!("process {}", std::process::id())), "{e}");
        assert!(e.contains("run.lock") && e.contains("in use"), "{e}");
        drop(first);
        let again = RunLock::acquire(&dir).unwrap();
        assert_eq!(again.path(), dir.join(RUN_LOCK));
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn a_lock_file_left_behind_without_a_holder_is_taken_over() {
        let dir = tmp("stale");
        std::fs::write(dir.join(RUN_LOCK), "process 999999999 (started at Unix time 0)\n").unwrap();
        let lock = RunLock::acquire(&dir).unwrap();
        let text = std::fs::read_to_string(lock.path()).unwrap();
        assert_eq!(text, format!("process {} ", std::process::id()) + &text[text.find('(').unwrap()..]);
        let _ = std::fs::remove_dir_all(&dir);
    }
}
