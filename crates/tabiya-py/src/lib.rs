#![warn(missing_docs)]

//! `tabiya._tabiya`, the Rust half of the `tabiya` Python package (`python/tabiya/`): chess
//! games read on all cores (`games`), opening books (`books`), positions as NumPy arrays
//! for machine learning (`positions`), the per-position move counts the Spark book build
//! reduces (`counts`) and those of its tree build (`tree_counts`), Wthor games and the Othello solver (`othello`), shogi records
//! (`shogi`). Every problem reaches Python as a `TabiyaError` carrying the file,
//! the offset and the diagnostic's code.

mod books;
mod columns;
mod counts;
mod errors;
mod games;
mod othello;
mod positions;
mod shogi;
mod stream;
mod tree_counts;

use pyo3::prelude::*;

/// The extension module.
#[pymodule]
fn _tabiya(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("TabiyaError", m.py().get_type::<errors::TabiyaError>())?;
    games::register(m)?;
    books::register(m)?;
    counts::register(m)?;
    positions::register(m)?;
    othello::register(m)?;
    shogi::register(m)?;
    tree_counts::register(m)?;
    Ok(())
}
