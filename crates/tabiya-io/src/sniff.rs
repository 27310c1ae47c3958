//! What a format sniffer gets to look at: a file's name, its first bytes and its size. The
//! formats themselves, with their magic bytes and extensions, belong to the game crates
//! (`tabiya_chess::Format::sniff`, …): this crate knows no format.
//!
//! A compressed file shows its decompressed head under its name without the compression's
//! extension (`games.pgn.zst` is seen as `games.pgn`), so that a format's sniffer names the
//! format inside without knowing compression exists; [`Head::compression`] says which was
//! found.

use std::path::Path;

use crate::compression::Compression;

/// How many bytes of a file a sniffer sees.
pub const HEAD_LEN: usize = 4096;

/// The start of a file, for naming its format.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Head {
    /// The file's name without its directory, and without the compression's extension for a
    /// compressed file (`games.pgn` for `games.pgn.zst`; for a zip, its first member's name).
    pub file_name: String,
    /// The extension of `file_name`, lower-cased, without the dot (empty when there is none).
    pub extension: String,
    /// The first bytes (at most [`HEAD_LEN`]), decompressed for a compressed file.
    pub bytes: Vec<u8>,
    /// The whole file's size, when known; unknown for a compressed file (what matters to a
    /// sniffer is the size of the data inside).
    pub size: Option<u64>,
    /// The compression the file's magic bytes show, if any.
    pub compression: Option<Compression>,
}

impl Head {
    /// A head from bytes already in memory.
    pub fn new(file_name: &str, bytes: &[u8], size: Option<u64>) -> Head {
        let extension = Path::new(file_name).extension().and_then(|e| e.to_str()).unwrap_or("").to_ascii_lowercase();
        let bytes = bytes[..bytes.len().min(HEAD_LEN)].to_vec();
        Head { file_name: file_name.to_owned(), extension, bytes, size, compression: None }
    }

    /// Reads the head of a file on disk (`-` is standard input), decompressed when the file
    /// is compressed (see the module). A stream (FIFO, `<(…)`) is read whole and kept for the
    /// reader that follows: see [`crate::open_input`]. A compressed file whose head does not
    /// decode is an error.
    pub fn read(path: &Path) -> std::io::Result<Head> {
        crate::input::read_head(path)
    }

    /// True when the size is `header` bytes plus whole records of `record` bytes (or unknown).
    pub fn fits(&self, header: u64, record: u64) -> bool {
        self.size.is_none_or(|size| size >= header && (size - header).is_multiple_of(record))
    }

    /// The first bytes after a UTF-8 byte-order mark and leading white space.
    pub fn text_start(&self) -> &[u8] {
        let text = self.bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(&self.bytes);
        let start = text.iter().position(|b| !b.is_ascii_whitespace()).unwrap_or(text.len());
        &text[start..]
    }
}

/// The first of `formats` that `is` says is `wanted` (lower-cased first): the one look-up behind
/// every family's `Format::from_name` and `Format::from_extension`.
pub fn find_format<F: Copy>(formats: &[F], wanted: &str, is: impl Fn(F, &str) -> bool) -> Option<F> {
    let lower = wanted.to_ascii_lowercase();
    formats.iter().copied().find(|&f| is(f, &lower))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn extension_and_fit() {
        let head = Head::new("WTHOR.JOU", &[0; 20], Some(16 + 20 * 5));
        assert_eq!(head.extension, "jou");
        assert!(head.fits(16, 20));
        assert!(!head.fits(16, 26));
        assert!(Head::new("x", b"", None).fits(16, 68));
        assert_eq!(Head::new("g.pgn", b"\xEF\xBB\xBF \n[Event", Some(9)).text_start(), b"[Event");
    }
}
