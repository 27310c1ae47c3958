//! Othello text formats: transcripts (`f5d6c3…`) and GGF, the Generic Game Format of the GGS
//! server.
//!
//! ```
//! use tabiya_othello::text::transcript;
//!
//! let moves = transcript::parse_line("f5 D6 c3", 1)?;
//! assert_eq!(moves, [37, 43, 18]); // square index 8 · row + column, a1 = 0
//! assert_eq!(transcript::format(&moves), "f5d6c3");
//! # Ok::<(), tabiya_othello::text::TextError>(())
//! ```

pub mod ggf;
pub mod transcript;

use tabiya_io::Location;

/// Text that is not what the format allows; the location names the line (as its record
/// number, 1-based) and the byte offset in the input.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{location}: expected {expected}, found {found:?}")]
pub struct TextError {
    pub location: Location,
    pub expected: String,
    pub found: String,
}

impl TextError {
    pub fn new(location: Location, expected: impl Into<String>, found: impl Into<String>) -> TextError {
        TextError { location, expected: expected.into(), found: found.into() }
    }
}

/// The square index (`8 · row + column`, a1 = 0) of a name such as `f5` or `F5`.
pub fn square_index(name: &[u8]) -> Option<u8> {
    match name {
        [c @ (b'a'..=b'h' | b'A'..=b'H'), r @ b'1'..=b'8'] => Some((r - b'1') * 8 + (c.to_ascii_lowercase() - b'a')),
        _ => None,
    }
}

/// The name of a square index, lower-case (`f5`).
pub fn square_name(index: u8) -> [u8; 2] {
    [b'a' + index % 8, b'1' + index / 8]
}
