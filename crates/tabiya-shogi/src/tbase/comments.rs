//! `.rem` comment files: `#NNNN` starts the comment of problem NNNN, which runs to the next line
//! starting with `#` (a lone `#` ends the last one). `$1`–`$7` switch the text colour.

use tabiya_io::{Codepage, DataError, Location};

use tabiya_io::Diagnostic;

use crate::Error;

/// The longest line the seed allows (bytes, without CR LF).
const MAX_LINE: usize = 72;

/// The colour codes `$1`–`$7`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum ColourCode {
    /// `$1`.
    Blue = 1,
    /// `$2`.
    Red = 2,
    /// `$3`.
    Purple = 3,
    /// `$4`.
    Green = 4,
    /// `$5`.
    LightBlue = 5,
    /// `$6`.
    Yellow = 6,
    /// `$7`.
    White = 7,
}

impl ColourCode {
    fn from_digit(d: char) -> Option<ColourCode> {
        Some(match d {
            '1' => ColourCode::Blue,
            '2' => ColourCode::Red,
            '3' => ColourCode::Purple,
            '4' => ColourCode::Green,
            '5' => ColourCode::LightBlue,
            '6' => ColourCode::Yellow,
            '7' => ColourCode::White,
            _ => return None,
        })
    }
}

/// The comment of one problem; `lines` keep the colour codes as written.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Comment {
    /// 作品番号 of the `#NNNN` header.
    pub number: u16,
    /// The lines, colour codes as written.
    pub lines: Vec<String>,
    /// The `#NNNN` line.
    pub location: Location,
}

impl Comment {
    /// The text without colour codes, lines joined with `\n`.
    pub fn plain(&self) -> String {
        self.spans().into_iter().map(|(_, text)| text).collect()
    }

    /// The text cut where the colour changes: (colour from here on, text), lines joined with `\n`.
    pub fn spans(&self) -> Vec<(Option<ColourCode>, String)> {
        let mut spans = Vec::new();
        let (mut colour, mut text) = (None, String::new());
        for (i, line) in self.lines.iter().enumerate() {
            if i > 0 {
                text.push('\n');
            }
            let mut chars = line.chars().peekable();
            while let Some(c) = chars.next() {
                match chars.peek().copied().and_then(ColourCode::from_digit).filter(|_| c == '$') {
                    Some(code) => {
                        chars.next();
                        spans.push((colour, std::mem::take(&mut text)));
                        colour = Some(code);
                    }
                    None => text.push(c),
                }
            }
        }
        spans.push((colour, text));
        spans.retain(|(_, text)| !text.is_empty());
        spans
    }
}

/// Reads a `.rem` file. Text outside a `#NNNN` section and malformed headers are findings.
pub fn read_comments(bytes: &[u8]) -> (Vec<Comment>, Vec<Diagnostic>) {
    let mut comments: Vec<Comment> = Vec::new();
    let mut findings = Vec::new();
    let mut open = false;
    for (at, raw) in tabiya_io::located_lines(bytes.split(|&b| b == b'\n')) {
        let raw = raw.strip_suffix(b"\r").unwrap_or(raw);
        if raw.is_empty() && !open || raw == [0x1A] {
            continue;
        }
        if raw.len() > MAX_LINE {
            findings.push(Diagnostic::warning(
                "tbase.rem_line_length",
                at.clone(),
                format!("a line of at most {MAX_LINE} bytes, found {}", raw.len()),
            ));
        }
        let line = Codepage::ShiftJis.decode(raw);
        if let Some(header) = line.strip_prefix('#') {
            let header = header.trim_end();
            open = false;
            if header.is_empty() {
                continue;
            }
            match header.parse::<u16>() {
                Ok(number) if header.len() == 4 => {
                    comments.push(Comment { number, lines: Vec::new(), location: at });
                    open = true;
                }
                _ => findings.push(Diagnostic::error(
                    "tbase.rem_header",
                    at,
                    format!("#NNNN (a 4-digit 作品番号) or a lone #, found {line:?}"),
                )),
            }
            continue;
        }
        match comments.last_mut().filter(|_| open) {
            Some(comment) => comment.lines.push(line.into_owned()),
            None => findings.push(Diagnostic::warning(
                "tbase.rem_outside_section",
                at,
                "text outside a #NNNN section (ignored)",
            )),
        }
    }
    for comment in &mut comments {
        while comment.lines.last().is_some_and(|l| l.is_empty()) {
            comment.lines.pop();
        }
    }
    (comments, findings)
}

/// Writes comments as a `.rem` file, closed by a lone `#`.
pub fn write_comments(comments: &[Comment]) -> Result<Vec<u8>, Error> {
    let mut out = Vec::new();
    for comment in comments {
        out.extend_from_slice(format!("#{:04}\r\n", comment.number).as_bytes());
        for line in &comment.lines {
            let bytes = Codepage::ShiftJis.encode(line).map_err(|c| {
                DataError::new(comment.location.clone(), format!("comment {:04} in Shift-JIS", comment.number))
                    .found(format!("{c:?}"))
            })?;
            out.extend_from_slice(&bytes);
            out.extend_from_slice(b"\r\n");
        }
    }
    out.extend_from_slice(b"#\r\n");
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seed_example() {
        let text = "#0001\r\n作品番号1番の注釈。\r\n$6ここから黄色になる。$7行の途中で色を変更することも可能。\r\n#0002\r\n作品番号2番の注釈。\r\n#\r\n";
        let bytes = Codepage::ShiftJis.encode(text).unwrap().into_owned();
        let (comments, findings) = read_comments(&bytes);
        assert!(findings.is_empty());
        assert_eq!(comments.iter().map(|c| c.number).collect::<Vec<_>>(), [1, 2]);
        assert_eq!(comments[0].lines.len(), 2);
        assert_eq!(
            comments[0].spans(),
            [
                (None, "作品番号1番の注釈。\n".to_owned()),
                (Some(ColourCode::Yellow), "ここから黄色になる。".to_owned()),
                (Some(ColourCode::White), "行の途中で色を変更することも可能。".to_owned()),
            ]
        );
        assert_eq!(comments[1].plain(), "作品番号2番の注釈。");
        assert_eq!(write_comments(&comments).unwrap(), bytes);
    }
}
