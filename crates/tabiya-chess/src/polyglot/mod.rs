//! Polyglot opening books (`.bin`): 16-byte big-endian entries (key, move, weight, learn),
//! sorted by key. Reading, probing, writing byte for byte, building with `polyglot
//! make-book`'s weights, merging like `polyglot merge-book`, and verifying.
//!
//! ```
//! use shakmaty::Chess;
//! use tabiya_chess::polyglot::{Entry, key, probe, read_entries, write_entries};
//!
//! let start = Chess::default();
//! assert_eq!(key(&start), 0x463b_9618_1691_fc9c);
//! // e2e4 with weight 3 and d2d4 with weight 1.
//! let entries = vec![
//!     Entry { key: key(&start), raw_move: 0x031c, weight: 3, learn: 0 },
//!     Entry { key: key(&start), raw_move: 0x02db, weight: 1, learn: 0 },
//! ];
//! let mut bytes = Vec::new();
//! write_entries(&entries, &mut bytes)?;
//! assert_eq!(bytes.len(), 32);
//! let book = read_entries(&bytes, None)?;
//! let hits = probe(&book, &start);
//! let moves: Vec<String> = hits.iter().map(|h| h.uci.clone()).collect();
//! assert_eq!(moves, ["e2e4", "d2d4"]);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

mod entry;
mod info;
mod make;
mod merge;
mod normalized;
mod probe;
mod read;
mod verify;
mod write;

use tabiya_io::Location;

pub use crate::book::position_key as key;
pub use entry::{Entry, decode_move, encode_move, is_king_move_castling};
pub use info::info;
pub use make::{
    EntryRun, MakeOptions, MoveCount, entries_from_book, entries_from_range, make_from_pgn, make_from_pgn_stream,
    make_from_pgn_stream_with, make_from_pgn_with, push_position_entries,
};
pub use merge::{MergeRule, merge};
pub use normalized::{PolyglotReading, PolyglotWriting, entries_of_model, read_model, sort_entries};
pub use probe::{ProbeHit, find, probe, probe_report};
pub use read::read_entries;
pub use verify::{verification, verify};
pub use write::write_entries;

/// Size of one book entry in bytes.
pub const ENTRY_SIZE: usize = 16;

/// A Polyglot book that cannot be read.
#[derive(Debug, thiserror::Error)]
pub enum PolyglotError {
    /// The size is not a whole number of entries.
    #[error("{location}: expected a size that is a multiple of 16 bytes (whole entries), found {size} bytes ({} trailing)", size % 16)]
    Size {
        /// Where the cut entry starts.
        location: Location,
        /// The file's size in bytes.
        size: u64,
    },
    /// The book cannot be read.
    #[error(transparent)]
    Io(#[from] std::io::Error),
}
