//! The rule that keeps a game's text byte for byte in Parquet, whose string columns must hold
//! UTF-8: a game whose texts (tag names and values, comments) are all UTF-8 is stored as it is;
//! a game with any text that is not is stored with every byte of every text read as Latin-1
//! (ISO 8859-1: byte n is the character U+00nn), which the `text_encoding` column says. Reading
//! maps those characters back to their bytes, so both kinds come back as they went in, and a
//! Latin-1 game (the usual case of text that is not UTF-8) reads rightly in any Parquet tool.

use std::borrow::Cow;

/// How the texts of one row are held in its string columns.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum TextEncoding {
    /// The texts are the bytes, which were UTF-8.
    #[default]
    Utf8,
    /// Each character is one byte of the text (U+0000–U+00FF).
    Latin1,
}

impl TextEncoding {
    /// The encoding for a row with these texts: UTF-8 when every one of them is.
    pub fn of<'a>(mut texts: impl Iterator<Item = &'a [u8]>) -> TextEncoding {
        if texts.all(|t| std::str::from_utf8(t).is_ok()) { TextEncoding::Utf8 } else { TextEncoding::Latin1 }
    }

    /// The name in the `text_encoding` column.
    pub fn name(self) -> &'static str {
        match self {
            TextEncoding::Utf8 => "utf-8",
            TextEncoding::Latin1 => "latin-1",
        }
    }

    /// The encoding named `name` in the `text_encoding` column.
    pub fn from_name(name: &str) -> Option<TextEncoding> {
        match name {
            "utf-8" => Some(TextEncoding::Utf8),
            "latin-1" => Some(TextEncoding::Latin1),
            _ => None,
        }
    }

    /// `bytes` as the column holds them.
    pub fn to_column(self, bytes: &[u8]) -> Cow<'_, str> {
        match self {
            TextEncoding::Utf8 => String::from_utf8_lossy(bytes),
            TextEncoding::Latin1 => Cow::Owned(bytes.iter().map(|&b| char::from(b)).collect()),
        }
    }

    /// The bytes of a column's text; `None` when a Latin-1 text holds a character past U+00FF
    /// (the file was not written by this rule).
    pub fn from_column(self, text: &str) -> Option<Cow<'_, [u8]>> {
        match self {
            TextEncoding::Utf8 => Some(Cow::Borrowed(text.as_bytes())),
            TextEncoding::Latin1 => {
                text.chars().map(|c| u8::try_from(u32::from(c)).ok()).collect::<Option<Vec<u8>>>().map(Cow::Owned)
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_byte_string_comes_back() {
        let latin1: &[u8] = b"Andersson, Ulf \xe9\xff\x00";
        let utf8 = "Ljubojević".as_bytes();
        assert_eq!(TextEncoding::of([utf8].into_iter()), TextEncoding::Utf8);
        assert_eq!(TextEncoding::of([utf8, latin1].into_iter()), TextEncoding::Latin1);
        for encoding in [TextEncoding::Utf8, TextEncoding::Latin1] {
            let texts: &[&[u8]] = if encoding == TextEncoding::Utf8 { &[utf8] } else { &[utf8, latin1] };
            for &text in texts {
                let column = encoding.to_column(text);
                assert_eq!(encoding.from_column(&column).as_deref(), Some(text));
            }
            assert_eq!(TextEncoding::from_name(encoding.name()), Some(encoding));
        }
        // Latin-1 is read as a person reads it.
        assert_eq!(TextEncoding::Latin1.to_column(b"J\xe9r\xf4me"), "Jérôme");
        assert_eq!(TextEncoding::Latin1.from_column("Ljubojević"), None);
    }
}
