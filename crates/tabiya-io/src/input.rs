//! Opening inputs: regular files (memory-mapped or read, as the caller chooses), standard
//! input for `-`, and streams: a FIFO, `<(zstdcat x.pgn.zst)`, a character device.
//!
//! A stream has no size (its metadata says 0) and can be read once. Its first bytes (up to
//! [`STREAM_HEAD`]) are read the first time anything asks for them (to sniff its format, say)
//! and kept for the process, so that sniffing takes nothing from the reader that follows. One
//! reader may then read the stream through ([`open_sequential`]): the kept head, then the rest
//! as it comes, so that memory stays flat whatever the stream's length. A reader that needs it
//! whole (to map it, or to seek in it: [`read_input`], [`open_input`]) reads the rest into
//! memory, and every reader after gets the same bytes, never an empty file.

use std::collections::HashMap;
use std::fs::File;
use std::io::{self, Cursor, Read, Seek, SeekFrom};
use std::ops::Deref;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

use crate::compression::{
    Compression, decoder, open_decompressed, read_prefix, strip_compression_extension, zip_members,
};
use crate::error::Error;
use crate::sniff::{HEAD_LEN, Head};

/// How far the reading of an input has come, readable from any thread while another reads it
/// (for a progress bar): the bytes of the file taken so far (compressed bytes for a compressed
/// file, so that a bar against the file's size is right) and the file's size (`None` for a
/// stream). Made by [`Decompressed::position`](crate::Decompressed::position).
#[derive(Debug, Clone)]
pub struct ReadPosition {
    pub(crate) taken: Arc<AtomicU64>,
    pub(crate) size: Option<u64>,
}

impl ReadPosition {
    /// Bytes of the file taken so far.
    pub fn taken(&self) -> u64 {
        self.taken.load(Ordering::Relaxed)
    }

    /// The file's size, `None` for a stream.
    pub fn size(&self) -> Option<u64> {
        self.size
    }
}

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

/// The head of `path` for sniffing (`-` is standard input); a stream's head is kept, so that
/// sniffing takes nothing from the reader that follows. A compressed file's head is its
/// decompressed data's, under its name without the compression's extension.
pub(crate) fn read_head(path: &Path) -> io::Result<Head> {
    let name = path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
    let (size, bytes, stream) = match open_head(path)? {
        Headed::File(mut file) => (Some(file.metadata()?.len()), read_prefix(&mut file, HEAD_LEN)?, None),
        Headed::Stream { head, whole } => {
            let size = whole.then_some(head.len() as u64);
            (size, head[..head.len().min(HEAD_LEN)].to_vec(), Some((head, whole)))
        }
    };
    let Some(compression) = Compression::detect(&bytes) else {
        return Ok(Head::new(&name, &bytes, size));
    };
    let inner_name = match compression {
        Compression::Zip => zip_members(path).map_err(io::Error::other)?.first().map(|m| m.name.clone()),
        _ => None,
    };
    let inner_name = inner_name.unwrap_or_else(|| strip_compression_extension(&name).0.to_owned());
    let inner_name = inner_name.rsplit('/').next().unwrap_or_default();
    let bytes = match stream {
        // A stream's head is decoded from the kept bytes: the stream itself is left to the
        // reader. Cut short by the head's end (not the data's), the decoded part is the head.
        Some((head, whole)) if compression != Compression::Zip => {
            let mut decoded = Vec::with_capacity(HEAD_LEN);
            let mut reader = decoder(compression, path, Cursor::new(head))?.take(HEAD_LEN as u64);
            match reader.read_to_end(&mut decoded) {
                Ok(_) => decoded,
                Err(_) if !whole && !decoded.is_empty() => decoded,
                Err(e) => return Err(e),
            }
        }
        _ => read_prefix(&mut open_decompressed(path).map_err(io::Error::other)?, HEAD_LEN)?,
    };
    Ok(Head { compression: Some(compression), ..Head::new(inner_name, &bytes, None) })
}

/// How many first bytes of a stream are kept for sniffing: enough to decode the head of any
/// compressed data (a bzip2 block, the largest unit a decoder needs whole, is 900 kB at most).
pub const STREAM_HEAD: usize = 1 << 20;

/// A path opened: a regular file (or directory, which fails when read), or a stream's bytes.
enum Opened {
    File(File),
    Stream(Arc<[u8]>),
}

/// A path opened for its head: a regular file, or a stream's kept head (`whole` when the
/// stream ended within it, or was read whole).
enum Headed {
    File(File),
    Stream { head: Arc<[u8]>, whole: bool },
}

/// A stream met so far (see the module).
struct Stream {
    /// Its first bytes, or all of them once read whole.
    head: Arc<[u8]>,
    /// The rest, unread; `None` once a reader took it, or once the stream ended in the head.
    rest: Option<Box<dyn Read + Send>>,
    /// The head is the whole stream.
    whole: bool,
}

/// Streams met so far, by path (`-` for standard input).
static STREAMS: Mutex<Option<HashMap<PathBuf, Stream>>> = Mutex::new(None);

/// Runs `f` on the stream at `path` (`-` is standard input), its head read first if it was
/// never met; `Ok(None)` when `path` is a regular file or a directory (opened then).
/// The lock is held throughout, so that two threads asking for one stream read it once.
fn with_stream<T>(path: &Path, f: impl FnOnce(&mut Stream) -> io::Result<T>) -> io::Result<Result<T, File>> {
    let stdin = path.as_os_str() == "-";
    // `stat` first: opening a FIFO whose writer has gone would wait for a new one.
    if !stdin {
        let kind = std::fs::metadata(path)?.file_type();
        if kind.is_file() || kind.is_dir() {
            return File::open(path).map(Err);
        }
    }
    let mut streams = STREAMS.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
    let streams = streams.get_or_insert_with(HashMap::new);
    if !streams.contains_key(path) {
        let mut rest: Box<dyn Read + Send> = if stdin { Box::new(io::stdin()) } else { Box::new(File::open(path)?) };
        let head = read_prefix(&mut rest, STREAM_HEAD)?;
        let whole = head.len() < STREAM_HEAD;
        let stream = Stream { head: head.into(), rest: (!whole).then_some(rest), whole };
        streams.insert(path.to_path_buf(), stream);
    }
    let stream = streams.get_mut(path).expect("inserted above");
    f(stream).map(Ok)
}

/// The error of a stream that a reader has already read through.
fn read_through(path: &Path) -> io::Error {
    let name = if path.as_os_str() == "-" { "standard input".into() } else { path.display().to_string() };
    io::Error::other(format!("{name} was read through already: a stream can be read once"))
}

/// The first [`HEAD_LEN`] bytes of `path` as they stand (not decompressed).
pub(crate) fn raw_head(path: &Path) -> io::Result<Vec<u8>> {
    Ok(match open_head(path)? {
        Headed::File(mut file) => read_prefix(&mut file, HEAD_LEN)?,
        Headed::Stream { head, .. } => head[..head.len().min(HEAD_LEN)].to_vec(),
    })
}

fn open_head(path: &Path) -> io::Result<Headed> {
    Ok(match with_stream(path, |s| Ok(Headed::Stream { head: s.head.clone(), whole: s.whole }))? {
        Ok(headed) => headed,
        Err(file) => Headed::File(file),
    })
}

fn open(path: &Path) -> io::Result<Opened> {
    let stream = with_stream(path, |stream| {
        if !stream.whole {
            let mut rest = stream.rest.take().ok_or_else(|| read_through(path))?;
            let mut bytes = stream.head.to_vec();
            rest.read_to_end(&mut bytes)?;
            stream.head = bytes.into();
            stream.whole = true;
        }
        Ok(stream.head.clone())
    })?;
    Ok(match stream {
        Ok(bytes) => Opened::Stream(bytes),
        Err(file) => Opened::File(file),
    })
}

/// Opens `path` (`-` is standard input) to be read once from its start, as it comes: a
/// regular file from disk, a stream from its kept head and then the rest, never held whole
/// (see the module). A stream can be read through once (an error after), unless something
/// read it whole before.
pub fn open_sequential(path: &Path) -> io::Result<Box<dyn Read + Send>> {
    let stream = with_stream(path, |stream| -> io::Result<Box<dyn Read + Send>> {
        let head = Cursor::new(stream.head.clone());
        if stream.whole {
            return Ok(Box::new(head));
        }
        let rest = stream.rest.take().ok_or_else(|| read_through(path))?;
        Ok(Box::new(head.chain(rest)))
    })?;
    Ok(match stream {
        Ok(reader) => reader,
        Err(file) => Box::new(file),
    })
}

fn read_all(mut reader: impl Read) -> io::Result<Vec<u8>> {
    let mut bytes = Vec::new();
    reader.read_to_end(&mut bytes)?;
    Ok(bytes)
}
