//! Opening inputs: memory-mapped files, or standard input for `-`.

use std::io::Read;
use std::ops::Deref;
use std::path::Path;

use crate::error::Error;

/// The bytes of an input file, memory-mapped when possible.
#[derive(Debug)]
pub enum FileBytes {
    Mapped(memmap2::Mmap),
    Owned(Vec<u8>),
}

impl Deref for FileBytes {
    type Target = [u8];

    fn deref(&self) -> &[u8] {
        match self {
            FileBytes::Mapped(m) => m,
            FileBytes::Owned(v) => v,
        }
    }
}

/// Reads `path` (`-` is standard input). Files are mapped read-only: readers never modify.
pub fn read_input(path: &Path) -> Result<FileBytes, Error> {
    if path.as_os_str() == "-" {
        let mut buf = Vec::new();
        std::io::stdin().read_to_end(&mut buf).map_err(|e| Error::io(path, e))?;
        return Ok(FileBytes::Owned(buf));
    }
    let file = std::fs::File::open(path).map_err(|e| Error::io(path, e))?;
    let len = file.metadata().map_err(|e| Error::io(path, e))?.len();
    if len == 0 {
        // Mapping an empty file fails on some systems.
        return Ok(FileBytes::Owned(Vec::new()));
    }
    // SAFETY: the map is read-only; another process truncating the file while we read it is
    // outside what any reader can defend against and is documented as unsupported.
    match unsafe { memmap2::Mmap::map(&file) } {
        Ok(map) => Ok(FileBytes::Mapped(map)),
        Err(_) => std::fs::read(path).map(FileBytes::Owned).map_err(|e| Error::io(path, e)),
    }
}
