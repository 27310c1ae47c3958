//! The FFO's Wthor database: games (`WTH_YYYY.wtb`, 10×10 `.wtd`), solitaires (`.pzz`) and the
//! name files `WTHOR.JOU` (players) and `WTHOR.TRN` (tournaments).
//!
//! Readers keep every header field as stored and write files back byte for byte; what they
//! find is a [`tabiya_io::Diagnostic`] located by byte offset and record, never a panic. The
//! reader sets the severity, the one rule for every caller: a count or size that disagrees
//! with the file (`wthor.header_count`, `wthor.trailing_bytes`, `wthor.board_size`,
//! `wthor.game_file_fields`, `wthor.name_file_fields`) is an error, since bytes are not
//! carried or the file is damaged; deviations real files show (`wthor.century`,
//! `wthor.creation_date`, `wthor.empty_name`, `wthor.presence_table`, …) are warnings. The
//! game checks add `wthor.bad_square`, `wthor.illegal_move`, `wthor.move_after_end`,
//! `wthor.real_score`, `wthor.theoretical_score`, `wthor.bytes_after_padding`,
//! `wthor.name_index` (errors) and `wthor.first_move`, `wthor.truncated`,
//! `wthor.theoretical_copied`, `wthor.header_year`, `wthor.depth` (warnings).
//!
//! ```
//! use tabiya_io::Diagnostic;
//! use tabiya_othello::wthor::{Game, GameFile, Header};
//!
//! let mut file = GameFile::new(Header::dated((2026, 2, 16)), 1977);
//! let mut game = Game::default();
//! game.moves[0] = 56; // f5
//! file.games.push(game);
//! let bytes = file.to_bytes();
//! assert_eq!(bytes.len(), 16 + 68);
//! let read = GameFile::read(&bytes, &mut Vec::<Diagnostic>::new())?;
//! assert_eq!(read.games, file.games);
//! assert_eq!(read.header.n1, 1, "the writer sets N1 to the number of games");
//! assert_eq!(read.games[0].move_count(), 1);
//! # Ok::<(), tabiya_io::DataError>(())
//! ```

mod export;
mod game;
mod header;
mod import;
mod names;
mod read;
mod replay;
mod solitaire;
mod square;
mod theoretical;
mod verify;
mod write;

pub use export::{GameContext, GameFilter, csv_row, is_program};
pub use game::{Game, Game10, GameFile, GameFile10, GameRecord, GamesFile};
pub use header::{HEADER_LEN, Header, MAX_RECORDS};
pub use import::{ImportError, Importer, NewGame, normalising_symmetry};
pub use names::{NameFile, NameKind};
pub use replay::{Ending, Replay, Replay10, ReplayError};
pub use solitaire::{PRESENCE_TABLE_LEN, Solitaire, SolitaireFile};
pub use square::{BoardSize, code_of_square, square_of_code};
pub use theoretical::{EndgameSolver, TheoreticalPolicy};
pub use verify::{
    GameCheck, GameStats, Names, load_name_files, name_files_in, number_in_file_name, unreadable, verify_game_files,
    verify_games, verify_games_10, year_in_file_name,
};
pub use write::{begin_write, recover};

use tabiya_io::{DataError, Location};

/// What can go wrong with Wthor data: input bytes the format does not allow, or data a
/// writer refuses to store.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum WthorError {
    /// Input bytes that are not what the format allows (short header, N1 out of range).
    #[error(transparent)]
    Invalid(#[from] DataError),
    /// A name a name file cannot hold: longer than its record, or outside Windows-1252.
    #[error("{location}: cannot store the name {name:?}: {reason}")]
    Name {
        /// Where the name was to go.
        location: Location,
        /// The name.
        name: String,
        /// Why it cannot be stored.
        reason: String,
    },
    /// The file would need more records than its count field holds.
    #[error("{location}: too many records ({count}; the format holds at most {max})")]
    TooMany {
        /// The file.
        location: Location,
        /// The records to write.
        count: usize,
        /// The most the count field holds.
        max: usize,
    },
    /// Games of two years for one game file, which holds the games of one year.
    #[error("games of {first} and of {other} cannot share one Wthor file (it holds one year; select with --years)")]
    MixedYears {
        /// The year of the first games kept.
        first: u16,
        /// Another year.
        other: u16,
    },
}
