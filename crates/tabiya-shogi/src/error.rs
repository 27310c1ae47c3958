//! The error type of the shogi formats.

use std::path::PathBuf;

use tabiya_io::{DataError, Diagnostic, Location};

/// Reading or writing shogi files failed: the operating system refused, the bytes are not what
/// the format allows, a move does not resolve to a legal move, or the output cannot hold what
/// was asked. Every variant says where and what was expected.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// The operating system refused to read a file.
    #[error("{}: {source}", path.display())]
    Io {
        /// The file.
        path: PathBuf,
        /// What the system said.
        source: std::io::Error,
    },
    /// Bytes that are not what the format allows at that place.
    #[error(transparent)]
    Data(#[from] DataError),
    /// A move of a T-BASE solution that does not resolve.
    #[error("{location}: move {ply} `{token}`: expected {expected}")]
    Move {
        /// Where the solution is.
        location: Location,
        /// The 1-based number of the move.
        ply: usize,
        /// The move as written.
        token: String,
        /// What was expected.
        expected: String,
    },
    /// A record that does not read (KIF, KI2, CSA, SFEN): the diagnostic says where (its
    /// line), why, and its stable code (`kif.illegal_move`, `csa.statement`, …).
    #[error("{}: {}", .0.location, .0.message)]
    Record(Diagnostic),
    /// The output cannot hold what was asked: a character the encoding lacks, several records
    /// for a one-record format, an input the output format cannot take.
    #[error("{0}")]
    Output(String),
}

impl Error {
    /// An I/O error on `path`.
    pub fn io(path: impl Into<PathBuf>, source: std::io::Error) -> Error {
        Error::Io { path: path.into(), source }
    }

    /// The error of reading input `path` through `tabiya_io`.
    pub fn of_input(e: tabiya_io::Error, path: &std::path::Path) -> Error {
        match e {
            tabiya_io::Error::Io { source, .. } => Error::io(path, source),
            tabiya_io::Error::Data(d) => Error::Data(d.in_file(path)),
        }
    }

    /// Names the file the error was found in, if the error does not name one yet.
    pub fn in_file(self, file: &std::path::Path) -> Error {
        match self {
            Error::Data(e) => Error::Data(e.in_file(file)),
            Error::Move { location, ply, token, expected } => {
                Error::Move { location: location.in_file(file), ply, token, expected }
            }
            Error::Record(d) => Error::Record(d.in_file(file)),
            other => other,
        }
    }

    /// The error as a [`Diagnostic`] of code `code` unless it carries its own.
    pub fn diagnostic(&self, code: &'static str) -> Diagnostic {
        match self {
            Error::Record(d) => d.clone(),
            Error::Data(d) => Diagnostic::error(code, d.location.clone(), data_message(d)),
            Error::Move { location, .. } => Diagnostic::error(code, location.clone(), self.to_string()),
            Error::Io { path, .. } => Diagnostic::error(code, Location::file(path), self.to_string()),
            Error::Output(what) => Diagnostic::error(code, Location::default(), what.clone()),
        }
    }
}

/// The text of a [`DataError`] without its location, for a [`Diagnostic`] that has it apart.
fn data_message(d: &DataError) -> String {
    match &d.found {
        Some(found) => format!("expected {}, found {found}", d.expected),
        None => format!("expected {}", d.expected),
    }
}
