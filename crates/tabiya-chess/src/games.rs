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
use std::io::BufReader;
use std::path::{Path, PathBuf};

use tabiya_io::Format;

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
    let format = if path.exists() {
        tabiya_io::sniff_path(path).map_err(|e| GamesError::NotGames { path: path.into(), what: e.to_string() })?
    } else {
        // A SCID stem.
        Some(Format::Scid4)
    };
    match format {
        Some(Format::Pgn) => {
            let file = File::open(path).map_err(|source| GamesError::Io { path: path.into(), source })?;
            let options = ReadOptions { file: Some(path.to_path_buf()), ..ReadOptions::default() };
            Ok(Games::Pgn(Box::new(PgnReader::with_options(BufReader::with_capacity(1 << 16, file), options))))
        }
        Some(Format::Scid3 | Format::Scid4 | Format::Scid5) => {
            Ok(Games::Scid { db: Box::new(Database::open(path)?), next: 0 })
        }
        other => Err(GamesError::NotGames {
            path: path.into(),
            what: format!("not a file of chess games ({})", other.map_or("unknown format", |f| f.name())),
        }),
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
