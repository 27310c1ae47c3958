//! tabiya's own JSON Lines and CSV exports read back as games: both shapes, a text game's
//! (`black`, `white`, `tournament`, `year`, `result`, `moves`, …) and a Wthor record's (which
//! adds `real_score`, `theoretical_score` and the name indices). The other fields
//! (`move_count`, `passes`, `ending`) are derived from the moves and are not read.

use serde_json::{Map, Value};
use tabiya_io::Location;

use super::{TextError, parse_lines, transcript};
use crate::game::Game;

/// The games of a JSON Lines export: one object a line, with its 1-based line number.
pub fn parse_jsonl(text: &str) -> impl Iterator<Item = (u64, Result<Game, TextError>)> + '_ {
    parse_lines(text, |line, number| {
        let at = Location::at(0).with_record(number);
        match serde_json::from_str::<Value>(line) {
            Ok(Value::Object(fields)) => game(&fields, at),
            Ok(_) | Err(_) => Err(TextError::new(at, "a JSON object", excerpt(line))),
        }
    })
}

/// The games of a CSV export: a header line naming the columns, then one game a row, with the
/// row's 1-based line number. Fields are quoted as the export quotes them (`"…"`, `""` for a
/// quote, line ends allowed inside quotes).
pub fn parse_csv(text: &str) -> impl Iterator<Item = (u64, Result<Game, TextError>)> + '_ {
    let mut rows = CsvRows { text, offset: 0, line: 1 };
    // No header means no rows either.
    let header = rows.next().map(|(_, _, fields)| fields).unwrap_or_default();
    rows.filter(|(_, _, fields)| !(fields.len() == 1 && fields[0].is_empty())).map(move |(line, offset, fields)| {
        let at = Location::at(offset).with_record(line);
        if fields.len() != header.len() {
            let expected = format!("{} fields, as the header names", header.len());
            return (line, Err(TextError::new(at, expected, format!("{} fields", fields.len()))));
        }
        let record = header.iter().zip(fields).map(|(name, field)| (name.clone(), csv_value(name, field))).collect();
        (line, game(&record, at))
    })
}

/// A CSV field as the JSON value the export wrote it from: empty is `null`, numbers of the
/// numeric columns are numbers, the rest strings.
fn csv_value(column: &str, field: String) -> Value {
    if field.is_empty() {
        return Value::Null;
    }
    let numeric = matches!(column, "year" | "result" | "real_score" | "theoretical_score");
    match field.parse::<i64>() {
        Ok(n) if numeric => Value::from(n),
        _ => Value::String(field),
    }
}

/// The game a record describes. `moves` is required; the rest may be absent or `null`.
fn game(fields: &Map<String, Value>, at: Location) -> Result<Game, TextError> {
    let text = |key: &str| -> Result<Option<String>, TextError> {
        match fields.get(key) {
            None | Some(Value::Null) => Ok(None),
            Some(Value::String(s)) => Ok(Some(s.clone())),
            Some(other) => Err(TextError::new(at.clone(), format!("`{key}` as a string"), other.to_string())),
        }
    };
    let number = |key: &str| -> Result<Option<i64>, TextError> {
        match fields.get(key) {
            None | Some(Value::Null) => Ok(None),
            Some(Value::Number(n)) if n.is_i64() => Ok(n.as_i64()),
            Some(other) => Err(TextError::new(at.clone(), format!("`{key}` as a whole number"), other.to_string())),
        }
    };
    let moves = text("moves")?.ok_or_else(|| TextError::new(at.clone(), "a `moves` field", "none"))?;
    let moves =
        transcript::parse_line(&moves, at.number.unwrap_or(0)).map_err(|e| TextError { location: at.clone(), ..e })?;
    let year = match number("year")? {
        Some(y) => Some(u16::try_from(y).map_err(|_| TextError::new(at.clone(), "a year 0–65535", y.to_string()))?),
        None => None,
    };
    // A Wthor record's real score is Black's discs; the text games' result is Black's disc
    // difference, which the Wthor score gives with the empties counted as the FFO counts them.
    let result = match (number("result")?, number("real_score")?) {
        (Some(difference), _) => Some(difference),
        (None, Some(discs)) => Some(2 * discs - 64),
        (None, None) => None,
    };
    let result =
        result.map(|r| i32::try_from(r).map_err(|_| TextError::new(at.clone(), "a disc difference", r.to_string())));
    Ok(Game {
        moves,
        black: text("black")?,
        white: text("white")?,
        tournament: text("tournament")?,
        year,
        result: result.transpose()?,
        ggf: None,
    })
}

fn excerpt(line: &str) -> String {
    line.chars().take(60).collect()
}

/// CSV records: `(line number, byte offset, fields)`, one record per line unless a quoted field
/// holds line ends.
struct CsvRows<'a> {
    text: &'a str,
    offset: usize,
    line: u64,
}

impl Iterator for CsvRows<'_> {
    type Item = (u64, u64, Vec<String>);

    fn next(&mut self) -> Option<Self::Item> {
        if self.offset >= self.text.len() {
            return None;
        }
        let (line, start) = (self.line, self.offset);
        let bytes = self.text.as_bytes();
        let (mut fields, mut field, mut quoted, mut i) = (Vec::new(), String::new(), false, start);
        while i < bytes.len() {
            let c = bytes[i];
            if quoted {
                match c {
                    b'"' if bytes.get(i + 1) == Some(&b'"') => {
                        field.push('"');
                        i += 1;
                    }
                    b'"' => quoted = false,
                    _ => {
                        if c == b'\n' {
                            self.line += 1;
                        }
                        let end = i + utf8_len(c);
                        field.push_str(&self.text[i..end]);
                        i = end;
                        continue;
                    }
                }
            } else {
                match c {
                    b'"' if field.is_empty() => quoted = true,
                    b',' => fields.push(std::mem::take(&mut field)),
                    b'\n' => {
                        i += 1;
                        break;
                    }
                    b'\r' if bytes.get(i + 1) == Some(&b'\n') => {}
                    _ => {
                        let end = i + utf8_len(c);
                        field.push_str(&self.text[i..end]);
                        i = end;
                        continue;
                    }
                }
            }
            i += 1;
        }
        fields.push(field);
        self.offset = i;
        self.line += 1;
        Some((line, start as u64, fields))
    }
}

/// The length of the UTF-8 character that starts with `first` (1 for a continuation byte, so
/// that slicing never splits a character: `text` is a `str`).
fn utf8_len(first: u8) -> usize {
    match first {
        0xF0..=0xFF => 4,
        0xE0..=0xEF => 3,
        0xC0..=0xDF => 2,
        _ => 1,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::TextExport;

    #[test]
    fn a_text_game_comes_back_from_its_json_and_csv() {
        let text = "(;GM[Othello]PC[Paris, \"Open\"]DT[1999.05.01]PB[Alice]PW[Bob]RE[+2.000]B[f5]W[d6]B[c3];)";
        let game = Game::from_ggf(crate::text::ggf::parse(text).next().unwrap().unwrap()).unwrap();
        let expected = Game { ggf: None, ..game.clone() };
        let jsonl = format!("{}\n", game.json().unwrap());
        let read: Vec<_> = parse_jsonl(&jsonl).map(|(_, g)| g.unwrap()).collect();
        assert_eq!(read, std::slice::from_ref(&expected));
        let csv = format!("{}\n{}\n", Game::CSV_HEADER, game.csv_row().unwrap());
        let read: Vec<_> = parse_csv(&csv).map(|(_, g)| g.unwrap()).collect();
        assert_eq!(read, [expected]);
    }

    #[test]
    fn a_wthor_record_gives_its_disc_difference_and_bad_lines_name_their_line() {
        let line = r#"{"year":2001,"black":"A","white":"B","tournament":"T","real_score":33,"moves":"f5d6"}"#;
        let game = parse_jsonl(line).next().unwrap().1.unwrap();
        assert_eq!((game.result, game.year, game.moves.len()), (Some(2), Some(2001), 2));
        let errors: Vec<_> = parse_jsonl("\n[1]\n{\"moves\":\"z9\"}\n").map(|(n, g)| (n, g.is_err())).collect();
        assert_eq!(errors, [(2, true), (3, true)]);
        let csv = "year,moves\n2001,f5\n2002\n";
        let rows: Vec<_> = parse_csv(csv).map(|(n, g)| (n, g.is_ok())).collect();
        assert_eq!(rows, [(2, true), (3, false)]);
    }
}
