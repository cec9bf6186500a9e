//! Writing a file whole.
//!
//! [`write`] and [`write_with`] replace a file so that a reader sees the old contents or the new,
//! never part of them: the bytes go to a temporary file beside the target, are synced, and the
//! temporary file is renamed over the target. Two kinds of path are treated otherwise:
//!
//! - a path that is not a regular file (a character device such as `/dev/null` or `/dev/stdout`,
//!   a named pipe) is written in place: renaming over it would replace the device with a regular
//!   file (run as root, `--out /dev/null` would have broken the machine's `/dev/null`);
//! - a symbolic link is followed, so the file it points to is replaced and the link stays.
//!
//! A directory is refused. On a failed write the temporary file is removed and the target is as
//! it was.

use std::fs::{File, OpenOptions};
use std::io::{self, BufWriter, Write};
use std::path::{Path, PathBuf};

/// Writes `bytes` to `path` whole (see the crate's documentation).
///
/// # Errors
/// Whatever the file system reports; a directory at `path`.
pub fn write(path: &Path, bytes: impl AsRef<[u8]>) -> io::Result<()> {
    write_with(path, |w| w.write_all(bytes.as_ref()))
}

/// Writes to `path` whole what `fill` writes into the writer it is given (buffered).
///
/// # Errors
/// Whatever `fill` or the file system reports; a directory at `path`.
pub fn write_with(path: &Path, fill: impl FnOnce(&mut dyn Write) -> io::Result<()>) -> io::Result<()> {
    match Target::of(path)? {
        Target::InPlace => {
            let mut w = BufWriter::new(OpenOptions::new().write(true).open(path)?);
            fill(&mut w)?;
            w.flush()
        }
        Target::Replace(path) => replace(&path, fill),
    }
}

/// How a path is written.
enum Target {
    /// Not a regular file: opened and written.
    InPlace,
    /// A regular file (or none yet), links resolved: written aside, then renamed.
    Replace(PathBuf),
}

impl Target {
    fn of(path: &Path) -> io::Result<Target> {
        match std::fs::metadata(path) {
            Ok(m) if m.is_dir() => Err(io::Error::new(io::ErrorKind::IsADirectory, "is a directory")),
            Ok(m) if !m.is_file() => Ok(Target::InPlace),
            Ok(_) => Ok(Target::Replace(std::fs::canonicalize(path)?)),
            Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(Target::Replace(path.to_owned())),
            Err(e) => Err(e),
        }
    }
}

fn replace(path: &Path, fill: impl FnOnce(&mut dyn Write) -> io::Result<()>) -> io::Result<()> {
    let tmp = aside(path);
    let written = (|| {
        let mut w = BufWriter::new(File::create(&tmp)?);
        fill(&mut w)?;
        w.into_inner().map_err(io::IntoInnerError::into_error)?.sync_all()?;
        std::fs::rename(&tmp, path)
    })();
    if written.is_err() {
        let _ = std::fs::remove_file(&tmp);
    }
    written
}

/// Whether `name` is the name of a temporary file of [`write`] or [`write_with`] (one a kill left
/// behind, say).
#[must_use]
pub fn is_temporary(name: &std::ffi::OsStr) -> bool {
    let name = name.to_string_lossy();
    name.starts_with('.') && name.ends_with(".tmp")
}

/// The temporary file beside `path`: `.NAME.PID.tmp`, hidden and unique to this process.
fn aside(path: &Path) -> PathBuf {
    let mut name = std::ffi::OsString::from(".");
    name.push(path.file_name().unwrap_or_default());
    name.push(format!(".{}.tmp", std::process::id()));
    path.with_file_name(name)
}
