//! Text as the bytes it came as: tag names and values, comments and names of chess games.
//!
//! Old PGN files and SCID databases hold Latin-1, Windows-1252 or bytes of no encoding at all
//! next to UTF-8, and SCID keeps them as they are (a byte 0x82 stays 0x82). So the game model
//! keeps bytes, and decodes only to show them ([`Text::to_str_lossy`], `Display`) or for a
//! format that requires an encoding (JSON Lines, [`crate::jsonl`]). A PGN → PGN, PGN → SCID or
//! SCID → PGN conversion then writes back every byte it read, as SCID does.
//!
//! [`Text`] is the borrowed form (as `str` is to `String`), [`TextBuf`] the owned one; both
//! compare with `str` by bytes.
//!
//! ```
//! use tabiya_chess::text::{Text, TextBuf};
//!
//! let name = TextBuf::from(b"Quadros,Andr\x82".to_vec());
//! assert_eq!(name.as_bytes(), b"Quadros,Andr\x82");
//! assert_eq!(name.to_str(), None);
//! assert_eq!(name.to_string(), "Quadros,Andr\u{FFFD}");
//! assert_eq!(Text::new(b"Morphy"), "Morphy");
//! ```

use std::borrow::{Borrow, Cow};
use std::fmt;
use std::ops::Deref;

/// Borrowed text: the bytes a tag value, comment or name came as (see the module page).
#[derive(PartialEq, Eq, Hash, PartialOrd, Ord)]
#[repr(transparent)]
pub struct Text([u8]);

impl Text {
    /// The bytes as text.
    pub fn new<B: AsRef<[u8]> + ?Sized>(bytes: &B) -> &Text {
        let bytes: &[u8] = bytes.as_ref();
        // SAFETY: `Text` is `repr(transparent)` over `[u8]`, so both references have the same
        // layout and metadata (the length); the lifetime is kept.
        unsafe { &*(bytes as *const [u8] as *const Text) }
    }

    /// The bytes as they came.
    #[inline]
    pub fn as_bytes(&self) -> &[u8] {
        &self.0
    }

    /// The text, if its bytes are UTF-8.
    pub fn to_str(&self) -> Option<&str> {
        std::str::from_utf8(&self.0).ok()
    }

    /// The text for display: UTF-8 as it is, each byte sequence that is not UTF-8 as U+FFFD.
    pub fn to_str_lossy(&self) -> Cow<'_, str> {
        String::from_utf8_lossy(&self.0)
    }

    /// Number of bytes.
    pub fn len(&self) -> usize {
        self.0.len()
    }

    /// No bytes at all.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// The text without the ASCII white space (space, tab, CR, LF, form feed) at either end.
    pub fn trim(&self) -> &Text {
        Text::new(self.0.trim_ascii())
    }

    /// The text as a rating (a `WhiteElo` or `BlackElo` tag): a decimal number, an optional
    /// `+` before it, ASCII white space around it. `None` when it is anything else or does not
    /// fit 32 bits. The one rule of every reader of ratings (books, trees, `select`, `info`,
    /// Arrow), so that a game has the same rating wherever it is counted.
    ///
    /// ```
    /// use tabiya_chess::text::Text;
    ///
    /// assert_eq!(Text::new(" 2850\t").rating(), Some(2850));
    /// assert_eq!(Text::new("+2850").rating(), Some(2850));
    /// assert_eq!(Text::new("2850?").rating(), None);
    /// assert_eq!(Text::new("-5").rating(), None);
    /// assert_eq!(Text::new("2850\u{a0}").rating(), None);
    /// ```
    pub fn rating(&self) -> Option<u32> {
        self.trim().to_str()?.parse().ok()
    }
}

/// A rating tag's value as trees and Kvetka's `.ksf` keep it, in 16 bits: [`Text::rating`], 0
/// when the tag is missing, not a rating or over 65,535.
///
/// ```
/// use tabiya_chess::text::{Text, rating_16};
///
/// assert_eq!(rating_16(Some(Text::new(" 2700 "))), 2700);
/// assert_eq!(rating_16(Some(Text::new("99999"))), 0);
/// assert_eq!(rating_16(None), 0);
/// ```
pub fn rating_16(value: Option<&Text>) -> u16 {
    value.and_then(Text::rating).and_then(|r| u16::try_from(r).ok()).unwrap_or(0)
}

/// Shown decoded lossily ([`Text::to_str_lossy`]).
impl fmt::Display for Text {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(&self.to_str_lossy(), f)
    }
}

/// Shown as a quoted string: UTF-8 as `str` shows it; text that is not UTF-8 with every byte
/// outside printable ASCII escaped (`"Andr\x82"`), so nothing is hidden.
impl fmt::Debug for Text {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.to_str() {
            Some(text) => fmt::Debug::fmt(text, f),
            None => write!(f, "\"{}\"", self.0.escape_ascii()),
        }
    }
}

impl AsRef<[u8]> for Text {
    fn as_ref(&self) -> &[u8] {
        &self.0
    }
}

impl AsRef<Text> for Text {
    fn as_ref(&self) -> &Text {
        self
    }
}

impl AsRef<Text> for str {
    fn as_ref(&self) -> &Text {
        Text::new(self)
    }
}

impl AsRef<Text> for String {
    fn as_ref(&self) -> &Text {
        Text::new(self)
    }
}

impl AsRef<Text> for [u8] {
    fn as_ref(&self) -> &Text {
        Text::new(self)
    }
}

impl<'a> From<&'a str> for &'a Text {
    fn from(text: &'a str) -> &'a Text {
        Text::new(text)
    }
}

impl PartialEq<str> for Text {
    fn eq(&self, other: &str) -> bool {
        self.0 == *other.as_bytes()
    }
}

impl PartialEq<&str> for Text {
    fn eq(&self, other: &&str) -> bool {
        self.0 == *other.as_bytes()
    }
}

impl PartialEq<Text> for str {
    fn eq(&self, other: &Text) -> bool {
        *self.as_bytes() == other.0
    }
}

impl ToOwned for Text {
    type Owned = TextBuf;

    fn to_owned(&self) -> TextBuf {
        TextBuf(self.0.to_vec())
    }
}

/// Owned text: the bytes a comment or name came as (see the module page).
#[derive(Clone, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct TextBuf(Vec<u8>);

impl TextBuf {
    /// Empty text.
    pub const fn new() -> TextBuf {
        TextBuf(Vec::new())
    }

    /// The bytes, given back.
    pub fn into_bytes(self) -> Vec<u8> {
        self.0
    }

    /// The text as `&Text`.
    pub fn as_text(&self) -> &Text {
        Text::new(&self.0)
    }
}

impl Deref for TextBuf {
    type Target = Text;

    #[inline]
    fn deref(&self) -> &Text {
        Text::new(&self.0)
    }
}

impl Borrow<Text> for TextBuf {
    fn borrow(&self) -> &Text {
        self
    }
}

impl AsRef<Text> for TextBuf {
    fn as_ref(&self) -> &Text {
        self
    }
}

impl AsRef<[u8]> for TextBuf {
    fn as_ref(&self) -> &[u8] {
        &self.0
    }
}

impl fmt::Display for TextBuf {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self.as_text(), f)
    }
}

impl fmt::Debug for TextBuf {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(self.as_text(), f)
    }
}

impl From<Vec<u8>> for TextBuf {
    fn from(bytes: Vec<u8>) -> TextBuf {
        TextBuf(bytes)
    }
}

impl From<&[u8]> for TextBuf {
    fn from(bytes: &[u8]) -> TextBuf {
        TextBuf(bytes.to_vec())
    }
}

impl From<String> for TextBuf {
    fn from(text: String) -> TextBuf {
        TextBuf(text.into_bytes())
    }
}

impl From<&str> for TextBuf {
    fn from(text: &str) -> TextBuf {
        TextBuf(text.as_bytes().to_vec())
    }
}

impl From<&Text> for TextBuf {
    fn from(text: &Text) -> TextBuf {
        text.to_owned()
    }
}

impl From<Cow<'_, [u8]>> for TextBuf {
    fn from(bytes: Cow<'_, [u8]>) -> TextBuf {
        TextBuf(bytes.into_owned())
    }
}

impl PartialEq<str> for TextBuf {
    fn eq(&self, other: &str) -> bool {
        self.0 == *other.as_bytes()
    }
}

impl PartialEq<&str> for TextBuf {
    fn eq(&self, other: &&str) -> bool {
        self.0 == *other.as_bytes()
    }
}

impl PartialEq<TextBuf> for str {
    fn eq(&self, other: &TextBuf) -> bool {
        *self.as_bytes() == other.0
    }
}

impl PartialEq<TextBuf> for &str {
    fn eq(&self, other: &TextBuf) -> bool {
        *self.as_bytes() == other.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bytes_are_kept_and_shown_without_hiding_anything() {
        let legacy = TextBuf::from(b"W\xe4lbers".as_slice());
        assert_eq!(legacy.as_bytes(), b"W\xe4lbers");
        assert_eq!(format!("{legacy}"), "W\u{FFFD}lbers");
        assert_eq!(format!("{legacy:?}"), r#""W\xe4lbers""#);
        assert_eq!(format!("{:?}", Text::new("Réti \"x\"")), r#""Réti \"x\"""#);
        assert_eq!(Text::new(b" \tx y\r\n").trim(), "x y");
        let morphy = TextBuf::from("Morphy");
        assert_eq!(morphy, "Morphy");
        assert_eq!("Morphy", morphy);
        assert_eq!(*morphy, *"Morphy");
        assert_ne!(*Text::new(b"Andr\x82"), *"Andr‚");
    }
}
