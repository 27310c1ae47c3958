//! Reading a book from bytes.

use std::path::Path;

use tabiya_io::Location;

use super::{ENTRY_SIZE, Entry, PolyglotError};

/// All entries of a book, in file order. A size that is not a multiple of 16 is an error:
/// the last entry would be cut.
pub fn read_entries(bytes: &[u8], file: Option<&Path>) -> Result<Vec<Entry>, PolyglotError> {
    let (entries, rest) = bytes.as_chunks::<ENTRY_SIZE>();
    if !rest.is_empty() {
        let location = Location {
            file: file.map(Path::to_path_buf),
            offset: Some((bytes.len() - rest.len()) as u64),
            unit: tabiya_io::Unit::Entry,
            number: Some(entries.len() as u64),
        };
        return Err(PolyglotError::Size { location, size: bytes.len() as u64 });
    }
    Ok(entries.iter().map(|e| Entry::from_bytes(*e)).collect())
}
