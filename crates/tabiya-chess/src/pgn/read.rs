//! Reading PGN into [`Game`]s: our tokenizer (`pgn/scan.rs`) reads the text; every move is
//! resolved and played on the reader's own position (`pgn/position.rs`), which finds the
//! moves shakmaty finds.
//!
//! Leniency rules (design notes, pgn-and-performance.md §1.5):
//! * A blank line never ends a game: movetext split off at a blank line (a game without a
//!   result token followed by tagless movetext) is joined to its game.
//! * A UTF-8 BOM is skipped; tag names, values and comments are kept as the bytes they came as
//!   ([`crate::text`]), whatever their encoding, escapes (`\\`, `\"`) decoded.
//!
//! Every game comes with the [`Diagnostic`]s of what reading found (codes in [`super::codes`]):
//! what was repaired or dropped is a warning; an illegal or ambiguous move, whose line is lost
//! from there on, is an error.
//! * Null moves (`--`) are played in the main line and in variations.
//! * An illegal or ambiguous move ends its line (main line or variation) with an error that
//!   names the game and the move; reading goes on. A game whose main line ends so is no longer
//!   the game its result was given for: its result becomes `*` (tag and token) and a comment
//!   after its last move says where it was cut and what its result was (issue 16).
//! * Variants other than standard chess and Chess960 are an error for that game (which
//!   `info`, `verify` and `convert` count per file: [`super::variants`]); `From Position`
//!   (lichess studies) is standard chess.
//! * `;` comments are comments; comments alone before a tag section open that game (SCID's
//!   reading). A tag value with unescaped inner quotes is one tag, with a warning.
//! * Variations nested deeper than 255 levels are dropped with an error.
//! * [`PgnReader::from_bytes`] and [`PgnReader::repairing`] also repair commas between moves and
//!   `d7d8R` promotions, each with a warning; [`PgnReader::new`] drops those tokens, as
//!   pgn-reader did.

use std::io::{self, Read};
use std::mem;
use std::path::PathBuf;

use shakmaty::fen::Fen;
use shakmaty::san::{San, SanError, SanPlus, Suffix};
use shakmaty::{CastlingMode, Chess, Color, File, Move, Position, Role, Square};
use tabiya_io::{Diagnostic, Location};

use super::scanner::{GameEnd, GameScanner, GameStart, Scanned, Visitor};
use super::{PgnError, codes};
use crate::fast::position::PlayPosition;
use crate::fast::scan::{self, Scanner};
use crate::game::{Game, GameResult, Line, Node, Tags};
use crate::text::{Text, TextBuf};

/// What to keep of each game. Skipping variations and comments makes reading faster when
/// only the main line matters (book building).
#[derive(Debug, Clone)]
pub struct ReadOptions {
    /// Keep variations (else they are skipped unread).
    pub variations: bool,
    /// Keep comments (else they are dropped).
    pub comments: bool,
    /// Main-line moves beyond this many plies are not read (book building needs only the
    /// first plies; the rest of the movetext is still scanned for the result).
    pub max_plies: Option<u32>,
    /// Named in every error and diagnostic location.
    pub file: Option<PathBuf>,
}

impl Default for ReadOptions {
    fn default() -> ReadOptions {
        ReadOptions { variations: true, comments: true, max_plies: None, file: None }
    }
}

/// One game as read, with what the reader had to repair or drop.
#[derive(Debug, Clone)]
pub struct ReadGame {
    /// The game.
    pub game: Game,
    /// What reading found: repairs and dropped tokens are warnings, lost moves errors.
    pub diagnostics: Vec<Diagnostic>,
    /// 1-based number of the game in the input.
    pub number: u64,
    /// Byte offset of the game's first tag (or first movetext byte) in the input.
    pub offset: u64,
}

/// An iterator over the games of a PGN input, yielding each game or the error that made the
/// reader give it up.
///
/// The input is read into a buffer a block at a time; a game is tokenized once the buffer
/// holds all of it, so memory grows only with the longest game.
pub struct PgnReader<R: Read> {
    blocks: Blocks<R>,
    builder: GameBuilder,
    ready: Scanned<ReadGame>,
}

/// The input of a [`PgnReader`] read a block at a time, and the scanner that reads its games
/// with whatever visitor the reader has (the game builder, or the counter of [`count_stream`]).
struct Blocks<R: Read> {
    input: R,
    /// Text read from the input; tokenizing goes on at `at`.
    buffer: Vec<u8>,
    at: usize,
    /// Offset in the input of `buffer[0]`.
    buffer_offset: u64,
    /// The input has no more bytes.
    eof: bool,
    scanner: GameScanner,
    done: bool,
}

/// Bytes read from the input at a time (more when a game does not fit). An input that fits
/// in one block (a piece of a file read in parallel) is tokenized without first looking for
/// where each game ends.
const BLOCK: usize = 1 << 20;

impl<'a> PgnReader<&'a [u8]> {
    /// Reads PGN held in memory, repairing what would otherwise be dropped (see
    /// [`PgnReader::repairing`]).
    pub fn from_bytes(input: &'a [u8], options: ReadOptions) -> Self {
        PgnReader::with_options(input, options).repairing()
    }
}

impl PgnReader<io::Empty> {
    /// Reads PGN held in memory, as [`PgnReader::with_options`] reads it from an input (no
    /// repairs), without copying it.
    pub fn from_vec(text: Vec<u8>, options: ReadOptions) -> Self {
        let mut reader = PgnReader::with_options(io::empty(), options);
        reader.blocks.buffer = text;
        reader.blocks.eof = true;
        reader
    }

    /// The buffer the text was read from, to be filled again.
    pub fn into_vec(self) -> Vec<u8> {
        self.blocks.buffer
    }
}

impl<R: Read> PgnReader<R> {
    /// Reads every game of `input`, keeping everything (see [`ReadOptions::default`]).
    pub fn new(input: R) -> PgnReader<R> {
        PgnReader::with_options(input, ReadOptions::default())
    }

    /// The reader, repairing what it would otherwise drop: commas between moves and `d7d8R`
    /// promotions; every repair is a warning of its game.
    pub fn repairing(self) -> Self {
        let scanner = GameScanner::new(self.builder.options.file.clone(), true);
        PgnReader { blocks: Blocks { scanner, ..self.blocks }, ..self }
    }

    /// Reads the games of `input`, keeping what `options` say.
    pub fn with_options(input: R, options: ReadOptions) -> PgnReader<R> {
        let scanner = GameScanner::new(options.file.clone(), false);
        PgnReader { blocks: Blocks::new(input, scanner), builder: GameBuilder::new(options), ready: Scanned::new() }
    }
}

impl<R: Read> Blocks<R> {
    fn new(input: R, scanner: GameScanner) -> Blocks<R> {
        Blocks { input, buffer: Vec::new(), at: 0, buffer_offset: 0, eof: false, scanner, done: false }
    }

    /// Makes sure the buffer holds the next piece of text the tokenizer reads in one go (tags,
    /// then movetext up to a blank line or a tag line) and the byte after it; `false` when no
    /// text is left.
    fn buffer_piece(&mut self) -> io::Result<bool> {
        loop {
            let mut scan = Scanner::new(&self.buffer, self.at, self.scanner.repairs());
            scan.skip_to_game();
            let len = self.buffer.len();
            if self.eof {
                self.at = scan.at;
                return Ok(scan.at < len);
            }
            if scan.at < len && scan.read_tags(|_| {}).is_ok() {
                let _ = scan.skip_movetext();
                if scan.at < len {
                    return Ok(true);
                }
            }
            self.refill()?;
        }
    }

    /// Drops the text read and reads another block, or as much again as the buffer holds (so
    /// that a long game is not looked through over and over).
    fn refill(&mut self) -> io::Result<()> {
        self.buffer.drain(..self.at);
        self.buffer_offset += self.at as u64;
        self.at = 0;
        let wanted = self.buffer.len().max(BLOCK);
        // Room made first: `read_to_end` would grow the buffer step by step, copying it each time.
        self.buffer.reserve(wanted);
        let read = (&mut self.input).take(wanted as u64).read_to_end(&mut self.buffer)?;
        self.eof = read < wanted;
        Ok(())
    }
}

impl<R: Read> Iterator for PgnReader<R> {
    type Item = Result<ReadGame, PgnError>;

    fn next(&mut self) -> Option<Self::Item> {
        self.blocks.next_game(&mut self.builder, &mut self.ready)
    }
}

impl<R: Read> Blocks<R> {
    /// The next game `visitor` makes of the input (or the error that ended reading), games
    /// read ahead waiting in `ready`.
    fn next_game<G, V: for<'t> Visitor<'t, Game = G>>(
        &mut self,
        visitor: &mut V,
        ready: &mut Scanned<G>,
    ) -> Option<Result<G, PgnError>> {
        loop {
            if let Some(item) = ready.pop_front() {
                return Some(item);
            }
            if self.done {
                return None;
            }
            match self.buffer_piece() {
                Ok(true) => {}
                Ok(false) => {
                    self.done = true;
                    let end = self.buffer_offset + self.buffer.len() as u64;
                    self.scanner.finish(end, visitor, ready);
                    continue;
                }
                Err(source) => {
                    // Reading stops after an I/O error.
                    self.done = true;
                    let location = self.scanner.current_location(self.buffer_offset + self.at as u64);
                    ready.push_back(Err(PgnError::Io { location, source }));
                    continue;
                }
            }
            let mut scan = Scanner::new(&self.buffer, self.at, self.scanner.repairs());
            scan.skip_to_game();
            self.scanner.read_piece(&mut scan, self.buffer_offset, visitor, ready);
            self.at = scan.at;
        }
    }
}

/// Counts every game of `input` as [`count_games`] counts text held whole, reading it a block
/// at a time as [`PgnReader::repairing`] reads it (the same games, diagnostics and errors).
pub(crate) fn count_stream(input: impl Read, options: ReadOptions, mut each: impl FnMut(Result<Counted, PgnError>)) {
    let mut blocks = Blocks::new(input, GameScanner::new(options.file.clone(), true));
    let (mut counting, mut ready) = (Counting::new(options), Scanned::new());
    while let Some(item) = blocks.next_game(&mut counting, &mut ready) {
        each(item);
    }
}

/// Reads the games of `text` held whole (as [`PgnReader::from_bytes`] reads them, repairs
/// included), building only those whose start `wanted` accepts: the others are skipped unread
/// and given as `None`, so that every game still comes to `each`, in order, with its number.
/// Text without tags is always read (whether it holds a game at all is known only then).
/// Games are handed on as they end rather than gathered: moving every game read (a `Game`
/// is large) into a list and out again cost 5 % of `select`'s CPU. Whether the text ended
/// inside a `{` comment (see [`crate::pgn::pieces::PieceInput`]).
pub(crate) fn read_wanted(
    text: &[u8],
    options: ReadOptions,
    wanted: impl FnMut(&GameStart<'_, '_>) -> bool,
    mut each: impl FnMut(Result<Option<ReadGame>, PgnError>),
) -> bool {
    let mut scanner = GameScanner::new(options.file.clone(), true);
    let mut visitor = Wanting { builder: GameBuilder::new(options), wanted, reading: false };
    read_whole(text, &mut scanner, &mut visitor, &mut each)
}

/// A game read only to be counted: the plies of its main line and what reading it found.
pub(crate) struct Counted {
    /// Plies of the main line, as [`Game::ply_count`] counts them.
    pub plies: usize,
    /// What reading found, as [`ReadGame::diagnostics`].
    pub diagnostics: Vec<Diagnostic>,
    /// Byte offset of the game's start in the text.
    pub offset: u64,
}

/// Reads every game of `text` held whole as [`read_wanted`] reads it, with the same
/// diagnostics, but only counts each (`verify`): one game's tags, lines and state are kept
/// from game to game, so a game allocates nothing of its own and nothing is built to be dropped.
pub(crate) fn count_games(text: &[u8], options: ReadOptions, mut each: impl FnMut(Result<Counted, PgnError>)) {
    let mut scanner = GameScanner::new(options.file.clone(), true);
    read_whole(text, &mut scanner, &mut Counting::new(options), &mut each);
}

/// Reads `text` through `visitor`, handing on every game as it ends; whether the text ended
/// inside a `{` comment.
fn read_whole<'t, V: Visitor<'t>>(
    text: &'t [u8],
    scanner: &mut GameScanner,
    visitor: &mut V,
    each: &mut impl FnMut(Result<V::Game, PgnError>),
) -> bool {
    let mut scan = Scanner::new(text, 0, scanner.repairs());
    let mut out = Scanned::new();
    loop {
        let more = scanner.read_next(&mut scan, 0, visitor, &mut out);
        out.drain(..).for_each(&mut *each);
        if !more {
            return scan.comment_ran_to_end;
        }
    }
}

/// The game builder, counting games instead of handing them on (see [`count_games`]).
struct Counting(GameBuilder);

impl Counting {
    fn new(options: ReadOptions) -> Counting {
        // A counted game is never handed on: of its tags, only the Result that closing it
        // checks is kept (copying every tag was a quarter of starting a game).
        Counting(GameBuilder { all_tags: false, ..GameBuilder::new(options) })
    }
}

impl<'t> Visitor<'t> for Counting {
    type Game = Counted;

    fn begin_game(&mut self, start: GameStart<'_, 't>) -> bool {
        self.0.begin_game(start)
    }

    #[inline(always)]
    fn san(&mut self, san: SanPlus) {
        self.0.san(san);
    }

    #[inline(always)]
    fn plain_san(&mut self, role: Role, file: Option<File>, capture: bool, to: Square, suffix: Option<Suffix>) {
        self.0.plain_san(role, file, capture, to, suffix);
    }

    fn nag(&mut self, nag: u8) {
        self.0.nag(nag);
    }

    fn comment(&mut self, text: &[u8]) {
        <GameBuilder as Visitor<'t>>::comment(&mut self.0, text);
    }

    fn begin_variation(&mut self) -> bool {
        <GameBuilder as Visitor<'t>>::begin_variation(&mut self.0)
    }

    fn end_variation(&mut self) {
        <GameBuilder as Visitor<'t>>::end_variation(&mut self.0);
    }

    fn diagnostic(&mut self, diagnostic: Diagnostic) {
        <GameBuilder as Visitor<'t>>::diagnostic(&mut self.0, diagnostic);
    }

    fn end_game(&mut self, end: GameEnd<'_>) -> Option<Counted> {
        let mut state = self.0.close_game(end)?;
        let plies = state.frames[0].line.nodes.len();
        let diagnostics = mem::take(&mut state.diagnostics);
        let offset = state.location.offset.unwrap_or_default();
        self.0.spare = Some(state);
        Some(Counted { plies, diagnostics, offset })
    }

    fn unreadable_game(&mut self) {
        <GameBuilder as Visitor<'t>>::unreadable_game(&mut self.0);
    }
}

/// The game builder behind a judge of game starts.
struct Wanting<F> {
    builder: GameBuilder,
    wanted: F,
    /// The open game is built.
    reading: bool,
}

impl<'t, F: FnMut(&GameStart<'_, '_>) -> bool> Visitor<'t> for Wanting<F> {
    type Game = Option<ReadGame>;

    fn begin_game(&mut self, start: GameStart<'_, 't>) -> bool {
        self.reading = start.tags.len() == 0 || (self.wanted)(&start);
        match self.reading {
            true => self.builder.begin_game(start),
            false => {
                // Comments before its tags were its own.
                self.builder.opening.clear();
                false
            }
        }
    }

    #[inline(always)]
    fn san(&mut self, san: SanPlus) {
        self.builder.san(san);
    }

    #[inline(always)]
    fn plain_san(&mut self, role: Role, file: Option<File>, capture: bool, to: Square, suffix: Option<Suffix>) {
        self.builder.plain_san(role, file, capture, to, suffix);
    }

    fn nag(&mut self, nag: u8) {
        self.builder.nag(nag);
    }

    fn comment(&mut self, text: &[u8]) {
        <GameBuilder as Visitor<'t>>::comment(&mut self.builder, text);
    }

    fn begin_variation(&mut self) -> bool {
        <GameBuilder as Visitor<'t>>::begin_variation(&mut self.builder)
    }

    fn end_variation(&mut self) {
        <GameBuilder as Visitor<'t>>::end_variation(&mut self.builder);
    }

    fn diagnostic(&mut self, diagnostic: Diagnostic) {
        <GameBuilder as Visitor<'t>>::diagnostic(&mut self.builder, diagnostic);
    }

    fn end_game(&mut self, end: GameEnd<'_>) -> Option<Option<ReadGame>> {
        match self.reading {
            true => <GameBuilder as Visitor<'t>>::end_game(&mut self.builder, end).map(Some),
            false => Some(None),
        }
    }

    fn unreadable_game(&mut self) {
        <GameBuilder as Visitor<'t>>::unreadable_game(&mut self.builder);
    }
}

/// Capacities a game's tags and main line start with: most games fit, so the vectors do not
/// grow move by move.
const TYPICAL_TAGS: usize = 16;
/// Variations nested deeper are dropped with an error: writing a game walks its variations by
/// recursion, which must not run out of stack (a file nested 5,625 deep did). Real games
/// nest a handful of levels.
const MAX_VARIATION_DEPTH: usize = 255;
const TYPICAL_PLIES: usize = 128;

/// A line being read: the main line or an open variation.
struct Frame {
    line: Line,
    /// Position after the line's last move.
    pos: PlayPosition,
    /// Position the line starts from.
    start: PlayPosition,
    /// Ply number of `pos` counted from the game's start position, for naming moves.
    ply: u32,
    /// An illegal move ended this line; later moves of it are ignored.
    stopped: bool,
}

impl Frame {
    fn new(pos: PlayPosition, ply: u32) -> Frame {
        Frame { line: Line::default(), start: pos.clone(), pos, ply, stopped: false }
    }

    fn main_line(pos: PlayPosition) -> Frame {
        let line = Line { comments: Vec::new(), nodes: Vec::with_capacity(TYPICAL_PLIES) };
        Frame { line, ..Frame::new(pos, 0) }
    }

    /// The main line of a game counted before, made the main line of a game from `pos`, its
    /// moves' room kept.
    fn restart(&mut self, pos: PlayPosition) {
        self.line.nodes.clear();
        self.line.comments.clear();
        self.start = pos.clone();
        self.pos = pos;
        self.ply = 0;
        self.stopped = false;
    }

    /// Keeps a move just played.
    ///
    /// Made where it goes, once the line has room for it (`resize_with`, not `push`): pushed,
    /// the node was first put together on the stack in narrow stores, for its drop should
    /// making room panic, and copied into the line in one 16-byte load, which the processor
    /// cannot forward from those stores: a stall on every ply (2–3 % of `verify`'s CPU).
    fn push(&mut self, mv: Option<Move>) {
        self.ply += 1;
        self.line.nodes.resize_with(self.line.nodes.len() + 1, || Node::new(mv));
    }

    /// The position before the line's last move, where a variation of that move starts,
    /// played again from the line's start: variations are rare, so this costs less than
    /// keeping a copy of the position before every move.
    fn before_last_move(&self) -> Option<PlayPosition> {
        let (_, played) = self.line.nodes.split_last()?;
        let mut pos = self.start.clone();
        for node in played {
            play_resolved(&mut pos, node.mv);
        }
        Some(pos)
    }
}

/// A game whose movetext is being read.
struct GameState {
    game: Game,
    /// `frames[0]` is the main line; the others are open variations, innermost last.
    frames: Vec<Frame>,
    diagnostics: Vec<Diagnostic>,
    location: Location,
    /// The game has tags (all of them may not be kept: [`GameBuilder::all_tags`]).
    tagged: bool,
    /// The fullmove number of the start position, for naming moves.
    first_move_number: u32,
    first_turn: Color,
    /// The move at which an illegal or ambiguous move cut the main line, named.
    cut: Option<String>,
}

impl GameState {
    /// Whether the game holds no tag, move or result, at most comments before its moves.
    fn only_comments(&self, end: &GameEnd<'_>) -> bool {
        !self.tagged && self.frames.len() == 1 && self.frames[0].line.nodes.is_empty() && end.outcome.is_none()
    }

    fn current(&mut self) -> &mut Frame {
        // `frames` always holds the main line.
        let last = self.frames.len() - 1;
        &mut self.frames[last]
    }

    fn warn(&mut self, code: &'static str, message: impl Into<String>) {
        let message = message.into();
        self.diagnostics.push(Diagnostic::warning(code, self.location.clone(), message));
    }

    /// Something of the game could not be kept.
    fn lose(&mut self, code: &'static str, message: impl Into<String>) {
        self.diagnostics.push(Diagnostic::error(code, self.location.clone(), message.into()));
    }

    /// "12. Nf3" or "12... Nf3" for the move played from ply `ply`.
    fn move_name(&self, ply: u32, san: &SanPlus) -> String {
        move_name(self.first_move_number, self.first_turn, ply, san)
    }
}

/// The game builder: the visitor of the scanner that makes [`Game`]s.
struct GameBuilder {
    options: ReadOptions,
    /// The game being read.
    state: Option<Box<GameState>>,
    /// Comments alone before a tag section (`; Source of annotations: …`), which open the game
    /// that follows, as SCID reads them.
    opening: Vec<TextBuf>,
    /// A counted game's state, for the next game to reuse (see [`count_games`]).
    spare: Option<Box<GameState>>,
    /// Every tag is kept in the game (else only the first Result tag: see [`Counting::new`]).
    all_tags: bool,
    /// The standard start position, where most games start: copied, not set up piece by
    /// piece for every game.
    standard_start: PlayPosition,
}

impl GameBuilder {
    fn new(options: ReadOptions) -> GameBuilder {
        let standard_start = PlayPosition::new(&Chess::default());
        GameBuilder { options, state: None, opening: Vec::new(), spare: None, all_tags: true, standard_start }
    }

    /// Ends the game being read, every diagnostic said, its result decided; `None` when it
    /// held no game (text between games, or comments that open the next).
    fn close_game(&mut self, end: GameEnd<'_>) -> Option<Box<GameState>> {
        let mut state = self.state.take()?;
        if state.only_comments(&end) {
            // Text between games that holds no game at all, or comments that open the next.
            if end.tagged_game_follows || state.frames[0].line.comments.is_empty() {
                self.opening = mem::take(&mut state.frames[0].line.comments);
                return None;
            }
        }
        while state.frames.len() > 1 {
            state.warn(codes::UNCLOSED_VARIATION, "variation not closed before the end of the game");
            close_variation(&mut state);
        }
        let GameState { game, diagnostics, .. } = &mut *state;
        game.result = end.close(game.tag("Result"), diagnostics);
        Some(state)
    }
}

impl<'t> Visitor<'t> for GameBuilder {
    type Game = ReadGame;

    fn begin_game(&mut self, mut start: GameStart<'_, 't>) -> bool {
        let castling_mode = start.start.castling_mode;
        // A game without a FEN tag starts from a copy of the standard position, at move 1 with
        // White to move, and no `Chess` is set up for it.
        let (fen, pos, first_move_number, first_turn) = match start.start.set_up.take() {
            None => (None, self.standard_start.clone(), 1, Color::White),
            Some(set_up) => {
                let SetUp { fen, position } = *set_up;
                (Some(fen), PlayPosition::new(&position), position.fullmoves().get(), position.turn())
            }
        };
        let mut state = match self.spare.take() {
            Some(mut state) => {
                state.game.tags.clear();
                state.frames[0].restart(pos);
                state
            }
            None => {
                let tags = Tags::with_capacity(TYPICAL_TAGS.max(start.tags.len()), start.tags.bytes());
                Box::new(GameState {
                    game: Game { tags, ..Game::default() },
                    frames: vec![Frame::main_line(pos)],
                    diagnostics: Vec::new(),
                    location: Location::default(),
                    tagged: false,
                    first_move_number: 1,
                    first_turn: Color::White,
                    cut: None,
                })
            }
        };
        if self.all_tags {
            for (name, raw) in start.tags.iter() {
                state.game.tags.push(name, scan::unescape(raw));
            }
        } else if let Some(result) = start.tags.get(b"Result") {
            // The first, which closing the game reads (`Game::tag`).
            state.game.tags.push("Result", result.as_bytes());
        }
        state.tagged = start.tags.len() != 0;
        (state.game.start, state.game.castling_mode) = (fen, castling_mode);
        state.frames[0].line.comments = mem::take(&mut self.opening);
        start.locate(&mut state.location);
        state.diagnostics = start.diagnostics;
        (state.first_move_number, state.first_turn) = (first_move_number, first_turn);
        state.cut = None;
        self.state = Some(state);
        true
    }

    // `san` and `plain_san` keep a body each: one shared inlined helper took the medium
    // file's import from 1,867 M to 1,917 M instructions (the plain move lost its registers).
    fn san(&mut self, san_plus: SanPlus) {
        let Some(state) = self.state.as_deref_mut() else { return };
        if let Some(frame) = playing(state, self.options.max_plies) {
            // The usual move is found, played and kept right here (its value stays in
            // registers); anything else goes aside.
            match frame.pos.play_san(san_plus.san) {
                Ok(mv) => frame.push(Some(mv)),
                Err(_) => play_unusual_move(state, &san_plus),
            }
        }
    }

    fn plain_san(&mut self, role: Role, file: Option<File>, capture: bool, to: Square, suffix: Option<Suffix>) {
        let Some(state) = self.state.as_deref_mut() else { return };
        if let Some(frame) = playing(state, self.options.max_plies) {
            let san = San::Normal { role, file, rank: None, capture, to, promotion: None };
            match frame.pos.play_san(san) {
                Ok(mv) => frame.push(Some(mv)),
                Err(_) => play_unusual_move(state, &SanPlus { san, suffix }),
            }
        }
    }

    fn nag(&mut self, nag: u8) {
        let Some(state) = self.state.as_deref_mut() else { return };
        let frame = state.current();
        if frame.stopped {
            return;
        }
        match frame.line.nodes.last_mut() {
            Some(node) => node.notes_mut().nags.push(nag),
            None => state.lose(codes::DROPPED_NAG, format!("NAG ${nag} before the first move of a line dropped")),
        }
    }

    fn comment(&mut self, bytes: &[u8]) {
        if !self.options.comments {
            return;
        }
        let Some(state) = self.state.as_deref_mut() else { return };
        let frame = state.current();
        if !frame.stopped {
            let text = TextBuf::from(bytes);
            match frame.line.nodes.last_mut() {
                Some(node) => node.notes_mut().comments.push(text),
                None => frame.line.comments.push(text),
            }
        }
    }

    fn begin_variation(&mut self) -> bool {
        let Some(state) = self.state.as_deref_mut() else { return true };
        let frame = state.current();
        let start = match frame.stopped {
            false if self.options.variations => frame.before_last_move().map(|pos| (pos, frame.ply - 1)),
            _ => None,
        };
        if start.is_some() && state.frames.len() > MAX_VARIATION_DEPTH {
            let message = format!("variation nested deeper than {MAX_VARIATION_DEPTH} dropped");
            state.lose(codes::VARIATION_TOO_DEEP, message);
            return true;
        }
        match start {
            Some((pos, ply)) => {
                state.frames.push(Frame::new(pos, ply));
                false
            }
            None => {
                if self.options.variations && !state.current().stopped {
                    state.lose(codes::DROPPED_VARIATION, "variation before the first move of a line dropped");
                }
                true
            }
        }
    }

    fn end_variation(&mut self) {
        if let Some(state) = self.state.as_deref_mut() {
            close_variation(state);
        }
    }

    fn diagnostic(&mut self, diagnostic: Diagnostic) {
        if let Some(state) = self.state.as_deref_mut() {
            state.diagnostics.push(diagnostic);
        }
    }

    fn end_game(&mut self, end: GameEnd<'_>) -> Option<ReadGame> {
        let state = self.close_game(end)?;
        let GameState { mut game, mut frames, diagnostics, location, cut, .. } = *state;
        game.moves = mem::take(&mut frames[0].line);
        if let Some(name) = cut {
            mark_cut(&mut game, &name);
        }
        let number = location.number.unwrap_or_default();
        let offset = location.offset.unwrap_or_default();
        Some(ReadGame { game, diagnostics, number, offset })
    }

    fn unreadable_game(&mut self) {
        self.state = None;
        self.opening.clear();
    }
}

/// The line of `state` a move goes on, unless its moves are no longer read (past the ply
/// limit `max_plies`, after which later comments and variations are dropped with the moves).
#[inline(always)]
fn playing(state: &mut GameState, max_plies: Option<u32>) -> Option<&mut Frame> {
    let main_line = state.frames.len() == 1;
    let frame = state.current();
    if main_line && max_plies.is_some_and(|max| frame.ply >= max) {
        frame.stopped = true;
    }
    (!frame.stopped).then_some(frame)
}

pub(super) const FEN_READ_AS_CHESS960: &str = "FEN castling rights are Chess960's; read as Chess960";

/// Where a game starts, from its Variant and FEN tags.
pub(crate) struct StartPosition {
    /// The FEN tag's position; `None` for the standard start. Boxed: every game's start is
    /// moved on its way to a visitor, and most games, with no FEN tag, then move a few words
    /// rather than a FEN and a position (their copies were 2 % of `select`'s instructions).
    pub set_up: Option<Box<SetUp>>,
    pub castling_mode: CastlingMode,
    /// The FEN has Chess960 castling rights (X-FEN, Shredder-FEN) but no Variant tag says so.
    pub fen_read_as_chess960: bool,
}

/// A game's FEN tag and the position it sets up.
pub(crate) struct SetUp {
    pub fen: Fen,
    pub position: Chess,
}

impl StartPosition {
    pub(super) fn from_tags(
        variant: Option<&Text>,
        fen: Option<&Text>,
        location: impl Fn() -> Location,
    ) -> Result<StartPosition, PgnError> {
        let mut castling_mode = CastlingMode::Standard;
        if let Some(variant) = variant {
            match variant.as_bytes().to_ascii_lowercase().as_slice() {
                // lichess studies name standard chess from a FEN "From Position".
                b"" | b"standard" | b"normal" | b"from position" => {}
                b"chess960" | b"chess 960" | b"fischerandom" | b"fischer random" | b"fischerrandom" | b"960" => {
                    castling_mode = CastlingMode::Chess960;
                }
                _ => {
                    return Err(PgnError::UnsupportedVariant {
                        location: location(),
                        variant: variant.to_str_lossy().into_owned(),
                    });
                }
            }
        }
        let Some(text) = fen else {
            return Ok(StartPosition { set_up: None, castling_mode, fen_read_as_chess960: false });
        };
        let invalid = |reason: String| PgnError::InvalidFen {
            location: location(),
            fen: text.to_str_lossy().into_owned(),
            reason,
        };
        let fen = Fen::from_ascii(text.trim().as_bytes()).map_err(|e| invalid(e.to_string()))?;
        let (position, fen_read_as_chess960) = match fen.clone().into_position(castling_mode) {
            Ok(pos) => (pos, false),
            // X-FEN / Shredder-FEN castling of a Chess960 game without a Variant tag.
            Err(_) if castling_mode == CastlingMode::Standard => {
                let pos = fen.clone().into_position(CastlingMode::Chess960).map_err(|e| invalid(e.to_string()))?;
                castling_mode = CastlingMode::Chess960;
                (pos, true)
            }
            Err(e) => return Err(invalid(e.to_string())),
        };
        Ok(StartPosition { set_up: Some(Box::new(SetUp { fen, position })), castling_mode, fen_read_as_chess960 })
    }

    /// The FEN tag read, if any, and the position the game starts from.
    pub(crate) fn into_parts(self) -> (Option<Fen>, Chess) {
        match self.set_up {
            Some(set_up) => (Some(set_up.fen), set_up.position),
            None => (None, Chess::default()),
        }
    }
}

/// The move a SAN token names in `pos` (`None`: a null move), or why it cannot be played.
pub(super) fn resolve_san(san: San, pos: &PlayPosition) -> Result<Option<Move>, &'static str> {
    match san {
        San::Null if pos.is_check() => Err("null move while in check"),
        San::Null => Ok(None),
        san => match pos.san_to_move(san).or_else(|e| long_algebraic(san, pos).ok_or(e)) {
            Ok(m) => Ok(Some(m)),
            Err(SanError::AmbiguousSan) => Err(AMBIGUOUS),
            Err(_) => Err("illegal move"),
        },
    }
}

/// Plays a move [`resolve_san`] found (`None`: passes the move).
#[inline(always)]
pub(super) fn play_resolved(pos: &mut PlayPosition, mv: Option<Move>) {
    match mv {
        Some(m) => pos.play(m),
        None => pos.play_null(),
    }
}

/// A null move, a long-algebraic move, or no move: out of the way of `PlayPosition::play_san`.
#[cold]
#[inline(never)]
pub(super) fn play_unusual(san: San, pos: &mut PlayPosition) -> Result<Option<Move>, &'static str> {
    let mv = resolve_san(san, pos)?;
    play_resolved(pos, mv);
    Ok(mv)
}

/// "12. Nf3" or "12... Nf3" for the move played at ply `ply` of a game that starts at
/// `first_move_number` with `first_turn` to move.
pub(super) fn move_name(first_move_number: u32, first_turn: Color, ply: u32, san: &SanPlus) -> String {
    let offset = u32::from(first_turn == Color::Black);
    let number = first_move_number + (ply + offset) / 2;
    let dots = if (ply + offset).is_multiple_of(2) { "." } else { "..." };
    format!("{number}{dots} {san}")
}

/// The error for an illegal or ambiguous move that ends a line: the moves after it are lost.
pub(super) fn move_error(what: &str, name: &str, main_line: bool, location: Location) -> Diagnostic {
    let line = if main_line { "the main line" } else { "its variation" };
    let code = if what == AMBIGUOUS { codes::AMBIGUOUS_MOVE } else { codes::ILLEGAL_MOVE };
    Diagnostic::error(code, location, format!("{what} {name}; {line} ends before it"))
}

/// What an ambiguous move is called in messages.
const AMBIGUOUS: &str = "ambiguous move";

/// The move a piece move names when its capture mark is not read (`Raf8` that takes on f8,
/// `Nxd7` to an empty d7), as SCID 5.0.2 reads piece moves (`Position::ReadMove` looks only at
/// the piece, the disambiguation and the target square). Pawn moves keep their mark: it says
/// which pawn moves.
#[cold]
pub(super) fn without_capture_mark(san: San, pos: &PlayPosition) -> Option<Move> {
    match san {
        San::Normal { role, file, rank, capture, to, promotion: None } if role != Role::Pawn => {
            pos.san_to_move(San::Normal { role, file, rank, capture: !capture, to, promotion: None }).ok()
        }
        _ => None,
    }
}

/// The warning for a move read by [`without_capture_mark`].
pub(super) fn capture_mark_warning(name: &str, location: Location) -> Diagnostic {
    let message = format!("{name} read without its capture mark, as SCID reads it");
    Diagnostic::warning(codes::CAPTURE_MARK, location, message)
}

/// A long-algebraic move (`g1f3`, `e7e8q`): SAN parsing reads it as a pawn move with a full
/// from-square, which is only legal when a pawn stands there.
#[cold]
fn long_algebraic(san: San, pos: &PlayPosition) -> Option<Move> {
    match san {
        San::Normal { file: Some(file), rank: Some(rank), to, promotion, .. } => {
            pos.uci_to_move(Square::from_coords(file, rank), to, promotion)
        }
        _ => None,
    }
}

/// Attaches the innermost open variation to the move it is an alternative to.
fn close_variation(state: &mut GameState) {
    if let Some(variation) = state.frames.pop() {
        // A variation is only opened after a move of its parent line.
        if let Some(node) = state.current().line.nodes.last_mut() {
            node.notes_mut().variations.push(variation.line);
        }
    }
}

/// An illegal move ends the line being read, with an error (kept out of line: the move
/// reading loop stays small).
#[cold]
#[inline(never)]
fn end_line(state: &mut GameState, ply: u32, san_plus: &SanPlus, what: &str) {
    state.current().stopped = true;
    let name = state.move_name(ply, san_plus);
    let main_line = state.frames.len() == 1;
    let error = move_error(what, &name, main_line, state.location.clone());
    state.diagnostics.push(error);
    if main_line {
        state.cut = Some(format!("{what} {name}"));
    }
}

/// Marks a game whose main line an illegal or ambiguous move cut: the moves kept no longer
/// reach the given result, so the result becomes unknown, and a comment after the last move
/// kept says why and keeps the result it had (the error says it too).
#[cold]
fn mark_cut(game: &mut Game, what: &str) {
    let had = match game.tag("Result") {
        Some(tag) => tag.as_bytes().to_vec(),
        None => game.result.as_pgn().as_bytes().to_vec(),
    };
    let mut comment = format!("tabiya: the game is cut here, at the {what}; its result was ").into_bytes();
    comment.extend_from_slice(&had);
    let comment = TextBuf::from(&comment[..]);
    match game.moves.nodes.last_mut() {
        Some(node) => node.notes_mut().comments.push(comment),
        None => game.moves.comments.push(comment),
    }
    game.result = GameResult::Unknown;
    if game.tag("Result").is_some() {
        game.set_tag("Result", "*");
    }
}

/// A null move, a long-algebraic move, or an illegal or ambiguous one, which ends its line.
#[cold]
#[inline(never)]
fn play_unusual_move(state: &mut GameState, san_plus: &SanPlus) {
    let frame = state.current();
    let ply = frame.ply;
    match play_unusual(san_plus.san, &mut frame.pos) {
        Ok(mv) => frame.push(mv),
        Err(what) => match without_capture_mark(san_plus.san, &frame.pos) {
            Some(mv) => {
                frame.pos.play(mv);
                frame.push(Some(mv));
                let warning = capture_mark_warning(&state.move_name(ply, san_plus), state.location.clone());
                state.diagnostics.push(warning);
            }
            None => end_line(state, ply, san_plus, what),
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A game's plies, diagnostics and offset, or why it could not be read.
    type Found = Result<(usize, Vec<Diagnostic>, u64), String>;

    /// What the full reader gives of every game (plies, diagnostics, offset, or the error),
    /// against which the counting path is held.
    fn read_fully(text: &[u8]) -> Vec<Found> {
        PgnReader::from_bytes(text, ReadOptions::default())
            .map(|item| {
                item.map(|read| (read.game.ply_count(), read.diagnostics, read.offset)).map_err(|e| e.to_string())
            })
            .collect()
    }

    /// What the counting path gives of every game, text held whole; the counting of a stream
    /// is held to it on the way.
    fn counted(text: &[u8]) -> Vec<Found> {
        let mut games = Vec::new();
        count_games(text, ReadOptions::default(), |item| games.push(found(item)));
        assert_eq!(counted_from(text), games, "a stream counts as text held whole");
        games
    }

    fn found(item: Result<Counted, PgnError>) -> Found {
        item.map(|c| (c.plies, c.diagnostics, c.offset)).map_err(|e| e.to_string())
    }

    fn counted_from(input: impl Read) -> Vec<Found> {
        let mut games = Vec::new();
        count_stream(input, ReadOptions::default(), |item| games.push(found(item)));
        games
    }

    /// A stream that fails after `left` bytes, as a cut compressed file does.
    struct Failing<'a> {
        text: &'a [u8],
        left: usize,
    }

    impl Read for Failing<'_> {
        fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
            if self.left == 0 {
                return Err(io::Error::new(io::ErrorKind::InvalidData, "cut short"));
            }
            let n = buf.len().min(self.left).min(self.text.len());
            buf[..n].copy_from_slice(&self.text[..n]);
            (self.text, self.left) = (&self.text[n..], self.left - n);
            Ok(n)
        }
    }

    /// Counting a stream of more than one block, and one cut short by a read error, gives what
    /// the full reader of a stream gives: the same games, the error where it gives it.
    #[test]
    fn counting_a_stream_finds_what_reading_it_finds() {
        let text = LEFTOVERS.repeat((3 << 20) / LEFTOVERS.len());
        let read = |input| -> Vec<Found> {
            PgnReader::with_options(input, ReadOptions::default())
                .repairing()
                .map(|item| item.map(|r| (r.game.ply_count(), r.diagnostics, r.offset)).map_err(|e| e.to_string()))
                .collect()
        };
        assert_eq!(counted_from(text.as_slice()), read(Box::new(text.as_slice()) as Box<dyn Read>));
        for left in [100, 1 << 20, (1 << 20) + 777, 2_500_000] {
            let expected = read(Box::new(Failing { text: &text, left }));
            assert!(expected.last().is_some_and(|g| g.as_ref().is_err_and(|e| e.contains("cut short"))));
            assert_eq!(counted_from(Failing { text: &text, left }), expected, "cut after {left} bytes");
        }
    }

    /// Games that leave something behind in the state a counted game hands to the next: notes,
    /// variations (closed and not), a cut main line, a cut variation, a NAG and a variation
    /// with no move before them, comments alone between games, a start position, a variant, a
    /// broken tag section, a result that differs from its tag, repairs; a game of tags alone, a
    /// game with two Result tags and one with an escape in its Result (a counted game keeps no
    /// other tag).
    const LEFTOVERS: &[u8] = b"[Event \"a\"]\n[Result \"1-0\"]\n\n$1 ( 1. d4 ) {before} 1. e4 $2 {c} (1. d4 d5 (1... Nf6 2. Qxh7) 2. c4) e5 2. Ke3 Nc6 1-0\n\n\
{alone between games}\n\n\
[Event \"b\"]\n\n1. e4 e5 (1... c5 2. Nf3 (2. Nc3\n\n\
[Event \"c\"]\n[FEN \"4k3/8/8/8/8/8/4P3/4K3 w - - 0 30\"]\n[SetUp \"1\"]\n\n30. e4 Kd7 31. e5, Ke6 32. e6 Kxe6 0-1\n\n\
[Variant \"crazyhouse\"]\n\n1. e4 e5 *\n\n\
[Event \"d\n\n1. e4 *\n\n\
; opening comment\n[Event \"e\"]\n[Result \"0-1\"]\n\n1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. Bxc6 dxc6 5. O-O f6 6. d4 1/2-1/2\n\n\
[Event \"f\"]\n\n1. e4 e5 2. Nf3 Nc6\n\n3. Bb5 *\n\n\
[Event \"g\"]\n[White \"tags alone\"]\n\n\
[Result \"1-0\"]\n[Event \"h\"]\n[Result \"0-1\"]\n\n1. e4 0-1\n\n\
[Result \"1\\-0\"]\n\n1. d4 1-0\n\n\
{trailing comment game}\n";

    #[test]
    fn counting_finds_what_reading_finds() {
        let expected = read_fully(LEFTOVERS);
        assert!(expected.iter().any(|g| g.as_ref().is_ok_and(|(_, d, _)| d.iter().any(|d| d.is_error()))));
        assert!(expected.iter().any(|g| g.is_err()));
        assert_eq!(counted(LEFTOVERS), expected);
        // Every game after every other: what one game leaves must not reach the next.
        let twice = [LEFTOVERS, LEFTOVERS].concat();
        assert_eq!(counted(&twice), read_fully(&twice));
    }

    #[test]
    fn counting_finds_what_reading_finds_in_the_corpus() {
        let Some(edge_cases) = tabiya_testdata::corpus_file("pgn/edge-cases") else { return };
        let mut paths: Vec<PathBuf> =
            std::fs::read_dir(&edge_cases).unwrap().map(|entry| entry.unwrap().path()).collect();
        paths.extend(tabiya_testdata::corpus_file("pgn/small-varied.pgn"));
        assert!(paths.len() > 10);
        for path in paths {
            let text = std::fs::read(&path).unwrap();
            assert_eq!(counted(&text), read_fully(&text), "{}", path.display());
        }
    }
}
