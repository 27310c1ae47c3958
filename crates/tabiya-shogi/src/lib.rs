//! Tsume shogi: positions over shogi_core, the T-BASE database, notations and solution checks.
//!
//! * [`board`]: the glue over `shogi_core` + `shogi_legality_lite` (legal moves, check, mate,
//!   the defender's hand of a tsume problem);
//! * [`tbase`]: the 全詰連 T-BASE files — `.dia` diagrams (330-byte records), `.tjn` solutions,
//!   `.rem` comments;
//! * [`notation`]: SFEN, the Japanese move notation (resolver and writer), KIF, KI2 and CSA;
//! * [`tsume`]: checking that a stored solution is a mate that fits the diagram.
//!
//! ```
//! use tabiya_shogi::tbase::Diagram;
//!
//! let record = include_bytes!("../tests/data/example_3line.dia");
//! let diagram = Diagram::decode(record, 0)?;
//! assert_eq!(diagram.number, 3);
//! assert_eq!(diagram.author, "初代宗桂");
//! assert_eq!(diagram.sfen(), "9/1kg6/1p7/3+R5/P+b1g5/2b6/9/9/9 b G2SNrg2s3n4l16p 1");
//! assert_eq!(diagram.encode()?.as_slice(), record.as_slice());
//! # Ok::<(), tabiya_shogi::Error>(())
//! ```

pub mod board;
mod error;
mod format;
pub mod notation;
pub mod tbase;
pub mod tsume;

pub use error::Error;
pub use format::Format;
pub use tabiya_io::{Finding, Severity};
