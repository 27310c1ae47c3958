//! tabiya's games as Arrow tables and Parquet files, for pyarrow, DuckDB, Spark and pandas:
//!
//! * [`chess`]: chess games (one row per game, every tag kept, moves in UCI, the movetext) and
//!   moves (one row per move: position keys, FEN on request, UCI and SAN, the mover's score and
//!   ratings); games read back from our games table or from lichess's Parquet.
//! * [`othello`]: Wthor games (names resolved, scores, moves) and positions (bitboards at every
//!   move).
//! * [`shogi`]: T-BASE tsume problems (every field, the position as SFEN, the solution in USI).
//!
//! Every file is zstd-compressed Parquet written by arrow-rs in row groups of bounded size; string
//! columns are UTF-8, and a chess game's text that is not UTF-8 is kept byte for byte by the
//! rule of [`text`]. The tables' columns are listed in each module.

pub mod chess;
pub mod othello;
pub mod shogi;
mod table;
pub mod text;

use std::path::{Path, PathBuf};

use tabiya_io::{Diagnostic, Location};

/// A table could not be written or read.
#[derive(Debug, thiserror::Error)]
pub enum ArrowError {
    /// A file could not be opened or read.
    #[error("{}: {source}", path.display())]
    Io {
        /// The file.
        path: PathBuf,
        /// What the system said.
        source: std::io::Error,
    },
    /// Parquet could not be written, or a file could not be read as Parquet.
    #[error("{0}")]
    Parquet(#[from] parquet::errors::ParquetError),
    /// A batch of rows did not fit its schema.
    #[error("{0}")]
    Arrow(#[from] arrow_schema::ArrowError),
    /// The Parquet file at `path` could not be read.
    #[error("{}: {source}", path.display())]
    ParquetFile {
        /// The file.
        path: PathBuf,
        /// What the Parquet reader said.
        source: parquet::errors::ParquetError,
    },
    /// The file is Parquet but holds no games tabiya reads.
    #[error("{}: {what}", path.display())]
    NotGames {
        /// The file.
        path: PathBuf,
        /// What it is instead.
        what: String,
    },
    /// A row could not be read as a game; it is left out.
    #[error("{location}: {what}")]
    UnreadableGame {
        /// The file and row.
        location: Location,
        /// Why.
        what: String,
    },
    /// A game made ready for one table was given to the writer of another.
    #[error("a game prepared for another table")]
    WrongTable,
    /// A games file could not be read.
    #[error(transparent)]
    Games(#[from] tabiya_chess::games::GamesError),
}

impl ArrowError {
    /// The Parquet reader's error for `path`.
    pub(crate) fn at(path: &Path, source: parquet::errors::ParquetError) -> ArrowError {
        ArrowError::ParquetFile { path: path.into(), source }
    }

    /// The error as a diagnostic (code [`codes::UNREADABLE_ROW`] for a row, [`codes::FILE`] for
    /// the rest).
    pub fn diagnostic(&self) -> Diagnostic {
        match self {
            ArrowError::UnreadableGame { location, what } => {
                Diagnostic::error(codes::UNREADABLE_ROW, location.clone(), what.clone())
            }
            ArrowError::Games(e) => e.diagnostic(),
            ArrowError::Io { path, source } => Diagnostic::error(codes::FILE, Location::file(path), source.to_string()),
            ArrowError::ParquetFile { path, source } => {
                Diagnostic::error(codes::FILE, Location::file(path), source.to_string())
            }
            ArrowError::NotGames { path, what } => Diagnostic::error(codes::FILE, Location::file(path), what.clone()),
            other => Diagnostic::error(codes::FILE, Location::default(), other.to_string()),
        }
    }
}

/// The stable codes of this crate's [`Diagnostic`]s.
pub mod codes {
    /// Error: a Parquet file could not be read or written.
    pub const FILE: &str = "parquet.file";
    /// Error: a row could not be read as a game; it is left out.
    pub const UNREADABLE_ROW: &str = "parquet.unreadable_row";
    /// Error: a game could not be replayed for its table; it is left out.
    pub const UNREPLAYABLE_GAME: &str = "parquet.unreplayable_game";
}

/// The magic bytes that start (and end) every Parquet file.
pub const MAGIC: &[u8; 4] = b"PAR1";

/// What a Parquet file's footer says (`tabiya info`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TableInfo {
    /// Rows of the table.
    pub rows: u64,
    /// Row groups.
    pub row_groups: usize,
    /// The columns' names, in order.
    pub columns: Vec<String>,
}

/// Reads the footer of the Parquet file at `path`.
pub fn describe(path: &Path) -> Result<TableInfo, ArrowError> {
    let file = std::fs::File::open(path).map_err(|source| ArrowError::Io { path: path.into(), source })?;
    let builder = parquet::arrow::arrow_reader::ParquetRecordBatchReaderBuilder::try_new(file)
        .map_err(|e| ArrowError::at(path, e))?;
    let metadata = builder.metadata();
    Ok(TableInfo {
        rows: metadata.file_metadata().num_rows().max(0) as u64,
        row_groups: metadata.num_row_groups(),
        columns: builder.schema().fields().iter().map(|f| f.name().clone()).collect(),
    })
}
