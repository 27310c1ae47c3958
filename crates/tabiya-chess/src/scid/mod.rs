//! SCID databases: SCID 3 (.si3/.sg3/.sn3, read-only), SCID 4 (.si4/.sg4/.sn4) and SCID 5
//! (.si5/.sg5/.sn5). A database is an index of fixed-size entries, a name file and a game file
//! of records that can only be decoded by replaying the moves (see `shared/specs/scid.md`).
//!
//! ```
//! use tabiya_chess::pgn::PgnReader;
//! use tabiya_chess::scid::{Database, NameType, Version, write::write_database};
//!
//! let pgn = b"[White \"Morphy\"]\n[Black \"Allies\"]\n\n1. e4 e5 2. Nf3 d6 {Philidor} 1-0\n";
//! let games = PgnReader::new(&pgn[..]).map(|g| g.map(|g| g.game));
//! let dir = tempfile::tempdir()?;
//! let summary = write_database(&dir.path().join("games.si4"), Version::Scid4, games.collect::<Result<Vec<_>, _>>()?)?;
//! assert_eq!(summary.written, 1);
//!
//! let db = Database::open(dir.path().join("games"))?; // any of the three files, or the stem
//! assert_eq!(db.names.len(NameType::Player), 2);
//! let game = db.game(0)?;
//! assert_eq!(game.tag("White").map(|t| t.as_bytes()), Some(&b"Morphy"[..]));
//! assert_eq!(game.ply_count(), 4);
//! assert_eq!(db.entries[0].stored_line, 187); // SCID's opening-dictionary line "1.e4 e5 2.Nf3"
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

mod database;
pub mod decode;
pub mod derived;
pub mod encode;
pub mod export;
pub mod fields;
pub mod index;
mod move_codes;
pub mod names;
pub mod pieces;
pub mod report;
mod stored_lines;
pub mod verify;
pub mod write;

use std::path::{Path, PathBuf};

use tabiya_io::{Diagnostic, Location};

pub use database::{Database, DatabasePaths};
pub use decode::Record;
pub use index::{Header, IndexEntry};
pub use names::{NameBase, NameType};
pub use write::{DatabaseWriter, WriteSummary};

/// The three generations of the format.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Version {
    /// Version 300: 46-byte entries, no custom flags; SCID opens it read-only.
    Scid3,
    /// Version 400: 47-byte big-endian entries.
    Scid4,
    /// SCID 5: 56-byte little-endian entries, append-only name file.
    Scid5,
}

impl Version {
    /// The extensions of the index, game and name files.
    pub fn extensions(self) -> [&'static str; 3] {
        match self {
            Version::Scid3 => ["si3", "sg3", "sn3"],
            Version::Scid4 => ["si4", "sg4", "sn4"],
            Version::Scid5 => ["si5", "sg5", "sn5"],
        }
    }

    /// The version a file extension belongs to.
    pub fn from_extension(ext: &str) -> Option<Version> {
        match ext.to_ascii_lowercase().as_str() {
            "si3" | "sg3" | "sn3" => Some(Version::Scid3),
            "si4" | "sg4" | "sn4" => Some(Version::Scid4),
            "si5" | "sg5" | "sn5" => Some(Version::Scid5),
            _ => None,
        }
    }

    /// The version number SCID reports (300, 400, 500).
    pub fn number(self) -> u16 {
        match self {
            Version::Scid3 => 300,
            Version::Scid4 => 400,
            Version::Scid5 => 500,
        }
    }
}

/// Everything that can go wrong with a SCID database.
#[derive(Debug, thiserror::Error)]
pub enum ScidError {
    /// A file could not be read or written.
    #[error("{}: {source}", path.display())]
    Io {
        /// The file.
        path: PathBuf,
        /// What the system said.
        source: std::io::Error,
    },
    /// The bytes are not what the format allows; the location names file, offset and record.
    #[error(transparent)]
    Data(#[from] tabiya_io::DataError),
    /// A path that names no SCID database.
    #[error("{}: not a SCID database (expected .si3/.si4/.si5 or a stem with those files)", .0.display())]
    NotScid(PathBuf),
    /// A game that the target version cannot store.
    #[error("game {game}: {reason}")]
    Unstorable {
        /// The game's number among those added, from 1 (0: none yet).
        game: u64,
        /// Why.
        reason: String,
    },
}

impl ScidError {
    /// A file could not be read or written.
    pub fn io(path: &Path, source: std::io::Error) -> ScidError {
        ScidError::Io { path: path.to_path_buf(), source }
    }

    /// The error as a diagnostic: a game (or the database) that could not be read or written.
    pub fn diagnostic(&self) -> Diagnostic {
        match self {
            ScidError::Io { path, source } => Diagnostic::error(codes::IO, Location::file(path), source.to_string()),
            ScidError::Data(e) => {
                let message = match &e.found {
                    Some(found) => format!("expected {}, found {found}", e.expected),
                    None => format!("expected {}", e.expected),
                };
                Diagnostic::error(codes::UNREADABLE, e.location.clone(), message)
            }
            ScidError::NotScid(path) => Diagnostic::error(codes::NOT_SCID, Location::file(path), self.to_string()),
            ScidError::Unstorable { game, reason } => {
                Diagnostic::error(codes::UNSTORABLE_GAME, Location::of(tabiya_io::Unit::Game, *game), reason.clone())
            }
        }
    }
}

/// The stable codes of the [`Diagnostic`]s of SCID databases.
pub mod codes {
    /// Error: a file could not be read or written.
    pub const IO: &str = "scid.io";
    /// Error: bytes the format does not allow (a game that cannot be decoded, a broken index).
    pub const UNREADABLE: &str = "scid.unreadable";
    /// Error: the path names no SCID database.
    pub const NOT_SCID: &str = "scid.not_scid";
    /// Error: a game the database cannot store (limits of the version); it is left out.
    pub const UNSTORABLE_GAME: &str = "scid.unstorable_game";
    /// Error: a field of a game the database cannot hold (an EventDate too far from the date);
    /// it is left out.
    pub const UNSTORABLE_FIELD: &str = "scid.unstorable_field";
    /// Warning: NAGs of one move replaced as SCID replaces them (one move and one position
    /// assessment per move, at most 7 NAGs).
    pub const REPLACED_NAGS: &str = "scid.replaced_nags";
    /// Warning: a tag pair over 240 bytes (name and value) was dropped, as SCID drops it.
    pub const TAG_TOO_LONG: &str = "scid.tag_too_long";
    /// Warning: bytes after the last index entry.
    pub const INDEX_TRAILING_BYTES: &str = "scid.index_trailing_bytes";
    /// Error: the index header counts more games than the file holds (the file was cut, or the
    /// header is corrupt): the games it counts are missing.
    pub const INDEX_GAME_COUNT: &str = "scid.index_game_count";
    /// Warning: a name file's stored frequencies disagree with the games.
    pub const NAME_FREQUENCY: &str = "scid.name_frequency";
    /// Warning: names no game uses.
    pub const UNUSED_NAMES: &str = "scid.unused_names";
    /// Warning: bytes after the last name of the name file.
    pub const NAME_TRAILING_BYTES: &str = "scid.name_trailing_bytes";
    /// Warning: an unknown database-info record of a .sn5 file.
    pub const NAME_INFO_RECORD: &str = "scid.name_info_record";
    /// Error: an index entry names a player, event, site or round that does not exist.
    pub const NAME_ID: &str = "scid.name_id";
    /// Warning: the last comment of a game record has no NUL.
    pub const COMMENT_UNTERMINATED: &str = "scid.comment_unterminated";
    /// Warning: comment markers and comment strings of a game record do not pair up.
    pub const COMMENT_MARKERS: &str = "scid.comment_markers";
    /// Error: an index entry's result code is not 0–3.
    pub const RESULT_CODE: &str = "scid.result_code";
    /// Warning: a SCID 5 rating type 7, which does not exist.
    pub const RATING_TYPE: &str = "scid.rating_type";
    /// Error: a game record crosses a 128 KiB block of the game file.
    pub const RECORD_BLOCK: &str = "scid.record_block";
    /// Error (warning in games from a FEN, where old Scid vs PC wrote stale values): a derived
    /// index field disagrees with the moves.
    pub const DERIVED_FIELD: &str = "scid.derived_field";
    /// Warning: a game longer than the 10 bits of the index's ply count.
    pub const PLY_COUNT: &str = "scid.ply_count";
    /// Warning: bytes of the game file no game refers to.
    pub const UNREFERENCED_BYTES: &str = "scid.unreferenced_bytes";
}

impl From<tabiya_io::Error> for ScidError {
    fn from(e: tabiya_io::Error) -> ScidError {
        match e {
            tabiya_io::Error::Io { path, source } => ScidError::Io { path, source },
            tabiya_io::Error::Data(d) => ScidError::Data(d),
        }
    }
}
