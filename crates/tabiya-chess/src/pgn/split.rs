//! Cutting PGN text into pieces that hold whole games, for reading them in parallel.

use std::io::{self, Read};

/// Cuts `input` into at most `pieces` slices, each cut placed before a tag line that follows a
/// blank line after movetext (a line not starting with `[`, nor with `;`: a rest-of-line
/// comment there opens the next game) outside any `{…}` comment, so that no game is split.
/// Reading the slices one after the other reads the same games as reading `input`.
pub fn split_games(input: &[u8], pieces: usize) -> Vec<&[u8]> {
    let mut slices = Vec::with_capacity(pieces);
    let mut start = 0;
    let mut comments = Comments::default();
    for k in 1..pieces.max(1) {
        let target = input.len() * k / pieces;
        if target <= start {
            continue;
        }
        let Some(cut) = next_game_start(input, target, Some(&mut comments)) else { break };
        slices.push(&input[start..cut]);
        start = cut;
    }
    slices.push(&input[start..]);
    slices
}

/// Where the last game that starts after the first byte of `input` starts, by the rule of
/// [`split_games`]: the text before it holds whole games, the text from it on may hold an
/// unfinished one. `None` when no game starts there.
pub fn last_game_start(input: &[u8]) -> Option<usize> {
    last_game_start_from(input, 0, &mut Comments::default())
}

/// [`last_game_start`] among the games whose line break before them lies at or after `from`:
/// text read on after a search that found no game start needs only its new part searched (the
/// rule looks back, never forward), which keeps reading one long game linear. `comments` is
/// what the searches before found out about the same text (a fresh one for new text).
pub fn last_game_start_from(input: &[u8], from: usize, comments: &mut Comments) -> Option<usize> {
    last_game_start_among(input, from, Some(comments))
}

/// [`last_game_start_from`], comments left out of the rule when `comments` is `None` (the
/// game start found may then be inside one: see [`read_piece`]).
fn last_game_start_among(input: &[u8], from: usize, mut comments: Option<&mut Comments>) -> Option<usize> {
    let before = comments.as_deref().copied();
    let mut end = input.len();
    loop {
        let bracket = from + input.get(from..end)?.windows(2).rposition(|w| w[0] == b'\n' && w[1] == b'[')? + 1;
        if !follows_movetext_and_blank_line(input, bracket) {
            end = bracket;
            continue;
        }
        let (Some(comments), Some(mut known)) = (comments.as_deref_mut(), before) else { return Some(bracket) };
        // Candidates are met from the end back: one below a position this search asked about
        // is looked up from what was known when the search began.
        let open = if comments.checked <= bracket {
            comments.opened_before(input, bracket)
        } else {
            known.opened_before(input, bracket)
        };
        match open {
            None => return Some(bracket),
            // Every line break from the comment's brace on is inside it.
            Some(open) => end = open,
        }
    }
}

/// Reads on from `input` into `text` (which starts with a game: what the piece before left
/// over) until a game starts after `piece` more bytes or the input ends; moves the text from
/// that game start on into `rest`, for the next piece. Whether the input ended. The one piece
/// reader of every parallel PGN read (games sources, book builds). Without `look_at_comments`
/// the game start may be inside a `{` comment, which whoever reads the piece must find out
/// (see [`crate::pgn::pieces::PieceInput::Stream`]); with it, the text is searched back from
/// each candidate to its last brace.
pub(crate) fn read_piece(
    input: &mut dyn Read,
    piece: usize,
    text: &mut Vec<u8>,
    rest: &mut Vec<u8>,
    look_at_comments: bool,
) -> io::Result<bool> {
    let mut comments = look_at_comments.then(Comments::default);
    loop {
        // A game start's line break may be the last byte read before: search from it.
        let searched = text.len().saturating_sub(1);
        text.reserve(piece);
        // Less than asked for: the input ended (`read_to_end` reads on to the end or the limit),
        // and what is left is this piece's.
        if Read::take(&mut *input, piece as u64).read_to_end(text)? < piece {
            return Ok(true);
        }
        // A piece holding no game start yet (one long game) reads on.
        if let Some(cut) = last_game_start_among(text, searched, comments.as_mut()) {
            rest.extend_from_slice(&text[cut..]);
            text.truncate(cut);
            return Ok(false);
        }
    }
}

/// Where the piece of `input` that starts at `start` (where a game starts) ends when it is to
/// hold at least `piece` bytes: before the first game that starts, by the rule of
/// [`split_games`], at or after `start + piece`, or at the input's end. `comments` is what the
/// calls before found out about the same text (a fresh one for new text; the pieces are asked
/// for in order), which keeps cutting a whole file linear.
/// `None` for `comments` leaves comments out of the rule: the piece may then end inside one,
/// which whoever reads it must find out (see [`crate::pgn::pieces::PieceInput`]).
pub(crate) fn piece_end(input: &[u8], start: usize, piece: usize, comments: Option<&mut Comments>) -> usize {
    next_game_start(input, start.saturating_add(piece.max(1)), comments).unwrap_or(input.len())
}

/// The offset of the first `[` at or after `from` that starts a line after a blank line whose
/// previous non-blank line is movetext, outside any comment (when `comments` is given); `from`
/// grows from call to call.
fn next_game_start(input: &[u8], from: usize, mut comments: Option<&mut Comments>) -> Option<usize> {
    let mut at = from;
    loop {
        let bracket = at + input.get(at..)?.windows(2).position(|w| w[0] == b'\n' && w[1] == b'[')? + 1;
        if follows_movetext_and_blank_line(input, bracket)
            && comments.as_deref_mut().is_none_or(|comments| comments.opened_before(input, bracket).is_none())
        {
            return Some(bracket);
        }
        at = bracket;
    }
}

/// What is known of the `{…}` comments of PGN text that starts between games: whether the text
/// up to `checked` ends inside one, and where it opened. A tag line inside a comment (a
/// comment may quote a game, blank line and `[Event` included) starts no game.
///
/// A position's answer looks back to the nearest brace (or to `checked`, whose answer is
/// kept): a `}` closes any comment (PGN's comments neither nest nor escape), a `{` opens one.
/// A `{` that is not a comment's (in a tag value, a `;` comment, a `%` line) makes a position
/// look commented: a cut is then not made there, and the piece only grows; a cut is never made
/// inside a comment.
#[derive(Debug, Clone, Copy, Default)]
pub struct Comments {
    checked: usize,
    open_at: Option<usize>,
}

impl Comments {
    /// What is known of text outside any comment at `at` (a game start), braces before it
    /// left out.
    pub(crate) fn outside_at(at: usize) -> Comments {
        Comments { checked: at, open_at: None }
    }

    /// Where the comment around `at` opened, if `at` is inside one; remembers the answer when
    /// `at` is not before the position last asked about.
    fn opened_before(&mut self, text: &[u8], at: usize) -> Option<usize> {
        let base = if self.checked <= at { *self } else { Comments::default() };
        let open_at = match memchr::memrchr2(b'{', b'}', &text[base.checked..at]) {
            Some(i) if text[base.checked + i] == b'{' => Some(base.checked + i),
            Some(_) => None,
            None => base.open_at,
        };
        if self.checked <= at {
            *self = Comments { checked: at, open_at };
        }
        open_at
    }
}

fn follows_movetext_and_blank_line(input: &[u8], bracket: usize) -> bool {
    let before = &input[..bracket];
    let mut lines = before.split(|&b| b == b'\n').rev().skip(1);
    let blank = |line: &[u8]| line.iter().all(u8::is_ascii_whitespace);
    let mut saw_blank = false;
    for line in lines.by_ref() {
        if blank(line) {
            saw_blank = true;
            continue;
        }
        // A `;` comment line before a tag section opens the game that follows: no cut between.
        return saw_blank && !matches!(line.trim_ascii_start().first(), Some(b'[' | b';'));
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cuts_fall_between_games() {
        let pgn =
            b"[Event \"a\"]\n\n[Site \"b\"]\n\n1. e4 e5 *\n\n[Event \"c\"]\n\n1. d4 *\n\n[Event \"d\"]\n1. c4 *\n";
        for pieces in 1..6 {
            let slices = split_games(pgn, pieces);
            assert_eq!(slices.concat(), pgn);
            for slice in &slices[1..] {
                assert!(slice.starts_with(b"[Event"), "{:?}", String::from_utf8_lossy(slice));
            }
        }
        // The last cut: before the last game, never inside the first tag section.
        assert_eq!(last_game_start(pgn), Some(pgn.len() - b"[Event \"d\"]\n1. c4 *\n".len()));
        assert_eq!(last_game_start(&pgn[..pgn.len() - 8]), last_game_start(pgn));
        assert_eq!(last_game_start(b"[Event \"a\"]\n\n[Site \"b\"]\n\n1. e4 *\n"), None);
        assert_eq!(last_game_start(b""), None);
        // Comments before a tag section belong to its game.
        assert_eq!(last_game_start(b"1. e4 *\n\n; annotated by\n\n[Event \"e\"]\n1. d4 *\n"), None);
        // Searched from any point before a game's line break: the same cut; from after it, none
        // (a search that found nothing goes on from where it stopped).
        let last = last_game_start(pgn).unwrap();
        for from in 0..last {
            assert_eq!(last_game_start_from(pgn, from, &mut Comments::default()), Some(last), "from {from}");
        }
        assert_eq!(last_game_start_from(pgn, last, &mut Comments::default()), None);
        assert_eq!(last_game_start_from(pgn, pgn.len() + 1, &mut Comments::default()), None);
        // The blank line inside the first tag section is no cut.
        assert_eq!(split_games(pgn, 4)[0], &pgn[..b"[Event \"a\"]\n\n[Site \"b\"]\n\n1. e4 e5 *\n\n".len()]);
    }

    #[test]
    fn a_game_quoted_in_a_comment_is_not_cut() {
        // The second game's comment quotes a game after a blank line: only the third starts one.
        let pgn = b"[Event \"a\"]\n\n1. e4 *\n\n[Event \"b\"]\n\n1. d4 {as in\n\n[Event \"q\"]\n\n1. c4} *\n\n[Event \"c\"]\n\n1. f4 *\n";
        let third = pgn.len() - b"[Event \"c\"]\n\n1. f4 *\n".len();
        assert_eq!(last_game_start(pgn), Some(third));
        let quoted = pgn.windows(9).position(|w| w == b"[Event \"q").unwrap();
        assert_eq!(last_game_start(&pgn[..quoted + 20]), Some(b"[Event \"a\"]\n\n1. e4 *\n\n".len()));
        for pieces in 1..8 {
            for slice in &split_games(pgn, pieces)[1..] {
                assert!(!slice.starts_with(b"[Event \"q"), "{pieces} pieces");
            }
        }
        // Searched as the text grows (one read after another): the same answers, linear.
        let mut comments = Comments::default();
        let mut found = None;
        for end in 1..=pgn.len() {
            if let Some(cut) = last_game_start_from(&pgn[..end], end.saturating_sub(2), &mut comments) {
                found = Some(cut);
            }
            assert_ne!(found, Some(quoted), "cut inside the comment at {end}");
        }
        assert_eq!(found, Some(third));
    }
}
