//! Othello: Wthor games (`.wtb`) as NumPy arrays, positions at chosen plies or empties as
//! bitboard pairs, and the exact endgame solver.

use std::path::{Path, PathBuf};

use numpy::{PyArray1, PyArrayMethods};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::PyDict;
use tabiya_io::Diagnostic;
use tabiya_othello::board::{Color, Position, Square};
use tabiya_othello::solve::Solver;
use tabiya_othello::wthor::{GameFile, Replay, load_name_files};

use crate::columns::set_column;
use crate::errors::{error, file_error};

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(wthor_games, m)?)?;
    m.add_function(wrap_pyfunction!(wthor_positions, m)?)?;
    m.add_function(wrap_pyfunction!(solve, m)?)?;
    Ok(())
}

/// Reads a `.wtb` file; what reading found is raised when it is an error.
fn read(path: &Path) -> PyResult<GameFile> {
    let bytes = tabiya_io::read_input(path).map_err(|e| file_error(path, "wthor.io", e))?;
    let mut found: Vec<Diagnostic> = Vec::new();
    let file = GameFile::read(&bytes, &mut found).map_err(|e| file_error(path, "wthor.unreadable", e))?;
    if let Some(mut bad) = found.into_iter().find(|d| d.severity == tabiya_io::Severity::Error) {
        bad.location.file = Some(path.to_path_buf());
        return Err(error(&bad));
    }
    Ok(file)
}

/// The games of a Wthor `.wtb` file as a dict of NumPy arrays, one row per game: `moves`
/// (uint8, games × 60: squares 0–63, a1 = 0, b1 = 1 … h8 = 63, 255 after the last move; passes
/// are not stored), `black` and `white` (uint16 indices into `players`), `tournament` (uint16,
/// into `tournaments`), `real_score` and `theoretical_score` (uint8, Black's discs), `year`
/// (uint16); `players` and `tournaments` (lists of `str`, from WTHOR.JOU/WTHOR.TRN beside the
/// file or in `names`, empty when there are none); `header` (dict).
#[pyfunction]
#[pyo3(signature = (path, *, names = None))]
fn wthor_games<'py>(py: Python<'py>, path: PathBuf, names: Option<PathBuf>) -> PyResult<Bound<'py, PyDict>> {
    let file = read(&path)?;
    let n = file.games.len();
    let mut moves = vec![255u8; n * 60];
    for (row, game) in moves.chunks_exact_mut(60).zip(&file.games) {
        for (out, &code) in row.iter_mut().zip(game.moves.iter().take_while(|&&c| c != 0)) {
            *out = tabiya_othello::wthor::square_of_code(code).map_or(255, |sq| sq.bit().trailing_zeros() as u8);
        }
    }
    let column = |f: fn(&tabiya_othello::wthor::Game) -> u16| file.games.iter().map(f).collect::<Vec<u16>>();
    let dict = PyDict::new(py);
    dict.set_item("moves", PyArray1::from_vec(py, moves).reshape([n, 60])?)?;
    set_column(&dict, "black", column(|g| g.black))?;
    set_column(&dict, "white", column(|g| g.white))?;
    set_column(&dict, "tournament", column(|g| g.tournament))?;
    let scores = |f: fn(&tabiya_othello::wthor::Game) -> u8| file.games.iter().map(f).collect::<Vec<u8>>();
    set_column(&dict, "real_score", scores(|g| g.real_score))?;
    set_column(&dict, "theoretical_score", scores(|g| g.theoretical_score))?;
    set_column(&dict, "year", vec![file.header.game_year; n])?;
    let dir = names.unwrap_or_else(|| path.parent().map_or_else(|| PathBuf::from("."), Path::to_path_buf));
    let loaded = load_name_files(&dir).map_err(|e| file_error(&dir, "wthor.io", e))?;
    let (players, tournaments): (Vec<String>, Vec<String>) = match &loaded {
        Some((jou, trn)) => {
            (jou.names().map(|n| n.into_owned()).collect(), trn.names().map(|n| n.into_owned()).collect())
        }
        None => (Vec::new(), Vec::new()),
    };
    dict.set_item("players", players)?;
    dict.set_item("tournaments", tournaments)?;
    let header = PyDict::new(py);
    let h = &file.header;
    header.set_item("created", (u16::from(h.century) * 100 + u16::from(h.year), h.month, h.day))?;
    header.set_item("game_year", h.game_year)?;
    header.set_item("board_size", h.board_size)?;
    header.set_item("depth", h.depth)?;
    dict.set_item("header", header)?;
    Ok(dict)
}

/// Positions of every game of a `.wtb` file after `plies` moves (passes not counted) or with
/// `empties` empty squares (one of the two), as a dict of NumPy arrays: `black`, `white`
/// (uint64 bitboards, a1 = bit 0), `black_to_move` (bool: the side that must move, after a
/// forced pass), `game` (uint32, index in the file). Games shorter than that have no row; a
/// game whose moves are not legal raises `TabiyaError`.
#[pyfunction]
#[pyo3(signature = (path, *, plies = None, empties = None))]
fn wthor_positions<'py>(
    py: Python<'py>,
    path: PathBuf,
    plies: Option<usize>,
    empties: Option<usize>,
) -> PyResult<Bound<'py, PyDict>> {
    let after = match (plies, empties) {
        (Some(p), None) if p <= 60 => p,
        (None, Some(e)) if e <= 60 => 60 - e,
        _ => return Err(PyValueError::new_err("give plies or empties (0 to 60), one of the two")),
    };
    let file = read(&path)?;
    let (mut black, mut white, mut to_move, mut games) = (Vec::new(), Vec::new(), Vec::new(), Vec::new());
    for (index, game) in file.games.iter().enumerate() {
        let replay = Replay::run(&game.moves, after).map_err(|e| {
            let location = tabiya_io::Location::file(&path).with(tabiya_io::Unit::Record, index as u64 + 1);
            error(&Diagnostic::error(e.code(), location, e.to_string()))
        })?;
        let position = if after == replay.moves { Some(replay.position) } else { replay.snapshot };
        if let Some(position) = position {
            black.push(position.black());
            white.push(position.white());
            to_move.push(position.side == Color::Black);
            games.push(index as u32);
        }
    }
    let dict = PyDict::new(py);
    set_column(&dict, "black", black)?;
    set_column(&dict, "white", white)?;
    set_column(&dict, "black_to_move", to_move)?;
    set_column(&dict, "game", games)?;
    Ok(dict)
}

/// Solves a position exactly: `black` and `white` bitboards (a1 = bit 0), the side to move.
/// Returns `(score, best_moves)`: the final disc difference for the side to move under
/// perfect play (empties to the winner) and its best moves (`["b1"]`; empty when it must
/// pass or the game is over).
#[pyfunction]
#[pyo3(signature = (black, white, black_to_move = true))]
fn solve(py: Python<'_>, black: u64, white: u64, black_to_move: bool) -> PyResult<(i32, Vec<String>)> {
    let side = if black_to_move { Color::Black } else { Color::White };
    let position: Position =
        Position::from_discs(black, white, side).ok_or_else(|| PyValueError::new_err("black and white overlap"))?;
    let solution = py.detach(|| Solver::new().solve(position.board));
    Ok((solution.score, solution.best_moves.iter().map(Square::to_string).collect()))
}
