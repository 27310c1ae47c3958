//! Othello text formats: transcripts (`f5d6c3…`), GGF (the Generic Game Format of the GGS
//! server) and OBF (Edax's one-line positions).
//!
//! ```
//! use tabiya_othello::text::transcript;
//!
//! let moves = transcript::parse_line("f5 D6 c3", 1)?;
//! assert_eq!(moves.iter().map(|s| s.index()).collect::<Vec<_>>(), [37, 43, 18]); // 8 · row + column
//! assert_eq!(transcript::format(&moves), "f5d6c3");
//! # Ok::<(), tabiya_othello::text::TextError>(())
//! ```

pub mod exported;
pub mod ggf;
pub mod obf;
pub mod transcript;

use std::borrow::Cow;

use tabiya_io::{Codepage, Location};

/// Text that is not what the format allows; the location names the line (as its record
/// number, 1-based) and the byte offset in the input.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{location}: expected {expected}, found {found:?}")]
pub struct TextError {
    /// Where: the byte offset in the text and the line (or GGF game) number.
    pub location: Location,
    /// What the format allows there.
    pub expected: String,
    /// What was there.
    pub found: String,
}

impl TextError {
    /// An error at `location`.
    pub fn new(location: Location, expected: impl Into<String>, found: impl Into<String>) -> TextError {
        TextError { location, expected: expected.into(), found: found.into() }
    }
}

/// The text of an Othello text file: UTF-8, else Windows-1252 (what older GGF files and
/// transcripts from Windows programs are written in; every byte decodes, nothing is lost).
pub fn decode(bytes: &[u8]) -> Cow<'_, str> {
    match std::str::from_utf8(bytes) {
        Ok(s) => Cow::Borrowed(s),
        Err(_) => Codepage::Windows1252.decode(bytes),
    }
}

/// The records of a one-record-a-line format: every line that is not blank or a comment (`#`
/// or `%` first), with its 1-based number and what `parse` makes of it. `parse` reports
/// offsets within the line; they are moved to offsets in `text`.
fn parse_lines<'a, T>(
    text: &'a str,
    parse: impl Fn(&'a str, u64) -> Result<T, TextError> + 'a,
) -> impl Iterator<Item = (u64, Result<T, TextError>)> + 'a {
    let mut offset = 0u64;
    text.split('\n').enumerate().filter_map(move |(n, line)| {
        let start = offset;
        offset += line.len() as u64 + 1;
        let content = line.trim();
        if content.is_empty() || content.starts_with('#') || content.starts_with('%') {
            return None;
        }
        let number = n as u64 + 1;
        Some((
            number,
            parse(line, number).map_err(|mut e| {
                e.location.offset = e.location.offset.map(|o| o + start);
                e
            }),
        ))
    })
}
