//! What a write does to what is already at its output path, and what it leaves after an
//! error or an interruption.

use std::fs;
use std::io::{BufRead, BufReader, Write};
use std::os::unix::fs::{FileTypeExt, MetadataExt, PermissionsExt};
use std::os::unix::process::ExitStatusExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

mod support;
use support::{mkfifo, names};
use tabiya_io::{AtomicFile, Overwrite, Refusal, check_output, write_atomic};

#[test]
fn dev_null_stays_a_character_device() {
    check_output(Path::new("/dev/null"), Overwrite::default(), &[]).unwrap();
    write_atomic("/dev/null", b"nothing").unwrap();
    assert!(fs::metadata("/dev/null").unwrap().file_type().is_char_device());
}

#[test]
fn a_fifo_output_is_written_through() {
    let dir = tempfile::tempdir().unwrap();
    let fifo = dir.path().join("out.pgn");
    mkfifo(&fifo);
    let reader = {
        let fifo = fifo.clone();
        std::thread::spawn(move || fs::read(fifo).unwrap())
    };
    check_output(&fifo, Overwrite::default(), &[]).unwrap();
    write_atomic(&fifo, b"1. e4 *\n").unwrap();
    assert_eq!(reader.join().unwrap(), b"1. e4 *\n");
    assert!(fs::symlink_metadata(&fifo).unwrap().file_type().is_fifo());
    assert_eq!(names(dir.path()), ["out.pgn"]);
}

#[test]
fn a_symlink_output_is_written_through_to_its_target() {
    let dir = tempfile::tempdir().unwrap();
    let target = dir.path().join("real.bin");
    let link = dir.path().join("link.bin");
    fs::write(&target, b"old").unwrap();
    std::os::unix::fs::symlink("real.bin", &link).unwrap();
    write_atomic(&link, b"new").unwrap();
    assert!(fs::symlink_metadata(&link).unwrap().file_type().is_symlink(), "the link stays");
    assert_eq!(fs::read(&target).unwrap(), b"new");
    // A dangling link creates its target.
    let dangling = dir.path().join("dangling.bin");
    std::os::unix::fs::symlink("made.bin", &dangling).unwrap();
    write_atomic(&dangling, b"made").unwrap();
    assert_eq!(fs::read(dir.path().join("made.bin")).unwrap(), b"made");
    assert_eq!(names(dir.path()), ["dangling.bin", "link.bin", "made.bin", "real.bin"]);
}

#[test]
fn a_replaced_file_keeps_its_mode_and_owner() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("games.sg4");
    fs::write(&path, b"old").unwrap();
    fs::set_permissions(&path, fs::Permissions::from_mode(0o600)).unwrap();
    // SAFETY: geteuid has no preconditions.
    let root = unsafe { libc::geteuid() } == 0;
    if root {
        std::os::unix::fs::chown(&path, Some(1234), Some(5678)).unwrap();
    }
    write_atomic(&path, b"new").unwrap();
    let meta = fs::metadata(&path).unwrap();
    assert_eq!(meta.permissions().mode() & 0o7777, 0o600);
    if root {
        assert_eq!((meta.uid(), meta.gid()), (1234, 5678));
    }
}

#[test]
fn an_existing_output_is_refused_unless_forced_or_updated() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("book.bin");
    let forced = Overwrite { force: true, update: false };
    let update = Overwrite { force: false, update: true };
    check_output(&path, Overwrite::default(), &[]).unwrap();
    fs::write(&path, b"827 games").unwrap();
    assert!(matches!(check_output(&path, Overwrite::default(), &[]), Err(Refusal::Exists(_))));
    check_output(&path, forced, &[]).unwrap();
    check_output(&path, update, &[]).unwrap();
    fs::set_permissions(&path, fs::Permissions::from_mode(0o444)).unwrap();
    assert!(matches!(check_output(&path, Overwrite::default(), &[]), Err(Refusal::ReadOnly(_))));
    assert!(matches!(check_output(&path, update, &[]), Err(Refusal::ReadOnly(_))));
    check_output(&path, forced, &[]).unwrap();
    // Forced, the read-only file is replaced and stays read-only.
    write_atomic(&path, b"5 games").unwrap();
    assert_eq!(fs::read(&path).unwrap(), b"5 games");
    assert_eq!(fs::metadata(&path).unwrap().permissions().mode() & 0o777, 0o444);
}

#[test]
fn an_output_that_is_an_input_is_refused_unless_updated() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("games.pgn");
    let link = dir.path().join("alias.pgn");
    fs::write(&path, b"1. e4 *").unwrap();
    std::os::unix::fs::symlink(&path, &link).unwrap();
    let inputs = [PathBuf::from(&link)];
    let forced = Overwrite { force: true, update: false };
    assert!(matches!(check_output(&path, forced, &inputs), Err(Refusal::IsInput { .. })));
    check_output(&path, Overwrite { force: false, update: true }, &inputs).unwrap();
}

#[test]
fn a_directory_output_is_refused_and_leaves_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("dirout");
    fs::create_dir(&out).unwrap();
    assert!(matches!(check_output(&out, Overwrite::default(), &[]), Err(Refusal::Directory(_))));
    assert!(AtomicFile::create(&out).is_err());
    assert_eq!(names(dir.path()), ["dirout"]);
    // A commit that fails (the target became a directory meanwhile) removes its temporary.
    let later = dir.path().join("later");
    let mut file = AtomicFile::create(&later).unwrap();
    file.write_all(b"bytes").unwrap();
    fs::create_dir_all(later.join("inside")).unwrap();
    assert!(file.commit().is_err());
    assert_eq!(names(dir.path()), ["dirout", "later"]);
}

/// The child of the signal test: starts writing, says so, waits to be interrupted.
#[test]
#[ignore = "run by the test below as a child process"]
fn child_interrupted_while_writing() {
    let dir = PathBuf::from(std::env::var_os("TABIYA_TEST_DIR").expect("run as a child"));
    tabiya_io::cleanup::install_signal_handlers();
    let _lock = tabiya_io::WriteLock::acquire(&dir.join("games"), || {}).unwrap();
    let mut file = AtomicFile::create(dir.join("games.sg4")).unwrap();
    file.write_all(b"half").unwrap();
    file.flush().unwrap();
    println!("writing");
    std::io::stdout().flush().unwrap();
    loop {
        std::thread::park();
    }
}

#[test]
fn an_interrupted_write_removes_its_temporaries_and_dies_of_the_signal() {
    for signal in [libc::SIGINT, libc::SIGTERM, libc::SIGHUP] {
        let dir = tempfile::tempdir().unwrap();
        fs::write(dir.path().join("games.sg4"), b"old").unwrap();
        let mut child = Command::new(std::env::current_exe().unwrap())
            .args(["--ignored", "--exact", "child_interrupted_while_writing", "--nocapture", "--test-threads=1"])
            .env("TABIYA_TEST_DIR", dir.path())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        let mut lines = BufReader::new(child.stdout.take().unwrap()).lines();
        assert!(lines.any(|l| l.unwrap().contains("writing")));
        assert!(names(dir.path()).len() > 1, "a temporary and the lock exist while writing");
        // SAFETY: signals our own child.
        unsafe { libc::kill(child.id() as libc::pid_t, signal) };
        let status = child.wait().unwrap();
        assert_eq!(status.signal(), Some(signal));
        assert_eq!(names(dir.path()), ["games.sg4"], "signal {signal}");
        assert_eq!(fs::read(dir.path().join("games.sg4")).unwrap(), b"old");
    }
}
