//! Positions for machine learning: every main-line position of every game of a source with the
//! move played from it, in batches of NumPy arrays, read and replayed in Rust on all cores
//! (no Python object per game or position).
//!
//! PGN (a file, compressed or not, or a file object's text) is walked a piece at a time
//! (`tabiya_chess::pgn::pieces`, `pgn::PgnWalk`): each thread fills the columns of a whole piece, no `Game` is
//! built and nothing per game crosses a thread. Other sources (SCID, JSON Lines), and the tree
//! keys (computed on `shakmaty`'s position), go game by game through `Input::stream_with`. Both
//! fill rows with [`Columns::push`] and [`Columns::end_game`].

use std::io::Read;
use std::ops::ControlFlow;
use std::path::PathBuf;

use numpy::{PyArray1, PyArrayMethods};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::PyDict;
use shakmaty::{Bitboard, CastlingMode, CastlingSide, Color, Move, Role, Square, attacks};
use tabiya_chess::game::{Game, GameResult};
use tabiya_chess::games::GamesError;
use tabiya_chess::pgn::pieces::{PieceInput, Pieces, walk_in_order};
use tabiya_chess::pgn::{PgnWalk, WalkOptions};
use tabiya_chess::tree::{KEY_BYTES, PositionKey};
use tabiya_chess::view::PositionView;
use tabiya_io::Diagnostic;
use tabiya_io::Unit;

use crate::columns::set_column;
use crate::errors::error;
use crate::games::Input;
use crate::stream::{Emitter, Stream};

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<PositionReader>()?;
    m.add_function(wrap_pyfunction!(positions, m)?)?;
    Ok(())
}

/// The piece bitboards of a position: White's pawn, knight, bishop, rook, queen, king, then
/// Black's (bit 0 = a1, bit 63 = h8).
const PIECES: usize = 12;

/// PGN bytes a position takes, about (the medium corpus file: 8.0): a piece of `batch_size`
/// times this many bytes fills a batch, most of the time, without being copied into another.
const PGN_BYTES_PER_POSITION: usize = 10;

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
    /// The game's index: in the piece that made the rows, then (from [`Batcher`]) in the source.
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

    /// Adds the position `pos` with the move `mv` played from it, `ply` moves into its game,
    /// as a row whose game columns [`Columns::end_game`] fills.
    fn push(&mut self, pos: &impl PositionView, mv: Move, mode: CastlingMode, ply: usize) {
        for color in [Color::White, Color::Black] {
            let ours = pos.by_color(color);
            self.bitboards.extend(Role::ALL.map(|role| (pos.by_role(role) & ours).0));
        }
        self.turn.push(u8::from(pos.turn() == Color::Black));
        self.castling.push(castling_bits(pos));
        self.en_passant.push(legal_ep_square(pos).map_or(-1, |sq| u32::from(sq) as i8));
        self.mv.push(move_code(mv, mode));
        self.ply.push(ply.min(usize::from(u16::MAX)) as u16);
    }

    /// Fills the game columns of the rows pushed since there were `start`.
    fn end_game(&mut self, start: usize, result: GameResult, elo: [u16; 2], game: u64) {
        let rows = self.len() - start;
        self.result.extend(std::iter::repeat_n(result_code(result), rows));
        self.white_elo.extend(std::iter::repeat_n(elo[0], rows));
        self.black_elo.extend(std::iter::repeat_n(elo[1], rows));
        self.game.extend(std::iter::repeat_n(game, rows));
    }

    /// Appends `other`'s rows, their game indices moved on by `games`.
    fn append(&mut self, other: &Columns, games: u64) {
        self.bitboards.extend_from_slice(&other.bitboards);
        self.turn.extend_from_slice(&other.turn);
        self.castling.extend_from_slice(&other.castling);
        self.en_passant.extend_from_slice(&other.en_passant);
        self.mv.extend_from_slice(&other.mv);
        self.result.extend_from_slice(&other.result);
        self.white_elo.extend_from_slice(&other.white_elo);
        self.black_elo.extend_from_slice(&other.black_elo);
        self.ply.extend_from_slice(&other.ply);
        self.game.extend(other.game.iter().map(|g| g + games));
        self.tree_key.extend_from_slice(&other.tree_key);
    }
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
fn elo(value: Option<&[u8]>) -> u16 {
    value.and_then(|v| std::str::from_utf8(v).ok()?.trim().parse().ok()).unwrap_or(0)
}

/// `move`: from + 64 × to + 4096 × promotion (0 none, 2 knight, 3 bishop, 4 rook, 5 queen);
/// castling as the king's two-square move (`e1g1`), Chess960 as king takes rook.
fn move_code(mv: Move, mode: CastlingMode) -> u16 {
    match mv.to_uci(mode) {
        shakmaty::uci::UciMove::Normal { from, to, promotion } => {
            u16::from(from) | (u16::from(to) << 6) | (promotion.map_or(0, |r| r as u16) << 12)
        }
        _ => 0,
    }
}

/// `castling`: 1 White king side, 2 White queen side, 4 Black king side, 8 Black queen side.
fn castling_bits(pos: &impl PositionView) -> u8 {
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

/// The en-passant square when taking there is legal (`EnPassantMode::Legal`, python-chess's
/// `has_legal_en_passant`): a pawn of the side to move stands beside the pawn that skipped it,
/// and after one of them takes, no piece attacks its king.
fn legal_ep_square(pos: &impl PositionView) -> Option<Square> {
    let ep = pos.pseudo_legal_ep_square()?;
    let us = pos.turn();
    let Some(king) = pos.king_of(us) else { return Some(ep) };
    // The pawn taken stands on the skipped square's file, one rank nearer its own side.
    let taken = if us == Color::White { ep.offset(-8)? } else { ep.offset(8)? };
    let theirs = |role: Role| pos.by_role(role) & pos.by_color(!us);
    let takers = attacks::pawn_attacks(!us, ep) & pos.by_role(Role::Pawn) & pos.by_color(us);
    let occupied = pos.by_color(Color::White) | pos.by_color(Color::Black);
    let safe = |from: Square| {
        let after = (occupied ^ Bitboard::from(from) ^ Bitboard::from(taken)) | Bitboard::from(ep);
        let straight = theirs(Role::Rook) | theirs(Role::Queen);
        let diagonal = theirs(Role::Bishop) | theirs(Role::Queen);
        (attacks::rook_attacks(king, after) & straight).is_empty()
            && (attacks::bishop_attacks(king, after) & diagonal).is_empty()
            && (attacks::knight_attacks(king) & theirs(Role::Knight)).is_empty()
            && (attacks::pawn_attacks(us, king) & theirs(Role::Pawn) & !Bitboard::from(taken)).is_empty()
            && (attacks::king_attacks(king) & theirs(Role::King)).is_empty()
    };
    takers.into_iter().any(safe).then_some(ep)
}

/// The rows of `game`'s main line up to `max_ply` moves, before the first null move, with the
/// tree's key of each position when `tree_keys` (zeros for a position no tree holds: more than
/// 32 pieces): one game of a source read game by game.
fn game_rows(game: Game, max_ply: usize, tree_keys: bool) -> Columns {
    let mut columns = Columns::with_capacity(game.moves.nodes.len().min(max_ply), tree_keys);
    if let Ok(mut pos) = game.start_position() {
        for (ply, node) in game.moves.nodes.iter().take(max_ply).enumerate() {
            let Some(mv) = node.mv else { break };
            columns.push(&pos, mv, game.castling_mode, ply);
            if tree_keys {
                columns.tree_key.extend_from_slice(&PositionKey::new(&pos).map_or([0; KEY_BYTES], |key| key.0));
            }
            shakmaty::Position::play_unchecked(&mut pos, mv);
        }
    }
    let elo = |tag: &str| elo(game.tag(tag).map(|v| v.as_bytes()));
    columns.end_game(0, game.result, [elo("WhiteElo"), elo("BlackElo")], 0);
    columns
}

/// What a piece of PGN gives: the rows of its games (numbered in the piece), the games that
/// could not be read (with their place among the piece's games), and how many games it held.
struct PieceRows {
    columns: Columns,
    errors: Vec<Diagnostic>,
    games: u64,
}

/// Walks the games of a piece of PGN (`offset`: where it starts in its file) into rows.
fn piece_rows(text: &[u8], offset: u64, options: &WalkOptions, capacity: usize) -> PieceRows {
    let mut columns = Columns::with_capacity(capacity, false);
    let mut errors = Vec::new();
    let mut games = 0;
    for read in PgnWalk::at_offset(text, offset, options.clone()) {
        let game = games;
        games += 1;
        let mut walked = match read {
            Ok(walked) => walked,
            Err(e) => {
                errors.push(GamesError::Pgn(e).diagnostic());
                continue;
            }
        };
        let (mode, start) = (walked.castling_mode, columns.len());
        let (mut ply, moves) = (0, walked.move_tokens());
        let played = walked.play(|pos, mv| {
            let Some(mv) = mv else { return ControlFlow::Break(()) };
            columns.push(pos, mv, mode, ply);
            ply += 1;
            ControlFlow::Continue(())
        });
        // A game cut at an illegal move has no result, as `read_games` gives it.
        let cut = !played.stopped && (played.plies as usize) < moves;
        let result = if cut { GameResult::Unknown } else { walked.result };
        let elo = |tag: &str| elo(walked.tag(tag).as_deref().map(|v| v.as_bytes()));
        columns.end_game(start, result, [elo("WhiteElo"), elo("BlackElo")], game);
    }
    PieceRows { columns, errors, games }
}

/// Gathers rows into batches of at least `batch_size` rows (the last one shorter), each game's
/// rows in one batch, numbering games in the source.
struct Batcher {
    batch_size: usize,
    batch: Columns,
    games: u64,
}

impl Batcher {
    /// Hands on `rows`, the rows of `games` games numbered from 0 (moved on past the games
    /// before): false when the consumer is gone.
    fn add(&mut self, mut rows: Columns, games: u64, out: &mut Emitter<Batch>) -> bool {
        let before = self.games;
        self.games += games;
        if self.batch.len() == 0 && rows.len() >= self.batch_size {
            // A batch whole: handed on as it was made.
            rows.game.iter_mut().for_each(|g| *g += before);
            return out.emit(Ok(rows));
        }
        if self.batch.len() == 0 {
            self.batch = Columns::with_capacity(self.batch_size + rows.len(), !rows.tree_key.is_empty());
        }
        self.batch.append(&rows, before);
        if self.batch.len() >= self.batch_size {
            return out.emit(Ok(std::mem::take(&mut self.batch)));
        }
        true
    }

    /// The last, short batch.
    fn finish(&mut self, out: &mut Emitter<Batch>) -> bool {
        self.batch.len() == 0 || out.emit(Ok(std::mem::take(&mut self.batch)))
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
    let mut batcher = Batcher { batch_size, batch: Columns::default(), games: 0 };
    let input = Input::extract(source)?;
    // The tree keys are computed on shakmaty's position, which only the games give.
    let input = if tree_keys { Err(input) } else { input.pgn_text()? };
    let stream = match input {
        Ok((text, file)) => walk_pgn(text, file, max_ply, batcher),
        Err(input) => {
            let max_ply = max_ply.unwrap_or(usize::MAX);
            let (stream, _) = input.stream_with(
                1,
                move |game| game_rows(game, max_ply, tree_keys),
                move |item, out| match item {
                    None => batcher.finish(out),
                    Some(Ok((rows, _))) => batcher.add(rows, 1, out),
                    // Located in the source already.
                    Some(Err(why)) => out.emit(Err(why)) && batcher.add(Columns::default(), 1, out),
                },
            )?;
            stream
        }
    };
    Ok(PositionReader { stream, planes, skip })
}

/// The batches of PGN `text` (of `file`, named in errors), read a piece at a time on every core.
fn walk_pgn(
    mut text: Box<dyn Read + Send>,
    file: Option<PathBuf>,
    max_ply: Option<usize>,
    mut batcher: Batcher,
) -> Stream<Batch> {
    let location = file.as_deref().map_or_else(tabiya_io::Location::default, tabiya_io::Location::file);
    let options = WalkOptions { max_plies: max_ply.map_or(u32::MAX, |n| n.min(u32::MAX as usize) as u32), file };
    let piece = batcher.batch_size.saturating_mul(PGN_BYTES_PER_POSITION).clamp(1 << 12, 1 << 28);
    // Rows a piece's columns start with room for.
    let capacity = batcher.batch_size.min(1 << 22) * 5 / 4;
    Stream::spawn(1, move |out| {
        let walk = |text: &[u8], offset: u64| piece_rows(text, offset, &options, capacity);
        let pieces = Pieces::new(piece, rayon::current_num_threads());
        let read = walk_in_order(PieceInput::Stream(&mut text, None), &pieces, walk, |piece: PieceRows| {
            for mut why in piece.errors {
                // Numbered in the piece: moved on past the games before.
                if why.location.unit == Unit::Game
                    && let Some(number) = why.location.number.as_mut()
                {
                    *number += batcher.games;
                }
                if !out.emit(Err(why)) {
                    return false;
                }
            }
            batcher.add(piece.columns, piece.games, out)
        });
        if batcher.finish(out)
            && let Err(e) = read
        {
            out.emit(Err(Diagnostic::error("games.io", location, e.to_string())));
        }
    })
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
