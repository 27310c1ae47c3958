//! Outputs and inputs of the command line: nothing destroyed unasked, devices and links
//! respected, streams read whole, a reader that goes away ends the run quietly.

use std::fs;
use std::io::{BufRead, BufReader};
use std::os::unix::fs::{FileTypeExt, PermissionsExt};
use std::os::unix::process::ExitStatusExt;
use std::path::Path;
use std::process::{Command, Stdio};

const SAMPLE: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../samples/famous-games.pgn");

fn tabiya(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_tabiya")).args(args).output().expect("tabiya runs")
}

/// The book `tabiya book` makes of the sample file, written to a fresh path.
fn sample_book() -> Vec<u8> {
    let dir = tempfile::tempdir().unwrap();
    let book = dir.path().join("fresh.bin");
    let out = tabiya(&["-q", "book", SAMPLE, "-o", book.to_str().unwrap()]);
    assert!(out.status.success(), "{}", stderr(&out));
    fs::read(book).unwrap()
}

fn stderr(out: &std::process::Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

fn names(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> =
        fs::read_dir(dir).unwrap().map(|e| e.unwrap().file_name().into_string().unwrap()).collect();
    names.sort();
    names
}

fn mkfifo(path: &Path) {
    assert!(Command::new("mkfifo").arg(path).status().unwrap().success());
}

/// SIGPIPE's number on Linux.
const SIGPIPE: i32 = 13;

#[test]
fn an_existing_output_is_refused_without_force() {
    let dir = tempfile::tempdir().unwrap();
    let book = dir.path().join("book.bin");
    fs::write(&book, b"827 games").unwrap();
    let out = tabiya(&["-q", "book", SAMPLE, "-o", book.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(stderr(&out).contains("exists (use --force to replace it)"), "{}", stderr(&out));
    assert_eq!(fs::read(&book).unwrap(), b"827 games");
    let out = tabiya(&["-q", "book", SAMPLE, "-o", book.to_str().unwrap(), "--force"]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(fs::read(&book).unwrap() == sample_book());
    assert_eq!(names(dir.path()), ["book.bin"]);
}

#[test]
fn an_output_that_is_the_input_is_refused_even_with_force() {
    let dir = tempfile::tempdir().unwrap();
    let pgn = dir.path().join("games.pgn");
    fs::copy(SAMPLE, &pgn).unwrap();
    let out = tabiya(&["-q", "convert", pgn.to_str().unwrap(), "-o", pgn.to_str().unwrap(), "--force"]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(stderr(&out).contains("is also the input"), "{}", stderr(&out));
    assert_eq!(fs::read(&pgn).unwrap(), fs::read(SAMPLE).unwrap());
}

#[test]
fn dev_null_stays_a_device() {
    let out = tabiya(&["-q", "convert", SAMPLE, "-o", "/dev/null", "--to", "pgn"]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(fs::metadata("/dev/null").unwrap().file_type().is_char_device());
}

#[test]
fn a_linked_output_is_written_through_and_keeps_its_mode() {
    let dir = tempfile::tempdir().unwrap();
    let target = dir.path().join("real.bin");
    let link = dir.path().join("book.bin");
    fs::write(&target, b"old").unwrap();
    fs::set_permissions(&target, fs::Permissions::from_mode(0o600)).unwrap();
    std::os::unix::fs::symlink(&target, &link).unwrap();
    let out = tabiya(&["-q", "--force", "book", SAMPLE, "-o", link.to_str().unwrap()]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(fs::symlink_metadata(&link).unwrap().file_type().is_symlink());
    assert!(fs::read(&target).unwrap() == sample_book());
    assert_eq!(fs::metadata(&target).unwrap().permissions().mode() & 0o777, 0o600);
}

#[test]
fn a_directory_output_is_refused_and_leaves_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let out_dir = dir.path().join("dirout");
    fs::create_dir(&out_dir).unwrap();
    let out = tabiya(&["-q", "convert", SAMPLE, "-o", out_dir.to_str().unwrap(), "--to", "pgn"]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert_eq!(names(dir.path()), ["dirout"]);
    assert!(names(&out_dir).is_empty());
}

/// A FIFO named `name` in `dir` fed the sample by a thread, as `<(cat sample)` is.
fn fed_fifo(dir: &Path, name: &str) -> (std::path::PathBuf, std::thread::JoinHandle<()>) {
    let fifo = dir.join(name);
    mkfifo(&fifo);
    let feeder = {
        let fifo = fifo.clone();
        std::thread::spawn(move || fs::write(fifo, fs::read(SAMPLE).unwrap()).unwrap())
    };
    (fifo, feeder)
}

#[test]
fn a_fifo_input_is_read_whole() {
    let dir = tempfile::tempdir().unwrap();
    let (fifo, feeder) = fed_fifo(dir.path(), "games.pgn");
    let from_fifo = tabiya(&["verify", fifo.to_str().unwrap()]);
    feeder.join().unwrap();
    let from_file = tabiya(&["verify", SAMPLE]);
    assert!(from_file.status.success());
    let games = |out: &std::process::Output| {
        let text = String::from_utf8_lossy(&out.stdout).into_owned();
        text.split_once('(').map(|(_, rest)| rest.to_owned()).unwrap_or(text)
    };
    assert_eq!(games(&from_fifo), games(&from_file));
    assert!(!games(&from_file).contains("games 0"), "{}", games(&from_file));

    let (fifo, feeder) = fed_fifo(dir.path(), "again.pgn");
    let book = dir.path().join("book.bin");
    let out = tabiya(&["-q", "book", fifo.to_str().unwrap(), "-o", book.to_str().unwrap()]);
    feeder.join().unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(fs::read(&book).unwrap() == sample_book());
}

#[test]
fn a_reader_that_goes_away_ends_the_run_quietly_by_sigpipe() {
    // More than a pipe holds (64 KiB), so the writer is still writing when the reader goes.
    let inputs = vec![SAMPLE; 64];
    let mut args = vec!["-q", "convert"];
    args.extend(&inputs);
    args.extend(["-o", "-", "--to", "pgn"]);
    let mut child = Command::new(env!("CARGO_BIN_EXE_tabiya"))
        .args(&args)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut first = String::new();
    BufReader::new(child.stdout.take().unwrap()).read_line(&mut first).unwrap();
    assert!(first.starts_with("[Event"), "{first}");
    // The reader is dropped: `| head -1`.
    let out = child.wait_with_output().unwrap();
    assert_eq!(out.status.signal(), Some(SIGPIPE), "as `cat` ends: 141 in the shell");
    assert_eq!(stderr(&out), "", "no message");
}
