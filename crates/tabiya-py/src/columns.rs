//! Columns handed to Python as NumPy arrays, without a copy, and the counts beside them.

use numpy::{Element, PyArray1};
use pyo3::prelude::*;
use pyo3::types::PyDict;

/// Puts `values` into `dict` as a one-dimensional NumPy array named `name`.
pub fn set_column<T: Element>(dict: &Bound<'_, PyDict>, name: &str, values: Vec<T>) -> PyResult<()> {
    dict.set_item(name, PyArray1::from_vec(dict.py(), values))
}

/// Puts `counts` into `dict` as a dict of numbers named `name` (what a build did).
pub fn set_counts(dict: &Bound<'_, PyDict>, name: &str, counts: &[(&str, u64)]) -> PyResult<()> {
    let inner = PyDict::new(dict.py());
    for (key, value) in counts {
        inner.set_item(key, value)?;
    }
    dict.set_item(name, inner)
}
