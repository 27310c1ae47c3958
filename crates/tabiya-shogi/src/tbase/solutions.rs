//! `.tjn` solution files: `NNNN moves…` lines, a line ending in `/` continued on the next line
//! with the same number, the solution closed by `まで N手詰`.

use tabiya_io::{Codepage, DataError, Location};

use crate::notation::japanese;
use tabiya_io::Diagnostic;

use crate::Error;

/// The longest line the seed allows (bytes, without CR LF).
const MAX_LINE: usize = 240;
/// The line length the writer keeps to (the seed's example wraps there).
const WRAP: usize = 80;

/// The stored solution of one problem.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Solution {
    /// 作品番号: the key shared with the `.dia` record.
    pub number: u16,
    /// The move tokens as written (`14龍`, `13金合`, …); text that is not a move is kept as the
    /// last element, with a finding.
    pub moves: Vec<String>,
    /// N of the `まで N手詰` trailer.
    pub length: Option<u16>,
    /// Where the solution starts.
    pub location: Location,
}

fn ascii_digits(text: &str) -> String {
    text.chars()
        .map(|c| match c {
            '０'..='９' => char::from(b'0' + (c as u32 - '０' as u32) as u8),
            c => c,
        })
        .collect()
}

/// Reads a `.tjn` file. Lines that do not fit the layout are findings; reading goes on.
pub fn read_solutions(bytes: &[u8]) -> (Vec<Solution>, Vec<Diagnostic>) {
    let mut solutions: Vec<Solution> = Vec::new();
    let mut findings = Vec::new();
    let mut continued = false;
    for (at, raw) in tabiya_io::located_lines(bytes.split(|&b| b == b'\n')) {
        let raw = raw.strip_suffix(b"\r").unwrap_or(raw);
        if raw.trim_ascii().is_empty() || raw == [0x1A] {
            continue;
        }
        if raw.len() > MAX_LINE {
            findings.push(Diagnostic::warning(
                "tbase.tjn_line_length",
                at.clone(),
                format!("a line of at most {MAX_LINE} bytes, found {}", raw.len()),
            ));
        }
        let line = Codepage::ShiftJis.decode(raw);
        let number =
            line.get(..4).filter(|n| n.bytes().all(|b| b.is_ascii_digit())).and_then(|n| n.parse::<u16>().ok());
        let Some(number) = number else {
            findings.push(Diagnostic::error(
                "tbase.tjn_number",
                at,
                format!("a line starting with a 4-digit 作品番号, found {line:?}"),
            ));
            continued = false;
            continue;
        };
        let mut text = line[4..].strip_prefix([' ', '\u{3000}']).unwrap_or(&line[4..]).trim_end().to_owned();
        let continues = text.ends_with('/');
        if continues {
            text.pop();
        }
        let solution = match solutions.last_mut() {
            Some(last) if continued && last.number == number => last,
            _ => {
                if continued {
                    findings.push(Diagnostic::error(
                        "tbase.tjn_continuation",
                        at.clone(),
                        format!(
                            "a continuation line of the previous solution (ended with '/'), found 作品番号 {number:04}"
                        ),
                    ));
                }
                if solutions.iter().any(|s| s.number == number) {
                    findings.push(Diagnostic::warning(
                        "tbase.tjn_second_solution",
                        at.clone(),
                        format!("作品番号 {number:04} has a second solution"),
                    ));
                }
                solutions.push(Solution { number, moves: Vec::new(), length: None, location: at.clone() });
                solutions.last_mut().expect("just pushed")
            }
        };
        continued = continues;
        let (moves, trailer) = match text.find("まで") {
            Some(i) => (&text[..i], Some(&text[i..])),
            None => (text.as_str(), None),
        };
        split_moves(moves, solution, &at, &mut findings);
        if let Some(trailer) = trailer {
            let digits = ascii_digits(trailer.trim_start_matches("まで").trim_end_matches("手詰").trim());
            match digits.parse() {
                Ok(n) => solution.length = Some(n),
                Err(_) => findings.push(Diagnostic::error(
                    "tbase.tjn_trailer",
                    at,
                    format!("a trailer まで N手詰, found {trailer:?}"),
                )),
            }
        }
    }
    if continued {
        let at = Location::at(bytes.len() as u64);
        findings.push(Diagnostic::error(
            "tbase.tjn_continuation",
            at,
            "a continuation line after the last line ending with '/'",
        ));
    }
    (solutions, findings)
}

fn split_moves(text: &str, solution: &mut Solution, at: &Location, findings: &mut Vec<Diagnostic>) {
    let mut rest = text.trim();
    while !rest.is_empty() {
        match japanese::parse_token(rest) {
            Ok((_, len)) => {
                solution.moves.push(rest[..len].trim().to_owned());
                rest = rest[len..].trim_start();
            }
            Err((offset, expected)) => {
                let what = format!("move {}: expected {expected} at {:?}", solution.moves.len() + 1, &rest[offset..]);
                findings.push(Diagnostic::error("tbase.tjn_move", at.clone(), what));
                solution.moves.push(rest.to_owned());
                return;
            }
        }
    }
}

/// Writes solutions as a `.tjn` file: lines of at most 80 bytes, `/` at the end of a line that
/// continues, `まで N手詰` last (N = the stored length, else the number of moves).
pub fn write_solutions(solutions: &[Solution]) -> Result<Vec<u8>, Error> {
    let mut out = Vec::new();
    for solution in solutions {
        let prefix = format!("{:04} ", solution.number);
        let length = solution.length.unwrap_or(solution.moves.len() as u16);
        let trailer = format!("まで{length}手詰");
        let mut line = prefix.clone().into_bytes();
        let pieces = solution.moves.iter().map(String::as_str).chain([trailer.as_str()]);
        for piece in pieces {
            let bytes = Codepage::ShiftJis.encode(piece).map_err(|c| {
                DataError::new(
                    solution.location.clone(),
                    format!("作品番号 {:04}: moves in Shift-JIS", solution.number),
                )
                .found(format!("{c:?}"))
            })?;
            if line.len() + bytes.len() > WRAP && line.len() > prefix.len() {
                out.extend_from_slice(&line);
                out.extend_from_slice(b"/\r\n");
                line = prefix.clone().into_bytes();
            }
            line.extend_from_slice(&bytes);
        }
        out.extend_from_slice(&line);
        out.extend_from_slice(b"\r\n");
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The seed's `.tjn` example, in Shift-JIS with CR LF.
    fn seed() -> Vec<u8> {
        let text = "0003 14龍13金合22金同金13龍同玉24金12玉22角成同玉33金打21玉22歩12玉23金寄/\r\n0003 まで15手詰\r\n";
        Codepage::ShiftJis.encode(text).unwrap().into_owned()
    }

    #[test]
    fn seed_example_reads_and_writes_back() {
        let bytes = seed();
        let (solutions, findings) = read_solutions(&bytes);
        assert!(findings.is_empty(), "{findings:?}");
        assert_eq!(solutions.len(), 1);
        assert_eq!(solutions[0].number, 3);
        assert_eq!(solutions[0].length, Some(15));
        assert_eq!(solutions[0].moves.len(), 15);
        assert_eq!(solutions[0].moves[1], "13金合");
        assert_eq!(solutions[0].moves[14], "23金寄");
        assert_eq!(write_solutions(&solutions).unwrap(), bytes);
    }

    #[test]
    fn broken_lines_are_findings() {
        let text = "0003 14龍13金合/\r\n0004 22金\r\nxx まで3手詰\r\n0005 14龍Ｑ\r\n0006 まで三手詰\r\n0007 14龍/";
        let (solutions, findings) = read_solutions(&Codepage::ShiftJis.encode(text).unwrap());
        assert_eq!(solutions.iter().map(|s| s.number).collect::<Vec<_>>(), [3, 4, 5, 6, 7]);
        let what: Vec<&str> = findings.iter().map(|f| f.message.as_str()).collect();
        assert_eq!(findings.len(), 5, "{what:?}");
        assert!(what[0].starts_with("a continuation line of the previous solution"));
        assert_eq!(findings[0].location.number, Some(2));
        assert!(what[1].starts_with("a line starting with a 4-digit"));
        assert!(what[2].starts_with("move 2: expected a file digit"));
        assert!(what[3].starts_with("a trailer まで N手詰"));
        assert!(what[4].starts_with("a continuation line after the last line"));
    }
}
