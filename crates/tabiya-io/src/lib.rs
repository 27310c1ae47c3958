#![warn(missing_docs)]

//! Primitives shared by every tabiya format: a bounds-checked byte reader that knows its
//! offset, the two variable-length integer codings in the mission's formats, legacy code
//! pages, one diagnostic type and the info/verify/probe reports, what a format sniffer reads
//! of a file, and the writing that never
//! destroys: atomic files, the overwrite rule, multi-file transactions, write locks and the
//! removal of temporaries on interruption.
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
pub mod cleanup;
pub mod compression;
pub mod date;
mod diagnostic;
mod error;
mod input;
pub mod lock;
mod overwrite;
mod reader;
pub mod report;
pub mod sniff;
mod text;
mod transaction;
pub mod tree;
pub mod varint;

pub use atomic::{AtomicFile, write_atomic};
pub use compression::{Compression, Decompressed, Encoder, ReadAhead, open_decompressed, read_decompressed};
pub use diagnostic::{Diagnostic, DiagnosticSink, Location, Severity, Unit, any_error, located_lines};
pub use error::{DataError, Error};
pub use input::{
    Access, FileBytes, Input, ReadPosition, STREAM_HEAD, open_input, open_sequential, read_input, read_input_with,
};
pub use lock::WriteLock;
pub use overwrite::{Overwrite, Refusal, check_output};
pub use reader::ByteReader;
pub use report::{Info, Probe, ProbeMove, Verification};
pub use sniff::Head;
pub use text::{Codepage, until_nul};
pub use transaction::Transaction;
