//! The shogi file formats: their names for `--from`/`--to`, their extensions, and how a file is
//! recognised (by extension: none of them has magic bytes).

use std::path::{Path, PathBuf};

use tabiya_io::Head;
use tabiya_io::sniff::find_format;

/// Every shogi file format tabiya knows.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Format {
    /// T-BASE diagrams (`.dia`, with `.tjn` solutions and `.rem` comments beside it).
    TbaseDiagrams,
    /// T-BASE solutions (`.tjn`).
    TbaseSolutions,
    /// T-BASE comments (`.rem`).
    TbaseComments,
    /// 柿木 KIF (`.kif` Shift-JIS, `.kifu` UTF-8).
    Kif,
    /// 柿木 KI2 (`.ki2` Shift-JIS, `.ki2u` UTF-8).
    Ki2,
    /// CSA standard record format.
    Csa,
    /// SFEN, one position a line.
    Sfen,
    /// JSON Lines, one problem a line.
    JsonLines,
}

impl Format {
    /// Every shogi format.
    pub const ALL: [Format; 8] = [
        Format::TbaseDiagrams,
        Format::TbaseSolutions,
        Format::TbaseComments,
        Format::Kif,
        Format::Ki2,
        Format::Csa,
        Format::Sfen,
        Format::JsonLines,
    ];

    /// Stable snake_case name used in JSON output and `--from`/`--to`.
    pub fn name(self) -> &'static str {
        match self {
            Format::TbaseDiagrams => "tbase_diagrams",
            Format::TbaseSolutions => "tbase_solutions",
            Format::TbaseComments => "tbase_comments",
            Format::Kif => "kif",
            Format::Ki2 => "ki2",
            Format::Csa => "csa",
            Format::Sfen => "sfen",
            Format::JsonLines => "jsonl",
        }
    }

    /// The extensions of the format's files, the usual one first.
    pub fn extensions(self) -> &'static [&'static str] {
        match self {
            Format::TbaseDiagrams => &["dia"],
            Format::TbaseSolutions => &["tjn"],
            Format::TbaseComments => &["rem"],
            Format::Kif => &["kif", "kifu"],
            Format::Ki2 => &["ki2", "ki2u"],
            Format::Csa => &["csa"],
            Format::Sfen => &["sfen"],
            Format::JsonLines => &["jsonl", "ndjson"],
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

    /// Names a file's format from its extension; without a known extension (a stream: `-`, a
    /// FIFO, `<(…)`), by its content ([`Format::by_content`]).
    pub fn sniff(head: &Head) -> Option<Format> {
        Format::from_extension(&head.extension).or_else(|| Format::by_content(head))
    }

    /// Names a head by its content alone: KIF by its move table's heading `手数----指手`, KI2 by
    /// moves marked ▲ or △ (each in UTF-8 or Shift-JIS, the two encodings these files come in),
    /// CSA by a first record line that is a version, a name, a position or a move (`V2`, `N+`,
    /// `PI`, `P1`, `+7776FU`), SFEN by a first line `sfen …` or a board of nine ranks. T-BASE
    /// sets are several files and are named by their extensions only.
    pub fn by_content(head: &Head) -> Option<Format> {
        let text = head.text_start();
        let holds = |needles: &[&[u8]]| needles.iter().any(|n| text.windows(n.len()).any(|w| w == *n));
        // 手数---- in UTF-8 and in Shift-JIS.
        if holds(&[b"\xE6\x89\x8B\xE6\x95\xB0----", b"\x8E\xE8\x90\x94----"]) {
            return Some(Format::Kif);
        }
        // ▲ and △ in UTF-8 and in Shift-JIS.
        if holds(&[b"\xE2\x96\xB2", b"\xE2\x96\xB3", b"\x81\xA3", b"\x81\xA2"]) {
            return Some(Format::Ki2);
        }
        let first_record = text.split(|&b| b == b'\n').map(|l| l.trim_ascii()).find(|l| !l.starts_with(b"'"))?;
        let csa = [&b"V2"[..], b"N+", b"N-", b"PI", b"P1", b"$"].iter().any(|p| first_record.starts_with(p))
            || matches!(first_record, [b'+' | b'-', b'0'..=b'9', b'0'..=b'9', b'1'..=b'9', b'1'..=b'9', ..]);
        if csa {
            return Some(Format::Csa);
        }
        let sfen_board =
            first_record.split(|&b| b == b' ').next().is_some_and(|board| board.split(|&b| b == b'/').count() == 9);
        (first_record.starts_with(b"sfen ") || sfen_board).then_some(Format::Sfen)
    }

    /// The T-BASE diagrams given by their stem (`problems` for `problems.dia`), when they exist.
    pub fn find_by_stem(stem: &Path) -> Option<PathBuf> {
        Some(stem.with_extension("dia")).filter(|c| c.is_file())
    }
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
    fn by_extension() {
        assert_eq!(Format::sniff(&Head::new("p.dia", &[], Some(330))), Some(Format::TbaseDiagrams));
        assert_eq!(Format::sniff(&Head::new("g.KIFU", &[], None)), Some(Format::Kif));
        assert_eq!(Format::from_name("csa"), Some(Format::Csa));
    }
}
