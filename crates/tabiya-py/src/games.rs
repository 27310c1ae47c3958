//! Chess games: `read_games` streams any chess source (PGN, compressed PGN, SCID 3/4/5, JSON
//! Lines; or PGN text from a Python file object) read on all cores; [`Game`] gives its tags,
//! moves (UCI and SAN), comments, NAGs, variations, start position and warnings; `write_games`
//! writes PGN, JSON Lines or SCID 4/5.
//!
//! Text is bytes in the model (tag values, comments, names are kept as the file had them):
//! Python gets `str` decoded as the file's text (UTF-8, or Latin-1 where the bytes are not
//! UTF-8: PGN's two encodings), and the bytes themselves from `raw_tags`, `tag(name, raw=True)`
//! and `Game.tree(raw=True)`.

use std::fs::File;
use std::io::{BufReader, Read};
use std::path::{Path, PathBuf};
use std::sync::Mutex;

use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict, PyList, PyString};
use shakmaty::san::SanPlus;
use shakmaty::{CastlingMode, Chess, Move};
use tabiya_chess::game::{self, Line};
use tabiya_chess::games::{GamesError, Sink, Source};
use tabiya_chess::pgn::{PgnReader, ReadOptions, WriterOptions};
use tabiya_chess::scid::{DatabaseWriter, Version};
use tabiya_io::Diagnostic;
use tabiya_io::compression::{Compression, open_decompressed};

use crate::errors::{diagnostic_dict, error, file_error, refuse_existing};
use crate::stream::{Emitter, Stream};

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<Game>()?;
    m.add_class::<GameReader>()?;
    m.add_function(wrap_pyfunction!(read_games, m)?)?;
    m.add_function(wrap_pyfunction!(write_games, m)?)?;
    Ok(())
}

/// PGN text as a stream, with the file it comes from (named in errors), if any.
pub type PgnText = (Box<dyn Read + Send>, Option<PathBuf>);

/// Where games come from: a file (any chess source) or PGN text.
pub enum Input {
    /// A file or a SCID stem.
    Path(PathBuf),
    /// PGN text (read from a Python file object).
    Text(Vec<u8>),
}

impl Input {
    /// A path (`str` or `os.PathLike`), or a binary or text file object read whole.
    pub fn extract(source: &Bound<'_, PyAny>) -> PyResult<Input> {
        if let Ok(path) = source.extract::<PathBuf>() {
            return Ok(Input::Path(path));
        }
        if source.hasattr("read")? {
            let read = source.call_method0("read")?;
            if let Ok(bytes) = read.cast::<PyBytes>() {
                return Ok(Input::Text(bytes.as_bytes().to_vec()));
            }
            let text: String = read.extract()?;
            return Ok(Input::Text(text.into_bytes()));
        }
        Err(PyTypeError::new_err("expected a path or a file object"))
    }

    /// Opens the input where opening can fail (a missing file, not games), before any thread.
    fn open(self) -> PyResult<Opened> {
        let Input::Path(path) = self else {
            let Input::Text(text) = self else { unreachable!() };
            let reader: Box<dyn Read + Send> = Box::new(std::io::Cursor::new(text));
            return Ok(Opened::Pgn(Box::new(
                PgnReader::with_options(BufReader::new(reader), ReadOptions::default()).repairing(),
            )));
        };
        if compression_of(&path).is_some() {
            let decompressed = open_decompressed(&path).map_err(|e| file_error(&path, "games.io", e))?;
            let options = ReadOptions { file: Some(path.clone()), ..ReadOptions::default() };
            let reader: Box<dyn Read + Send> = Box::new(decompressed);
            return Ok(Opened::Pgn(Box::new(
                PgnReader::with_options(BufReader::with_capacity(1 << 16, reader), options).repairing(),
            )));
        }
        let source = Source::open(&path).map_err(|e| error(&e.diagnostic()))?;
        Ok(Opened::Source(Box::new(source)))
    }

    /// The input's text as a stream when it is PGN (a file object's text, a compressed file,
    /// a PGN file), with the file to name in errors; the input itself back for other sources
    /// (SCID, JSON Lines). Fails where opening fails, before any thread.
    pub fn pgn_text(self) -> PyResult<Result<PgnText, Input>> {
        let path = match self {
            Input::Text(text) => return Ok(Ok((Box::new(std::io::Cursor::new(text)), None))),
            Input::Path(path) => path,
        };
        if compression_of(&path).is_some() {
            let decompressed = open_decompressed(&path).map_err(|e| file_error(&path, "games.io", e))?;
            return Ok(Ok((Box::new(decompressed), Some(path))));
        }
        match Source::open(&path).map_err(|e| error(&e.diagnostic()))? {
            Source::Pgn { .. } => {
                let text = tabiya_io::open_sequential(&path).map_err(|e| file_error(&path, "games.io", e))?;
                Ok(Ok((text, Some(path))))
            }
            _ => Ok(Err(Input::Path(path))),
        }
    }

    /// Reads every game on other threads, each made into a `T` by `map` on the thread that
    /// read it, and hands them over in file order with what reading each found (a game that
    /// could not be read is its diagnostic). Also returns what opening found (a SCID
    /// database's index and names).
    pub fn stream<T: Send + 'static>(
        self,
        map: impl Fn(game::Game) -> T + Send + Sync + 'static,
    ) -> PyResult<(Stream<Item<T>>, Vec<Diagnostic>)> {
        self.stream_with(0, map, |item, out| item.is_none_or(|item| out.emit(item)))
    }

    /// [`Input::stream`], each read game handed to `gather` in file order, then `None` at the
    /// end; `gather` emits what it makes of them (in channel batches of `batch_len`, 0 for the
    /// default) and returns false to stop.
    pub fn stream_with<T: Send + 'static, U: Send + 'static>(
        self,
        batch_len: usize,
        map: impl Fn(game::Game) -> T + Send + Sync + 'static,
        mut gather: impl FnMut(Option<Item<T>>, &mut Emitter<U>) -> bool + Send + 'static,
    ) -> PyResult<(Stream<U>, Vec<Diagnostic>)> {
        let opened = self.open()?;
        let found = match &opened {
            Opened::Source(source) => source.diagnostics().to_vec(),
            Opened::Pgn(_) => Vec::new(),
        };
        let stream = Stream::spawn(batch_len, move |out: &mut Emitter<U>| match opened {
            Opened::Source(source) => {
                let read = source.read_with_diagnostics(map, |item| {
                    if gather(Some(item.map_err(|e| e.diagnostic())), out) { Ok(()) } else { Err(()) }
                });
                if read.is_ok() {
                    gather(None, out);
                }
            }
            Opened::Pgn(reader) => {
                for item in *reader {
                    let item = item.map(|read| (map(read.game), read.diagnostics));
                    if !gather(Some(item.map_err(|e| GamesError::Pgn(e).diagnostic())), out) {
                        return;
                    }
                }
                gather(None, out);
            }
        });
        Ok((stream, found))
    }
}

/// A game made into a `T` with what reading it found, or why it could not be read.
pub type Item<T> = Result<(T, Vec<Diagnostic>), Diagnostic>;

/// Inputs opened and ready to read.
enum Opened {
    Source(Box<Source>),
    Pgn(Box<PgnReader<BufReader<Box<dyn Read + Send>>>>),
}

/// The compression of a file, from its first bytes (PGN read through the decompressor).
fn compression_of(path: &Path) -> Option<Compression> {
    let mut head = [0u8; 8];
    let mut file = File::open(path).ok()?;
    let n = file.read(&mut head).ok()?;
    Compression::detect(&head[..n])
}

/// What to do with a game that cannot be read.
#[derive(Clone, Copy, PartialEq, Eq)]
enum OnError {
    Raise,
    Skip,
}

impl OnError {
    fn parse(name: &str) -> PyResult<OnError> {
        match name {
            "raise" => Ok(OnError::Raise),
            "skip" => Ok(OnError::Skip),
            other => Err(PyValueError::new_err(format!("on_error must be 'raise' or 'skip', not {other:?}"))),
        }
    }
}

/// Reads the games of `source`: a path to PGN (plain or compressed with gzip, bzip2, xz,
/// zstd), a SCID 3/4/5 database (any of its files or its stem) or a JSON Lines file; or a
/// file object holding PGN text. Games are read on all cores and come in file order.
///
/// A game that cannot be read raises `TabiyaError` (with `file` and `offset`), unless
/// `on_error="skip"`: then it is left out and its diagnostic kept in `reader.errors`.
#[pyfunction]
#[pyo3(signature = (source, *, on_error = "raise"))]
fn read_games(source: &Bound<'_, PyAny>, on_error: &str) -> PyResult<GameReader> {
    let on_error = OnError::parse(on_error)?;
    let (stream, found) = Input::extract(source)?.stream(|game| game)?;
    Ok(GameReader { stream, on_error, errors: Mutex::new(Vec::new()), source_warnings: found })
}

/// The games of a source, in file order (an iterator of [`Game`]).
#[pyclass(module = "tabiya")]
pub struct GameReader {
    stream: Stream<Item<game::Game>>,
    on_error: OnError,
    /// Games left out with `on_error="skip"`: why each could not be read.
    errors: Mutex<Vec<Diagnostic>>,
    /// What opening the source found.
    source_warnings: Vec<Diagnostic>,
}

#[pymethods]
impl GameReader {
    fn __iter__(slf: PyRef<'_, Self>) -> PyRef<'_, Self> {
        slf
    }

    fn __next__(&self, py: Python<'_>) -> PyResult<Option<Game>> {
        loop {
            match self.stream.next(py) {
                None => return Ok(None),
                Some(Ok((game, warnings))) => return Ok(Some(Game { game, warnings })),
                Some(Err(why)) if self.on_error == OnError::Raise => return Err(error(&why)),
                Some(Err(why)) => self.errors.lock().unwrap_or_else(|p| p.into_inner()).push(why),
            }
        }
    }

    /// Games left out so far (`on_error="skip"`), each as a diagnostic dict.
    #[getter]
    fn errors<'py>(&self, py: Python<'py>) -> PyResult<Vec<Bound<'py, PyDict>>> {
        let errors = self.errors.lock().unwrap_or_else(|p| p.into_inner());
        errors.iter().map(|d| diagnostic_dict(py, d)).collect()
    }

    /// What opening the source found (a SCID database's index and name files).
    #[getter]
    fn warnings<'py>(&self, py: Python<'py>) -> PyResult<Vec<Bound<'py, PyDict>>> {
        self.source_warnings.iter().map(|d| diagnostic_dict(py, d)).collect()
    }
}

/// One chess game: tags, moves, comments, NAGs, variations, start position, warnings.
#[pyclass(module = "tabiya", frozen)]
pub struct Game {
    game: game::Game,
    warnings: Vec<Diagnostic>,
}

impl Game {
    fn start(&self) -> PyResult<Chess> {
        self.game.start_position().map_err(|e| PyValueError::new_err(format!("invalid start position: {e}")))
    }

    fn uci(&self, mv: Option<Move>) -> String {
        mv.map_or_else(|| "0000".to_owned(), |mv| mv.to_uci(self.game.castling_mode).to_string())
    }
}

/// Text as `str` or as the bytes themselves. PGN is UTF-8 or Latin-1: bytes that are not
/// UTF-8 are Latin-1, one character a byte.
fn text<'py>(py: Python<'py>, bytes: &[u8], raw: bool) -> Bound<'py, PyAny> {
    if raw {
        return PyBytes::new(py, bytes).into_any();
    }
    match std::str::from_utf8(bytes) {
        Ok(text) => PyString::new(py, text).into_any(),
        Err(_) => PyString::new(py, &bytes.iter().map(|&b| char::from(b)).collect::<String>()).into_any(),
    }
}

/// Plays `mv` (a null move passes) and gives its SAN.
fn play(pos: &mut Chess, mv: Option<Move>) -> String {
    match mv {
        Some(mv) => SanPlus::from_move_and_play_unchecked(pos, mv).to_string(),
        None => {
            if let Some(passed) = game::pass(pos) {
                *pos = passed;
            }
            "--".to_owned()
        }
    }
}

#[pymethods]
impl Game {
    /// The tags in file order, as a dict of `str` (a repeated tag name keeps its last value;
    /// `raw_tags` has them all).
    #[getter]
    fn tags<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let dict = PyDict::new(py);
        for (name, value) in self.game.tags.iter() {
            dict.set_item(text(py, name.as_bytes(), false), text(py, value.as_bytes(), false))?;
        }
        Ok(dict)
    }

    /// Every tag as the file's bytes: a list of `(name, value)` pairs in file order.
    #[getter]
    fn raw_tags<'py>(&self, py: Python<'py>) -> Vec<(Bound<'py, PyBytes>, Bound<'py, PyBytes>)> {
        self.game.tags.iter().map(|(n, v)| (PyBytes::new(py, n.as_bytes()), PyBytes::new(py, v.as_bytes()))).collect()
    }

    /// One tag's value (`None` when absent); `raw=True` gives its bytes.
    #[pyo3(signature = (name, raw = false))]
    fn tag<'py>(&self, py: Python<'py>, name: &str, raw: bool) -> Option<Bound<'py, PyAny>> {
        self.game.tag(name).map(|value| text(py, value.as_bytes(), raw))
    }

    /// The main line in UCI (`e2e4`; castling `e1g1`, Chess960 king-takes-rook; `0000` for a
    /// null move).
    #[getter]
    fn moves(&self) -> Vec<String> {
        self.game.moves.nodes.iter().map(|node| self.uci(node.mv)).collect()
    }

    /// The main line in SAN (`--` for a null move).
    #[getter]
    fn san(&self) -> PyResult<Vec<String>> {
        let mut pos = self.start()?;
        Ok(self.game.moves.nodes.iter().map(|node| play(&mut pos, node.mv)).collect())
    }

    /// `1-0`, `0-1`, `1/2-1/2` or `*`.
    #[getter]
    fn result(&self) -> &'static str {
        self.game.result.as_pgn()
    }

    /// The start position's FEN when the game does not start from the standard position.
    #[getter]
    fn start_fen(&self) -> Option<String> {
        self.game.start.as_ref().map(ToString::to_string)
    }

    /// Whether the game is Chess960.
    #[getter]
    fn chess960(&self) -> bool {
        self.game.castling_mode == CastlingMode::Chess960
    }

    /// Plies of the main line.
    #[getter]
    fn ply_count(&self) -> usize {
        self.game.ply_count()
    }

    /// What reading the game found (repairs), as diagnostic dicts.
    #[getter]
    fn warnings<'py>(&self, py: Python<'py>) -> PyResult<Vec<Bound<'py, PyDict>>> {
        self.warnings.iter().map(|d| diagnostic_dict(py, d)).collect()
    }

    /// The whole game as nested dicts: `{"comments": [...], "moves": [{"uci", "san", "nags",
    /// "comments", "variations": [line, ...]}, ...]}`; each variation is played from the
    /// position before the move it replaces. `raw=True` gives comments as bytes.
    #[pyo3(signature = (raw = false))]
    fn tree<'py>(&self, py: Python<'py>, raw: bool) -> PyResult<Bound<'py, PyDict>> {
        line_dict(py, self, &self.game.moves, self.start()?, raw)
    }

    /// The game as a `chess.pgn.Game` (needs python-chess): `tabiya.to_python_chess(game)`.
    fn to_python_chess<'py>(slf: &Bound<'py, Self>) -> PyResult<Bound<'py, PyAny>> {
        slf.py().import("tabiya")?.getattr("to_python_chess")?.call1((slf,))
    }

    /// The game as PGN text.
    fn pgn(&self) -> String {
        let mut out = Vec::new();
        tabiya_chess::pgn::write::push_game(&self.game, &WriterOptions::default(), &mut out);
        String::from_utf8_lossy(&out).into_owned()
    }

    fn __repr__(&self) -> String {
        let tag =
            |name| self.game.tag(name).map_or_else(String::new, |v| String::from_utf8_lossy(v.as_bytes()).into_owned());
        format!("<tabiya.Game {} - {} {} ({} plies)>", tag("White"), tag("Black"), self.result(), self.ply_count())
    }
}

fn line_dict<'py>(
    py: Python<'py>,
    game: &Game,
    line: &Line,
    mut pos: Chess,
    raw: bool,
) -> PyResult<Bound<'py, PyDict>> {
    let comments =
        |list: &[tabiya_chess::text::TextBuf]| PyList::new(py, list.iter().map(|c| text(py, c.as_bytes(), raw)));
    let dict = PyDict::new(py);
    dict.set_item("comments", comments(&line.comments)?)?;
    let moves = PyList::empty(py);
    for node in &line.nodes {
        let before = pos.clone();
        let entry = PyDict::new(py);
        entry.set_item("uci", game.uci(node.mv))?;
        entry.set_item("san", play(&mut pos, node.mv))?;
        entry.set_item("nags", node.nags().iter().map(|&n| u32::from(n)).collect::<Vec<u32>>())?;
        entry.set_item("comments", comments(node.comments())?)?;
        let variations = PyList::empty(py);
        for variation in node.variations() {
            variations.append(line_dict(py, game, variation, before.clone(), raw)?)?;
        }
        entry.set_item("variations", variations)?;
        moves.append(entry)?;
    }
    dict.set_item("moves", moves)?;
    Ok(dict)
}

/// A sink's `add`, for [`write_games`].
type AddGame<'a> = dyn FnMut(&game::Game, &mut Vec<Diagnostic>) -> Result<(), GamesError> + 'a;

/// Writes `games` (an iterable of `Game`) to `path`: PGN (`.pgn`), JSON Lines (`.jsonl`) or a
/// SCID 4/5 database (`.si4`, `.si5`). An existing output is replaced only with `force=True`;
/// text is written to a temporary file renamed into place. Returns the number of games
/// written. A game the output cannot hold raises `TabiyaError`.
#[pyfunction]
#[pyo3(signature = (path, games, *, force = false))]
fn write_games(path: PathBuf, games: &Bound<'_, PyAny>, force: bool) -> PyResult<u64> {
    refuse_existing(&path, force)?;
    let extension = path.extension().and_then(|e| e.to_str()).unwrap_or("").to_ascii_lowercase();
    let io = |e: std::io::Error| file_error(&path, "games.io", e);
    let mut found: Vec<Diagnostic> = Vec::new();
    let add_all = |sink: &mut AddGame<'_>, found: &mut Vec<Diagnostic>| -> PyResult<()> {
        for game in games.try_iter()? {
            let game = game?;
            let game =
                game.cast::<Game>().map_err(|_| PyTypeError::new_err("write_games takes tabiya.Game objects"))?;
            sink(&game.get().game, found).map_err(|e| error(&e.diagnostic()))?;
        }
        Ok(())
    };
    let summary = match extension.as_str() {
        "pgn" | "jsonl" => {
            let mut out = std::io::BufWriter::new(tabiya_io::AtomicFile::create(&path).map_err(io)?);
            let summary = {
                let mut sink = if extension == "pgn" {
                    Sink::pgn(&mut out, &path, WriterOptions::default())
                } else {
                    Sink::json_lines(&mut out, &path)
                };
                add_all(&mut |g, found| sink.add(g, found), &mut found)?;
                sink.finish(&mut found).map_err(|e| error(&e.diagnostic()))?
            };
            out.into_inner().map_err(|e| io(e.into_error()))?.commit().map_err(io)?;
            summary
        }
        "si4" | "si5" => {
            let version = if extension == "si4" { Version::Scid4 } else { Version::Scid5 };
            let writer = DatabaseWriter::create(&path, version).map_err(|e| error(&e.diagnostic()))?;
            let mut sink = Sink::<std::io::Sink>::scid(writer);
            add_all(&mut |g, found| sink.add(g, found), &mut found)?;
            sink.finish(&mut found).map_err(|e| error(&e.diagnostic()))?
        }
        other => {
            return Err(PyValueError::new_err(format!(
                "cannot write games as {other:?}: use .pgn, .jsonl, .si4 or .si5"
            )));
        }
    };
    if let Some(lost) = found.iter().find(|d| d.severity == tabiya_io::Severity::Error) {
        return Err(error(lost));
    }
    Ok(summary.written)
}
