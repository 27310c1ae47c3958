//! ChessBase CTG opening books (.ctg data pages, .cto bucket → page table, .ctb split bitmap).
//!
//! The format is described in `shared/specs/ctg.md`: a position is stored White-to-move (colour
//! flip) and, without castling rights, with White's king on files e–h (left–right mirror), under
//! a Huffman key that [`crate::boardcode`] shares with Kvetka. Records are found through the
//! bucket tree of the .ctb/.cto exactly ([`Book::find_exact`]), with the legacy walk of other
//! readers as a fallback, or by walking the pages when the index files are missing.
//!
//! ```no_run
//! use shakmaty::Chess;
//! use tabiya_chess::ctg::{Book, Weights};
//!
//! let book = Book::open("PowerPlay17-Sicilienne.ctg".as_ref())?;
//! let probe = book.probe(&Chess::default())?;
//! for (m, weight) in probe.moves.iter().zip(Weights::Play.weights(&probe.moves)) {
//!     println!("{} weight {weight}", m.uci());
//! }
//! # Ok::<(), tabiya_chess::ctg::CtgError>(())
//! ```
//!
//! A doc example that runs, on a one-record book built in memory:
//!
//! ```
//! use shakmaty::Chess;
//! use tabiya_chess::ctg::{Book, Key};
//! use tabiya_chess::boardcode::Normalized;
//!
//! let key = Key::encode(&Normalized::new(&Chess::default())).unwrap();
//! let mut ctg = vec![0u8; 8192];
//! ctg[..4].copy_from_slice(&[0x00, 0x20, 0x10, 0x00]);
//! ctg[0x13] = 1; // one data page
//! let record: Vec<u8> = [key.as_bytes(), &[3, 0x5f, 0], &[0; 33]].concat(); // 1.e4
//! let used = 4 + record.len() as u16;
//! ctg[4096..4100].copy_from_slice(&[0, 1, (used >> 8) as u8, used as u8]);
//! ctg[4100..4100 + record.len()].copy_from_slice(&record);
//! let cto = [0, 16, 0, 1, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0];
//! let ctb = [0, 12, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0];
//! let book = Book::from_bytes(ctg, Some((&cto, &ctb)))?;
//! let probe = book.probe(&Chess::default())?;
//! assert_eq!(probe.moves[0].uci(), "e2e4");
//! # Ok::<(), tabiya_chess::ctg::CtgError>(())
//! ```

pub mod codes;
mod dump;
mod hash;
mod index;
mod info;
pub mod key;
mod model;
mod probe;
mod read;
mod record;
mod verify;

use tabiya_io::DataError;

pub use dump::{DumpedMove, DumpedPosition, JsonLine, JsonMove, dump};
pub use hash::hash;
pub use index::BucketTree;
pub use info::info;
pub use key::{Key, hex};
pub use model::{CtgReading, read_model};
pub use probe::{BookMove, Probe, Weights, decode_move};
pub use read::{Book, BookPaths, Header, Lookup, Page, Records};
pub use record::{RatingBlock, Record, STATS_LEN, Stats, StoredMove, annotation_symbol, evaluation_symbol};
pub use verify::verify;

/// Size of the header page and of every data page.
pub const PAGE_SIZE: usize = 4096;

/// Why a book cannot be read. Messages name the file, the byte offset and, inside a data page,
/// the page number.
#[derive(Debug, thiserror::Error)]
pub enum CtgError {
    /// A file cannot be read.
    #[error("{}: {source}", path.display())]
    Io {
        /// The file.
        path: std::path::PathBuf,
        /// Why.
        source: std::io::Error,
    },
    /// Bytes the format does not allow.
    #[error("{}{}: expected {}{}", error.location, page.map(|p| format!(" (data page {p})")).unwrap_or_default(), error.expected, error.found.as_ref().map(|f| format!(", found {f}")).unwrap_or_default())]
    Data {
        /// Where, and what was expected there.
        error: DataError,
        /// The data page, when inside one.
        page: Option<u32>,
    },
}

impl CtgError {
    pub(crate) fn data(error: DataError, page: Option<u32>) -> CtgError {
        CtgError::Data { error, page }
    }
}

impl From<tabiya_io::Error> for CtgError {
    fn from(e: tabiya_io::Error) -> CtgError {
        match e {
            tabiya_io::Error::Io { path, source } => CtgError::Io { path, source },
            tabiya_io::Error::Data(error) => CtgError::Data { error, page: None },
        }
    }
}
