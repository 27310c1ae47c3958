//! One game for the game viewer: its tags, and its moves with their comments, NAGs and
//! variations, each move with the FEN it leads to, so that the page steps through the game
//! (variations too) without chess rules of its own.

use std::path::Path;

use serde::Serialize;
use shakmaty::{Chess, Position};
use tabiya_chess::book::fen_of;
use tabiya_chess::game::{Game, Line, pass};
use tabiya_chess::games::{GamesError, Source};

use crate::position::NamedMove;

/// A game as the viewer shows it.
#[derive(Debug, Clone, Serialize)]
pub struct GameView {
    /// The game's number in its file, from 0.
    pub game: usize,
    /// The tags in the file's order (decoded for display: bytes that are not UTF-8 become U+FFFD).
    pub tags: Vec<(String, String)>,
    /// The start position's FEN.
    pub start: String,
    /// The main line.
    pub moves: LineView,
    /// `1-0`, `0-1`, `1/2-1/2` or `*`.
    pub result: &'static str,
}

/// A line of moves: the main line or a variation.
#[derive(Debug, Clone, Default, Serialize)]
pub struct LineView {
    /// Comments before its first move.
    pub comments: Vec<String>,
    /// Its moves.
    pub nodes: Vec<NodeView>,
}

/// One move with what is attached to it.
#[derive(Debug, Clone, Serialize)]
pub struct NodeView {
    /// The move (`0000` and `--` for a null move).
    #[serde(flatten)]
    pub mv: NamedMove,
    /// The position after it.
    pub fen: String,
    /// Numeric annotation glyphs (`1` is `!`).
    pub nags: Vec<u8>,
    /// Comments after it.
    pub comments: Vec<String>,
    /// Alternatives to it, each from the position before it.
    pub variations: Vec<LineView>,
}

/// Game `number` (from 0) of the games file `path`.
pub fn read_game(path: &Path, number: usize) -> Result<Option<Game>, GamesError> {
    let source = Source::open(path)?;
    if let Source::Scid(db) = &source {
        return if number < db.len() { db.game(number).map(Some).map_err(GamesError::from) } else { Ok(None) };
    }
    // Read in order until the game wanted, which stops the reading by coming back as the
    // sink's "error".
    let mut seen = 0;
    let found = source.read_in_parallel(
        |game| game,
        |item| {
            seen += 1;
            if seen > number { Err(Box::new(item)) } else { Ok(()) }
        },
    );
    match found {
        Ok(()) => Ok(None),
        Err(item) => item.map(Some),
    }
}

impl GameView {
    /// The view of `game`, number `number` in its file.
    pub fn new(game: &Game, number: usize) -> GameView {
        let start = game.start_position().unwrap_or_default();
        GameView {
            game: number,
            tags: game.tags.iter().map(|(name, value)| (lossy(name.as_bytes()), lossy(value.as_bytes()))).collect(),
            start: fen_of(&start),
            moves: line_view(&game.moves, &start),
            result: game.result.as_pgn(),
        }
    }
}

/// The line's moves from `pos`, up to the first that cannot be played (the readers have
/// checked every move, so only a damaged game stops early).
fn line_view(line: &Line, start: &Chess) -> LineView {
    let mut pos = start.clone();
    let mut nodes = Vec::with_capacity(line.nodes.len());
    for node in &line.nodes {
        let (mv, after) = match node.mv {
            Some(mv) if pos.is_legal(mv) => {
                let named = NamedMove::new(&pos, mv);
                let mut after = pos.clone();
                after.play_unchecked(mv);
                (named, after)
            }
            None => match pass(&pos) {
                Some(after) => (NamedMove { uci: "0000".into(), san: "--".into() }, after),
                None => break,
            },
            Some(_) => break,
        };
        nodes.push(NodeView {
            mv,
            fen: fen_of(&after),
            nags: node.nags().to_vec(),
            comments: node.comments().iter().map(|c| lossy(c.as_bytes())).collect(),
            variations: node.variations().iter().map(|v| line_view(v, &pos)).collect(),
        });
        pos = after;
    }
    LineView { comments: line.comments.iter().map(|c| lossy(c.as_bytes())).collect(), nodes }
}

/// Text of the game as the page shows it: bytes that are not UTF-8 become U+FFFD.
fn lossy(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}
