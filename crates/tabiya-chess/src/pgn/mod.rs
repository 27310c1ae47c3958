//! PGN: reading games into the [`Game`](crate::game::Game) model with our own tokenizer, and
//! writing them back with a configurable layout.
//!
//! Reading is lenient (see [`read`]): every game comes with the warnings that describe what
//! was repaired or dropped, and a game that cannot be read at all is an error for that game
//! only; reading goes on with the next one.
//!
//! ```
//! use tabiya_chess::pgn::{PgnReader, WriterOptions, write_game};
//!
//! let pgn = b"[White \"Morphy\"]\n[Black \"Duke Karl / Count Isouard\"]\n\n1. e4 e5 2. Nf3 d6 {Philidor} 1-0\n";
//! let games: Vec<_> = PgnReader::new(&pgn[..]).collect::<Result<_, _>>()?;
//! assert_eq!(games.len(), 1);
//! assert_eq!(games[0].game.ply_count(), 4);
//! assert!(games[0].warnings.is_empty());
//!
//! let mut out = Vec::new();
//! write_game(&games[0].game, &WriterOptions::default(), &mut out)?;
//! assert!(String::from_utf8(out)?.ends_with("1. e4 e5 2. Nf3 d6 {Philidor} 1-0\n\n"));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

mod position;
pub mod read;
mod san;
mod san_text;
mod scan;
mod split;
pub mod walk;
pub mod write;

use std::io;

use tabiya_io::Location;

pub use read::{PgnReader, ReadGame, ReadOptions};
pub use split::{last_game_start, split_games};
pub use walk::{PgnWalk, PlayPosition, Played, WalkOptions, WalkedGame, walk_pieces};
pub use write::{Layout, LineEnding, Notation, WriterOptions, write_game};

/// A game that could not be read, or input that could not be read at all.
#[derive(Debug, thiserror::Error)]
pub enum PgnError {
    /// The underlying reader failed, or the PGN tokenizer gave up (unterminated tag or
    /// comment). Reading stops after an I/O error and goes on after a syntax error.
    #[error("{location}: {source}")]
    Io { location: Location, source: io::Error },
    /// The game is of a chess variant tabiya does not play (crazyhouse, antichess, …).
    #[error("{location}: expected standard chess or Chess960, found variant {variant:?}")]
    UnsupportedVariant { location: Location, variant: String },
    /// The FEN tag does not describe a legal starting position.
    #[error("{location}: expected a valid FEN start position, found {fen:?} ({reason})")]
    InvalidFen { location: Location, fen: String, reason: String },
}

impl PgnError {
    pub fn location(&self) -> &Location {
        match self {
            PgnError::Io { location, .. }
            | PgnError::UnsupportedVariant { location, .. }
            | PgnError::InvalidFen { location, .. } => location,
        }
    }
}
