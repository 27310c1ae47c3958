//! The one PGN scanner: it cuts text into games and drives a [`Visitor`] through each, in
//! pgn-reader's shape. The game builder ([`PgnReader`](super::PgnReader)), the main-line walker
//! ([`PgnWalk`](super::PgnWalk)) and the selection's tag-first reader are visitors of it, so
//! they read the same games by construction.
//!
//! What a game is, is decided here once: its tag section, its start position (Variant and FEN
//! tags; an unsupported variant or an invalid FEN makes the game an error), where it starts and
//! ends, its number, its main-line result token, the blank line that does not end a game
//! (movetext without a result followed by tagless movetext goes on), the `)` of a skipped
//! variation and the `)` that closes nothing, the repairs of the lenient reading, and the
//! unterminated tags and comments that make a game unreadable. What to do with the moves,
//! comments and variations, and whether text that holds no move is a game, is the visitor's.
//!
//! A visitor may skip a game's movetext unread ([`Visitor::begin_game`] returning `false`): the
//! scanner then only looks for where it ends, which is what lets a selection judge games on
//! their tags at the speed of a byte search.

use std::borrow::Cow;
use std::collections::VecDeque;
use std::io;
use std::mem;
use std::ops::Range;
use std::path::PathBuf;

use shakmaty::san::{SanPlus, Suffix};
use shakmaty::{File, Role, Square};
use tabiya_io::{Diagnostic, Location, Unit};

use super::read::{FEN_READ_AS_CHESS960, StartPosition};
use super::{PgnError, codes};
use crate::fast::scan::{self, Scanner, TagAt};
use crate::game::GameResult;
use crate::text::{Text, TextBuf};

/// What reading a game asks of its reader: every event of its text, in order. The movetext
/// events come only for a game whose [`begin_game`](Visitor::begin_game) said to read it.
pub(crate) trait Visitor<'t> {
    /// What a game read becomes.
    type Game;

    /// A game starts, with its tags and start position; `false` skips its movetext unread.
    fn begin_game(&mut self, start: GameStart<'_, 't>) -> bool;

    /// A move of the line being read.
    fn san(&mut self, san: SanPlus);

    /// A move without rank disambiguation or promotion, its parts apart (see
    /// [`scan::Movetext::plain_san`]).
    #[inline(always)]
    fn plain_san(&mut self, role: Role, file: Option<File>, capture: bool, to: Square, suffix: Option<Suffix>) {
        self.san(scan::plain_san(role, file, capture, to, suffix));
    }

    /// Moves and NAGs are no longer wanted: moves are skipped unparsed, and the rest of a
    /// plain movetext passed over whole (see [`scan::Movetext::skips_moves`]).
    fn skips_moves(&self) -> bool {
        false
    }

    /// A NAG (`$n`, `!`, `?!`, …).
    fn nag(&mut self, _nag: u8) {}

    /// The bytes of a comment (`{…}` or `;…`).
    fn comment(&mut self, _text: &[u8]) {}

    /// A `(`: `true` skips the variation unread (the scanner takes its `)`).
    fn begin_variation(&mut self) -> bool {
        true
    }

    /// The `)` of a variation read.
    fn end_variation(&mut self) {}

    /// A warning or an error the scanner found in the game (a `)` that closes nothing, a blank
    /// line inside the movetext), located at the game.
    fn diagnostic(&mut self, _diagnostic: Diagnostic) {}

    /// The game ends where the next one (or text that holds none, or the end) starts; `None`
    /// when it held no game after all (text between games): it is not counted.
    fn end_game(&mut self, end: GameEnd<'_>) -> Option<Self::Game>;

    /// The game begun last cannot be read (an unterminated comment): it is given up.
    fn unreadable_game(&mut self) {}
}

/// A game's start: what the scanner read before its movetext.
pub(crate) struct GameStart<'a, 't> {
    /// 1-based number of the game in the text scanned.
    pub number: u64,
    /// Where its first byte stands in its file.
    pub offset: u64,
    /// Its file, for diagnostics (see [`GameStart::location`]).
    pub file: Option<&'a PathBuf>,
    /// Its tags as they stand in the text.
    pub tags: RawTags<'a, 't>,
    /// Where it starts from.
    pub start: StartPosition,
    /// What its tag section and start position gave: FEN castling read as Chess960's, tags
    /// with unescaped quotes.
    pub diagnostics: Vec<Diagnostic>,
    /// The text from its movetext on.
    pub movetext: &'t [u8],
    /// The tokenizer repairs commas and `d7d8R` promotions.
    pub repair: bool,
}

impl GameStart<'_, '_> {
    /// The game, for diagnostics: made when asked for, as its file's path is copied into it.
    pub fn location(&self) -> Location {
        game_location(self.file, self.offset, self.number)
    }

    /// Makes `location` the game's, its path copied only when it is another (a visitor that
    /// keeps one game's state for the next copies it once, not once a game).
    pub fn locate(&self, location: &mut Location) {
        if location.file.as_ref() != self.file {
            location.file = self.file.cloned();
        }
        (location.offset, location.unit, location.number) = (Some(self.offset), Unit::Game, Some(self.number));
    }

    /// The main-line result token of the game's first piece of movetext, found by a look ahead
    /// that tokenizes nothing but results and variations: `None` when that piece has none (the
    /// game may go on after a blank line).
    pub fn outcome_ahead(&self) -> Option<GameResult> {
        movetext_outcome(self.movetext, self.repair)
    }
}

/// A game's tags as they stand in the text: names and values, escapes not decoded.
#[derive(Clone, Copy)]
pub(crate) struct RawTags<'a, 't> {
    text: &'t [u8],
    ranges: &'a [(Range<usize>, Range<usize>)],
    /// Some value holds a backslash: values are decoded (else each is its raw bytes, and no
    /// value is searched for a backslash again).
    escaped: bool,
}

impl<'t> RawTags<'_, 't> {
    /// Names and raw values, in order.
    pub fn iter(&self) -> impl Iterator<Item = (&'t [u8], &'t [u8])> + '_ {
        let text = self.text;
        self.ranges.iter().map(move |(name, value)| (&text[name.clone()], &text[value.clone()]))
    }

    /// How many.
    pub fn len(&self) -> usize {
        self.ranges.len()
    }

    /// Bytes of their names and values.
    pub fn bytes(&self) -> usize {
        self.ranges.iter().map(|(name, value)| name.len() + value.len()).sum()
    }

    /// The first value of the tag `name`: the bytes it came as, escapes decoded.
    pub fn get(&self, name: &[u8]) -> Option<Cow<'t, Text>> {
        // The first byte told apart before the whole name: most names of a length differ
        // there (White, Black, Event, Round), and a call to compare them all costs more.
        // Only a name of the length looked for is sliced out of the text, and no value but the
        // one found (slicing every name and value was most of a lookup).
        let text = self.text;
        let first = name.first();
        let (_, value) = self
            .ranges
            .iter()
            .find(|(n, _)| n.len() == name.len() && text.get(n.start) == first && text.get(n.clone()) == Some(name))?;
        Some(self.decode(&text[value.clone()]))
    }

    /// The value of the tag at place `at` (which exists), escapes decoded.
    fn value(&self, at: usize) -> Cow<'t, Text> {
        self.decode(&self.text[self.ranges[at].1.clone()])
    }

    /// A raw value of these tags, escapes decoded.
    fn decode(&self, raw: &'t [u8]) -> Cow<'t, Text> {
        match self.escaped {
            true => decode(raw),
            false => Cow::Borrowed(Text::new(raw)),
        }
    }
}

/// Tag text: the bytes it came as, escapes decoded.
pub(crate) fn decode(raw: &[u8]) -> Cow<'_, Text> {
    match scan::unescape(raw) {
        Cow::Borrowed(bytes) => Cow::Borrowed(Text::new(bytes)),
        Cow::Owned(bytes) => Cow::Owned(TextBuf::from(bytes)),
    }
}

/// Where the game numbered `number` (from 1), starting at byte `offset` of `file`, stands.
fn game_location(file: Option<&PathBuf>, offset: u64, number: u64) -> Location {
    Location { file: file.cloned(), offset: Some(offset), unit: Unit::Game, number: Some(number) }
}

/// How a game ended, for [`Visitor::end_game`].
pub(crate) struct GameEnd<'f> {
    /// Where the text after the game starts, in file terms.
    pub end: u64,
    /// The main line's last result token. Not looked for in a game whose movetext was skipped
    /// (`None`), unless text without a tag line came after it (a blank line may have left it
    /// open).
    pub outcome: Option<GameResult>,
    /// A game with tags comes next (comments alone before a tag section belong to it).
    pub tagged_game_follows: bool,
    /// What the lenient reading repaired, in the order met.
    pub repairs: Vec<String>,
    /// The game's number, first byte and file, for diagnostics: its [`Location`] is made only
    /// for one (most games have none, and it copies the path).
    number: u64,
    offset: u64,
    file: Option<&'f PathBuf>,
}

impl GameEnd<'_> {
    /// The game's result (the movetext's, else the `Result` tag's, else unknown), with a
    /// warning when the two differ, then a warning for every repair: the diagnostics every
    /// visitor gives at a game's end.
    pub fn close(mut self, result_tag: Option<&Text>, diagnostics: &mut Vec<Diagnostic>) -> GameResult {
        let tag_result = result_tag.and_then(GameResult::from_pgn);
        let result = match self.outcome {
            Some(result) => {
                if tag_result.is_some_and(|r| r != result) {
                    let message =
                        format!("result tag {:?} differs from the movetext's {}", result_tag, result.as_pgn());
                    diagnostics.push(Diagnostic::warning(codes::RESULT_MISMATCH, self.location(), message));
                }
                result
            }
            None => tag_result.unwrap_or_default(),
        };
        for message in mem::take(&mut self.repairs) {
            diagnostics.push(Diagnostic::warning(codes::REPAIRED_TOKEN, self.location(), message));
        }
        result
    }

    fn location(&self) -> Location {
        game_location(self.file, self.offset, self.number)
    }
}

/// The game being scanned: it stays open while a blank line may still continue it.
struct OpenGame {
    number: u64,
    offset: u64,
    /// Its movetext is read (else skipped).
    read: bool,
    outcome: Option<GameResult>,
    /// Variations read and still open.
    depth: usize,
    /// A skipped variation's `)` is still to come.
    skipping_variation: bool,
    repairs: Vec<String>,
}

impl OpenGame {
    fn new(number: u64, offset: u64, read: bool) -> OpenGame {
        OpenGame { number, offset, read, outcome: None, depth: 0, skipping_variation: false, repairs: Vec::new() }
    }
}

/// The scanner's state between pieces of text: the game still open, the games counted. It
/// holds no text, so that a reader can hand it its text a buffer at a time.
pub(crate) struct GameScanner {
    file: Option<PathBuf>,
    /// Repair commas between moves and `d7d8R` promotions.
    repair: bool,
    number: u64,
    open: Option<OpenGame>,
    /// The tags of the piece being read (kept to be reused).
    tags_found: TagsFound,
}

/// The tags of a piece as the tokenizer finds them, with what every game's start looks up:
/// the Variant and FEN tags, found on the way rather than searched for again game by game,
/// and the tags whose values hold unescaped quotes.
#[derive(Default)]
struct TagsFound {
    /// Where names and raw values stand in the text, in order.
    ranges: Vec<(Range<usize>, Range<usize>)>,
    /// The first Variant tag's place in `ranges`.
    variant: Option<usize>,
    /// The first FEN tag's place in `ranges`.
    fen: Option<usize>,
    /// Places in `ranges` of the tags whose values hold unescaped quotes.
    inner_quotes: Vec<usize>,
    /// Some value holds a backslash.
    escaped: bool,
}

impl TagsFound {
    fn clear(&mut self) {
        self.ranges.clear();
        self.inner_quotes.clear();
        (self.variant, self.fen, self.escaped) = (None, None, false);
    }

    /// Adds the tag `tag` of `text`. Inlined into the tag loop: called for every tag, its call
    /// cost as much as its work.
    #[inline(always)]
    fn push(&mut self, text: &[u8], tag: TagAt) {
        let at = self.ranges.len();
        match &text[tag.name.clone()] {
            b"Variant" => _ = self.variant.get_or_insert(at),
            b"FEN" => _ = self.fen.get_or_insert(at),
            _ => {}
        }
        if tag.inner_quotes {
            self.inner_quotes.push(at);
        }
        self.escaped |= tag.escaped;
        self.ranges.push((tag.name, tag.value));
    }
}

/// What the scanner hands on: games and the errors of games that could not be read.
pub(crate) type Scanned<G> = VecDeque<Result<G, PgnError>>;

impl GameScanner {
    pub fn new(file: Option<PathBuf>, repair: bool) -> GameScanner {
        GameScanner { file, repair, number: 0, open: None, tags_found: TagsFound::default() }
    }

    /// Whether commas and `d7d8R` promotions are repaired.
    pub fn repairs(&self) -> bool {
        self.repair
    }

    fn location(&self, offset: u64, number: u64) -> Location {
        game_location(self.file.as_ref(), offset, number)
    }

    fn syntax_error(&self, offset: u64, number: u64, what: &'static str) -> PgnError {
        let source = io::Error::new(io::ErrorKind::InvalidData, what);
        PgnError::Io { location: self.location(offset, number), source }
    }

    /// Where a reader of the game being read stands, for an error of the input itself.
    pub fn current_location(&self, offset: u64) -> Location {
        self.location(offset, self.number.max(1))
    }

    /// Reads the piece of text at `scan` (tags, then movetext up to a blank line or a tag line;
    /// `scan` stands at its first byte, after [`Scanner::skip_to_game`]); `base` is where
    /// `scan.text` starts in its file. Games that end go to `out`.
    pub fn read_piece<'t, V: Visitor<'t>>(
        &mut self,
        scan: &mut Scanner<'t>,
        base: u64,
        visitor: &mut V,
        out: &mut Scanned<V::Game>,
    ) {
        let piece = base + scan.at as u64;
        let mut found = std::mem::take(&mut self.tags_found);
        found.clear();
        let text = scan.text;
        let tags = scan.read_tags(|tag| found.push(text, tag));
        self.tags_found = found;
        if let Err(what) = tags {
            // The open game stays open: the text after the broken tag may go on with it. The
            // broken tag section is the next game's, and its error is named so.
            out.push_back(Err(self.syntax_error(piece, self.number + 1, what)));
            return;
        }
        if self.tags_found.ranges.is_empty()
            && let Some(open) = self.open.as_ref()
            && open.outcome.is_none()
        {
            let location = self.location(open.offset, open.number);
            let message = "blank line inside the movetext; the game goes on";
            visitor.diagnostic(Diagnostic::warning(codes::BLANK_LINE_IN_MOVETEXT, location, message));
            return self.read_movetext(scan, piece, visitor, out);
        }
        let tagged = !self.tags_found.ranges.is_empty();
        self.end_game(piece, tagged, visitor, out);
        self.number += 1;
        let number = self.number;
        let location = || self.location(piece, number);
        let found = &self.tags_found;
        let tags = RawTags { text: scan.text, ranges: &found.ranges, escaped: found.escaped };
        let [variant, fen] = [found.variant, found.fen].map(|at| at.map(|at| tags.value(at)));
        let start = StartPosition::from_tags(variant.as_deref(), fen.as_deref(), location);
        let start = match start {
            Ok(start) => start,
            Err(e) => {
                visitor.unreadable_game();
                out.push_back(Err(e));
                // Its movetext is the error's: skipped, whatever it holds.
                let _ = scan.skip_movetext();
                return;
            }
        };
        let mut diagnostics = Vec::new();
        if start.fen_read_as_chess960 {
            diagnostics.push(Diagnostic::warning(codes::FEN_CHESS960, location(), FEN_READ_AS_CHESS960));
        }
        for &at in &found.inner_quotes {
            let name = String::from_utf8_lossy(&scan.text[found.ranges[at].0.clone()]);
            let message = format!("tag {name} has unescaped quotes in its value; read as one tag, quotes kept");
            diagnostics.push(Diagnostic::warning(codes::TAG_INNER_QUOTES, location(), message));
        }
        let movetext = &scan.text[scan.at..];
        let repair = self.repair;
        let read = visitor.begin_game(GameStart {
            number,
            offset: piece,
            file: self.file.as_ref(),
            tags,
            start,
            diagnostics,
            movetext,
            repair,
        });
        self.open = Some(OpenGame::new(number, piece, read));
        self.read_movetext(scan, piece, visitor, out);
    }

    /// The open game's movetext in the piece at `piece` (file terms): read through `visitor`,
    /// or skipped.
    fn read_movetext<'t, V: Visitor<'t>>(
        &mut self,
        scan: &mut Scanner<'t>,
        piece: u64,
        visitor: &mut V,
        out: &mut Scanned<V::Game>,
    ) {
        let Some(mut open) = self.open.take() else { return };
        let from = scan.at;
        let read = if open.read {
            scan.read_movetext(&mut Driver { visitor, game: &mut open, file: self.file.as_ref() })
        } else {
            scan.skip_movetext().map(|()| {
                // Whether a blank line goes on with this game depends on its result token, looked
                // for only when the next piece may have no tags.
                if !tag_line_follows(scan) {
                    open.outcome = movetext_outcome(&scan.text[from..], self.repair);
                }
            })
        };
        match read {
            Ok(()) => self.open = Some(open),
            Err(what) => {
                visitor.unreadable_game();
                out.push_back(Err(self.syntax_error(piece, open.number, what)));
            }
        }
    }

    /// Ends the open game, if any, at `end` (file terms).
    fn end_game<'t, V: Visitor<'t>>(&mut self, end: u64, tagged: bool, visitor: &mut V, out: &mut Scanned<V::Game>) {
        let Some(open) = self.open.take() else { return };
        let game_end = GameEnd {
            end,
            outcome: open.outcome,
            tagged_game_follows: tagged,
            repairs: open.repairs,
            number: open.number,
            offset: open.offset,
            file: self.file.as_ref(),
        };
        match visitor.end_game(game_end) {
            Some(game) => out.push_back(Ok(game)),
            None => self.number -= 1,
        }
    }

    /// Reads the next piece of `scan` (whose text starts at `base` in its file), or ends the
    /// open game at the end of the text; `false` once the text is read.
    pub fn read_next<'t, V: Visitor<'t>>(
        &mut self,
        scan: &mut Scanner<'t>,
        base: u64,
        visitor: &mut V,
        out: &mut Scanned<V::Game>,
    ) -> bool {
        scan.skip_to_game();
        if scan.at == scan.text.len() {
            self.finish(base + scan.at as u64, visitor, out);
            return false;
        }
        self.read_piece(scan, base, visitor, out);
        true
    }

    /// The end of the text: the open game ends at `end` (file terms).
    pub fn finish<'t, V: Visitor<'t>>(&mut self, end: u64, visitor: &mut V, out: &mut Scanned<V::Game>) {
        self.end_game(end, false, visitor, out);
    }
}

/// Whether the piece after `scan` starts with a tag line holding a quoted value. Its tag
/// section then either holds a tag, which ends the game before it whatever that game's result,
/// or runs unterminated to the end of the text, which is that section's error and leaves
/// nothing to go on with the game. Only the first line is looked at: reading the whole section
/// here, as the piece's own reading does next, cost an eighth of `select`'s CPU.
fn tag_line_follows(scan: &Scanner<'_>) -> bool {
    let mut next = Scanner::new(scan.text, scan.at, false);
    next.skip_to_game();
    next.tag_line_starts()
}

/// The main-line result token of the movetext that starts `text` (up to its blank line or tag
/// line), as a reading visitor meets it; the tokenizer's repairs when `repair`.
#[cold]
pub(crate) fn movetext_outcome(text: &[u8], repair: bool) -> Option<GameResult> {
    let mut game = OpenGame::new(0, 0, false);
    let mut driver = Driver { visitor: &mut SkippingAll, game: &mut game, file: None };
    let _ = Scanner::new(text, 0, repair).read_movetext(&mut driver);
    game.outcome
}

/// A visitor that skips every move and variation.
struct SkippingAll;

impl Visitor<'_> for SkippingAll {
    type Game = ();
    fn begin_game(&mut self, _: GameStart<'_, '_>) -> bool {
        false
    }
    fn san(&mut self, _: SanPlus) {}
    fn skips_moves(&self) -> bool {
        true
    }
    fn end_game(&mut self, _: GameEnd<'_>) -> Option<()> {
        None
    }
}

/// The tokenizer's events handed to a visitor, with what the scanner keeps of them: the depth
/// of the variations read, the skipped variations' `)`, the main line's result, the repairs.
struct Driver<'v, 'g, V> {
    visitor: &'v mut V,
    game: &'g mut OpenGame,
    /// Named in the scanner's diagnostics.
    file: Option<&'g PathBuf>,
}

impl<'t, V: Visitor<'t>> scan::Movetext for Driver<'_, '_, V> {
    #[inline(always)]
    fn san(&mut self, san: SanPlus) {
        self.visitor.san(san);
    }

    #[inline(always)]
    fn plain_san(&mut self, role: Role, file: Option<File>, capture: bool, to: Square, suffix: Option<Suffix>) {
        self.visitor.plain_san(role, file, capture, to, suffix);
    }

    #[inline(always)]
    fn skips_moves(&self) -> bool {
        self.visitor.skips_moves()
    }

    fn nag(&mut self, nag: u8) {
        self.visitor.nag(nag);
    }

    fn comment(&mut self, text: &[u8]) {
        self.visitor.comment(text);
    }

    fn begin_variation(&mut self) -> bool {
        let skip = self.visitor.begin_variation();
        match skip {
            true => self.game.skipping_variation = true,
            false => self.game.depth += 1,
        }
        skip
    }

    fn end_variation(&mut self) {
        if std::mem::take(&mut self.game.skipping_variation) {
            return;
        }
        match self.game.depth.checked_sub(1) {
            Some(depth) => {
                self.game.depth = depth;
                self.visitor.end_variation();
            }
            None => {
                let location = Location {
                    file: self.file.cloned(),
                    offset: Some(self.game.offset),
                    unit: Unit::Game,
                    number: Some(self.game.number),
                };
                let message = "')' without a variation to close ignored";
                self.visitor.diagnostic(Diagnostic::warning(codes::UNMATCHED_PARENTHESIS, location, message));
            }
        }
    }

    fn outcome(&mut self, result: GameResult) {
        if self.game.depth == 0 {
            self.game.outcome = Some(result);
        }
    }

    fn repair(&mut self, message: String) {
        self.game.repairs.push(message);
    }
}
