//! The error type of the shogi formats.

use std::path::PathBuf;

use tabiya_io::{DataError, Location};

/// Reading shogi files failed: the operating system refused, the bytes are not what the format
/// allows, or a move does not resolve to a legal move. Every variant says where and what was
/// expected.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    #[error("{}: {source}", path.display())]
    Io { path: PathBuf, source: std::io::Error },
    #[error(transparent)]
    Data(#[from] DataError),
    #[error("{location}: move {ply} `{token}`: expected {expected}")]
    Move { location: Location, ply: usize, token: String, expected: String },
}

impl Error {
    pub fn io(path: impl Into<PathBuf>, source: std::io::Error) -> Error {
        Error::Io { path: path.into(), source }
    }

    /// Names the file the error was found in, if the error does not name one yet.
    pub fn in_file(self, file: &std::path::Path) -> Error {
        match self {
            Error::Data(e) => Error::Data(e.in_file(file)),
            Error::Move { location, ply, token, expected } => {
                Error::Move { location: location.in_file(file), ply, token, expected }
            }
            io => io,
        }
    }
}
