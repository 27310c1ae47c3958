//! Columns handed to Python as NumPy arrays, without a copy.

use numpy::{Element, PyArray1};
use pyo3::prelude::*;
use pyo3::types::PyDict;

/// Puts `values` into `dict` as a one-dimensional NumPy array named `name`.
pub fn set_column<T: Element>(dict: &Bound<'_, PyDict>, name: &str, values: Vec<T>) -> PyResult<()> {
    dict.set_item(name, PyArray1::from_vec(dict.py(), values))
}
