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

use std::path::PathBuf;

use numpy::{PyArray1, PyArrayMethods, PyReadonlyArray1};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict};
use tabiya_chess::games::Source;
use tabiya_chess::tree::{self, GAME, KEY_BYTES, TopGame, TreeOptions, TreeSource};
use tabiya_io::tree::{TreeFile, TreeMove, TreeWriter};

use crate::columns::{set_column, set_counts};
use crate::errors::{error, file_error, refuse_existing};

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(tree_counts, m)?)?;
    m.add_function(wrap_pyfunction!(write_tree_counts, m)?)?;
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

/// The names of [`TreeMove`]'s sums, in the order [`sums`] gives them.
const SUMS: [&str; 8] =
    ["games", "wins", "draws", "losses", "mover_rating_sum", "mover_rated", "opponent_rating_sum", "opponent_rated"];

fn sums(m: &TreeMove) -> [u64; 8] {
    [m.games, m.wins, m.draws, m.losses, m.mover_rating_sum, m.mover_rated, m.opponent_rating_sum, m.opponent_rated]
}

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
            for ((_, column), value) in counts.sums.iter_mut().zip(sums(m)) {
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

/// Writes the tree of reduced counts (the columns of [`tree_counts`] with each (key, move)
/// once, added up — `first_played` the least of its rows' —, in any order: `key` as the keys' bytes one after another, the top games'
/// columns flat) and of the shards' game tables `tables` (a list of (table, table_offsets,
/// sources) in shard order) to `path`, atomically; an existing file is replaced only with
/// `force`. Returns the number of positions.
#[pyfunction]
#[pyo3(signature = (path, key, code, first_played, sums, first_year, last_year, top_len, top_rating, top_game, tables, *, force = false))]
#[allow(clippy::too_many_arguments)]
fn write_tree_counts(
    py: Python<'_>,
    path: PathBuf,
    key: &[u8],
    code: PyReadonlyArray1<'_, u16>,
    first_played: PyReadonlyArray1<'_, u64>,
    sums: Vec<PyReadonlyArray1<'_, u64>>,
    first_year: PyReadonlyArray1<'_, u16>,
    last_year: PyReadonlyArray1<'_, u16>,
    top_len: PyReadonlyArray1<'_, u8>,
    top_rating: PyReadonlyArray1<'_, u16>,
    top_game: PyReadonlyArray1<'_, u64>,
    tables: Vec<ShardTable<'_>>,
    force: bool,
) -> PyResult<u64> {
    refuse_existing(&path, force)?;
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
    let tables: Vec<(&[u8], &[u64], Vec<TreeSource>)> = tables
        .iter()
        .map(|(bytes, offsets, sources)| {
            let sources =
                sources.iter().map(|(name, games)| TreeSource { name: name.clone(), games: *games }).collect();
            Ok((bytes.as_slice(), offsets.as_slice()?, sources))
        })
        .collect::<PyResult<_>>()?;
    let columns =
        Reduced { key, code, first_played, sums: &sums, first_year, last_year, top_len, top_rating, top_game };
    let (bytes, positions) =
        py.detach(|| write_tree(&columns, &tables)).map_err(|e| file_error(&path, "tree.io", e))?;
    tabiya_io::write_atomic(&path, &bytes).map_err(|e| file_error(&path, "tree.io", e))?;
    Ok(positions)
}

/// A shard's game table as Python hands it over: its bytes, where each record starts, its
/// sources (name, games).
type ShardTable<'py> = (Vec<u8>, PyReadonlyArray1<'py, u64>, Vec<(String, u64)>);

/// The reduced counts [`write_tree_counts`] is given.
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

impl Reduced<'_> {
    fn key(&self, row: usize) -> &[u8] {
        &self.key[row * KEY_BYTES..(row + 1) * KEY_BYTES]
    }
}

/// The tree file of `counts` and the shards' `tables` (bytes, where each record starts,
/// sources), and its number of positions.
fn write_tree(counts: &Reduced<'_>, tables: &[(&[u8], &[u64], Vec<TreeSource>)]) -> Result<(Vec<u8>, u64), String> {
    // Each shard's games come after the games of the shards before it.
    let mut shifts = Vec::with_capacity(tables.len());
    let mut games = 0u64;
    for (_, offsets, _) in tables {
        shifts.push(games);
        games += offsets.len() as u64;
    }
    let mut top_start = Vec::with_capacity(counts.code.len());
    let mut at = 0;
    for &n in counts.top_len {
        top_start.push(at);
        at += usize::from(n);
    }
    let mut order: Vec<usize> = (0..counts.code.len()).collect();
    order.sort_unstable_by(|&a, &b| {
        counts.key(a).cmp(counts.key(b)).then(counts.first_played[a].cmp(&counts.first_played[b]))
    });
    let mut writer = TreeWriter::<Vec<u8>, KEY_BYTES>::new(Vec::new(), GAME).map_err(|e| e.to_string())?;
    let mut positions = 0;
    for position in order.chunk_by(|&a, &b| counts.key(a) == counts.key(b)) {
        let mut moves = Vec::with_capacity(position.len());
        for &i in position {
            let tops = top_start[i]..top_start[i] + usize::from(counts.top_len[i]);
            let top = tops
                .map(|t| {
                    let (shard, number) =
                        (counts.top_game[t] >> SHARD_SHIFT, counts.top_game[t] & ((1 << SHARD_SHIFT) - 1));
                    let shift = shifts
                        .get(shard as usize)
                        .ok_or_else(|| format!("a game of shard {shard}, of {}", shifts.len()))?;
                    Ok(TopGame { rating: counts.top_rating[t], game: shift + number })
                })
                .collect::<Result<Vec<_>, String>>()?;
            let sum = |n: usize| counts.sums[n][i];
            moves.push(TreeMove {
                code: counts.code[i],
                games: sum(0),
                wins: sum(1),
                draws: sum(2),
                losses: sum(3),
                mover_rating_sum: sum(4),
                mover_rated: sum(5),
                opponent_rating_sum: sum(6),
                opponent_rated: sum(7),
                first_year: counts.first_year[i],
                last_year: counts.last_year[i],
                top,
                exact: None,
            });
        }
        if moves.windows(2).any(|w| w[0].code == w[1].code) {
            return Err("a move counted twice in a position: the counts are not reduced".to_owned());
        }
        let key: [u8; KEY_BYTES] = counts.key(position[0]).try_into().map_err(|_| "a short key".to_owned())?;
        writer.position(&key, &moves).map_err(|e| e.to_string())?;
        positions += 1;
    }
    // The game tables joined in shard order, each one's record offsets moved past the ones before.
    let mut bytes = Vec::new();
    let mut offsets = Vec::new();
    let mut sources = Vec::new();
    for (table, theirs, their_sources) in tables {
        let before = bytes.len() as u64;
        offsets.extend(theirs.iter().map(|o| o + before));
        bytes.extend_from_slice(table);
        sources.extend_from_slice(their_sources);
    }
    let (out, _) = writer.finish(&mut bytes.as_slice(), &offsets, &sources).map_err(|e| e.to_string())?;
    Ok((out, positions))
}
