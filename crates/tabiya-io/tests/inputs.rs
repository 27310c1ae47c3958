//! Inputs that are streams are read whole, never taken for empty files, and sniffing one
//! takes nothing from the reader that follows.

use std::fs;
use std::io::{Read, Write};

mod support;
use support::mkfifo;
use tabiya_io::{Access, FileBytes, Head, open_input, read_input, read_input_with};

/// 10,000 bytes of PGN-like text, more than a sniffer's head.
fn text() -> Vec<u8> {
    (0..10_000u32).map(|i| b"[Event \"x\"]\n1. e4 *\n"[i as usize % 20]).collect()
}

#[test]
fn a_fifo_is_read_whole_by_the_sniffer_and_every_reader_after() {
    let dir = tempfile::tempdir().unwrap();
    let fifo = dir.path().join("games.pgn");
    mkfifo(&fifo);
    let writer = {
        let fifo = fifo.clone();
        // Written in pieces, as zstdcat writes: a reader must not stop at the first.
        std::thread::spawn(move || {
            let mut f = fs::File::options().write(true).open(fifo).unwrap();
            for piece in text().chunks(3000) {
                f.write_all(piece).unwrap();
                f.flush().unwrap();
            }
        })
    };
    let head = Head::read(&fifo).unwrap();
    writer.join().unwrap();
    assert_eq!(head.bytes, text()[..4096]);
    assert_eq!(head.size, Some(10_000));
    assert_eq!(&*read_input(&fifo).unwrap(), &text()[..]);
    assert_eq!(&*read_input_with(&fifo, Access::Read).unwrap(), &text()[..]);
    let mut again = Vec::new();
    open_input(&fifo).unwrap().read_to_end(&mut again).unwrap();
    assert_eq!(again, text());
}

#[test]
fn a_fifo_read_first_by_a_reader_is_whole() {
    let dir = tempfile::tempdir().unwrap();
    let fifo = dir.path().join("book.bin");
    mkfifo(&fifo);
    let writer = {
        let fifo = fifo.clone();
        std::thread::spawn(move || fs::write(fifo, text()).unwrap())
    };
    let mut read = Vec::new();
    open_input(&fifo).unwrap().read_to_end(&mut read).unwrap();
    writer.join().unwrap();
    assert_eq!(read, text());
}

#[test]
fn mapping_is_the_callers_choice() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("games.pgn");
    fs::write(&path, text()).unwrap();
    assert!(matches!(read_input(&path).unwrap(), FileBytes::Mapped(_)));
    let read = read_input_with(&path, Access::Read).unwrap();
    assert!(matches!(read, FileBytes::Owned(_)));
    assert_eq!(&*read, &text()[..]);
    let empty = dir.path().join("empty.pgn");
    fs::write(&empty, b"").unwrap();
    assert!(read_input(&empty).unwrap().is_empty());
}
