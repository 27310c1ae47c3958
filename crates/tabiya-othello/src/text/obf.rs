//! OBF, Edax's one-line position format: 64 board characters a1..h8 row by row (`X` black,
//! `O` white, `-` empty), a space, the side to move (`X`/`O`), then optionally `;` and
//! `Move:score` entries (the final disc difference for the side to move after that move).
//!
//! ```
//! use tabiya_othello::text::obf;
//!
//! let line = "--XXXXX--OOOXX-O-OOOXXOX-OXOXOXXOXXXOXXX--XOXOXX-XXXOOO--OOOOO-- X; G8:+18; H1:+12;";
//! let parsed = obf::parse_line(line)?;
//! assert_eq!(parsed.position.board.empties(), 14);
//! assert_eq!(parsed.scores[0].0.to_string(), "g8");
//! assert_eq!(obf::format_line(&parsed.position, &parsed.scores), line);
//! # Ok::<(), obf::ObfError>(())
//! ```

use crate::board::{Color, Position, Square};

/// One OBF line: a position and the scores listed for some of its moves.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ObfLine {
    pub position: Position,
    pub scores: Vec<(Square, i32)>,
}

/// Where an OBF line stops making sense.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ObfError {
    /// 1-based; 0 when parsing a single line.
    pub line: usize,
    /// 1-based character position in the line.
    pub column: usize,
    pub expected: &'static str,
    pub found: String,
}

impl std::fmt::Display for ObfError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.line > 0 {
            write!(f, "line {}, ", self.line)?;
        }
        write!(f, "column {}: expected {}, found {:?}", self.column, self.expected, self.found)
    }
}

impl std::error::Error for ObfError {}

fn error(column: usize, expected: &'static str, found: &str) -> ObfError {
    ObfError { line: 0, column: column + 1, expected, found: found.chars().take(16).collect() }
}

/// Parses one line. Like Edax, accepts lower case and `*`/`.` for a black disc and an empty
/// square, and `B`/`W` for the side.
pub fn parse_line(line: &str) -> Result<ObfLine, ObfError> {
    let bytes = line.as_bytes();
    let (mut black, mut white) = (0u64, 0u64);
    for index in 0..64 {
        match bytes.get(index).map(u8::to_ascii_uppercase) {
            Some(b'X' | b'B' | b'*') => black |= 1 << index,
            Some(b'O' | b'W') => white |= 1 << index,
            Some(b'-' | b'.') => {}
            _ => return Err(error(index, "a square: X, O or -", line.get(index..).unwrap_or(""))),
        }
    }
    let rest = line.get(64..).unwrap_or("");
    let trimmed = rest.trim_start();
    let side_column = 64 + rest.len() - trimmed.len();
    let side = match trimmed.as_bytes().first().map(u8::to_ascii_uppercase) {
        Some(b'X' | b'B') => Color::Black,
        Some(b'O' | b'W') => Color::White,
        _ => return Err(error(side_column, "the side to move: X or O", trimmed)),
    };
    let position = Position::from_discs(black, white, side).ok_or_else(|| error(0, "a board", line))?;
    let mut scores = Vec::new();
    let mut column = side_column + 1;
    let tail = trimmed.get(1..).unwrap_or("");
    for (i, field) in tail.split(';').enumerate() {
        let entry = field.trim();
        if i == 0 && !entry.is_empty() {
            return Err(error(column, "';' after the side to move", field));
        }
        if !entry.is_empty() {
            let at = column + field.len() - field.trim_start().len();
            scores.push(parse_score(entry).ok_or_else(|| error(at, "Move:score, e.g. G8:+18", entry))?);
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

/// Every non-blank line of an OBF file, each parsed or with its error (line numbers 1-based).
pub fn parse(text: &str) -> impl Iterator<Item = Result<ObfLine, ObfError>> + '_ {
    text.lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty())
        .map(|(n, l)| parse_line(l.trim_end()).map_err(|e| ObfError { line: n + 1, ..e }))
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
        let parsed = parse_line(&format!("{FFO_1}; G8:+18; B1:-4; A4:-22;")).unwrap();
        assert_eq!(parsed.position.side, Color::Black);
        assert_eq!(parsed.position.black().count_ones(), 27);
        assert_eq!(parsed.position.white().count_ones(), 23);
        let scores: Vec<(String, i32)> = parsed.scores.iter().map(|(s, v)| (s.to_string(), *v)).collect();
        assert_eq!(scores, [("g8".into(), 18), ("b1".into(), -4), ("a4".into(), -22)]);
        assert_eq!(format_line(&parsed.position, &parsed.scores), format!("{FFO_1}; G8:+18; B1:-04; A4:-22;"));
        assert_eq!(parsed.best_listed(), Some((18, vec!["g8".parse().unwrap()])));
        assert_eq!(parse_line(FFO_1).unwrap().scores, []);
        assert_eq!(parse_line(FFO_1).unwrap().best_listed(), None);
        assert_eq!(parse_line(&format!("{FFO_1};")).unwrap().position, parsed.position);
    }

    #[test]
    fn names_what_is_wrong_and_where() {
        let e = parse_line("--XXXXX--OOOXX-O-OOOXXOX-OXOXOXXOXXXOXXX--XOXOXX-XXXOOO--OOOOO").unwrap_err();
        assert_eq!((e.column, e.expected), (63, "a square: X, O or -"));
        let e = parse_line(&format!("{}Z", &FFO_1[..65])).unwrap_err();
        assert_eq!((e.column, e.expected), (66, "the side to move: X or O"));
        let e = parse_line(&format!("{FFO_1}; G9:+18;")).unwrap_err();
        assert_eq!((e.column, e.expected), (69, "Move:score, e.g. G8:+18"));
        let errors: Vec<ObfError> = parse(&format!("{FFO_1}\n\nnonsense\n")).filter_map(Result::err).collect();
        assert_eq!(errors.len(), 1);
        assert_eq!(errors[0].line, 3);
    }

    proptest::proptest! {
        #[test]
        fn never_panics(line in "\\PC{0,90}") {
            let _ = parse_line(&line);
        }
    }
}
