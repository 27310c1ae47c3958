//! Legacy code pages, through encoding_rs.

use std::borrow::Cow;

use encoding_rs::{Encoding, SHIFT_JIS, UTF_8, WINDOWS_1251, WINDOWS_1252};

/// The text encodings found in the mission's files.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Codepage {
    /// UTF-8 (SCID 4/5, modern PGN, UTF-8 KIF).
    Utf8,
    /// Russian programs (Kvetka's ANSI strings).
    Windows1251,
    /// Western European programs (Wthor names, old PGN, SCID before UTF-8). A superset of
    /// Latin-1 for printable characters: WHATWG maps 0x80–0x9F to the cp1252 characters.
    Windows1252,
    /// Japanese programs (T-BASE); the WHATWG Shift_JIS decoder is CP932 with the NEC/IBM extensions.
    ShiftJis,
}

impl Codepage {
    fn encoding(self) -> &'static Encoding {
        match self {
            Codepage::Utf8 => UTF_8,
            Codepage::Windows1251 => WINDOWS_1251,
            Codepage::Windows1252 => WINDOWS_1252,
            Codepage::ShiftJis => SHIFT_JIS,
        }
    }

    /// Decodes, replacing malformed sequences with U+FFFD. Never fails; borrows when it can.
    pub fn decode(self, bytes: &[u8]) -> Cow<'_, str> {
        self.encoding().decode_without_bom_handling(bytes).0
    }

    /// Decodes, or `None` if the bytes are not valid in this code page.
    pub fn decode_strict(self, bytes: &[u8]) -> Option<Cow<'_, str>> {
        self.encoding().decode_without_bom_handling_and_without_replacement(bytes)
    }

    /// Encodes, or returns the first character the code page cannot represent.
    pub fn encode(self, text: &str) -> Result<Cow<'_, [u8]>, char> {
        let (bytes, _, unmappable) = self.encoding().encode(text);
        if !unmappable {
            return Ok(bytes);
        }
        let bad = text
            .chars()
            .find(|c| self.encoding().encode(c.encode_utf8(&mut [0; 4])).2)
            .unwrap_or(char::REPLACEMENT_CHARACTER);
        Err(bad)
    }
}

/// The bytes of a fixed-size field up to its first NUL (all of it if there is none).
pub fn until_nul(field: &[u8]) -> &[u8] {
    match field.iter().position(|&b| b == 0) {
        Some(end) => &field[..end],
        None => field,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn code_pages() {
        assert_eq!(Codepage::Windows1251.decode(&[0xCA, 0xE2, 0xE5, 0xF2, 0xEA, 0xE0]), "Кветка");
        assert_eq!(Codepage::Windows1252.decode(&[0x4C, 0xE9, 0x76, 0x79, 0x80]), "Lévy€");
        // 詰将棋 in Shift-JIS.
        assert_eq!(Codepage::ShiftJis.decode(&[0x8B, 0x6C, 0x8F, 0xAB, 0x8A, 0xFB]), "詰将棋");
        assert_eq!(Codepage::ShiftJis.encode("詰将棋").unwrap().as_ref(), [0x8B, 0x6C, 0x8F, 0xAB, 0x8A, 0xFB]);
        assert_eq!(Codepage::Windows1251.encode("aЖ€").unwrap().as_ref(), [0x61, 0xC6, 0x88]);
        assert_eq!(Codepage::Windows1251.encode("a✓b"), Err('✓'));
        assert_eq!(Codepage::Utf8.decode_strict(&[0xff]), None);
    }

    #[test]
    fn nul_fields() {
        assert_eq!(until_nul(b"Tamenori\0\0junk"), b"Tamenori");
        assert_eq!(until_nul(b"full"), b"full");
    }
}
