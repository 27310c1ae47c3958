//! The games layer: every chess games format as a source and a sink of the one game model
//! ([`Game`](crate::game::Game)), above the formats' own modules ([`pgn`](crate::pgn),
//! [`scid`](crate::scid), [`jsonl`](crate::jsonl)), which know nothing of each other.
//!
//! * [`open`] yields the games of a PGN file, a SCID database (3, 4 or 5) or a JSON Lines file
//!   one at a time, chosen by the file's format; [`Source`] reads them on all cores.
//! * [`Sink`] writes games as PGN, JSON Lines or a SCID 4/5 database; [`Sink::add_source`]
//!   converts a whole source, any to any.
//! * [`info`] and [`verify`] answer `tabiya info` and `tabiya verify` for every games file.
//!
//! ```no_run
//! let mut plies = 0;
//! for game in tabiya_chess::games::open("games.si4".as_ref())? {
//!     plies += game?.ply_count();
//! }
//! # Ok::<(), tabiya_chess::games::GamesError>(())
//! ```

pub mod index;
mod read_report;
pub mod search;
pub mod select;
mod sink;
mod source;
pub mod statistics;

use std::path::{Path, PathBuf};

use tabiya_io::report::{Info, Verification};
use tabiya_io::{Diagnostic, Head, Location};

use crate::Format;
use crate::jsonl::JsonLinesError;
use crate::pgn::PgnError;
use crate::scid::{Database, ScidError};

pub use read_report::ReadReport;
pub use sink::{Sink, SinkSummary};
pub use source::{Games, ReadItem, ReadProgress, Source};
pub(crate) use source::{PGN_PIECE, PieceGames, read_piece};

/// A game source could not be opened, or one of its games could not be read.
#[derive(Debug, thiserror::Error)]
pub enum GamesError {
    /// A file could not be opened, read or written.
    #[error("{}: {source}", path.display())]
    Io {
        /// The file.
        path: PathBuf,
        /// What the system said.
        source: std::io::Error,
    },
    /// The file holds no chess games tabiya reads.
    #[error("{}: {what}", path.display())]
    NotGames {
        /// The file.
        path: PathBuf,
        /// What it is instead.
        what: String,
    },
    /// A PGN game could not be read.
    #[error(transparent)]
    Pgn(#[from] PgnError),
    /// A SCID database or game could not be read or written.
    #[error(transparent)]
    Scid(#[from] ScidError),
    /// A line of JSON Lines is not a game.
    #[error("{location}: {source}")]
    JsonLines {
        /// The file and line.
        location: Location,
        /// What is wrong with it.
        source: JsonLinesError,
    },
}

impl GamesError {
    /// The error as a diagnostic: a game (or the whole input) that could not be read.
    pub fn diagnostic(&self) -> Diagnostic {
        match self {
            GamesError::Io { path, source } => Diagnostic::error(codes::IO, Location::file(path), source.to_string()),
            GamesError::NotGames { path, what } => Diagnostic::error(codes::NOT_GAMES, Location::file(path), what),
            GamesError::Pgn(e) => e.diagnostic(),
            GamesError::Scid(e) => e.diagnostic(),
            GamesError::JsonLines { location, source } => {
                Diagnostic::error(codes::JSONL_UNREADABLE_GAME, location.clone(), source.to_string())
            }
        }
    }
}

/// The stable codes of the [`Diagnostic`]s of the games layer (the formats' own are in
/// [`crate::pgn::codes`] and [`crate::scid::codes`]).
pub mod codes {
    /// Error: a file could not be opened, read or written.
    pub const IO: &str = "games.io";
    /// Error: the file holds no chess games tabiya reads.
    pub const NOT_GAMES: &str = "games.not_games";
    /// Error: a game the sink cannot write (a move not legal where it stands); it is left out.
    pub const UNWRITABLE_GAME: &str = "games.unwritable_game";
    /// Error: a line of JSON Lines that is not a game; it is skipped.
    pub const JSONL_UNREADABLE_GAME: &str = "jsonl.unreadable_game";
}

/// Opens the games of `path`: PGN, JSON Lines, or a SCID database named by any of its files or
/// its stem.
pub fn open(path: &Path) -> Result<Games, GamesError> {
    Games::open(path, source_format(path)?)
}

/// The families of games files, as far as reading them differs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum SourceFormat {
    Pgn,
    Scid,
    JsonLines,
}

fn source_format(path: &Path) -> Result<SourceFormat, GamesError> {
    let format = if path.exists() || path.as_os_str() == "-" {
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
        Some(Format::JsonLines) => Ok(SourceFormat::JsonLines),
        other => Err(GamesError::NotGames {
            path: path.into(),
            what: format!("not a file of chess games ({})", other.map_or("unknown format", |f| f.name())),
        }),
    }
}

/// What a games file is (`tabiya info`): PGN and JSON Lines are read through, a SCID database
/// is described from its index and names. `progress` is called with (done, total) in bytes
/// (PGN) or games.
///
/// Every games file also gets its [`statistics`](statistics::statistics): results, dates,
/// ratings, the most frequent players, events and openings.
pub fn info(path: &Path, progress: &mut (dyn FnMut(u64, u64) + Send)) -> Result<Info, GamesError> {
    let format = source_format(path)?;
    if format == SourceFormat::Scid {
        let db = Database::open(path)?;
        let mut info = crate::scid::report::info(&db, path);
        info.statistics = Some(statistics::statistics(&Source::Scid(Box::new(db)))?);
        return Ok(info);
    }
    // One pass gives the counts and the statistics: a stream can be read once.
    let source = Source::open(path)?;
    let (mut pgn, mut jsonl, mut lost) = (crate::pgn::report::Tally::default(), Tally::default(), Vec::new());
    let mut keep_lost = |d: Diagnostic| {
        if d.is_error() {
            lost.push(d)
        }
    };
    let statistics = statistics::statistics_with(&source, |item| {
        match (format, item) {
            (SourceFormat::Pgn, Ok(game)) => pgn.add(Ok(game), &mut keep_lost),
            (SourceFormat::Pgn, Err(GamesError::Pgn(e))) => pgn.add(Err(e), &mut keep_lost),
            (_, Ok((plies, _))) => {
                jsonl.games += 1;
                jsonl.plies += plies as u64;
            }
            (_, Err(e)) => {
                jsonl.unreadable += 1;
                jsonl.problems.push(e.diagnostic());
            }
        }
        let (done, total) = source.bytes_read().unwrap_or((jsonl.games + jsonl.unreadable, 0));
        progress(done, total);
    })?;
    let mut info = match format {
        SourceFormat::Pgn => {
            pgn.finish(path, &mut keep_lost);
            pgn.info(path, lost)
        }
        _ => {
            let mut info = Info::new(path, Format::JsonLines.name());
            info.count("games", jsonl.games).count("unreadable_games", jsonl.unreadable).count("plies", jsonl.plies);
            info.problems = jsonl.problems;
            info
        }
    };
    info.statistics = Some(statistics);
    Ok(info)
}

/// Checks a games file (`tabiya verify`): every game of PGN and JSON Lines is read and every
/// move replayed; a SCID database is checked through (see [`crate::scid::verify`]). A file
/// that cannot be opened is an error of the verification.
pub fn verify(path: &Path, progress: &mut dyn FnMut(u64, u64)) -> Verification {
    let format = match source_format(path) {
        Ok(format) => format,
        Err(e) => {
            let mut v = Verification::new(path, "games");
            v.problem(e.diagnostic());
            return v;
        }
    };
    match format {
        SourceFormat::Pgn => crate::pgn::report::verify(path, progress),
        SourceFormat::Scid => match Database::open(path) {
            Ok(db) => crate::scid::verify::verify(&db, path),
            Err(e) => {
                let mut v = Verification::new(path, Format::Scid4.name());
                v.problem(e.diagnostic());
                v
            }
        },
        SourceFormat::JsonLines => {
            let mut v = Verification::new(path, Format::JsonLines.name());
            match tally(path, progress) {
                Ok(tally) => {
                    v.checked("games", tally.games).checked("plies", tally.plies);
                    v.problems(tally.problems);
                }
                Err(e) => v.problem(e.diagnostic()),
            }
            v
        }
    }
}

/// What reading every game of a file found.
#[derive(Debug, Default)]
struct Tally {
    games: u64,
    unreadable: u64,
    plies: u64,
    problems: Vec<Diagnostic>,
}

/// Reads every game of `path` in order.
fn tally(path: &Path, progress: &mut dyn FnMut(u64, u64)) -> Result<Tally, GamesError> {
    let mut tally = Tally::default();
    for game in open(path)? {
        match game {
            Ok(game) => {
                tally.games += 1;
                tally.plies += game.ply_count() as u64;
            }
            Err(e) => {
                tally.unreadable += 1;
                tally.problems.push(e.diagnostic());
            }
        }
        progress(tally.games + tally.unreadable, 0);
    }
    Ok(tally)
}
