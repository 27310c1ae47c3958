//! The chess file formats: their names for `--from`/`--to`, their extensions, how a file is
//! recognised by its magic bytes and size, and how a multi-file format is found by its stem.

use std::path::{Path, PathBuf};

use tabiya_io::Head;
use tabiya_io::sniff::find_format;

use crate::polyglot::Entry;

/// Every chess file format tabiya knows. A multi-file format is one value whichever of its
/// files is named (`games.sg4` and `games.si4` are both `Scid4`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Format {
    /// PGN games.
    Pgn,
    /// Polyglot opening book (`.bin`).
    Polyglot,
    /// SCID 3 (`.si3/.sg3/.sn3`), read-only.
    Scid3,
    /// SCID 4 (`.si4/.sg4/.sn4`).
    Scid4,
    /// SCID 5 (`.si5/.sg5/.sn5`).
    Scid5,
    /// ChessBase opening book (`.ctg/.cto/.ctb`).
    Ctg,
    /// Kvetka opening book (`.kob/.kin/.ksf`).
    Kvetka,
    /// JSON Lines, one record a line.
    JsonLines,
    /// The explorer's position tree ([`crate::tree`]).
    Tree,
}

const SCID_INDEX_MAGIC: &[u8; 8] = b"Scid.si\0";
const SCID_NAMES_MAGIC: &[u8; 8] = b"Scid.sn\0";
const CTG_MAGIC: &[u8; 4] = &[0x00, 0x20, 0x10, 0x00];

impl Format {
    /// Every chess format.
    pub const ALL: [Format; 9] = [
        Format::Pgn,
        Format::Polyglot,
        Format::Scid3,
        Format::Scid4,
        Format::Scid5,
        Format::Ctg,
        Format::Kvetka,
        Format::JsonLines,
        Format::Tree,
    ];

    /// Stable snake_case name used in JSON output and `--from`/`--to`.
    pub fn name(self) -> &'static str {
        match self {
            Format::Pgn => "pgn",
            Format::Polyglot => "polyglot",
            Format::Scid3 => "scid3",
            Format::Scid4 => "scid4",
            Format::Scid5 => "scid5",
            Format::Ctg => "ctg",
            Format::Kvetka => "kvetka",
            Format::JsonLines => "jsonl",
            Format::Tree => "tree",
        }
    }

    /// The extensions of the format's files, the usual one first.
    pub fn extensions(self) -> &'static [&'static str] {
        match self {
            Format::Pgn => &["pgn"],
            Format::Polyglot => &["bin"],
            Format::Scid3 => &["si3", "sg3", "sn3"],
            Format::Scid4 => &["si4", "sg4", "sn4"],
            Format::Scid5 => &["si5", "sg5", "sn5"],
            Format::Ctg => &["ctg", "cto", "ctb"],
            Format::Kvetka => &["kob", "kin", "ksf"],
            Format::JsonLines => &["jsonl", "ndjson"],
            Format::Tree => &["tree"],
        }
    }

    /// The format named by `--from`/`--to`: its [`name`](Format::name) or an extension.
    pub fn from_name(name: &str) -> Option<Format> {
        find_format(&Format::ALL, name, |f, n| f.name() == n).or_else(|| Format::from_extension(name))
    }

    /// The format an extension names.
    pub fn from_extension(ext: &str) -> Option<Format> {
        find_format(&Format::ALL, ext, |f, e| f.extensions().contains(&e))
    }

    /// Names a file's format from its head. Magic bytes win over the extension; formats
    /// without magic are named by extension, even when the size does not fit their records (a
    /// book cut short is a damaged book, whose reader names the damage); a file without a
    /// known extension is named by its content ([`Format::by_content`]).
    pub fn sniff(head: &Head) -> Option<Format> {
        let bytes = &head.bytes;
        if bytes.starts_with(SCID_INDEX_MAGIC) && bytes.len() >= 10 {
            return match u16::from_be_bytes([bytes[8], bytes[9]]) {
                300..=399 => Some(Format::Scid3),
                _ => Some(Format::Scid4),
            };
        }
        if bytes.starts_with(SCID_NAMES_MAGIC) {
            return Some(if head.extension == "sn3" { Format::Scid3 } else { Format::Scid4 });
        }
        if bytes.starts_with(crate::tree::MAGIC) {
            return Some(Format::Tree);
        }
        if head.extension == "ctg" && bytes.starts_with(CTG_MAGIC) {
            return Some(Format::Ctg);
        }
        Format::from_extension(&head.extension).or_else(|| Format::by_content(head))
    }

    /// Names a file without a known extension (a stream: `-`, a FIFO, `<(…)`) by its content:
    /// text that starts like PGN is PGN; a first line that is a JSON object with a `moves` array
    /// is chess JSON Lines (Othello's has a transcript string there); a whole number of
    /// well-formed Polyglot entries in key order (at least two) is a Polyglot book.
    pub fn by_content(head: &Head) -> Option<Format> {
        let text = head.text_start();
        if matches!(text.first(), Some(b'[' | b'1')) {
            return Some(Format::Pgn);
        }
        if text.first() == Some(&b'{') {
            let line = text.split(|&b| b == b'\n').next().unwrap_or_default();
            let moves_listed = serde_json::from_slice::<serde_json::Value>(line).is_ok_and(|v| v["moves"].is_array());
            return moves_listed.then_some(Format::JsonLines);
        }
        looks_like_polyglot(head).then_some(Format::Polyglot)
    }

    /// The file that names a multi-file format given by its stem (`games` for `games.si4`,
    /// `book` or `book.kob` for `book_0.kob`), when one exists.
    pub fn find_by_stem(stem: &Path) -> Option<PathBuf> {
        let kob_0 = |p: &Path| PathBuf::from(format!("{}_0.kob", p.display()));
        ["si4", "si5", "si3", "ctg", "kob", "pgn", "bin"]
            .into_iter()
            .flat_map(|ext| [stem.with_extension(ext), kob_0(stem), kob_0(&stem.with_extension(""))])
            .find(|c| c.is_file())
    }

    /// True for the formats that hold games (as opposed to books).
    pub fn holds_games(self) -> bool {
        matches!(self, Format::Pgn | Format::Scid3 | Format::Scid4 | Format::Scid5)
    }
}

/// Polyglot has no magic bytes: a head is taken for a book when it holds at least two whole
/// entries, every entry in it is well-formed and the keys do not decrease (the order every
/// Polyglot book is written in), and the size, when known, is a whole number of entries.
fn looks_like_polyglot(head: &Head) -> bool {
    let entries: Vec<Entry> =
        head.bytes.chunks_exact(16).map(|c| Entry::from_bytes(c.try_into().expect("16 bytes"))).collect();
    entries.len() >= 2
        && head.size.is_none_or(|size| size % 16 == 0)
        && entries.iter().all(|e| e.move_is_well_formed())
        && entries.windows(2).all(|w| w[0].key <= w[1].key)
}

impl std::fmt::Display for Format {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn magic_bytes() {
        let si4 = [b"Scid.si\0".as_slice(), &[0x01, 0x90]].concat();
        assert_eq!(Format::sniff(&Head::new("x.si4", &si4, Some(182))), Some(Format::Scid4));
        let si3 = [b"Scid.si\0".as_slice(), &[0x01, 0x2C]].concat();
        assert_eq!(Format::sniff(&Head::new("old.si3", &si3, Some(128))), Some(Format::Scid3));
        assert_eq!(Format::sniff(&Head::new("x.ctg", &[0, 0x20, 0x10, 0, 0, 1], Some(8192))), Some(Format::Ctg));
    }

    #[test]
    fn damaged_files_named_by_their_extension() {
        assert_eq!(Format::sniff(&Head::new("book.bin", &[], Some(32))), Some(Format::Polyglot));
        assert_eq!(Format::sniff(&Head::new("book.bin", &[], Some(33))), Some(Format::Polyglot));
        assert_eq!(Format::sniff(&Head::new("games.si5", &[], Some(56 * 2))), Some(Format::Scid5));
        assert_eq!(Format::sniff(&Head::new("games", b"[Event \"x\"]", Some(11))), Some(Format::Pgn));
        assert_eq!(Format::from_name("SG4"), Some(Format::Scid4));
        assert_eq!(Format::from_name("kvetka"), Some(Format::Kvetka));
    }
}
