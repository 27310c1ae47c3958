//! Compressed inputs and outputs: gzip, bzip2, xz, zstd and zip, found by their magic bytes
//! (never by the extension) and decoded as they are read, so that memory stays flat whatever
//! the size of the data (a month of lichess games is 30 GB of `.pgn.zst`).
//!
//! Every decoder reads all of its input: the members of a multi-member gzip (`cat a.gz b.gz`,
//! pigz, bgzip), the streams of a multi-stream bzip2 (pbzip2) or xz, the frames of a
//! multi-frame zstd (pzstd, with the skippable frames it puts before each frame). A zip yields
//! the data of its members one after the other, in the order of its central directory, with
//! nothing put between them: a zip of PGN files reads as one PGN file ([`zip_members`] names
//! the members for a caller that wants them apart).
//!
//! An input that ends inside compressed data, or whose compressed data is corrupt, is an error
//! naming the file and the offset in the compressed file where decoding stopped: never a
//! short or a garbled read.
//!
//! Decoding runs on the reading thread, memory flat (5 MB for any size), or on a thread of its
//! own a few blocks ahead of the reader ([`ReadAhead`], [`Decompressed::decoding_ahead`]),
//! so that a reader parsing on every core loses no time to it. Decoding alone is fast: the medium corpus ×8 (179 MB of PGN) decodes in 0.25–0.34 CPU s from zstd -3
//! (zstdcat: 0.30–0.37 s) and 0.69–0.72 s from gzip -6 (zlib-rs; zcat: 1.08–1.13 s), 3 runs
//! each (`examples/decompress.rs`). Decoding frames on several threads was not worth its code:
//! `pzstd -d -p 2` took 0.47–0.61 s wall against 0.37–0.59 s for `-p 1` on the same file on
//! the project's 2-core machine, whose second core is better spent parsing.
//! A stream, `-` or a FIFO, is decoded as it comes, never kept (a zip stream excepted: see
//! [`open_decompressed`]).

use std::fmt;
use std::io::{self, BufRead, BufReader, Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

use crate::error::Error;
use crate::input::{open_input, open_sequential, raw_head};

/// A compression (or archive) format tabiya reads.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Compression {
    /// gzip (RFC 1952), one or several members.
    Gzip,
    /// bzip2, one or several streams.
    Bzip2,
    /// xz, one or several streams.
    Xz,
    /// Zstandard, one or several frames (skippable frames are skipped).
    Zstd,
    /// A zip archive: its members' data in order. Read only.
    Zip,
}

impl Compression {
    /// Every compression, in the order their magic bytes are tried.
    pub const ALL: [Compression; 5] =
        [Compression::Gzip, Compression::Bzip2, Compression::Xz, Compression::Zstd, Compression::Zip];

    /// The name of the format, as `gzip`, `zstd`.
    pub fn name(self) -> &'static str {
        match self {
            Compression::Gzip => "gzip",
            Compression::Bzip2 => "bzip2",
            Compression::Xz => "xz",
            Compression::Zstd => "zstd",
            Compression::Zip => "zip",
        }
    }

    /// The extensions of files in this compression, lower case, without the dot.
    pub fn extensions(self) -> &'static [&'static str] {
        match self {
            Compression::Gzip => &["gz", "gzip"],
            Compression::Bzip2 => &["bz2", "bzip2"],
            Compression::Xz => &["xz"],
            Compression::Zstd => &["zst", "zstd"],
            Compression::Zip => &["zip"],
        }
    }

    /// The compression an extension names (any case, without the dot).
    pub fn from_extension(extension: &str) -> Option<Compression> {
        let lower = extension.to_ascii_lowercase();
        Compression::ALL.into_iter().find(|c| c.extensions().contains(&lower.as_str()))
    }

    /// The compression of data starting with `head` (a file's first bytes; the more the
    /// better for zstd, whose pzstd files start with a skippable frame).
    pub fn detect(head: &[u8]) -> Option<Compression> {
        if head.starts_with(&[0x1F, 0x8B]) {
            Some(Compression::Gzip)
        } else if head.len() >= 4 && head.starts_with(b"BZh") && (b'1'..=b'9').contains(&head[3]) {
            Some(Compression::Bzip2)
        } else if head.starts_with(&[0xFD, b'7', b'z', b'X', b'Z', 0]) {
            Some(Compression::Xz)
        } else if is_zstd(head) {
            Some(Compression::Zstd)
        } else if head.starts_with(b"PK\x03\x04") || head.starts_with(b"PK\x05\x06") {
            Some(Compression::Zip)
        } else {
            None
        }
    }

    /// Starts writing this compression to `out`, at the level (and with the checksum) the
    /// command-line tools use by default. Zip is an archive of named members, not a stream:
    /// refused.
    pub fn encoder<W: Write>(self, out: W) -> io::Result<Encoder<W>> {
        Ok(match self {
            Compression::Gzip => Encoder::Gzip(flate2::write::GzEncoder::new(out, flate2::Compression::new(6))),
            Compression::Bzip2 => Encoder::Bzip2(bzip2::write::BzEncoder::new(out, bzip2::Compression::new(9))),
            Compression::Xz => {
                Encoder::Xz(Box::new(lzma_rust2::XzWriter::new(out, lzma_rust2::XzOptions::with_preset(6))?))
            }
            Compression::Zstd => {
                let mut encoder = zstd::stream::write::Encoder::new(out, 3)?;
                // As the zstd tool does by default: corruption is then found when read.
                encoder.include_checksum(true)?;
                Encoder::Zstd(encoder)
            }
            Compression::Zip => {
                return Err(io::Error::new(
                    io::ErrorKind::Unsupported,
                    "tabiya does not write zip archives (write the file, then zip it)",
                ));
            }
        })
    }
}

impl fmt::Display for Compression {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The zstd frame magic, and the range of skippable-frame magics (little-endian).
const ZSTD_MAGIC: u32 = 0xFD2F_B528;
const SKIPPABLE: std::ops::RangeInclusive<u32> = 0x184D_2A50..=0x184D_2A5F;

/// A zstd frame, or skippable frames (LZ4 uses them too) followed by a zstd frame.
fn is_zstd(head: &[u8]) -> bool {
    let mut at = 0usize;
    while let Some(magic) = head.get(at..at + 4).map(|b| u32::from_le_bytes(b.try_into().unwrap())) {
        if magic == ZSTD_MAGIC {
            return true;
        }
        if !SKIPPABLE.contains(&magic) {
            return false;
        }
        let Some(size) = head.get(at + 4..at + 8).map(|b| u32::from_le_bytes(b.try_into().unwrap())) else {
            return false;
        };
        at = at.saturating_add(8).saturating_add(size as usize);
    }
    false
}

/// A name without the extension of its compression (`games.pgn.zst` → `games.pgn`) and that
/// compression; a name without one is returned whole.
pub fn strip_compression_extension(name: &str) -> (&str, Option<Compression>) {
    if let Some((stem, extension)) = name.rsplit_once('.')
        && let Some(compression) = Compression::from_extension(extension)
        && !stem.is_empty()
    {
        return (stem, Some(compression));
    }
    (name, None)
}

/// An input read through its decompression: the data of a compressed file, or an
/// uncompressed file's bytes unchanged. Made by [`open_decompressed`].
pub struct Decompressed {
    path: PathBuf,
    compression: Option<Compression>,
    inner: Inner,
    /// Bytes of the file taken: by the decoder (see [`Counted`]), or read as they are.
    consumed: Arc<AtomicU64>,
}

enum Inner {
    Plain(Box<dyn Read + Send>),
    Decoding(Box<dyn Read + Send>),
}

impl fmt::Debug for Decompressed {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Decompressed").field("path", &self.path).field("compression", &self.compression).finish()
    }
}

impl Decompressed {
    /// The compression found, `None` for an uncompressed input.
    pub fn compression(&self) -> Option<Compression> {
        self.compression
    }

    /// How many bytes of the file have been taken so far: by the decoder of a compressed
    /// file, or read from an uncompressed one.
    pub fn compressed_offset(&self) -> u64 {
        self.consumed.load(Ordering::Relaxed)
    }

    /// A handle on how far reading has come, to be read from another thread while this input
    /// is read (a progress bar of bytes taken against the file's size).
    pub fn position(&self) -> crate::input::ReadPosition {
        let size = std::fs::metadata(&self.path).ok().filter(|m| m.is_file()).map(|m| m.len());
        crate::input::ReadPosition { taken: self.consumed.clone(), size }
    }
}

impl Read for Decompressed {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let reader = match &mut self.inner {
            Inner::Plain(input) => {
                let n = input.read(buf)?;
                self.consumed.fetch_add(n as u64, Ordering::Relaxed);
                return Ok(n);
            }
            Inner::Decoding(reader) => reader,
        };
        reader.read(buf).map_err(|e| {
            let what = if e.kind() == io::ErrorKind::UnexpectedEof { "truncated" } else { "corrupt" };
            let compression = self.compression.map_or("", Compression::name);
            io::Error::new(
                if e.kind() == io::ErrorKind::UnexpectedEof { e.kind() } else { io::ErrorKind::InvalidData },
                format!(
                    "{}: {what} {compression} data at compressed offset {}: {e}",
                    self.path.display(),
                    self.consumed.load(Ordering::Relaxed)
                ),
            )
        })
    }
}

/// Opens `path` (`-` is standard input; a stream is read as it comes, see
/// [`crate::open_sequential`]) for reading its data decompressed: the compression is found by
/// the magic bytes; an uncompressed file reads as it is. A zip is the exception: its members
/// are found through its central directory at its end, so a zip stream is read whole.
pub fn open_decompressed(path: &Path) -> Result<Decompressed, Error> {
    let io_error = |e| Error::io(path, e);
    let compression = Compression::detect(&raw_head(path).map_err(io_error)?);
    let consumed = Arc::new(AtomicU64::new(0));
    let inner = match compression {
        None => Inner::Plain(open_sequential(path).map_err(io_error)?),
        Some(Compression::Zip) => Inner::Decoding(Box::new(ZipData::open(path, consumed.clone())?)),
        Some(compression) => {
            let counted = Counted {
                inner: BufReader::with_capacity(1 << 16, open_sequential(path).map_err(io_error)?),
                consumed: consumed.clone(),
            };
            Inner::Decoding(decoder(compression, path, counted).map_err(io_error)?)
        }
    };
    Ok(Decompressed { path: path.to_path_buf(), compression, inner, consumed })
}

/// The decoder of `compression` (not zip, an archive) over `data`.
pub(crate) fn decoder(
    compression: Compression,
    path: &Path,
    data: impl BufRead + Send + 'static,
) -> io::Result<Box<dyn Read + Send>> {
    Ok(match compression {
        Compression::Gzip => Box::new(flate2::bufread::MultiGzDecoder::new(data)),
        Compression::Bzip2 => Box::new(bzip2::bufread::MultiBzDecoder::new(data)),
        Compression::Xz => Box::new(lzma_rust2::XzReader::new(data, true)),
        Compression::Zstd => Box::new(zstd::stream::read::Decoder::with_buffer(data)?),
        Compression::Zip => {
            let what = format!("{}: a zip is read through its directory, not as a stream", path.display());
            return Err(io::Error::new(io::ErrorKind::Unsupported, what));
        }
    })
}

/// The bytes of `path` (`-` is standard input) decompressed: a regular file that is not
/// compressed is memory-mapped as by [`crate::read_input`]; compressed data is decoded into
/// memory. For formats read whole (Othello and shogi text, a PGN book source).
pub fn read_decompressed(path: &Path) -> Result<crate::FileBytes, Error> {
    let mut data = open_decompressed(path)?;
    // A plain regular file is read as `read_input` reads it (mapped); a stream only once, here.
    if data.compression().is_none() && std::fs::metadata(path).is_ok_and(|m| m.is_file()) {
        drop(data);
        return crate::read_input(path);
    }
    let mut bytes = Vec::new();
    data.read_to_end(&mut bytes).map_err(|e| Error::io(path, e))?;
    Ok(crate::FileBytes::Owned(bytes))
}

/// Blocks a [`ReadAhead`] reads at a time, and keeps ready.
const AHEAD_BLOCK: usize = 1 << 20;
const AHEAD_BLOCKS: usize = 4;

/// A reader read on a thread of its own, up to four blocks of 1 MiB ahead of its
/// consumer: decoding compressed data then takes none of the consumer's time on a machine with
/// a core to spare, and memory stays flat (5 MiB). An error of the reader comes to the consumer
/// where it happened in the data.
pub struct ReadAhead {
    blocks: std::sync::mpsc::Receiver<io::Result<Vec<u8>>>,
    /// Emptied blocks sent back to be filled again.
    spent: std::sync::mpsc::SyncSender<Vec<u8>>,
    current: Vec<u8>,
    at: usize,
    ended: bool,
}

impl ReadAhead {
    /// Starts reading `reader` on a new thread.
    pub fn new(mut reader: impl Read + Send + 'static) -> ReadAhead {
        let (filled, blocks) = std::sync::mpsc::sync_channel(AHEAD_BLOCKS);
        let (spent, recycled) = std::sync::mpsc::sync_channel::<Vec<u8>>(AHEAD_BLOCKS + 1);
        std::thread::spawn(move || {
            loop {
                let mut block = recycled.try_recv().unwrap_or_else(|_| Vec::with_capacity(AHEAD_BLOCK));
                block.clear();
                let read = (&mut reader).take(AHEAD_BLOCK as u64).read_to_end(&mut block);
                let end = !matches!(read, Ok(n) if n > 0);
                let sent = match read {
                    Ok(0) => Ok(()),
                    Ok(_) => filled.send(Ok(block)),
                    Err(e) => filled.send(Err(e)),
                };
                // The consumer has gone, or the data has ended.
                if end || sent.is_err() {
                    return;
                }
            }
        });
        ReadAhead { blocks, spent, current: Vec::new(), at: 0, ended: false }
    }
}

impl Read for ReadAhead {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        while self.at == self.current.len() {
            if self.ended {
                return Ok(0);
            }
            match self.blocks.recv() {
                Ok(Ok(block)) => {
                    let spent = std::mem::replace(&mut self.current, block);
                    // The reading thread may have ended; the block is then dropped.
                    let _ = self.spent.try_send(spent);
                    self.at = 0;
                }
                Ok(Err(e)) => {
                    self.ended = true;
                    return Err(e);
                }
                Err(_) => {
                    self.ended = true;
                    return Ok(0);
                }
            }
        }
        let n = buf.len().min(self.current.len() - self.at);
        buf[..n].copy_from_slice(&self.current[self.at..self.at + n]);
        self.at += n;
        Ok(n)
    }
}

impl Decompressed {
    /// This input as a reader of its data: compressed data is decoded on a thread of its own
    /// ([`ReadAhead`]); an uncompressed file is read as it is, on the caller's thread.
    pub fn decoding_ahead(self) -> Box<dyn Read + Send> {
        if self.compression.is_some() { Box::new(ReadAhead::new(self)) } else { Box::new(self) }
    }
}

/// Up to `len` first bytes of `reader` (fewer only at its end).
pub(crate) fn read_prefix(reader: &mut impl Read, len: usize) -> io::Result<Vec<u8>> {
    let mut bytes = Vec::with_capacity(len);
    reader.take(len as u64).read_to_end(&mut bytes)?;
    Ok(bytes)
}

/// A buffered reader that counts the bytes its consumer takes, so that a decoding error can
/// say where in the compressed file it stopped.
struct Counted<R> {
    inner: BufReader<R>,
    consumed: Arc<AtomicU64>,
}

impl<R: Read> Read for Counted<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = self.inner.read(buf)?;
        self.consumed.fetch_add(n as u64, Ordering::Relaxed);
        Ok(n)
    }
}

impl<R: Read> BufRead for Counted<R> {
    fn fill_buf(&mut self) -> io::Result<&[u8]> {
        self.inner.fill_buf()
    }

    fn consume(&mut self, n: usize) {
        self.consumed.fetch_add(n as u64, Ordering::Relaxed);
        self.inner.consume(n);
    }
}

/// A member of a zip archive, as its central directory describes it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ZipMember {
    /// The member's name (its path in the archive).
    pub name: String,
    /// Its size once decompressed.
    pub size: u64,
    /// Where its compressed data starts in the archive.
    data_start: u64,
    compressed_size: u64,
    method: zip::CompressionMethod,
    crc32: u32,
}

/// The file members of the zip archive `path` (directories left out), in the order of its
/// central directory.
pub fn zip_members(path: &Path) -> Result<Vec<ZipMember>, Error> {
    let io_error = |e| Error::io(path, e);
    let zip_error = |e: zip::result::ZipError| io_error(io::Error::new(io::ErrorKind::InvalidData, e.to_string()));
    let mut archive = zip::ZipArchive::new(open_input(path).map_err(io_error)?).map_err(zip_error)?;
    let mut members = Vec::with_capacity(archive.len());
    for index in 0..archive.len() {
        let file = archive.by_index_raw(index).map_err(zip_error)?;
        if file.is_dir() {
            continue;
        }
        let name = file.name().map_err(zip_error)?.into_owned();
        let data_start = file
            .data_start()
            .ok_or_else(|| zip_error(zip::result::ZipError::InvalidArchive("no data start".into())))?;
        members.push(ZipMember {
            name,
            size: file.size(),
            data_start,
            compressed_size: file.compressed_size(),
            method: file.compression(),
            crc32: file.crc32(),
        });
    }
    Ok(members)
}

/// Opens one member of the zip archive `path` for reading its data, checked against the CRC
/// its archive gives.
pub fn open_zip_member(path: &Path, member: &ZipMember) -> Result<impl Read + Send + use<>, Error> {
    member_reader(path, member, Arc::new(AtomicU64::new(0)))
}

fn member_reader(path: &Path, member: &ZipMember, consumed: Arc<AtomicU64>) -> Result<Checked, Error> {
    let io_error = |e| Error::io(path, e);
    let mut input = open_input(path).map_err(io_error)?;
    input.seek(SeekFrom::Start(member.data_start)).map_err(io_error)?;
    consumed.store(member.data_start, Ordering::Relaxed);
    let data = Counted { inner: BufReader::with_capacity(1 << 16, input.take(member.compressed_size)), consumed };
    use zip::CompressionMethod as Method;
    let decoder: Box<dyn Read + Send> = match member.method {
        Method::STORE => Box::new(data),
        Method::DEFLATE => Box::new(flate2::bufread::DeflateDecoder::new(data)),
        Method::BZIP2 => Box::new(bzip2::bufread::BzDecoder::new(data)),
        Method::ZSTD => Box::new(zstd::stream::read::Decoder::with_buffer(data).map_err(io_error)?),
        Method::XZ => Box::new(lzma_rust2::XzReader::new(data, false)),
        other => {
            return Err(io_error(io::Error::new(
                io::ErrorKind::Unsupported,
                format!("zip member {}: compression method {other:?} is not supported", member.name),
            )));
        }
    };
    Ok(Checked {
        name: member.name.clone(),
        decoder,
        crc: flate2::Crc::new(),
        size: member.size,
        expected: member.crc32,
    })
}

/// A zip member's decoded data, checked at its end against the size and CRC-32 the archive
/// gives: a truncated or corrupt member is an error, never short data.
struct Checked {
    name: String,
    decoder: Box<dyn Read + Send>,
    crc: flate2::Crc,
    size: u64,
    expected: u32,
}

impl Read for Checked {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = self.decoder.read(buf)?;
        self.crc.update(&buf[..n]);
        if n == 0
            && !buf.is_empty()
            && (u64::from(self.crc.amount()) != self.size & 0xFFFF_FFFF || self.crc.sum() != self.expected)
        {
            let what =
                if u64::from(self.crc.amount()) < self.size & 0xFFFF_FFFF { "ends early" } else { "fails its CRC" };
            return Err(io::Error::new(io::ErrorKind::InvalidData, format!("zip member {} {what}", self.name)));
        }
        Ok(n)
    }
}

/// The data of every member of a zip archive, one after the other.
struct ZipData {
    path: PathBuf,
    members: std::vec::IntoIter<ZipMember>,
    current: Option<Checked>,
    consumed: Arc<AtomicU64>,
}

impl ZipData {
    fn open(path: &Path, consumed: Arc<AtomicU64>) -> Result<ZipData, Error> {
        let members = zip_members(path)?.into_iter();
        Ok(ZipData { path: path.to_path_buf(), members, current: None, consumed })
    }
}

impl Read for ZipData {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        loop {
            if let Some(member) = &mut self.current {
                let n = member.read(buf)?;
                if n > 0 || buf.is_empty() {
                    return Ok(n);
                }
            }
            let Some(next) = self.members.next() else { return Ok(0) };
            let member = member_reader(&self.path, &next, self.consumed.clone()).map_err(io::Error::other)?;
            self.current = Some(member);
        }
    }
}

/// A compressing writer made by [`Compression::encoder`]; [`Encoder::finish`] writes the end
/// of the compressed data and hands back the writer underneath.
pub enum Encoder<W: Write> {
    /// gzip.
    Gzip(flate2::write::GzEncoder<W>),
    /// bzip2.
    Bzip2(bzip2::write::BzEncoder<W>),
    /// xz.
    Xz(Box<lzma_rust2::XzWriter<W>>),
    /// zstd.
    Zstd(zstd::stream::write::Encoder<'static, W>),
}

impl<W: Write> Encoder<W> {
    /// Ends the compressed data (trailer, checksum) and returns the writer underneath. Without
    /// it the compressed file is truncated.
    pub fn finish(self) -> io::Result<W> {
        match self {
            Encoder::Gzip(e) => e.finish(),
            Encoder::Bzip2(e) => e.finish(),
            Encoder::Xz(e) => e.finish(),
            Encoder::Zstd(e) => e.finish(),
        }
    }
}

impl<W: Write> Write for Encoder<W> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        match self {
            Encoder::Gzip(e) => e.write(buf),
            Encoder::Bzip2(e) => e.write(buf),
            Encoder::Xz(e) => e.write(buf),
            Encoder::Zstd(e) => e.write(buf),
        }
    }

    fn flush(&mut self) -> io::Result<()> {
        match self {
            Encoder::Gzip(e) => e.flush(),
            Encoder::Bzip2(e) => e.flush(),
            Encoder::Xz(e) => e.flush(),
            Encoder::Zstd(e) => e.flush(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_and_extensions() {
        assert_eq!(strip_compression_extension("games.pgn.zst"), ("games.pgn", Some(Compression::Zstd)));
        assert_eq!(strip_compression_extension("games.PGN.GZ"), ("games.PGN", Some(Compression::Gzip)));
        assert_eq!(strip_compression_extension("games.pgn"), ("games.pgn", None));
        assert_eq!(strip_compression_extension(".gz"), (".gz", None));
        // pzstd: a skippable frame of 4 bytes (the next frame's size), then the frame.
        let pzstd = [0x50, 0x2A, 0x4D, 0x18, 4, 0, 0, 0, 9, 9, 0, 0, 0x28, 0xB5, 0x2F, 0xFD];
        assert_eq!(Compression::detect(&pzstd), Some(Compression::Zstd));
        assert_eq!(Compression::detect(&pzstd[..12]), None);
        assert_eq!(Compression::detect(b"BZh9"), Some(Compression::Bzip2));
        assert_eq!(Compression::detect(b"BZh0"), None);
        assert_eq!(Compression::detect(b"[Event"), None);
    }
}
