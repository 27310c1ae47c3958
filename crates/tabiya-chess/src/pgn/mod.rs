//! PGN: reading games into the [`Game`](crate::game::Game) model with our own tokenizer, and
//! writing them back with a configurable layout.
//!
//! Reading is lenient (see [`read`]): every game comes with the [`Diagnostic`]s that describe
//! what was repaired (warnings) or lost (errors), and a game that cannot be read at all is an
//! error for that game only; reading goes on with the next one. [`report`] answers `info` and
//! `verify` for a PGN file.
//!
//! ```
//! use tabiya_chess::pgn::{PgnReader, WriterOptions, write_game};
//!
//! let pgn = b"[White \"Morphy\"]\n[Black \"Duke Karl / Count Isouard\"]\n\n1. e4 e5 2. Nf3 d6 {Philidor} 1-0\n";
//! let games: Vec<_> = PgnReader::new(&pgn[..]).collect::<Result<_, _>>()?;
//! assert_eq!(games.len(), 1);
//! assert_eq!(games[0].game.ply_count(), 4);
//! assert!(games[0].diagnostics.is_empty());
//!
//! let mut out = Vec::new();
//! write_game(&games[0].game, &WriterOptions::default(), &mut out)?;
//! assert!(String::from_utf8(out)?.ends_with("1. e4 e5 2. Nf3 d6 {Philidor} 1-0\n\n"));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

pub mod pieces;
pub mod read;
pub mod report;
pub(crate) mod scanner;
mod split;
pub mod variants;
pub mod walk;
pub mod write;

use std::io;

use tabiya_io::{Diagnostic, Location};

pub use read::{PgnReader, ReadGame, ReadOptions};
pub use split::{Comments, last_game_start, last_game_start_from, split_games};
pub use walk::{PgnWalk, PlayPosition, Played, WalkOptions, WalkedGame, walk_pieces, walked_bytes};
pub use write::{Layout, LineEnding, Notation, WriterOptions, write_game};

/// A game that could not be read, or input that could not be read at all.
#[derive(Debug, thiserror::Error)]
pub enum PgnError {
    /// The underlying reader failed, or the PGN tokenizer gave up (unterminated tag or
    /// comment). Reading stops after an I/O error and goes on after a syntax error.
    #[error("{location}: {source}")]
    Io {
        /// Where.
        location: Location,
        /// What the reader or the tokenizer said.
        source: io::Error,
    },
    /// The game is of a chess variant tabiya does not play (crazyhouse, antichess, …).
    #[error("{location}: expected standard chess or Chess960, found variant {variant:?}")]
    UnsupportedVariant {
        /// The game.
        location: Location,
        /// The Variant tag.
        variant: String,
    },
    /// The FEN tag does not describe a legal starting position.
    #[error("{location}: expected a valid FEN start position, found {fen:?} ({reason})")]
    InvalidFen {
        /// The game.
        location: Location,
        /// The FEN tag.
        fen: String,
        /// Why it is not a legal position.
        reason: String,
    },
}

impl PgnError {
    /// Where the game (or the input) stands.
    pub fn location(&self) -> &Location {
        match self {
            PgnError::Io { location, .. }
            | PgnError::UnsupportedVariant { location, .. }
            | PgnError::InvalidFen { location, .. } => location,
        }
    }

    /// Where the game stands, to be moved (a game read from a piece of its file).
    pub fn location_mut(&mut self) -> &mut Location {
        match self {
            PgnError::Io { location, .. }
            | PgnError::UnsupportedVariant { location, .. }
            | PgnError::InvalidFen { location, .. } => location,
        }
    }

    /// The error as a diagnostic: a game that could not be read.
    pub fn diagnostic(&self) -> Diagnostic {
        let (code, message) = match self {
            PgnError::Io { source, .. } if source.kind() == io::ErrorKind::InvalidData => {
                (codes::SYNTAX, format!("game skipped: {source}"))
            }
            PgnError::Io { source, .. } => (codes::IO, source.to_string()),
            PgnError::UnsupportedVariant { variant, .. } => (
                codes::UNSUPPORTED_VARIANT,
                format!("game skipped: expected standard chess or Chess960, found variant {variant:?}"),
            ),
            PgnError::InvalidFen { fen, reason, .. } => (
                codes::INVALID_FEN,
                format!("game skipped: expected a valid FEN start position, found {fen:?} ({reason})"),
            ),
        };
        Diagnostic::error(code, self.location().clone(), message)
    }
}

/// The stable codes of the [`Diagnostic`]s reading PGN gives.
pub mod codes {
    /// Error: an illegal move (or a null move in check) ends its line; the moves after it are lost.
    pub const ILLEGAL_MOVE: &str = "pgn.illegal_move";
    /// Error: a move that names more than one legal move ends its line.
    pub const AMBIGUOUS_MOVE: &str = "pgn.ambiguous_move";
    /// Error: a NAG before the first move of a line is dropped.
    pub const DROPPED_NAG: &str = "pgn.dropped_nag";
    /// Error: a variation nested deeper than 255 levels is dropped (with what it holds).
    pub const VARIATION_TOO_DEEP: &str = "pgn.variation_too_deep";
    /// Error: a variation before the first move of a line is dropped.
    pub const DROPPED_VARIATION: &str = "pgn.dropped_variation";
    /// Error: the game could not be read (an unterminated tag or comment); it is skipped.
    pub const SYNTAX: &str = "pgn.syntax";
    /// Error: the input could not be read.
    pub const IO: &str = "pgn.io";
    /// Error: the game is of a variant tabiya does not play; it is skipped.
    pub const UNSUPPORTED_VARIANT: &str = "pgn.unsupported_variant";
    /// Error: the FEN tag is not a legal start position; the game is skipped.
    pub const INVALID_FEN: &str = "pgn.invalid_fen";
    /// Warning: a comma between moves or a `d7d8R` promotion was repaired.
    pub const REPAIRED_TOKEN: &str = "pgn.repaired_token";
    /// Warning: a piece move whose capture mark is wrong (`Raf8` that takes) was read without
    /// it, as SCID reads it.
    pub const CAPTURE_MARK: &str = "pgn.capture_mark";
    /// Warning: a variation still open at the end of the game was closed.
    pub const UNCLOSED_VARIATION: &str = "pgn.unclosed_variation";
    /// Warning: a `)` without a variation to close was ignored.
    pub const UNMATCHED_PARENTHESIS: &str = "pgn.unmatched_parenthesis";
    /// Warning: the Result tag and the movetext's result differ (the movetext's is kept).
    pub const RESULT_MISMATCH: &str = "pgn.result_mismatch";
    /// Warning: a file's games of variants tabiya does not play were skipped (one warning per
    /// file, with their count by variant).
    pub const VARIANT_GAMES_SKIPPED: &str = "pgn.variant_games_skipped";
    /// Warning: a FEN with Chess960 castling rights and no Variant tag was read as Chess960.
    pub const FEN_CHESS960: &str = "pgn.fen_chess960";
    /// Warning: a tag value held unescaped quotes (`[White ""Socrates Expert""]`); it was read as
    /// one tag with the quotes kept.
    pub const TAG_INNER_QUOTES: &str = "pgn.tag_inner_quotes";
    /// Warning: a blank line inside the movetext did not end the game.
    pub const BLANK_LINE_IN_MOVETEXT: &str = "pgn.blank_line_in_movetext";
}
