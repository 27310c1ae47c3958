//! Primitives shared by every tabiya format: a bounds-checked byte reader that knows its
//! offset, the two variable-length integer codings in the mission's formats, legacy code
//! pages, the common error and warning types, atomic file writing and format sniffing.
//!
//! ```
//! use tabiya_io::ByteReader;
//!
//! let mut r = ByteReader::new(&[0x01, 0x90, 0x82, 0x2C]);
//! assert_eq!(r.u16_be("version")?, 400);
//! assert_eq!(r.compact_int("games")?, 300);
//! assert!(r.is_empty());
//! # Ok::<(), tabiya_io::DataError>(())
//! ```

mod atomic;
pub mod corpus;
mod error;
mod finding;
mod input;
mod reader;
pub mod sniff;
mod text;
pub mod varint;

pub use atomic::{AtomicFile, write_atomic};
pub use error::{DataError, Error, Location, Warning, Warnings};
pub use finding::{Finding, Severity};
pub use input::{FileBytes, read_input};
pub use reader::ByteReader;
pub use sniff::{Format, sniff_bytes, sniff_path};
pub use text::{Codepage, until_nul};
