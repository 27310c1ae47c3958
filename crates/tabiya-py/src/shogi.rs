//! Shogi: T-BASE problem sets and KIF, KI2, CSA, SFEN records, read and written through
//! `tabiya_shogi::convert` (what `tabiya convert` does), the files made in memory and handed to
//! Python; JSON Lines output gives every field of a problem or record.

use std::path::{Path, PathBuf};

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict};
use tabiya_shogi::Format;
use tabiya_shogi::convert::{Input, Output, convert};

use crate::errors::{diagnostic_dict, error, file_error, refuse_existing};

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(shogi_convert, m)?)?;
    Ok(())
}

/// A shogi file's format, from its first bytes or its extension.
fn format_of(path: &Path) -> PyResult<Format> {
    let by_head = tabiya_io::Head::read(path).ok().and_then(|head| Format::sniff(&head));
    let by_extension = || path.extension().and_then(|e| e.to_str()).and_then(Format::from_extension);
    by_head.or_else(by_extension).ok_or_else(|| file_error(path, "shogi.format", "not a shogi file tabiya reads"))
}

/// Converts shogi `inputs` (a T-BASE set alone, or KIF/KI2/CSA/SFEN files) to `output` in
/// format `to` (a name of `tabiya formats`, else `output`'s extension). With `write`, the files
/// are written atomically (an existing one only with `force`); without, nothing is written.
/// Returns `(files, diagnostics, summary)`: every file made as `(path, bytes)`, what the
/// conversion met (records skipped, fields cut) as dicts, and a line for people.
#[pyfunction]
#[pyo3(signature = (inputs, output, *, to = None, write = true, force = false))]
#[allow(clippy::type_complexity)]
fn shogi_convert<'py>(
    py: Python<'py>,
    inputs: Vec<PathBuf>,
    output: PathBuf,
    to: Option<&str>,
    write: bool,
    force: bool,
) -> PyResult<(Vec<(PathBuf, Bound<'py, PyBytes>)>, Vec<Bound<'py, PyDict>>, String)> {
    let inputs = inputs
        .into_iter()
        .map(|path| Ok(Input { format: format_of(&path)?, path }))
        .collect::<PyResult<Vec<Input>>>()?;
    let format = match to {
        Some(name) => {
            Format::from_name(name).ok_or_else(|| PyValueError::new_err(format!("no shogi format {name:?}")))?
        }
        None => output
            .extension()
            .and_then(|e| e.to_str())
            .and_then(Format::from_extension)
            .ok_or_else(|| PyValueError::new_err(format!("{}: give the format with to=", output.display())))?,
    };
    let done = py
        .detach(|| convert(&inputs, &Output { path: output.clone(), format, encoding: None }))
        .map_err(|e| error(&e.diagnostic("shogi.convert")))?;
    if write {
        for file in &done.files {
            refuse_existing(&file.path, force)?;
        }
        for file in &done.files {
            tabiya_io::write_atomic(&file.path, &file.bytes).map_err(|e| file_error(&file.path, "shogi.io", e))?;
        }
    }
    let files = done.files.iter().map(|f| (f.path.clone(), PyBytes::new(py, &f.bytes))).collect();
    let diagnostics = done.diagnostics.iter().map(|d| diagnostic_dict(py, d)).collect::<PyResult<_>>()?;
    Ok((files, diagnostics, done.summary))
}
