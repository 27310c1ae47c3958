//! OBF, Edax's one-line position format: 64 board characters a1..h8 row by row (`X` black,
//! `O` white, `-` empty), a space, the side to move (`X`/`O`), then optionally `;` and
//! `Move:score` entries (the final disc difference for the side to move after that move).
//!
//! ```
//! use tabiya_othello::text::obf;
//!
//! let line = "--XXXXX--OOOXX-O-OOOXXOX-OXOXOXXOXXXOXXX--XOXOXX-XXXOOO--OOOOO-- X; G8:+18; H1:+12;";
//! let parsed = obf::parse_line(line, 1)?;
//! assert_eq!(parsed.position.board.empties(), 14);
//! assert_eq!(parsed.scores[0].0.to_string(), "g8");
//! assert_eq!(obf::format_line(&parsed.position, &parsed.scores), line);
//! # Ok::<(), tabiya_othello::text::TextError>(())
//! ```

use tabiya_io::Location;

use super::TextError;
use crate::board::{Color, Position, Square};

/// One OBF line: a position and the scores listed for some of its moves.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ObfLine {
    /// The position and its side to move.
    pub position: Position,
    /// The listed moves with their scores, in line order.
    pub scores: Vec<(Square, i32)>,
}

fn error(line: u64, offset: usize, expected: &'static str, found: &str) -> TextError {
    TextError::new(Location::at(offset as u64).with_record(line), expected, found.chars().take(16).collect::<String>())
}

/// Parses one line; `number` (1-based) locates errors, whose offsets count bytes from the start
/// of the line. Like Edax, accepts lower case and `*`/`.` for a black disc and an empty square,
/// and `B`/`W` for the side.
pub fn parse_line(line: &str, number: u64) -> Result<ObfLine, TextError> {
    let bytes = line.as_bytes();
    let (mut black, mut white) = (0u64, 0u64);
    for index in 0..64 {
        match bytes.get(index).map(u8::to_ascii_uppercase) {
            Some(b'X' | b'B' | b'*') => black |= 1 << index,
            Some(b'O' | b'W') => white |= 1 << index,
            Some(b'-' | b'.') => {}
            _ => return Err(error(number, index, "a square: X, O or -", line.get(index..).unwrap_or(""))),
        }
    }
    let rest = line.get(64..).unwrap_or("");
    let trimmed = rest.trim_start();
    let side_column = 64 + rest.len() - trimmed.len();
    let side = match trimmed.as_bytes().first().map(u8::to_ascii_uppercase) {
        Some(b'X' | b'B') => Color::Black,
        Some(b'O' | b'W') => Color::White,
        _ => return Err(error(number, side_column, "the side to move: X or O", trimmed)),
    };
    let position = Position::from_discs(black, white, side).ok_or_else(|| error(number, 0, "a board", line))?;
    let mut scores = Vec::new();
    let mut column = side_column + 1;
    let tail = trimmed.get(1..).unwrap_or("");
    for (i, field) in tail.split(';').enumerate() {
        let entry = field.trim();
        if i == 0 && !entry.is_empty() {
            return Err(error(number, column, "';' after the side to move", field));
        }
        if !entry.is_empty() {
            let at = column + field.len() - field.trim_start().len();
            scores.push(parse_score(entry).ok_or_else(|| error(number, at, "Move:score, e.g. G8:+18", entry))?);
        }
        column += field.len() + 1;
    }
    Ok(ObfLine { position, scores })
}

impl ObfLine {
    /// The best listed score and the listed moves that reach it (`None` without a list).
    pub fn best_listed(&self) -> Option<(i32, Vec<Square>)> {
        let best = self.scores.iter().map(|&(_, score)| score).max()?;
        Some((best, self.scores.iter().filter(|&&(_, s)| s == best).map(|&(m, _)| m).collect()))
    }
}

fn parse_score(entry: &str) -> Option<(Square, i32)> {
    let (square, score) = entry.split_once(':')?;
    let square = square.trim().parse().ok()?;
    let score: i32 = score.trim().trim_start_matches('+').parse().ok()?;
    (-64..=64).contains(&score).then_some((square, score))
}

/// Every position of an OBF file: one per non-blank line; lines starting with `#` or `%` are
/// comments. Each item is (line number, parsed line or error with its offset in `text`).
pub fn parse(text: &str) -> impl Iterator<Item = (u64, Result<ObfLine, TextError>)> + '_ {
    super::parse_lines(text, |line, number| parse_line(line.trim_end(), number))
}

/// The line Edax writes: upper-case moves, signed scores, `; ` between entries.
pub fn format_line(position: &Position, scores: &[(Square, i32)]) -> String {
    let mut line = format!("{position};");
    for (square, score) in scores {
        line.push_str(&format!(" {}:{score:+03};", square.to_string().to_uppercase()));
    }
    line
}

#[cfg(test)]
mod tests {
    use super::*;

    const FFO_1: &str = "--XXXXX--OOOXX-O-OOOXXOX-OXOXOXXOXXXOXXX--XOXOXX-XXXOOO--OOOOO-- X";

    #[test]
    fn reads_edax_lines() {
        let parsed = parse_line(&format!("{FFO_1}; G8:+18; B1:-4; A4:-22;"), 1).unwrap();
        assert_eq!(parsed.position.side, Color::Black);
        assert_eq!(parsed.position.black().count_ones(), 27);
        assert_eq!(parsed.position.white().count_ones(), 23);
        let scores: Vec<(String, i32)> = parsed.scores.iter().map(|(s, v)| (s.to_string(), *v)).collect();
        assert_eq!(scores, [("g8".into(), 18), ("b1".into(), -4), ("a4".into(), -22)]);
        assert_eq!(format_line(&parsed.position, &parsed.scores), format!("{FFO_1}; G8:+18; B1:-04; A4:-22;"));
        assert_eq!(parsed.best_listed(), Some((18, vec!["g8".parse().unwrap()])));
        assert_eq!(parse_line(FFO_1, 1).unwrap().scores, []);
        assert_eq!(parse_line(FFO_1, 1).unwrap().best_listed(), None);
        assert_eq!(parse_line(&format!("{FFO_1};"), 1).unwrap().position, parsed.position);
    }

    #[test]
    fn names_what_is_wrong_and_where() {
        let at = |e: TextError| (e.location.number, e.location.offset, e.expected);
        let e = parse_line("--XXXXX--OOOXX-O-OOOXXOX-OXOXOXXOXXXOXXX--XOXOXX-XXXOOO--OOOOO", 7).unwrap_err();
        assert_eq!(at(e), (Some(7), Some(62), "a square: X, O or -".into()));
        let e = parse_line(&format!("{}Z", &FFO_1[..65]), 1).unwrap_err();
        assert_eq!(at(e), (Some(1), Some(65), "the side to move: X or O".into()));
        let e = parse_line(&format!("{FFO_1}; G9:+18;"), 1).unwrap_err();
        assert_eq!(at(e), (Some(1), Some(68), "Move:score, e.g. G8:+18".into()));
        let text = format!("{FFO_1}\n\n% comment\nnonsense\n");
        let errors: Vec<(u64, TextError)> = parse(&text).filter_map(|(n, r)| r.err().map(|e| (n, e))).collect();
        assert_eq!(errors.len(), 1);
        assert_eq!((errors[0].0, errors[0].1.location.offset), (4, Some(66 + 1 + 1 + 10)));
    }

    proptest::proptest! {
        #[test]
        fn never_panics(line in "\\PC{0,90}") {
            let _ = parse_line(&line, 1);
        }
    }
}
