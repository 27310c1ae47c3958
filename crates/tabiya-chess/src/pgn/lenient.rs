//! Repairs pgn-reader would otherwise make silently by dropping tokens: commas between moves
//! and long-algebraic promotions without `=` (`d7d8R`, `d7d8n`). The input is copied only when
//! something is repaired; each repair is reported with the game it belongs to.

use std::borrow::Cow;

/// One repair, located in the repaired text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Repair {
    /// Offset of the first tag of the game the repair belongs to.
    pub game_offset: u64,
    pub message: String,
}

/// Repaired text and what was repaired.
pub(crate) struct Repaired<'a> {
    pub bytes: Cow<'a, [u8]>,
    pub repairs: Vec<Repair>,
    /// Offsets in the repaired text where a byte was inserted, ascending.
    pub inserted_at: Vec<u64>,
}

fn is_token_end(byte: Option<&u8>) -> bool {
    match byte {
        None => true,
        Some(b) => b.is_ascii_whitespace() || b"()[]{};,+#!?$".contains(b),
    }
}

/// Whether the piece letter at `at` ends a long-algebraic promotion without `=`: `d7d8R`,
/// `b2a1n` (a token of its own).
pub(super) fn bare_promotion(input: &[u8], at: usize) -> bool {
    let Some(start) = at.checked_sub(4) else { return false };
    let is_file = |b: u8| (b'a'..=b'h').contains(&b);
    matches!(input[start..=at], [f1, r1, f2, r2, _]
        if is_file(f1) && is_file(f2) && ((r1 == b'7' && r2 == b'8') || (r1 == b'2' && r2 == b'1')))
        && (start == 0 || is_token_end(input.get(start - 1)) || input[start - 1] == b'.')
        && is_token_end(input.get(at + 1))
}

/// The index of the first `end` at or after `from`, or the input's length.
fn find(input: &[u8], from: usize, end: u8) -> usize {
    input.get(from..).and_then(|rest| rest.iter().position(|&b| b == end)).map_or(input.len(), |p| from + p)
}

/// Bytes of movetext that may need a look: line ends, comment starts, commas, piece letters.
const INTERESTING: [bool; 256] = {
    let mut table = [false; 256];
    let bytes = b"\n{;,NBRQnbrq";
    let mut i = 0;
    while i < bytes.len() {
        table[bytes[i] as usize] = true;
        i += 1;
    }
    table
};

pub(crate) fn repair(input: &[u8]) -> Repaired<'_> {
    let mut out: Option<Vec<u8>> = None;
    let mut repairs = Vec::new();
    let mut inserted_at: Vec<u64> = Vec::new();
    let mut game_offset = 0u64;
    let mut movetext_seen = false;
    // Bytes before `copied` are in `out` (once it exists).
    let mut copied = 0;
    let mut i = 0;
    let mut line_start = true;
    while i < input.len() {
        if line_start {
            line_start = false;
            while matches!(input.get(i), Some(b' ' | b'\t' | b'\r')) {
                i += 1;
            }
            match input.get(i) {
                Some(b'[') => {
                    if movetext_seen || i == 0 {
                        game_offset = (i + inserted_at.len()) as u64;
                        movetext_seen = false;
                    }
                    i = find(input, i, b'\n');
                    continue;
                }
                Some(b'%') => {
                    i = find(input, i, b'\n');
                    continue;
                }
                Some(b'\n') | None => {}
                Some(_) => movetext_seen = true,
            }
        }
        while input.get(i).is_some_and(|&b| !INTERESTING[usize::from(b)]) {
            i += 1;
        }
        let Some(&byte) = input.get(i) else { break };
        match byte {
            b'\n' => line_start = true,
            b'{' => i = find(input, i, b'}'),
            b';' => i = find(input, i, b'\n').saturating_sub(1),
            b',' => {
                let out = out.get_or_insert_with(Vec::new);
                out.extend_from_slice(&input[copied..i]);
                out.push(b' ');
                copied = i + 1;
                repairs.push(Repair { game_offset, message: "comma between moves read as a space".to_owned() });
            }
            _ if bare_promotion(input, i) => {
                let token = String::from_utf8_lossy(&input[i - 4..=i]).into_owned();
                let message = format!("promotion {token} read as {}={}", &token[..4], &token[4..]);
                inserted_at.push((i + inserted_at.len()) as u64);
                let out = out.get_or_insert_with(Vec::new);
                out.extend_from_slice(&input[copied..i]);
                out.push(b'=');
                copied = i;
                repairs.push(Repair { game_offset, message });
            }
            _ => {}
        }
        i += 1;
    }
    let bytes = match out {
        Some(mut out) => {
            out.extend_from_slice(&input[copied..]);
            Cow::Owned(out)
        }
        None => Cow::Borrowed(input),
    };
    Repaired { bytes, repairs, inserted_at }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn repairs_and_their_games() {
        let text = b"[Event \"a,b\"]\n\n1. e4, e5 {x, y} 2. d7d8q *\n\n[Event \"c\"]\n\n1. d4 *\n";
        let repaired = repair(text);
        assert_eq!(
            String::from_utf8_lossy(&repaired.bytes),
            "[Event \"a,b\"]\n\n1. e4  e5 {x, y} 2. d7d8=q *\n\n[Event \"c\"]\n\n1. d4 *\n"
        );
        let messages: Vec<(u64, &str)> = repaired.repairs.iter().map(|r| (r.game_offset, r.message.as_str())).collect();
        assert_eq!(messages, [(0, "comma between moves read as a space"), (0, "promotion d7d8q read as d7d8=q")]);
        assert_eq!(repaired.inserted_at, [39]);
        assert!(matches!(repair(b"1. e4 e5 *").bytes, Cow::Borrowed(_)));
    }
}
