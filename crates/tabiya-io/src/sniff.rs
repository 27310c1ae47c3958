//! Naming a file's format from its magic bytes, size and extension, so that `tabiya info`
//! can say what any file of the mission is even before its reader exists.

use std::io::Read;
use std::path::Path;

/// Every file format tabiya knows, readable or not yet. A multi-file format is one value
/// whichever of its files is named (`games.sg4` and `games.si4` are both `Scid4`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Format {
    Pgn,
    Polyglot,
    /// SCID 3 (.si3/.sg3/.sn3), read-only.
    Scid3,
    /// SCID 4 (.si4/.sg4/.sn4).
    Scid4,
    /// SCID 5 (.si5/.sg5/.sn5).
    Scid5,
    /// ChessBase book (.ctg/.cto/.ctb).
    Ctg,
    /// Kvetka book (.kob/.kin/.ksf).
    Kvetka,
    /// Wthor 8×8 games (.wtb).
    WthorGames,
    /// Wthor 10×10 games (.wtd).
    WthorGames10,
    /// Wthor solitaires (.pzz).
    WthorSolitaires,
    /// WTHOR.JOU.
    WthorPlayers,
    /// WTHOR.TRN.
    WthorTournaments,
    /// Othello transcripts, one game a line (`f5d6c3…`).
    OthelloTranscript,
    /// Generic Game Format (Othello).
    Ggf,
    /// Othello Board Format (Edax's test positions).
    Obf,
    /// T-BASE diagrams (.dia, with .tjn solutions and .rem comments).
    TbaseDiagrams,
    TbaseSolutions,
    TbaseComments,
    Kif,
    Ki2,
    Csa,
    Sfen,
    JsonLines,
    Csv,
}

impl Format {
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
            Format::WthorGames => "wthor_games",
            Format::WthorGames10 => "wthor_games_10x10",
            Format::WthorSolitaires => "wthor_solitaires",
            Format::WthorPlayers => "wthor_players",
            Format::WthorTournaments => "wthor_tournaments",
            Format::OthelloTranscript => "othello_transcript",
            Format::Ggf => "ggf",
            Format::Obf => "obf",
            Format::TbaseDiagrams => "tbase_diagrams",
            Format::TbaseSolutions => "tbase_solutions",
            Format::TbaseComments => "tbase_comments",
            Format::Kif => "kif",
            Format::Ki2 => "ki2",
            Format::Csa => "csa",
            Format::Sfen => "sfen",
            Format::JsonLines => "jsonl",
            Format::Csv => "csv",
        }
    }

    pub const ALL: [Format; 24] = [
        Format::Pgn,
        Format::Polyglot,
        Format::Scid3,
        Format::Scid4,
        Format::Scid5,
        Format::Ctg,
        Format::Kvetka,
        Format::WthorGames,
        Format::WthorGames10,
        Format::WthorSolitaires,
        Format::WthorPlayers,
        Format::WthorTournaments,
        Format::OthelloTranscript,
        Format::Ggf,
        Format::Obf,
        Format::TbaseDiagrams,
        Format::TbaseSolutions,
        Format::TbaseComments,
        Format::Kif,
        Format::Ki2,
        Format::Csa,
        Format::Sfen,
        Format::JsonLines,
        Format::Csv,
    ];

    /// The format named by `--from`/`--to` (its [`name`](Format::name) or a usual extension).
    pub fn from_name(name: &str) -> Option<Format> {
        let lower = name.to_ascii_lowercase();
        Format::ALL.into_iter().find(|f| f.name() == lower).or_else(|| Format::from_extension(&lower))
    }

    /// The format an output path's extension asks for. `.txt` means Othello transcripts.
    pub fn from_extension(ext: &str) -> Option<Format> {
        Some(match ext.to_ascii_lowercase().as_str() {
            "pgn" => Format::Pgn,
            "bin" => Format::Polyglot,
            "si3" | "sg3" | "sn3" => Format::Scid3,
            "si4" | "sg4" | "sn4" => Format::Scid4,
            "si5" | "sg5" | "sn5" => Format::Scid5,
            "ctg" | "cto" | "ctb" => Format::Ctg,
            "kob" | "kin" | "ksf" => Format::Kvetka,
            "wtb" => Format::WthorGames,
            "wtd" => Format::WthorGames10,
            "pzz" => Format::WthorSolitaires,
            "jou" => Format::WthorPlayers,
            "trn" => Format::WthorTournaments,
            "txt" => Format::OthelloTranscript,
            "ggf" => Format::Ggf,
            "obf" => Format::Obf,
            "dia" => Format::TbaseDiagrams,
            "tjn" => Format::TbaseSolutions,
            "rem" => Format::TbaseComments,
            "kif" | "kifu" => Format::Kif,
            "ki2" | "ki2u" => Format::Ki2,
            "csa" => Format::Csa,
            "sfen" => Format::Sfen,
            "jsonl" | "ndjson" => Format::JsonLines,
            "csv" => Format::Csv,
            _ => return None,
        })
    }
}

impl std::fmt::Display for Format {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

const SCID_INDEX_MAGIC: &[u8; 8] = b"Scid.si\0";
const SCID_NAMES_MAGIC: &[u8; 8] = b"Scid.sn\0";

/// Names the format of a file from its name, its first bytes and its size. Magic bytes win
/// over the extension where a format has them; formats without magic are named by extension,
/// checked against the record size where there is one.
pub fn sniff_bytes(file_name: &str, head: &[u8], size: u64) -> Option<Format> {
    let ext = Path::new(file_name).extension().and_then(|e| e.to_str()).unwrap_or("").to_ascii_lowercase();
    if head.starts_with(SCID_INDEX_MAGIC) && head.len() >= 10 {
        return match u16::from_be_bytes([head[8], head[9]]) {
            300..=399 => Some(Format::Scid3),
            _ => Some(Format::Scid4),
        };
    }
    if head.starts_with(SCID_NAMES_MAGIC) {
        return Some(if ext == "sn3" { Format::Scid3 } else { Format::Scid4 });
    }
    if ext == "ctg" && head.starts_with(&[0x00, 0x20, 0x10, 0x00]) {
        return Some(Format::Ctg);
    }
    let by_ext = Format::from_extension(&ext);
    let fits = |header: u64, record: u64| size >= header && (size - header).is_multiple_of(record);
    match by_ext {
        Some(Format::Polyglot) => size.is_multiple_of(16).then_some(Format::Polyglot),
        Some(Format::Scid5) if ext == "si5" => size.is_multiple_of(56).then_some(Format::Scid5),
        Some(Format::WthorGames) => fits(16, 68).then_some(Format::WthorGames),
        Some(Format::WthorGames10) => fits(16, 104).then_some(Format::WthorGames10),
        Some(Format::WthorSolitaires) => fits(16 + 256, 36).then_some(Format::WthorSolitaires),
        Some(Format::WthorPlayers) => fits(16, 20).then_some(Format::WthorPlayers),
        Some(Format::WthorTournaments) => fits(16, 26).then_some(Format::WthorTournaments),
        Some(Format::OthelloTranscript) => looks_like_transcript(head).then_some(Format::OthelloTranscript),
        Some(f) => Some(f),
        None if looks_like_pgn(head) => Some(Format::Pgn),
        None => None,
    }
}

/// Names the format of a file on disk (reads at most its first 4 KiB).
pub fn sniff_path(path: &Path) -> std::io::Result<Option<Format>> {
    let file = std::fs::File::open(path)?;
    let size = file.metadata()?.len();
    let mut head = Vec::with_capacity(4096);
    file.take(4096).read_to_end(&mut head)?;
    let name = path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
    Ok(sniff_bytes(&name, &head, size))
}

fn looks_like_pgn(head: &[u8]) -> bool {
    let text = head.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(head);
    let start = text.iter().position(|b| !b.is_ascii_whitespace());
    matches!(start.map(|i| text[i]), Some(b'[') | Some(b'1'))
}

fn looks_like_transcript(head: &[u8]) -> bool {
    head.iter().take_while(|&&b| b != b'\n').all(|b| b.is_ascii_alphanumeric() || b.is_ascii_whitespace())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn magic_bytes() {
        let si4 = [b"Scid.si\0".as_slice(), &[0x01, 0x90]].concat();
        assert_eq!(sniff_bytes("x.si4", &si4, 182), Some(Format::Scid4));
        let si3 = [b"Scid.si\0".as_slice(), &[0x01, 0x2C]].concat();
        assert_eq!(sniff_bytes("old.si3", &si3, 128), Some(Format::Scid3));
        assert_eq!(sniff_bytes("x.ctg", &[0, 0x20, 0x10, 0, 0, 1], 8192), Some(Format::Ctg));
    }

    #[test]
    fn extensions_checked_against_record_sizes() {
        assert_eq!(sniff_bytes("book.bin", &[], 32), Some(Format::Polyglot));
        assert_eq!(sniff_bytes("book.bin", &[], 33), None);
        assert_eq!(sniff_bytes("WTH_2001.wtb", &[20], 16 + 68 * 3), Some(Format::WthorGames));
        assert_eq!(sniff_bytes("WTHOR.JOU", &[20], 16 + 20 * 5), Some(Format::WthorPlayers));
        assert_eq!(sniff_bytes("games.si5", &[], 56 * 2), Some(Format::Scid5));
        assert_eq!(sniff_bytes("p.dia", &[], 330), Some(Format::TbaseDiagrams));
        assert_eq!(sniff_bytes("games", b"[Event \"x\"]", 11), Some(Format::Pgn));
    }
}
