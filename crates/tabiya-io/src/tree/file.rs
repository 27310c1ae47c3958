//! The tree file: its layout, the writer that streams it out in one pass, and the reader that
//! answers from a memory map (never reading the file whole).
//!
//! ```text
//! header   "tabiya-tree\0", version u16 LE, key bytes u8, game u8               16 bytes
//! records  every position in ascending key order: key, move count, moves in the order first
//!          played, each code once (record.rs: the order `polyglot make-book` keeps
//!          among equal weights); a move played once is written as its one game (version 3:
//!          version 2 wrote every move's counts, and is read as well)
//! index    the offset (u64 LE) of every BLOCK-th position's record
//! games    the game records (table.rs)
//! game index  the offset (u64 LE, from the games section) of every game's record
//! sources  per source: its name, the number of games the tree took from it
//! footer   12 u64 LE (offsets and counts, below), "tabiya-tree-end\0"                  112 bytes
//! ```

use std::io::{self, BufWriter, Read, Write};
use std::path::{Path, PathBuf};

use memmap2::Mmap;

use super::record::{Decoder, MoveBytes, Played, TreeMove, write_varint};

/// The first bytes of a tree file.
pub const MAGIC: &[u8; 12] = b"tabiya-tree\0";
const END_MAGIC: &[u8; 16] = b"tabiya-tree-end\0";
/// The layout's version.
pub const VERSION: u16 = 3;
/// The oldest layout this tabiya reads.
const OLDEST_VERSION: u16 = 2;
/// Bytes before the first record.
pub const HEADER_BYTES: u64 = 16;
const FOOTER_FIELDS: usize = 12;
const FOOTER_BYTES: usize = FOOTER_FIELDS * 8 + END_MAGIC.len();
/// Positions per entry of the index: a probe decodes at most this many records.
pub const BLOCK: u64 = 64;

/// Where the sections are and what they hold, as the footer says.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Footer {
    /// Positions.
    pub positions: u64,
    /// (position, move) pairs.
    pub moves: u64,
    /// Where the index starts (and the records end).
    pub index_offset: u64,
    /// Where the game table starts.
    pub games_offset: u64,
    /// Where the game index starts (and the games end).
    pub game_index_offset: u64,
    /// Games in the table.
    pub games: u64,
    /// Where the sources start.
    pub sources_offset: u64,
    /// Sources.
    pub sources: u64,
    /// Positions per index entry.
    pub block: u64,
    /// Times a move was counted (the sum of every move's games).
    pub occurrences: u64,
    /// Where the footer starts.
    pub footer_offset: u64,
    /// Reserved: 0.
    pub reserved: u64,
}

impl Footer {
    fn fields(&self) -> [u64; FOOTER_FIELDS] {
        [
            self.positions,
            self.moves,
            self.index_offset,
            self.games_offset,
            self.game_index_offset,
            self.games,
            self.sources_offset,
            self.sources,
            self.block,
            self.occurrences,
            self.footer_offset,
            self.reserved,
        ]
    }

    fn from_fields(f: [u64; FOOTER_FIELDS]) -> Footer {
        let [
            positions,
            moves,
            index_offset,
            games_offset,
            game_index_offset,
            games,
            sources_offset,
            sources,
            block,
            occurrences,
            footer_offset,
            reserved,
        ] = f;
        Footer {
            positions,
            moves,
            index_offset,
            games_offset,
            game_index_offset,
            games,
            sources_offset,
            sources,
            block,
            occurrences,
            footer_offset,
            reserved,
        }
    }
}

/// A source of a tree: the file as named and the games taken from it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TreeSource {
    /// The file as it was named.
    pub name: String,
    /// Games the tree took from it.
    pub games: u64,
}

/// Counts the bytes written through it.
struct Counting<W> {
    inner: W,
    written: u64,
}

impl<W: Write> Write for Counting<W> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        let n = self.inner.write(buf)?;
        self.written += n as u64;
        Ok(n)
    }

    fn flush(&mut self) -> io::Result<()> {
        self.inner.flush()
    }
}

/// Records of positions in ascending key order, encoded one after another (on any thread) and
/// written at once ([`TreeWriter`], the builder's runs), with where each starts and what they
/// count for the footer.
#[derive(Default)]
pub(crate) struct Encoded<const K: usize> {
    bytes: Vec<u8>,
    /// Where each position's record starts in `bytes`: the index names every [`BLOCK`]-th.
    starts: Vec<u32>,
    moves: u64,
    occurrences: u64,
    /// Where each move's record is gathered, kept from record to record (boxed: an `Encoded`
    /// is moved for every position a merge writes).
    scratch: Box<MoveBytes>,
}

impl<const K: usize> Encoded<K> {
    /// Appends a position and its moves (in the order first played).
    pub(crate) fn push(&mut self, key: &[u8; K], moves: &[TreeMove]) {
        debug_assert!(self.starts.last().is_none_or(|&at| self.bytes[at as usize..][..K] < key[..]), "keys ascend");
        // A range's bytes stay far below 4 GB: the builder encodes a few megabytes at a time.
        self.starts.push(self.bytes.len() as u32);
        self.scratch.position(&mut self.bytes, key, moves);
        self.moves += moves.len() as u64;
        self.occurrences += moves.iter().map(|m| m.games).sum::<u64>();
    }

    /// Appends a position whose one move was played once, by `played` ([`Encoded::push`] of
    /// the move counted once).
    pub(crate) fn push_played_once(&mut self, key: &[u8; K], played: &Played) {
        debug_assert!(self.starts.last().is_none_or(|&at| self.bytes[at as usize..][..K] < key[..]), "keys ascend");
        self.starts.push(self.bytes.len() as u32);
        self.scratch.position_played_once(&mut self.bytes, key, played);
        self.moves += 1;
        self.occurrences += 1;
    }

    /// Empty, keeping its room.
    pub(crate) fn clear(&mut self) {
        self.bytes.clear();
        self.starts.clear();
        self.moves = 0;
        self.occurrences = 0;
    }

    /// The records' bytes.
    pub(crate) fn bytes(&self) -> &[u8] {
        &self.bytes
    }

    fn first_key(&self) -> Option<&[u8]> {
        self.starts.first().map(|&at| &self.bytes[at as usize..][..K])
    }

    fn last_key(&self) -> Option<[u8; K]> {
        self.starts.last().map(|&at| self.bytes[at as usize..][..K].try_into().expect("K bytes"))
    }
}

/// Writes a tree file in one pass: positions in ascending key order (keys of `K` bytes), then
/// the game table and the sources.
pub struct TreeWriter<W: Write, const K: usize> {
    out: Counting<BufWriter<W>>,
    footer: Footer,
    index: Vec<u64>,
    last: Option<[u8; K]>,
    /// The record being written, encoded whole before it goes out in one write (`None` while
    /// it is written, or before the first).
    record: Option<Encoded<K>>,
}

impl<W: Write, const K: usize> TreeWriter<W, K> {
    /// Starts a tree of `game`'s positions (a number the game's crate gives its trees) in
    /// `out`.
    pub fn new(out: W, game: u8) -> io::Result<TreeWriter<W, K>> {
        let mut out = Counting { inner: BufWriter::with_capacity(1 << 16, out), written: 0 };
        out.write_all(MAGIC)?;
        out.write_all(&VERSION.to_le_bytes())?;
        out.write_all(&[K as u8, game])?;
        Ok(TreeWriter {
            out,
            footer: Footer { block: BLOCK, ..Footer::default() },
            index: Vec::new(),
            last: None,
            record: None,
        })
    }

    /// Adds a position with its moves (in the order first played); keys must ascend.
    pub fn position(&mut self, key: &[u8; K], moves: &[TreeMove]) -> io::Result<()> {
        // Taken out and put back, never swapped for a new one: a new `Encoded` zeroes its
        // move's scratch, a `memset` for every position of a merge.
        let mut record = self.record.take().unwrap_or_default();
        record.clear();
        record.push(key, moves);
        let written = self.encoded(&record);
        self.record = Some(record);
        written
    }

    /// Adds positions encoded elsewhere; their keys must ascend after those written before.
    pub(crate) fn encoded(&mut self, positions: &Encoded<K>) -> io::Result<()> {
        debug_assert!(
            self.last.as_ref().zip(positions.first_key()).is_none_or(|(last, first)| last[..] < *first),
            "keys ascend"
        );
        for &start in &positions.starts {
            if self.footer.positions.is_multiple_of(BLOCK) {
                self.index.push(self.out.written + u64::from(start));
            }
            self.footer.positions += 1;
        }
        self.out.write_all(&positions.bytes)?;
        self.footer.moves += positions.moves;
        self.footer.occurrences += positions.occurrences;
        if let Some(last) = positions.last_key() {
            self.last = Some(last);
        }
        Ok(())
    }

    /// Ends the positions, writes the game table (its bytes and where each record starts) and
    /// the sources, and gives the output back with what the footer says.
    pub fn finish(mut self, games: &mut dyn Read, offsets: &[u64], sources: &[TreeSource]) -> io::Result<(W, Footer)> {
        let out = &mut self.out;
        self.footer.index_offset = out.written;
        for offset in &self.index {
            out.write_all(&offset.to_le_bytes())?;
        }
        self.footer.games_offset = out.written;
        io::copy(games, out)?;
        self.footer.game_index_offset = out.written;
        for offset in offsets {
            out.write_all(&offset.to_le_bytes())?;
        }
        self.footer.games = offsets.len() as u64;
        self.footer.sources_offset = out.written;
        for source in sources {
            write_varint(out, source.name.len() as u64)?;
            out.write_all(source.name.as_bytes())?;
            write_varint(out, source.games)?;
        }
        self.footer.sources = sources.len() as u64;
        self.footer.footer_offset = out.written;
        for field in self.footer.fields() {
            out.write_all(&field.to_le_bytes())?;
        }
        out.write_all(END_MAGIC)?;
        let footer = self.footer;
        Ok((self.out.inner.into_inner().map_err(io::IntoInnerError::into_error)?, footer))
    }
}

/// Why a tree file cannot be read.
#[derive(Debug, thiserror::Error)]
pub enum TreeError {
    /// The file cannot be opened or read.
    #[error("{}: {source}", path.display())]
    Io {
        /// The file.
        path: PathBuf,
        /// What the system said.
        source: io::Error,
    },
    /// The bytes are not a tree tabiya wrote, or are damaged.
    #[error("{}: {what}", path.display())]
    Damaged {
        /// The file.
        path: PathBuf,
        /// What is wrong, with the offset.
        what: String,
    },
}

/// An opened tree file of keys of `K` bytes, memory-mapped.
pub struct TreeFile<const K: usize> {
    path: PathBuf,
    map: Mmap,
    /// The layout's version.
    version: u16,
    footer: Footer,
    sources: Vec<TreeSource>,
}

impl<const K: usize> std::fmt::Debug for TreeFile<K> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Tree").field("path", &self.path).field("footer", &self.footer).finish_non_exhaustive()
    }
}

fn u64_at(bytes: &[u8], at: u64) -> Option<u64> {
    let at = usize::try_from(at).ok()?;
    Some(u64::from_le_bytes(bytes.get(at..at.checked_add(8)?)?.try_into().ok()?))
}

impl<const K: usize> TreeFile<K> {
    /// Opens `path`, a tree of `game`'s positions, checking its header, footer and the
    /// sections' bounds.
    pub fn open(path: &Path, game: u8) -> Result<TreeFile<K>, TreeError> {
        let io = |source| TreeError::Io { path: path.into(), source };
        let file = std::fs::File::open(path).map_err(io)?;
        // SAFETY: the map is read-only; a file changed under it gives wrong answers or a
        // damage error, as any reader of a file changed while read.
        let map = unsafe { Mmap::map(&file) }.map_err(io)?;
        let damaged = |what: String| TreeError::Damaged { path: path.into(), what };
        let len = map.len() as u64;
        if !map.starts_with(MAGIC) || len < HEADER_BYTES + FOOTER_BYTES as u64 {
            return Err(damaged("not a tabiya tree (no \"tabiya-tree\" header)".into()));
        }
        let version = u16::from_le_bytes([map[12], map[13]]);
        if !(OLDEST_VERSION..=VERSION).contains(&version) {
            return Err(damaged(format!(
                "tree version {version}; this tabiya reads versions {OLDEST_VERSION} to {VERSION}"
            )));
        }
        if (map[14], map[15]) != (K as u8, game) {
            return Err(damaged(format!(
                "a tree of game {} with {}-byte keys, not of game {game} with {K}-byte keys (a chess tree is game 1, \
                 an Othello tree game 2)",
                map[15], map[14]
            )));
        }
        let footer_at = len - FOOTER_BYTES as u64;
        if &map[footer_at as usize + FOOTER_FIELDS * 8..] != END_MAGIC {
            return Err(damaged(format!("no footer at offset {footer_at} (the file is cut short?)")));
        }
        let mut fields = [0u64; FOOTER_FIELDS];
        for (i, field) in fields.iter_mut().enumerate() {
            *field = u64_at(&map, footer_at + 8 * i as u64).expect("inside the footer");
        }
        let footer = Footer::from_fields(fields);
        let bounds_ok = footer.footer_offset == footer_at
            && footer.block > 0
            && HEADER_BYTES <= footer.index_offset
            && footer.index_offset.checked_add(footer.positions.div_ceil(footer.block) * 8)
                == Some(footer.games_offset)
            && footer.games_offset <= footer.game_index_offset
            && footer.game_index_offset.checked_add(footer.games.saturating_mul(8)) == Some(footer.sources_offset)
            && footer.sources_offset <= footer_at;
        if !bounds_ok {
            return Err(damaged(format!("the footer at offset {footer_at} names sections that do not fit the file")));
        }
        let mut decoder = Decoder::new(&map[footer.sources_offset as usize..footer_at as usize], footer.sources_offset);
        let mut sources = Vec::new();
        for _ in 0..footer.sources {
            let source = (|| {
                let name = String::from_utf8_lossy(&decoder.text()?).into_owned();
                Ok::<_, io::Error>(TreeSource { name, games: decoder.varint()? })
            })();
            sources.push(source.map_err(|e| damaged(format!("source {}: {e}", sources.len() + 1)))?);
        }
        Ok(TreeFile { path: path.to_path_buf(), map, version, footer, sources })
    }

    /// The file as it was named.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// The layout's version (the header's).
    pub fn version(&self) -> u16 {
        self.version
    }

    /// What the footer says.
    pub fn footer(&self) -> &Footer {
        &self.footer
    }

    /// The sources, in the order their games were numbered.
    pub fn sources(&self) -> &[TreeSource] {
        &self.sources
    }

    /// A damage error naming this file.
    pub fn damaged(&self, what: String) -> TreeError {
        TreeError::Damaged { path: self.path.clone(), what }
    }

    /// The records' bytes, for reading every position in order.
    pub fn records(&self) -> Decoder<&[u8]> {
        Decoder::new(&self.map[HEADER_BYTES as usize..self.footer.index_offset as usize], HEADER_BYTES)
            .of_version(self.version)
    }

    /// The moves of the position `key`, when the tree holds it: a binary search of the index,
    /// then at most [`BLOCK`] records read.
    pub fn get(&self, key: &[u8; K]) -> Result<Option<Vec<TreeMove>>, TreeError> {
        let blocks = self.footer.positions.div_ceil(self.footer.block);
        let entry = |i: u64| u64_at(&self.map, self.footer.index_offset + 8 * i).unwrap_or(u64::MAX);
        let key_at = |offset: u64| -> Option<&[u8]> {
            let at = usize::try_from(offset).ok()?;
            self.map.get(at..at + K).filter(|_| offset < self.footer.index_offset)
        };
        // The last block whose first key is at most `key`.
        let (mut lo, mut hi) = (0, blocks);
        while lo < hi {
            let mid = (lo + hi) / 2;
            let first = key_at(entry(mid))
                .ok_or_else(|| self.damaged(format!("index entry {mid} points outside the records")))?;
            if first <= &key[..] {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        let Some(block) = lo.checked_sub(1) else { return Ok(None) };
        let start = entry(block);
        let end = if block + 1 < blocks { entry(block + 1) } else { self.footer.index_offset };
        let bytes = self
            .map
            .get(start as usize..end as usize)
            .ok_or_else(|| self.damaged(format!("index entry {block} is out of order")))?;
        let mut decoder = Decoder::new(bytes, start).of_version(self.version);
        while let Some((found, moves)) =
            decoder.position().map_err(|e| self.damaged(format!("record before offset {}: {e}", decoder.offset)))?
        {
            match found.cmp(key) {
                std::cmp::Ordering::Less => continue,
                std::cmp::Ordering::Equal => return Ok(Some(moves)),
                std::cmp::Ordering::Greater => break,
            }
        }
        Ok(None)
    }

    /// Entry `i` of the index: where the `i × BLOCK`-th record starts.
    pub fn index_entry(&self, i: u64) -> Option<u64> {
        u64_at(&self.map, self.footer.index_offset.checked_add(i.checked_mul(8)?)?)
            .filter(|_| i < self.footer.positions.div_ceil(self.footer.block))
    }

    /// The source that game `id` came from.
    pub fn source_of(&self, id: u64) -> String {
        let mut before = 0;
        for source in &self.sources {
            if id < before + source.games {
                return source.name.clone();
            }
            before += source.games;
        }
        String::new()
    }

    /// The bytes of game `id`'s record and what follows it in the table, with the offset of
    /// its first byte: the game's crate decodes it.
    pub fn game_record(&self, id: u64) -> Result<(&[u8], u64), TreeError> {
        let damaged = |what: &str| self.damaged(format!("game {id}: {what}"));
        if id >= self.footer.games {
            return Err(damaged(&format!("the table holds {} games", self.footer.games)));
        }
        let offset = u64_at(&self.map, self.footer.game_index_offset + 8 * id).ok_or_else(|| damaged("no index"))?;
        let start = self.footer.games_offset.checked_add(offset).filter(|&s| s < self.footer.game_index_offset);
        let start = start.ok_or_else(|| damaged(&format!("record offset {offset} outside the table")))?;
        Ok((&self.map[start as usize..self.footer.game_index_offset as usize], start))
    }

    /// The game table's bytes and where each record starts (for merging trees).
    pub fn game_table(&self) -> (&[u8], impl Iterator<Item = u64> + '_) {
        let bytes = &self.map[self.footer.games_offset as usize..self.footer.game_index_offset as usize];
        let offsets =
            (0..self.footer.games).map(|i| u64_at(&self.map, self.footer.game_index_offset + 8 * i).unwrap_or(0));
        (bytes, offsets)
    }
}
