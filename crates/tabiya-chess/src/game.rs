//! The game model: everything a PGN or SCID game holds, so that converting between them
//! loses nothing.
//!
//! ```
//! use tabiya_chess::game::{Game, GameResult};
//!
//! let game = Game::default();
//! assert_eq!(game.result, GameResult::Unknown);
//! assert!(game.start_position().is_ok());
//! ```

use shakmaty::fen::Fen;
use shakmaty::{CastlingMode, Chess, Move, PositionError};

/// A game's result, as PGN and SCID know it.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
pub enum GameResult {
    WhiteWins,
    BlackWins,
    Draw,
    /// `*`: unknown, unfinished or abandoned.
    #[default]
    Unknown,
}

impl GameResult {
    pub fn as_pgn(self) -> &'static str {
        match self {
            GameResult::WhiteWins => "1-0",
            GameResult::BlackWins => "0-1",
            GameResult::Draw => "1/2-1/2",
            GameResult::Unknown => "*",
        }
    }

    pub fn from_pgn(text: &str) -> Option<GameResult> {
        Some(match text {
            "1-0" => GameResult::WhiteWins,
            "0-1" => GameResult::BlackWins,
            "1/2-1/2" => GameResult::Draw,
            "*" => GameResult::Unknown,
            _ => return None,
        })
    }
}

/// One move of a line with what is attached to it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Node {
    /// `None` is a null move (`--` in PGN).
    pub mv: Option<Move>,
    /// Numeric annotation glyphs, in order (`$1` = `!`).
    pub nags: Vec<u8>,
    /// Comments after the move, in order.
    pub comments: Vec<String>,
    /// Alternatives to this move, each played from the position before it.
    pub variations: Vec<Line>,
}

impl Node {
    pub fn new(mv: Option<Move>) -> Node {
        Node { mv, nags: Vec::new(), comments: Vec::new(), variations: Vec::new() }
    }
}

/// A sequence of moves: the main line or a variation.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Line {
    /// Comments before the first move (the pre-game comment of the main line, or the comment
    /// at the start of a variation).
    pub comments: Vec<String>,
    pub nodes: Vec<Node>,
}

/// A chess game with its headers, start position, moves, annotations and result.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Game {
    /// Every tag in the order it was read, the seven-tag roster included.
    pub tags: Vec<(String, String)>,
    /// `None` is the standard starting position.
    pub start: Option<Fen>,
    /// Chess960 games use `CastlingMode::Chess960`.
    pub castling_mode: CastlingMode,
    pub moves: Line,
    pub result: GameResult,
}

impl Default for Game {
    fn default() -> Game {
        Game {
            tags: Vec::new(),
            start: None,
            castling_mode: CastlingMode::Standard,
            moves: Line::default(),
            result: GameResult::Unknown,
        }
    }
}

impl Game {
    /// The value of the first tag with this name.
    pub fn tag(&self, name: &str) -> Option<&str> {
        self.tags.iter().find(|(k, _)| k == name).map(|(_, v)| v.as_str())
    }

    /// Sets a tag, replacing the first with the same name or appending.
    pub fn set_tag(&mut self, name: &str, value: impl Into<String>) {
        let value = value.into();
        match self.tags.iter_mut().find(|(k, _)| k == name) {
            Some(slot) => slot.1 = value,
            None => self.tags.push((name.to_owned(), value)),
        }
    }

    /// The position the game starts from.
    pub fn start_position(&self) -> Result<Chess, Box<PositionError<Chess>>> {
        match &self.start {
            None => Ok(Chess::default()),
            Some(fen) => fen.clone().into_position(self.castling_mode).map_err(Box::new),
        }
    }

    /// Number of half-moves in the main line.
    pub fn ply_count(&self) -> usize {
        self.moves.nodes.len()
    }
}
