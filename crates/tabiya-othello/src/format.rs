//! The Othello file formats: their names for `--from`/`--to`, their extensions, and how a file
//! is recognised by its extension and record size (Wthor files have no magic bytes).

use std::path::{Path, PathBuf};

use tabiya_io::Head;
use tabiya_io::sniff::find_format;

/// Every Othello file format tabiya knows.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Format {
    /// Wthor 8×8 games (`.wtb`).
    WthorGames,
    /// Wthor 10×10 games (`.wtd`).
    WthorGames10,
    /// Wthor solitaires (`.pzz`).
    WthorSolitaires,
    /// `WTHOR.JOU`, the players.
    WthorPlayers,
    /// `WTHOR.TRN`, the tournaments.
    WthorTournaments,
    /// Transcripts, one game a line (`f5d6c3…`).
    Transcript,
    /// Generic Game Format.
    Ggf,
    /// Othello Board Format (Edax's test positions).
    Obf,
    /// JSON Lines, one game a line.
    JsonLines,
    /// Comma-separated values, one game a line.
    Csv,
}

impl Format {
    /// Every Othello format.
    pub const ALL: [Format; 10] = [
        Format::WthorGames,
        Format::WthorGames10,
        Format::WthorSolitaires,
        Format::WthorPlayers,
        Format::WthorTournaments,
        Format::Transcript,
        Format::Ggf,
        Format::Obf,
        Format::JsonLines,
        Format::Csv,
    ];

    /// Stable snake_case name used in JSON output and `--from`/`--to`.
    pub fn name(self) -> &'static str {
        match self {
            Format::WthorGames => "wthor_games",
            Format::WthorGames10 => "wthor_games_10x10",
            Format::WthorSolitaires => "wthor_solitaires",
            Format::WthorPlayers => "wthor_players",
            Format::WthorTournaments => "wthor_tournaments",
            Format::Transcript => "othello_transcript",
            Format::Ggf => "ggf",
            Format::Obf => "obf",
            Format::JsonLines => "jsonl",
            Format::Csv => "csv",
        }
    }

    /// The extensions of the format's files, the usual one first.
    pub fn extensions(self) -> &'static [&'static str] {
        match self {
            Format::WthorGames => &["wtb"],
            Format::WthorGames10 => &["wtd"],
            Format::WthorSolitaires => &["pzz"],
            Format::WthorPlayers => &["jou"],
            Format::WthorTournaments => &["trn"],
            Format::Transcript => &["txt"],
            Format::Ggf => &["ggf"],
            Format::Obf => &["obf"],
            Format::JsonLines => &["jsonl", "ndjson"],
            Format::Csv => &["csv"],
        }
    }

    /// The format named by `--from`/`--to`: its [`name`](Format::name), an extension, or
    /// `othello_jsonl`/`othello_csv` (the names chess and shogi share, made Othello's).
    pub fn from_name(name: &str) -> Option<Format> {
        find_format(&Format::ALL, name, |f, n| f.name() == n || n.strip_prefix("othello_") == Some(f.name()))
            .or_else(|| Format::from_extension(name))
    }

    /// The format an extension names.
    pub fn from_extension(ext: &str) -> Option<Format> {
        find_format(&Format::ALL, ext, |f, e| f.extensions().contains(&e))
    }

    /// Names a file's format from its extension, a transcript by the look of its first line
    /// (moves such as `f5d6c3`: a `.txt` of prose is no transcript), and JSON Lines as
    /// Othello's when the first line is an object whose `moves` is a transcript (chess and shogi
    /// JSON Lines list their moves). A Wthor file whose size does not fit its records is still
    /// named by its extension: the reader reports the damage (a file cut short is a damaged
    /// Wthor file, not an unknown one). A file without a known extension (a stream: `-`, a FIFO,
    /// `<(…)`) is named by its content ([`Format::by_content`]).
    pub fn sniff(head: &Head) -> Option<Format> {
        let Some(format) = Format::from_extension(&head.extension) else {
            return Format::by_content(head);
        };
        let fits = match format {
            // An empty file is a transcript of no games (what writing none gives).
            Format::Transcript => head.text_start().is_empty() || looks_like(Format::Transcript, head),
            Format::JsonLines => looks_like(Format::JsonLines, head),
            _ => true,
        };
        fits.then_some(format)
    }

    /// Names a head by its content alone: GGF by `(;GM[Othello]`, JSON Lines and transcripts as
    /// [`Format::sniff`] does, CSV by the export's header line, OBF by a first line that reads
    /// as a position, and Wthor files by a header that reads without a warning and, when the
    /// size is known, a size that is exactly its records' (name files need the size: their
    /// headers differ only in the record size).
    pub fn by_content(head: &Head) -> Option<Format> {
        let text_formats = [Format::Ggf, Format::JsonLines, Format::Csv, Format::Transcript, Format::Obf];
        text_formats.into_iter().find(|&f| looks_like(f, head)).or_else(|| wthor_by_header(head))
    }

    /// The header and record sizes of a Wthor file; `None` for the text formats.
    fn record_layout(self) -> Option<(u64, u64)> {
        Some(match self {
            Format::WthorGames => (16, 68),
            Format::WthorGames10 => (16, 104),
            Format::WthorSolitaires => (16 + 256, 36),
            Format::WthorPlayers => (16, 20),
            Format::WthorTournaments => (16, 26),
            _ => return None,
        })
    }

    /// The whole records a Wthor file of `size` bytes holds after its header (for a progress
    /// bar's total; the reader checks the header's count); `None` for the text formats.
    pub fn records_in(self, size: u64) -> Option<u64> {
        let (header, record) = self.record_layout()?;
        Some(size.saturating_sub(header) / record)
    }

    /// The Wthor games file given by its stem (`WTH_2001` for `WTH_2001.wtb`), when it exists.
    pub fn find_by_stem(stem: &Path) -> Option<PathBuf> {
        Some(stem.with_extension("wtb")).filter(|c| c.is_file())
    }
}

/// Whether the first line of `head` reads as a record of the text format `format`.
fn looks_like(format: Format, head: &Head) -> bool {
    let text = head.text_start();
    let line = text.split(|&b| b == b'\n').next().unwrap_or_default();
    let line = String::from_utf8_lossy(line);
    let line = line.trim_end();
    match format {
        Format::Ggf => text.starts_with(b"(;GM[Othello]"),
        Format::JsonLines => serde_json::from_str::<serde_json::Value>(line)
            .is_ok_and(|v| v["moves"].as_str().is_some_and(|m| crate::text::transcript::parse_line(m, 1).is_ok())),
        Format::Csv => {
            let columns: Vec<&str> = line.split(',').collect();
            ["black", "white", "moves"].iter().all(|c| columns.contains(c))
        }
        Format::Transcript => {
            matches!(line.as_bytes(), [b'a'..=b'h' | b'A'..=b'H', b'1'..=b'8', ..])
                && line.bytes().all(|b| b.is_ascii_alphanumeric() || b.is_ascii_whitespace())
        }
        Format::Obf => crate::text::obf::parse_line(line, 1).is_ok(),
        _ => false,
    }
}

/// The Wthor file a head's 16-byte header describes, if it reads without a warning (century,
/// creation date) and describes one kind of file: games (a game year, 8×8 or 10×10),
/// solitaires (game type 1), or names (no games, no year: players or tournaments, told apart
/// by the size).
fn wthor_by_header(head: &Head) -> Option<Format> {
    let mut warnings = Vec::new();
    let header = crate::wthor::Header::read(&head.bytes, &mut warnings).ok()?;
    if !warnings.is_empty() || header.reserved != 0 {
        return None;
    }
    let candidates: &[Format] = match (header.game_type, header.board_size) {
        (1, 0 | 8) => &[Format::WthorSolitaires],
        (0, 10) if header.game_year != 0 => &[Format::WthorGames10],
        (0, 0 | 8) if header.game_year != 0 && header.n2 == 0 => &[Format::WthorGames],
        (0, 0) if header.n1 == 0 && header.game_year == 0 => &[Format::WthorPlayers, Format::WthorTournaments],
        _ => return None,
    };
    let records = u64::from(if header.n1 == 0 && header.game_year == 0 { u32::from(header.n2) } else { header.n1 });
    let fits = |format: Format| {
        let (start, record) = format.record_layout().expect("a Wthor format");
        // Solitaire files hold a presence table of 256 bytes, or the document's 512.
        let starts: &[u64] = if format == Format::WthorSolitaires { &[start, start + 256] } else { &[start] };
        head.size.map(|size| starts.iter().any(|s| size == s + record * records))
    };
    match candidates {
        [one] if fits(*one) != Some(false) => Some(*one),
        _ => candidates.iter().copied().find(|&f| fits(f) == Some(true)),
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
    fn damaged_files_named_by_their_extension() {
        assert_eq!(Format::sniff(&Head::new("WTH_2001.wtb", &[20], Some(16 + 68 * 3))), Some(Format::WthorGames));
        // Cut short: still a Wthor games file, whose reader names the damage.
        assert_eq!(Format::sniff(&Head::new("WTH_2001.wtb", &[20], Some(16 + 68 * 3 - 1))), Some(Format::WthorGames));
        assert_eq!(Format::sniff(&Head::new("x.pzz", &[20], Some(344))), Some(Format::WthorSolitaires));
        assert_eq!(Format::WthorGames.records_in(10_000), Some(146));
        assert_eq!(Format::WthorSolitaires.records_in(344), Some(2));
        assert_eq!(Format::sniff(&Head::new("WTHOR.JOU", &[20], Some(16 + 20 * 5))), Some(Format::WthorPlayers));
        assert_eq!(Format::sniff(&Head::new("a.txt", b"f5d6c3\n", Some(7))), Some(Format::Transcript));
        assert_eq!(Format::sniff(&Head::new("a.txt", b"{ not }\n", Some(8))), None);
        assert_eq!(Format::sniff(&Head::new("notes.txt", b"hello world\n", Some(12))), None);
        let ours = b"{\"black\":\"A\",\"moves\":\"f5d6\"}\n";
        assert_eq!(Format::sniff(&Head::new("g.jsonl", ours, Some(30))), Some(Format::JsonLines));
        let chess = b"{\"tags\":[],\"moves\":[{\"uci\":\"e2e4\"}]}\n";
        assert_eq!(Format::sniff(&Head::new("g.jsonl", chess, Some(40))), None);
        assert_eq!(Format::from_name("othello_jsonl"), Some(Format::JsonLines));
    }
}
