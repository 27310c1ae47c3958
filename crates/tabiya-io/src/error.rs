//! The errors of reading: the operating system refused, or the bytes are not what the format
//! allows. Problems that do not stop reading are [`Diagnostic`](crate::Diagnostic)s.

use std::path::{Path, PathBuf};

use crate::diagnostic::Location;

/// Input bytes that are not what the format allows at that place.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{location}: expected {expected}{}", found.as_ref().map(|f| format!(", found {f}")).unwrap_or_default())]
pub struct DataError {
    /// Where the bytes are.
    pub location: Location,
    /// What the format requires here, e.g. "u32 game count" or "a multiple of 16 bytes".
    pub expected: String,
    /// What was there instead, when it helps.
    pub found: Option<String>,
}

impl DataError {
    /// An error at `location`: `expected` says what the format requires there.
    pub fn new(location: Location, expected: impl Into<String>) -> DataError {
        DataError { location, expected: expected.into(), found: None }
    }

    /// Says what was there instead.
    pub fn found(mut self, found: impl Into<String>) -> DataError {
        self.found = Some(found.into());
        self
    }

    /// Fills in the file if the location does not name one yet.
    pub fn in_file(mut self, file: &Path) -> DataError {
        self.location = self.location.in_file(file);
        self
    }

    /// Sets the record number.
    pub fn with_record(mut self, record: u64) -> DataError {
        self.location = self.location.with_record(record);
        self
    }
}

/// Reading a file failed: the operating system refused, or the bytes are invalid.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// The operating system refused to read `path`.
    #[error("{}: {source}", path.display())]
    Io {
        /// The file.
        path: PathBuf,
        /// Why.
        source: std::io::Error,
    },
    /// The bytes are not what the format allows.
    #[error(transparent)]
    Data(#[from] DataError),
}

impl Error {
    /// An I/O error on `path`.
    pub fn io(path: &Path, source: std::io::Error) -> Error {
        Error::Io { path: path.to_path_buf(), source }
    }
}
