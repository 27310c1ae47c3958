//! Where games come from: a PGN file, a SCID database or a JSON Lines file, read in order one
//! game at a time ([`Games`]) or on all cores ([`Source`]). PGN and JSON Lines may be
//! compressed (gzip, bzip2, xz, zstd, zip: by their magic bytes) and may be streams (`-`, a
//! FIFO): they are read as they come, decoded on a thread of their own, memory flat.

use std::io::{BufRead, BufReader, Read};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

use rayon::prelude::*;
use tabiya_io::{Diagnostic, FileBytes, Location, ReadPosition, Unit};

use super::{GamesError, SourceFormat, source_format};
use crate::game::Game;
use crate::jsonl;
use crate::pgn::{PgnError, PgnReader, ReadOptions};

/// An input's data as it comes, decompressed (see [`tabiya_io::compression`]).
type Data = Box<dyn Read + Send>;
use crate::scid::Database;

/// PGN text per piece read on one thread: a few hundred games.
const PGN_PIECE: usize = 256 << 10;
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
    let data = tabiya_io::open_decompressed(path).map_err(|e| match e {
        tabiya_io::Error::Io { path, source } => GamesError::Io { path, source },
        other => GamesError::NotGames { path: path.into(), what: other.to_string() },
    })?;
    let position = data.position();
    Ok((data.decoding_ahead(), position))
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
            SourceFormat::Pgn => Ok(Source::Pgn { path: path.to_path_buf(), progress: ReadProgress::default() }),
            SourceFormat::Scid => Ok(Source::Scid(Box::new(Database::open(path)?))),
            SourceFormat::JsonLines => Ok(Source::JsonLines {
                path: path.to_path_buf(),
                text: tabiya_io::read_decompressed(path)
                    .map_err(|e| GamesError::NotGames { path: path.into(), what: e.to_string() })?,
            }),
        }
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
            Source::Pgn { path, progress } => {
                // The file is named in the diagnostics when they are relocated, not in every game.
                let options = ReadOptions::default();
                let read_piece = |text: Vec<u8>| -> PieceRead<T> {
                    let mut reader = PgnReader::from_vec(text, options.clone()).repairing();
                    let games =
                        reader.by_ref().map(|read| read.map(|read| (map(read.game), read.diagnostics))).collect();
                    (games, reader.into_vec())
                };
                read_pgn(path, progress, pgn_piece, in_flight, read_piece, sink)
            }
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

/// What a piece of PGN text gives: each game that starts in it made into a `T` with what
/// reading it found, or the error that made it unreadable; and the piece's buffer, for the
/// next piece. Offsets and game numbers count from the piece's start (see [`relocate`]).
pub(super) type PieceRead<T> = (Vec<Result<(T, Vec<Diagnostic>), PgnError>>, Vec<u8>);

/// [`Source::read_in_pieces`] for PGN: the text of `path` cut into pieces of about
/// `pgn_piece` bytes that hold whole games, each read by `read_piece` on a rayon thread.
pub(super) fn read_pgn<T: Send, E: Send>(
    path: &Path,
    progress: &ReadProgress,
    pgn_piece: usize,
    in_flight: usize,
    read_piece: impl Fn(Vec<u8>) -> PieceRead<T> + Sync,
    mut sink: impl FnMut(ReadItem<T>) -> Result<(), E> + Send,
) -> Result<(), E> {
    // The text is read a piece at a time straight into the piece's own buffer; each piece ends
    // before the last game that starts in it (that game may be unfinished): only that game's
    // text is copied, to open the next piece. The buffers are kept for the pieces after (fresh
    // ones would be fresh pages to fault in).
    let (mut tail, mut tail_offset) = (Vec::new(), 0u64);
    let mut spare: Vec<Vec<u8>> = Vec::new();
    // The games of the pieces before, not yet handed to `sink`.
    let mut read_before: ReadPieces<T> = Vec::new();
    let mut games_before = 0u64;
    let (mut file, position) = match open_data_at(path) {
        Ok(opened) => opened,
        Err(e) => return sink(Err(e)),
    };
    // Where the file stood when the pieces whose games are stored next had been read.
    let mut taken_before = 0;
    let mut end = false;
    loop {
        let mut pieces: Vec<(u64, Vec<u8>)> = Vec::with_capacity(in_flight);
        while pieces.len() < in_flight && !end {
            let mut text = spare.pop().unwrap_or_default();
            text.clear();
            text.append(&mut tail);
            match crate::pgn::read_piece(&mut file, pgn_piece, &mut text, &mut tail) {
                Ok(ended) => end = ended,
                Err(source) => {
                    store(read_before, path, &mut games_before, &mut sink)?;
                    return sink(Err(GamesError::Io { path: path.into(), source }));
                }
            }
            let len = text.len() as u64;
            pieces.push((tail_offset, text));
            tail_offset += len;
        }
        let taken = position.taken();
        let ((read, buffers), stored) = rayon::join(
            || -> (ReadPieces<T>, Vec<Vec<u8>>) {
                pieces
                    .into_par_iter()
                    .map(|(offset, text)| {
                        let (games, buffer) = read_piece(text);
                        ((offset, games), buffer)
                    })
                    .unzip()
            },
            || store(std::mem::take(&mut read_before), path, &mut games_before, &mut sink),
        );
        stored?;
        progress.set(taken_before, position.size());
        taken_before = taken;
        read_before = read;
        spare = buffers;
        if end {
            store(read_before, path, &mut games_before, &mut sink)?;
            progress.set(taken, position.size());
            return Ok(());
        }
    }
}

/// Games read from the pieces of one block, by piece, each with the piece's offset in the file.
type ReadPieces<T> = Vec<(u64, Vec<Result<(T, Vec<Diagnostic>), PgnError>>)>;

/// Hands the games of `pieces` to `sink` in order, their diagnostics and errors located in the
/// file at `path`; `games_before` counts the games of the file before them.
fn store<T, E>(
    pieces: ReadPieces<T>,
    path: &Path,
    games_before: &mut u64,
    sink: &mut impl FnMut(ReadItem<T>) -> Result<(), E>,
) -> Result<(), E> {
    for (piece_offset, games) in pieces {
        let count = games.len() as u64;
        for game in games {
            // Locations in a piece count from its start: make them count from the file's.
            let relocate = |location: &mut Location| relocate(location, path, piece_offset, *games_before);
            sink(match game {
                Ok((game, mut found)) => {
                    for d in &mut found {
                        relocate(&mut d.location);
                    }
                    Ok((game, found))
                }
                Err(mut e) => {
                    relocate(e.location_mut());
                    Err(GamesError::Pgn(e))
                }
            })?;
        }
        *games_before += count;
    }
    Ok(())
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
            let source = Source::open(&path).unwrap();
            // Small pieces: many cuts, and games that span blocks.
            for piece in [300, 4096, PGN_PIECE] {
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
                assert_eq!(parallel.len(), expected.len(), "{path:?}, pieces of {piece} bytes");
                assert!(parallel == expected, "{path:?}, pieces of {piece} bytes");
            }
        }
    }
}
