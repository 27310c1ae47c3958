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
mod diagnostic;
mod error;
mod finding;
mod input;
mod reader;
pub mod report;
pub mod sniff;
mod text;
pub mod varint;

pub use atomic::{AtomicFile, write_atomic};
pub use diagnostic::{Diagnostic, DiagnosticSink, Location, Severity, Unit, any_error};
pub use error::{DataError, Error, Warning, Warnings};
pub use finding::Finding;
pub use input::{FileBytes, read_input};
pub use reader::ByteReader;
pub use report::{Info, Probe, ProbeMove, Verification};
pub use sniff::Head;
pub use text::{Codepage, until_nul};
