//! Reading PGN into [`Game`]s: pgn-reader tokenizes, shakmaty checks and plays every move.
//!
//! Leniency rules (design notes, pgn-and-performance.md §1.5):
//! * A blank line never ends a game: movetext that pgn-reader splits off at a blank line
//!   (a game without a result token followed by tagless movetext) is joined to its game.
//! * A UTF-8 BOM is skipped; text that is not valid UTF-8 is decoded as Windows-1252 and the
//!   game gets a warning.
//! * Null moves (`--`) are played in the main line and in variations.
//! * An illegal or ambiguous move ends its line (main line or variation) with a warning that
//!   names the game and the move; reading goes on.
//! * Variants other than standard chess and Chess960 are an error for that game.

use std::borrow::Cow;
use std::cell::Cell;
use std::collections::VecDeque;
use std::io::{self, Read};
use std::mem;
use std::ops::ControlFlow;
use std::path::PathBuf;
use std::rc::Rc;

use pgn_reader::{Nag, Outcome, RawComment, RawTag, SanPlus, Skip, Visitor};
use shakmaty::fen::Fen;
use shakmaty::san::{San, SanError};
use shakmaty::uci::UciMove;
use shakmaty::{CastlingMode, Chess, Color, KnownOutcome, Position};
use shakmaty::{Move, Square};
use tabiya_io::{Codepage, Location, Warnings};

use super::PgnError;
use super::lenient::{self, Repair, Repaired};
use crate::game::{Game, GameResult, Line, Node};

/// What to keep of each game. Skipping variations and comments makes reading faster when
/// only the main line matters (book building).
#[derive(Debug, Clone)]
pub struct ReadOptions {
    pub variations: bool,
    pub comments: bool,
    /// Main-line moves beyond this many plies are not read (book building needs only the
    /// first plies; the rest of the movetext is still scanned for the result).
    pub max_plies: Option<u32>,
    /// Named in every error and warning location.
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
    pub game: Game,
    pub warnings: Warnings,
    /// 1-based number of the game in the input.
    pub number: u64,
    /// Byte offset of the game's first tag (or first movetext byte) in the input.
    pub offset: u64,
}

/// An iterator over the games of a PGN input, yielding each game or the error that made the
/// reader give it up.
pub struct PgnReader<R: Read> {
    reader: pgn_reader::Reader<CountingRead<R>>,
    bytes_read: Rc<Cell<u64>>,
    visitor: GameVisitor,
    done: bool,
    /// Repairs made before reading (`from_bytes`), attached to their games as they come out.
    repairs: VecDeque<Repair>,
    inserted_at: Vec<u64>,
}

impl<'a> PgnReader<io::Cursor<Cow<'a, [u8]>>> {
    /// Reads PGN held in memory, repairing first what pgn-reader would silently drop (commas
    /// between moves, `d7d8R` promotions); every repair is a warning of its game.
    pub fn from_bytes(input: &'a [u8], options: ReadOptions) -> Self {
        let Repaired { bytes, repairs, inserted_at } = lenient::repair(input);
        let mut reader = PgnReader::with_options(io::Cursor::new(bytes), options);
        reader.repairs = repairs.into();
        reader.inserted_at = inserted_at;
        reader
    }
}

impl<R: Read> PgnReader<R> {
    pub fn new(input: R) -> PgnReader<R> {
        PgnReader::with_options(input, ReadOptions::default())
    }

    pub fn with_options(input: R, options: ReadOptions) -> PgnReader<R> {
        let bytes_read = Rc::new(Cell::new(0));
        let counting = CountingRead { inner: input, bytes_read: Rc::clone(&bytes_read) };
        PgnReader {
            reader: pgn_reader::Reader::new(counting),
            bytes_read,
            visitor: GameVisitor::new(options),
            done: false,
            repairs: VecDeque::new(),
            inserted_at: Vec::new(),
        }
    }

    /// Offset in the input of the next byte the tokenizer will look at.
    fn input_offset(&self) -> u64 {
        self.bytes_read.get() - self.reader.buffer().len() as u64
    }

    /// Offsets in the input as given, before repairs inserted bytes.
    fn original_offset(&self, offset: u64) -> u64 {
        offset - self.inserted_at.partition_point(|&at| at < offset) as u64
    }

    fn relocate(&self, location: &mut Location) {
        if let Some(offset) = location.offset.as_mut() {
            *offset = self.original_offset(*offset);
        }
    }

    /// Gives a game the repairs made in it and puts its offsets in input terms.
    fn settle(&mut self, mut item: Result<ReadGame, PgnError>) -> Result<ReadGame, PgnError> {
        let start = match &item {
            Ok(read) => read.offset,
            Err(e) => e.location().offset.unwrap_or_default(),
        };
        while self.repairs.front().is_some_and(|r| r.game_offset <= start) {
            if let (Some(repair), Ok(read)) = (self.repairs.pop_front(), item.as_mut()) {
                let location = Location { offset: Some(read.offset), ..self.visitor.location() };
                read.warnings.push(Location { record: Some(read.number), ..location }, repair.message);
            } else {
                self.repairs.pop_front();
            }
        }
        if self.inserted_at.is_empty() {
            return item;
        }
        match &mut item {
            Ok(read) => {
                read.offset = self.original_offset(read.offset);
                let mut warnings = std::mem::take(&mut read.warnings);
                warnings.0.iter_mut().for_each(|w| self.relocate(&mut w.location));
                read.warnings = warnings;
            }
            Err(e) => {
                let location = match e {
                    PgnError::Io { location, .. }
                    | PgnError::UnsupportedVariant { location, .. }
                    | PgnError::InvalidFen { location, .. } => location,
                };
                self.relocate(location);
            }
        }
        item
    }

    fn io_error(&mut self, source: io::Error) {
        if source.kind() != io::ErrorKind::InvalidData {
            self.done = true;
        }
        let location = self.visitor.location();
        self.visitor.ready.push_back(Err(PgnError::Io { location, source }));
    }
}

impl<R: Read> Iterator for PgnReader<R> {
    type Item = Result<ReadGame, PgnError>;

    fn next(&mut self) -> Option<Self::Item> {
        loop {
            if let Some(item) = self.visitor.ready.pop_front() {
                return Some(self.settle(item));
            }
            if self.done {
                return None;
            }
            match self.reader.has_more() {
                Ok(true) => {}
                Ok(false) => {
                    self.done = true;
                    self.visitor.finish_carried();
                    continue;
                }
                Err(e) => {
                    self.io_error(e);
                    continue;
                }
            }
            let start = self.input_offset();
            self.visitor.offset = start;
            if let Err(e) = self.reader.read_game(&mut self.visitor) {
                self.io_error(e);
                if self.input_offset() == start {
                    // No progress: the tokenizer cannot get past this point.
                    self.done = true;
                }
            }
        }
    }
}

/// Counts the bytes handed to pgn-reader, so that games can be located by offset.
struct CountingRead<R> {
    inner: R,
    bytes_read: Rc<Cell<u64>>,
}

impl<R: Read> Read for CountingRead<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = self.inner.read(buf)?;
        self.bytes_read.set(self.bytes_read.get() + n as u64);
        Ok(n)
    }
}

/// Decodes tag values and comments: UTF-8, or Windows-1252 (which covers Latin-1) if the
/// bytes are not valid UTF-8. Owned bytes become the string without a copy.
fn decode_text(bytes: Cow<'_, [u8]>, not_utf8: &mut bool) -> String {
    let windows_1252 = |bytes: &[u8], not_utf8: &mut bool| {
        *not_utf8 = true;
        Codepage::Windows1252.decode(bytes).into_owned()
    };
    match bytes {
        Cow::Borrowed(bytes) => match std::str::from_utf8(bytes) {
            Ok(text) => text.to_owned(),
            Err(_) => windows_1252(bytes, not_utf8),
        },
        Cow::Owned(bytes) => String::from_utf8(bytes).unwrap_or_else(|e| windows_1252(e.as_bytes(), not_utf8)),
    }
}

/// Capacities a game's tags and main line start with: most games fit, so the vectors do not
/// grow move by move.
const TYPICAL_TAGS: usize = 16;
const TYPICAL_PLIES: usize = 128;

struct TagSection {
    tags: Vec<(String, String)>,
    not_utf8: bool,
}

/// A line being read: the main line or an open variation.
struct Frame {
    line: Line,
    /// Position after the line's last move.
    pos: Chess,
    /// Position the line starts from.
    start: Chess,
    /// Ply number of `pos` counted from the game's start position, for naming moves.
    ply: u32,
    /// An illegal move ended this line; later moves of it are ignored.
    stopped: bool,
}

impl Frame {
    fn new(pos: Chess, ply: u32) -> Frame {
        Frame { line: Line::default(), start: pos.clone(), pos, ply, stopped: false }
    }

    fn main_line(pos: Chess) -> Frame {
        let line = Line { comments: Vec::new(), nodes: Vec::with_capacity(TYPICAL_PLIES) };
        Frame { line, ..Frame::new(pos, 0) }
    }

    /// The position before the line's last move, where a variation of that move starts,
    /// played again from the line's start: variations are rare, so this costs less than
    /// keeping a copy of the position before every move.
    fn before_last_move(&self) -> Option<Chess> {
        let (_, played) = self.line.nodes.split_last()?;
        let mut pos = self.start.clone();
        for node in played {
            play_resolved(&mut pos, node.mv).ok()?;
        }
        Some(pos)
    }
}

/// A game whose movetext is being read.
struct GameState {
    game: Game,
    /// `frames[0]` is the main line; the others are open variations, innermost last.
    frames: Vec<Frame>,
    /// pgn-reader skips a variation and then still reports its `)`.
    skipping_variation: bool,
    outcome: Option<Outcome>,
    partial_comment: Vec<u8>,
    not_utf8: bool,
    warnings: Warnings,
    location: Location,
    /// The fullmove number of the start position, for naming moves.
    first_move_number: u32,
    first_turn: Color,
}

impl GameState {
    fn current(&mut self) -> &mut Frame {
        // `frames` always holds the main line.
        let last = self.frames.len() - 1;
        &mut self.frames[last]
    }

    fn warn(&mut self, message: impl Into<String>) {
        let message = message.into();
        self.warnings.push(self.location.clone(), message);
    }

    /// "12. Nf3" or "12... Nf3" for the move played from ply `ply`.
    fn move_name(&self, ply: u32, san: &SanPlus) -> String {
        move_name(self.first_move_number, self.first_turn, ply, san)
    }
}

struct GameVisitor {
    options: ReadOptions,
    /// Number of the latest game started.
    number: u64,
    /// Offset of the game being read, set by the iterator.
    offset: u64,
    /// A game whose movetext ended at a blank line without a result: the next tagless
    /// movetext continues it.
    carry: Option<Box<GameState>>,
    ready: VecDeque<Result<ReadGame, PgnError>>,
}

impl GameVisitor {
    fn new(options: ReadOptions) -> GameVisitor {
        GameVisitor { options, number: 0, offset: 0, carry: None, ready: VecDeque::new() }
    }

    fn location(&self) -> Location {
        Location { file: self.options.file.clone(), offset: Some(self.offset), record: Some(self.number.max(1)) }
    }

    fn finish_carried(&mut self) {
        if let Some(state) = self.carry.take() {
            self.finish(state);
        }
    }

    fn finish(&mut self, mut state: Box<GameState>) {
        while state.frames.len() > 1 {
            state.warn("variation not closed before the end of the game");
            close_variation(&mut state);
        }
        let is_junk = state.game.tags.is_empty()
            && state.frames[0].line.nodes.is_empty()
            && state.frames[0].line.comments.is_empty()
            && state.outcome.is_none();
        if is_junk {
            // Text between games that holds no game at all.
            self.number -= 1;
            return;
        }
        let GameState { mut game, mut frames, outcome, not_utf8, mut warnings, location, .. } = *state;
        game.moves = mem::take(&mut frames[0].line);
        let tag_result = game.tag("Result").and_then(GameResult::from_pgn);
        game.result = match outcome {
            Some(outcome) => {
                let result = game_result(outcome);
                if tag_result.is_some_and(|r| r != result) {
                    warnings.push(
                        location.clone(),
                        format!("result tag {:?} differs from the movetext's {}", game.tag("Result"), result.as_pgn()),
                    );
                }
                result
            }
            None => tag_result.unwrap_or_default(),
        };
        if not_utf8 {
            warnings.push(location.clone(), "text is not valid UTF-8; decoded as Windows-1252");
        }
        let number = location.record.unwrap_or_default();
        let offset = location.offset.unwrap_or_default();
        self.ready.push_back(Ok(ReadGame { game, warnings, number, offset }));
    }

    fn start_game(&mut self, tags: TagSection) -> Result<Box<GameState>, PgnError> {
        let location = self.location();
        let mut game = Game { tags: tags.tags, ..Game::default() };
        let mut warnings = Warnings::default();
        let start = StartPosition::from_tags(game.tag("Variant"), game.tag("FEN"), &location)?;
        if start.fen_read_as_chess960 {
            warnings.push(location.clone(), FEN_READ_AS_CHESS960);
        }
        (game.start, game.castling_mode) = (start.fen, start.castling_mode);
        let first_move_number = start.position.fullmoves().get();
        let first_turn = start.position.turn();
        Ok(Box::new(GameState {
            game,
            frames: vec![Frame::main_line(start.position)],
            skipping_variation: false,
            outcome: None,
            partial_comment: Vec::new(),
            not_utf8: tags.not_utf8,
            warnings,
            location,
            first_move_number,
            first_turn,
        }))
    }
}

pub(super) const FEN_READ_AS_CHESS960: &str = "FEN castling rights are Chess960's; read as Chess960";

/// Where a game starts, from its Variant and FEN tags.
pub(super) struct StartPosition {
    pub fen: Option<Fen>,
    pub castling_mode: CastlingMode,
    pub position: Chess,
    /// The FEN has Chess960 castling rights (X-FEN, Shredder-FEN) but no Variant tag says so.
    pub fen_read_as_chess960: bool,
}

impl StartPosition {
    pub(super) fn from_tags(
        variant: Option<&str>,
        fen: Option<&str>,
        location: &Location,
    ) -> Result<StartPosition, PgnError> {
        let mut castling_mode = CastlingMode::Standard;
        if let Some(variant) = variant {
            match variant.to_ascii_lowercase().as_str() {
                "" | "standard" | "normal" => {}
                "chess960" | "chess 960" | "fischerandom" | "fischer random" | "fischerrandom" | "960" => {
                    castling_mode = CastlingMode::Chess960;
                }
                _ => {
                    return Err(PgnError::UnsupportedVariant {
                        location: location.clone(),
                        variant: variant.to_owned(),
                    });
                }
            }
        }
        let Some(text) = fen else {
            return Ok(StartPosition {
                fen: None,
                castling_mode,
                position: Chess::default(),
                fen_read_as_chess960: false,
            });
        };
        let invalid =
            |reason: String| PgnError::InvalidFen { location: location.clone(), fen: text.to_owned(), reason };
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
        Ok(StartPosition { fen: Some(fen), castling_mode, position, fen_read_as_chess960 })
    }
}

/// The move a SAN token names in `pos` (`None`: a null move), or why it cannot be played.
pub(super) fn resolve_san(san: San, pos: &Chess) -> Result<Option<Move>, &'static str> {
    match san {
        San::Null if pos.is_check() => Err("null move while in check"),
        San::Null => Ok(None),
        san => match super::san::san_to_move(san, pos).or_else(|e| long_algebraic(san, pos).ok_or(e)) {
            Ok(m) => Ok(Some(m)),
            Err(SanError::AmbiguousSan) => Err("ambiguous move"),
            Err(_) => Err("illegal move"),
        },
    }
}

/// Plays a move [`resolve_san`] found; a null move fails where the side not to move is in check.
pub(super) fn play_resolved(pos: &mut Chess, mv: Option<Move>) -> Result<(), &'static str> {
    match mv {
        Some(m) => pos.play_unchecked(m),
        None => {
            let swapped = pos.clone().swap_turn();
            *pos = swapped.map_err(|_| "null move from a position where the other side cannot move")?;
        }
    }
    Ok(())
}

/// "12. Nf3" or "12... Nf3" for the move played at ply `ply` of a game that starts at
/// `first_move_number` with `first_turn` to move.
pub(super) fn move_name(first_move_number: u32, first_turn: Color, ply: u32, san: &SanPlus) -> String {
    let offset = u32::from(first_turn == Color::Black);
    let number = first_move_number + (ply + offset) / 2;
    let dots = if (ply + offset).is_multiple_of(2) { "." } else { "..." };
    format!("{number}{dots} {san}")
}

/// The warning for an illegal move that ends a line.
pub(super) fn move_warning(what: &str, name: &str, main_line: bool) -> String {
    let line = if main_line { "the main line" } else { "its variation" };
    format!("{what} {name}; {line} ends before it")
}

/// A long-algebraic move (`g1f3`, `e7e8q`): SAN parsing reads it as a pawn move with a full
/// from-square, which is only legal when a pawn stands there.
fn long_algebraic(san: San, pos: &Chess) -> Option<Move> {
    match san {
        San::Normal { file: Some(file), rank: Some(rank), to, promotion, .. } => {
            let from = Square::from_coords(file, rank);
            UciMove::Normal { from, to, promotion }.to_move(pos).ok()
        }
        _ => None,
    }
}

fn game_result(outcome: Outcome) -> GameResult {
    match outcome {
        Outcome::Known(KnownOutcome::Decisive { winner: Color::White }) => GameResult::WhiteWins,
        Outcome::Known(KnownOutcome::Decisive { winner: Color::Black }) => GameResult::BlackWins,
        Outcome::Known(KnownOutcome::Draw) => GameResult::Draw,
        Outcome::Unknown => GameResult::Unknown,
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

impl Visitor for GameVisitor {
    type Tags = TagSection;
    type Movetext = Box<GameState>;
    type Output = ();

    fn begin_tags(&mut self) -> ControlFlow<(), TagSection> {
        ControlFlow::Continue(TagSection { tags: Vec::with_capacity(TYPICAL_TAGS), not_utf8: false })
    }

    fn tag(&mut self, tags: &mut TagSection, name: &[u8], value: RawTag<'_>) -> ControlFlow<()> {
        let name = decode_text(Cow::Borrowed(name), &mut tags.not_utf8);
        // Escapes are rare, and `RawTag::decode` sets up a search even for a short value.
        let raw = value.as_bytes();
        let value = if raw.contains(&b'\\') { value.decode() } else { Cow::Borrowed(raw) };
        let value = decode_text(value, &mut tags.not_utf8);
        tags.tags.push((name, value));
        ControlFlow::Continue(())
    }

    fn begin_movetext(&mut self, tags: TagSection) -> ControlFlow<(), Box<GameState>> {
        if tags.tags.is_empty()
            && let Some(mut state) = self.carry.take()
        {
            state.warn("blank line inside the movetext; the game goes on");
            return ControlFlow::Continue(state);
        }
        self.finish_carried();
        self.number += 1;
        match self.start_game(tags) {
            Ok(state) => ControlFlow::Continue(state),
            Err(e) => {
                self.ready.push_back(Err(e));
                ControlFlow::Break(())
            }
        }
    }

    fn san(&mut self, state: &mut Box<GameState>, san_plus: SanPlus) -> ControlFlow<()> {
        let main_line = state.frames.len() == 1;
        let frame = state.current();
        if main_line && self.options.max_plies.is_some_and(|max| frame.ply >= max) {
            // Later comments and variations are dropped with the moves.
            frame.stopped = true;
        }
        if frame.stopped {
            return ControlFlow::Continue(());
        }
        let ply = frame.ply;
        let played = resolve_san(san_plus.san, &frame.pos).and_then(|mv| {
            play_resolved(&mut frame.pos, mv)?;
            frame.ply += 1;
            frame.line.nodes.push(Node::new(mv));
            Ok(())
        });
        if let Err(what) = played {
            state.current().stopped = true;
            let name = state.move_name(ply, &san_plus);
            let message = move_warning(what, &name, state.frames.len() == 1);
            state.warn(message);
        }
        ControlFlow::Continue(())
    }

    fn nag(&mut self, state: &mut Box<GameState>, nag: Nag) -> ControlFlow<()> {
        let frame = state.current();
        if frame.stopped {
            return ControlFlow::Continue(());
        }
        match frame.line.nodes.last_mut() {
            Some(node) => node.notes_mut().nags.push(nag.0),
            None => state.warn(format!("NAG ${} before the first move of a line dropped", nag.0)),
        }
        ControlFlow::Continue(())
    }

    fn partial_comment(&mut self, state: &mut Box<GameState>, comment: RawComment<'_>) -> ControlFlow<()> {
        if self.options.comments {
            state.partial_comment.extend_from_slice(comment.as_bytes());
        }
        ControlFlow::Continue(())
    }

    fn comment(&mut self, state: &mut Box<GameState>, comment: RawComment<'_>) -> ControlFlow<()> {
        if !self.options.comments {
            return ControlFlow::Continue(());
        }
        let mut not_utf8 = false;
        let text = if state.partial_comment.is_empty() {
            decode_text(Cow::Borrowed(comment.as_bytes()), &mut not_utf8)
        } else {
            let mut bytes = mem::take(&mut state.partial_comment);
            bytes.extend_from_slice(comment.as_bytes());
            decode_text(Cow::Owned(bytes), &mut not_utf8)
        };
        state.not_utf8 |= not_utf8;
        let frame = state.current();
        if !frame.stopped {
            match frame.line.nodes.last_mut() {
                Some(node) => node.notes_mut().comments.push(text),
                None => frame.line.comments.push(text),
            }
        }
        ControlFlow::Continue(())
    }

    fn begin_variation(&mut self, state: &mut Box<GameState>) -> ControlFlow<(), Skip> {
        let frame = state.current();
        let start = match frame.stopped {
            false if self.options.variations => frame.before_last_move().map(|pos| (pos, frame.ply - 1)),
            _ => None,
        };
        match start {
            Some((pos, ply)) => {
                state.frames.push(Frame::new(pos, ply));
                ControlFlow::Continue(Skip(false))
            }
            None => {
                if self.options.variations && !state.current().stopped {
                    state.warn("variation before the first move of a line dropped");
                }
                state.skipping_variation = true;
                ControlFlow::Continue(Skip(true))
            }
        }
    }

    fn end_variation(&mut self, state: &mut Box<GameState>) -> ControlFlow<()> {
        if mem::take(&mut state.skipping_variation) {
            return ControlFlow::Continue(());
        }
        if state.frames.len() > 1 {
            close_variation(state);
        } else {
            state.warn("')' without a variation to close ignored");
        }
        ControlFlow::Continue(())
    }

    fn outcome(&mut self, state: &mut Box<GameState>, outcome: Outcome) -> ControlFlow<()> {
        if state.frames.len() == 1 {
            state.outcome = Some(outcome);
        }
        ControlFlow::Continue(())
    }

    fn end_game(&mut self, state: Box<GameState>) {
        if state.outcome.is_some() {
            self.finish(state);
        } else {
            self.carry = Some(state);
        }
    }
}
