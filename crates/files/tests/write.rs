//! The whole-file writer on regular files, links, pipes and directories.
//!
//! A named pipe stands for every path that is not a regular file (a device such as `/dev/null`
//! takes the same branch): a test writing to `/dev/null` itself would, were the writer to
//! regress, replace the machine's `/dev/null` when run as root.

use std::path::Path;

fn leftovers(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> =
        std::fs::read_dir(dir).unwrap().map(|e| e.unwrap().file_name().to_string_lossy().into_owned()).collect();
    names.sort();
    names
}

#[test]
fn a_new_file_and_a_replaced_one_hold_exactly_the_bytes_and_nothing_is_left_aside() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("out.txt");
    stackchess_files::write(&path, "first, and longer\n").unwrap();
    assert_eq!(std::fs::read_to_string(&path).unwrap(), "first, and longer\n");
    stackchess_files::write(&path, b"second\n").unwrap();
    assert_eq!(std::fs::read_to_string(&path).unwrap(), "second\n");
    assert_eq!(leftovers(dir.path()), ["out.txt"]);
}

#[test]
fn a_failed_fill_leaves_the_old_file_and_no_temporary_one() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("out.txt");
    std::fs::write(&path, "old\n").unwrap();
    let err = stackchess_files::write_with(&path, |w| {
        w.write_all(b"half of the new")?;
        Err(std::io::Error::other("the writer gave up"))
    })
    .unwrap_err();
    assert_eq!(err.to_string(), "the writer gave up");
    assert_eq!(std::fs::read_to_string(&path).unwrap(), "old\n");
    assert_eq!(leftovers(dir.path()), ["out.txt"]);
}

#[test]
fn the_temporary_file_is_recognised_by_its_name_while_it_is_written() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("out.txt");
    stackchess_files::write_with(&path, |_| {
        let names = leftovers(dir.path());
        assert_eq!(names.len(), 1, "{names:?}");
        assert!(stackchess_files::is_temporary(names[0].as_ref()), "{names:?}");
        Ok(())
    })
    .unwrap();
    assert!(!stackchess_files::is_temporary("out.txt".as_ref()));
    assert!(!stackchess_files::is_temporary("out.tmp".as_ref()), "a user's own .tmp file");
}

#[cfg(unix)]
#[test]
fn a_symbolic_link_is_followed_and_kept() {
    let dir = tempfile::tempdir().unwrap();
    let target = dir.path().join("target.txt");
    let link = dir.path().join("link.txt");
    std::fs::write(&target, "old\n").unwrap();
    std::os::unix::fs::symlink(&target, &link).unwrap();
    stackchess_files::write(&link, "new\n").unwrap();
    assert!(std::fs::symlink_metadata(&link).unwrap().file_type().is_symlink());
    assert_eq!(std::fs::read_to_string(&target).unwrap(), "new\n");
}

#[cfg(unix)]
#[test]
fn a_named_pipe_is_written_in_place_and_its_reader_gets_the_bytes() {
    use std::os::unix::fs::FileTypeExt;
    let dir = tempfile::tempdir().unwrap();
    let fifo = dir.path().join("pipe");
    let made = std::process::Command::new("mkfifo").arg(&fifo).status().unwrap();
    assert!(made.success(), "mkfifo");
    let reader = {
        let fifo = fifo.clone();
        std::thread::spawn(move || std::fs::read_to_string(fifo).unwrap())
    };
    stackchess_files::write(&fifo, "through the pipe\n").unwrap();
    assert_eq!(reader.join().unwrap(), "through the pipe\n");
    assert!(std::fs::metadata(&fifo).unwrap().file_type().is_fifo(), "the pipe is still a pipe");
}

#[test]
fn a_directory_is_refused_and_left_alone() {
    let dir = tempfile::tempdir().unwrap();
    let err = stackchess_files::write(dir.path(), "x").unwrap_err();
    assert_eq!(err.kind(), std::io::ErrorKind::IsADirectory);
    assert!(leftovers(dir.path()).is_empty());
}
