//! One entry point for every source of chess games: `games::open(path)` yields the games of a
//! PGN file or a SCID database (3, 4 or 5), chosen by the file's format.
//!
//! ```no_run
//! let mut plies = 0;
//! for game in tabiya_chess::games::open("games.si4".as_ref())? {
//!     plies += game?.ply_count();
//! }
//! # Ok::<(), tabiya_chess::games::GamesError>(())
//! ```

use std::fs::File;
use std::io::{BufReader, Read, Seek};
use std::path::{Path, PathBuf};

use rayon::prelude::*;
use tabiya_io::Head;

use crate::Format;

use crate::game::Game;
use crate::pgn::{PgnError, PgnReader, ReadOptions};
use crate::scid::{Database, ScidError};

/// A game source could not be opened, or one of its games could not be read.
#[derive(Debug, thiserror::Error)]
pub enum GamesError {
    #[error("{}: {source}", path.display())]
    Io { path: PathBuf, source: std::io::Error },
    #[error("{}: {what}", path.display())]
    NotGames { path: PathBuf, what: String },
    #[error(transparent)]
    Pgn(#[from] PgnError),
    #[error(transparent)]
    Scid(#[from] ScidError),
}

/// The games of one file, in file order.
pub enum Games {
    Pgn(Box<PgnReader<BufReader<File>>>),
    Scid { db: Box<Database>, next: usize },
}

/// Opens the games of `path`: PGN, or a SCID database named by any of its files or its stem.
pub fn open(path: &Path) -> Result<Games, GamesError> {
    match source_format(path)? {
        SourceFormat::Pgn => {
            let file = File::open(path).map_err(|source| GamesError::Io { path: path.into(), source })?;
            Ok(Games::Pgn(Box::new(PgnReader::with_options(
                BufReader::with_capacity(1 << 16, file),
                read_options(path),
            ))))
        }
        SourceFormat::Scid => Ok(Games::Scid { db: Box::new(Database::open(path)?), next: 0 }),
    }
}

enum SourceFormat {
    Pgn,
    Scid,
}

fn source_format(path: &Path) -> Result<SourceFormat, GamesError> {
    let format = if path.exists() {
        Head::read(path)
            .map(|head| Format::sniff(&head))
            .map_err(|e| GamesError::NotGames { path: path.into(), what: e.to_string() })?
    } else {
        // A SCID stem.
        Some(Format::Scid4)
    };
    match format {
        Some(Format::Pgn) => Ok(SourceFormat::Pgn),
        Some(Format::Scid3 | Format::Scid4 | Format::Scid5) => Ok(SourceFormat::Scid),
        other => Err(GamesError::NotGames {
            path: path.into(),
            what: format!("not a file of chess games ({})", other.map_or("unknown format", |f| f.name())),
        }),
    }
}

fn read_options(path: &Path) -> ReadOptions {
    ReadOptions { file: Some(path.to_path_buf()), ..ReadOptions::default() }
}

/// PGN text per piece read on one thread: a few hundred games.
const PGN_PIECE: usize = 256 << 10;
/// SCID games per piece.
const SCID_PIECE: usize = 512;

/// A file of games opened for reading on all cores: a PGN file or a SCID database.
pub enum Source {
    Pgn { path: PathBuf, file: File },
    Scid(Box<Database>),
}

impl Source {
    /// Opens PGN or a SCID database named by any of its files or its stem.
    pub fn open(path: &Path) -> Result<Source, GamesError> {
        match source_format(path)? {
            SourceFormat::Pgn => {
                let file = File::open(path).map_err(|source| GamesError::Io { path: path.into(), source })?;
                Ok(Source::Pgn { path: path.to_path_buf(), file })
            }
            SourceFormat::Scid => Ok(Source::Scid(Box::new(Database::open(path)?))),
        }
    }

    /// Reads every game on all rayon threads and hands them, each turned into a `T` by `map` on
    /// the thread that read it, to `sink` in file order: the same games, errors and order as
    /// [`open`] gives, with reading and `map`ping spread over the cores. The file is cut into
    /// pieces that hold whole games (PGN) or runs of game numbers (SCID); a few pieces per
    /// thread are in flight at a time, so memory stays flat. While the pieces of one block of PGN
    /// are read, `sink` takes the games of the block before, on a rayon thread of its own when
    /// there are two or more. `sink`'s error stops the reading.
    pub fn read_in_parallel<T: Send, E: Send>(
        &self,
        map: impl Fn(Game) -> T + Sync,
        sink: impl FnMut(Result<T, GamesError>) -> Result<(), E> + Send,
    ) -> Result<(), E> {
        self.read_in_pieces(PGN_PIECE, map, sink)
    }

    /// [`Source::read_in_parallel`] with PGN pieces of about `pgn_piece` bytes.
    fn read_in_pieces<T: Send, E: Send>(
        &self,
        pgn_piece: usize,
        map: impl Fn(Game) -> T + Sync,
        mut sink: impl FnMut(Result<T, GamesError>) -> Result<(), E> + Send,
    ) -> Result<(), E> {
        let in_flight = 2 * rayon::current_num_threads();
        match self {
            Source::Pgn { path, file } => {
                // The file is named in the errors when they are relocated, not in every game.
                let options = ReadOptions::default();
                // The text is read a piece at a time straight into the piece's own buffer; each
                // piece ends before the last game that starts in it (that game may be unfinished):
                // only that game's text is copied, to open the next piece. The buffers are kept
                // for the pieces after (fresh ones would be fresh pages to fault in).
                let (mut tail, mut tail_offset) = (Vec::new(), 0u64);
                let mut spare: Vec<Vec<u8>> = Vec::new();
                // The games of the pieces before, not yet handed to `sink`.
                let mut read_before: ReadPieces<T> = Vec::new();
                let mut games_before = 0u64;
                let mut file = file;
                if let Err(source) = file.seek(std::io::SeekFrom::Start(0)) {
                    return sink(Err(GamesError::Io { path: path.clone(), source }));
                }
                let mut end = false;
                loop {
                    let mut pieces: Vec<(u64, Vec<u8>)> = Vec::with_capacity(in_flight);
                    while pieces.len() < in_flight && !end {
                        let mut text = spare.pop().unwrap_or_default();
                        text.clear();
                        text.append(&mut tail);
                        loop {
                            text.reserve(pgn_piece);
                            match (&mut file).take(pgn_piece as u64).read_to_end(&mut text) {
                                Ok(0) => {
                                    end = true;
                                    break;
                                }
                                Ok(_) => {}
                                Err(source) => {
                                    store(read_before, path, &mut games_before, &mut sink)?;
                                    return sink(Err(GamesError::Io { path: path.clone(), source }));
                                }
                            }
                            // A piece holding no game start yet (one long game) reads on.
                            if let Some(cut) = crate::pgn::last_game_start(&text) {
                                tail.extend_from_slice(&text[cut..]);
                                text.truncate(cut);
                                break;
                            }
                        }
                        let len = text.len() as u64;
                        pieces.push((tail_offset, text));
                        tail_offset += len;
                    }
                    let ((read, buffers), stored) = rayon::join(
                        || -> (ReadPieces<T>, Vec<Vec<u8>>) {
                            pieces
                                .into_par_iter()
                                .map(|(offset, text)| {
                                    let mut reader = PgnReader::from_vec(text, options.clone());
                                    let games = reader.by_ref().map(|read| read.map(|read| map(read.game))).collect();
                                    ((offset, games), reader.into_vec())
                                })
                                .unzip()
                        },
                        || store(std::mem::take(&mut read_before), path, &mut games_before, &mut sink),
                    );
                    stored?;
                    read_before = read;
                    spare = buffers;
                    if end {
                        return store(read_before, path, &mut games_before, &mut sink);
                    }
                }
            }
            Source::Scid(db) => {
                let firsts: Vec<usize> = (0..db.len()).step_by(SCID_PIECE).collect();
                for window in firsts.chunks(in_flight) {
                    let read: Vec<Vec<Result<T, ScidError>>> = window
                        .par_iter()
                        .map(|&first| (first..db.len().min(first + SCID_PIECE)).map(|n| db.game(n).map(&map)).collect())
                        .collect();
                    for game in read.into_iter().flatten() {
                        sink(game.map_err(GamesError::from))?;
                    }
                }
                Ok(())
            }
        }
    }
}

/// Games read from the pieces of one block, by piece, each with the piece's offset in the file.
type ReadPieces<T> = Vec<(u64, Vec<Result<T, PgnError>>)>;

/// Hands the games of `pieces` to `sink` in order, their errors located in the file at `path`;
/// `games_before` counts the games of the file before them.
fn store<T, E>(
    pieces: ReadPieces<T>,
    path: &Path,
    games_before: &mut u64,
    sink: &mut impl FnMut(Result<T, GamesError>) -> Result<(), E>,
) -> Result<(), E> {
    for (piece_offset, games) in pieces {
        let count = games.len() as u64;
        for game in games {
            sink(game.map_err(|mut e| {
                // Locations in a piece count from its start: make them count from the file's.
                relocate(&mut e, path, piece_offset, *games_before);
                GamesError::Pgn(e)
            }))?;
        }
        *games_before += count;
    }
    Ok(())
}

/// Moves a location found in a piece of a PGN file to the file at `path`: `offset` bytes and
/// `games` games precede the piece.
fn relocate(e: &mut PgnError, path: &Path, offset: u64, games: u64) {
    let (PgnError::Io { location, .. }
    | PgnError::UnsupportedVariant { location, .. }
    | PgnError::InvalidFen { location, .. }) = e;
    location.file = Some(path.to_path_buf());
    if let Some(at) = location.offset.as_mut() {
        *at += offset;
    }
    if let Some(number) = location.number.as_mut() {
        *number += games;
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
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every game and every error, as text, in order.
    fn describe(item: Result<Game, GamesError>) -> String {
        match item {
            Ok(game) => format!("{game:?}"),
            Err(e) => format!("error: {e}"),
        }
    }

    #[test]
    fn parallel_reading_gives_what_sequential_reading_gives() {
        let files = [
            "pgn/small-varied.pgn",
            "pgn/edge-cases/pgnextract-null-moves.pgn",
            "pgn/edge-cases/pychess-crazyhouse-saturs-jannlee.pgn",
            "pgn/edge-cases/pgnmentor-double-blank-line-crlf.pgn",
            "pgn/edge-cases/pychess-chessbase-empty-line.pgn",
            "scid/scidvspc-bases/endings.si4",
        ];
        for relative in files {
            let Some(path) = tabiya_testdata::corpus_file(relative) else { return };
            let sequential: Vec<String> = open(&path).unwrap().map(describe).collect();
            assert!(!sequential.is_empty());
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
                assert_eq!(parallel.len(), sequential.len(), "{relative}, pieces of {piece} bytes");
                assert!(parallel == sequential, "{relative}, pieces of {piece} bytes");
            }
        }
    }
}
