//! Building a book from games (spec 10): which positions and moves a game adds, W/D/L from the
//! player to move, game references, the 682-byte limit, links between book positions.

use std::borrow::Cow;
use std::collections::{HashMap, HashSet};
use std::hash::{BuildHasherDefault, Hasher};
use std::io::Read;
use std::ops::ControlFlow;
use std::path::Path;
use std::sync::{Mutex, PoisonError};

use rayon::prelude::*;
use shakmaty::{CastlingMode, Color, Move, Position, Role};

use super::conventions::MAX_ELEMENT_SIZE;
use super::element::Element;
use super::error::KvetkaError;
use super::files::BookFiles;
use super::key::{self, key_of};
use super::ksf::{GameRecord, SOURCE_PGN, Source, Sources};
use super::moves::{self, encode_move};
use super::record::{NO_MOVE, Outcome, Piece, Tallies, Tally, sort_pieces};
use super::text::encode_ansi;
use super::write::{BlockPacker, EncodedElements, WriteOptions};
use super::{Book, Header, Key};
use crate::boardcode::{Normalization, Normalized};
use crate::book::engine;
use crate::game::{Game, GameResult};
use crate::pgn::{PgnReader, PgnWalk, ReadOptions, WalkOptions, WalkedGame, walk_pieces};
use crate::text::Text;
use crate::view::PositionView;
use tabiya_io::{Codepage, Diagnostic, Transaction};

/// A hasher for keys: their bytes are already well mixed by the board code.
#[derive(Default)]
pub(crate) struct KeyHasher(u64);

impl Hasher for KeyHasher {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        for chunk in bytes.chunks(8) {
            let mut word = [0u8; 8];
            word[..chunk.len()].copy_from_slice(chunk);
            self.0 = (self.0.rotate_left(23) ^ u64::from_le_bytes(word)).wrapping_mul(0x9e37_79b9_7f4a_7c15);
        }
    }
}

/// Ranges of keys merged per thread (see [`Builder::each_element`]).
const RANGES_PER_THREAD: usize = 8;

pub(crate) type KeyMap<V> = HashMap<Key, V, BuildHasherDefault<KeyHasher>>;
pub(crate) type KeySet = HashSet<Key, BuildHasherDefault<KeyHasher>>;

/// What a build did, and what it had to leave out (spec 10.5, 10.6).
#[derive(Debug, Clone, Default, PartialEq, Eq, serde::Serialize)]
pub struct BuildReport {
    /// Games read.
    pub games_read: u64,
    /// Games whose moves went into the book.
    pub games_added: u64,
    /// Games below an Elo threshold of the header.
    pub games_filtered: u64,
    /// Games that could not be read (PGN syntax, damaged SCID records).
    pub games_unreadable: u64,
    /// PGN games added up to an illegal or ambiguous move of their main line (within the
    /// move limit): the moves after it are not in the book.
    pub games_cut: u64,
    /// Chess960 games: Kvetka books hold standard chess only.
    pub games_chess960: u64,
    /// Games with result `*`: positions and moves, no statistics.
    pub games_without_result: u64,
    /// Positions whose code needs more than 176 bits (the game stops before them).
    pub positions_too_long: u64,
    /// Under-promotions (the game stops before them).
    pub moves_underpromotion: u64,
    /// A third knight, bishop or rook or a fourth queen moving; null moves.
    pub moves_without_code: u64,
    /// Moves added by `links` between book positions.
    pub link_moves: u64,
    /// Game links dropped to keep elements within 682 bytes.
    pub links_dropped: u64,
    /// Comments dropped because the element did not fit even without links.
    pub comments_dropped: u64,
    /// Player names of game references that Windows-1251 cannot hold, written with their
    /// accents taken off or `?` (the `.ksf` keeps ANSI names).
    pub names_altered: u64,
    /// The first few of them: the name, what was written, and the game.
    pub altered_names: Vec<String>,
    /// Positions (elements) written.
    pub positions: u64,
    /// 2048-byte blocks of the book written.
    pub blocks: u64,
}

impl BuildReport {
    fn add(&mut self, other: &BuildReport) {
        let pairs = [
            (&mut self.games_read, other.games_read),
            (&mut self.games_added, other.games_added),
            (&mut self.games_filtered, other.games_filtered),
            (&mut self.games_unreadable, other.games_unreadable),
            (&mut self.games_cut, other.games_cut),
            (&mut self.games_chess960, other.games_chess960),
            (&mut self.games_without_result, other.games_without_result),
            (&mut self.positions_too_long, other.positions_too_long),
            (&mut self.moves_underpromotion, other.moves_underpromotion),
            (&mut self.moves_without_code, other.moves_without_code),
            (&mut self.link_moves, other.link_moves),
            (&mut self.links_dropped, other.links_dropped),
            (&mut self.comments_dropped, other.comments_dropped),
            (&mut self.names_altered, other.names_altered),
            (&mut self.positions, other.positions),
            (&mut self.blocks, other.blocks),
        ];
        for (mine, theirs) in pairs {
            *mine += theirs;
        }
        let room = ALTERED_NAMES_KEPT.saturating_sub(self.altered_names.len());
        self.altered_names.extend(other.altered_names.iter().take(room).cloned());
    }
}

/// How many altered names [`BuildReport::altered_names`] lists.
const ALTERED_NAMES_KEPT: usize = 5;

/// Accumulates games into positions; [`Builder::finish`] makes the book, [`Builder::write`]
/// writes it without holding it in memory.
#[derive(Debug)]
pub struct Builder {
    header: Header,
    /// Positions met, as records per run of games (spec 10); see [`super::record`].
    pieces: Vec<Piece>,
    sources: Vec<Source>,
    report: BuildReport,
}

/// Where a game is, for the `.ksf` (used when the header's element_type bit 0 is set).
#[derive(Debug, Clone, Copy)]
pub struct GamePlace {
    /// Byte offset of the game in its PGN file.
    pub offset: u32,
    /// Length of the game's text in bytes.
    pub length: u32,
}

/// A PGN file being added, read in pieces: how to walk its text, and what each piece's
/// builder starts from.
struct PgnSource {
    walk: WalkOptions,
    header: Header,
    /// The file's address, when the book keeps references to its games.
    address: Option<String>,
}

impl PgnSource {
    /// A piece of the file's text made into a builder of its own, its records sorted (on the
    /// thread that read them, while the other pieces may still be read).
    fn piece(&self, games: &mut PgnWalk<'_>) -> Result<Builder, KvetkaError> {
        let mut part = Builder::new(self.header.clone());
        if let Some(address) = &self.address {
            part.add_source(address.clone())?;
        }
        for game in games {
            match game {
                Ok(game) => part.add_walked(game)?,
                Err(_) => part.report.games_unreadable += 1,
            }
        }
        sort_pieces(&mut part.pieces);
        Ok(part)
    }
}

/// A game being added: the position keyed last waits with the move played from it until the
/// next position is known to fit in a key (spec 10.5: otherwise that move is not stored).
struct GameWalk {
    game: u32,
    result: GameResult,
    /// The key words, outcome and repeat mark of the position keyed last, and the move
    /// played from it.
    open: Option<([u64; 3], Outcome, bool, u8)>,
    /// The keys met since the last capture or pawn move: a game can meet a key again only
    /// among these (see [`GameWalk::visit`]).
    reversible: Reversible,
}

/// The keys of a game since its last capture or pawn move: a short list, searched in turn,
/// until a long run of such moves makes it a set (a game of thousands of plies without one
/// must not cost their square).
#[derive(Debug, Default)]
struct Reversible {
    list: Vec<[u64; 3]>,
    /// One bit per key of the list, chosen by the key's bits: a key whose bit is clear is not in
    /// the list, and most keys are met once, so the list is rarely searched.
    filter: u64,
    set: HashSet<[u64; 3]>,
}

impl Reversible {
    const LONGEST_LIST: usize = 64;

    /// Adds a key; whether it was there already. Inlined into the builders' loop: a call for
    /// every position cost more than the filter's few instructions.
    #[inline(always)]
    fn insert(&mut self, words: [u64; 3]) -> bool {
        if self.list.len() < Self::LONGEST_LIST {
            let mixed = (words[0] ^ words[1].rotate_left(21) ^ words[2]).wrapping_mul(0x9e37_79b9_7f4a_7c15);
            let bit = 1 << (mixed >> 58);
            let met = self.filter & bit != 0 && self.list.contains(&words);
            self.filter |= bit;
            self.list.push(words);
            return met;
        }
        if self.set.is_empty() {
            self.set.extend(self.list.iter().copied());
        }
        !self.set.insert(words)
    }

    fn clear(&mut self) {
        self.list.clear();
        self.filter = 0;
        self.set.clear();
    }
}

impl GameWalk {
    fn new(game: u32, result: GameResult) -> GameWalk {
        GameWalk { game, result, open: None, reversible: Reversible::default() }
    }

    fn outcome(&self, turn: Color) -> Outcome {
        match (self.result, turn) {
            (GameResult::Draw, _) => Outcome::Draw,
            (GameResult::WhiteWins, Color::White) | (GameResult::BlackWins, Color::Black) => Outcome::Win,
            (GameResult::WhiteWins, Color::Black) | (GameResult::BlackWins, Color::White) => Outcome::Loss,
            (GameResult::Unknown, _) => Outcome::Unknown,
        }
    }

    /// Keys `pos`, which the waiting move led to; `None` (counted) when it does not fit.
    fn reach(&mut self, piece: &mut Piece, report: &mut BuildReport, pos: &impl PositionView) -> Option<Normalization> {
        let Ok((words, normalization)) = key::encode_words(&mut piece.coder, pos) else {
            report.positions_too_long += 1;
            return None;
        };
        if let Some((from, outcome, repeat, code)) = self.open.take() {
            piece.push(&from, code, outcome, false, repeat, self.game);
        }
        let repeat = self.reversible.insert(words);
        self.open = Some((words, self.outcome(pos.turn()), repeat, NO_MOVE));
        Some(normalization)
    }

    /// The position before a move and the move (`None`: a null move). `Break` ends the game.
    fn visit(
        &mut self,
        piece: &mut Piece,
        report: &mut BuildReport,
        pos: &impl PositionView,
        mv: Option<&Move>,
    ) -> ControlFlow<()> {
        let Some(normalization) = self.reach(piece, report, pos) else { return ControlFlow::Break(()) };
        let Some(mv) = mv else {
            report.moves_without_code += 1;
            return ControlFlow::Break(());
        };
        let Some(code) = normalization.shape_of(pos, mv).and_then(moves::code) else {
            if mv.promotion().is_some() {
                report.moves_underpromotion += 1;
            } else {
                report.moves_without_code += 1;
            }
            return ControlFlow::Break(());
        };
        if let Some(open) = &mut self.open {
            open.3 = code;
        }
        // Equal keys have the same pieces and, counting ranks from each side's own back rank,
        // the same pawn ranks (a flipped position included): after a capture or a pawn move,
        // which lose a piece or advance a pawn for good, no earlier key comes back.
        if mv.is_capture() || mv.role() == Role::Pawn {
            self.reversible.clear();
        }
        ControlFlow::Continue(())
    }

    /// The position after the last move played, unless `visit` stopped the game: the last
    /// position keyed is the game's last stored position (its move, if any, is dropped).
    fn end(mut self, piece: &mut Piece, report: &mut BuildReport, last: &impl PositionView, stopped: bool) {
        if !stopped {
            self.reach(piece, report, last);
        }
        if let Some((words, outcome, repeat, _)) = self.open {
            piece.push(&words, NO_MOVE, outcome, true, repeat, self.game);
        }
    }
}

impl Builder {
    /// A builder for a book with `header` (its Elo thresholds, plies and flags apply).
    pub fn new(header: Header) -> Builder {
        Builder { header, pieces: Vec::new(), sources: Vec::new(), report: BuildReport::default() }
    }

    /// What the builder did so far.
    pub fn report(&self) -> &BuildReport {
        &self.report
    }

    /// Starts a new source (a PGN file); the games added next belong to it.
    pub fn add_source(&mut self, address: String) -> Result<(), KvetkaError> {
        if self.sources.len() > usize::from(u16::MAX) {
            return Err(KvetkaError::unrepresentable("more than 65,536 sources"));
        }
        self.sources.push(Source { source_type: SOURCE_PGN, is_bad: 0, address, games: Vec::new() });
        self.pieces.push(Piece::new((self.sources.len() - 1) as u16, self.header.references()));
        Ok(())
    }

    /// Counts a game and, unless it is left out (Chess960, Elo filters), records it in the
    /// `.ksf` and numbers it. `tag` gives the game's tags.
    fn start_game<'t>(
        &mut self,
        chess960: bool,
        result: GameResult,
        tag: &dyn Fn(&str) -> Option<Cow<'t, Text>>,
        place: GamePlace,
    ) -> Result<Option<GameWalk>, KvetkaError> {
        self.report.games_read += 1;
        if chess960 {
            self.report.games_chess960 += 1;
            return Ok(None);
        }
        // The header's Elo thresholds (spec 10.1; unknown Elo = 0), the rule of every book.
        if !self.header.elo_filter().admits_tags(tag) {
            self.report.games_filtered += 1;
            return Ok(None);
        }
        // The .ksf keeps ratings in 16 bits.
        let elo = |name| crate::text::rating_16(tag(name).as_deref());
        let (white_elo, black_elo) = (elo("WhiteElo"), elo("BlackElo"));
        if self.header.references() {
            let Some(source) = self.sources.last_mut() else {
                return Err(KvetkaError::unrepresentable("a game reference without a source"));
            };
            let report = &mut self.report;
            let mut name = |name: &str| {
                // Text that is not UTF-8 is read as Windows-1252, the likeliest code page of old
                // PGN files, before it is written in the .ksf's Windows-1251.
                let text = tag(name)
                    .map(|t| match t.to_str() {
                        Some(text) => text.to_owned(),
                        None => Codepage::Windows1252.decode(t.as_bytes()).into_owned(),
                    })
                    .unwrap_or_default();
                let (bytes, exact) = encode_ansi(&text);
                if !exact {
                    report.names_altered += 1;
                    if report.altered_names.len() < ALTERED_NAMES_KEPT {
                        report.altered_names.push(format!(
                            "{}: the game at byte {}: {name} {text:?} written as {:?}",
                            source.address,
                            place.offset,
                            super::text::decode_ansi(&bytes)
                        ));
                    }
                }
                bytes
            };
            let record = GameRecord {
                address: place.offset,
                length: place.length,
                white: name("White"),
                black: name("Black"),
                white_elo,
                black_elo,
                result: match result {
                    GameResult::BlackWins => 0,
                    GameResult::WhiteWins => 1,
                    GameResult::Draw => 2,
                    GameResult::Unknown => 3,
                },
            };
            source.games.push(record);
        }
        if self.pieces.is_empty() {
            self.pieces.push(Piece::new(0, self.header.references()));
        }
        let piece = self.pieces.last_mut().expect("a piece");
        let game = piece.games;
        piece.games += 1;
        Ok(Some(GameWalk::new(game, result)))
    }

    /// A started game whose start position is known: counted as added.
    fn count_added(&mut self, result: GameResult) {
        self.report.games_added += 1;
        if result == GameResult::Unknown {
            self.report.games_without_result += 1;
        }
    }

    /// Adds one game. `place` is where it is in the current source (needed for references).
    pub fn add_game(&mut self, game: &Game, place: GamePlace) -> Result<(), KvetkaError> {
        let tag = |name: &str| game.tag(name).map(Cow::Borrowed);
        let chess960 = game.castling_mode == CastlingMode::Chess960;
        let Some(mut walk) = self.start_game(chess960, game.result, &tag, place)? else { return Ok(()) };
        let Ok(mut pos) = game.start_position() else {
            self.report.games_unreadable += 1;
            return Ok(());
        };
        self.count_added(game.result);
        let plies = if self.header.max_move == 0xff { usize::MAX } else { usize::from(self.header.max_move) };
        let (piece, report) = (self.pieces.last_mut().expect("a piece"), &mut self.report);
        let mut stopped = false;
        for node in game.moves.nodes.iter().take(plies) {
            if walk.visit(piece, report, &pos, node.mv.as_ref()).is_break() {
                stopped = true;
                break;
            }
            if let Some(mv) = node.mv {
                pos.play_unchecked(mv);
            }
        }
        walk.end(piece, report, &pos, stopped);
        Ok(())
    }

    /// Adds games read one by one (a SCID database through [`crate::games::open`]); an `Err`
    /// item counts as an unreadable game. A `.ksf` reference names a PGN file and the game's
    /// byte offset in it (the source types are PGN file, web page and ChessBase file: none is a
    /// SCID database), so a book that keeps references refuses these games rather than store
    /// offsets that point nowhere.
    pub fn add_games<E>(&mut self, games: impl IntoIterator<Item = Result<Game, E>>) -> Result<(), KvetkaError> {
        if self.header.references() {
            return Err(KvetkaError::unrepresentable("game references to games that are not in a PGN file"));
        }
        for game in games {
            match game {
                Ok(game) => self.add_game(&game, GamePlace { offset: 0, length: 0 })?,
                Err(_) => self.report.games_unreadable += 1,
            }
        }
        Ok(())
    }

    /// Adds every game of a PGN file as a new source (its full path). The file is read in
    /// parallel, in pieces that start at a game, and the pieces are combined in file order, so
    /// the book is the same as when read in one piece.
    pub fn add_pgn(&mut self, path: &Path, bytes: &[u8]) -> Result<(), KvetkaError> {
        self.add_pgn_in_pieces(path, bytes, rayon::current_num_threads())
    }

    /// Adds every game of PGN text read from a stream (a decompressed file, a pipe) as
    /// [`Builder::add_pgn`] adds a file's text, the same book: `input` is read a piece at a
    /// time on this thread while the pieces read are walked on the rayon threads, so the text
    /// is never held whole. `path` names the source and the errors.
    pub fn add_pgn_stream(&mut self, path: &Path, input: &mut dyn Read) -> Result<(), KvetkaError> {
        self.add_pgn_stream_in_pieces(path, input, engine::STREAM_PIECE)
    }

    /// [`Builder::add_pgn_stream`], pieces of about `piece` bytes.
    fn add_pgn_stream_in_pieces(&mut self, path: &Path, input: &mut dyn Read, piece: usize) -> Result<(), KvetkaError> {
        let source = self.start_pgn(path)?;
        let parts = engine::walk_stream(input, &source.walk, piece, |games| source.piece(games));
        self.absorb_all(parts.map_err(|e| KvetkaError::io(path, e))?)
    }

    fn add_pgn_in_pieces(&mut self, path: &Path, bytes: &[u8], pieces: usize) -> Result<(), KvetkaError> {
        let source = self.start_pgn(path)?;
        let parts = walk_pieces(bytes, &source.walk, pieces, |games| source.piece(games));
        self.absorb_all(parts)
    }

    /// Starts the PGN file at `path` as a new source when the book keeps references.
    fn start_pgn(&mut self, path: &Path) -> Result<PgnSource, KvetkaError> {
        let address = std::fs::canonicalize(path).unwrap_or_else(|_| path.to_path_buf()).display().to_string();
        let address = self.header.references().then_some(address);
        if let Some(address) = &address {
            self.add_source(address.clone())?;
        }
        let max_plies = if self.header.max_move == 0xff { u32::MAX } else { u32::from(self.header.max_move) };
        let walk = WalkOptions { max_plies, file: Some(path.to_path_buf()) };
        Ok(PgnSource { walk, header: self.header.clone(), address })
    }

    /// Absorbs the builders of a source's pieces, in text order.
    fn absorb_all(&mut self, parts: Vec<Result<Builder, KvetkaError>>) -> Result<(), KvetkaError> {
        for part in parts {
            self.absorb(part?);
        }
        Ok(())
    }

    /// Adds one game of a PGN walk (its place in the file is known).
    fn add_walked(&mut self, mut game: WalkedGame<'_>) -> Result<(), KvetkaError> {
        let place = place(game.offset, game.offset + game.length);
        let chess960 = game.castling_mode == CastlingMode::Chess960;
        let started = self.start_game(chess960, game.result, &|name| game.tag(name), place)?;
        let Some(mut walk) = started else { return Ok(()) };
        self.count_added(game.result);
        let (piece, report) = (self.pieces.last_mut().expect("a piece"), &mut self.report);
        let played = game.play(|pos, mv| walk.visit(piece, report, pos, mv.as_ref()));
        walk.end(piece, report, &played.position, played.stopped);
        report.games_cut += u64::from(game.diagnostics.iter().any(Diagnostic::is_error));
        Ok(())
    }

    /// Adds what `part` collected from the games that follow this builder's games in the
    /// current source.
    fn absorb(&mut self, part: Builder) {
        let source = self.sources.len().saturating_sub(1) as u16;
        let mut first_game = self.pieces.iter().filter(|p| p.source == source).map(|p| p.games).sum::<u32>();
        if let (Some(mine), Some(theirs)) = (self.sources.last_mut(), part.sources.into_iter().next()) {
            mine.games.extend(theirs.games);
        }
        for mut piece in part.pieces {
            (piece.source, piece.first_game) = (source, first_game);
            first_game += piece.games;
            self.pieces.push(piece);
        }
        self.report.add(&part.report);
    }

    /// Hands every element of the book to `each`, in key order: statistics and moves from the
    /// games, references when the header keeps them, comments from `names`, cut to 682 bytes,
    /// then moves between book positions when the header asks for links. The keys are cut into
    /// ranges merged in parallel by the book engine ([`crate::book::engine`]), each into a `T`
    /// from `start`; `consume` takes the `T`s in key order, each as soon as it and those before
    /// it are done, so that writing the book goes on while the ranges after are merged.
    fn each_element<T: Send>(
        &mut self,
        names: Option<&OpeningNames>,
        start: impl Fn() -> T + Sync,
        each: impl Fn(&mut T, &Element) -> Result<(), KvetkaError> + Sync,
        consume: impl FnMut(T) -> Result<(), KvetkaError> + Send,
    ) -> Result<(), KvetkaError> {
        let references = self.header.references();
        let (element_type, links) = (self.header.element_type, self.header.links != 0);
        let mut pieces = std::mem::take(&mut self.pieces);
        sort_pieces(&mut pieces);
        // Many more ranges than threads: the last range, which is written after all the
        // others are merged, is small.
        let ranges = Tallies::new(&pieces).split(RANGES_PER_THREAD * rayon::current_num_threads());
        let keys: Vec<Key> =
            if links { ranges.par_iter().cloned().flat_map_iter(Tallies::keys).collect() } else { Vec::new() };
        let merge = |mut tallies: Tallies<'_>| {
            let (mut out, mut report) = (start(), BuildReport::default());
            let mut tally = Tally::default();
            let mut e = Element::default();
            while tallies.next_into(&mut tally) {
                (e.key, e.wins, e.draws, e.losses) = (tally.key, tally.wins, tally.draws, tally.losses);
                tally.codes(&mut e.moves);
                (e.flags, e.some_source, e.comment) = (0, None, None);
                if references {
                    e.set_some_source(Some(tally.first_game));
                    e.set_game_links(tally.last_of.clone());
                }
                if let Some(name) = names.and_then(|n| n.get(&tally.key)) {
                    e.set_comment(Some(name.clone()));
                }
                // Only references and comments make an element long.
                if references || e.comment.is_some() {
                    fit(&mut e, element_type, &mut report);
                }
                if links {
                    report.link_moves += add_links(std::slice::from_mut(&mut e), &|k| keys.binary_search(k).is_ok());
                }
                report.positions += 1;
                each(&mut out, &e)?;
            }
            Ok((out, report))
        };
        let mut writer = Writer { consume, report: BuildReport::default(), error: None };
        engine::in_key_order(ranges, merge, |part| writer.take(part));
        // The records (tens of megabytes) are freed by another thread while this one writes.
        rayon::spawn(move || drop(pieces));
        if let Some(error) = writer.error {
            return Err(error);
        }
        self.report.add(&writer.report);
        Ok(())
    }

    /// The book: elements in key order, greedy blocks, comments from `names`, links if the
    /// header asks for them, the `.ksf` when references are kept.
    pub fn finish(mut self, names: Option<&OpeningNames>) -> Result<(Book, BuildReport), KvetkaError> {
        let mut elements = Vec::new();
        self.each_element(
            names,
            Vec::new,
            |part, e| {
                part.push(e.clone());
                Ok(())
            },
            |part| {
                elements.extend(part);
                Ok(())
            },
        )?;
        let mut book = Book::from_elements(self.header, elements)?;
        self.report.blocks = book.blocks.len() as u64;
        if book.header.references() {
            book.sources = Some(Sources { sources: self.sources });
        }
        Ok((book, self.report))
    }

    /// Writes the book [`Builder::finish`] would make to `path` (see [`Book::write`]), packing
    /// the elements into blocks and writing them as they come instead of holding the book.
    pub fn write(
        self,
        names: Option<&OpeningNames>,
        path: &Path,
        options: &WriteOptions,
    ) -> Result<BuildReport, KvetkaError> {
        self.write_in(names, BookFiles::new(path).begin()?, options)
    }

    /// Writes the book as [`Builder::write`] does, under `transaction` (begun by
    /// [`BookFiles::begin`] before deciding to write a new book).
    pub fn write_in(
        mut self,
        names: Option<&OpeningNames>,
        transaction: Transaction,
        options: &WriteOptions,
    ) -> Result<BuildReport, KvetkaError> {
        let element_type = self.header.element_type;
        let mut blocks = BlockPacker::create(transaction, &self.header)?;
        // The ranges' encoded elements, once packed, hold the ranges merged after: memory used
        // again is not fresh pages for the kernel to clear (a third of a build's system time).
        let spare: Mutex<Vec<EncodedElements>> = Mutex::new(Vec::new());
        let spare = || spare.lock().unwrap_or_else(PoisonError::into_inner);
        self.each_element(
            names,
            || spare().pop().unwrap_or_default(),
            |out, e| out.push(e, element_type),
            |mut part: EncodedElements| {
                blocks.push_all(&part)?;
                part.clear();
                spare().push(part);
                Ok(())
            },
        )?;
        self.report.blocks = blocks.len() as u64;
        let sources = self.header.references().then(|| Sources { sources: std::mem::take(&mut self.sources) });
        blocks.commit(sources.as_ref(), options)?;
        Ok(self.report)
    }
}

/// What takes the merged ranges in key order, and what it reported; after an error it keeps
/// the first and drops what follows.
struct Writer<C> {
    consume: C,
    report: BuildReport,
    error: Option<KvetkaError>,
}

impl<C> Writer<C> {
    fn take<T>(&mut self, part: Result<(T, BuildReport), KvetkaError>)
    where
        C: FnMut(T) -> Result<(), KvetkaError>,
    {
        if self.error.is_some() {
            return;
        }
        let result = part.and_then(|(out, report)| {
            self.report.add(&report);
            (self.consume)(out)
        });
        if let Err(error) = result {
            self.error = Some(error);
        }
    }
}

fn place(offset: u64, next: u64) -> GamePlace {
    let clamp = |v: u64| u32::try_from(v).unwrap_or(u32::MAX);
    GamePlace { offset: clamp(offset), length: clamp(next.saturating_sub(offset)) }
}

/// Drops game links from the end, then the comment, until the element fits in 682 bytes.
pub(crate) fn fit(e: &mut Element, element_type: u8, report: &mut BuildReport) {
    if e.links().is_empty() && e.comment.is_none() {
        return;
    }
    let mut size = e.encoded_size(element_type);
    while size > MAX_ELEMENT_SIZE && !e.links().is_empty() {
        let mut links = e.links().to_vec();
        // Remove enough at once: each link is 6 bytes.
        let excess = (size - MAX_ELEMENT_SIZE).div_ceil(6).clamp(1, links.len());
        links.truncate(links.len() - excess);
        report.links_dropped += excess as u64;
        e.set_game_links(links);
        size = e.encoded_size(element_type);
    }
    if size > MAX_ELEMENT_SIZE && e.comment.is_some() {
        e.set_comment(None);
        report.comments_dropped += 1;
    }
}

/// `links`: from every position, every legal encodable move that leads to another position
/// of the book (`in_book`, spec 10.4). Returns the number of moves added.
pub(crate) fn add_links(elements: &mut [Element], in_book: &dyn Fn(&Key) -> bool) -> u64 {
    let mut added = 0;
    for e in elements.iter_mut() {
        let Ok(norm) = key::decode(&e.key) else { continue };
        let Ok(pos) = norm.real_position() else { continue };
        let mut set = [0u64; 4];
        for &c in &e.moves {
            set[usize::from(c >> 6)] |= 1 << (c & 63);
        }
        for mv in pos.legal_moves() {
            let Some(code) = encode_move(&norm, &mv) else { continue };
            if set[usize::from(code >> 6)] >> (code & 63) & 1 == 1 {
                continue;
            }
            let mut next = pos.clone();
            next.play_unchecked(mv);
            if key_of(&Normalized::new(&next)).is_ok_and(|k| in_book(&k)) {
                set[usize::from(code >> 6)] |= 1 << (code & 63);
                added += 1;
            }
        }
        let mut codes = std::mem::take(&mut e.moves);
        Tally { moves: set, ..Tally::default() }.codes(&mut codes);
        e.moves = codes;
    }
    added
}

/// Opening names by position, from an ECO file in PGN form (pgn-extract's `eco.pgn`): the
/// position after each line's moves gets `ECO|Opening|Variation` (spec 3.3).
#[derive(Debug, Default)]
pub struct OpeningNames {
    names: KeyMap<String>,
}

impl OpeningNames {
    /// Reads the lines; a position reached by several lines keeps the first line's name.
    pub fn from_pgn(path: &Path, bytes: &[u8]) -> OpeningNames {
        let options = ReadOptions {
            variations: false,
            comments: false,
            file: Some(path.to_path_buf()),
            ..ReadOptions::default()
        };
        let mut names = KeyMap::default();
        for read in PgnReader::with_options(bytes, options).flatten() {
            let game = &read.game;
            let (Some(eco), Some(opening)) = (game.tag("ECO"), game.tag("Opening")) else { continue };
            let mut name = format!("{eco}|{opening}");
            if let Some(variation) = game.tag("Variation").filter(|v| !v.is_empty()) {
                name = format!("{name}|{variation}");
            }
            let Ok(mut pos) = game.start_position() else { continue };
            let mut legal = true;
            for node in &game.moves.nodes {
                match &node.mv {
                    Some(mv) if pos.is_legal(*mv) => pos.play_unchecked(*mv),
                    _ => legal = false,
                }
            }
            if let (true, Ok((key, _))) = (legal, key::encode(&pos)) {
                names.entry(key).or_insert(name);
            }
        }
        OpeningNames { names }
    }

    /// The opening name of a position.
    pub fn get(&self, key: &Key) -> Option<&String> {
        self.names.get(key)
    }

    /// Number of named positions.
    pub fn len(&self) -> usize {
        self.names.len()
    }

    /// No names at all.
    pub fn is_empty(&self) -> bool {
        self.names.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const GAMES: &str = "[Event \"a\"]\n[White \"A\"]\n\n1. e4 e5 2. Nf3 1-0\n\n[Event \"b\"]\n\n1. e4 c5 0-1\n\n\
        [Event \"c\"]\n\n1. d4 d5 1/2-1/2\n\n[Event \"d\"]\n\n1. e4 e5 2. Nc3 *\n\n[Event \"e\"]\n\n1. e4 e5 2. Nf3 0-1\n";

    /// A game that comes back to its start board with the other side to move (the same key):
    /// the position counts once, as White to move, with the moves of both visits.
    #[test]
    fn a_game_counts_a_key_it_meets_twice_once() {
        let pgn = "[FEN \"6k1/8/8/8/8/8/8/6K1 w - - 0 1\"]\n\n1. Kf1 Kh8 2. Kf2 Kg8 3. Kg1 Kh8 1-0\n";
        let mut builder = Builder::new(Header::default());
        builder.add_pgn_in_pieces(Path::new("x.pgn"), pgn.as_bytes(), 1).unwrap();
        let (book, report) = builder.finish(None).unwrap();
        assert_eq!(report.positions, 6);
        let start = key::encode(
            &"6k1/8/8/8/8/8/8/6K1 w - - 0 1"
                .parse::<shakmaty::fen::Fen>()
                .unwrap()
                .into_position(CastlingMode::Standard)
                .unwrap(),
        )
        .unwrap()
        .0;
        let e = book.blocks.iter().flat_map(|b| &b.elements).find(|e| e.key == start).unwrap();
        // Kg1-f1 (x+7) from the first visit, Kg8-h8 (x+1 once flipped) from the second.
        assert_eq!((e.wins, e.draws, e.losses, e.moves.as_slice()), (1, 0, 0, &[0xbf, 0xc0][..]));
    }

    /// Knights shuttling for 200 plies: the start position and three others, met again and
    /// again, count once each (past the list's 64 keys, the set answers).
    #[test]
    fn long_runs_without_captures_or_pawn_moves_count_each_position_once() {
        let shuttle = "Nf3 Nf6 Ng1 Ng8 ".repeat(50);
        let pgn = format!("[White \"A\"]\n\n{shuttle}1/2-1/2\n");
        let mut builder = Builder::new(Header::default());
        builder.add_pgn_in_pieces(Path::new("x.pgn"), pgn.as_bytes(), 1).unwrap();
        let (book, report) = builder.finish(None).unwrap();
        assert_eq!(report.positions, 4);
        let elements: Vec<&Element> = book.blocks.iter().flat_map(|b| &b.elements).collect();
        assert!(elements.iter().all(|e| (e.wins, e.draws, e.losses) == (0, 1, 0)), "{elements:?}");
    }

    #[test]
    fn reading_in_pieces_builds_the_same_book() {
        let header = Header { element_type: 1, ..Header::default() };
        let build = |pieces| {
            let mut b = Builder::new(header.clone());
            b.add_pgn_in_pieces(Path::new("x.pgn"), GAMES.as_bytes(), pieces).unwrap();
            b.finish(None).unwrap()
        };
        let (one, report) = build(1);
        assert_eq!(report.games_added, 5);
        for pieces in [2, 3, 5] {
            assert_eq!(build(pieces), (one.clone(), report.clone()), "{pieces} pieces");
        }
        // From a stream, in pieces of about 1, 30 and 10,000 bytes: the same book, the same
        // game references (offsets count from the stream's start).
        for piece in [1, 30, 10_000] {
            let mut b = Builder::new(header.clone());
            b.add_pgn_stream_in_pieces(Path::new("x.pgn"), &mut GAMES.as_bytes(), piece).unwrap();
            assert_eq!(b.finish(None).unwrap(), (one.clone(), report.clone()), "a stream in pieces of {piece} bytes");
        }
    }

    /// A stream of hundreds of pieces (one game each) merges into the book of one piece: the
    /// same elements, counts and game references.
    #[test]
    fn hundreds_of_pieces_merge_into_the_book_of_one() {
        let games = GAMES.repeat(100);
        let header = Header { element_type: 1, ..Header::default() };
        let mut b = Builder::new(header.clone());
        b.add_pgn_in_pieces(Path::new("x.pgn"), games.as_bytes(), 1).unwrap();
        let (one, report) = b.finish(None).unwrap();
        assert_eq!(report.games_added, 500);
        let mut b = Builder::new(header);
        b.add_pgn_stream_in_pieces(Path::new("x.pgn"), &mut games.as_bytes(), 1).unwrap();
        assert_eq!(b.finish(None).unwrap(), (one, report));
    }
}
