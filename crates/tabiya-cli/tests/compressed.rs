//! Compressed files on the command line: an output named `x.pgn.zst` (`.gz`, `.bz2`, `.xz`)
//! is the PGN of `x.pgn`, compressed; a compressed input reads as the file it holds.

use std::fs;
use std::io::{Read, Write};
use std::path::Path;
use std::process::Command;

use tabiya_io::{Compression, open_decompressed};

const SAMPLE: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../samples/famous-games.pgn");

fn tabiya(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_tabiya")).args(args).output().expect("tabiya runs")
}

fn stderr(out: &std::process::Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

fn convert(output: &Path, extra: &[&str]) -> std::process::Output {
    let mut args = vec!["-q", "convert", SAMPLE, "-o", output.to_str().unwrap()];
    args.extend_from_slice(extra);
    tabiya(&args)
}

fn decompressed(path: &Path) -> Vec<u8> {
    let mut data = Vec::new();
    open_decompressed(path).unwrap().read_to_end(&mut data).unwrap();
    data
}

#[test]
fn an_output_named_for_a_compression_is_written_compressed() {
    let dir = tempfile::tempdir().unwrap();
    let plain = dir.path().join("games.pgn");
    let out = convert(&plain, &[]);
    assert!(out.status.success(), "{}", stderr(&out));
    let plain = fs::read(plain).unwrap();
    for (ext, compression, tool) in [
        ("gz", Compression::Gzip, "gzip"),
        ("bz2", Compression::Bzip2, "bzip2"),
        ("xz", Compression::Xz, "xz"),
        ("zst", Compression::Zstd, "zstd"),
    ] {
        let path = dir.path().join(format!("games.pgn.{ext}"));
        let out = convert(&path, &[]);
        assert!(out.status.success(), "{ext}: {}", stderr(&out));
        let bytes = fs::read(&path).unwrap();
        assert_eq!(Compression::detect(&bytes), Some(compression));
        assert!(decompressed(&path) == plain, "{ext}: the PGN of games.pgn");
        // The program users have, when installed, reads it too.
        if let Ok(out) = Command::new(tool).args(["-d", "-c"]).arg(&path).output() {
            assert!(out.status.success() && out.stdout == plain, "{tool} -d");
        }
    }
    assert_eq!(fs::read_dir(dir.path()).unwrap().count(), 5, "no temporary left");
}

#[test]
fn a_compressed_output_keeps_the_overwrite_rule() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("games.pgn.zst");
    fs::write(&path, b"kept").unwrap();
    let out = convert(&path, &[]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert_eq!(fs::read(&path).unwrap(), b"kept");
    let out = convert(&path, &["--force"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let plain = dir.path().join("games.pgn");
    assert!(convert(&plain, &[]).status.success());
    assert!(decompressed(&path) == fs::read(plain).unwrap(), "replaced by the compressed PGN");
    // A zip is an archive of named files: refused, nothing written.
    let zip = dir.path().join("games.zip");
    let out = convert(&zip, &["--to", "pgn"]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(stderr(&out).contains("does not write zip archives"), "{}", stderr(&out));
    assert!(!zip.exists());
}

/// A compressed input is read as the file it holds: `info` names its format and counts its
/// games, `convert` writes the same PGN as from the file itself (`--from pgn` used to parse the
/// gzip bytes as PGN and write junk with exit 0).
#[test]
fn a_compressed_input_reads_as_the_file_it_holds() {
    let dir = tempfile::tempdir().unwrap();
    let gz = dir.path().join("games.pgn.gz");
    let mut encoder = Compression::Gzip.encoder(fs::File::create(&gz).unwrap()).unwrap();
    encoder.write_all(&fs::read(SAMPLE).unwrap()).unwrap();
    encoder.finish().unwrap();
    let out = tabiya(&["info", gz.to_str().unwrap()]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(String::from_utf8_lossy(&out.stdout).contains("games: 12"), "{}", String::from_utf8_lossy(&out.stdout));
    let plain = dir.path().join("plain.pgn");
    assert!(convert(&plain, &[]).status.success());
    let output = dir.path().join("out.pgn");
    let out = tabiya(&["-q", "convert", gz.to_str().unwrap(), "--from", "pgn", "-o", output.to_str().unwrap()]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(fs::read(&output).unwrap() == fs::read(&plain).unwrap(), "the PGN of the file inside");
}

/// A book from a compressed PGN (read as a stream while the pieces read are built, never held
/// whole) is the book of the file it holds, byte for byte, Polyglot and Kvetka; a truncated one
/// is refused as unreadable input (exit 3), naming the file.
#[test]
fn a_book_from_a_compressed_pgn_is_the_book_of_the_file_it_holds() {
    let dir = tempfile::tempdir().unwrap();
    let text = fs::read(SAMPLE).unwrap();
    let mut inputs = vec![SAMPLE.to_owned()];
    for (ext, compression) in [("gz", Compression::Gzip), ("zst", Compression::Zstd)] {
        let path = dir.path().join(format!("games.pgn.{ext}"));
        let mut encoder = compression.encoder(fs::File::create(&path).unwrap()).unwrap();
        encoder.write_all(&text).unwrap();
        encoder.finish().unwrap();
        inputs.push(path.to_str().unwrap().to_owned());
    }
    let mut books = Vec::new();
    for (i, input) in inputs.iter().enumerate() {
        let out = dir.path().join(i.to_string());
        fs::create_dir(&out).unwrap();
        let bin = out.join("b.bin");
        let made = tabiya(&["-q", "book", input, "-o", bin.to_str().unwrap(), "--min-games", "1"]);
        assert!(made.status.success(), "{input}: {}", stderr(&made));
        let kob = out.join("k.kob");
        let made = tabiya(&["-q", "book", input, "-o", kob.to_str().unwrap()]);
        assert!(made.status.success(), "{input}: {}", stderr(&made));
        let mut files: Vec<(String, Vec<u8>)> = fs::read_dir(&out)
            .unwrap()
            .map(|entry| entry.unwrap().path())
            .map(|path| (path.file_name().unwrap().to_string_lossy().into_owned(), fs::read(&path).unwrap()))
            .collect();
        files.sort();
        books.push(files);
    }
    let names: Vec<&str> = books[0].iter().map(|(name, _)| name.as_str()).collect();
    assert_eq!(names, ["b.bin", "k.kin", "k_0.kob"]);
    let bin = &books[0][0].1;
    assert!(!bin.is_empty() && bin.len() % 16 == 0, "{} bytes", bin.len());
    assert!(books[1] == books[0], "gzip: the plain file's books");
    assert!(books[2] == books[0], "zstd: the plain file's books");

    let zst = fs::read(&inputs[2]).unwrap();
    let truncated = dir.path().join("cut.pgn.zst");
    fs::write(&truncated, &zst[..zst.len() / 2]).unwrap();
    for output in ["cut.bin", "cut.kob"] {
        let output = dir.path().join(output);
        let out = tabiya(&["-q", "book", truncated.to_str().unwrap(), "-o", output.to_str().unwrap()]);
        assert_eq!(out.status.code(), Some(3), "{}", stderr(&out));
        assert!(stderr(&out).contains("cut.pgn.zst") && stderr(&out).contains("truncated"), "{}", stderr(&out));
        assert!(!output.exists(), "no book from a truncated input");
    }
}
