//! Transcripts: one game a line, two characters a move (`f5d6c3…`), passes omitted or written
//! `PA`, `PS` or `--`, case ignored, spaces allowed between moves.

use tabiya_io::Location;

use super::TextError;
use crate::board::Square;

/// The moves of one line (square indices, passes dropped). `line` (1-based) locates errors.
pub fn parse_line(text: &str, line: u64) -> Result<Vec<Square>, TextError> {
    let bytes = text.as_bytes();
    let mut moves = Vec::with_capacity(60);
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i].is_ascii_whitespace() {
            i += 1;
            continue;
        }
        let token = bytes.get(i..i + 2).unwrap_or(&bytes[i..]);
        if let Some(square) = std::str::from_utf8(token).ok().and_then(|t| t.parse::<Square>().ok()) {
            moves.push(square);
        } else if !matches!(token, b"PA" | b"pa" | b"PS" | b"ps" | b"--") {
            let found = String::from_utf8_lossy(token).into_owned();
            return Err(TextError::new(
                Location::at(i as u64).with_record(line),
                "a move a1–h8 or a pass (PA, PS, --)",
                found,
            ));
        }
        i += 2;
    }
    Ok(moves)
}

/// Every game of a transcript file: one per non-empty line; lines starting with `#` or `%`
/// are comments. Each item is (line number, moves or error).
pub fn parse(text: &str) -> impl Iterator<Item = (u64, Result<Vec<Square>, TextError>)> + '_ {
    super::parse_lines(text, parse_line)
}

/// The transcript of a move list, lower-case, no separators, passes omitted.
pub fn format(moves: &[Square]) -> String {
    let mut out = String::with_capacity(moves.len() * 2);
    for m in moves {
        let [c, r] = m.name();
        out.push(char::from(c));
        out.push(char::from(r));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn indices(moves: &[Square]) -> Vec<u8> {
        moves.iter().map(|s| s.index()).collect()
    }

    #[test]
    fn passes_case_and_spaces() {
        assert_eq!(indices(&parse_line("f5d6 PA c3 -- F4 ps", 1).unwrap()), [37, 43, 18, 29]);
        let err = parse_line("f5d6x9", 7).unwrap_err();
        assert_eq!(err.location, Location::at(4).with_record(7));
        assert_eq!(err.found, "x9");
        assert!(parse_line("f5d", 1).is_err(), "half a move");
        assert!(parse_line("f5é6", 1).is_err(), "non-ASCII does not panic");
    }

    #[test]
    fn lines_and_comments() {
        let games: Vec<_> = parse("# header\nf5d6\n\n  e6f4 \nf5zz\n").collect();
        assert_eq!(games.len(), 3);
        assert_eq!((games[0].0, indices(games[0].1.as_ref().unwrap())), (2, vec![37, 43]));
        assert_eq!((games[1].0, indices(games[1].1.as_ref().unwrap())), (4, vec![44, 29]));
        let (line, err) = &games[2];
        assert_eq!(*line, 5);
        assert_eq!(err.as_ref().unwrap_err().location.offset, Some(25));
    }
}
