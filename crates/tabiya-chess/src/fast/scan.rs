//! The PGN tokenizer under the one PGN scanner (`pgn/scanner.rs`, which drives the game
//! builder [`PgnReader`](crate::pgn::PgnReader) and the walker [`PgnWalk`](crate::pgn::PgnWalk)):
//! game pieces, tag pairs and movetext tokens (moves, move numbers, NAGs, comments, variations,
//! results, `;` and `%` lines), read in place from text held in memory.
//!
//! It reads what pgn-reader 0.29 reads, token for token (same token ends, same results, same
//! places where a piece of text ends), and adds the lenient repairs (commas between moves,
//! `d7d8R` promotions) in the same pass when asked to. We wrote our own for speed, measured
//! (BENCHMARKS.md, "PGN reading on our own tokenizer"): one pass instead of pgn-reader's plus
//! a repairing copy, no per-byte buffer checks, and token classes told apart without the jump
//! table that mispredicted on most bytes. On the medium corpus file tokenizing and SAN parsing
//! fell from ~0.75 G to ~0.5 G instructions and the reader's mispredicted branches by 28 %.

use std::borrow::Cow;
use std::ops::Range;

use shakmaty::CastlingSide;
use shakmaty::san::{San, SanPlus, Suffix};
use shakmaty::{File, Role, Square};

use super::san_text;
use crate::game::GameResult;

/// What a movetext holds, token by token, in the order met.
pub(crate) trait Movetext {
    fn san(&mut self, san: SanPlus);
    /// A move without rank disambiguation or promotion (`e4`, `Nf3`, `exd5`, `Nxe4`), as
    /// [`Movetext::san`] reads it: its parts are handed over apart, which spares packing the
    /// SAN into one value and taking it apart again on every move.
    #[inline(always)]
    fn plain_san(&mut self, role: Role, file: Option<File>, capture: bool, to: Square, suffix: Option<Suffix>) {
        self.san(plain_san(role, file, capture, to, suffix));
    }
    /// Move tokens and NAGs are no longer wanted (past a ply limit): moves are skipped
    /// unparsed, except where one could hold a result or a repair, and the rest of the
    /// movetext is passed over whole where it holds nothing but moves, move numbers, NAGs and
    /// a last result token (see [`Scanner::skip_plain_rest`]); its result is still reported.
    fn skips_moves(&self) -> bool {
        false
    }
    fn nag(&mut self, nag: u8);
    /// The bytes between `{` and `}`.
    fn comment(&mut self, text: &[u8]);
    /// A `(`: whether to skip the variation unread (its `)` is still reported).
    fn begin_variation(&mut self) -> bool;
    fn end_variation(&mut self);
    fn outcome(&mut self, result: GameResult);
    /// Something the lenient reading repaired.
    fn repair(&mut self, message: String);
}

/// A move without rank disambiguation or promotion, packed from its parts.
#[inline(always)]
pub(crate) fn plain_san(role: Role, file: Option<File>, capture: bool, to: Square, suffix: Option<Suffix>) -> SanPlus {
    SanPlus { san: San::Normal { role, file, rank: None, capture, to, promotion: None }, suffix }
}

/// A byte-class table: true for the bytes listed.
const fn byte_set(bytes: &[u8]) -> [bool; 256] {
    let mut table = [false; 256];
    let mut i = 0;
    while i < bytes.len() {
        table[bytes[i] as usize] = true;
        i += 1;
    }
    table
}

/// Bytes that end a movetext token: pgn-reader's set; with repairs, also the comma, which the
/// lenient reading takes for a space.
const fn token_ends(comma: bool) -> [bool; 256] {
    let mut table = byte_set(b" \t\n\r{}()!?$;.*");
    table[b',' as usize] = comma;
    table
}

/// Bytes that start a move and nothing else: files, piece letters, castling's `O`.
static MOVE_STARTS: [bool; 256] = byte_set(b"abcdefghNBRQKO");

/// Space, tab and line ends.
static SPACES: [bool; 256] = byte_set(b" \t\r\n");

static TOKEN_ENDS: [bool; 256] = token_ends(false);
static TOKEN_ENDS_WITH_COMMA: [bool; 256] = token_ends(true);

/// The bytes [`Scanner::plain_move`] reads a move from at once: the longest usual moves
/// (`Nbxd7+`, `exd8=Q+`) and the byte after them.
const MOVE_WINDOW: usize = 8;

/// The dashes of a result token: `-`, en dash, em dash.
const DASHES: [&[u8]; 3] = [b"-", "\u{2013}".as_bytes(), "\u{2014}".as_bytes()];

const COMMA_REPAIRED: &str = "comma between moves read as a space";

fn promotion_repaired(token: &[u8]) -> String {
    let token = String::from_utf8_lossy(token);
    format!("promotion {token} read as {}={}", &token[..4], &token[4..])
}

/// A tag as [`Scanner::read_tags`] finds it: where its name and its raw value stand.
pub(crate) struct TagAt {
    pub name: Range<usize>,
    pub value: Range<usize>,
    /// The value holds a `"` that no backslash escapes (read as part of the value).
    pub inner_quotes: bool,
    /// The value holds a backslash: it may hold escapes to decode.
    pub escaped: bool,
}

/// A position in PGN text, and how to read on from it.
pub(crate) struct Scanner<'t> {
    pub text: &'t [u8],
    pub at: usize,
    /// Repair commas between moves and `d7d8R` promotions (else they are dropped as
    /// pgn-reader drops them).
    repair: bool,
    token_ends: &'static [bool; 256],
    /// A `{` comment met ran to the end of the text (no `}` after it): the text was cut inside
    /// a comment, or the file's last comment is unterminated.
    pub comment_ran_to_end: bool,
}

impl<'t> Scanner<'t> {
    pub fn new(text: &'t [u8], at: usize, repair: bool) -> Scanner<'t> {
        let token_ends = if repair { &TOKEN_ENDS_WITH_COMMA } else { &TOKEN_ENDS };
        Scanner { text, at, repair, token_ends, comment_ran_to_end: false }
    }

    #[inline]
    fn peek(&self, at: usize) -> Option<u8> {
        self.text.get(at).copied()
    }

    #[inline]
    fn is_token_end(&self, byte: u8) -> bool {
        self.token_ends[usize::from(byte)]
    }

    /// Length of the token starting at `at`.
    fn token_len(&self, at: usize) -> usize {
        let rest = self.text.get(at..).unwrap_or_default();
        rest.iter().position(|&b| self.is_token_end(b)).unwrap_or(rest.len())
    }

    /// Offset of the first `needle` at or after `from`, or the end of the text.
    fn find_byte(&self, from: usize, needle: u8) -> usize {
        let rest = self.text.get(from..).unwrap_or_default();
        memchr::memchr(needle, rest).map_or(self.text.len(), |i| from + i)
    }

    /// Before a game: a UTF-8 byte order mark, whitespace, line ends and `%` escape lines.
    pub fn skip_to_game(&mut self) {
        if self.text[self.at.min(self.text.len())..].starts_with(b"\xef\xbb\xbf") {
            self.at += 3;
        }
        self.skip_whitespace(true);
    }

    /// A `{` comment without its `}`: the text is read to its end, and the error said.
    #[cold]
    fn comment_to_end(&mut self) -> &'static str {
        self.at = self.text.len();
        self.comment_ran_to_end = true;
        "unterminated comment"
    }

    /// Whitespace, line ends and `%` escape lines (at the start of a line).
    fn skip_whitespace(&mut self, mut new_line: bool) {
        // A table rather than a match: the match's jump table mispredicted on every tag line.
        while let Some(byte) = self.peek(self.at) {
            if SPACES[usize::from(byte)] {
                new_line |= byte == b'\n';
                self.at += 1;
            } else if byte == b'%' && new_line {
                self.at = (self.find_byte(self.at, b'\n') + 1).min(self.text.len());
            } else {
                return;
            }
        }
    }

    /// After a tag's value: to the end of the tag and the whitespace after it.
    fn skip_ket(&mut self) {
        while let Some(byte) = self.peek(self.at) {
            match byte {
                b' ' | b'\t' | b'\r' => self.at += 1,
                b']' => {
                    self.at += 1;
                    return self.skip_whitespace(false);
                }
                b'\n' => {
                    self.at += 1;
                    return self.skip_whitespace(true);
                }
                _ => return,
            }
        }
    }

    /// The tag section: `[Name "value"]` lines, each handed to `tag` as where its name and
    /// value stand in the text (escapes not decoded, unescaped inner quotes kept); lines
    /// without a quoted value are skipped.
    pub fn read_tags(&mut self, mut tag: impl FnMut(TagAt)) -> Result<(), &'static str> {
        let text = self.text;
        while self.peek(self.at) == Some(b'[') {
            self.at += 1;
            let rest = &text[self.at..];
            let Some(quote) = find_in_line(rest, &TAG_NAME_ENDS) else {
                self.at = text.len();
                return Err("unterminated tag");
            };
            if rest[quote] != b'"' {
                self.at += quote + 1;
                self.skip_ket();
                continue;
            }
            let name_end = if quote > 0 && rest[quote - 1] == b' ' { quote - 1 } else { quote };
            let mut end = quote + 1;
            let (mut inner_quotes, mut escaped) = (false, false);
            let (value_end, consumed) = loop {
                match find_in_line(&rest[end..], &TAG_VALUE_STOPS) {
                    // A quote closes the value only before the `]` or the end of the line: a
                    // program that did not escape inner quotes (`[White ""Socrates Expert""]`)
                    // wrote one tag, not a tag and a line of movetext.
                    Some(delta) if rest[end + delta] == b'"' && closes_value(&rest[end + delta + 1..]) => {
                        break (end + delta, end + delta + 1);
                    }
                    Some(delta) if rest[end + delta] == b'"' => {
                        inner_quotes = true;
                        end += delta + 1;
                    }
                    Some(delta) if rest[end + delta] == b'\n' => break (end + delta, end + delta),
                    Some(delta) => {
                        escaped = true;
                        end = (end + delta + 2).min(rest.len());
                    }
                    None => {
                        self.at = text.len();
                        return Err("unterminated tag");
                    }
                }
            };
            tag(TagAt {
                name: self.at..self.at + name_end,
                value: self.at + quote + 1..self.at + value_end,
                inner_quotes,
                escaped,
            });
            self.at += consumed;
            // Most tags end a line that the next tag follows.
            if let Some(line_end) = text.get(self.at..).and_then(tag_line_end) {
                self.at += line_end;
                continue;
            }
            self.skip_ket();
        }
        Ok(())
    }

    /// Whether the text goes on with a tag line holding a quoted value (`[Name "`): a tag
    /// section that [`Scanner::read_tags`] reads into at least one tag, or finds unterminated.
    pub fn tag_line_starts(&self) -> bool {
        let rest = self.text.get(self.at..).unwrap_or_default();
        rest.first() == Some(&b'[') && find_in_line(&rest[1..], &TAG_NAME_ENDS).is_some_and(|at| rest[1 + at] == b'"')
    }

    /// Consumes `bytes` if the text goes on with them.
    #[inline]
    fn eat(&mut self, bytes: &[u8]) -> bool {
        let found = self.text[self.at..].starts_with(bytes);
        if found {
            self.at += bytes.len();
        }
        found
    }

    fn eat_dash(&mut self) -> bool {
        DASHES.iter().any(|dash| self.eat(dash))
    }

    /// Reads movetext up to its end (a blank line, a line starting with `[`, or the end of
    /// the text), handing every token to `movetext`.
    pub fn read_movetext(&mut self, movetext: &mut impl Movetext) -> Result<(), &'static str> {
        let text = self.text;
        // Spaces, moves and move numbers make up most movetext: they are read here with the
        // position in a local (kept in a register, where `self.at` went through memory on every
        // token) and plain tests, which the processor predicts far better than the jump table
        // of the full match in `token` (a third of a book build's mispredicted branches were
        // that table's). `self.at` is brought up to date around everything else.
        let mut at = self.at;
        // The rest is passed over whole at most once a movetext, at the first move skipped: a
        // rest that cannot be is read token by token, without looking again.
        let mut rest_looked_at = false;
        while let Some(&(mut byte)) = text.get(at) {
            // A carriage return reads as a space (see `token`).
            if byte == b' ' || byte == b'\r' {
                at += 1;
                continue;
            }
            if matches!(byte, b'2'..=b'9') || byte == b'1' && matches!(text.get(at + 1), Some(b'0'..=b'9' | b'.')) {
                // A move number (`1-0` and `1/2-1/2` go on with neither a digit nor a dot).
                at = skip_move_number(text, at + 1);
                match text.get(at) {
                    Some(&next) if MOVE_STARTS[usize::from(next)] => byte = next,
                    _ => continue,
                }
            }
            // White's move, then a space and Black's: read in a row here, so that in plain
            // movetext each test goes the same way nearly every time.
            if let Some(len) = self.plain_move(at, byte, movetext) {
                at += len;
                if text.get(at) == Some(&b' ')
                    && let Some(&next) = text.get(at + 1)
                    && let Some(len) = self.plain_move(at + 1, next, movetext)
                {
                    at += 1 + len;
                }
                continue;
            }
            if MOVE_STARTS[usize::from(byte)] && !rest_looked_at && movetext.skips_moves() {
                rest_looked_at = true;
                if let Some(end) = self.skip_plain_rest(at, movetext) {
                    self.at = end;
                    return Ok(());
                }
            }
            self.at = at;
            let end = self.token(byte, movetext)?;
            at = self.at;
            if end {
                return Ok(());
            }
        }
        self.at = at;
        Ok(())
    }

    /// The movetext token that starts with `byte` at `at`, read up to its end; `true` at the
    /// end of the movetext.
    fn token(&mut self, byte: u8, movetext: &mut impl Movetext) -> Result<bool, &'static str> {
        let text = self.text;
        match byte {
            b'{' => match memchr::memchr(b'}', &text[self.at + 1..]) {
                Some(end) => {
                    movetext.comment(&text[self.at + 1..self.at + 1 + end]);
                    self.at += end + 2;
                }
                None => return Err(self.comment_to_end()),
            },
            b'\n' => {
                self.at += 1;
                match self.peek(self.at) {
                    Some(b'%') => self.at = self.find_byte(self.at, b'\n'),
                    Some(b'[' | b'\n') => return Ok(true),
                    Some(b'\r') => {
                        self.at += 1;
                        if self.peek(self.at) == Some(b'\n') {
                            return Ok(true);
                        }
                    }
                    _ => {}
                }
            }
            b';' => {
                // A rest-of-line comment: a comment as SCID keeps it (without the line end).
                let end = self.find_byte(self.at, b'\n');
                let comment = &text[self.at + 1..end];
                movetext.comment(comment.strip_suffix(b"\r").unwrap_or(comment));
                self.at = end;
            }
            b'0' => {
                self.at += 1;
                if self.eat_dash() {
                    if self.eat(b"1") {
                        movetext.outcome(GameResult::BlackWins);
                    } else if self.eat(b"0") {
                        // Castling written with zeros.
                        let long = self.eat_dash() && self.eat(b"0");
                        let side = if long { CastlingSide::QueenSide } else { CastlingSide::KingSide };
                        let suffix = san_text::suffix(self.peek(self.at));
                        self.at += usize::from(suffix.is_some());
                        movetext.san(SanPlus { san: San::Castle(side), suffix });
                    }
                }
            }
            b'1' => {
                self.at += 1;
                if self.eat_dash() {
                    if self.eat(b"0") {
                        movetext.outcome(GameResult::WhiteWins);
                    }
                } else if self.eat(b"/2") && self.eat_dash() && self.eat(b"1/2") {
                    movetext.outcome(GameResult::Draw);
                } else {
                    self.at = skip_move_number(text, self.at);
                }
            }
            b'\xc2' => {
                self.at += 1;
                if self.eat(b"\xbd") && self.eat_dash() && self.eat("\u{bd}".as_bytes()) {
                    movetext.outcome(GameResult::Draw);
                }
            }
            b'(' => {
                self.at += 1;
                if movetext.begin_variation() {
                    self.skip_variation(movetext);
                }
            }
            b')' => {
                self.at += 1;
                movetext.end_variation();
            }
            b'$' => {
                self.at += 1;
                let end = self.token_len(self.at);
                let digits = &text[self.at..self.at + end];
                if let Some(nag) = parse_nag(digits) {
                    movetext.nag(nag);
                }
                self.at += end;
            }
            b'!' | b'?' => {
                self.at += 1;
                let nag = match (byte, self.peek(self.at)) {
                    (b'!', Some(b'!')) => 3,
                    (b'!', Some(b'?')) => 5,
                    (b'?', Some(b'!')) => 6,
                    (b'?', Some(b'?')) => 4,
                    (b'!', _) => 1,
                    _ => 2,
                };
                if nag > 2 {
                    self.at += 1;
                }
                movetext.nag(nag);
            }
            b'*' => {
                self.at += 1;
                movetext.outcome(GameResult::Unknown);
            }
            b' ' | b'\t' | b'\r' | b'.' => self.at += 1,
            b',' if self.repair => {
                self.at += 1;
                movetext.repair(COMMA_REPAIRED.to_owned());
            }
            _ if movetext.skips_moves() => self.skip_move(movetext),
            _ => self.read_move(movetext),
        }
        Ok(false)
    }

    /// Passes over the movetext from `at` (a token's start) to its end when what is left is
    /// plain: no comment, variation, `%` line or comma, no `d7d8R` to repair (when repairing),
    /// and a result token, standing alone, as its last token or none at all. Reading it token
    /// by token would then hand on only moves and NAGs, which a movetext skipping moves does
    /// not want, and that result, reported here. Returns where the movetext ends, or `None`
    /// (nothing reported) for the token by token reading to decide. Past a book's ply limit
    /// this is most of each game's text: vector searches instead of a token loop (the
    /// scanner's reading of it was 23 % of a 40-ply Polyglot build).
    fn skip_plain_rest(&self, at: usize, movetext: &mut impl Movetext) -> Option<usize> {
        let end = plain_movetext_end(self.text, at)?;
        let rest = &self.text[at..end];
        if memchr::memchr3(b'(', b')', b'%', rest).is_some()
            || memchr::memchr(b',', rest).is_some()
            || self.repair && may_hold_bare_promotion(rest)
        {
            return None;
        }
        let is_space = |b: &u8| matches!(b, b' ' | b'\t' | b'\r' | b'\n');
        let last_end = rest.iter().rposition(|b| !is_space(b)).map_or(0, |last| last + 1);
        let last_start = rest[..last_end].iter().rposition(is_space).map_or(0, |space| space + 1);
        let outcome = match &rest[last_start..last_end] {
            [] => None,
            b"1-0" => Some(GameResult::WhiteWins),
            b"0-1" => Some(GameResult::BlackWins),
            b"1/2-1/2" => Some(GameResult::Draw),
            b"*" => Some(GameResult::Unknown),
            // A last token that is no result alone may hold one, or several: the tokens decide.
            _ if rest[..last_end].iter().any(|&b| matches!(b, b'0' | b'1' | b'*' | b'\xc2')) => return None,
            _ => None,
        };
        // An earlier result token is overridden by the last, as when read token by token.
        if let Some(outcome) = outcome {
            movetext.outcome(outcome);
        }
        Some(end)
    }

    /// A move token nobody wants: skipped whole unless it could hold a result token or a
    /// repair (`0`, `1`, `½`, a 5-byte `d7d8R`), which [`Scanner::read_move`] reads exactly.
    fn skip_move(&mut self, movetext: &mut impl Movetext) {
        let end = self.token_len(self.at);
        let token = &self.text[self.at..self.at + end];
        if end == 5 || token.iter().any(|&b| matches!(b, b'0' | b'1' | b'\xc2')) {
            self.read_move(movetext);
        } else {
            self.at += end.max(1);
        }
    }

    /// The move token at `at` (which starts with `byte`), when it is a whole move token that
    /// [`san_text::parse_prefix`] reads and `movetext` wants: handed to `movetext` as
    /// [`Scanner::read_move`] would hand it, and its length given.
    #[inline(always)]
    fn plain_move(&self, at: usize, byte: u8, movetext: &mut impl Movetext) -> Option<usize> {
        if !MOVE_STARTS[usize::from(byte)] || movetext.skips_moves() {
            return None;
        }
        // Parsed from the next bytes as an array, whose length is known when compiling, so
        // that the parse tests no length (its tests mispredicted): it looks at no byte past the
        // one after the move, so a move that ends inside the window is read as from the whole
        // text. Longer tokens and the text's last bytes are read as before.
        if let Some(window) = self.text.get(at..).and_then(<[u8]>::first_chunk::<MOVE_WINDOW>) {
            // The usual move goes to `movetext` in the parts it was read in.
            if let Some((plain, len)) = san_text::plain_prefix(window) {
                let suffix = san_text::suffix(Some(window[len]));
                let len = len + usize::from(suffix.is_some());
                if !self.is_token_end(window[len]) {
                    return None;
                }
                movetext.plain_san(plain.role, plain.file, plain.capture, plain.to, suffix);
                return Some(len);
            }
            if let Some((san, len)) = san_text::parse_unusual(window)
                && len < MOVE_WINDOW
            {
                return self.is_token_end(window[len]).then(|| hand_over(movetext, san, len));
            }
        }
        let (san, len) = san_text::parse_prefix(self.text.get(at..)?)?;
        self.text.get(at + len).is_none_or(|&b| self.is_token_end(b)).then(|| hand_over(movetext, san, len))
    }

    /// A move token (or something that is none: it is skipped).
    fn read_move(&mut self, movetext: &mut impl Movetext) {
        let rest = &self.text[self.at..];
        match san_text::parse_prefix(rest) {
            Some((san, len)) => {
                self.at += len;
                match self.peek(self.at) {
                    None => movetext.san(san),
                    Some(next) if self.is_token_end(next) => movetext.san(san),
                    // `d7d8R`: a long-algebraic promotion without `=`.
                    Some(_) if self.repair && len == 4 && bare_promotion(self.text, self.at) => {
                        // The lenient reading puts in the `=`, then reads the token as usual.
                        movetext.repair(promotion_repaired(&rest[..5]));
                        let repaired = [&rest[..4], b"=", &rest[4..rest.len().min(12)]].concat();
                        if let Some((san, len)) = san_text::parse_prefix(&repaired)
                            && len > 5
                        {
                            self.at += len - 5;
                            if self.peek(self.at).is_none_or(|b| self.is_token_end(b)) {
                                movetext.san(san);
                            }
                        }
                    }
                    // The rest of the token is read as a token of its own.
                    Some(_) => {}
                }
            }
            None => self.at += 1 + self.token_len(self.at + 1),
        }
    }

    /// Skips a variation after its `(`, up to its `)` (left for the movetext to read), a
    /// blank line or a line starting with `[`.
    fn skip_variation(&mut self, movetext: &mut impl Movetext) {
        let text = self.text;
        let mut depth = 0usize;
        while let Some(byte) = self.peek(self.at) {
            match byte {
                b'(' => (self.at, depth) = (self.at + 1, depth + 1),
                b')' => match depth.checked_sub(1) {
                    Some(d) => (self.at, depth) = (self.at + 1, d),
                    None => return,
                },
                b'{' => match memchr::memchr(b'}', &text[self.at..]) {
                    Some(end) => self.at += end + 1,
                    // The variation's reading gives up without an error, as it always has.
                    None => _ = self.comment_to_end(),
                },
                b';' => self.at = self.find_byte(self.at, b'\n'),
                b'\n' => match (self.peek(self.at + 1), self.peek(self.at + 2)) {
                    (Some(b'%'), _) => self.at = self.find_byte(self.at + 2, b'\n'),
                    (Some(b'[' | b'\n'), _) | (Some(b'\r'), Some(b'\n')) => return,
                    _ => self.at += 1,
                },
                b',' if self.repair => {
                    self.at += 1;
                    movetext.repair(COMMA_REPAIRED.to_owned());
                }
                b'N' | b'B' | b'R' | b'Q' | b'n' | b'b' | b'r' | b'q'
                    if self.repair && bare_promotion(text, self.at) =>
                {
                    movetext.repair(promotion_repaired(&text[self.at - 4..=self.at]));
                    self.at += 1;
                }
                _ => self.at += 1,
            }
        }
    }

    /// Movetext read for nothing (a game that could not be started, or that its reader does
    /// not want): up to a blank line or a tag line, where [`Scanner::read_movetext`] would
    /// stop; a comment without its `}` is an error, as there.
    pub fn skip_movetext(&mut self) -> Result<(), &'static str> {
        match plain_movetext_end(self.text, self.at) {
            Some(end) => {
                self.at = end;
                Ok(())
            }
            None => self.skip_movetext_by_lines(),
        }
    }

    /// [`Scanner::skip_movetext`] line by line, comments and escape lines seen.
    fn skip_movetext_by_lines(&mut self) -> Result<(), &'static str> {
        let text = self.text;
        while let Some(byte) = self.peek(self.at) {
            self.at += 1;
            match byte {
                b'{' => match memchr::memchr(b'}', &text[self.at..]) {
                    Some(end) => self.at += end + 1,
                    None => return Err(self.comment_to_end()),
                },
                b';' => self.at = self.find_byte(self.at, b'\n'),
                b'\n' => match self.peek(self.at) {
                    Some(b'%') => self.at = self.find_byte(self.at + 1, b'\n'),
                    Some(b'\n' | b'[') => return Ok(()),
                    Some(b'\r') => {
                        self.at += 1;
                        if self.peek(self.at) == Some(b'\n') {
                            return Ok(());
                        }
                    }
                    _ => {}
                },
                _ => self.at = memchr::memchr3(b'\n', b'{', b';', &text[self.at..]).map_or(text.len(), |i| self.at + i),
            }
        }
        Ok(())
    }
}

/// Where [`Scanner::skip_movetext`] stops in `text` from `at` when nothing before the next tag
/// line can hide a line break (no `{` or `;`; a `%` line holds none): after the first line
/// break followed by a blank line or by that tag line. `None` when a `{` or `;` comes first,
/// or a `[` that starts no line: the walk line by line decides.
///
/// One pass over the movetext, a block of [`STOP_BLOCK`] bytes at a time: a block holds none
/// of those bytes and no line break followed by one or by `\r` (a CRLF blank line) in most
/// games, and each block's bytes that may stop are marked at once, by vector compares. Only
/// the bytes marked are looked at, in order (a byte loop over the block where something may
/// stop cost more than the rest of the skip of a short game). (Three vector searches, one for
/// `[`, `{` and `;` and one for each kind of blank line, each cost a set-up per game.)
#[inline]
fn plain_movetext_end(text: &[u8], at: usize) -> Option<usize> {
    let rest = text.get(at..)?;
    let mut from = 0;
    while let Some(block) = rest.get(from..from + STOP_BLOCK + 1) {
        let mut marked = marked_bytes(block.try_into().expect("a block and the byte after it"));
        while marked != 0 {
            if let Some(end) = stop_at(rest, from + marked.trailing_zeros() as usize) {
                return end.map(|end| at + end);
            }
            marked &= marked - 1;
        }
        from += STOP_BLOCK;
    }
    // Fewer bytes than a block and the byte after it are left.
    for i in from..rest.len() {
        if let Some(end) = stop_at(rest, i) {
            return end.map(|end| at + end);
        }
    }
    Some(text.len())
}

/// What byte `i` of `rest` (the movetext [`plain_movetext_end`] reads) says: `None` when the
/// walk goes on past it, else what `plain_movetext_end` returns (relative to `rest`).
#[inline]
fn stop_at(rest: &[u8], i: usize) -> Option<Option<usize>> {
    match (rest[i], rest.get(i + 1), rest.get(i + 2)) {
        // The tag line ending the movetext: the walk stops at its `[`.
        (b'[', ..) if i > 0 && rest[i - 1] == b'\n' => Some(Some(i)),
        (b'[' | b'{' | b';', ..) => Some(None),
        // A blank line: the walk stops on its second line break (after the `\r` of CRLF);
        // it reads a line break and `\r` not followed by a line break as movetext.
        (b'\n', Some(b'\n'), _) => Some(Some(i + 1)),
        (b'\n', Some(b'\r'), Some(b'\n')) => Some(Some(i + 2)),
        _ => None,
    }
}

/// Bytes [`plain_movetext_end`] looks at together.
const STOP_BLOCK: usize = 64;

/// Whether `byte`, followed by `next`, may be where [`plain_movetext_end`] stops: a `[`, `{` or
/// `;`, or a line break followed by a line break or `\r`. Loosely, in few operations: `[`, `{`,
/// `;` and ESC are the bytes that `| 0x60` makes `{`, and a line break followed by any byte up
/// to `\r` (a tab, a control byte) is let through too; [`stop_at`] tells them apart. (On
/// x86-64, [`marked_among_16`] says it of sixteen bytes at once.)
#[cfg(any(not(target_arch = "x86_64"), test))]
#[inline(always)]
fn may_stop_at(byte: u8, next: u8) -> bool {
    (byte | 0x60 == b'{') | ((byte == b'\n') & (next <= b'\r'))
}

/// The bytes of a block (and the byte after it) that [`may_stop_at`], as bits (bit `i` for
/// byte `i`): on x86-64 by SSE2 compares, sixteen bytes at a time.
#[inline(always)]
fn marked_bytes(block: &[u8; STOP_BLOCK + 1]) -> u64 {
    #[cfg(target_arch = "x86_64")]
    {
        let sixteen = |at: usize| {
            u64::from(marked_among_16(block[at..at + 17].try_into().expect("sixteen bytes and the next"))) << at
        };
        sixteen(0) | sixteen(16) | sixteen(32) | sixteen(48)
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        (0..STOP_BLOCK).fold(0, |marked, i| marked | (u64::from(may_stop_at(block[i], block[i + 1])) << i))
    }
}

/// [`marked_bytes`] of sixteen bytes (and the byte after them), as [`may_stop_at`] says it.
#[cfg(target_arch = "x86_64")]
#[inline(always)]
fn marked_among_16(bytes: &[u8; 17]) -> u32 {
    use std::arch::x86_64::{
        _mm_and_si128, _mm_cmpeq_epi8, _mm_loadu_si128, _mm_min_epu8, _mm_movemask_epi8, _mm_or_si128, _mm_set1_epi8,
    };
    // SAFETY: these need SSE2, which every x86-64 processor has (it is in the x86-64 baseline
    // target); the loads read bytes 0..16 and 1..17 of the seventeen, and need no alignment.
    unsafe {
        let byte = _mm_loadu_si128(bytes.as_ptr().cast());
        let next = _mm_loadu_si128(bytes[1..].as_ptr().cast());
        let brace = _mm_cmpeq_epi8(_mm_or_si128(byte, _mm_set1_epi8(0x60)), _mm_set1_epi8(b'{' as i8));
        let line_break = _mm_cmpeq_epi8(byte, _mm_set1_epi8(b'\n' as i8));
        let next_up_to_cr = _mm_cmpeq_epi8(_mm_min_epu8(next, _mm_set1_epi8(b'\r' as i8)), next);
        _mm_movemask_epi8(_mm_or_si128(brace, _mm_and_si128(line_break, next_up_to_cr))) as u32
    }
}

/// Where a tag's name ends: its value's opening quote, or the line or the tag ending first.
const TAG_NAME_ENDS: [u8; 3] = *b"\"\n]";

/// Where a tag value's reading stops: an escape, a quote, the line end.
const TAG_VALUE_STOPS: [u8; 3] = *b"\\\"\n";

/// The first byte of `rest` among `stops`: on x86-64 sixteen bytes at a time in a vector
/// register (every x86-64 processor has SSE2), then eight at a time in a `u64` (a tag's name or
/// value is one or two words). Neither `memchr3`, whose call and set-up cost more than the
/// search on a few bytes (a quarter of `select`'s CPU went to them on a file of ordinary
/// games), nor a byte loop, four instructions a byte.
#[inline]
fn find_in_line(rest: &[u8], stops: &[u8; 3]) -> Option<usize> {
    let mut from = 0;
    #[cfg(target_arch = "x86_64")]
    for chunk in rest.chunks_exact(16) {
        let found = stops_among_16(chunk.try_into().expect("sixteen bytes"), stops);
        if found != 0 {
            return Some(from + found.trailing_zeros() as usize);
        }
        from += 16;
    }
    const ONES: u64 = u64::from_le_bytes([1; 8]);
    const HIGHS: u64 = ONES << 7;
    // The high bit of each byte equal to `stop`: exact up to the first such byte, which is all
    // that is read (a byte after an equal one may be marked too, by the borrow).
    let equal = |word: u64, stop: u8| {
        let x = word ^ (ONES * u64::from(stop));
        x.wrapping_sub(ONES) & !x & HIGHS
    };
    let mut words = rest[from..].chunks_exact(8);
    for word in words.by_ref() {
        let word = u64::from_le_bytes(word.try_into().expect("eight bytes"));
        let found = equal(word, stops[0]) | equal(word, stops[1]) | equal(word, stops[2]);
        if found != 0 {
            return Some(from + found.trailing_zeros() as usize / 8);
        }
        from += 8;
    }
    let tail = words.remainder();
    let at = tail.iter().position(|b| stops.contains(b))?;
    Some(rest.len() - tail.len() + at)
}

/// The bytes of `chunk` among `stops`, as bits (bit `i` for byte `i`): three vector compares.
#[cfg(target_arch = "x86_64")]
#[inline(always)]
fn stops_among_16(chunk: &[u8; 16], stops: &[u8; 3]) -> u32 {
    use std::arch::x86_64::{_mm_cmpeq_epi8, _mm_loadu_si128, _mm_movemask_epi8, _mm_or_si128, _mm_set1_epi8};
    // SAFETY: these need SSE2, which every x86-64 processor has (it is in the x86-64 baseline
    // target); the load reads the chunk's sixteen bytes and needs no alignment.
    unsafe {
        let bytes = _mm_loadu_si128(chunk.as_ptr().cast());
        let [a, b, c] = stops.map(|stop| _mm_cmpeq_epi8(bytes, _mm_set1_epi8(stop as i8)));
        _mm_movemask_epi8(_mm_or_si128(_mm_or_si128(a, b), c)) as u32
    }
}

/// Whether a tag value's quote followed by `rest` closes it: spaces, then `]` or a line end.
#[inline]
fn closes_value(rest: &[u8]) -> bool {
    // Nearly always the `]` right after the quote.
    if rest.first() == Some(&b']') {
        return true;
    }
    let after = rest.iter().position(|&b| b != b' ' && b != b'\t').map(|at| rest[at]);
    matches!(after, None | Some(b']' | b'\r' | b'\n'))
}

/// The length of `]` and a line end when the text goes on with them and another tag: what
/// [`Scanner::skip_ket`] would skip there.
#[inline]
fn tag_line_end(rest: &[u8]) -> Option<usize> {
    const LF: u32 = u32::from_le_bytes(*b"]\n[\0");
    const CRLF: u32 = u32::from_le_bytes(*b"]\r\n[");
    // Four bytes compared at once (the text after a tag nearly always holds them; a slice
    // pattern compared them one by one, length first).
    match rest.first_chunk::<4>().map(|four| u32::from_le_bytes(*four)) {
        Some(word) if word & 0x00ff_ffff == LF => Some(2),
        Some(CRLF) => Some(3),
        Some(_) => None,
        None => rest.starts_with(b"]\n[").then_some(2),
    }
}

/// Hands a move of `len` bytes read in [`Scanner::read_movetext`]'s fast path to `movetext`;
/// its length.
#[inline(always)]
fn hand_over(movetext: &mut impl Movetext, san: SanPlus, len: usize) -> usize {
    match san.san {
        San::Normal { role, file, rank: None, capture, to, promotion: None } => {
            movetext.plain_san(role, file, capture, to, san.suffix);
        }
        _ => movetext.san(san),
    }
    len
}

/// Where a move number's digits from `at`, and the dots and spaces after them, end.
fn skip_move_number(text: &[u8], mut at: usize) -> usize {
    while matches!(text.get(at), Some(b'0'..=b'9')) {
        at += 1;
    }
    while matches!(text.get(at), Some(b'.' | b' ')) {
        at += 1;
    }
    at
}

/// Whether the piece letter at `at` ends a long-algebraic promotion without `=`: `d7d8R`,
/// `b2a1n` (a token of its own).
fn bare_promotion(text: &[u8], at: usize) -> bool {
    let Some(start) = at.checked_sub(4) else { return false };
    let is_file = |b: u8| (b'a'..=b'h').contains(&b);
    let is_edge = |b: Option<&u8>| b.is_none_or(|b| b.is_ascii_whitespace() || b"()[]{};,+#!?$".contains(b));
    matches!(text[start..=at], [f1, r1, f2, r2, _]
        if is_file(f1) && is_file(f2) && ((r1 == b'7' && r2 == b'8') || (r1 == b'2' && r2 == b'1')))
        && (start == 0 || is_edge(text.get(start - 1)) || text[start - 1] == b'.')
        && is_edge(text.get(at + 1))
}

/// Whether `text` may hold a `d7d8R` promotion for [`bare_promotion`] to repair: a first or
/// last rank followed by a promotion piece's letter, which plain SAN never writes (`e8=Q`; a
/// rook on the b-file disambiguated by rank, `R1b2`, is let through to the token reading). A
/// loop without an early exit, which the compiler turns into vector compares.
fn may_hold_bare_promotion(text: &[u8]) -> bool {
    let pairs = text.iter().zip(text.iter().skip(1));
    pairs.fold(false, |found, (&rank, &piece)| {
        let piece = piece | 0x20;
        found
            | ((rank == b'8') | (rank == b'1'))
                & ((piece == b'n') | (piece == b'b') | (piece == b'r') | (piece == b'q'))
    })
}

/// `$n`'s number: decimal digits only, at most 255.
fn parse_nag(digits: &[u8]) -> Option<u8> {
    if digits.is_empty() || !digits.iter().all(u8::is_ascii_digit) {
        return None;
    }
    digits.iter().try_fold(0u8, |n, &d| n.checked_mul(10)?.checked_add(d - b'0'))
}

/// A tag value with its escapes decoded, as pgn-reader 0.29 decoded them: `\"` and `\\`
/// lose their backslash. Borrows unless there is an escape.
///
/// Inlined for the usual value without a backslash (ten a game, each a few bytes, where the
/// call cost more than the look); the decoding is kept aside.
#[inline]
pub(crate) fn unescape(raw: &[u8]) -> Cow<'_, [u8]> {
    match raw.contains(&b'\\') {
        false => Cow::Borrowed(raw),
        true => decode_escapes(raw),
    }
}

/// [`unescape`] of a value holding a backslash.
#[cold]
fn decode_escapes(raw: &[u8]) -> Cow<'_, [u8]> {
    let mut head = 0;
    let mut decoded = Vec::with_capacity(raw.len());
    for escape in memchr::memchr_iter(b'\\', raw) {
        if matches!(raw.get(escape + 1), Some(b'\\' | b'"')) {
            decoded.extend_from_slice(&raw[head..escape]);
            head = escape + 1;
        }
    }
    if head == 0 {
        return Cow::Borrowed(raw);
    }
    decoded.extend_from_slice(&raw[head..]);
    Cow::Owned(decoded)
}

#[cfg(test)]
mod tests {
    use super::*;
    use tabiya_testdata::Xorshift;

    /// Every event a movetext reading hands on, in order.
    #[derive(Default)]
    struct Events {
        seen: Vec<String>,
        moves: usize,
        /// Moves are skipped after this many.
        wanted: Option<usize>,
        /// The last result met once moves are skipped.
        last_outcome: Option<GameResult>,
    }

    impl Movetext for Events {
        fn san(&mut self, san: SanPlus) {
            // Past the moves wanted, moves and NAGs are not wanted (`Movetext::skips_moves`).
            if !self.skips_moves() {
                self.moves += 1;
                self.seen.push(format!("{san:?}"));
            }
        }
        fn skips_moves(&self) -> bool {
            self.wanted.is_some_and(|wanted| self.moves >= wanted)
        }
        fn nag(&mut self, nag: u8) {
            if !self.skips_moves() {
                self.seen.push(format!("${nag}"));
            }
        }
        fn comment(&mut self, text: &[u8]) {
            self.seen.push(format!("{{{}}}", String::from_utf8_lossy(text)));
        }
        fn begin_variation(&mut self) -> bool {
            self.seen.push("(".into());
            // Some variations read, some skipped.
            self.seen.len().is_multiple_of(3)
        }
        fn end_variation(&mut self) {
            self.seen.push(")".into());
        }
        fn outcome(&mut self, result: GameResult) {
            // Past the moves wanted, only the last result counts (it is the movetext's).
            if self.skips_moves() {
                self.last_outcome = Some(result);
            } else {
                self.seen.push(result.as_pgn().into());
            }
        }
        fn repair(&mut self, message: String) {
            self.seen.push(message);
        }
    }

    /// The movetext loop without its fast paths, as it was before them: every move through
    /// `read_move`, every other token but spaces and move numbers through `token`.
    fn read_movetext_token_by_token(scan: &mut Scanner<'_>, movetext: &mut impl Movetext) -> Result<(), &'static str> {
        while let Some(byte) = scan.peek(scan.at) {
            if byte == b' ' {
                scan.at += 1;
            } else if MOVE_STARTS[usize::from(byte)] {
                if movetext.skips_moves() {
                    scan.skip_move(movetext);
                } else {
                    scan.read_move(movetext);
                }
            } else if matches!(byte, b'2'..=b'9')
                || byte == b'1' && matches!(scan.peek(scan.at + 1), Some(b'0'..=b'9' | b'.'))
            {
                scan.at = skip_move_number(scan.text, scan.at + 1);
            } else if scan.token(byte, movetext)? {
                return Ok(());
            }
        }
        Ok(())
    }

    /// Reads every piece of `text` both ways; returns the moves read.
    fn same_both_ways(text: &[u8], repair: bool, wanted: Option<usize>) -> usize {
        let mut scan = Scanner::new(text, 0, repair);
        let mut moves = 0;
        loop {
            scan.skip_to_game();
            if scan.at >= text.len() || scan.read_tags(|_| {}).is_err() {
                return moves;
            }
            let mut slow = Scanner::new(text, scan.at, repair);
            let (mut fast_events, mut slow_events) =
                (Events { wanted, ..Events::default() }, Events { wanted, ..Events::default() });
            let fast_result = scan.read_movetext(&mut fast_events);
            let slow_result = read_movetext_token_by_token(&mut slow, &mut slow_events);
            assert_eq!((fast_result, scan.at), (slow_result, slow.at), "movetext read from {}", slow.at);
            assert_eq!(fast_events.seen, slow_events.seen, "movetext read up to {}", slow.at);
            assert_eq!(fast_events.last_outcome, slow_events.last_outcome, "result up to {}", slow.at);
            moves += fast_events.moves;
        }
    }

    /// The fast paths of `read_movetext` (moves read whole, a move number and two moves in a
    /// row, carriage returns as spaces) give what reading token by token gives, on real
    /// movetext and on copies with bytes changed to what the fast paths look at.
    #[test]
    fn fast_paths_read_what_token_by_token_reading_reads() {
        let own = b"1.e4 e5 2.Nf3 Nc6\r\n3.Bb5 a6 {A comment} 4.Ba4 Nf6 5.O-O Be7 6.Re1 b5 7.Bb3 d6 (7...O-O 8.c3) 8.c3 O-O 9.h3 Nb8 10.d4 Nbd7 11.Nbd2 Bb7 12.Bc2 Re8 13.Nf1 Bf8 14.Ng3 g6 15.a4 c5 16.d5 c4 17.Bg5 h6 18.Be3 Nc5 19.Qd2 h5 20.Bg5 Be7 21.Ra3 Kg7 22.Rea1 Qc7 23.axb5 axb5 24.Rxa8 Rxa8 25.Rxa8 Bxa8 26.Qe3 Bb7 27.Bxe7 Qxe7 28.Qg5 Qxg5 29.Nxg5 e8=Q+ exd8=N# Kxh8 $1 !? 30.f4 ... 1/2-1/2\n\n";
        let corpus = tabiya_testdata::corpus_file("pgn/medium-pgnmentor-12players.pgn").map(|path| {
            let mut text = std::fs::read(path).unwrap();
            text.truncate(1 << 20);
            text
        });
        let texts: Vec<&[u8]> = [&own[..]].into_iter().chain(corpus.as_deref()).collect();
        let alphabet = b" \r\n\t.x=+#-O0123456789abcdefghNBRQKP{}()$!?;,*[\"";
        let mut rng = Xorshift::new(0x5ca4);
        // 1. to 28. both sides, 29. four, 30. one, and the variation's two (`Events` reads it).
        assert_eq!(same_both_ways(own, false, None), 56 + 4 + 1 + 2);
        let mut moves = 0;
        for text in texts {
            for (repair, wanted) in [(false, None), (true, None), (true, Some(10))] {
                moves += same_both_ways(text, repair, wanted);
            }
            for _ in 0..40 {
                let mut changed = text[..text.len().min(64 << 10)].to_vec();
                for _ in 0..1 + changed.len() / 200 {
                    let at = rng.below(changed.len());
                    changed[at] = alphabet[rng.below(alphabet.len())];
                }
                let wanted = [None, Some(0), Some(3)][rng.below(3)];
                moves += same_both_ways(&changed, rng.below(2) == 0, wanted);
            }
        }
        assert!(moves > 3 * 63, "{moves}");
    }

    /// Past the moves wanted, the rest of a movetext passed over whole gives the result and
    /// repairs that reading it token by token gives, or is left to that reading: results alone,
    /// glued to a move, repeated, in other spellings or missing, commas, `d7d8R` and `R1b2`,
    /// variations, `%` lines and comments after the limit, CRLF and blank lines.
    #[test]
    fn the_rest_passed_over_reads_as_token_by_token() {
        let rests: [&[u8]; 22] = [
            b"e5 2. Nf3 Nc6 3. Bb5 1-0",
            b"e5 2. Nf3 $1 Nc6 !? 0-1\r\n\r\n",
            b"e5 2. Nf3 Nc6 1/2-1/2  \n",
            b"e5 2. Nf3 *",
            b"e5 2. Nf3\n\ne4 1-0",
            b"e5 2. Nf3 Nc6#1-0",
            b"e5 2. Nf3 1-0 0-1",
            b"e5 2. Nf3 1-0 e4",
            b"e5 2. Nf3 1\xe2\x80\x930",
            b"e5 2. Nf3 \xc2\xbd-\xc2\xbd",
            b"e5 2. Nf3 Nc6",
            b"e5 2. Nf3, Nc6 1-0",
            b"e5 2. d7d8R Nc6 1-0",
            b"e5 2. d7d8r 1-0",
            b"e5 2. R1b2 Nc6 0-1",
            b"e5 2. Nf3 (2. d4) Nc6 1-0",
            b"e5 2. Nf3 ) Nc6 1-0",
            b"e5\n% 1-0\n2. Nf3 0-1",
            b"e5 2. Nf3 {1-0} *",
            b"e5 2. Nf3 ; 0-1\n1-0",
            b"e5 2. Nf3 1-0\n[Event \"x\"]\n\n1. d4 *",
            b"e5 2. Nf3 e4*",
        ];
        for rest in rests {
            let text = [&b"[Event \"a\"]\n\n1. e4 "[..], rest].concat();
            for repair in [false, true] {
                for wanted in [Some(0), Some(1), Some(2), None] {
                    same_both_ways(&text, repair, wanted);
                }
            }
        }
    }

    /// Commas and `d7d8R` promotions are repaired for `from_bytes` (with a warning on their
    /// game, commas in comments left alone) and dropped with their move by `new`.
    #[test]
    fn repairs_and_their_games() {
        use crate::pgn::{PgnReader, ReadOptions};

        let text = b"[Event \"a,b\"]\n[FEN \"8/3P4/8/8/8/8/k7/4K3 w - - 0 1\"]\n\n1. Kd2, Ka1 {x, y} 2. d7d8q *\n\n[Event \"c\"]\n\n1. d4 *\n";
        let games: Vec<_> = PgnReader::from_bytes(text, ReadOptions::default()).map(Result::unwrap).collect();
        let seen: Vec<(u64, usize, Vec<String>)> = games
            .iter()
            .map(|g| (g.offset, g.game.ply_count(), g.diagnostics.iter().map(|w| w.message.clone()).collect()))
            .collect();
        assert_eq!(
            seen,
            [
                (0, 3, vec!["comma between moves read as a space".into(), "promotion d7d8q read as d7d8=q".into()]),
                (85, 1, vec![]),
            ]
        );
        assert_eq!(games[0].game.moves.nodes[1].comments(), ["x, y"]);
        let strict: Vec<usize> = PgnReader::new(&text[..]).map(|g| g.unwrap().game.ply_count()).collect();
        // `Kd2,` is no move: the line ends at the first move that cannot be played.
        assert_eq!(strict, [0, 1]);
    }

    #[test]
    fn nags_and_escapes() {
        assert_eq!(parse_nag(b"0"), Some(0));
        assert_eq!(parse_nag(b"255"), Some(255));
        assert_eq!(parse_nag(b"0255"), Some(255));
        assert_eq!(parse_nag(b"256"), None);
        assert_eq!(parse_nag(b""), None);
        assert_eq!(parse_nag(b"+1"), None);
        assert_eq!(&*unescape(br#"a\"b\\c\d"#), br#"a"b\c\d"#);
        // Each backslash is looked at, also one just kept as an escape's second byte.
        assert_eq!(&*unescape(br#"\\""#), br#"""#);
        assert!(matches!(unescape(b"plain"), Cow::Borrowed(_)));
    }

    /// Skipping movetext by the vector searches stops where the walk line by line stops, on
    /// texts made of the bytes that end or hide a movetext's end (line breaks, `\r`, `[`,
    /// braces, `;`, `%`) and of bytes marked as if they might (a tab after a line break, ESC)
    /// among plain ones, from every starting byte.
    #[test]
    fn skipping_plain_movetext_stops_where_the_walk_does() {
        let bytes = b"\n\n\n\r\t\x1b[[{};%e4 1-0";
        let mut rng = Xorshift::new(0x5e1ec7);
        for round in 0..20_000 {
            // Short texts of those bytes, and long ones of mostly plain bytes, whose stops fall
            // in any block and across blocks.
            let (len, plain) = if round % 2 == 0 { (rng.below(24), 0) } else { (rng.below(150), 12) };
            let byte = |rng: &mut Xorshift| match rng.below(plain + 1) {
                0 => bytes[rng.below(bytes.len())],
                _ => b"e4 Nf3 1. "[rng.below(10)],
            };
            let text: Vec<u8> = (0..len).map(|_| byte(&mut rng)).collect();
            for at in 0..=text.len() {
                let mut walked = Scanner::new(&text, at, false);
                let by_lines = walked.skip_movetext_by_lines();
                let mut skipped = Scanner::new(&text, at, false);
                assert_eq!(skipped.skip_movetext(), by_lines, "{text:?} from {at}");
                assert_eq!(skipped.at, walked.at, "{text:?} from {at}");
            }
        }
    }

    /// A block's marks are the bytes [`may_stop_at`] says may stop, byte by byte: blocks of the
    /// bytes that matter (line breaks, `\r`, bytes below and just above it, `[`, `{`, `;`,
    /// ESC, and bytes that `| 0x60` or a signed compare could confuse with them) and any byte.
    #[test]
    fn marks_of_a_block_are_its_bytes_that_may_stop() {
        let bytes = b"\n\n\r\t\x00\x0c\x0e\x1b[{;\xdb\xfb\x8a\x8d e4";
        let mut rng = Xorshift::new(0x6d61726b);
        for _ in 0..50_000 {
            let block: [u8; STOP_BLOCK + 1] = std::array::from_fn(|_| match rng.below(3) {
                0 => rng.below(256) as u8,
                _ => bytes[rng.below(bytes.len())],
            });
            let by_bytes = (0..STOP_BLOCK).filter(|&i| may_stop_at(block[i], block[i + 1])).fold(0, |m, i| m | 1 << i);
            assert_eq!(marked_bytes(&block), by_bytes, "{block:?}");
        }
    }

    /// The vector and word-at-a-time search finds the first stop byte, as a byte loop does, in
    /// texts of every length (none to three vectors and a word), with stops anywhere (bytes
    /// with the high bit set and 0x01 included, where a word's borrow could mislead it).
    #[test]
    fn tag_stops_found_word_by_word_are_the_first() {
        let bytes = b"\\\"\n]\x01\x80\xff\x00aZ \x22";
        let mut rng = Xorshift::new(0x7a65);
        for _ in 0..20_000 {
            let text: Vec<u8> = (0..rng.below(60)).map(|_| bytes[rng.below(bytes.len())]).collect();
            for stops in [&TAG_NAME_ENDS, &TAG_VALUE_STOPS] {
                assert_eq!(find_in_line(&text, stops), text.iter().position(|b| stops.contains(b)), "{text:?}");
            }
        }
    }
}
