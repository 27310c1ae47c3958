//! Opening inputs: regular files (memory-mapped or read, as the caller chooses), standard
//! input for `-`, and streams: a FIFO, `<(zstdcat x.pgn.zst)`, a character device.
//!
//! A stream has no size (its metadata says 0) and can be read once, so it is read whole the
//! first time anything asks for it (to sniff its format, say) and its bytes are kept for the
//! process: whatever reads it next gets the same bytes, never an empty file.

use std::collections::HashMap;
use std::fs::File;
use std::io::{self, Cursor, Read, Seek, SeekFrom};
use std::ops::Deref;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use crate::compression::{Compression, open_decompressed, read_prefix, strip_compression_extension, zip_members};
use crate::error::Error;
use crate::sniff::{HEAD_LEN, Head};

/// How a regular file's bytes are brought into memory: the caller's choice.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum Access {
    /// Memory-mapped read-only (no copy; pages come in as they are touched). The file must
    /// not be truncated by another process while mapped.
    #[default]
    Map,
    /// Read into memory (a copy; safe whatever other processes do to the file).
    Read,
}

/// The bytes of an input file, memory-mapped when possible.
#[derive(Debug)]
pub enum FileBytes {
    /// A memory-mapped regular file.
    Mapped(memmap2::Mmap),
    /// Bytes read into memory.
    Owned(Vec<u8>),
    /// The bytes of a stream, kept for the process (see the module).
    Shared(Arc<[u8]>),
}

impl Deref for FileBytes {
    type Target = [u8];

    fn deref(&self) -> &[u8] {
        match self {
            FileBytes::Mapped(m) => m,
            FileBytes::Owned(v) => v,
            FileBytes::Shared(s) => s,
        }
    }
}

/// Reads `path` (`-` is standard input); regular files are memory-mapped ([`Access::Map`]).
pub fn read_input(path: &Path) -> Result<FileBytes, Error> {
    read_input_with(path, Access::Map)
}

/// Reads `path` (`-` is standard input) with regular files brought in by `access`; a stream
/// is read whole.
pub fn read_input_with(path: &Path, access: Access) -> Result<FileBytes, Error> {
    let io_error = |e| Error::io(path, e);
    let file = match open(path).map_err(io_error)? {
        Opened::Stream(bytes) => return Ok(FileBytes::Shared(bytes)),
        Opened::File(file) => file,
    };
    if access == Access::Read {
        return read_all(file).map(FileBytes::Owned).map_err(io_error);
    }
    if file.metadata().map_err(io_error)?.len() == 0 {
        // Mapping an empty file fails on some systems.
        return Ok(FileBytes::Owned(Vec::new()));
    }
    // SAFETY: the map is read-only; another process truncating the file while we read it is
    // outside what any reader can defend against and is documented as unsupported (choose
    // `Access::Read` where that matters).
    match unsafe { memmap2::Mmap::map(&file) } {
        Ok(map) => Ok(FileBytes::Mapped(map)),
        Err(_) => read_all(file).map(FileBytes::Owned).map_err(io_error),
    }
}

/// Opens `path` (`-` is standard input) for reading as it goes: a regular file is read from
/// disk, a stream from its kept bytes.
pub fn open_input(path: &Path) -> io::Result<Input> {
    Ok(match open(path)? {
        Opened::Stream(bytes) => Input::Stream(Cursor::new(bytes)),
        Opened::File(file) => Input::File(file),
    })
}

/// An input opened by [`open_input`].
#[derive(Debug)]
pub enum Input {
    /// A regular file.
    File(File),
    /// The kept bytes of a stream.
    Stream(Cursor<Arc<[u8]>>),
}

impl Read for Input {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        match self {
            Input::File(f) => f.read(buf),
            Input::Stream(c) => c.read(buf),
        }
    }
}

impl Seek for Input {
    fn seek(&mut self, pos: SeekFrom) -> io::Result<u64> {
        match self {
            Input::File(f) => f.seek(pos),
            Input::Stream(c) => c.seek(pos),
        }
    }
}

/// The head of `path` for sniffing (`-` is standard input); a stream is read whole and kept,
/// so that sniffing takes nothing from the reader that follows. A compressed file's head is
/// its decompressed data's, under its name without the compression's extension.
pub(crate) fn read_head(path: &Path) -> io::Result<Head> {
    let name = path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
    let (size, bytes) = match open(path)? {
        Opened::Stream(bytes) => (bytes.len() as u64, bytes[..bytes.len().min(HEAD_LEN)].to_vec()),
        Opened::File(mut file) => (file.metadata()?.len(), read_prefix(&mut file, HEAD_LEN)?),
    };
    let Some(compression) = Compression::detect(&bytes) else {
        return Ok(Head::new(&name, &bytes, Some(size)));
    };
    let inner_name = match compression {
        Compression::Zip => zip_members(path).map_err(io::Error::other)?.first().map(|m| m.name.clone()),
        _ => None,
    };
    let inner_name = inner_name.unwrap_or_else(|| strip_compression_extension(&name).0.to_owned());
    let inner_name = inner_name.rsplit('/').next().unwrap_or_default();
    let mut decompressed = open_decompressed(path).map_err(io::Error::other)?;
    let bytes = read_prefix(&mut decompressed, HEAD_LEN)?;
    Ok(Head { compression: Some(compression), ..Head::new(inner_name, &bytes, None) })
}

/// A path opened: a regular file (or directory, which fails when read), or a stream's bytes.
enum Opened {
    File(File),
    Stream(Arc<[u8]>),
}

/// Streams read so far, by path (`-` for standard input).
static STREAMS: Mutex<Option<HashMap<PathBuf, Arc<[u8]>>>> = Mutex::new(None);

fn open(path: &Path) -> io::Result<Opened> {
    let stdin = path.as_os_str() == "-";
    // `stat` first: opening a FIFO whose writer has gone would wait for a new one.
    if !stdin {
        let kind = std::fs::metadata(path)?.file_type();
        if kind.is_file() || kind.is_dir() {
            return File::open(path).map(Opened::File);
        }
    }
    // Held while reading, so that two threads asking for one stream read it once.
    let mut streams = STREAMS.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
    let streams = streams.get_or_insert_with(HashMap::new);
    if let Some(bytes) = streams.get(path) {
        return Ok(Opened::Stream(bytes.clone()));
    }
    let bytes: Arc<[u8]> = if stdin { read_all(io::stdin().lock())? } else { read_all(File::open(path)?)? }.into();
    streams.insert(path.to_path_buf(), bytes.clone());
    Ok(Opened::Stream(bytes))
}

fn read_all(mut reader: impl Read) -> io::Result<Vec<u8>> {
    let mut bytes = Vec::new();
    reader.read_to_end(&mut bytes)?;
    Ok(bytes)
}
