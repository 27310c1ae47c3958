//! The error and warning types every format reports through.

use std::fmt;
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

/// A deviation from the document that real files show; reading goes on.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct Warning {
    pub location: Location,
    pub message: String,
}

impl fmt::Display for Warning {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.location, self.message)
    }
}

/// Warnings collected while reading, in the order they were found.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Warnings(pub Vec<Warning>);

impl Warnings {
    pub fn push(&mut self, location: Location, message: impl Into<String>) {
        self.0.push(Warning { location, message: message.into() });
    }

    pub fn len(&self) -> usize {
        self.0.len()
    }

    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    pub fn iter(&self) -> std::slice::Iter<'_, Warning> {
        self.0.iter()
    }
}
