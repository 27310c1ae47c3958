//! Building a chess tree from games: each game's main line becomes occurrences (the exact key
//! of each position and the move's code, with the game's result from the mover's view, the
//! ratings, the year and the game's number), counted by [`RunBuilder`] within the memory
//! budget. Keys are worked out on the reading threads.

use std::borrow::Cow;
use std::io::{self, Write};
use std::ops::ControlFlow;
use std::path::{Path, PathBuf};

use shakmaty::{ByColor, CastlingMode, CastlingSide, Chess, Color, Move, Square};
use tabiya_io::tree::{Footer, OccurrenceChunk, Outcome, Played, RunBuilder, write_varint};
use tabiya_io::{Diagnostic, DiagnosticSink};

use super::GAME;
use super::key::{KEY_BYTES, PackedPieces, PositionKey};
use super::table::{write_game_details, year};
use crate::fast::position::PlayPosition;
use crate::game::{Game, GameResult};
use crate::games::select::{Duplicates, SelectSummary, Selection, select_from};
use crate::games::{GamesError, Source};
use crate::games::{PGN_PIECE, PieceGames, ReadItem, read_piece};
use crate::pgn::{PgnWalk, ReadOptions, WalkOptions, WalkedGame};
use crate::text::{Text, rating_16};

/// What goes into the tree and how much memory building it may take.
#[derive(Debug, Clone)]
pub struct TreeOptions {
    /// Moves at plies `0..max_ply` of each game are counted; `None`: every move.
    pub max_ply: Option<u32>,
    /// Bytes of occurrences held before a run is spilled to disk (36 bytes a move,
    /// [`RunBuilder::OCCURRENCE_BYTES`], and 16 a side of each game: [`RunBuilder::new`]).
    pub memory: u64,
    /// Where spilled runs and the game table wait (unnamed files, gone when the process ends).
    pub temp_dir: PathBuf,
}

impl Default for TreeOptions {
    fn default() -> TreeOptions {
        TreeOptions { max_ply: None, memory: 1 << 30, temp_dir: std::env::temp_dir() }
    }
}

/// What the builder did with the games it was given.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct TreeSummary {
    /// Games counted into the tree.
    pub games_added: u64,
    /// Chess960 games: the tree's keys are standard chess positions.
    pub games_chess960: u64,
    /// Games whose start position is not legal chess (or has more than 32 pieces).
    pub games_invalid_start: u64,
    /// Games that could not be read.
    pub games_unreadable: u64,
    /// Games counted up to an illegal or ambiguous move of their main line: the moves after it
    /// are not in the tree.
    pub games_cut: u64,
    /// Moves counted.
    pub moves_added: u64,
    /// Runs spilled to disk.
    pub runs: u64,
    /// What went wrong with the games left out or cut: the first errors met, with where.
    pub problems: Vec<String>,
}

impl TreeSummary {
    /// Games read but left out of the tree.
    pub fn games_left_out(&self) -> u64 {
        self.games_chess960 + self.games_invalid_start + self.games_unreadable
    }

    fn problem(&mut self, what: String) {
        if self.problems.len() < 20 {
            self.problems.push(what);
        }
    }
}

/// A game made ready on a reading thread: what the tree keeps of it (its record but for the
/// number, its ratings, year and result) and the keys and moves of its main line, or why it is
/// left out. The moves of a walked piece's games are made into one chunk of occurrences on the
/// reading thread too ([`chunk_piece`]): the piece's first game carries it, and each game's
/// `moves` is left empty.
pub struct PreparedGame {
    details: Vec<u8>,
    ratings: (u16, u16),
    year: u16,
    result: GameResult,
    moves: Result<Vec<(PositionKey, u16)>, Leftout>,
    /// Moves of the main line counted (those in `moves` or in the piece's chunk).
    plies: usize,
    chunk: Option<OccurrenceChunk<KEY_BYTES>>,
}

#[derive(Debug, Clone, Copy)]
enum Leftout {
    Chess960,
    InvalidStart,
}

/// The UCI code of a move ([`TreeMove::code`](super::TreeMove::code)).
pub fn move_code(mv: Move) -> u16 {
    // `Move::to_uci` in standard chess, without building the `UciMove`: castling is the king's
    // two-square step.
    let (from, to, promotion) = match mv {
        Move::Normal { from, to, promotion, .. } => (from, to, promotion),
        Move::EnPassant { from, to } => (from, to, None),
        Move::Castle { king, rook } => {
            let side = CastlingSide::from_king_side(king < rook);
            (king, Square::from_coords(side.king_to_file(), king.rank()), None)
        }
        Move::Put { .. } => return 0,
    };
    from as u16 | (to as u16) << 6 | promotion.map_or(0, |r| r as u16) << 12
}

/// The move a code stands for in `pos`, when it is legal there.
pub fn code_move(code: u16, pos: &shakmaty::Chess) -> Option<Move> {
    let square = |bits: u16| shakmaty::Square::new(u32::from(bits & 63));
    let promotion = match code >> 12 {
        0 => None,
        r => Some(shakmaty::Role::try_from(r as u8).ok()?),
    };
    let uci = shakmaty::uci::UciMove::Normal { from: square(code), to: square(code >> 6), promotion };
    uci.to_move(pos).ok()
}

impl PreparedGame {
    /// Works out the keys of `game`'s main line (on a reading thread), up to `max_ply` moves; a
    /// null move ends it.
    fn new(game: &Game, max_ply: Option<u32>) -> PreparedGame {
        let start = match game.castling_mode {
            CastlingMode::Chess960 => Err(Leftout::Chess960),
            CastlingMode::Standard => game.start_position().map_err(|_| Leftout::InvalidStart),
        };
        let mut keys = LineKeys::new(start.as_ref().map_err(|&l| l), max_ply, game.moves.nodes.len());
        if let Ok(start) = &start {
            // The line was found legal when it was read: replayed on the readers' own position,
            // which plays a move for a fraction of what `Chess::play_unchecked` costs.
            let mut pos = PlayPosition::new(start);
            for node in &game.moves.nodes {
                if keys.add(&pos, node.mv).is_break() {
                    break;
                }
                if let Some(mv) = node.mv {
                    pos.play(mv);
                }
            }
        }
        PreparedGame::with_tags(|name| game.tag(name).map(Cow::Borrowed), game.result, keys.moves)
    }

    /// [`PreparedGame::new`] of a walked game, its main line played once (its keys made from the
    /// walk's own position) and its tags read in place. Its diagnostics are the walk's: those of
    /// its main line and tags, not of its variations and comments, which are skipped unread.
    fn walked(game: &mut WalkedGame<'_>, max_ply: Option<u32>) -> PreparedGame {
        let start = match game.castling_mode {
            CastlingMode::Chess960 => Err(Leftout::Chess960),
            CastlingMode::Standard => Ok(game.start_position()),
        };
        let mut keys = LineKeys::new(start, max_ply, game.move_tokens());
        let found = game.diagnostics.len();
        // Played to the end whatever is counted, so that an illegal move after the ply limit or
        // a null move cuts the game as it cuts the game `PgnReader` reads.
        game.play(|pos, mv| {
            let _ = keys.add(pos, mv);
            ControlFlow::Continue(())
        });
        // `PgnReader` marks a game an illegal move cut unfinished: its moves count with an
        // unknown result (the walk keeps the result for books).
        let cut = game.diagnostics[found..].iter().any(Diagnostic::is_error);
        let result = if cut { GameResult::Unknown } else { game.result };
        PreparedGame::with_tags(|name| game.tag(name), result, keys.moves)
    }

    /// The game's record but for its number, its ratings and year read from `tag`.
    fn with_tags<'t>(
        tag: impl Fn(&str) -> Option<Cow<'t, Text>>,
        result: GameResult,
        moves: Result<Vec<(PositionKey, u16)>, Leftout>,
    ) -> PreparedGame {
        let elo = |name| rating_16(tag(name).as_deref());
        let ratings = (elo("WhiteElo"), elo("BlackElo"));
        let mut details = Vec::with_capacity(128);
        write_game_details(&mut details, &tag, ratings, result).expect("a Vec takes every write");
        let year = year(tag("Date").as_deref().map(Text::as_bytes));
        let plies = moves.as_ref().map_or(0, Vec::len);
        PreparedGame { details, ratings, year, result, moves, plies, chunk: None }
    }

    /// What the tree counts of each of the game's moves, by the side that plays it (its code
    /// left 0): the result from the mover's view, the ratings, the year; `game` its number.
    fn played_by(&self, game: u64) -> ByColor<Played> {
        let (white, black) = self.ratings;
        ByColor::new_with(|turn| {
            let outcome = match (self.result, turn) {
                (GameResult::Unknown, _) => Outcome::Unknown,
                (GameResult::Draw, _) => Outcome::Drawn,
                (GameResult::WhiteWins, Color::White) | (GameResult::BlackWins, Color::Black) => Outcome::Won,
                _ => Outcome::Lost,
            };
            let (mover_rating, opponent_rating) = if turn == Color::White { (white, black) } else { (black, white) };
            Played { code: 0, outcome, mover_rating, opponent_rating, year: self.year, game }
        })
    }
}

/// Makes the moves of a piece's games into one chunk of occurrences, here on the reading
/// thread, carried by the piece's first game: the thread that adds the games in file order then
/// only numbers them and hands the chunk on. The chunk is ordered by first key byte as it is
/// made (the first pass of the run's sort), its keys counted first.
fn chunk_piece(games: &mut PieceGames<PreparedGame>) {
    let lines = games.games.iter().flatten().filter_map(|(game, _)| game.moves.as_ref().ok());
    let mut chunk = OccurrenceChunk::by_first_byte(lines.flatten().map(|(key, _)| &key.0));
    for (game, _) in games.games.iter_mut().flatten() {
        // The games the builder adds to its table: those not left out, in order.
        let Ok(moves) = &mut game.moves else { continue };
        let moves = std::mem::take(moves);
        let played_by = game.played_by(chunk.start_game());
        for (key, code) in moves {
            chunk.push(key.0, Played { code, ..*played_by.get(key.turn()) });
        }
    }
    if let Some((first, _)) = games.games.iter_mut().flatten().next() {
        first.chunk = Some(chunk);
    }
}

/// The keys and move codes of a main line, gathered as it is played, up to the ply limit or a
/// null move; a start with no key (more than 32 pieces) leaves the game out only when it has a
/// move to count.
struct LineKeys {
    /// `None`: the start has no key.
    pieces: Option<PackedPieces>,
    limit: usize,
    moves: Result<Vec<(PositionKey, u16)>, Leftout>,
    ended: bool,
}

impl LineKeys {
    /// Nothing counted yet from `start` (or the game left out), room for `plies` moves.
    fn new(start: Result<&Chess, Leftout>, max_ply: Option<u32>, plies: usize) -> LineKeys {
        let limit = max_ply.map_or(usize::MAX, |m| m as usize);
        let (pieces, moves) = match start {
            Ok(start) => (PackedPieces::new(start).ok(), Ok(Vec::with_capacity(plies.min(limit)))),
            Err(left_out) => (None, Err(left_out)),
        };
        LineKeys { pieces, limit, moves, ended: false }
    }

    /// Counts `mv` played from `pos`; `Break` once nothing more of the line counts.
    fn add(&mut self, pos: &PlayPosition, mv: Option<Move>) -> ControlFlow<()> {
        let Ok(moves) = &mut self.moves else { return ControlFlow::Break(()) };
        let Some(mv) = mv.filter(|_| !self.ended && moves.len() < self.limit) else {
            self.ended = true;
            return ControlFlow::Break(());
        };
        let Some(pieces) = &mut self.pieces else {
            self.moves = Err(Leftout::InvalidStart);
            return ControlFlow::Break(());
        };
        moves.push((pieces.key(pos), move_code(mv)));
        pieces.play(mv, pos.turn());
        ControlFlow::Continue(())
    }
}

/// The games of a piece of PGN text made ready from the walk: each main line played once, tags
/// read in place, no [`Game`] built. Text the walk finds holds no game, and games it cannot read,
/// are `PgnReader`'s to judge (its rule for text between games differs): a piece with either is
/// read again whole by the reader, so that the games, their numbers and their errors are always
/// the reader's.
///
/// What reading found is what the walk finds: the diagnostics of the tags and the main line,
/// not those of variations and comments (skipped unread), which the tree does not count; the
/// reader reads again without variations to say the same.
fn walk_piece(text: &[u8], max_ply: Option<u32>) -> PieceGames<PreparedGame> {
    let mut games = walk_or_read_piece(text, max_ply);
    chunk_piece(&mut games);
    games
}

/// [`walk_piece`]'s games, their moves not yet in a chunk.
fn walk_or_read_piece(text: &[u8], max_ply: Option<u32>) -> PieceGames<PreparedGame> {
    let blank = |bytes: &[u8]| bytes.iter().all(u8::is_ascii_whitespace);
    let by_reader = || {
        let main_lines = ReadOptions { variations: false, ..ReadOptions::default() };
        read_piece(text, main_lines, |game| PreparedGame::new(&game, max_ply))
    };
    // Room for the games of a piece of ordinary games (600-900 bytes each).
    let mut games = Vec::with_capacity(text.len() / 512);
    let mut end = 0;
    let mut walk = PgnWalk::new(text, WalkOptions::default());
    for item in walk.by_ref() {
        let Ok(mut game) = item else { return by_reader() };
        if !blank(&text[end..game.offset as usize]) {
            return by_reader();
        }
        end = (game.offset + game.length) as usize;
        let prepared = PreparedGame::walked(&mut game, max_ply);
        games.push(Ok((prepared, game.diagnostics)));
    }
    if !blank(&text[end..]) {
        return by_reader();
    }
    PieceGames { games, ends_in_comment: walk.ended_in_comment() }
}

/// Accumulates games into a tree file, within [`TreeOptions::memory`].
pub struct TreeBuilder {
    options: TreeOptions,
    runs: RunBuilder<KEY_BYTES>,
    summary: TreeSummary,
}

impl TreeBuilder {
    /// A builder with nothing in it.
    pub fn new(options: TreeOptions) -> io::Result<TreeBuilder> {
        let runs = RunBuilder::new(options.memory, &options.temp_dir)?;
        Ok(TreeBuilder { options, runs, summary: TreeSummary::default() })
    }

    /// What it did so far.
    pub fn summary(&self) -> &TreeSummary {
        &self.summary
    }

    /// Counts every game of `source`, read on all rayon threads, in file order; `name` is how
    /// the tree names the source.
    pub fn add_source(&mut self, source: &Source, name: &str) -> io::Result<()> {
        self.runs.start_source(name);
        let max_ply = self.options.max_ply;
        let mut number = 0;
        let add = |item: ReadItem<PreparedGame>| {
            number += 1;
            match item {
                Ok((game, found)) => {
                    if let Some(lost) = found.iter().find(|d| d.is_error()) {
                        self.summary.games_cut += 1;
                        self.summary.problem(format!("{name}: game {number}: {}", lost.message));
                    }
                    self.add_prepared(game, number, name)
                }
                Err(e) => {
                    self.summary.games_unreadable += 1;
                    self.summary.problem(format!("{name}: game {number}: {e}"));
                    Ok(())
                }
            }
        };
        match source {
            // PGN is walked, as a book build walks it: the same games, numbers and tree.
            Source::Pgn { .. } => source.read_pgn(PGN_PIECE, |text| walk_piece(text, max_ply), add),
            Source::Scid(_) | Source::JsonLines { .. } => {
                source.read_with_diagnostics(|game| PreparedGame::new(&game, max_ply), add)
            }
        }
    }

    /// Counts the games of `source` (input number `input`, for [`Duplicates`]) that
    /// `selection` keeps, minus those `duplicates` removes (`--dedup`), as `select` reads them
    /// ([`select_from`]): each game keeps its number in `source`. What reading found, unreadable
    /// games included, goes to `diagnostics`. Games `duplicates` holds to the end (`--twins`,
    /// `--contained`) are not counted: give it rules that hold none.
    pub fn add_selected(
        &mut self,
        source: &Source,
        input: usize,
        name: &str,
        selection: &Selection,
        duplicates: &mut Duplicates<PreparedGame>,
        diagnostics: &mut (impl DiagnosticSink + Send),
    ) -> Result<SelectSummary, GamesError> {
        self.runs.start_source(name);
        let max_ply = self.options.max_ply;
        let temp_dir = self.options.temp_dir.clone();
        let io = move |source| GamesError::Io { path: temp_dir.clone(), source };
        select_from(
            source,
            input,
            selection,
            |game| PreparedGame::new(game, max_ply),
            duplicates,
            diagnostics,
            |_| {},
            |at, prepared, _| self.add_prepared(prepared, at.number, name).map_err(&io),
        )
    }

    /// Counts a game made ready by [`PreparedGame::new`]; `number` is its number in its source
    /// (from 1), `name` the source's.
    fn add_prepared(&mut self, mut prepared: PreparedGame, number: u64, name: &str) -> io::Result<()> {
        // A piece's chunk comes with its first game, before any of its games is numbered.
        if let Some(chunk) = prepared.chunk.take() {
            self.runs.add_chunk(chunk)?;
        }
        let moves = match std::mem::replace(&mut prepared.moves, Ok(Vec::new())) {
            Ok(moves) => moves,
            Err(Leftout::Chess960) => {
                self.summary.games_chess960 += 1;
                self.summary
                    .problem(format!("{name}: game {number}: Chess960 left out (the tree holds standard chess)"));
                return Ok(());
            }
            Err(Leftout::InvalidStart) => {
                self.summary.games_invalid_start += 1;
                self.summary.problem(format!("{name}: game {number}: the start position is not legal chess"));
                return Ok(());
            }
        };
        let mut record = Vec::with_capacity(prepared.details.len() + 5);
        write_varint(&mut record, number)?;
        record.extend_from_slice(&prepared.details);
        let id = self.runs.add_game(&record)?;
        self.summary.games_added += 1;
        self.summary.moves_added += prepared.plies as u64;
        let played_by = prepared.played_by(id);
        for (key, code) in moves {
            self.runs.push(key.0, Played { code, ..*played_by.get(key.turn()) })?;
        }
        Ok(())
    }

    /// Writes the tree to `out` and gives it back with the file's footer and what was done.
    pub fn finish<W: Write + Send>(self, out: W) -> io::Result<(W, Footer, TreeSummary)> {
        let mut summary = self.summary;
        summary.runs = self.runs.runs();
        let (out, footer) = self.runs.finish(out, GAME)?;
        Ok((out, footer, summary))
    }
}

/// Builds the tree of the games of `paths` (PGN, SCID 3/4/5, JSON Lines), in that order, into
/// `out`; each source is named in the tree as its path is written.
pub fn build<W: Write + Send>(
    paths: &[&Path],
    options: TreeOptions,
    out: W,
) -> Result<(W, Footer, TreeSummary), GamesError> {
    let mut builder =
        TreeBuilder::new(options).map_err(|source| GamesError::Io { path: PathBuf::from("."), source })?;
    for path in paths {
        let io = |source| GamesError::Io { path: path.to_path_buf(), source };
        let source = Source::open(path)?;
        builder.add_source(&source, &path.display().to_string()).map_err(io)?;
    }
    builder.finish(out).map_err(|source| GamesError::Io { path: PathBuf::from("<output>"), source })
}
