//! The files an explorer shows side by side: opening books (and trees) probed on disk through
//! [`BookFile`], games files counted in memory ([`GamesTree`]).

use std::path::{Path, PathBuf};
use std::sync::Mutex;

use serde::Serialize;
use shakmaty::Chess;
use tabiya_chess::book::{BookError, BookFile};
use tabiya_chess::games::GamesError;
use tabiya_io::report::Probe;

use crate::games_tree::{GameCard, GamesTree};
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

/// A tree's top games (the tree's table rows) as the cards the page shows for games files,
/// `game` being the row's number in the table; a row that cannot be read stays out (the probe
/// already named it in its problems).
fn tree_cards(tree: &tabiya_chess::tree::Tree, probe: &mut Probe) {
    let Some(serde_json::Value::Array(rows)) = probe.position.get("top_games") else { return };
    let cards = rows
        .iter()
        .filter_map(|row| tree.game(row["id"].as_u64()?).ok())
        .filter_map(|game| serde_json::to_value(GameCard::of_tree_game(&game)).ok())
        .collect();
    probe.position.insert("top_games".into(), serde_json::Value::Array(cards));
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
            Source::Book(book) => {
                let book = book.lock().unwrap_or_else(|e| e.into_inner());
                let mut probe = book.probe(pos)?;
                if let BookFile::Tree(tree) = &*book {
                    tree_cards(tree, &mut probe);
                }
                Ok(probe)
            }
            Source::Games(tree) => Ok(tree.probe(pos)),
            Source::Othello(_) => Err(SourceError::Othello("Othello games: their board is at /othello".into())),
        }
    }

    /// The file and the number in it (from 0) of game `id` of a tree's table, for the game
    /// viewer: the file as the tree names it (as it was given to `tabiya tree`), else beside
    /// the tree. `None` for a source that is not a chess tree.
    pub fn tree_game(&self, id: usize) -> Result<Option<(PathBuf, usize)>, SourceError> {
        let Source::Book(book) = self else { return Ok(None) };
        let book = book.lock().unwrap_or_else(|e| e.into_inner());
        let BookFile::Tree(tree) = &*book else { return Ok(None) };
        let game = tree.game(id as u64).map_err(BookError::from)?;
        let named = PathBuf::from(&game.source);
        let path = match tree.path().parent() {
            Some(dir) if !named.exists() && named.is_relative() => dir.join(named),
            _ => named,
        };
        Ok(Some((path, game.number.saturating_sub(1) as usize)))
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
