//! Opening books: [`Book`] opens a Polyglot, CTG or Kvetka book (`tabiya_chess::book::BookFile`)
//! and answers a position with the `probe` report; the Python `tabiya.open_book` turns it into
//! entries shaped like python-chess's `chess.polyglot.Entry`.

use std::path::PathBuf;

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use tabiya_chess::book::{BookError, BookFile, probe_position};
use tabiya_io::report::Report;

use crate::errors::file_error;

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<Book>()?;
    Ok(())
}

/// An opened book (Polyglot `.bin`, CTG `.ctg` with `.cto`/`.ctb`, Kvetka `book_0.kob` …).
#[pyclass(module = "tabiya._tabiya", frozen)]
pub struct Book {
    file: BookFile,
    path: PathBuf,
}

fn book_error(path: &std::path::Path, e: BookError) -> PyErr {
    file_error(path, "book.unreadable", e)
}

/// A report as its JSON text (the CLI's `--json`).
fn json(report: &impl Report) -> PyResult<String> {
    serde_json::to_string(report).map_err(|e| PyValueError::new_err(e.to_string()))
}

#[pymethods]
impl Book {
    /// Opens the book at `path` (or the stem of a multi-file book).
    #[new]
    fn new(path: PathBuf) -> PyResult<Book> {
        let file = BookFile::open(&path).map_err(|e| book_error(&path, e))?;
        Ok(Book { file, path })
    }

    /// The format's name: `polyglot`, `ctg` or `kvetka`.
    #[getter]
    fn format(&self) -> &'static str {
        self.file.format().name()
    }

    /// The book as named.
    #[getter]
    fn path(&self) -> PathBuf {
        self.path.clone()
    }

    /// The `tabiya probe --json` answer for the position of `fen` (moves in the book's order).
    fn probe_json(&self, py: Python<'_>, fen: &str) -> PyResult<String> {
        let pos = probe_position(Some(fen), None).map_err(PyValueError::new_err)?;
        let probe = py.detach(|| self.file.probe(&pos)).map_err(|e| book_error(&self.path, e))?;
        json(&probe)
    }

    /// The `tabiya info --json` answer.
    fn info_json(&self) -> PyResult<String> {
        json(&self.file.info().map_err(|e| book_error(&self.path, e))?)
    }

    /// The `tabiya verify --json` answer.
    fn verify_json(&self, py: Python<'_>) -> PyResult<String> {
        json(&py.detach(|| self.file.verify()))
    }
}
