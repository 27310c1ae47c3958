//! A fast walk over the main lines of PGN games, for book builders (Polyglot, Kvetka, …):
//! no [`Game`](crate::game::Game) is built, moves past a ply limit are tokenized but never
//! resolved, and the text is read in place (held in memory or mapped).
//!
//! Each game comes with what a builder needs before its first move: the tags (decoded on
//! demand), the result (the movetext's result token, else the `Result` tag), the start
//! position, where the game lies in its file, and the warnings reading gave. Its moves are
//! then played one by one through [`WalkedGame::play`], which hands the caller the position
//! before each move and lets it stop the game.
//!
//! The walk reads the games [`PgnReader`](super::PgnReader) reads, with the same leniency
//! (a blank line never ends a game, commas between moves and `d7d8R` promotions repaired,
//! text that is not UTF-8 decoded as Windows-1252, variants and invalid FENs are errors for
//! their game) and the same warnings, apart from those about variations and comments, which
//! it skips unread. A test holds it to `PgnReader`'s main lines on every corpus file.
//!
//! ```
//! use std::ops::ControlFlow;
//! use tabiya_chess::game::GameResult;
//! use tabiya_chess::pgn::{PgnWalk, WalkOptions};
//!
//! let pgn = b"[White \"Morphy\"]\n[WhiteElo \"2690\"]\n\n1. e4 e5 2. Nf3 d6 (2... Nc6) 3. d4 1-0\n";
//! let mut games = PgnWalk::new(pgn, WalkOptions { max_plies: 4, ..WalkOptions::default() });
//! let mut game = games.next().expect("one game")?;
//! assert_eq!(game.tag("White").as_deref(), Some("Morphy"));
//! assert_eq!(game.result, GameResult::WhiteWins);
//! assert_eq!((game.offset, game.length), (0, pgn.len() as u64));
//! let mut moves = Vec::new();
//! let end = game.play(|before, mv| {
//!     moves.push(shakmaty::san::San::from_move(before, mv.expect("no null move")).to_string());
//!     ControlFlow::Continue(())
//! });
//! assert_eq!(moves, ["e4", "e5", "Nf3", "d6"]);
//! assert_eq!(end.plies, 4);
//! assert!(games.next().is_none());
//! # Ok::<(), tabiya_chess::pgn::PgnError>(())
//! ```

use std::borrow::Cow;
use std::ops::ControlFlow;
use std::path::PathBuf;

use pgn_reader::RawTag;
use shakmaty::san::{San, SanPlus, Suffix};
use shakmaty::{CastlingMode, CastlingSide, Chess, Move, Position};
use tabiya_io::{Codepage, Location, Warnings};

use super::PgnError;
use super::lenient::bare_promotion;
use super::read::{StartPosition, move_name, move_warning, play_resolved, resolve_san};
use crate::game::GameResult;

/// Tag names and values as they stand in the text (escapes not decoded).
type RawTags<'a> = Vec<(&'a [u8], &'a [u8])>;

/// How far to walk each game, and the file to name in errors and warnings.
#[derive(Debug, Clone)]
pub struct WalkOptions {
    /// Main-line moves after this many plies are not resolved or played (the rest of the
    /// movetext is still read for the result token).
    pub max_plies: u32,
    pub file: Option<PathBuf>,
}

impl Default for WalkOptions {
    fn default() -> WalkOptions {
        WalkOptions { max_plies: u32::MAX, file: None }
    }
}

/// One game of the walk: its tags, result and place, and its main-line moves (up to the ply
/// limit) waiting to be played by [`WalkedGame::play`].
#[derive(Debug, Clone)]
pub struct WalkedGame<'a> {
    /// 1-based number of the game in the text walked (a piece's own count in
    /// [`walk_pieces`]).
    pub number: u64,
    /// Byte offset of the game's first byte (its first tag, usually `[Event `) in the file.
    pub offset: u64,
    /// Bytes from `offset` to the start of whatever follows the game (the next game, text
    /// that holds no game, or the end of the text).
    pub length: u64,
    /// The movetext's last result token, else the `Result` tag, else unknown.
    pub result: GameResult,
    /// Chess960 games (by Variant tag or X-FEN / Shredder-FEN castling) use
    /// `CastlingMode::Chess960`.
    pub castling_mode: CastlingMode,
    /// What reading repaired or dropped; [`WalkedGame::play`] adds the illegal move that ends
    /// the main line, if there is one.
    pub warnings: Warnings,
    tags: RawTags<'a>,
    start: Chess,
    sans: Vec<SanPlus>,
    location: Location,
}

/// Where [`WalkedGame::play`] stopped.
#[derive(Debug, Clone)]
pub struct Played {
    /// The position after the last move played.
    pub position: Chess,
    /// Moves played (null moves included).
    pub plies: u32,
    /// The caller stopped the game.
    pub stopped: bool,
}

impl<'a> WalkedGame<'a> {
    /// The value of the first tag with this name: escapes decoded, UTF-8 or else
    /// Windows-1252.
    pub fn tag(&self, name: &str) -> Option<Cow<'a, str>> {
        let (_, value) = self.tags.iter().find(|(n, _)| *n == name.as_bytes())?;
        Some(decode(value).0)
    }

    /// Every tag in order, decoded like [`WalkedGame::tag`].
    pub fn tags(&self) -> impl Iterator<Item = (Cow<'a, str>, Cow<'a, str>)> + '_ {
        self.tags.iter().map(|(name, value)| (decode(name).0, decode(value).0))
    }

    /// The position the game starts from (its FEN tag, or the standard start).
    pub fn start_position(&self) -> &Chess {
        &self.start
    }

    /// Main-line move tokens up to the ply limit, not yet checked for legality.
    pub fn move_tokens(&self) -> usize {
        self.sans.len()
    }

    /// Plays the main line up to the ply limit, calling `visit` with the position before
    /// each move and the move (`None` is a null move, `--`). An illegal or ambiguous move
    /// ends the line with a warning, as in [`PgnReader`](super::PgnReader); `visit`
    /// returning `Break` ends it without one. The moves are used up: a second call plays
    /// nothing.
    pub fn play(&mut self, mut visit: impl FnMut(&Chess, Option<Move>) -> ControlFlow<()>) -> Played {
        let mut position = self.start.clone();
        let sans = std::mem::take(&mut self.sans);
        let mut plies = 0;
        for san in &sans {
            let played = resolve_san(san.san, &position).and_then(|mv| {
                if visit(&position, mv).is_break() {
                    return Ok(false);
                }
                play_resolved(&mut position, mv).map(|()| true)
            });
            match played {
                Ok(true) => plies += 1,
                Ok(false) => return Played { position, plies, stopped: true },
                Err(what) => {
                    let name = move_name(self.start.fullmoves().get(), self.start.turn(), plies, san);
                    self.warnings.push(self.location.clone(), move_warning(what, &name, true));
                    break;
                }
            }
        }
        Played { position, plies, stopped: false }
    }
}

/// Tag text: escapes decoded, UTF-8 or else Windows-1252 (then `true`).
fn decode(raw: &[u8]) -> (Cow<'_, str>, bool) {
    match RawTag(raw).decode() {
        Cow::Borrowed(bytes) => match std::str::from_utf8(bytes) {
            Ok(text) => (Cow::Borrowed(text), false),
            Err(_) => (Codepage::Windows1252.decode(bytes), true),
        },
        Cow::Owned(bytes) => match String::from_utf8(bytes) {
            Ok(text) => (Cow::Owned(text), false),
            Err(e) => (Cow::Owned(Codepage::Windows1252.decode(e.as_bytes()).into_owned()), true),
        },
    }
}

/// Bytes that end a movetext token: pgn-reader's set, and the comma, which the lenient
/// reading takes for a space.
fn is_token_end(byte: u8) -> bool {
    matches!(
        byte,
        b' ' | b'\t' | b'\n' | b'\r' | b'{' | b'}' | b'(' | b')' | b'!' | b'?' | b'$' | b';' | b'.' | b'*' | b','
    )
}

/// The dashes of a result token: `-`, en dash, em dash.
const DASHES: [&[u8]; 3] = [b"-", "\u{2013}".as_bytes(), "\u{2014}".as_bytes()];

/// The movetext read so far of the game being walked.
struct Movetext {
    sans: Vec<SanPlus>,
    outcome: Option<GameResult>,
    /// A variation was opened and is skipped; its `)` is not a stray one.
    skipping_variation: bool,
    warnings: Vec<&'static str>,
    nag_warnings: Vec<String>,
    repairs: Vec<String>,
}

/// A game whose end is not known yet: movetext without a result may go on after a blank line.
struct Pending<'a> {
    number: u64,
    offset: usize,
    tags: RawTags<'a>,
    /// The whole tag section is UTF-8, so every tag is.
    tags_utf8: bool,
    start: StartPosition,
    movetext: Movetext,
    warnings: Warnings,
}

/// An iterator over the games of PGN text, yielding each game or the error that made the
/// walk give it up (an unsupported variant, an invalid FEN, an unterminated tag or comment).
pub struct PgnWalk<'a> {
    text: &'a [u8],
    at: usize,
    /// Offset of `text` in its file.
    base: u64,
    number: u64,
    options: WalkOptions,
    pending: Option<Pending<'a>>,
    ready: Option<Result<WalkedGame<'a>, PgnError>>,
}

impl<'a> PgnWalk<'a> {
    pub fn new(text: &'a [u8], options: WalkOptions) -> PgnWalk<'a> {
        PgnWalk::at_offset(text, 0, options)
    }

    /// Walks `text`, which starts at byte `base` of its file (offsets are given in file terms).
    pub fn at_offset(text: &'a [u8], base: u64, options: WalkOptions) -> PgnWalk<'a> {
        PgnWalk { text, at: 0, base, number: 0, options, pending: None, ready: None }
    }

    fn location(&self, offset: usize, number: u64) -> Location {
        Location { file: self.options.file.clone(), offset: Some(self.base + offset as u64), record: Some(number) }
    }

    fn peek(&self, at: usize) -> Option<u8> {
        self.text.get(at).copied()
    }

    /// Offset of the first `needle` at or after `from`, or the end of the text.
    fn find_byte(&self, from: usize, needle: u8) -> usize {
        memchr::memchr(needle, &self.text[from.min(self.text.len())..]).map_or(self.text.len(), |i| from + i)
    }

    /// Whitespace, line ends and `%` escape lines (at the start of a line).
    fn skip_whitespace(&mut self, mut new_line: bool) {
        while let Some(byte) = self.peek(self.at) {
            match byte {
                b' ' | b'\t' | b'\r' => self.at += 1,
                b'\n' => (self.at, new_line) = (self.at + 1, true),
                b'%' if new_line => self.at = (self.find_byte(self.at, b'\n') + 1).min(self.text.len()),
                _ => return,
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

    /// The tag section: `[Name "value"]` lines; lines without a quoted value are skipped.
    fn read_tags(&mut self) -> Result<RawTags<'a>, &'static str> {
        let text = self.text;
        let mut tags = Vec::new();
        while self.peek(self.at) == Some(b'[') {
            self.at += 1;
            let rest = &text[self.at..];
            let Some(quote) = memchr::memchr3(b'"', b'\n', b']', rest) else {
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
            let (value_end, consumed) = loop {
                match memchr::memchr3(b'\\', b'"', b'\n', &rest[end..]) {
                    Some(delta) if rest[end + delta] == b'"' => break (end + delta, end + delta + 1),
                    Some(delta) if rest[end + delta] == b'\n' => break (end + delta, end + delta),
                    Some(delta) => end = (end + delta + 2).min(rest.len()),
                    None => {
                        self.at = text.len();
                        return Err("unterminated tag");
                    }
                }
            };
            tags.push((&rest[..name_end], &rest[quote + 1..value_end]));
            self.at += consumed;
            self.skip_ket();
        }
        Ok(tags)
    }

    /// Consumes `bytes` if the text goes on with them.
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
    /// the text) into `movetext`; moves are collected up to the ply limit.
    fn read_movetext(&mut self, movetext: &mut Movetext) -> Result<(), &'static str> {
        let text = self.text;
        let max_plies = self.options.max_plies as usize;
        while let Some(byte) = self.peek(self.at) {
            match byte {
                b'{' => match memchr::memchr(b'}', &text[self.at..]) {
                    Some(end) => self.at += end + 1,
                    None => {
                        self.at = text.len();
                        return Err("unterminated comment");
                    }
                },
                b'\n' => {
                    self.at += 1;
                    match self.peek(self.at) {
                        Some(b'%') => self.at = self.find_byte(self.at, b'\n'),
                        Some(b'[' | b'\n') => return Ok(()),
                        Some(b'\r') => {
                            self.at += 1;
                            if self.peek(self.at) == Some(b'\n') {
                                return Ok(());
                            }
                        }
                        _ => {}
                    }
                }
                b';' => self.at = self.find_byte(self.at, b'\n'),
                b'0' => {
                    self.at += 1;
                    if self.eat_dash() {
                        if self.eat(b"1") {
                            movetext.outcome = Some(GameResult::BlackWins);
                        } else if self.eat(b"0") {
                            // Castling written with zeros.
                            let long = self.eat_dash() && self.eat(b"0");
                            let side = if long { CastlingSide::QueenSide } else { CastlingSide::KingSide };
                            let suffix = match self.peek(self.at) {
                                Some(b'+') => Some(Suffix::Check),
                                Some(b'#') => Some(Suffix::Checkmate),
                                _ => None,
                            };
                            self.at += usize::from(suffix.is_some());
                            movetext.push(SanPlus { san: San::Castle(side), suffix }, max_plies);
                        }
                    }
                }
                b'1' => {
                    self.at += 1;
                    if self.eat_dash() {
                        if self.eat(b"0") {
                            movetext.outcome = Some(GameResult::WhiteWins);
                        }
                    } else if self.eat(b"/2") && self.eat_dash() && self.eat(b"1/2") {
                        movetext.outcome = Some(GameResult::Draw);
                    } else {
                        self.skip_move_number();
                    }
                }
                b'\xc2' => {
                    self.at += 1;
                    if self.eat(b"\xbd") && self.eat_dash() && self.eat("\u{bd}".as_bytes()) {
                        movetext.outcome = Some(GameResult::Draw);
                    }
                }
                b'2'..=b'9' => {
                    self.at += 1;
                    self.skip_move_number();
                }
                b'(' => {
                    self.at += 1;
                    movetext.skipping_variation = true;
                    self.skip_variation(movetext);
                }
                b')' => {
                    self.at += 1;
                    if !std::mem::take(&mut movetext.skipping_variation) {
                        movetext.warnings.push("')' without a variation to close ignored");
                    }
                }
                b'$' => {
                    self.at += 1;
                    let rest = &text[self.at..];
                    let end = rest.iter().position(|&b| is_token_end(b)).unwrap_or(rest.len());
                    if let Some(nag) = std::str::from_utf8(&rest[..end]).ok().and_then(|s| s.parse::<u8>().ok())
                        && rest[..end].iter().all(u8::is_ascii_digit)
                    {
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
                    movetext.outcome = Some(GameResult::Unknown);
                }
                b' ' | b'\t' | b'\r' | b'.' => self.at += 1,
                b',' => {
                    self.at += 1;
                    movetext.repairs.push("comma between moves read as a space".to_owned());
                }
                _ if max_plies > 0 && movetext.sans.len() >= max_plies => self.skip_move(movetext, max_plies),
                _ => self.read_move(movetext, max_plies),
            }
        }
        Ok(())
    }

    fn skip_move_number(&mut self) {
        while matches!(self.peek(self.at), Some(b'0'..=b'9')) {
            self.at += 1;
        }
        while matches!(self.peek(self.at), Some(b'.' | b' ')) {
            self.at += 1;
        }
    }

    /// A move token past the ply limit: skipped whole unless it could hold a result token
    /// or a repair (`0`, `1`, `½`, a 5-byte `d7d8R`), which [`PgnWalk::read_move`] reads
    /// exactly.
    fn skip_move(&mut self, movetext: &mut Movetext, max_plies: usize) {
        let rest = &self.text[self.at..];
        let end = rest.iter().position(|&b| is_token_end(b)).unwrap_or(rest.len());
        if end == 5 || rest[..end].iter().any(|&b| matches!(b, b'0' | b'1' | b'\xc2')) {
            self.read_move(movetext, max_plies);
        } else {
            self.at += end.max(1);
        }
    }

    /// A move token (or something that is none: it is skipped).
    fn read_move(&mut self, movetext: &mut Movetext, max_plies: usize) {
        let rest = &self.text[self.at..];
        match SanPlus::from_ascii_prefix(rest) {
            Ok((san, len)) => {
                self.at += len;
                match self.peek(self.at) {
                    None => movetext.push(san, max_plies),
                    Some(next) if is_token_end(next) => movetext.push(san, max_plies),
                    // `d7d8R`: a long-algebraic promotion without `=`.
                    Some(_) if len == 4 && bare_promotion(self.text, self.at) => {
                        let token = &rest[..5];
                        let repaired = [&token[..4], b"=", &token[4..]].concat();
                        if let Ok(san) = SanPlus::from_ascii(&repaired) {
                            self.at += 1;
                            let token = String::from_utf8_lossy(token);
                            movetext.repairs.push(format!("promotion {token} read as {}={}", &token[..4], &token[4..]));
                            movetext.push(san, max_plies);
                        }
                    }
                    // The rest of the token is read as a token of its own.
                    Some(_) => {}
                }
            }
            Err(_) => {
                self.at += 1;
                let rest = &self.text[self.at..];
                self.at += rest.iter().position(|&b| is_token_end(b)).unwrap_or(rest.len());
            }
        }
    }

    /// Skips a variation after its `(`, up to its `)` (left for the movetext to read), a
    /// blank line or a line starting with `[`.
    fn skip_variation(&mut self, movetext: &mut Movetext) {
        let text = self.text;
        let mut depth = 0usize;
        while let Some(byte) = self.peek(self.at) {
            match byte {
                b'(' => (self.at, depth) = (self.at + 1, depth + 1),
                b')' => match depth.checked_sub(1) {
                    Some(d) => (self.at, depth) = (self.at + 1, d),
                    None => return,
                },
                b'{' => self.at = (self.find_byte(self.at, b'}') + 1).min(text.len()),
                b';' => self.at = self.find_byte(self.at, b'\n'),
                b'\n' => match (self.peek(self.at + 1), self.peek(self.at + 2)) {
                    (Some(b'%'), _) => self.at = self.find_byte(self.at + 2, b'\n'),
                    (Some(b'[' | b'\n'), _) | (Some(b'\r'), Some(b'\n')) => return,
                    _ => self.at += 1,
                },
                b',' => {
                    self.at += 1;
                    movetext.repairs.push("comma between moves read as a space".to_owned());
                }
                b'N' | b'B' | b'R' | b'Q' | b'n' | b'b' | b'r' | b'q' if bare_promotion(text, self.at) => {
                    let token = String::from_utf8_lossy(&text[self.at - 4..=self.at]);
                    movetext.repairs.push(format!("promotion {token} read as {}={}", &token[..4], &token[4..]));
                    self.at += 1;
                }
                _ => self.at += 1,
            }
        }
    }

    /// The movetext of a game that could not be started: up to a blank line or a tag line.
    fn skip_movetext(&mut self) {
        let text = self.text;
        while let Some(byte) = self.peek(self.at) {
            self.at += 1;
            match byte {
                b'{' => self.at = (self.find_byte(self.at, b'}') + 1).min(text.len()),
                b';' => self.at = self.find_byte(self.at, b'\n'),
                b'\n' => match self.peek(self.at) {
                    Some(b'%') => self.at = self.find_byte(self.at + 1, b'\n'),
                    Some(b'\n' | b'[') => return,
                    Some(b'\r') => {
                        self.at += 1;
                        if self.peek(self.at) == Some(b'\n') {
                            return;
                        }
                    }
                    _ => {}
                },
                _ => self.at = memchr::memchr3(b'\n', b'{', b';', &text[self.at..]).map_or(text.len(), |i| self.at + i),
            }
        }
    }

    /// Completes the pending game, which ends where `end` begins.
    fn finish_pending(&mut self, end: usize) -> Option<WalkedGame<'a>> {
        let Pending { number, offset, tags, tags_utf8, start, movetext, mut warnings } = self.pending.take()?;
        let location = self.location(offset, number);
        if tags.is_empty() && movetext.sans.is_empty() && movetext.outcome.is_none() {
            // Text between games that holds no game at all.
            self.number -= 1;
            return None;
        }
        for message in movetext.warnings {
            warnings.push(location.clone(), message);
        }
        for message in movetext.nag_warnings {
            warnings.push(location.clone(), message);
        }
        let tag_result = tags.iter().find(|(n, _)| *n == b"Result").map(|(_, v)| decode(v).0);
        let result = match movetext.outcome {
            Some(result) => {
                if let Some(tag) = tag_result.as_deref()
                    && GameResult::from_pgn(tag).is_some_and(|r| r != result)
                {
                    let message = format!("result tag {:?} differs from the movetext's {}", Some(tag), result.as_pgn());
                    warnings.push(location.clone(), message);
                }
                result
            }
            None => tag_result.as_deref().and_then(GameResult::from_pgn).unwrap_or_default(),
        };
        if !tags_utf8 && tags.iter().any(|(name, value)| decode(name).1 || decode(value).1) {
            warnings.push(location.clone(), "text is not valid UTF-8; decoded as Windows-1252");
        }
        for message in movetext.repairs {
            warnings.push(location.clone(), message);
        }
        Some(WalkedGame {
            number,
            offset: self.base + offset as u64,
            length: (end - offset) as u64,
            result,
            castling_mode: start.castling_mode,
            warnings,
            tags,
            start: start.position,
            sans: movetext.sans,
            location,
        })
    }

    /// Reads the next piece of text pgn-reader would call a game: tags, then movetext up to a
    /// blank line. Returns an error, or puts what it read into `pending` / `ready`.
    fn read_piece(&mut self) -> Option<PgnError> {
        let start = self.at;
        let io_error = |walk: &PgnWalk<'a>, what: &'static str, number: u64| PgnError::Io {
            location: walk.location(start, number),
            source: std::io::Error::new(std::io::ErrorKind::InvalidData, what),
        };
        let tags = match self.read_tags() {
            Ok(tags) => tags,
            Err(what) => return Some(io_error(self, what, self.number.max(1))),
        };
        let tags_end = self.at;
        if tags.is_empty()
            && self.pending.as_ref().is_some_and(|p| p.movetext.outcome.is_none())
            && let Some(mut pending) = self.pending.take()
        {
            pending.warnings.push(
                self.location(pending.offset, pending.number),
                "blank line inside the movetext; the game goes on",
            );
            let read = self.read_movetext(&mut pending.movetext);
            self.pending = Some(pending);
            return read.err().map(|what| {
                self.pending = None;
                io_error(self, what, self.number)
            });
        }
        self.ready = self.finish_pending(start).map(Ok);
        self.number += 1;
        let location = self.location(start, self.number);
        let tag = |name: &str| tags.iter().find(|(n, _)| *n == name.as_bytes()).map(|(_, v)| decode(v).0);
        let start_position = StartPosition::from_tags(tag("Variant").as_deref(), tag("FEN").as_deref(), &location);
        let start_position = match start_position {
            Ok(start_position) => start_position,
            Err(e) => {
                self.skip_movetext();
                return Some(e);
            }
        };
        let mut warnings = Warnings::default();
        if start_position.fen_read_as_chess960 {
            warnings.push(location, super::read::FEN_READ_AS_CHESS960);
        }
        let mut movetext = Movetext {
            sans: Vec::new(),
            outcome: None,
            skipping_variation: false,
            warnings: Vec::new(),
            nag_warnings: Vec::new(),
            repairs: Vec::new(),
        };
        let read = self.read_movetext(&mut movetext);
        let number = self.number;
        let tags_utf8 = std::str::from_utf8(&self.text[start..tags_end]).is_ok();
        self.pending =
            Some(Pending { number, offset: start, tags, tags_utf8, start: start_position, movetext, warnings });
        read.err().map(|what| {
            self.pending = None;
            io_error(self, what, number)
        })
    }
}

impl Movetext {
    fn push(&mut self, san: SanPlus, max_plies: usize) {
        if self.sans.len() < max_plies {
            self.sans.push(san);
        }
    }

    fn nag(&mut self, nag: u8) {
        if self.sans.is_empty() {
            self.nag_warnings.push(format!("NAG ${nag} before the first move of a line dropped"));
        }
    }
}

impl<'a> Iterator for PgnWalk<'a> {
    type Item = Result<WalkedGame<'a>, PgnError>;

    fn next(&mut self) -> Option<Self::Item> {
        loop {
            if let Some(item) = self.ready.take() {
                return Some(item);
            }
            if self.text[self.at..].starts_with(b"\xef\xbb\xbf") {
                self.at += 3;
            }
            self.skip_whitespace(true);
            if self.at == self.text.len() {
                return self.finish_pending(self.at).map(Ok);
            }
            if let Some(error) = self.read_piece() {
                match self.ready.take() {
                    Some(earlier) => {
                        self.ready = Some(Err(error));
                        return Some(earlier);
                    }
                    None => return Some(Err(error)),
                }
            }
        }
    }
}

/// Walks `text` (a whole file) in `pieces` pieces cut between games, one rayon task each:
/// `walk` gets each piece's [`PgnWalk`] (offsets in file terms, game numbers counted per
/// piece) and the results come back in file order, so that folding them in order gives the
/// same answer whatever the number of pieces.
pub fn walk_pieces<T, F>(text: &[u8], options: &WalkOptions, pieces: usize, walk: F) -> Vec<T>
where
    T: Send,
    F: Fn(PgnWalk<'_>) -> T + Sync,
{
    use rayon::prelude::*;

    let pieces: Vec<(&[u8], u64)> = super::split_games(text, pieces)
        .into_iter()
        .scan(0, |offset, piece| {
            let base = *offset;
            *offset += piece.len() as u64;
            Some((piece, base))
        })
        .collect();
    pieces.par_iter().map(|&(piece, base)| walk(PgnWalk::at_offset(piece, base, options.clone()))).collect()
}
