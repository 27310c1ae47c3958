//! The per-position move counts of a book build, and the Polyglot book written from counts
//! summed elsewhere: the two halves of `tabiya.spark.build_book`.
//!
//! Each shard's games are counted into a book (`tabiya_chess::book`, as `tabiya book` counts
//! them); every (position key, move) pair becomes a row with its games, the mover's wins,
//! draws and losses, and an `order` = shard number × 2³² + the move's rank among its
//! position's moves in that shard. Summing rows of equal (key, move) and keeping the least
//! `order` gives the counts of the concatenated shards with the order their moves were first
//! played: what `polyglot make-book` breaks ties of weight by. A tree reduces the same rows.

use std::io;
use std::path::PathBuf;

use numpy::PyReadonlyArray1;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::PyDict;
use shakmaty::Color;
use tabiya_chess::book::{self, BuildOptions, EloFilter, GamesBuild};
use tabiya_chess::polyglot::{self, Entry, MakeOptions, MoveCount, encode_move};
use tabiya_io::AtomicFile;

use crate::columns::{set_column, set_counts};
use crate::errors::{error, file_error, refuse_existing};
use crate::games::Input;

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(book_counts, m)?)?;
    m.add_class::<PolyglotCountsWriter>()?;
    Ok(())
}

/// The counts of every (position, move) of a book built from `source` (PGN text or a path to
/// any chess games source), as a dict of NumPy arrays of one length: `key` (uint64, the
/// Polyglot key), `raw_move` (uint16, Polyglot's move field), `black` (bool, Black to move),
/// `games`, `wins`, `draws`, `losses` (uint32, the mover's), `order` (uint64, see the module),
/// sorted by key then order; and `summary`, a dict of what the build did with the games.
#[pyfunction]
#[pyo3(signature = (source, *, shard = 0, max_ply = 1024, min_elo = 0, min_white_elo = 0, min_black_elo = 0, min_strong_elo = 0))]
#[allow(clippy::too_many_arguments)]
fn book_counts<'py>(
    py: Python<'py>,
    source: &Bound<'py, PyAny>,
    shard: u32,
    max_ply: u32,
    min_elo: u32,
    min_white_elo: u32,
    min_black_elo: u32,
    min_strong_elo: u32,
) -> PyResult<Bound<'py, PyDict>> {
    let options = BuildOptions {
        max_ply,
        elo: EloFilter { white: min_white_elo, black: min_black_elo, strong: min_strong_elo, weak: min_elo },
        keep_positions: false,
    };
    let input = if let Ok(bytes) = source.cast::<pyo3::types::PyBytes>() {
        Input::Text(bytes.as_bytes().to_vec())
    } else {
        Input::extract(source)?
    };
    let built = py.detach(|| build(input, &options))?;
    let mut columns = Columns::default();
    for position in built.book.positions() {
        let black = position.turn() == Color::Black;
        for (rank, m) in position.moves.iter().enumerate() {
            columns.key.push(position.key);
            columns.raw_move.push(encode_move(m.mv));
            columns.black.push(black);
            columns.games.push(m.games);
            columns.wins.push(m.wins);
            columns.draws.push(m.draws);
            columns.losses.push(m.losses);
            columns.order.push((u64::from(shard) << 32) | rank as u64);
        }
    }
    let dict = PyDict::new(py);
    set_column(&dict, "key", columns.key)?;
    set_column(&dict, "raw_move", columns.raw_move)?;
    set_column(&dict, "black", columns.black)?;
    set_column(&dict, "games", columns.games)?;
    set_column(&dict, "wins", columns.wins)?;
    set_column(&dict, "draws", columns.draws)?;
    set_column(&dict, "losses", columns.losses)?;
    set_column(&dict, "order", columns.order)?;
    let s = &built.summary;
    set_counts(
        &dict,
        "summary",
        &[
            ("games_added", s.games_added),
            ("games_chess960", s.games_chess960),
            ("games_below_min_elo", s.games_below_min_elo),
            ("games_invalid_start", s.games_invalid_start),
            ("moves_added", s.moves_added),
            ("unreadable", built.unreadable),
            ("warnings", built.warnings),
            ("cut", built.cut),
        ],
    )?;
    Ok(dict)
}

#[derive(Default)]
struct Columns {
    key: Vec<u64>,
    raw_move: Vec<u16>,
    black: Vec<bool>,
    games: Vec<u32>,
    wins: Vec<u32>,
    draws: Vec<u32>,
    losses: Vec<u32>,
    order: Vec<u64>,
}

/// The book of one input, as `tabiya book` builds it: PGN text in parallel, other sources game
/// by game.
fn build(input: Input, options: &BuildOptions) -> PyResult<GamesBuild> {
    match input {
        Input::Text(text) => Ok(book::build_from_pgn(&text, options, None)),
        Input::Path(path) => {
            let head = tabiya_io::Head::read(&path).ok();
            if head.as_ref().and_then(tabiya_chess::Format::sniff) == Some(tabiya_chess::Format::Pgn) {
                let bytes = tabiya_io::read_input(&path).map_err(|e| file_error(&path, "games.io", e))?;
                return Ok(book::build_from_pgn(&bytes, options, None));
            }
            let games = tabiya_chess::games::open(&path).map_err(|e| error(&e.diagnostic()))?;
            Ok(book::build_from_games(games, options))
        }
    }
}

/// Writes the Polyglot book of summed counts as they come, in key order, into a file with
/// `polyglot make-book`'s rules: the driver's half of `tabiya.spark.build_book`. It holds one
/// position's moves, whatever the book's size.
///
/// The rows (`add`, in as many calls as wanted) are the columns of [`book_counts`] with each
/// (key, move) once, summed, sorted by key (unsigned) then `order` (the least of its rows');
/// `finish` puts the file in place. An error, or a writer dropped unfinished, leaves no file.
#[pyclass(module = "tabiya._tabiya")]
pub struct PolyglotCountsWriter {
    path: PathBuf,
    options: MakeOptions,
    /// `None` once finished or failed.
    writing: Option<BookWriting>,
}

/// What a [`PolyglotCountsWriter`] holds between calls.
struct BookWriting {
    out: AtomicFile,
    /// The position whose moves are being gathered, and its side to move.
    key: Option<(u64, Color)>,
    moves: Vec<MoveCount>,
    /// The entries of a position.
    entries: Vec<Entry>,
    written: usize,
}

#[pymethods]
impl PolyglotCountsWriter {
    /// Starts the book at `path` (an existing file is replaced only with `force`) with `tabiya
    /// book`'s `--min-games`, `--min-score`, `--only-white`/`--only-black` (`only`), `--uniform`.
    #[new]
    #[pyo3(signature = (path, *, min_games = 3, min_score = 0.0, only = None, uniform = false, force = false))]
    fn new(
        path: PathBuf,
        min_games: u32,
        min_score: f64,
        only: Option<&str>,
        uniform: bool,
        force: bool,
    ) -> PyResult<PolyglotCountsWriter> {
        refuse_existing(&path, force)?;
        let only = match only {
            None => None,
            Some("white") => Some(Color::White),
            Some("black") => Some(Color::Black),
            Some(other) => {
                return Err(PyValueError::new_err(format!("only must be 'white' or 'black', not {other:?}")));
            }
        };
        let out = AtomicFile::create(&path).map_err(|e| file_error(&path, "book.io", e))?;
        let writing = BookWriting { out, key: None, moves: Vec::new(), entries: Vec::new(), written: 0 };
        Ok(PolyglotCountsWriter {
            path,
            options: MakeOptions { min_games, min_score, only, uniform },
            writing: Some(writing),
        })
    }

    /// Adds rows (see the class).
    #[allow(clippy::too_many_arguments)]
    fn add(
        &mut self,
        py: Python<'_>,
        key: PyReadonlyArray1<'_, u64>,
        raw_move: PyReadonlyArray1<'_, u16>,
        black: PyReadonlyArray1<'_, bool>,
        games: PyReadonlyArray1<'_, u32>,
        wins: PyReadonlyArray1<'_, u32>,
        losses: PyReadonlyArray1<'_, u32>,
    ) -> PyResult<()> {
        let (key, raw_move, black) = (key.as_slice()?, raw_move.as_slice()?, black.as_slice()?);
        let (games, wins, losses) = (games.as_slice()?, wins.as_slice()?, losses.as_slice()?);
        if [raw_move.len(), black.len(), games.len(), wins.len(), losses.len()].iter().any(|&l| l != key.len()) {
            return Err(PyValueError::new_err("the count columns differ in length"));
        }
        let options = &self.options;
        let writing = self.writing.as_mut().ok_or_else(|| PyValueError::new_err("the book is finished"))?;
        let added = py.detach(|| {
            for i in 0..key.len() {
                let turn = if black[i] { Color::Black } else { Color::White };
                match writing.key {
                    Some((at, _)) if at == key[i] => {}
                    Some((at, _)) if at > key[i] => {
                        return Err(io::Error::other("the rows are not in key order"));
                    }
                    _ => {
                        writing.flush(options)?;
                        writing.key = Some((key[i], turn));
                    }
                }
                writing.moves.push(MoveCount {
                    raw_move: raw_move[i],
                    games: games[i],
                    wins: wins[i],
                    losses: losses[i],
                });
            }
            Ok(())
        });
        added.map_err(|e| {
            self.writing = None;
            file_error(&self.path, "book.io", e)
        })
    }

    /// Writes the last position and puts the book in place; returns its number of entries.
    fn finish(&mut self, py: Python<'_>) -> PyResult<usize> {
        let mut writing = self.writing.take().ok_or_else(|| PyValueError::new_err("the book is finished"))?;
        let options = &self.options;
        py.detach(|| {
            writing.flush(options)?;
            writing.out.commit()?;
            Ok(writing.written)
        })
        .map_err(|e: io::Error| file_error(&self.path, "book.io", e))
    }
}

impl BookWriting {
    /// Weighs and writes the position gathered, if any.
    fn flush(&mut self, options: &MakeOptions) -> io::Result<()> {
        if let Some((key, turn)) = self.key.take() {
            self.entries.clear();
            polyglot::push_position_entries(key, turn, self.moves.iter().copied(), options, &mut self.entries);
            polyglot::write_entries(&self.entries, &mut self.out)?;
            self.written += self.entries.len();
            self.moves.clear();
        }
        Ok(())
    }
}
