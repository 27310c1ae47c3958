//! Opening a book: the header page, the data pages and their records, the bucket tree, and
//! finding a key.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use tabiya_io::{ByteReader, DataError, Diagnostic, DiagnosticSink, FileBytes, Location, read_input};

use super::index::BucketTree;
use super::key::{Key, key_len};
use super::record::{Record, STATS_LEN, Stats};
use super::{CtgError, PAGE_SIZE};

/// Fields of the header page (ctg.md 2). Readers need none of them; they are shown by `info`
/// and checked by `verify`.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, serde::Serialize)]
pub struct Header {
    /// Offset 0x02, the page size (4096 in every known book).
    pub page_size: u16,
    /// Offset 0x10, the number of data pages.
    pub data_pages: u32,
    /// Offset 0x18, about the number of positions.
    pub positions: u32,
    /// Offset 0x1C, the number of games the book was made from.
    pub games: u32,
    /// Offsets 0x800 and 0x804: 12 and the number of bucket splits, or 0, 0.
    pub split_marker: u32,
    /// Split count of the `.ctb` (offset 0x804), when the marker says it is there.
    pub splits: u32,
}

impl Header {
    fn parse(page: &[u8], path: &Path) -> Result<Header, CtgError> {
        let err = |e: DataError| CtgError::data(e.in_file(path), None);
        let mut r = ByteReader::new(page);
        r.seek(2, "the header page").map_err(err)?;
        let page_size = r.u16_be("the page size").map_err(err)?;
        if usize::from(page_size) != PAGE_SIZE {
            return Err(err(DataError::new(Location::at(2), "page size 4096").found(page_size.to_string())));
        }
        r.seek(0x10, "the header page").map_err(err)?;
        let data_pages = r.u32_be("the number of data pages").map_err(err)?;
        r.skip(4, "the header page").map_err(err)?;
        let positions = r.u32_be("the number of positions").map_err(err)?;
        let games = r.u32_be("the number of games").map_err(err)?;
        r.seek(0x800, "the header page").map_err(err)?;
        let split_marker = r.u32_be("the split marker").map_err(err)?;
        let splits = r.u32_be("the number of splits").map_err(err)?;
        Ok(Header { page_size, data_pages, positions, games, split_marker, splits })
    }
}

/// The files of a book, found from any of them or from the stem.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BookPaths {
    /// The data pages.
    pub ctg: PathBuf,
    /// The bucket → page table.
    pub cto: PathBuf,
    /// The split bitmap.
    pub ctb: PathBuf,
}

impl BookPaths {
    /// `book.ctg`, `book.cto`, `book.ctb` or `book`; an upper-case extension (`BOOK.CTG`) is
    /// found too.
    pub fn new(path: &Path) -> BookPaths {
        let has_book_ext = path
            .extension()
            .and_then(|e| e.to_str())
            .is_some_and(|e| ["ctg", "cto", "ctb"].contains(&e.to_ascii_lowercase().as_str()));
        let stem = if has_book_ext { path.with_extension("") } else { path.to_path_buf() };
        let sibling = |ext: &str| {
            let lower = stem.with_extension(ext);
            let upper = stem.with_extension(ext.to_ascii_uppercase());
            if !lower.exists() && upper.exists() { upper } else { lower }
        };
        BookPaths { ctg: sibling("ctg"), cto: sibling("cto"), ctb: sibling("ctb") }
    }
}

/// How [`Book::find`] found a record.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Lookup {
    /// Through the leaf bucket of the .ctb/.cto tree, as ChessBase places records.
    Exact,
    /// Only through the legacy walk of other readers: the tree does not lead to the record's
    /// page, so the index disagrees with the pages.
    Legacy,
    /// Through the keys indexed by walking the pages (no .cto/.ctb).
    PageWalk,
}

/// How records are found.
#[derive(Debug)]
enum Index {
    Tree(BucketTree),
    /// Built by walking every page, when the .cto or .ctb is missing: key → (page, offset).
    Scanned(HashMap<Vec<u8>, (u32, u64)>),
}

/// An open CTG book. Readers never modify the files; the .ctg is memory-mapped.
#[derive(Debug)]
pub struct Book {
    paths: BookPaths,
    ctg: FileBytes,
    header: Header,
    index: Index,
    warnings: Vec<Diagnostic>,
}

/// A data page.
#[derive(Debug, Clone, Copy)]
pub struct Page<'a> {
    /// The page number the .cto uses.
    pub number: u32,
    /// File offset of the page.
    pub offset: u64,
    /// Number of records the page header announces.
    pub declared_records: u16,
    /// Bytes used, the 4-byte page header included.
    pub used: u16,
    /// The page's bytes (fewer than 4096 in a truncated file).
    pub bytes: &'a [u8],
    path: &'a Path,
}

impl<'a> Page<'a> {
    /// The records up to the used bytes, in stored order. A record that does not fit gives an
    /// error naming its offset, and ends the iteration.
    pub fn records(&self) -> Records<'a> {
        self.records_from(4)
    }

    /// The records from a page offset on.
    fn records_from(&self, pos: usize) -> Records<'a> {
        Records { page: *self, pos, failed: false }
    }

    /// Whether bytes after the used part are non-zero (stale data ChessBase leaves behind).
    pub fn has_stale_tail(&self) -> bool {
        self.bytes.get(usize::from(self.used)..).is_some_and(|tail| tail.iter().any(|&b| b != 0))
    }

    fn error(&self, at: usize, expected: impl Into<String>) -> CtgError {
        let location = Location::at(self.offset + at as u64).in_file(self.path);
        CtgError::data(DataError::new(location, expected), Some(self.number))
    }
}

/// Iterator over the records of a page.
#[derive(Debug, Clone)]
pub struct Records<'a> {
    page: Page<'a>,
    pos: usize,
    failed: bool,
}

impl<'a> Iterator for Records<'a> {
    type Item = Result<Record<'a>, CtgError>;

    fn next(&mut self) -> Option<Self::Item> {
        let used = usize::from(self.page.used);
        if self.failed || self.pos >= used {
            return None;
        }
        let result = self.parse(used);
        self.failed = result.is_err();
        Some(result)
    }
}

impl<'a> Records<'a> {
    fn parse(&mut self, used: usize) -> Result<Record<'a>, CtgError> {
        let page = self.page;
        let start = self.pos;
        // Everything up to `used` must be there; a truncated page fails at the first missing byte.
        let avail = used.min(page.bytes.len());
        let bytes = page.bytes.get(..avail).unwrap_or_default();
        let header = bytes.get(start).copied().ok_or_else(|| page.error(start, "a record (page truncated)"))?;
        let klen = key_len(header);
        if klen < 2 || header & 0x80 != 0 {
            return Err(page.error(start, format!("a key header byte (length 2-31, bit 7 clear), found {header:#04x}")));
        }
        let key = bytes.get(start..start + klen).ok_or_else(|| page.error(start, "a key within the used bytes"))?;
        let mlen_at = start + klen;
        let mlen = usize::from(*bytes.get(mlen_at).ok_or_else(|| page.error(mlen_at, "a move-block length byte"))?);
        if mlen % 2 == 0 {
            return Err(page.error(mlen_at, format!("an odd move-block length (2 × moves + 1), found {mlen}")));
        }
        let moves_at = mlen_at + 1;
        let move_bytes = bytes
            .get(moves_at..mlen_at + mlen)
            .ok_or_else(|| page.error(moves_at, format!("{} move bytes within the used bytes", mlen - 1)))?;
        let stats_at = mlen_at + mlen;
        let stats: &[u8; STATS_LEN] = bytes
            .get(stats_at..stats_at + STATS_LEN)
            .and_then(|s| s.try_into().ok())
            .ok_or_else(|| page.error(stats_at, "33 bytes of statistics within the used bytes"))?;
        self.pos = stats_at + STATS_LEN;
        Ok(Record {
            page: page.number,
            offset: page.offset + start as u64,
            key,
            move_bytes,
            stats: Stats::parse(stats),
        })
    }
}

impl Book {
    /// Opens a book by any of its files or its stem. Without a .cto or .ctb the pages are
    /// walked once to index the keys, with a warning.
    pub fn open(path: &Path) -> Result<Book, CtgError> {
        let paths = BookPaths::new(path);
        let ctg = read_input(&paths.ctg).map_err(CtgError::from)?;
        // A missing index file means walking the pages; any other failure to read one is an error.
        let read_index = |path: &Path| match std::fs::read(path) {
            Ok(bytes) => Ok(Some(bytes)),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
            Err(source) => Err(CtgError::Io { path: path.to_path_buf(), source }),
        };
        let index_files = match (read_index(&paths.cto)?, read_index(&paths.ctb)?) {
            (Some(cto), Some(ctb)) => Some((cto, ctb)),
            _ => None,
        };
        let index = index_files.as_ref().map(|(cto, ctb)| (cto.as_slice(), ctb.as_slice()));
        Book::from_parts(paths, ctg, index)
    }

    /// A book from bytes in memory (tests, fuzzing); `paths` only name the files in messages.
    pub fn from_bytes(ctg: Vec<u8>, index: Option<(&[u8], &[u8])>) -> Result<Book, CtgError> {
        Book::from_parts(BookPaths::new(Path::new("book.ctg")), FileBytes::Owned(ctg), index)
    }

    fn from_parts(paths: BookPaths, ctg: FileBytes, index: Option<(&[u8], &[u8])>) -> Result<Book, CtgError> {
        let first = ctg.get(..PAGE_SIZE.min(ctg.len())).unwrap_or_default();
        let header = Header::parse(first, &paths.ctg)?;
        let mut warnings = Vec::new();
        let file_pages = (ctg.len() / PAGE_SIZE).saturating_sub(1) as u64;
        if !ctg.len().is_multiple_of(PAGE_SIZE) {
            warnings.warning(
                "ctg.truncated",
                Location::at(ctg.len() as u64).in_file(&paths.ctg),
                format!("file size is not a multiple of {PAGE_SIZE}: the last page is truncated"),
            );
        }
        if u64::from(header.data_pages) != file_pages {
            warnings.warning(
                "ctg.header_pages",
                Location::at(0x10).in_file(&paths.ctg),
                format!("header says {} data pages, the file holds {file_pages}", header.data_pages),
            );
        }
        let mut book = Book { paths, ctg, header, index: Index::Scanned(HashMap::new()), warnings };
        book.index = match index {
            Some((cto, ctb)) => Index::Tree(
                BucketTree::parse(cto, &book.paths.cto, ctb, &book.paths.ctb).map_err(|e| CtgError::data(e, None))?,
            ),
            None => {
                book.warnings.warning(
                    "ctg.no_index",
                    Location::default().in_file(&book.paths.cto),
                    "no .cto/.ctb index beside the book: walking every page to find positions",
                );
                Index::Scanned(book.scan()?)
            }
        };
        Ok(book)
    }

    fn scan(&self) -> Result<HashMap<Vec<u8>, (u32, u64)>, CtgError> {
        let mut keys = HashMap::new();
        for record in self.records() {
            let record = record?;
            keys.entry(record.key.to_vec()).or_insert((record.page, record.offset));
        }
        Ok(keys)
    }

    /// The files of the book.
    pub fn paths(&self) -> &BookPaths {
        &self.paths
    }

    /// The header page.
    pub fn header(&self) -> &Header {
        &self.header
    }

    /// Deviations met while opening (truncation, header disagreements, missing index).
    pub fn warnings(&self) -> &[Diagnostic] {
        &self.warnings
    }

    /// The bucket tree, `None` when the book was opened without .cto/.ctb.
    pub fn tree(&self) -> Option<&BucketTree> {
        match &self.index {
            Index::Tree(tree) => Some(tree),
            Index::Scanned(_) => None,
        }
    }

    /// Number of data pages the file holds (a truncated last page counts).
    pub fn page_count(&self) -> u32 {
        (self.ctg.len().saturating_sub(PAGE_SIZE).div_ceil(PAGE_SIZE)) as u32
    }

    /// Data page `number` (0-based, as the .cto counts).
    pub fn page(&self, number: u32) -> Result<Page<'_>, CtgError> {
        let offset = (u64::from(number) + 1) * PAGE_SIZE as u64;
        let start = usize::try_from(offset).unwrap_or(usize::MAX);
        let bytes = self.ctg.get(start..).map(|b| &b[..b.len().min(PAGE_SIZE)]).unwrap_or_default();
        let page_error = |at: u64, expected: String| {
            CtgError::data(DataError::new(Location::at(at).in_file(&self.paths.ctg), expected), Some(number))
        };
        if bytes.len() < 4 {
            return Err(page_error(offset, format!("data page {number} (the file holds {})", self.page_count())));
        }
        let declared_records = u16::from_be_bytes([bytes[0], bytes[1]]);
        let used = u16::from_be_bytes([bytes[2], bytes[3]]);
        if !(4..=PAGE_SIZE as u16).contains(&used) {
            return Err(page_error(offset + 2, format!("bytes used between 4 and 4096, found {used}")));
        }
        Ok(Page { number, offset, declared_records, used, bytes, path: &self.paths.ctg })
    }

    /// Every data page in file order.
    pub fn pages(&self) -> impl Iterator<Item = Result<Page<'_>, CtgError>> {
        (0..self.page_count()).map(|n| self.page(n))
    }

    /// Every record of every page in file order; an error ends the page it is in.
    pub fn records(&self) -> impl Iterator<Item = Result<Record<'_>, CtgError>> {
        self.pages().flat_map(|page| -> Box<dyn Iterator<Item = Result<Record<'_>, CtgError>>> {
            match page {
                Ok(page) => Box::new(page.records()),
                Err(e) => Box::new(std::iter::once(Err(e))),
            }
        })
    }

    /// The record with this key and how it was found: the exact bucket-tree look-up, then the
    /// legacy walk, or the page index when the book has no .cto/.ctb.
    pub fn find(&self, key: &Key) -> Result<Option<(Record<'_>, Lookup)>, CtgError> {
        match &self.index {
            Index::Tree(_) => Ok(match self.find_exact(key)? {
                Some(record) => Some((record, Lookup::Exact)),
                None => self.find_legacy(key)?.map(|record| (record, Lookup::Legacy)),
            }),
            Index::Scanned(keys) => match keys.get(key.as_bytes()) {
                Some(&(page, _)) => Ok(self.find_in_page(page, key.as_bytes())?.map(|r| (r, Lookup::PageWalk))),
                None => Ok(None),
            },
        }
    }

    /// Exact look-up: the leaf bucket of the hash and its page (ctg.md 6). `None` without a tree.
    pub fn find_exact(&self, key: &Key) -> Result<Option<Record<'_>>, CtgError> {
        let Some(tree) = self.tree() else { return Ok(None) };
        let leaf = tree.leaf(key.hash());
        match self.leaf_page(tree, leaf)? {
            Some(page) => self.find_in_page(page, key.as_bytes()),
            None => Ok(None),
        }
    }

    /// Legacy look-up (the seed, DroidFish, Steinar): every page along the walk from `lower`
    /// to `upper`. `None` without a tree.
    pub fn find_legacy(&self, key: &Key) -> Result<Option<Record<'_>>, CtgError> {
        let Some(tree) = self.tree() else { return Ok(None) };
        for (bucket, _) in tree.legacy_pages(key.hash()) {
            if let Some(page) = self.leaf_page(tree, bucket)?
                && let Some(record) = self.find_in_page(page, key.as_bytes())?
            {
                return Ok(Some(record));
            }
        }
        Ok(None)
    }

    /// The page a bucket's .cto entry names; `None` for −1; an error for a page the file lacks.
    fn leaf_page(&self, tree: &BucketTree, bucket: u64) -> Result<Option<u32>, CtgError> {
        let entry = tree.page_of(bucket);
        if entry < 0 {
            return Ok(None);
        }
        if entry as u32 >= self.page_count() {
            let at = 16 + 4 * bucket;
            let error = DataError::new(
                Location::at(at).in_file(&self.paths.cto),
                format!("the page of bucket {bucket}: a data page below {}", self.page_count()),
            )
            .found(entry.to_string());
            return Err(CtgError::data(error, None));
        }
        Ok(Some(entry as u32))
    }

    /// The record with these key bytes in one page. Records are skipped by their lengths; only
    /// the match is parsed in full, and a damaged record on the way gives the parser's error.
    pub fn find_in_page(&self, page: u32, key: &[u8]) -> Result<Option<Record<'_>>, CtgError> {
        let page = self.page(page)?;
        let used = usize::from(page.used).min(page.bytes.len());
        let mut pos = 4;
        while pos < used {
            let Some((klen, len)) = record_extent(page.bytes, pos, used) else {
                return match page.records_from(pos).next() {
                    Some(Err(e)) => Err(e),
                    _ => Ok(None),
                };
            };
            // The header byte (length and flags) rules out most records before the comparison.
            if page.bytes.get(pos) == key.first() && page.bytes.get(pos..pos + klen) == Some(key) {
                return page.records_from(pos).next().transpose();
            }
            pos += len;
        }
        Ok(None)
    }
}

/// (key length, record length) of the record at `pos`, when it is well-formed as far as its
/// lengths go and ends within `used`.
fn record_extent(bytes: &[u8], pos: usize, used: usize) -> Option<(usize, usize)> {
    let header = *bytes.get(pos)?;
    let klen = key_len(header);
    let mlen = usize::from(*bytes.get(pos + klen)?);
    let len = klen + mlen + STATS_LEN;
    (klen >= 2 && header & 0x80 == 0 && mlen % 2 == 1 && pos + len <= used).then_some((klen, len))
}
