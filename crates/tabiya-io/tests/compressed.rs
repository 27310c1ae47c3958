//! Compressed inputs: every format found by its magic bytes and decoded whole (every member,
//! stream and frame), a cut or corrupt file an error naming the file and the compressed
//! offset, an uncompressed file unchanged, a FIFO of compressed data read like a file, and
//! the head a sniffer sees.

use std::fs;
use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::process::Command;

mod support;
use support::mkfifo;
use tabiya_io::compression::{open_zip_member, strip_compression_extension, zip_members};
use tabiya_io::{Compression, Head, open_decompressed};

/// About 400 KB of PGN, numbered so that a lost or repeated piece shows: more than every
/// buffer on the way (64 KB), so that decoding goes on across many reads.
fn pgn(first: u32, games: u32) -> Vec<u8> {
    let mut text = Vec::new();
    for n in first..first + games {
        write!(text, "[Event \"game {n}\"]\n[Result \"*\"]\n\n1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 {{{n}}} *\n\n").unwrap();
    }
    text
}

/// `data` compressed by the Rust encoder of `compression` (the one `-o x.pgn.gz` uses).
fn compress(compression: Compression, data: &[u8]) -> Vec<u8> {
    let mut encoder = compression.encoder(Vec::new()).unwrap();
    encoder.write_all(data).unwrap();
    encoder.finish().unwrap()
}

/// A zip of `members` (name, data), deflated.
fn zip(members: &[(&str, &[u8])]) -> Vec<u8> {
    let mut writer = zip::ZipWriter::new(std::io::Cursor::new(Vec::new()));
    let options = zip::write::SimpleFileOptions::default().compression_method(zip::CompressionMethod::Deflated);
    for (name, data) in members {
        writer.start_file(*name, options).unwrap();
        writer.write_all(data).unwrap();
    }
    writer.finish().unwrap().into_inner()
}

fn write(dir: &Path, name: &str, bytes: &[u8]) -> PathBuf {
    let path = dir.join(name);
    fs::write(&path, bytes).unwrap();
    path
}

fn read_all(path: &Path) -> Result<Vec<u8>, std::io::Error> {
    let mut data = Vec::new();
    open_decompressed(path).unwrap().read_to_end(&mut data)?;
    Ok(data)
}

const STREAMS: [(Compression, &str); 4] =
    [(Compression::Gzip, "gz"), (Compression::Bzip2, "bz2"), (Compression::Xz, "xz"), (Compression::Zstd, "zst")];

#[test]
fn each_format_is_found_by_its_magic_bytes_and_decoded() {
    let dir = tempfile::tempdir().unwrap();
    let text = pgn(0, 5000);
    let mut files =
        STREAMS.map(|(c, ext)| (c, write(dir.path(), &format!("games.pgn.{ext}"), &compress(c, &text)))).to_vec();
    files.push((Compression::Zip, write(dir.path(), "games.zip", &zip(&[("games.pgn", &text)]))));
    for (compression, path) in files {
        let mut reader = open_decompressed(&path).unwrap();
        assert_eq!(reader.compression(), Some(compression));
        let mut data = Vec::new();
        reader.read_to_end(&mut data).unwrap();
        assert!(data == text, "{compression}: {} bytes, not the {} written", data.len(), text.len());
        // Every compressed byte taken (a zip's central directory, after the data, is not).
        let size = fs::metadata(&path).unwrap().len();
        assert!(reader.compressed_offset() == size || compression == Compression::Zip, "{compression}");
        // The magic, not the name: the same bytes under a name that says nothing.
        let renamed = dir.path().join(format!("anonymous-{compression}"));
        fs::copy(&path, &renamed).unwrap();
        assert_eq!(open_decompressed(&renamed).unwrap().compression(), Some(compression));
    }
}

#[test]
fn the_sniffer_sees_the_decompressed_head_under_the_inner_name() {
    let dir = tempfile::tempdir().unwrap();
    let text = pgn(0, 500);
    for (compression, ext) in STREAMS {
        let path = write(dir.path(), &format!("games.pgn.{ext}"), &compress(compression, &text));
        let head = Head::read(&path).unwrap();
        assert_eq!(head.compression, Some(compression));
        assert_eq!((head.file_name.as_str(), head.extension.as_str()), ("games.pgn", "pgn"));
        assert_eq!(head.bytes, text[..4096]);
        assert_eq!(head.size, None, "the decompressed size is unknown");
    }
    let path = write(dir.path(), "twic1500.zip", &zip(&[("twic1500g.pgn", &text), ("readme.txt", b"x")]));
    let head = Head::read(&path).unwrap();
    assert_eq!((head.compression, head.extension.as_str()), (Some(Compression::Zip), "pgn"));
    assert_eq!(head.bytes, text[..4096]);
    let plain = write(dir.path(), "games.pgn", &text);
    let head = Head::read(&plain).unwrap();
    assert_eq!((head.compression, head.extension.as_str(), head.size), (None, "pgn", Some(text.len() as u64)));
    assert_eq!(
        strip_compression_extension("lichess_db_standard_rated_2025-01.pgn.zst").0,
        "lichess_db_standard_rated_2025-01.pgn"
    );
}

#[test]
fn every_member_stream_and_frame_is_decoded() {
    let dir = tempfile::tempdir().unwrap();
    let (first, second) = (pgn(0, 3000), pgn(3000, 3000));
    let whole = [first.clone(), second.clone()].concat();
    for (compression, ext) in STREAMS {
        // `cat a.gz b.gz`, pbzip2, xz of several streams, zstd frames made apart.
        let parts = [compress(compression, &first), compress(compression, &second)].concat();
        let path = write(dir.path(), &format!("two.pgn.{ext}"), &parts);
        assert!(read_all(&path).unwrap() == whole, "{compression}: both parts, in order");
    }
    // pzstd's layout: each frame preceded by a skippable frame that holds its compressed size.
    let mut pzstd = Vec::new();
    for part in [&first, &second] {
        let frame = compress(Compression::Zstd, part);
        pzstd.extend_from_slice(&0x184D_2A50u32.to_le_bytes());
        pzstd.extend_from_slice(&4u32.to_le_bytes());
        pzstd.extend_from_slice(&(frame.len() as u32).to_le_bytes());
        pzstd.extend_from_slice(&frame);
    }
    let path = write(dir.path(), "pzstd.pgn.zst", &pzstd);
    assert_eq!(Head::read(&path).unwrap().compression, Some(Compression::Zstd));
    assert!(read_all(&path).unwrap() == whole, "pzstd layout: both frames");
    // A zip's members, in order, with nothing between them; or each apart.
    let path = write(dir.path(), "two.zip", &zip(&[("a.pgn", &first), ("dir/", b""), ("b.pgn", &second)]));
    assert!(read_all(&path).unwrap() == whole);
    let members = zip_members(&path).unwrap();
    let names: Vec<&str> = members.iter().map(|m| m.name.as_str()).collect();
    assert_eq!(names, ["a.pgn", "b.pgn"]);
    let mut second_alone = Vec::new();
    open_zip_member(&path, &members[1]).unwrap().read_to_end(&mut second_alone).unwrap();
    assert!(second_alone == second);
}

#[test]
fn a_cut_file_is_an_error_naming_the_file_and_the_offset_never_short_data() {
    let dir = tempfile::tempdir().unwrap();
    let text = pgn(0, 5000);
    for (compression, ext) in STREAMS {
        let whole = compress(compression, &text);
        let cut = whole.len() * 2 / 3;
        let path = write(dir.path(), &format!("cut.pgn.{ext}"), &whole[..cut]);
        let mut reader = open_decompressed(&path).unwrap();
        let mut data = Vec::new();
        let error =
            reader.read_to_end(&mut data).err().unwrap_or_else(|| panic!("{compression}: no error")).to_string();
        assert!(error.contains(&path.display().to_string()), "{compression}: {error}");
        assert!(error.contains(&format!("truncated {compression} data at compressed offset {cut}")), "{error}");
        assert!(text.starts_with(&data), "{compression}: what came before the error is the start of the text");
    }
    let whole = zip(&[("games.pgn", &text)]);
    let path = write(dir.path(), "cut.zip", &whole[..whole.len() - 30]);
    let error = open_decompressed(&path).unwrap_err().to_string();
    assert!(error.starts_with(&path.display().to_string()), "{error}");
}

#[test]
fn corrupt_data_is_an_error_never_junk() {
    let dir = tempfile::tempdir().unwrap();
    let text = pgn(0, 5000);
    for (compression, ext) in STREAMS {
        let mut bytes = compress(compression, &text);
        let middle = bytes.len() / 2;
        bytes[middle] ^= 0x55;
        bytes[middle + 1] ^= 0xAA;
        let path = write(dir.path(), &format!("bad.pgn.{ext}"), &bytes);
        let error = read_all(&path).err().unwrap_or_else(|| panic!("{compression}: no error")).to_string();
        assert!(error.contains("compressed offset"), "{compression}: {error}");
    }
    // A member whose stored data was changed: its CRC says so.
    let stored = {
        let mut writer = zip::ZipWriter::new(std::io::Cursor::new(Vec::new()));
        writer
            .start_file(
                "a.pgn",
                zip::write::SimpleFileOptions::default().compression_method(zip::CompressionMethod::Stored),
            )
            .unwrap();
        writer.write_all(b"1. e4 e5 *\n").unwrap();
        writer.finish().unwrap().into_inner()
    };
    let at = stored.windows(8).position(|w| w == b"1. e4 e5").unwrap();
    let mut changed = stored.clone();
    changed[at + 3] = b'd';
    let path = write(dir.path(), "changed.zip", &changed);
    let error = read_all(&path).unwrap_err().to_string();
    assert!(error.contains("zip member a.pgn fails its CRC"), "{error}");
}

#[test]
fn an_uncompressed_file_passes_through_unchanged() {
    let dir = tempfile::tempdir().unwrap();
    // Binary data that starts like nothing compressed, and an empty file.
    let bytes: Vec<u8> = (0..100_000u32).map(|i| (i.wrapping_mul(2_654_435_761) >> 13) as u8).collect();
    let path = write(dir.path(), "book.bin", &bytes);
    let reader = open_decompressed(&path).unwrap();
    assert_eq!(reader.compression(), None);
    assert!(read_all(&path).unwrap() == bytes);
    let empty = write(dir.path(), "empty.pgn", b"");
    assert_eq!(read_all(&empty).unwrap(), b"");
    // A name that says gzip on data that is not: the data decides.
    let liar = write(dir.path(), "games.pgn.gz", b"[Event \"x\"]\n");
    assert_eq!(read_all(&liar).unwrap(), b"[Event \"x\"]\n");
}

#[test]
fn a_fifo_of_compressed_data_is_sniffed_then_read() {
    let dir = tempfile::tempdir().unwrap();
    let fifo = dir.path().join("games.pgn.zst");
    mkfifo(&fifo);
    let text = pgn(0, 5000);
    let compressed = compress(Compression::Zstd, &text);
    let writer = {
        let fifo = fifo.clone();
        std::thread::spawn(move || {
            let mut f = fs::File::options().write(true).open(fifo).unwrap();
            for piece in compressed.chunks(5000) {
                f.write_all(piece).unwrap();
            }
        })
    };
    let head = Head::read(&fifo).unwrap();
    writer.join().unwrap();
    assert_eq!((head.compression, head.extension.as_str()), (Some(Compression::Zstd), "pgn"));
    assert_eq!(head.bytes, text[..4096]);
    assert!(read_all(&fifo).unwrap() == text);
}

/// The files of the programs users make them with. `scripts/test` installs the tools when
/// missing; a tool that is not there fails the test rather than passing unchecked.
#[test]
fn files_of_the_command_line_tools() {
    let dir = tempfile::tempdir().unwrap();
    let text = pgn(0, 20_000);
    let path = write(dir.path(), "games.pgn", &text);
    let tools: [(&str, &[&str], &str); 5] = [
        ("gzip", &["-k", "-6"], "gz"),
        ("bzip2", &["-k"], "bz2"),
        ("xz", &["-k"], "xz"),
        ("zstd", &["-q", "-3"], "zst"),
        // Multi-frame with skippable frames, as the lichess dumps are.
        ("pzstd", &["-q", "-p", "2", "--force"], "zst"),
    ];
    for (tool, args, ext) in tools {
        let status = Command::new(tool).args(args).arg(&path).status();
        let status = status.unwrap_or_else(|e| panic!("{tool} does not run ({e}): scripts/test installs it"));
        assert!(status.success(), "{tool}");
        let compressed = dir.path().join(format!("games.pgn.{ext}"));
        assert!(read_all(&compressed).unwrap() == text, "{tool}");
        fs::remove_file(compressed).unwrap();
    }
}
