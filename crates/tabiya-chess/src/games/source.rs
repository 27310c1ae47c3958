//! Where games come from: a PGN file, a SCID database or a JSON Lines file, read in order one
//! game at a time ([`Games`]) or on all cores ([`Source`]). PGN and JSON Lines may be
//! compressed (gzip, bzip2, xz, zstd, zip: by their magic bytes) and may be streams (`-`, a
//! FIFO): they are read as they come, decoded on a thread of their own, memory flat.

use std::io::{BufRead, BufReader, Read};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

use rayon::prelude::*;
use tabiya_io::{Access, Diagnostic, FileBytes, Location, ReadPosition, Unit};

use super::{GamesError, SourceFormat, source_format};
use crate::game::Game;
use crate::jsonl;
use crate::pgn::pieces::{PieceInput, Pieces, walk_in_order};
use crate::pgn::read::read_wanted;
use crate::pgn::{PgnError, PgnReader, ReadOptions};

/// An input's data as it comes, decompressed (see [`tabiya_io::compression`]).
type Data = Box<dyn Read + Send>;
use crate::scid::Database;

/// PGN text per piece read on one thread: a few hundred games.
pub(crate) const PGN_PIECE: usize = 256 << 10;
/// SCID games (and JSON Lines lines) per piece.
const SCID_PIECE: usize = 512;

/// The games of one file, in file order, one at a time. Made by [`open`](super::open).
pub enum Games {
    /// A PGN file.
    Pgn(Box<PgnReader<BufReader<Data>>>),
    /// A SCID database; `next` is the number (from 0) of the next game.
    Scid {
        /// The database.
        db: Box<Database>,
        /// The next game's number, from 0.
        next: usize,
    },
    /// A JSON Lines file.
    JsonLines {
        /// The file, for errors.
        path: PathBuf,
        /// Its lines.
        lines: std::io::Lines<BufReader<Data>>,
        /// Lines read so far.
        number: u64,
    },
}

impl Games {
    /// Opens the games of `path` in `format`.
    pub(super) fn open(path: &Path, format: SourceFormat) -> Result<Games, GamesError> {
        let file = || open_data(path);
        Ok(match format {
            SourceFormat::Pgn => Games::Pgn(Box::new(
                PgnReader::with_options(BufReader::with_capacity(1 << 16, file()?), read_options(path)).repairing(),
            )),
            SourceFormat::Scid => Games::Scid { db: Box::new(Database::open(path)?), next: 0 },
            SourceFormat::JsonLines => {
                Games::JsonLines { path: path.into(), lines: BufReader::new(file()?).lines(), number: 0 }
            }
        })
    }
}

impl Iterator for Games {
    type Item = Result<Game, GamesError>;

    fn next(&mut self) -> Option<Self::Item> {
        match self {
            Games::Pgn(reader) => reader.next().map(|r| r.map(|g| g.game).map_err(GamesError::from)),
            Games::Scid { db, next } => {
                let n = *next;
                if n >= db.len() {
                    return None;
                }
                *next += 1;
                Some(db.game(n).map_err(GamesError::from))
            }
            Games::JsonLines { path, lines, number } => {
                let line = match lines.next()? {
                    Ok(line) => line,
                    Err(source) => return Some(Err(GamesError::Io { path: path.clone(), source })),
                };
                *number += 1;
                Some(jsonl::read_game(&line).map_err(|source| GamesError::JsonLines {
                    location: Location::of(Unit::Line, *number).in_file(path),
                    source,
                }))
            }
        }
    }
}

/// The data of `path` (`-` is standard input), decompressed, compressed data decoded on a
/// thread of its own.
pub(super) fn open_data(path: &Path) -> Result<Data, GamesError> {
    open_data_at(path).map(|(data, _)| data)
}

/// [`open_data`], with how far reading it has come.
fn open_data_at(path: &Path) -> Result<(Data, ReadPosition), GamesError> {
    let data = tabiya_io::open_decompressed(path).map_err(|e| games_error(path, e))?;
    let position = data.position();
    Ok((data.decoding_ahead(), position))
}

/// An input that could not be opened as the games of `path`.
fn games_error(path: &Path, e: tabiya_io::Error) -> GamesError {
    match e {
        tabiya_io::Error::Io { path, source } => GamesError::Io { path, source },
        other => GamesError::NotGames { path: path.into(), what: other.to_string() },
    }
}

/// How far reading a PGN source has come, shared with whoever shows it (a progress bar): the
/// bytes of its file (compressed bytes of a compressed file) whose games were handed on, and
/// the file's size (0 while not known, and for a stream).
#[derive(Debug, Clone, Default)]
pub struct ReadProgress(Arc<[AtomicU64; 2]>);

impl ReadProgress {
    /// Bytes done and the total (0: not known).
    pub fn get(&self) -> (u64, u64) {
        (self.0[0].load(Ordering::Relaxed), self.0[1].load(Ordering::Relaxed))
    }

    fn set(&self, done: u64, total: Option<u64>) {
        self.0[0].store(done, Ordering::Relaxed);
        self.0[1].store(total.unwrap_or(0), Ordering::Relaxed);
    }
}

fn read_options(path: &Path) -> ReadOptions {
    ReadOptions { file: Some(path.to_path_buf()), ..ReadOptions::default() }
}

/// A file of games opened for reading on all cores: a PGN file, a SCID database or a JSON
/// Lines file.
pub enum Source {
    /// A PGN file (compressed or not, a stream or not), opened when read.
    Pgn {
        /// The file as named.
        path: PathBuf,
        /// How far reading it has come.
        progress: ReadProgress,
        /// How the file's bytes are brought in when it is a regular file and not compressed:
        /// mapped, its pieces are slices of the map ([`Source::with_access`]); read, each piece
        /// is read into a buffer (the default).
        access: Access,
    },
    /// A SCID database.
    Scid(Box<Database>),
    /// A JSON Lines file.
    JsonLines {
        /// The file as named.
        path: PathBuf,
        /// Its bytes, decompressed.
        text: FileBytes,
    },
}

/// A game read from a source, made into a `T`, with what reading it found (repairs are
/// warnings; moves, comments or variations lost are errors).
pub type ReadItem<T> = Result<(T, Vec<Diagnostic>), GamesError>;

impl Source {
    /// Opens PGN, JSON Lines, or a SCID database named by any of its files or its stem.
    pub fn open(path: &Path) -> Result<Source, GamesError> {
        match source_format(path)? {
            SourceFormat::Pgn => {
                Ok(Source::Pgn { path: path.to_path_buf(), progress: ReadProgress::default(), access: Access::Read })
            }
            SourceFormat::Scid => Ok(Source::Scid(Box::new(Database::open(path)?))),
            SourceFormat::JsonLines => Ok(Source::JsonLines {
                path: path.to_path_buf(),
                text: tabiya_io::read_decompressed(path)
                    .map_err(|e| GamesError::NotGames { path: path.into(), what: e.to_string() })?,
            }),
        }
    }

    /// The source, a PGN file that is a regular file and not compressed brought in by
    /// `access` when it is read: [`Access::Map`] walks slices of its memory map, copying
    /// nothing (the file must then not be truncated while it is read); [`Access::Read`], the
    /// default of [`Source::open`], reads it a piece at a time. Other sources are as they were.
    pub fn with_access(mut self, access: Access) -> Source {
        if let Source::Pgn { access: chosen, .. } = &mut self {
            *chosen = access;
        }
        self
    }

    /// The file the games are read from (a SCID database's index file).
    pub fn path(&self) -> &Path {
        match self {
            Source::Pgn { path, .. } | Source::JsonLines { path, .. } => path,
            Source::Scid(db) => &db.paths.index,
        }
    }

    /// How far reading a PGN source has come (bytes done and the total, see
    /// [`ReadProgress`]); `None` for a SCID database or JSON Lines, whose progress is counted
    /// in games.
    pub fn bytes_read(&self) -> Option<(u64, u64)> {
        match self {
            Source::Pgn { progress, .. } => Some(progress.get()),
            Source::Scid(_) | Source::JsonLines { .. } => None,
        }
    }

    /// What opening the source found (a SCID database's index and name files); the games'
    /// own come with each game.
    pub fn diagnostics(&self) -> &[Diagnostic] {
        match self {
            Source::Scid(db) => &db.diagnostics,
            Source::Pgn { .. } | Source::JsonLines { .. } => &[],
        }
    }

    /// Reads every game on all rayon threads and hands them, each turned into a `T` by `map` on
    /// the thread that read it, to `sink` in file order: the same games, errors and order as
    /// [`open`](super::open) gives, with reading and `map`ping spread over the cores. The file is
    /// cut into pieces that hold whole games (PGN) or runs of game numbers (SCID); a few pieces
    /// per thread are in flight at a time, so memory stays flat. While the pieces of one block of
    /// PGN are read, `sink` takes the games of the block before, on a rayon thread of its own
    /// when there are two or more. `sink`'s error stops the reading. What reading found is left
    /// out; [`Source::read_with_diagnostics`] gives it.
    pub fn read_in_parallel<T: Send, E: Send>(
        &self,
        map: impl Fn(Game) -> T + Sync,
        mut sink: impl FnMut(Result<T, GamesError>) -> Result<(), E> + Send,
    ) -> Result<(), E> {
        self.read_in_pieces(PGN_PIECE, map, |item| sink(item.map(|(t, _)| t)))
    }

    /// [`Source::read_in_parallel`], each game with what reading it found.
    pub fn read_with_diagnostics<T: Send, E: Send>(
        &self,
        map: impl Fn(Game) -> T + Sync,
        sink: impl FnMut(ReadItem<T>) -> Result<(), E> + Send,
    ) -> Result<(), E> {
        self.read_in_pieces(PGN_PIECE, map, sink)
    }

    /// [`Source::read_with_diagnostics`] with PGN pieces of about `pgn_piece` bytes.
    fn read_in_pieces<T: Send, E: Send>(
        &self,
        pgn_piece: usize,
        map: impl Fn(Game) -> T + Sync,
        mut sink: impl FnMut(ReadItem<T>) -> Result<(), E> + Send,
    ) -> Result<(), E> {
        let in_flight = 2 * rayon::current_num_threads();
        match self {
            Source::Pgn { .. } => self.read_pgn(pgn_piece, |text| read_piece(text, ReadOptions::default(), &map), sink),
            Source::Scid(db) => read_numbered(db.len(), in_flight, &mut sink, |n| {
                let mut found = Vec::new();
                let game = db.read_game(n, &mut found)?;
                Ok((map(game), found))
            }),
            Source::JsonLines { path, text } => {
                let lines: Vec<&[u8]> = text.split(|&b| b == b'\n').collect();
                // The text after the last newline is a line only when it is not empty.
                let count = if lines.last().is_some_and(|l| l.is_empty()) { lines.len() - 1 } else { lines.len() };
                read_numbered(count, in_flight, &mut sink, |n| {
                    read_json_line(path, n as u64 + 1, lines[n]).map(|game| (map(game), Vec::new()))
                })
            }
        }
    }
}

/// Reads games `0..count`, each by `read`, in pieces of [`SCID_PIECE`] games on all threads
/// (`in_flight` pieces at a time), and hands them to `sink` in order.
pub(super) fn read_numbered<T: Send, E>(
    count: usize,
    in_flight: usize,
    sink: &mut impl FnMut(ReadItem<T>) -> Result<(), E>,
    read: impl Fn(usize) -> ReadItem<T> + Sync,
) -> Result<(), E> {
    let firsts: Vec<usize> = (0..count).step_by(SCID_PIECE).collect();
    for window in firsts.chunks(in_flight) {
        let pieces: Vec<Vec<ReadItem<T>>> =
            window.par_iter().map(|&first| (first..count.min(first + SCID_PIECE)).map(&read).collect()).collect();
        for game in pieces.into_iter().flatten() {
            sink(game)?;
        }
    }
    Ok(())
}

/// Line `number` (from 1) of a JSON Lines file.
pub(super) fn read_json_line(path: &Path, number: u64, line: &[u8]) -> Result<Game, GamesError> {
    let location = || Location::of(Unit::Line, number).in_file(path);
    let text = std::str::from_utf8(line).map_err(|e| GamesError::JsonLines {
        location: location(),
        source: jsonl::JsonLinesError::Io(std::io::Error::new(std::io::ErrorKind::InvalidData, e)),
    })?;
    jsonl::read_game(text.trim_end_matches('\r'))
        .map_err(|source| GamesError::JsonLines { location: location(), source })
}

/// Every game of a piece of PGN text, each built as `PgnReader` builds it with `options` and made
/// into a `T` by `map`, with what reading it found.
pub(crate) fn read_piece<T>(text: &[u8], options: ReadOptions, map: impl Fn(Game) -> T) -> PieceGames<T> {
    let mut games = Vec::new();
    // The file is named in the diagnostics when they are relocated, not in every game.
    let ends_in_comment = read_wanted(
        text,
        options,
        |_| true,
        |read| {
            games.push(read.map(|read| {
                let read = read.expect("every game is wanted");
                (map(read.game), read.diagnostics)
            }))
        },
    );
    PieceGames { games, ends_in_comment }
}

/// What a piece of PGN text gives: each game that starts in it made into a `T` with what
/// reading it found, or the error that made it unreadable. Offsets and game numbers count from
/// the piece's start (see [`relocate`]).
pub(crate) struct PieceGames<T> {
    /// The games, in order.
    pub games: Vec<Result<(T, Vec<Diagnostic>), PgnError>>,
    /// The piece's text ended inside a `{` comment (see [`PieceInput`]).
    pub ends_in_comment: bool,
}

impl Source {
    /// [`Source::read_in_pieces`] for PGN: the text cut into pieces of about `pgn_piece` bytes
    /// that hold whole games, each read by `read_piece` on a walking thread of
    /// [`crate::pgn::pieces`] (one per rayon thread), the games handed to `sink` in file order
    /// on this thread, their diagnostics and errors located in the file. Nothing for a source
    /// that is not PGN.
    pub(crate) fn read_pgn<T: Send, E>(
        &self,
        pgn_piece: usize,
        read_piece: impl Fn(&[u8]) -> PieceGames<T> + Sync,
        mut sink: impl FnMut(ReadItem<T>) -> Result<(), E>,
    ) -> Result<(), E> {
        let Source::Pgn { path, progress, access } = self else { return Ok(()) };
        let data = match tabiya_io::open_decompressed(path) {
            Ok(data) => data,
            Err(e) => return sink(Err(games_error(path, e))),
        };
        let position = data.position();
        // A regular file read as it is, mapped when the caller asks: its pieces are slices.
        let mut mapped = None;
        if *access == Access::Map && data.compression().is_none() && position.size().is_some() {
            match tabiya_io::read_input_with(path, Access::Map) {
                Ok(bytes) => mapped = Some(bytes),
                Err(e) => return sink(Err(games_error(path, e))),
            }
        }
        let mut file = data.decoding_ahead();
        let pieces = Pieces::new(pgn_piece, rayon::current_num_threads());
        let walk = |text: &[u8], offset: u64| (offset, offset + text.len() as u64, read_piece(text));
        let ends_in_comment = |(_, _, piece): &(u64, u64, PieceGames<T>)| piece.ends_in_comment;
        let (mut games_before, mut failed) = (0u64, None);
        let emit = |(offset, end, piece): (u64, u64, PieceGames<T>)| {
            let count = piece.games.len() as u64;
            for game in piece.games {
                // Locations in a piece count from its start: make them count from the file's.
                let relocate = |location: &mut Location| relocate(location, path, offset, games_before);
                let item = match game {
                    Ok((game, mut found)) => {
                        found.iter_mut().for_each(|d| relocate(&mut d.location));
                        Ok((game, found))
                    }
                    Err(mut e) => {
                        relocate(e.location_mut());
                        Err(GamesError::Pgn(e))
                    }
                };
                if let Err(e) = sink(item) {
                    failed = Some(e);
                    return false;
                }
            }
            games_before += count;
            // Bytes of the file whose games are handed on (a compressed file's decoder is a
            // few pieces ahead).
            progress.set(if mapped.is_some() { end } else { position.taken() }, position.size());
            true
        };
        let read = match &mapped {
            Some(bytes) => walk_in_order(PieceInput::Bytes(bytes, &ends_in_comment), &pieces, walk, emit),
            None => walk_in_order(PieceInput::Stream(&mut file, Some(&ends_in_comment)), &pieces, walk, emit),
        };
        if let Some(e) = failed {
            return Err(e);
        }
        match read {
            Ok(()) => Ok(()),
            Err(source) => sink(Err(GamesError::Io { path: path.into(), source })),
        }
    }
}

/// Moves a location found in a piece of a PGN file to the file at `path`: `offset` bytes and
/// `games` games precede the piece.
pub(super) fn relocate(location: &mut Location, path: &Path, offset: u64, games: u64) {
    location.file = Some(path.to_path_buf());
    if let Some(at) = location.offset.as_mut() {
        *at += offset;
    }
    if let Some(number) = location.number.as_mut() {
        *number += games;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every game with its diagnostics, and every error, as text, in order.
    fn describe(item: ReadItem<Game>) -> String {
        match item {
            Ok((game, found)) => format!("{game:?} {found:?}"),
            Err(e) => format!("error: {e}"),
        }
    }

    /// What reading `path` one game after another gives, diagnostics included.
    fn sequential(path: &Path) -> Vec<String> {
        match super::super::source_format(path).unwrap() {
            SourceFormat::Pgn => {
                let file = BufReader::new(std::fs::File::open(path).unwrap());
                PgnReader::with_options(file, read_options(path))
                    .repairing()
                    .map(|item| describe(item.map(|read| (read.game, read.diagnostics)).map_err(GamesError::from)))
                    .collect()
            }
            SourceFormat::Scid => {
                let db = Database::open(path).unwrap();
                (0..db.len())
                    .map(|n| {
                        let mut found = Vec::new();
                        describe(db.read_game(n, &mut found).map(|game| (game, found)).map_err(GamesError::from))
                    })
                    .collect()
            }
            SourceFormat::JsonLines => Games::open(path, SourceFormat::JsonLines)
                .unwrap()
                .map(|g| describe(g.map(|g| (g, Vec::new()))))
                .collect(),
        }
    }

    /// How a PGN source is read.
    fn access(source: &Source) -> Option<Access> {
        match source {
            Source::Pgn { access, .. } => Some(*access),
            _ => None,
        }
    }

    /// The same games, diagnostics (located in the whole file) and errors, in the same order,
    /// however the file is cut into pieces.
    #[test]
    fn parallel_reading_gives_what_sequential_reading_gives() {
        let files = [
            "pgn/small-varied.pgn",
            "pgn/edge-cases/pgnextract-null-moves.pgn",
            "pgn/edge-cases/pychess-crazyhouse-saturs-jannlee.pgn",
            "pgn/edge-cases/pgnmentor-double-blank-line-crlf.pgn",
            "pgn/edge-cases/pychess-chessbase-empty-line.pgn",
            "pgn/edge-cases/dirty-immortal-games-latin1-crlf.pgn",
            "scid/scidvspc-bases/endings.si4",
        ];
        let dir = tempfile::tempdir().unwrap();
        let mut paths = Vec::new();
        for relative in files {
            let Some(path) = tabiya_testdata::corpus_file(relative) else { return };
            paths.push(path);
        }
        // And JSON Lines, of the SCID database's games.
        let jsonl = dir.path().join("endings.jsonl");
        let text: Vec<u8> = super::super::open(&paths[paths.len() - 1])
            .unwrap()
            .flat_map(|game| {
                let mut line = Vec::new();
                jsonl::push_game(&game.unwrap(), &mut line).unwrap();
                line
            })
            .collect();
        std::fs::write(&jsonl, text).unwrap();
        paths.push(jsonl);
        for path in paths {
            let expected = sequential(&path);
            assert!(!expected.is_empty());
            // Read a piece at a time, and as slices of the file's map; small pieces: many cuts,
            // and games that span blocks.
            for (source, piece) in [Access::Read, Access::Map]
                .into_iter()
                .flat_map(|access| [300, 4096, PGN_PIECE].map(|piece| (access, piece)))
                .map(|(access, piece)| (Source::open(&path).unwrap().with_access(access), piece))
            {
                let mut parallel = Vec::new();
                source
                    .read_in_pieces(
                        piece,
                        |game| game,
                        |item| {
                            parallel.push(describe(item));
                            Ok::<(), ()>(())
                        },
                    )
                    .unwrap();
                assert_eq!(parallel.len(), expected.len(), "{path:?}, pieces of {piece} bytes, {:?}", access(&source));
                assert!(parallel == expected, "{path:?}, pieces of {piece} bytes, {:?}", access(&source));
            }
        }
    }
}
