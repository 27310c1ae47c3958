//! Problems as Python: [`TabiyaError`] with the file, offset, record number and code of the
//! diagnostic, and diagnostics (warnings) as dicts.

use std::path::Path;

use pyo3::exceptions::{PyException, PyFileExistsError};
use pyo3::prelude::*;
use pyo3::types::PyDict;
use tabiya_io::Diagnostic;

pyo3::create_exception!(
    tabiya,
    TabiyaError,
    PyException,
    "A file tabiya cannot read or write. Attributes: `file`, `offset` (bytes, or None), \
     `number` and `unit` (the record, game, line… when known), `code` (stable, dotted)."
);

/// The exception for a diagnostic (an unreadable file, a game that cannot be read).
pub fn error(diagnostic: &Diagnostic) -> PyErr {
    let err = TabiyaError::new_err(format!("{}: {}", diagnostic.location, diagnostic.message));
    Python::attach(|py| {
        let value = err.value(py);
        let location = &diagnostic.location;
        // Setting attributes on a fresh exception instance does not fail.
        let _ = value.setattr("file", location.file.as_ref().map(|f| f.display().to_string()));
        let _ = value.setattr("offset", location.offset);
        let _ = value.setattr("number", location.number);
        let _ = value.setattr("unit", location.number.map(|_| location.unit.name()));
        let _ = value.setattr("code", diagnostic.code);
    });
    err
}

/// The exception for an error that names only the file.
pub fn file_error(path: &Path, code: &'static str, what: impl std::fmt::Display) -> PyErr {
    error(&Diagnostic::error(code, tabiya_io::Location::file(path), what.to_string()))
}

/// `FileExistsError` unless `force`: nothing is replaced unasked.
pub fn refuse_existing(path: &Path, force: bool) -> PyResult<()> {
    if !force && path.exists() {
        return Err(PyFileExistsError::new_err(format!("{}: exists; pass force=True to replace it", path.display())));
    }
    Ok(())
}

/// A diagnostic as a dict: `severity`, `code`, `message`, `file`, `offset`, `unit`, `number`.
pub fn diagnostic_dict<'py>(py: Python<'py>, d: &Diagnostic) -> PyResult<Bound<'py, PyDict>> {
    let dict = PyDict::new(py);
    dict.set_item("severity", d.severity.to_string())?;
    dict.set_item("code", d.code)?;
    dict.set_item("message", &d.message)?;
    dict.set_item("file", d.location.file.as_ref().map(|f| f.display().to_string()))?;
    dict.set_item("offset", d.location.offset)?;
    dict.set_item("unit", d.location.number.map(|_| d.location.unit.name()))?;
    dict.set_item("number", d.location.number)?;
    Ok(dict)
}
