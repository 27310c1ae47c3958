//! The per-(position, move) counts of a tree build, and the tree written from counts reduced
//! elsewhere: the two halves of `tabiya.spark.build_tree`.
//!
//! Each shard's games are counted into a tree of their own (`tabiya_chess::tree`, as
//! `tabiya tree` counts them), whose records become rows: the position's key, the move's
//! code and every count of [`TreeMove`], its best-rated games numbered `shard × 2³² + the
//! game's number in the shard`. Adding up rows of equal (key, move) as [`TreeMove::add`] does
//! (sums, the least and the greatest known year, the five best games by rating then number)
//! and numbering each shard's games after the games of the shards before it is what
//! `tabiya_io::tree::merge_trees` does: the tree of the shards in order, byte for byte. A
//! position's moves keep the order they were first played in (the merge puts a later shard's
//! new moves after the earlier ones): each row carries `shard × 2³² +` its place in its
//! position's moves, and the least of these orders the moves of the reduced tree.

use std::io;
use std::path::PathBuf;

use numpy::{PyArray1, PyArrayMethods, PyReadonlyArray1};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict};
use tabiya_chess::games::Source;
use tabiya_chess::tree::{self, GAME, KEY_BYTES, TopGame, TreeOptions, TreeSource};
use tabiya_io::AtomicFile;
use tabiya_io::tree::{TreeFile, TreeMove, TreeWriter};

use crate::columns::{set_column, set_counts};
use crate::errors::{error, file_error, refuse_existing};

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(tree_counts, m)?)?;
    m.add_class::<TreeCountsWriter>()?;
    Ok(())
}

/// Game numbers of one shard: its top games are numbered `shard << SHARD_SHIFT | number`.
const SHARD_SHIFT: u32 = 32;

/// The counts of every (position, move) of the tree of `path` (any chess games source, named
/// in the tree as written), as a dict of NumPy arrays, one row per (position, move) in key then
/// first-played order: `key` (uint8, rows × 26: the tree's position key), `code` (uint16),
/// `first_played` (uint64: `shard × 2³² +` the move's place among its position's), `games`,
/// `wins`, `draws`, `losses`, `mover_rating_sum`, `mover_rated`, `opponent_rating_sum`,
/// `opponent_rated` (uint64), `first_year`, `last_year` (uint16, 0 unknown), `top_len`
/// (uint8: the row's best games), `top_rating` (uint16) and `top_game` (uint64: `shard × 2³² +`
/// the game's number in this tree), flat, `top_len` of them a row; the shard's game table
/// (`table`: bytes, `table_offsets`: uint64, where each game's record starts), its `sources`
/// (a list of (name, games)) and `summary`, what the build did with the games.
#[pyfunction]
#[pyo3(signature = (path, *, shard = 0, max_ply = None, memory = 1 << 30))]
fn tree_counts<'py>(
    py: Python<'py>,
    path: PathBuf,
    shard: u32,
    max_ply: Option<u32>,
    memory: u64,
) -> PyResult<Bound<'py, PyDict>> {
    let options = TreeOptions { max_ply, memory, ..TreeOptions::default() };
    let (counts, table) = py.detach(|| count(&path, shard, options))?;
    let dict = PyDict::new(py);
    let rows = counts.code.len();
    dict.set_item("key", PyArray1::from_vec(py, counts.key).reshape([rows, KEY_BYTES])?)?;
    set_column(&dict, "code", counts.code)?;
    set_column(&dict, "first_played", counts.first_played)?;
    for (name, values) in counts.sums {
        set_column(&dict, name, values)?;
    }
    set_column(&dict, "first_year", counts.first_year)?;
    set_column(&dict, "last_year", counts.last_year)?;
    set_column(&dict, "top_len", counts.top_len)?;
    set_column(&dict, "top_rating", counts.top_rating)?;
    set_column(&dict, "top_game", counts.top_game)?;
    dict.set_item("table", PyBytes::new(py, &table.bytes))?;
    set_column(&dict, "table_offsets", table.offsets)?;
    dict.set_item("sources", table.sources.iter().map(|s| (s.name.clone(), s.games)).collect::<Vec<_>>())?;
    let s = &table.summary;
    set_counts(
        &dict,
        "summary",
        &[
            ("games_added", s.games_added),
            ("games_chess960", s.games_chess960),
            ("games_invalid_start", s.games_invalid_start),
            ("games_unreadable", s.games_unreadable),
            ("moves_added", s.moves_added),
            ("games_cut", s.games_cut),
        ],
    )?;
    Ok(dict)
}

/// The names of [`TreeMove`]'s sums, in the order [`TreeMove::sums`] gives them.
const SUMS: [&str; 8] =
    ["games", "wins", "draws", "losses", "mover_rating_sum", "mover_rated", "opponent_rating_sum", "opponent_rated"];

/// A tree's records as columns.
#[derive(Default)]
struct Counts {
    key: Vec<u8>,
    code: Vec<u16>,
    first_played: Vec<u64>,
    sums: Vec<(&'static str, Vec<u64>)>,
    first_year: Vec<u16>,
    last_year: Vec<u16>,
    top_len: Vec<u8>,
    top_rating: Vec<u16>,
    top_game: Vec<u64>,
}

/// A shard's game table, sources and what its build did.
struct Table {
    bytes: Vec<u8>,
    offsets: Vec<u64>,
    sources: Vec<TreeSource>,
    summary: tree::TreeSummary,
}

/// Builds the tree of `path` in a temporary file and reads its records back as columns.
fn count(path: &std::path::Path, shard: u32, options: TreeOptions) -> PyResult<(Counts, Table)> {
    let source = Source::open(path).map_err(|e| error(&e.diagnostic()))?;
    let temp =
        tempfile::NamedTempFile::new_in(&options.temp_dir).map_err(|e| file_error(&options.temp_dir, "tree.io", e))?;
    let mut builder = tree::TreeBuilder::new(options).map_err(|e| file_error(path, "tree.io", e))?;
    builder.add_source(&source, &path.display().to_string()).map_err(|e| file_error(path, "tree.io", e))?;
    let (_, footer, summary) = builder.finish(temp.as_file()).map_err(|e| file_error(temp.path(), "tree.io", e))?;
    if footer.games >= 1 << SHARD_SHIFT {
        return Err(PyValueError::new_err(format!("{}: more than 2³² games in one shard", path.display())));
    }
    let file = TreeFile::<KEY_BYTES>::open(temp.path(), GAME).map_err(|e| file_error(temp.path(), "tree.io", e))?;
    let mut counts = Counts { sums: SUMS.iter().map(|&name| (name, Vec::new())).collect(), ..Counts::default() };
    let mut records = file.records();
    let damaged = |e: std::io::Error| file_error(temp.path(), "tree.damaged", e);
    while let Some((key, moves)) = records.position::<KEY_BYTES>().map_err(damaged)? {
        for (place, m) in moves.iter().enumerate() {
            counts.key.extend_from_slice(&key);
            counts.code.push(m.code);
            counts.first_played.push(u64::from(shard) << SHARD_SHIFT | place as u64);
            for ((_, column), value) in counts.sums.iter_mut().zip(m.sums()) {
                column.push(value);
            }
            counts.first_year.push(m.first_year);
            counts.last_year.push(m.last_year);
            counts.top_len.push(m.top.len() as u8);
            for top in &m.top {
                counts.top_rating.push(top.rating);
                counts.top_game.push(u64::from(shard) << SHARD_SHIFT | top.game);
            }
        }
    }
    let (bytes, offsets) = file.game_table();
    let table = Table { bytes: bytes.to_vec(), offsets: offsets.collect(), sources: file.sources().to_vec(), summary };
    Ok((counts, table))
}

/// Writes the tree of reduced counts as they come, in key order, into a file: the driver's
/// half of `tabiya.spark.build_tree`. It holds one position's moves and the shards' game
/// tables, whatever the tree's size.
///
/// Every shard's game table (`add_shard`, shards numbered from 0 in order) comes before the
/// first rows; the rows (`add`, in as many calls as wanted) are the columns of [`tree_counts`]
/// with each (key, move) once, added up — `first_played` the least of its rows' —, sorted by
/// key then `first_played`; `finish` writes the game tables and puts the file in place. An
/// error, or a writer dropped unfinished, leaves no file.
#[pyclass(module = "tabiya._tabiya")]
pub struct TreeCountsWriter {
    path: PathBuf,
    /// `None` once finished or failed.
    writing: Option<Writing>,
}

/// What a [`TreeCountsWriter`] holds between calls.
struct Writing {
    tree: TreeWriter<AtomicFile, KEY_BYTES>,
    tables: Vec<(Vec<u8>, Vec<u64>, Vec<TreeSource>)>,
    /// Where each shard's games start among all games: set by the first rows.
    shifts: Option<Vec<u64>>,
    /// The position whose moves are being gathered, and the last move's `first_played`.
    key: Option<[u8; KEY_BYTES]>,
    last_played: u64,
    moves: Vec<TreeMove>,
    positions: u64,
}

#[pymethods]
impl TreeCountsWriter {
    /// Starts the tree at `path` (an existing file is replaced only with `force`).
    #[new]
    #[pyo3(signature = (path, *, force = false))]
    fn new(path: PathBuf, force: bool) -> PyResult<TreeCountsWriter> {
        refuse_existing(&path, force)?;
        let tree = AtomicFile::create(&path)
            .and_then(|file| TreeWriter::new(file, GAME))
            .map_err(|e| file_error(&path, "tree.io", e))?;
        let writing = Writing {
            tree,
            tables: Vec::new(),
            shifts: None,
            key: None,
            last_played: 0,
            moves: Vec::new(),
            positions: 0,
        };
        Ok(TreeCountsWriter { path, writing: Some(writing) })
    }

    /// Adds shard `shard`'s game table: its bytes, where each game's record starts, its
    /// sources (name, games).
    fn add_shard(
        &mut self,
        shard: usize,
        table: Vec<u8>,
        table_offsets: PyReadonlyArray1<'_, u64>,
        sources: Vec<(String, u64)>,
    ) -> PyResult<()> {
        let offsets = table_offsets.as_slice()?.to_vec();
        let writing = self.writing()?;
        if writing.shifts.is_some() || shard != writing.tables.len() {
            let why = format!("shard {shard}'s game table came after the rows or out of order");
            return Err(self.fail(why));
        }
        let sources = sources.into_iter().map(|(name, games)| TreeSource { name, games }).collect();
        writing.tables.push((table, offsets, sources));
        Ok(())
    }

    /// Adds rows (see the class): `key` the keys' bytes one after another, the top games'
    /// columns flat, `top_len` of them a row.
    #[pyo3(signature = (key, code, first_played, sums, first_year, last_year, top_len, top_rating, top_game))]
    #[allow(clippy::too_many_arguments)]
    fn add(
        &mut self,
        py: Python<'_>,
        key: &[u8],
        code: PyReadonlyArray1<'_, u16>,
        first_played: PyReadonlyArray1<'_, u64>,
        sums: Vec<PyReadonlyArray1<'_, u64>>,
        first_year: PyReadonlyArray1<'_, u16>,
        last_year: PyReadonlyArray1<'_, u16>,
        top_len: PyReadonlyArray1<'_, u8>,
        top_rating: PyReadonlyArray1<'_, u16>,
        top_game: PyReadonlyArray1<'_, u64>,
    ) -> PyResult<()> {
        let (code, first_played) = (code.as_slice()?, first_played.as_slice()?);
        let (first_year, last_year) = (first_year.as_slice()?, last_year.as_slice()?);
        let (top_len, top_rating, top_game) = (top_len.as_slice()?, top_rating.as_slice()?, top_game.as_slice()?);
        let sums: Vec<&[u64]> = sums.iter().map(|s| s.as_slice()).collect::<Result<_, _>>()?;
        let rows = code.len();
        let tops: usize = top_len.iter().map(|&n| usize::from(n)).sum();
        if key.len() != rows * KEY_BYTES
            || sums.len() != SUMS.len()
            || sums.iter().any(|s| s.len() != rows)
            || [first_played.len(), first_year.len(), last_year.len(), top_len.len()].iter().any(|&l| l != rows)
            || top_rating.len() != tops
            || top_game.len() != tops
        {
            return Err(PyValueError::new_err("the count columns differ in length"));
        }
        let rows =
            Reduced { key, code, first_played, sums: &sums, first_year, last_year, top_len, top_rating, top_game };
        let writing = self.writing()?;
        match py.detach(|| writing.add(&rows)) {
            Ok(()) => Ok(()),
            Err(why) => Err(self.fail(why)),
        }
    }

    /// Writes the game tables of the `shards` shards and puts the tree in place; returns its
    /// number of positions.
    fn finish(&mut self, py: Python<'_>, shards: usize) -> PyResult<u64> {
        let writing = self.writing.take().ok_or_else(|| PyValueError::new_err("the tree is finished"))?;
        if writing.tables.len() != shards {
            let why = format!("{} shards' game tables of {shards}", writing.tables.len());
            return Err(self.fail(why));
        }
        py.detach(|| writing.finish()).map_err(|e| file_error(&self.path, "tree.io", e))
    }
}

impl TreeCountsWriter {
    fn writing(&mut self) -> PyResult<&mut Writing> {
        self.writing.as_mut().ok_or_else(|| PyValueError::new_err("the tree is finished"))
    }

    /// Drops the file being written (nothing is left of it) and says why.
    fn fail(&mut self, why: String) -> PyErr {
        self.writing = None;
        PyValueError::new_err(format!("{}: {why}", self.path.display()))
    }
}

/// Reduced rows as [`TreeCountsWriter::add`] is given them.
struct Reduced<'a> {
    key: &'a [u8],
    code: &'a [u16],
    first_played: &'a [u64],
    sums: &'a [&'a [u64]],
    first_year: &'a [u16],
    last_year: &'a [u16],
    top_len: &'a [u8],
    top_rating: &'a [u16],
    top_game: &'a [u64],
}

impl Writing {
    /// Gathers `rows` into positions, writing each position as the next one starts.
    fn add(&mut self, rows: &Reduced<'_>) -> Result<(), String> {
        // A copy (one number a shard): the positions are written while it is read.
        let shifts = self
            .shifts
            .get_or_insert_with(|| {
                let mut games = 0u64;
                let mut shifts = Vec::with_capacity(self.tables.len());
                for (_, offsets, _) in &self.tables {
                    shifts.push(games);
                    games += offsets.len() as u64;
                }
                shifts
            })
            .clone();
        let mut top_at = 0;
        for (i, chunk) in rows.key.chunks_exact(KEY_BYTES).enumerate() {
            let key: [u8; KEY_BYTES] = chunk.try_into().map_err(|_| "a short key".to_owned())?;
            let tops = top_at..top_at + usize::from(rows.top_len[i]);
            top_at = tops.end;
            let top = tops
                .map(|t| {
                    let (shard, number) =
                        (rows.top_game[t] >> SHARD_SHIFT, rows.top_game[t] & ((1 << SHARD_SHIFT) - 1));
                    let shift = shifts
                        .get(shard as usize)
                        .ok_or_else(|| format!("a game of shard {shard}, of {}", shifts.len()))?;
                    Ok(TopGame { rating: rows.top_rating[t], game: shift + number })
                })
                .collect::<Result<Vec<_>, String>>()?;
            let sum = |n: usize| rows.sums[n][i];
            let played = rows.first_played[i];
            match self.key {
                Some(at) if at == key => {
                    if played < self.last_played || self.moves.iter().any(|m| m.code == rows.code[i]) {
                        return Err(
                            "a position's moves twice or out of order: the rows are not reduced and sorted".to_owned()
                        );
                    }
                }
                Some(at) if at > key => return Err("the rows are not in key order".to_owned()),
                _ => {
                    self.flush().map_err(|e| e.to_string())?;
                    self.key = Some(key);
                }
            }
            self.last_played = played;
            self.moves.push(TreeMove {
                code: rows.code[i],
                games: sum(0),
                wins: sum(1),
                draws: sum(2),
                losses: sum(3),
                mover_rating_sum: sum(4),
                mover_rated: sum(5),
                opponent_rating_sum: sum(6),
                opponent_rated: sum(7),
                first_year: rows.first_year[i],
                last_year: rows.last_year[i],
                top,
                exact: None,
            });
        }
        Ok(())
    }

    /// Writes the position gathered, if any.
    fn flush(&mut self) -> io::Result<()> {
        if let Some(key) = self.key.take() {
            self.tree.position(&key, &self.moves)?;
            self.positions += 1;
            self.moves.clear();
        }
        Ok(())
    }

    /// The last position, then the game tables joined in shard order (each one's record
    /// offsets moved past the ones before), and the file put in place.
    fn finish(mut self) -> io::Result<u64> {
        self.flush()?;
        let mut bytes = Vec::new();
        let mut offsets = Vec::new();
        let mut sources = Vec::new();
        for (table, theirs, their_sources) in &self.tables {
            let before = bytes.len() as u64;
            offsets.extend(theirs.iter().map(|o| o + before));
            bytes.extend_from_slice(table);
            sources.extend_from_slice(their_sources);
        }
        let (file, _) = self.tree.finish(&mut bytes.as_slice(), &offsets, &sources)?;
        file.commit()?;
        Ok(self.positions)
    }
}
