//! What a format sniffer gets to look at: a file's name, its first bytes and its size. The
//! formats themselves, with their magic bytes and extensions, belong to the game crates
//! (`tabiya_chess::Format::sniff`, …): this crate knows no format.

use std::path::Path;

/// How many bytes of a file a sniffer sees.
pub const HEAD_LEN: usize = 4096;

/// The start of a file, for naming its format.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Head {
    /// The file's name without its directory.
    pub file_name: String,
    /// The extension, lower-cased, without the dot (empty when there is none).
    pub extension: String,
    /// The first bytes (at most [`HEAD_LEN`]).
    pub bytes: Vec<u8>,
    /// The whole file's size, when known (not for a stream).
    pub size: Option<u64>,
}

impl Head {
    /// A head from bytes already in memory.
    pub fn new(file_name: &str, bytes: &[u8], size: Option<u64>) -> Head {
        let extension = Path::new(file_name).extension().and_then(|e| e.to_str()).unwrap_or("").to_ascii_lowercase();
        let bytes = bytes[..bytes.len().min(HEAD_LEN)].to_vec();
        Head { file_name: file_name.to_owned(), extension, bytes, size }
    }

    /// Reads the head of a file on disk (`-` is standard input). A stream (FIFO, `<(…)`) is
    /// read whole and kept for the reader that follows: see [`crate::open_input`].
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
