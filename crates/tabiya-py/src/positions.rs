//! Positions for machine learning: every main-line position of every game of a source with the
//! move played from it, in batches of NumPy arrays, read and replayed in Rust on all cores
//! (no Python object per game or position).

use numpy::{PyArray1, PyArrayMethods};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::PyDict;
use shakmaty::{CastlingSide, Chess, Color, EnPassantMode, Move, Position, Role};
use tabiya_chess::game::{Game, GameResult};
use tabiya_chess::tree::{KEY_BYTES, PositionKey};
use tabiya_io::Diagnostic;

use crate::columns::set_column;
use crate::errors::error;
use crate::games::Input;
use crate::stream::Stream;

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<PositionReader>()?;
    m.add_function(wrap_pyfunction!(positions, m)?)?;
    Ok(())
}

/// The piece bitboards of a position: White's pawn, knight, bishop, rook, queen, king, then
/// Black's (bit 0 = a1, bit 63 = h8).
const PIECES: usize = 12;

/// Columns of positions: one row per position, the move played from it.
#[derive(Default)]
struct Columns {
    /// [`PIECES`] bitboards a row, flat: handed to NumPy as they are.
    bitboards: Vec<u64>,
    turn: Vec<u8>,
    castling: Vec<u8>,
    en_passant: Vec<i8>,
    mv: Vec<u16>,
    result: Vec<i8>,
    white_elo: Vec<u16>,
    black_elo: Vec<u16>,
    ply: Vec<u16>,
    game: Vec<u64>,
    /// [`KEY_BYTES`] bytes a row when asked for: the tree's key of the position.
    tree_key: Vec<u8>,
}

impl Columns {
    /// Columns with room for `rows` rows (`tree_keys`: with the keys' column), so that a batch
    /// is filled without being moved as it grows.
    fn with_capacity(rows: usize, tree_keys: bool) -> Columns {
        Columns {
            bitboards: Vec::with_capacity(rows * PIECES),
            turn: Vec::with_capacity(rows),
            castling: Vec::with_capacity(rows),
            en_passant: Vec::with_capacity(rows),
            mv: Vec::with_capacity(rows),
            result: Vec::with_capacity(rows),
            white_elo: Vec::with_capacity(rows),
            black_elo: Vec::with_capacity(rows),
            ply: Vec::with_capacity(rows),
            game: Vec::with_capacity(rows),
            tree_key: Vec::with_capacity(if tree_keys { rows * KEY_BYTES } else { 0 }),
        }
    }

    fn len(&self) -> usize {
        self.turn.len()
    }

    /// Appends `other`'s rows, their games numbered `game`.
    fn append(&mut self, other: &GameRows, game: u64) {
        let rows = &other.columns;
        self.bitboards.extend_from_slice(&rows.bitboards);
        self.turn.extend_from_slice(&rows.turn);
        self.castling.extend_from_slice(&rows.castling);
        self.en_passant.extend_from_slice(&rows.en_passant);
        self.mv.extend_from_slice(&rows.mv);
        self.ply.extend_from_slice(&rows.ply);
        self.tree_key.extend_from_slice(&rows.tree_key);
        let n = rows.len();
        self.result.extend(std::iter::repeat_n(other.result, n));
        self.white_elo.extend(std::iter::repeat_n(other.white_elo, n));
        self.black_elo.extend(std::iter::repeat_n(other.black_elo, n));
        self.game.extend(std::iter::repeat_n(game, n));
    }
}

/// One game's positions, made on the thread that read it.
struct GameRows {
    columns: Columns,
    result: i8,
    white_elo: u16,
    black_elo: u16,
}

/// `result`: 1 White won, 0 draw, -1 Black won, 2 unknown (`*`).
fn result_code(result: GameResult) -> i8 {
    match result {
        GameResult::WhiteWins => 1,
        GameResult::Draw => 0,
        GameResult::BlackWins => -1,
        GameResult::Unknown => 2,
    }
}

/// A rating tag's value, 0 when absent or not a number.
fn elo(game: &Game, tag: &str) -> u16 {
    game.tag(tag).and_then(|v| std::str::from_utf8(v.as_bytes()).ok()?.trim().parse().ok()).unwrap_or(0)
}

/// `move`: from + 64 × to + 4096 × promotion (0 none, 2 knight, 3 bishop, 4 rook, 5 queen);
/// castling as the king's two-square move (`e1g1`), Chess960 as king takes rook.
fn move_code(mv: Move, game: &Game) -> u16 {
    let uci = mv.to_uci(game.castling_mode);
    match uci {
        shakmaty::uci::UciMove::Normal { from, to, promotion } => {
            u16::from(from) | (u16::from(to) << 6) | (promotion.map_or(0, |r| r as u16) << 12)
        }
        _ => 0,
    }
}

fn bitboards(pos: &Chess) -> [u64; PIECES] {
    let board = pos.board();
    let mut out = [0; PIECES];
    for (c, color) in [Color::White, Color::Black].into_iter().enumerate() {
        for (r, role) in Role::ALL.into_iter().enumerate() {
            out[6 * c + r] = (board.by_role(role) & board.by_color(color)).0;
        }
    }
    out
}

/// `castling`: 1 White king side, 2 White queen side, 4 Black king side, 8 Black queen side.
fn castling_bits(pos: &Chess) -> u8 {
    let castles = pos.castles();
    let mut bits = 0;
    for (i, (color, side)) in [
        (Color::White, CastlingSide::KingSide),
        (Color::White, CastlingSide::QueenSide),
        (Color::Black, CastlingSide::KingSide),
        (Color::Black, CastlingSide::QueenSide),
    ]
    .into_iter()
    .enumerate()
    {
        if castles.has(color, side) {
            bits |= 1 << i;
        }
    }
    bits
}

/// Every main-line position of `game` up to `max_ply` moves, before the first null move; with
/// the tree's key of each `with_tree_keys` (zeros for a position no tree holds: more than 32
/// pieces).
fn game_rows(game: Game, max_ply: usize, with_tree_keys: bool) -> GameRows {
    let mut columns = Columns::with_capacity(game.moves.nodes.len().min(max_ply), with_tree_keys);
    if let Ok(mut pos) = game.start_position() {
        for (ply, node) in game.moves.nodes.iter().take(max_ply).enumerate() {
            let Some(mv) = node.mv else { break };
            columns.bitboards.extend_from_slice(&bitboards(&pos));
            columns.turn.push(u8::from(pos.turn() == Color::Black));
            columns.castling.push(castling_bits(&pos));
            columns.en_passant.push(pos.ep_square(EnPassantMode::Legal).map_or(-1, |sq| u32::from(sq) as i8));
            columns.mv.push(move_code(mv, &game));
            columns.ply.push(ply.min(usize::from(u16::MAX)) as u16);
            if with_tree_keys {
                columns.tree_key.extend_from_slice(&PositionKey::new(&pos).map_or([0; KEY_BYTES], |key| key.0));
            }
            pos.play_unchecked(mv);
        }
    }
    GameRows {
        columns,
        result: result_code(game.result),
        white_elo: elo(&game, "WhiteElo"),
        black_elo: elo(&game, "BlackElo"),
    }
}

/// A batch, or a game that could not be read.
type Batch = Result<Columns, Diagnostic>;

/// Batches of positions of a source; see `positions`.
#[pyclass(module = "tabiya._tabiya")]
pub struct PositionReader {
    stream: Stream<Batch>,
    planes: bool,
    skip: bool,
}

/// Reads the positions of every game of `source` (a path or a file object, as `read_games`
/// takes), yielding dicts of NumPy arrays of about `batch_size` rows; see the Python docstring
/// of `tabiya.positions`.
#[pyfunction]
#[pyo3(signature = (source, *, layout = "bitboards", batch_size = 65536, max_ply = None, on_error = "raise", tree_keys = false))]
fn positions(
    source: &Bound<'_, PyAny>,
    layout: &str,
    batch_size: usize,
    max_ply: Option<usize>,
    on_error: &str,
    tree_keys: bool,
) -> PyResult<PositionReader> {
    let planes = match layout {
        "bitboards" => false,
        "planes" => true,
        other => return Err(PyValueError::new_err(format!("layout must be 'bitboards' or 'planes', not {other:?}"))),
    };
    let skip = match on_error {
        "raise" => false,
        "skip" => true,
        other => return Err(PyValueError::new_err(format!("on_error must be 'raise' or 'skip', not {other:?}"))),
    };
    let batch_size = batch_size.max(1);
    let max_ply = max_ply.unwrap_or(usize::MAX);
    // A batch ends with the game that fills it: room for a long game more.
    let capacity = batch_size.min(1 << 20) + 1024;
    let mut batch = Columns::with_capacity(capacity, tree_keys);
    let mut games = 0u64;
    let (stream, _) = Input::extract(source)?.stream_with(
        1,
        move |game| game_rows(game, max_ply, tree_keys),
        move |item, out| {
            let Some(item) = item else {
                // The end: the last, short batch.
                return out.emit(Ok(std::mem::take(&mut batch)));
            };
            let game = games;
            games += 1;
            match item {
                Ok((rows, _)) => batch.append(&rows, game),
                Err(why) => {
                    if !out.emit(Err(why)) {
                        return false;
                    }
                }
            }
            if batch.len() >= batch_size {
                return out.emit(Ok(std::mem::replace(&mut batch, Columns::with_capacity(capacity, tree_keys))));
            }
            true
        },
    )?;
    Ok(PositionReader { stream, planes, skip })
}

#[pymethods]
impl PositionReader {
    fn __iter__(slf: PyRef<'_, Self>) -> PyRef<'_, Self> {
        slf
    }

    fn __next__<'py>(&self, py: Python<'py>) -> PyResult<Option<Bound<'py, PyDict>>> {
        loop {
            match self.stream.next(py) {
                None => return Ok(None),
                Some(Err(_)) if self.skip => continue,
                Some(Err(why)) => return Err(error(&why)),
                Some(Ok(columns)) if columns.len() == 0 => continue,
                Some(Ok(columns)) => return batch_dict(py, columns, self.planes).map(Some),
            }
        }
    }
}

fn batch_dict(py: Python<'_>, c: Columns, planes: bool) -> PyResult<Bound<'_, PyDict>> {
    let dict = PyDict::new(py);
    let rows = c.len();
    if planes {
        let mut bytes = vec![0u8; rows * PIECES * 64];
        py.detach(|| {
            for (row, boards) in bytes.chunks_exact_mut(PIECES * 64).zip(c.bitboards.chunks_exact(PIECES)) {
                for (plane, &board) in row.chunks_exact_mut(64).zip(boards) {
                    let mut bits = board;
                    while bits != 0 {
                        plane[bits.trailing_zeros() as usize] = 1;
                        bits &= bits - 1;
                    }
                }
            }
        });
        let flat = PyArray1::from_vec(py, bytes);
        dict.set_item("planes", flat.reshape([rows, PIECES, 64])?)?;
    } else {
        dict.set_item("bitboards", PyArray1::from_vec(py, c.bitboards).reshape([rows, PIECES])?)?;
    }
    set_column(&dict, "turn", c.turn)?;
    set_column(&dict, "castling", c.castling)?;
    set_column(&dict, "en_passant", c.en_passant)?;
    set_column(&dict, "move", c.mv)?;
    set_column(&dict, "result", c.result)?;
    set_column(&dict, "white_elo", c.white_elo)?;
    set_column(&dict, "black_elo", c.black_elo)?;
    set_column(&dict, "ply", c.ply)?;
    set_column(&dict, "game", c.game)?;
    if !c.tree_key.is_empty() {
        dict.set_item("tree_key", PyArray1::from_vec(py, c.tree_key).reshape([rows, KEY_BYTES])?)?;
    }
    Ok(dict)
}
