//! Wthor games as Parquet: the games table (one row per game) and the positions table (one row
//! per move, the position before it as bitboards).
//!
//! Games table:
//!
//! | column | type | what |
//! |---|---|---|
//! | `game_index` | uint64 | the game's place in the output, from 0 |
//! | `year` | uint16 | the year of its file |
//! | `record` | uint32 | its record number in its file, from 0 |
//! | `tournament` `black` `white` | string | names from WTHOR.TRN/WTHOR.JOU (`#index` when unknown) |
//! | `tournament_index` `black_index` `white_index` | uint16 | the indices as stored |
//! | `real_score` | uint8 | Black's discs at the end, empties to the winner |
//! | `theoretical_score` | uint8 | Black's discs under perfect play from `depth` empties |
//! | `depth` | uint8 | the file's P3: empties at which the theoretical score was computed |
//! | `moves` | list of string | the moves (`f5`, `d6`, …; passes are not stored) |
//! | `passes` | uint32 | forced passes |
//! | `ending` | string | `full_board`, `early` (no side can move first) or `truncated` |
//!
//! Positions table: `game_index`, `year`, `ply` (uint8, moves before this one), `empties`
//! (uint8), `black` and `white` (uint64 bitboards: bit 0 = a1, bit 7 = h1, bit 63 = h8),
//! `to_move` (`black`/`white`, the side that plays the move, after a forced pass), `move`
//! (`f5`), `real_score`, `theoretical_score`.

use std::io::Write;
use std::sync::Arc;

use arrow_array::builder::{
    ArrayBuilder, ListBuilder, StringBuilder, UInt8Builder, UInt16Builder, UInt32Builder, UInt64Builder,
};
use arrow_array::{ArrayRef, RecordBatch};
use arrow_schema::{DataType, Field, Schema};
use tabiya_othello::board::{Color, Position, Square};
use tabiya_othello::wthor::{Ending, GameContext, Replay, ReplayError};

use crate::ArrowError;
use crate::table::{Rows, TableWriter};

/// Which table Wthor games are written as.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum OthelloTable {
    /// One row per game.
    Games,
    /// One row per move.
    Positions,
}

impl OthelloTable {
    /// The table's schema (see the module's tables).
    pub fn schema(self) -> Schema {
        let u8s = |names: &[&str]| names.iter().map(|&n| Field::new(n, DataType::UInt8, false)).collect::<Vec<_>>();
        let mut fields =
            vec![Field::new("game_index", DataType::UInt64, false), Field::new("year", DataType::UInt16, false)];
        match self {
            OthelloTable::Games => {
                fields.push(Field::new("record", DataType::UInt32, false));
                for name in ["tournament", "black", "white"] {
                    fields.push(Field::new(name, DataType::Utf8, false));
                    fields.push(Field::new(format!("{name}_index"), DataType::UInt16, false));
                }
                fields.extend(u8s(&["real_score", "theoretical_score", "depth"]));
                fields.extend([
                    Field::new("moves", DataType::List(Arc::new(Field::new("item", DataType::Utf8, true))), false),
                    Field::new("passes", DataType::UInt32, false),
                    Field::new("ending", DataType::Utf8, false),
                ]);
            }
            OthelloTable::Positions => {
                fields.extend(u8s(&["ply", "empties"]));
                fields.extend([
                    Field::new("black", DataType::UInt64, false),
                    Field::new("white", DataType::UInt64, false),
                    Field::new("to_move", DataType::Utf8, false),
                    Field::new("move", DataType::Utf8, false),
                ]);
                fields.extend(u8s(&["real_score", "theoretical_score"]));
            }
        }
        Schema::new(fields)
    }
}

/// A Parquet file of Wthor games being written.
pub struct OthelloWriter<W: Write + Send> {
    kind: Kind<W>,
    games: u64,
}

enum Kind<W: Write + Send> {
    // Boxed: the builders of a table are a few kilobytes.
    Games(Box<TableWriter<W, GameRows>>),
    Positions(Box<TableWriter<W, PositionRows>>),
}

impl<W: Write + Send> OthelloWriter<W> {
    /// Starts a file of `table` on `out`.
    pub fn new(out: W, table: OthelloTable) -> Result<OthelloWriter<W>, ArrowError> {
        let schema = table.schema();
        let kind = match table {
            OthelloTable::Games => Kind::Games(Box::new(TableWriter::new(out, schema, &[], GameRows::default())?)),
            OthelloTable::Positions => {
                Kind::Positions(Box::new(TableWriter::new(out, schema, &["black", "white"], PositionRows::default())?))
            }
        };
        Ok(OthelloWriter { kind, games: 0 })
    }

    /// Adds a game. `Ok(Err(_))`: its moves do not replay, and it is left out.
    pub fn push(&mut self, game: &GameContext<'_>) -> Result<Result<(), ReplayError>, ArrowError> {
        let squares = match game.squares() {
            Ok(squares) => squares,
            Err(e) => return Ok(Err(e)),
        };
        match &mut self.kind {
            Kind::Games(writer) => {
                let replay = match Replay::run(&game.game.moves, 0) {
                    Ok(replay) => replay,
                    Err(e) => return Ok(Err(e)),
                };
                writer.rows.push(self.games, game, &squares, &replay);
                writer.flush_full()?;
            }
            Kind::Positions(writer) => {
                if let Err(e) = writer.rows.push(self.games, game, &squares) {
                    return Ok(Err(e));
                }
                writer.flush_full()?;
            }
        }
        self.games += 1;
        Ok(Ok(()))
    }

    /// Writes the last rows and the footer: the number of games and of rows, and the output.
    pub fn finish(self) -> Result<(u64, u64, W), ArrowError> {
        let (rows, out) = match self.kind {
            Kind::Games(writer) => writer.finish()?,
            Kind::Positions(writer) => writer.finish()?,
        };
        Ok((self.games, rows, out))
    }
}

fn push_square(builder: &mut StringBuilder, square: Square) {
    let name = square.name();
    builder.append_value(std::str::from_utf8(&name).unwrap_or("??"));
}

#[derive(Default)]
struct GameRows {
    game_index: UInt64Builder,
    year: UInt16Builder,
    record: UInt32Builder,
    names: [StringBuilder; 3],
    indices: [UInt16Builder; 3],
    scores: [UInt8Builder; 3],
    moves: ListBuilder<StringBuilder>,
    passes: UInt32Builder,
    ending: StringBuilder,
}

impl GameRows {
    fn push(&mut self, game_index: u64, game: &GameContext<'_>, squares: &[Square], replay: &Replay) {
        self.game_index.append_value(game_index);
        self.year.append_value(game.year);
        self.record.append_value(game.record as u32);
        let record = game.game;
        let names = [game.tournament_name(), game.black_name(), game.white_name()];
        for ((builder, name), (indices, index)) in self.names.iter_mut().zip(names).zip(self.indices.iter_mut().zip([
            record.tournament,
            record.black,
            record.white,
        ])) {
            builder.append_value(name);
            indices.append_value(index);
        }
        for (builder, score) in self.scores.iter_mut().zip([record.real_score, record.theoretical_score, game.depth]) {
            builder.append_value(score);
        }
        for &square in squares {
            push_square(self.moves.values(), square);
        }
        self.moves.append(true);
        self.passes.append_value(replay.passes);
        self.ending.append_value(ending_name(replay));
    }
}

/// The ending as the JSON Lines export names it.
fn ending_name(replay: &Replay) -> &'static str {
    match replay.ending() {
        Ending::FullBoard => "full_board",
        Ending::Early => "early",
        Ending::Truncated => "truncated",
    }
}

impl Rows for GameRows {
    fn len(&self) -> usize {
        self.game_index.len()
    }

    fn batch(&mut self, schema: &Arc<Schema>) -> Result<RecordBatch, ArrowError> {
        let mut columns: Vec<ArrayRef> =
            vec![Arc::new(self.game_index.finish()), Arc::new(self.year.finish()), Arc::new(self.record.finish())];
        for (names, indices) in self.names.iter_mut().zip(self.indices.iter_mut()) {
            columns.push(Arc::new(names.finish()));
            columns.push(Arc::new(indices.finish()));
        }
        columns.extend(self.scores.iter_mut().map(|b| Arc::new(b.finish()) as ArrayRef));
        columns.extend([
            Arc::new(self.moves.finish()) as ArrayRef,
            Arc::new(self.passes.finish()),
            Arc::new(self.ending.finish()),
        ]);
        Ok(RecordBatch::try_new(schema.clone(), columns)?)
    }
}

#[derive(Default)]
struct PositionRows {
    game_index: UInt64Builder,
    year: UInt16Builder,
    ply: UInt8Builder,
    empties: UInt8Builder,
    black: UInt64Builder,
    white: UInt64Builder,
    to_move: StringBuilder,
    played: StringBuilder,
    real_score: UInt8Builder,
    theoretical_score: UInt8Builder,
}

impl PositionRows {
    /// Adds the positions of a game, or nothing when a move is not legal where it stands.
    fn push(&mut self, game_index: u64, game: &GameContext<'_>, squares: &[Square]) -> Result<(), ReplayError> {
        // Replayed first, so that a game that does not replay adds no row.
        let mut positions = Vec::with_capacity(squares.len());
        let mut position = Position::start();
        for (index, &square) in squares.iter().enumerate() {
            if position.moves() == 0 {
                position = position.pass();
            }
            let played = position.play(square).map_err(|e| ReplayError::Illegal {
                index,
                square: String::from_utf8_lossy(&square.name()).into_owned(),
                side: e.side,
            })?;
            positions.push(position);
            position = played;
        }
        for (ply, (position, &square)) in positions.iter().zip(squares).enumerate() {
            self.game_index.append_value(game_index);
            self.year.append_value(game.year);
            self.ply.append_value(ply as u8);
            self.empties.append_value(position.board.empties() as u8);
            self.black.append_value(position.black());
            self.white.append_value(position.white());
            self.to_move.append_value(if position.side == Color::Black { "black" } else { "white" });
            push_square(&mut self.played, square);
            self.real_score.append_value(game.game.real_score);
            self.theoretical_score.append_value(game.game.theoretical_score);
        }
        Ok(())
    }
}

impl Rows for PositionRows {
    fn len(&self) -> usize {
        self.game_index.len()
    }

    fn batch(&mut self, schema: &Arc<Schema>) -> Result<RecordBatch, ArrowError> {
        let columns: Vec<ArrayRef> = vec![
            Arc::new(self.game_index.finish()),
            Arc::new(self.year.finish()),
            Arc::new(self.ply.finish()),
            Arc::new(self.empties.finish()),
            Arc::new(self.black.finish()),
            Arc::new(self.white.finish()),
            Arc::new(self.to_move.finish()),
            Arc::new(self.played.finish()),
            Arc::new(self.real_score.finish()),
            Arc::new(self.theoretical_score.finish()),
        ];
        Ok(RecordBatch::try_new(schema.clone(), columns)?)
    }
}
