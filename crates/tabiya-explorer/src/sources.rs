//! The files an explorer shows side by side: opening books (and trees) probed on disk through
//! [`BookFile`], games files counted in memory ([`GamesTree`]).

use std::path::{Path, PathBuf};
use std::sync::Mutex;

use serde::Serialize;
use shakmaty::Chess;
use tabiya_chess::book::{BookError, BookFile};
use tabiya_chess::games::GamesError;
use tabiya_io::report::Probe;

use crate::games_tree::GamesTree;
use crate::othello::OthelloTree;

/// Why a source cannot be opened or looked up (boxed: the formats' errors are large).
#[derive(Debug, thiserror::Error)]
pub enum SourceError {
    /// A book that cannot be read.
    #[error(transparent)]
    Book(Box<BookError>),
    /// A games file that cannot be read.
    #[error(transparent)]
    Games(Box<GamesError>),
    /// An Othello source that cannot be read, or asked a chess question.
    #[error("{0}")]
    Othello(String),
    /// Neither a book nor games.
    #[error("{}: neither an opening book nor games ({book}; {games})", path.display())]
    Neither {
        /// The file.
        path: PathBuf,
        /// Why it is not a book.
        book: Box<BookError>,
        /// Why it is not games.
        games: Box<GamesError>,
    },
}

impl From<BookError> for SourceError {
    fn from(e: BookError) -> SourceError {
        SourceError::Book(Box::new(e))
    }
}

impl From<GamesError> for SourceError {
    fn from(e: GamesError) -> SourceError {
        SourceError::Games(Box::new(e))
    }
}

/// One opened file.
pub enum Source {
    /// A Polyglot, CTG or Kvetka book (or tree), read on disk as probes need; probes take
    /// turns, since a book may keep a cache of what it read.
    Book(Mutex<BookFile>),
    /// Games counted in memory.
    Games(GamesTree),
    /// An Othello tree (or Wthor games made one).
    Othello(OthelloTree),
}

/// What the page and `/api/sources` say of a source.
#[derive(Debug, Clone, Serialize)]
pub struct SourceSummary {
    /// Its number: the index in `sources` of every answer.
    pub source: usize,
    /// The file.
    pub path: PathBuf,
    /// `polyglot`, `ctg`, `kvetka` (the format's name), `games` for games counted in memory,
    /// `othello_tree` for Othello games.
    pub format: &'static str,
    /// Games counted, for a games file.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub games: Option<usize>,
    /// Games that could not be read, each named.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub unreadable: Vec<String>,
}

impl Source {
    /// Opens `path` as an Othello tree or Wthor games, else as a book when it is one, else as
    /// chess games.
    pub fn open(path: &Path) -> Result<Source, SourceError> {
        if let Some(tree) = OthelloTree::open(path)? {
            return Ok(Source::Othello(tree));
        }
        match BookFile::open(path) {
            Ok(book) => Ok(Source::Book(Mutex::new(book))),
            Err(book @ BookError::NotABook { .. }) => match GamesTree::open(path) {
                Ok(tree) => Ok(Source::Games(tree)),
                Err(games @ GamesError::NotGames { .. }) => {
                    Err(SourceError::Neither { path: path.to_path_buf(), book: Box::new(book), games: Box::new(games) })
                }
                Err(e) => Err(e.into()),
            },
            Err(e) => Err(e.into()),
        }
    }

    /// The probe answer for `pos`.
    pub fn probe(&self, pos: &Chess) -> Result<Probe, SourceError> {
        match self {
            // A probe that panicked leaves the book as it was: it only reads.
            Source::Book(book) => Ok(book.lock().unwrap_or_else(|e| e.into_inner()).probe(pos)?),
            Source::Games(tree) => Ok(tree.probe(pos)),
            Source::Othello(_) => Err(SourceError::Othello("Othello games: their board is at /othello".into())),
        }
    }

    /// The games file a game number refers to, for the game viewer.
    pub fn games_path(&self) -> Option<&Path> {
        match self {
            Source::Book(_) | Source::Othello(_) => None,
            Source::Games(tree) => Some(tree.path()),
        }
    }

    /// What `/api/sources` says of it, as source number `source`, opened from `path`.
    pub fn summary(&self, source: usize, path: &Path) -> SourceSummary {
        let (format, games, unreadable) = match self {
            Source::Book(book) => (book.lock().unwrap_or_else(|e| e.into_inner()).format().name(), None, Vec::new()),
            Source::Games(tree) => ("games", Some(tree.games()), tree.unreadable.clone()),
            Source::Othello(tree) => (tabiya_othello::tree::FORMAT, Some(tree.games), Vec::new()),
        };
        SourceSummary { source, path: path.to_path_buf(), format, games, unreadable }
    }
}
