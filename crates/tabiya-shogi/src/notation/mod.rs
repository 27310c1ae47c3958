//! Shogi notations: SFEN positions, the Japanese move notation (T-BASE, KI2, KIF moves), and the
//! KIF, KI2 and CSA records, all read into and written from [`Kifu`].
//!
//! ```
//! use tabiya_shogi::board::usi;
//! use tabiya_shogi::notation::japanese::{Style, parse_tokens, resolve_line, write_line};
//! use tabiya_shogi::notation::sfen;
//!
//! let start = sfen::parse("7gl/8k/9/5+R3/4B4/9/9/9/9 b GPrb2g4s4n3l17p 1").unwrap();
//! let moves = resolve_line(&start, &parse_tokens("14龍13金合22金同金").unwrap()).unwrap();
//! assert_eq!(moves.iter().map(|&m| usi(m)).collect::<Vec<_>>(), ["4d1d", "G*1c", "G*2b", "2a2b"]);
//! assert_eq!(write_line(&start, &moves, Style::Ki2), ["１四龍", "１三金", "２二金", "同　金"]);
//! ```

pub mod csa;
pub mod japanese;
pub mod kif;
pub mod sfen;

use shogi_core::{Move, PartialPosition};
use tabiya_io::{DataError, Location};

use crate::Error;

/// A game or tsume record as KIF, KI2 and CSA hold it: header fields in file order, the start
/// position (hands included), the moves, and the comment lines on the start position.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Kifu {
    /// `(key, value)` in file order: for tsume `作品番号`, `作品名`, `作者`, `発表誌`, `発表年月`,
    /// `手数`, `完全性`, …
    pub headers: Vec<(String, String)>,
    pub start: PartialPosition,
    pub moves: Vec<Move>,
    pub comments: Vec<String>,
}

impl Kifu {
    pub fn new(start: PartialPosition) -> Kifu {
        Kifu { headers: Vec::new(), start, moves: Vec::new(), comments: Vec::new() }
    }

    /// The value of a header field.
    pub fn header(&self, key: &str) -> Option<&str> {
        self.headers.iter().find(|(k, _)| k == key).map(|(_, v)| v.as_str())
    }

    /// The position after every move, and whether the side to move there is mated.
    pub fn ends_in_mate(&self) -> bool {
        let mut position = self.start.clone();
        for &mv in &self.moves {
            if position.make_move(mv).is_none() {
                return false;
            }
        }
        crate::board::is_mate(&position)
    }
}

/// A text-format error: byte offset of the line, its number, what was expected.
fn line_error(offset: usize, line: usize, expected: impl std::fmt::Display, found: &str) -> Error {
    let location = Location { file: None, offset: Some(offset as u64), ..Location::default() };
    DataError::new(location, format!("line {line}: {expected}")).found(format!("{found:?}")).into()
}

/// The lines of a text with their byte offsets and 1-based numbers, CR LF or LF.
fn numbered_lines(text: &str) -> impl Iterator<Item = (usize, usize, &str)> {
    let mut offset = 0;
    text.split('\n').enumerate().map(move |(i, line)| {
        let start = offset;
        offset += line.len() + 1;
        (start, i + 1, line.strip_suffix('\r').unwrap_or(line))
    })
}
