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

use tabiya_io::{Codepage, Diagnostic, Location, Unit};

use crate::Format;
use crate::game::Game;

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

/// A game read from text, or the diagnostic that says why it could not be read.
pub type ReadGame = Result<Game, Diagnostic>;

/// The games of a text file of `format` (transcripts, GGF, tabiya's JSON Lines and CSV
/// exports) in file order, each with where it is (its line; its game number for GGF) and read
/// into the game model or the diagnostic that says why it could not be; `None` for a format
/// that holds no games as text. The one reader behind `convert`, `select`, `info` and `verify`
/// of these formats.
pub fn read_games(format: Format, text: &str) -> Option<Box<dyn Iterator<Item = (Location, ReadGame)> + '_>> {
    let diagnostic = move |e| crate::report::text_diagnostic(format, e);
    let line = |n: u64| Location::of(Unit::Line, n);
    Some(match format {
        Format::Transcript => Box::new(
            transcript::parse(text)
                .map(move |(n, moves)| (line(n), moves.map(Game::from_transcript).map_err(diagnostic))),
        ),
        // Text between GGF games is not read: text that holds none is not a GGF file of no games.
        Format::Ggf if !text.trim().is_empty() && ggf::parse(text).next().is_none() => {
            let what = format!("no GGF game (`(;GM[Othello]…;)`) in {} bytes of text", text.len());
            Box::new(std::iter::once((Location::at(0), Err(Diagnostic::error("ggf.no_games", Location::at(0), what)))))
        }
        Format::Ggf => Box::new(ggf::parse(text).enumerate().map(move |(n, game)| {
            let at = Location::of(Unit::Game, n as u64 + 1);
            let game = game.map_err(diagnostic).and_then(|game| {
                Game::from_ggf(game).ok_or_else(|| {
                    Diagnostic::error("ggf.start", at.clone(), "not the standard start position; the game is skipped")
                })
            });
            (at, game)
        })),
        Format::JsonLines => {
            Box::new(exported::parse_jsonl(text).map(move |(n, game)| (line(n), game.map_err(diagnostic))))
        }
        Format::Csv => Box::new(exported::parse_csv(text).map(move |(n, game)| (line(n), game.map_err(diagnostic)))),
        _ => return None,
    })
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
