//! Chess games as Parquet: the games table (one row per game, [`games`]), the moves table (one
//! row per move, [`moves`]), and games read back from a games table or lichess's ([`read`]).
//!
//! ```no_run
//! use tabiya_arrow::chess::{ChessTable, ChessWriter};
//! use tabiya_chess::games::Source;
//!
//! let out = std::fs::File::create("games.parquet")?;
//! let mut writer = ChessWriter::new(out, ChessTable::Games)?;
//! let mut found = Vec::new();
//! writer.add_source(&Source::open("games.pgn".as_ref())?, &mut found, |_| {})?;
//! let (summary, _file) = writer.finish()?;
//! println!("{} games, {} rows", summary.games, summary.rows);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

pub mod games;
pub mod moves;
pub mod read;

use std::io::Write;

use arrow_schema::Schema;
use tabiya_chess::game::Game;
use tabiya_chess::games::{ReadReport, Source};
use tabiya_io::DiagnosticSink;

use crate::ArrowError;
use crate::table::TableWriter;
pub use games::GameRow;
pub use moves::GameMoves;
pub use read::{ParquetGames, ReadRow};

/// Which table games are written as.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ChessTable {
    /// One row per game ([`games`]).
    Games,
    /// One row per main-line move ([`moves`]); `fen`: with the FEN of each position.
    Moves {
        /// Add the `fen` column.
        fen: bool,
    },
}

/// A game made ready for its table, on the thread that read it.
#[derive(Debug, Clone)]
pub enum PreparedGame {
    /// A row of the games table.
    Game(GameRow),
    /// The rows of the moves table.
    Moves(GameMoves),
}

impl ChessTable {
    /// The table's schema.
    pub fn schema(self) -> Schema {
        match self {
            ChessTable::Games => games::schema(),
            ChessTable::Moves { fen } => moves::schema(fen),
        }
    }

    /// Makes `game` ready for the table (the costly part: replaying, writing the movetext).
    pub fn prepare(self, game: Game) -> PreparedGame {
        match self {
            ChessTable::Games => PreparedGame::Game(GameRow::new(game)),
            ChessTable::Moves { fen } => PreparedGame::Moves(GameMoves::new(&game, fen)),
        }
    }
}

/// What a [`ChessWriter`] wrote.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct TableSummary {
    /// Games written.
    pub games: u64,
    /// Rows written (games, or moves).
    pub rows: u64,
}

/// A Parquet file of games being written.
pub struct ChessWriter<W: Write + Send> {
    table: ChessTable,
    kind: WriterKind<W>,
    games: u64,
}

enum WriterKind<W: Write + Send> {
    // Boxed: the builders of a table are a few kilobytes.
    Games(Box<TableWriter<W, games::GameRows>>),
    Moves(Box<TableWriter<W, moves::MoveRows>>),
}

impl<W: Write + Send> ChessWriter<W> {
    /// Starts a file of `table` on `out`.
    pub fn new(out: W, table: ChessTable) -> Result<ChessWriter<W>, ArrowError> {
        let kind = match table {
            ChessTable::Games => WriterKind::Games(Box::new(TableWriter::new(
                out,
                table.schema(),
                &games::PLAIN_COLUMNS,
                games::GameRows::new(),
            )?)),
            ChessTable::Moves { fen } => WriterKind::Moves(Box::new(TableWriter::new(
                out,
                table.schema(),
                &moves::PLAIN_COLUMNS,
                moves::MoveRows::new(fen),
            )?)),
        };
        Ok(ChessWriter { table, kind, games: 0 })
    }

    /// Adds a game made ready by [`ChessTable::prepare`] for this writer's table.
    pub fn push(&mut self, prepared: &PreparedGame) -> Result<(), ArrowError> {
        match (&mut self.kind, prepared) {
            (WriterKind::Games(writer), PreparedGame::Game(row)) => {
                writer.rows.push(row);
                writer.flush_full()?;
            }
            (WriterKind::Moves(writer), PreparedGame::Moves(moves)) => {
                writer.rows.push(self.games, moves)?;
                writer.flush_full()?;
            }
            _ => return Err(ArrowError::WrongTable),
        }
        self.games += 1;
        Ok(())
    }

    /// Adds one game.
    pub fn add(&mut self, game: Game) -> Result<(), ArrowError> {
        let prepared = self.table.prepare(game);
        self.push(&prepared)
    }

    /// Adds every game of `source` in order, read and made ready on all cores. What reading
    /// found (repairs, games that could not be read, which are left out) goes to
    /// `diagnostics`; `progress` is called with the number of games handled.
    pub fn add_source(
        &mut self,
        source: &Source,
        diagnostics: &mut (impl DiagnosticSink + Send),
        mut progress: impl FnMut(u64) + Send,
    ) -> Result<(), ArrowError> {
        let mut report = ReadReport::start(source, diagnostics);
        let table = self.table;
        source.read_with_diagnostics(
            |game| table.prepare(game),
            |item| {
                progress(1);
                match report.game(item) {
                    Some(prepared) => self.push(&prepared),
                    None => Ok(()),
                }
            },
        )?;
        report.finish();
        Ok(())
    }

    /// Writes the last rows and the file's footer; what was written, and the output.
    pub fn finish(self) -> Result<(TableSummary, W), ArrowError> {
        let (rows, out) = match self.kind {
            WriterKind::Games(writer) => writer.finish()?,
            WriterKind::Moves(writer) => writer.finish()?,
        };
        Ok((TableSummary { games: self.games, rows }, out))
    }
}
