//! The text encodings of shogi records: Shift-JIS (KIF, KI2 and CSA as 柿木将棋 and most
//! Windows programs write them), EUC-JP (older Unix programs such as GPS将棋), UTF-8 (`.kifu`,
//! `.ki2u`, newer programs). A file rarely says which it is, so [`Encoding::detect`] looks.

use std::borrow::Cow;

use encoding_rs::{EUC_JP, SHIFT_JIS, UTF_8};

/// A text encoding of shogi records.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Encoding {
    /// Shift-JIS (decoded as WHATWG's Shift_JIS, which is CP932 with the NEC/IBM extensions).
    ShiftJis,
    /// EUC-JP.
    EucJp,
    /// UTF-8 (a byte-order mark is skipped on reading, never written).
    Utf8,
}

/// Characters every Japanese shogi record is full of; the decoding that yields more of them is
/// the file's encoding when the bytes are valid in both (EUC-JP kanji are half-width katakana
/// pairs and kanji in Shift-JIS).
const SHOGI_CHARACTERS: &str = "先後手持駒歩香桂銀金角飛玉王と成龍竜馬同打投了まで▲△上下番号将棋局開始時間";

impl Encoding {
    /// Every encoding, in the order detection prefers them on a tie.
    pub const ALL: [Encoding; 3] = [Encoding::Utf8, Encoding::ShiftJis, Encoding::EucJp];

    /// The name `--encoding` takes and reports print.
    pub fn name(self) -> &'static str {
        match self {
            Encoding::ShiftJis => "shift_jis",
            Encoding::EucJp => "euc-jp",
            Encoding::Utf8 => "utf-8",
        }
    }

    /// The encoding a name means: [`name`](Encoding::name) or a usual alias (`sjis`, `cp932`,
    /// `eucjp`, `utf8`), in any case.
    pub fn from_name(name: &str) -> Option<Encoding> {
        let name = name.trim().to_ascii_lowercase().replace(['-', '_'], "");
        match name.as_str() {
            "shiftjis" | "sjis" | "cp932" | "windows31j" | "ms932" => Some(Encoding::ShiftJis),
            "eucjp" | "euc" => Some(Encoding::EucJp),
            "utf8" => Some(Encoding::Utf8),
            _ => None,
        }
    }

    fn codec(self) -> &'static encoding_rs::Encoding {
        match self {
            Encoding::ShiftJis => SHIFT_JIS,
            Encoding::EucJp => EUC_JP,
            Encoding::Utf8 => UTF_8,
        }
    }

    /// The encoding of a record file: a UTF-8 byte-order mark, else an `encoding=` declaration
    /// in the first lines (`#KIF version=2.0 encoding=UTF-8`, CSA's `'encoding=Shift_JIS`), else
    /// UTF-8 when the bytes are valid UTF-8, else whichever of Shift-JIS and EUC-JP decodes
    /// without error into more shogi characters (Shift-JIS on a tie).
    pub fn detect(bytes: &[u8]) -> Encoding {
        if bytes.starts_with(b"\xEF\xBB\xBF") {
            return Encoding::Utf8;
        }
        if let Some(declared) = Encoding::declared(bytes) {
            return declared;
        }
        if std::str::from_utf8(bytes).is_ok() {
            return Encoding::Utf8;
        }
        let score =
            |encoding: Encoding| match encoding.codec().decode_without_bom_handling_and_without_replacement(bytes) {
                Some(text) => text.chars().filter(|c| SHOGI_CHARACTERS.contains(*c)).count() + 1,
                None => 0,
            };
        let (sjis, euc) = (score(Encoding::ShiftJis), score(Encoding::EucJp));
        if euc > sjis { Encoding::EucJp } else { Encoding::ShiftJis }
    }

    /// An `encoding=NAME` declaration in the first five lines.
    fn declared(bytes: &[u8]) -> Option<Encoding> {
        bytes.split(|&b| b == b'\n').take(5).find_map(|line| {
            let line = std::str::from_utf8(line).ok()?;
            let at = line.find("encoding=")?;
            let name = line[at + "encoding=".len()..].split(|c: char| c.is_whitespace() || c == ',').next()?;
            Encoding::from_name(name)
        })
    }

    /// Decodes, replacing malformed sequences with U+FFFD; also says whether any was replaced.
    pub fn decode(self, bytes: &[u8]) -> (Cow<'_, str>, bool) {
        let bytes = if self == Encoding::Utf8 { bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes) } else { bytes };
        let (text, malformed) = self.codec().decode_without_bom_handling(bytes);
        (text, malformed)
    }

    /// Encodes, or returns the first character the encoding cannot represent.
    pub fn encode(self, text: &str) -> Result<Vec<u8>, char> {
        if self == Encoding::Utf8 {
            return Ok(text.as_bytes().to_vec());
        }
        let (bytes, _, unmappable) = self.codec().encode(text);
        if !unmappable {
            return Ok(bytes.into_owned());
        }
        Err(text.chars().find(|c| self.codec().encode(c.encode_utf8(&mut [0; 4])).2).unwrap_or('\u{FFFD}'))
    }

    /// The encoding a file's extension promises, if it promises one: `.kifu` and `.ki2u` are
    /// UTF-8.
    pub fn of_extension(path: &std::path::Path) -> Option<Encoding> {
        let ext = path.extension()?.to_str()?.to_ascii_lowercase();
        matches!(ext.as_str(), "kifu" | "ki2u").then_some(Encoding::Utf8)
    }
}

impl std::fmt::Display for Encoding {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn detects_each_encoding() {
        let text = "手合割：平手\r\n先手：羽生善治\r\n後手：谷川浩司\r\n   1 ７六歩(77)\r\n";
        for encoding in Encoding::ALL {
            let bytes = encoding.encode(text).unwrap();
            assert_eq!(Encoding::detect(&bytes), encoding, "{encoding}");
            assert_eq!(encoding.decode(&bytes).0, text);
        }
        let declared = b"#KIF version=2.0 encoding=Shift_JIS\r\n";
        assert_eq!(Encoding::detect(declared), Encoding::ShiftJis, "declared, though valid UTF-8");
        assert_eq!(Encoding::from_name("EUC-JP"), Some(Encoding::EucJp));
    }
}
