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

pub mod ggf;
pub mod obf;
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
