//! Writing entries as they are: callers sort them (`make` and `merge` do).

use std::io::{self, Write};

use super::Entry;

/// Writes entries as they are, 16 bytes each.
pub fn write_entries(entries: &[Entry], out: &mut impl Write) -> io::Result<()> {
    let mut buf = Vec::with_capacity(entries.len().min(1 << 16) * 16);
    for chunk in entries.chunks(1 << 16) {
        buf.clear();
        for entry in chunk {
            buf.extend_from_slice(&entry.to_bytes());
        }
        out.write_all(&buf)?;
    }
    Ok(())
}
