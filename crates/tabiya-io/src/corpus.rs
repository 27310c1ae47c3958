//! Finding the shared test corpus from tests: the directory in `TABIYA_CORPUS`.
//!
//! Unset, a corpus test prints that it was skipped and passes; set, a missing file fails it.

use std::path::PathBuf;

/// The corpus file at `relative` (e.g. `"polyglot/performance.bin"`), or `None` when
/// `TABIYA_CORPUS` is unset. Panics when the variable is set and the file is missing, so a
/// moved corpus fails the tests instead of skipping them.
pub fn corpus_file(relative: &str) -> Option<PathBuf> {
    let Some(dir) = std::env::var_os("TABIYA_CORPUS") else {
        eprintln!("skipped: TABIYA_CORPUS is not set (needs {relative})");
        return None;
    };
    let path = PathBuf::from(dir).join(relative);
    assert!(path.exists(), "TABIYA_CORPUS is set but {} does not exist", path.display());
    Some(path)
}
