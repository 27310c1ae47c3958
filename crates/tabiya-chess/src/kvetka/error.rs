//! The one error type of the Kvetka family.

use std::path::PathBuf;

use tabiya_io::DataError;

/// Why a Kvetka book could not be read, written or built.
#[derive(Debug, thiserror::Error)]
pub enum KvetkaError {
    /// A file cannot be read or written.
    #[error("{}: {source}", path.display())]
    Io {
        /// The file.
        path: PathBuf,
        /// Why.
        source: std::io::Error,
    },
    /// Bytes the document does not allow. The location names the file (the `.kob` part, `.kin`
    /// or `.ksf`), the byte offset in it and, for `.kob` data, the block number as the record.
    #[error(transparent)]
    Data(#[from] DataError),
    /// A `.kob` header whose `type` is not 0x01.
    #[error("{}: unsupported book format (type {found:#04x}; only 0x01 is defined)", path.display())]
    UnsupportedType {
        /// The `.kob` part.
        path: PathBuf,
        /// Its type byte.
        found: u8,
    },
    /// Something a Kvetka book cannot hold, e.g. a name Windows-1251 cannot represent or a
    /// comment over 300 characters. `what` names the game, position or character.
    #[error("{what}")]
    Unrepresentable {
        /// What cannot be held, and where it comes from.
        what: String,
    },
}

impl KvetkaError {
    pub(crate) fn io(path: impl Into<PathBuf>, source: std::io::Error) -> KvetkaError {
        KvetkaError::Io { path: path.into(), source }
    }

    pub(crate) fn unrepresentable(what: impl Into<String>) -> KvetkaError {
        KvetkaError::Unrepresentable { what: what.into() }
    }
}

impl From<tabiya_io::Error> for KvetkaError {
    fn from(e: tabiya_io::Error) -> KvetkaError {
        match e {
            tabiya_io::Error::Io { path, source } => KvetkaError::Io { path, source },
            tabiya_io::Error::Data(d) => KvetkaError::Data(d),
        }
    }
}
