//! The moves table: one row per move of every game's main line, for training and statistics.
//!
//! | column | type | what |
//! |---|---|---|
//! | `game_index` | uint64 | the game's place in the input, from 0 (the games table's `game_index`) |
//! | `ply` | uint32 | half-moves played before this one, from 0 |
//! | `polyglot_key` | uint64 | the Polyglot key of the position before the move |
//! | `tree_key` | fixed_size_binary(26) | the position's key in `tabiya tree` files (`tabiya_chess::tree::PositionKey`: the normalised position itself, not a hash); null for a position of more than 32 pieces (a FEN's), which no tree holds |
//! | `fen` | string | the position before the move (only when asked for: it is most of the file) |
//! | `uci` | string | the move in UCI (`0000` a null move) |
//! | `san` | string | the move in SAN (`--` a null move) |
//! | `mover_score` | float32 | the game's result for the side that moves: 1, 0.5, 0; null when unknown |
//! | `mover_elo` `opponent_elo` | int32 | the `WhiteElo`/`BlackElo` of the mover and of the other side |

use std::sync::Arc;

use arrow_array::builder::{
    ArrayBuilder, FixedSizeBinaryBuilder, Float32Builder, Int32Builder, StringBuilder, UInt32Builder, UInt64Builder,
};
use arrow_array::{ArrayRef, RecordBatch};
use arrow_schema::{DataType, Field, Schema};
use shakmaty::fen::Fen;
use shakmaty::san::SanPlus;
use shakmaty::{Color, EnPassantMode, Position};
use tabiya_chess::book::position_key;
use tabiya_chess::game::{Game, GameResult, pass};
use tabiya_chess::text::Text;
use tabiya_chess::tree::{KEY_BYTES, PositionKey};

use super::games::uci;
use crate::ArrowError;
use crate::table::Rows;

/// The moves table's schema (see the module's table); `fen` only `with_fen`.
pub fn schema(with_fen: bool) -> Schema {
    let mut fields = vec![
        Field::new("game_index", DataType::UInt64, false),
        Field::new("ply", DataType::UInt32, false),
        Field::new("polyglot_key", DataType::UInt64, false),
        Field::new("tree_key", DataType::FixedSizeBinary(KEY_BYTES as i32), true),
    ];
    if with_fen {
        fields.push(Field::new("fen", DataType::Utf8, false));
    }
    fields.extend([
        Field::new("uci", DataType::Utf8, false),
        Field::new("san", DataType::Utf8, false),
        Field::new("mover_score", DataType::Float32, true),
        Field::new("mover_elo", DataType::Int32, true),
        Field::new("opponent_elo", DataType::Int32, true),
    ]);
    Schema::new(fields)
}

/// The columns written without a dictionary.
pub(crate) const PLAIN_COLUMNS: [&str; 3] = ["polyglot_key", "tree_key", "fen"];

/// The moves of one game made ready for the table, on the thread that read it.
#[derive(Debug, Clone, Default)]
pub struct GameMoves {
    keys: Vec<u64>,
    tree_keys: Vec<Option<PositionKey>>,
    /// For each move its FEN (when asked for), UCI and SAN, one after another, with where each
    /// ends.
    text: String,
    ends: Vec<u32>,
    result: GameResult,
    /// White's and Black's ratings.
    elo: [Option<i32>; 2],
    /// White moves first (false when the start position has Black to move).
    white_first: bool,
}

impl GameMoves {
    /// Replays the main line of `game`; the FEN of each position `with_fen`. A game whose
    /// start position is not legal chess has no moves here (its moves could not be read).
    pub fn new(game: &Game, with_fen: bool) -> GameMoves {
        let rating = |name| game.tag(name).and_then(Text::rating).and_then(|r| i32::try_from(r).ok());
        let mut moves =
            GameMoves { result: game.result, elo: [rating("WhiteElo"), rating("BlackElo")], ..GameMoves::default() };
        let Ok(mut pos) = game.start_position() else { return moves };
        moves.white_first = pos.turn() == Color::White;
        for node in &game.moves.nodes {
            moves.keys.push(position_key(&pos));
            moves.tree_keys.push(PositionKey::new(&pos).ok());
            if with_fen {
                moves.push_text(&Fen::from_position(&pos, EnPassantMode::Legal).to_string());
            }
            moves.push_text(&uci(node.mv.as_ref(), game));
            match &node.mv {
                Some(mv) => {
                    let san = SanPlus::from_move_and_play_unchecked(&mut pos, *mv);
                    moves.push_text(&san.to_string());
                }
                None => {
                    moves.push_text("--");
                    pos = match pass(&pos) {
                        Some(next) => next,
                        // A pass out of check (which some files hold): the moves after it
                        // cannot be replayed.
                        None => break,
                    };
                }
            }
        }
        moves
    }

    fn push_text(&mut self, text: &str) {
        self.text.push_str(text);
        self.ends.push(self.text.len() as u32);
    }

    /// Number of moves.
    pub fn len(&self) -> usize {
        self.keys.len()
    }

    /// No moves.
    pub fn is_empty(&self) -> bool {
        self.keys.is_empty()
    }
}

/// The moves table's rows being gathered into a batch.
pub(crate) struct MoveRows {
    game_index: UInt64Builder,
    ply: UInt32Builder,
    polyglot_key: UInt64Builder,
    tree_key: FixedSizeBinaryBuilder,
    fen: Option<StringBuilder>,
    uci: StringBuilder,
    san: StringBuilder,
    mover_score: Float32Builder,
    mover_elo: Int32Builder,
    opponent_elo: Int32Builder,
}

impl MoveRows {
    pub(crate) fn new(with_fen: bool) -> MoveRows {
        MoveRows {
            game_index: UInt64Builder::new(),
            ply: UInt32Builder::new(),
            polyglot_key: UInt64Builder::new(),
            tree_key: FixedSizeBinaryBuilder::new(KEY_BYTES as i32),
            fen: with_fen.then(StringBuilder::new),
            uci: StringBuilder::new(),
            san: StringBuilder::new(),
            mover_score: Float32Builder::new(),
            mover_elo: Int32Builder::new(),
            opponent_elo: Int32Builder::new(),
        }
    }

    /// Adds the rows of the moves of game `game_index`.
    pub(crate) fn push(&mut self, game_index: u64, moves: &GameMoves) -> Result<(), ArrowError> {
        let mut start = 0usize;
        let mut texts = moves.ends.iter().map(|&end| {
            let text = &moves.text[start..end as usize];
            start = end as usize;
            text
        });
        for (ply, (&key, tree_key)) in moves.keys.iter().zip(&moves.tree_keys).enumerate() {
            self.game_index.append_value(game_index);
            self.ply.append_value(ply as u32);
            self.polyglot_key.append_value(key);
            match tree_key {
                Some(tree_key) => self.tree_key.append_value(tree_key.0)?,
                None => self.tree_key.append_null(),
            }
            let mut next = || texts.next().unwrap_or_default();
            if let Some(fen) = &mut self.fen {
                fen.append_value(next());
            }
            self.uci.append_value(next());
            self.san.append_value(next());
            let white = (ply % 2 == 0) == moves.white_first;
            let (mover, opponent) = if white { (0, 1) } else { (1, 0) };
            self.mover_score.append_option(match (moves.result, white) {
                (GameResult::WhiteWins, true) | (GameResult::BlackWins, false) => Some(1.0),
                (GameResult::WhiteWins, false) | (GameResult::BlackWins, true) => Some(0.0),
                (GameResult::Draw, _) => Some(0.5),
                (GameResult::Unknown, _) => None,
            });
            self.mover_elo.append_option(moves.elo[mover]);
            self.opponent_elo.append_option(moves.elo[opponent]);
        }
        Ok(())
    }
}

impl Rows for MoveRows {
    fn len(&self) -> usize {
        self.game_index.len()
    }

    fn batch(&mut self, schema: &Arc<Schema>) -> Result<RecordBatch, ArrowError> {
        let mut columns: Vec<ArrayRef> = vec![
            Arc::new(self.game_index.finish()),
            Arc::new(self.ply.finish()),
            Arc::new(self.polyglot_key.finish()),
            Arc::new(self.tree_key.finish()),
        ];
        if let Some(fen) = &mut self.fen {
            columns.push(Arc::new(fen.finish()));
        }
        columns.extend([
            Arc::new(self.uci.finish()) as ArrayRef,
            Arc::new(self.san.finish()),
            Arc::new(self.mover_score.finish()),
            Arc::new(self.mover_elo.finish()),
            Arc::new(self.opponent_elo.finish()),
        ]);
        Ok(RecordBatch::try_new(schema.clone(), columns)?)
    }
}
