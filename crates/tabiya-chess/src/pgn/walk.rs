//! A fast walk over the main lines of PGN games, for book builders (Polyglot, Kvetka, …):
//! no [`Game`](crate::game::Game) is built, moves past a ply limit are tokenized but never
//! resolved, and the text is read in place (held in memory or mapped).
//!
//! Each game comes with what a builder needs before its first move: the tags (decoded on
//! demand), the result (the movetext's result token, else the `Result` tag), the start
//! position, where the game lies in its file, and the diagnostics reading gave. Its moves are
//! then played one by one through [`WalkedGame::play`], which hands the caller the position
//! before each move and lets it stop the game.
//!
//! The walk is a visitor of the one PGN scanner (`pgn/scanner.rs`), as
//! [`PgnReader`](super::PgnReader) is: it reads the same games with the same leniency (a blank
//! line never ends a game, commas between moves and `d7d8R` promotions repaired, tags kept as
//! the bytes they came as, variants and invalid FENs are errors for their game) and the same
//! diagnostics, apart from those about variations and comments, which it skips unread, and the
//! illegal moves of games whose callers stop early. What is its own is what it keeps (tags in
//! place, main-line moves unresolved) and its rule for text that holds no game (no tags, no
//! result, no first move that plays). Tests hold it to `PgnReader`'s games, offsets, tags,
//! results, main lines and diagnostics on every corpus PGN file.
//!
//! ```
//! use std::ops::ControlFlow;
//! use tabiya_chess::game::GameResult;
//! use tabiya_chess::pgn::{PgnWalk, WalkOptions};
//! use tabiya_chess::view::PositionView;
//!
//! let pgn = b"[White \"Morphy\"]\n[WhiteElo \"2690\"]\n\n1. e4 e5 2. Nf3 d6 (2... Nc6) 3. d4 1-0\n";
//! let mut games = PgnWalk::new(pgn, WalkOptions { max_plies: 4, ..WalkOptions::default() });
//! let mut game = games.next().expect("one game")?;
//! assert_eq!(game.tag("White").as_deref().map(|t| t.as_bytes()), Some(&b"Morphy"[..]));
//! assert_eq!(game.result, GameResult::WhiteWins);
//! assert_eq!((game.offset, game.length), (0, pgn.len() as u64));
//! let mut moves = Vec::new();
//! let end = game.play(|before, mv| {
//!     let uci = mv.expect("no null move").to_uci(shakmaty::CastlingMode::Standard).to_string();
//!     moves.push(format!("{:?} {uci}", before.turn()));
//!     ControlFlow::Continue(())
//! });
//! assert_eq!(moves, ["White e2e4", "Black e7e5", "White g1f3", "Black d7d6"]);
//! assert_eq!(end.position.turn(), shakmaty::Color::White);
//! assert_eq!(end.plies, 4);
//! assert!(games.next().is_none());
//! # Ok::<(), tabiya_chess::pgn::PgnError>(())
//! ```

use std::borrow::Cow;
use std::ops::ControlFlow;
use std::path::PathBuf;
use std::sync::atomic::{AtomicU64, Ordering};

use shakmaty::san::SanPlus;
use shakmaty::{Bitboard, Castles, CastlingMode, Chess, Color, Move, Position, Role, Square};
use tabiya_io::{Diagnostic, Location};

use super::read::{
    StartPosition, capture_mark_warning, move_error, move_name, play_resolved, resolve_san, without_capture_mark,
};
use super::scanner::{GameEnd, GameScanner, GameStart, Scanned, Visitor, decode};
use super::{PgnError, codes};
pub use crate::fast::position::PlayPosition;
use crate::fast::rules::Pieces;
use crate::fast::scan::Scanner;
use crate::game::GameResult;
use crate::text::Text;
use crate::view;

/// Tag names and values as they stand in the text (escapes not decoded).
type RawTags<'a> = Vec<(&'a [u8], &'a [u8])>;

/// Capacities the tags and moves of a game start with (most games fit).
const TYPICAL_TAGS: usize = 16;
const TYPICAL_PLIES: usize = 128;

/// How far to walk each game, and the file to name in errors and diagnostics.
#[derive(Debug, Clone)]
pub struct WalkOptions {
    /// Main-line moves after this many plies are not resolved or played (the rest of the
    /// movetext is still read for the result token).
    pub max_plies: u32,
    /// Named in every error and diagnostic location.
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
    /// What reading repaired (warnings) or dropped (errors); [`WalkedGame::play`] adds the
    /// illegal move that ends the main line, if there is one.
    pub diagnostics: Vec<Diagnostic>,
    tags: RawTags<'a>,
    start: Chess,
    sans: Vec<SanPlus>,
    location: Location,
}

/// Where [`WalkedGame::play`] stopped.
#[derive(Debug, Clone)]
pub struct Played {
    /// The position after the last move played.
    pub position: PlayPosition,
    /// Moves played (null moves included).
    pub plies: u32,
    /// The caller stopped the game.
    pub stopped: bool,
}

impl<'a> WalkedGame<'a> {
    /// The value of the first tag with this name: the bytes it came as, escapes decoded.
    pub fn tag(&self, name: &str) -> Option<Cow<'a, Text>> {
        let (_, value) = self.tags.iter().find(|(n, _)| *n == name.as_bytes())?;
        Some(decode(value))
    }

    /// Every tag in order, decoded like [`WalkedGame::tag`].
    pub fn tags(&self) -> impl Iterator<Item = (Cow<'a, Text>, Cow<'a, Text>)> + '_ {
        self.tags.iter().map(|(name, value)| (decode(name), decode(value)))
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
    pub fn play(&mut self, mut visit: impl FnMut(&PlayPosition, Option<Move>) -> ControlFlow<()>) -> Played {
        // One position finds each move, shows it to the caller, then plays it: the caller
        // reads what it needs of it through `PositionView` instead of a second position of its
        // own playing every move again.
        let mut position = PlayPosition::new(&self.start);
        let sans = std::mem::take(&mut self.sans);
        let mut plies = 0;
        for san in &sans {
            let found = match position.san_to_move(san.san) {
                Ok(mv) => Ok(Some(mv)),
                Err(_) => resolve_san(san.san, &position).or_else(|what| {
                    let mv = without_capture_mark(san.san, &position).ok_or(what)?;
                    let name = move_name(self.start.fullmoves().get(), self.start.turn(), plies, san);
                    self.diagnostics.push(capture_mark_warning(&name, self.location.clone()));
                    Ok(Some(mv))
                }),
            };
            match found {
                Ok(mv) => {
                    if visit(&position, mv).is_break() {
                        return Played { position, plies, stopped: true };
                    }
                    play_resolved(&mut position, mv);
                    plies += 1;
                }
                Err(what) => {
                    let name = move_name(self.start.fullmoves().get(), self.start.turn(), plies, san);
                    self.diagnostics.push(move_error(what, &name, true, self.location.clone()));
                    break;
                }
            }
        }
        Played { position, plies, stopped: false }
    }
}

impl view::PositionView for PlayPosition {
    fn by_role(&self, role: Role) -> Bitboard {
        Pieces::by_role(self, role)
    }

    fn by_color(&self, color: Color) -> Bitboard {
        PlayPosition::by_color(self, color)
    }

    fn turn(&self) -> Color {
        PlayPosition::turn(self)
    }

    fn castles(&self) -> &Castles {
        PlayPosition::castles(self)
    }

    fn maybe_ep_square(&self) -> Option<Square> {
        PlayPosition::ep_square(self)
    }
}

/// The main-line walker: the visitor of the scanner that keeps a game's tags, start and
/// main-line moves up to the ply limit; variations are skipped unread and comments dropped.
struct MainLine<'a> {
    max_plies: usize,
    game: Option<Walking<'a>>,
}

/// The game being walked.
struct Walking<'a> {
    number: u64,
    offset: u64,
    location: Location,
    tags: RawTags<'a>,
    start: StartPosition,
    sans: Vec<SanPlus>,
    diagnostics: Vec<Diagnostic>,
}

impl<'a> Visitor<'a> for MainLine<'a> {
    type Game = WalkedGame<'a>;

    fn begin_game(&mut self, start: GameStart<'_, 'a>) -> bool {
        // Room for a typical game's moves from the start: growing the vector move by move
        // cost 5 % of a book build in reallocations.
        let mut tags = Vec::with_capacity(TYPICAL_TAGS.max(start.tags.len()));
        tags.extend(start.tags.iter());
        self.game = Some(Walking {
            number: start.number,
            offset: start.offset,
            location: start.location(),
            tags,
            start: start.start,
            sans: Vec::with_capacity(self.max_plies.min(TYPICAL_PLIES)),
            diagnostics: start.diagnostics,
        });
        true
    }

    fn san(&mut self, san: SanPlus) {
        if let Some(game) = self.game.as_mut()
            && game.sans.len() < self.max_plies
        {
            game.sans.push(san);
        }
    }

    fn skips_moves(&self) -> bool {
        self.max_plies > 0 && self.game.as_ref().is_some_and(|game| game.sans.len() >= self.max_plies)
    }

    fn nag(&mut self, nag: u8) {
        if let Some(game) = self.game.as_mut()
            && game.sans.is_empty()
        {
            let message = format!("NAG ${nag} before the first move of a line dropped");
            game.diagnostics.push(Diagnostic::error(codes::DROPPED_NAG, game.location.clone(), message));
        }
    }

    fn diagnostic(&mut self, diagnostic: Diagnostic) {
        if let Some(game) = self.game.as_mut() {
            game.diagnostics.push(diagnostic);
        }
    }

    fn end_game(&mut self, end: GameEnd<'_>) -> Option<WalkedGame<'a>> {
        let Walking { number, offset, location, tags, start, sans, mut diagnostics } = self.game.take()?;
        let castling_mode = start.castling_mode;
        let (_, start) = start.into_parts();
        // Text between games that holds no game at all: no tags, no result, no first move
        // that can be played.
        let first_move_plays =
            || sans.first().is_some_and(|san| resolve_san(san.san, &PlayPosition::new(&start)).is_ok());
        if tags.is_empty() && end.outcome.is_none() && !first_move_plays() {
            return None;
        }
        let length = end.end - offset;
        let result_tag = tags.iter().find(|(n, _)| *n == b"Result").map(|(_, v)| decode(v));
        let result = end.close(result_tag.as_deref(), &mut diagnostics);
        Some(WalkedGame { number, offset, length, result, castling_mode, diagnostics, tags, start, sans, location })
    }

    fn unreadable_game(&mut self) {
        self.game = None;
    }
}

/// Bytes of PGN text walked by every [`PgnWalk`] of the process so far (see [`walked_bytes`]).
static WALKED: AtomicU64 = AtomicU64::new(0);

/// Text walked between two additions to [`WALKED`].
const WALKED_STEP: usize = 64 << 10;

/// How many bytes of PGN text every [`PgnWalk`] of the process has walked so far, for a progress
/// bar: a book build walks its input in pieces on every core, inside builders that know nothing
/// of terminals; the program reads this counter (before and during the build) instead.
pub fn walked_bytes() -> u64 {
    WALKED.load(Ordering::Relaxed)
}

/// An iterator over the games of PGN text, yielding each game or the error that made the
/// walk give it up (an unsupported variant, an invalid FEN, an unterminated tag or comment).
pub struct PgnWalk<'a> {
    scan: Scanner<'a>,
    /// Offset of `text` in its file.
    base: u64,
    scanner: GameScanner,
    visitor: MainLine<'a>,
    ready: Scanned<WalkedGame<'a>>,
    done: bool,
    /// Where the text was last counted into [`WALKED`].
    counted: usize,
}

impl<'a> PgnWalk<'a> {
    /// Walks the games of `text`, a whole file or its start.
    pub fn new(text: &'a [u8], options: WalkOptions) -> PgnWalk<'a> {
        PgnWalk::at_offset(text, 0, options)
    }

    /// Walks `text`, which starts at byte `base` of its file (offsets are given in file terms).
    pub fn at_offset(text: &'a [u8], base: u64, options: WalkOptions) -> PgnWalk<'a> {
        PgnWalk {
            scan: Scanner::new(text, 0, true),
            base,
            scanner: GameScanner::new(options.file, true),
            visitor: MainLine { max_plies: options.max_plies as usize, game: None },
            ready: Scanned::new(),
            done: false,
            counted: 0,
        }
    }
}

impl PgnWalk<'_> {
    /// Whether the text walked so far ended inside a `{` comment (one that has no `}`).
    pub fn ended_in_comment(&self) -> bool {
        self.scan.comment_ran_to_end
    }
}

impl<'a> Iterator for PgnWalk<'a> {
    type Item = Result<WalkedGame<'a>, PgnError>;

    fn next(&mut self) -> Option<Self::Item> {
        loop {
            if let Some(item) = self.ready.pop_front() {
                return Some(item);
            }
            if self.done {
                return None;
            }
            self.done = !self.scanner.read_next(&mut self.scan, self.base, &mut self.visitor, &mut self.ready);
            if self.scan.at - self.counted >= WALKED_STEP || self.done {
                WALKED.fetch_add((self.scan.at - self.counted) as u64, Ordering::Relaxed);
                self.counted = self.scan.at;
            }
        }
    }
}

/// Walks `text` (a whole file) in `pieces` pieces cut between games, one rayon task each:
/// `walk` gets each piece's [`PgnWalk`] (offsets in file terms, game numbers counted per
/// piece; the shape a stream's pieces are walked in too) and the results come back in file order, so that folding them in order gives the
/// same answer whatever the number of pieces.
pub fn walk_pieces<T, F>(text: &[u8], options: &WalkOptions, pieces: usize, walk: F) -> Vec<T>
where
    T: Send,
    F: Fn(&mut PgnWalk<'_>) -> T + Sync,
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
    pieces.par_iter().map(|&(piece, base)| walk(&mut PgnWalk::at_offset(piece, base, options.clone()))).collect()
}
