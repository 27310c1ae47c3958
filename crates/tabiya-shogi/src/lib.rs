//! Shogi records and tsume problems: one model, the formats that read and write it, and the
//! operations `info`, `verify` and `convert` on their files.
//!
//! The model is [`notation::Kifu`]: headers, a start position (hands and side to move
//! included, so handicap games and tsume problems are records like any other), the legal main
//! line, comments and how the game ended. KIF, KI2, CSA and SFEN files read into it and are
//! written from it ([`records`]); a T-BASE problem ([`tbase::Diagram`] with its `.tjn` solution
//! and `.rem` comment) converts to it and back. [`convert`] goes from any source of the family
//! to any sink; [`records::info`]/[`records::verify`] and [`tbase::info`]/[`tbase::verify`]
//! answer in `tabiya_io::report`'s shapes, every problem a [`Diagnostic`] with a stable code
//! (`tbase.checksum`, `kif.illegal_move`, …) and a location in the file's own unit (the record of
//! a `.dia`, the line of a text file).
//!
//! * [`board`]: the glue over `shogi_core` + `shogi_legality_lite` (legal moves, check, mate,
//!   the defender's hand of a tsume problem);
//! * [`tbase`]: the 全詰連 T-BASE files — `.dia` diagrams (330-byte records), `.tjn` solutions,
//!   `.rem` comments;
//! * [`notation`]: SFEN, the Japanese move notation (resolver and writer), KIF, KI2 and CSA;
//! * [`tsume`]: checking that a stored solution is a mate that fits the diagram;
//! * [`Encoding`]: Shift-JIS, EUC-JP or UTF-8, detected when a file does not say.
//!
//! Decoding a diagram:
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
//!
//! Checking a T-BASE solution, then writing the problem as KIF:
//!
//! ```
//! use tabiya_shogi::tbase::{self, Diagram, read_solutions};
//! use tabiya_shogi::tsume::check_solution;
//! use tabiya_shogi::{Encoding, Format, records};
//!
//! let diagram = Diagram::decode(include_bytes!("../tests/data/example_3line.dia"), 0)?;
//! let (solutions, problems) = read_solutions(include_bytes!("../tests/data/example.tjn"));
//! assert!(problems.is_empty());
//! let check = check_solution(&diagram, &solutions[0]);
//! assert!(check.is_ok(), "{:?}", check.findings);
//! assert_eq!(check.moves.len(), 17);
//! let kifu = tbase::to_kifu(&diagram, &check.moves, None);
//! let kif = records::text(&[kifu], Format::Kif)?;
//! assert!(kif.ends_with("  17 ８二龍(62)\r\n  18 詰み\r\nまで17手詰\r\n"));
//! let sjis = records::write(&records::parse(&Encoding::ShiftJis.encode(&kif).unwrap(), Format::Kif, None)?.records, Format::Kif, Encoding::ShiftJis)?;
//! assert_eq!(sjis, Encoding::ShiftJis.encode(&kif).unwrap(), "KIF → KIF is byte-exact");
//! # Ok::<(), tabiya_shogi::Error>(())
//! ```

#![warn(missing_docs)]

pub mod board;
pub mod convert;
mod encoding;
mod error;
mod format;
pub mod notation;
pub mod records;
pub mod tbase;
pub mod tsume;

pub use encoding::Encoding;
pub use error::Error;
pub use format::Format;
pub use tabiya_io::{Diagnostic, Severity};
