//! Reading books: the `.kob` stream over its part files, blocks, `.kin`, `.ksf`, and the checks
//! of spec section 11. Lenient: what the document allows to skip is a warning
//! [`Diagnostic`]; only structure that cannot be followed stops reading.

use std::cmp::Ordering;
use std::path::{Path, PathBuf};

use tabiya_io::{ByteReader, DataError, Diagnostic, DiagnosticSink, FileBytes, Location, Unit, read_input};

use super::conventions::{BLOCK_SIZE, KeyOrder, ReadOptions, StringEndian};
use super::element::{Element, ElementNotes};
use super::error::KvetkaError;
use super::files::BookFiles;
use super::ksf::Sources;
use super::text::read_unicode;
use super::{Block, Book, Header, KEY_LEN, Key};

/// What became of the `.kin`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum KinState {
    /// No `.kin` beside the book.
    Absent,
    /// Present and equal to the first key of every block.
    Agrees,
    /// Present but disagreeing with the `.kob`; keys are taken from the `.kob`.
    Ignored,
}

/// The `.kob` stream of a book, memory-mapped part by part, read block by block on demand.
#[derive(Debug)]
pub struct BookReader {
    files: BookFiles,
    parts: Vec<(PathBuf, FileBytes)>,
    header: Header,
    header_size: usize,
    block_number: u32,
    /// Number of the first block of each part, plus the total at the end.
    part_starts: Vec<u32>,
    /// The `.kin` keys when the file exists and has `block_number` keys.
    kin: Option<Vec<Key>>,
    kin_present: bool,
    ksf: Option<FileBytes>,
    options: ReadOptions,
    problems: Vec<Diagnostic>,
}

/// The bytes of a book's files: the `.kob` parts in number order, the `.kin` and `.ksf` when
/// present. [`BookReader::open`] maps them from disk; tests and fuzzing build them in memory.
#[derive(Debug)]
pub struct BookBytes {
    /// Where the files are.
    pub files: BookFiles,
    /// The `.kob` parts with their paths, in number order.
    pub parts: Vec<(PathBuf, FileBytes)>,
    /// The `.kin`, when present.
    pub kin: Option<FileBytes>,
    /// The `.ksf`, when present.
    pub ksf: Option<FileBytes>,
}

impl BookBytes {
    /// Maps the files of the book named by `path` (any of its files or its stem).
    pub fn load(path: &Path) -> Result<BookBytes, KvetkaError> {
        let files = BookFiles::new(path);
        files.recover()?;
        let part_paths = files.existing_parts();
        if part_paths.is_empty() {
            return Err(KvetkaError::io(files.part(0), std::io::ErrorKind::NotFound.into()));
        }
        if let Some(extra) = files.part_after_gap() {
            return Err(DataError::new(
                Location::default().in_file(&extra),
                format!("part files numbered consecutively from 0 (part {} is missing)", part_paths.len()),
            )
            .into());
        }
        let parts = part_paths.into_iter().map(|p| read_input(&p).map(|b| (p, b))).collect::<Result<_, _>>()?;
        let optional = |path: PathBuf| if path.is_file() { read_input(&path).map(Some) } else { Ok(None) };
        let kin = optional(files.kin())?;
        let ksf = optional(files.ksf())?;
        Ok(BookBytes { files, parts, kin, ksf })
    }
}

impl BookReader {
    /// Opens the parts of the book named by `path` (any of its files or its stem) and reads
    /// the header and the `.kin`; blocks are read when asked for.
    pub fn open(path: &Path, options: ReadOptions) -> Result<BookReader, KvetkaError> {
        BookReader::from_bytes(BookBytes::load(path)?, options)
    }

    /// A reader over bytes already in memory.
    pub fn from_bytes(bytes: BookBytes, options: ReadOptions) -> Result<BookReader, KvetkaError> {
        let BookBytes { files, parts, kin: kin_bytes, ksf } = bytes;
        let mut problems = Vec::new();
        let Some((part0, bytes0)) = parts.first() else {
            return Err(KvetkaError::io(files.part(0), std::io::ErrorKind::NotFound.into()));
        };
        let total: u64 = parts.iter().map(|(_, b)| b.len() as u64).sum();
        let (header, header_size, block_number) =
            read_header(part0, bytes0, total, options.string_endian, &mut problems)?;

        let mut part_starts = vec![0u32];
        for (i, (path, bytes)) in parts.iter().enumerate() {
            let data_len = if i == 0 { bytes.len() - header_size } else { bytes.len() };
            if data_len % BLOCK_SIZE != 0 {
                let what = if i > 0 && looks_like_header(bytes, options.string_endian) {
                    "blocks only (found an unexpected header: only part 0 has one)".to_owned()
                } else {
                    format!("a whole number of {BLOCK_SIZE}-byte blocks")
                };
                return Err(DataError::new(Location::at(0).in_file(path), what)
                    .found(format!("{data_len} bytes of block data"))
                    .into());
            }
            let last = *part_starts.last().unwrap_or(&0);
            part_starts.push(last.saturating_add((data_len / BLOCK_SIZE) as u32));
        }
        let stored = *part_starts.last().unwrap_or(&0);
        if stored < block_number {
            let (path, bytes) = &parts[parts.len() - 1];
            return Err(DataError::new(
                Location::at(bytes.len() as u64).in_file(path),
                format!("{block_number} blocks (header block_number)"),
            )
            .found(format!("{stored} blocks in the part files"))
            .into());
        }
        if stored > block_number {
            problems.push(Diagnostic::warning(
                "kvetka.block_number",
                Location::default().in_file(part0),
                format!("the parts hold {stored} blocks, the header counts {block_number}; the rest is ignored"),
            ));
        }

        let kin_path = files.kin();
        let mut kin = None;
        let kin_present = kin_bytes.is_some();
        if let Some(bytes) = kin_bytes {
            if bytes.len() == KEY_LEN * block_number as usize {
                kin = Some(bytes.chunks_exact(KEY_LEN).map(|c| Key(c.try_into().unwrap_or([0; KEY_LEN]))).collect());
            } else {
                problems.push(Diagnostic::warning(
                    "kvetka.kin_size",
                    Location::at(0).in_file(&kin_path),
                    format!(
                        ".kin of {} bytes, expected {} ({} keys); ignored",
                        bytes.len(),
                        KEY_LEN * block_number as usize,
                        block_number
                    ),
                ));
            }
        }
        Ok(BookReader {
            files,
            parts,
            header,
            header_size,
            block_number,
            part_starts,
            kin,
            kin_present,
            ksf,
            options,
            problems,
        })
    }

    /// The `.kob` header.
    pub fn header(&self) -> &Header {
        &self.header
    }

    /// The book's files.
    pub fn files(&self) -> &BookFiles {
        &self.files
    }

    /// Number of blocks (the header's block_number).
    pub fn block_number(&self) -> u32 {
        self.block_number
    }

    /// The `.kob` parts, in number order.
    pub fn part_paths(&self) -> impl Iterator<Item = &Path> {
        self.parts.iter().map(|(p, _)| p.as_path())
    }

    /// What opening found (header deviations, `.kin` size).
    pub fn problems(&self) -> &[Diagnostic] {
        &self.problems
    }

    /// The bytes of block `index`, its part file and its offset there.
    fn block_bytes(&self, index: u32) -> Option<(&[u8], &Path, usize)> {
        if index >= self.block_number {
            return None;
        }
        let part = self.part_starts.partition_point(|&s| s <= index).checked_sub(1)?;
        let (path, bytes) = self.parts.get(part)?;
        let offset =
            if part == 0 { self.header_size } else { 0 } + BLOCK_SIZE * (index - self.part_starts[part]) as usize;
        Some((bytes.get(offset..offset + BLOCK_SIZE)?, path, offset))
    }

    /// Parses block `index`. Errors and warnings name the part file, the offset and the block.
    pub fn block(&self, index: u32, warnings: &mut Vec<Diagnostic>) -> Result<Block, KvetkaError> {
        self.block_with_notes(index, warnings, &mut ElementNotes::default())
    }

    fn block_with_notes(
        &self,
        index: u32,
        warnings: &mut Vec<Diagnostic>,
        notes: &mut ElementNotes,
    ) -> Result<Block, KvetkaError> {
        let (bytes, path, offset) = self.block_bytes(index).ok_or_else(|| {
            DataError::new(Location::record(index.into()), format!("a block number below {}", self.block_number))
        })?;
        let locate = |e: DataError| KvetkaError::Data(e.in_file(path).with_record(index.into()));
        let mut r = ByteReader::with_base(bytes, offset as u64);
        let used = r.u16_be("block size n").map_err(locate)? as usize;
        if !(2..=BLOCK_SIZE).contains(&used) {
            return Err(locate(
                DataError::new(Location::at(offset as u64), format!("block size n between 2 and {BLOCK_SIZE}"))
                    .found(used.to_string()),
            ));
        }
        let mut r = ByteReader::with_base(&bytes[2..used], offset as u64 + 2);
        let mut elements = Vec::new();
        let mut local = Vec::new();
        while !r.is_empty() {
            let element =
                Element::parse(&mut r, self.header.element_type, &self.options, &mut local, notes).map_err(locate)?;
            elements.push(element);
        }
        // Another writer may leave old bytes after n (what a block held before it was split):
        // kept, so that an unchanged block is written back as it was.
        let rest = &bytes[used..];
        let unused = if rest.iter().any(|&b| b != 0) { rest.to_vec() } else { Vec::new() };
        if self.options.strict && !unused.is_empty() {
            local.warning(
                "kvetka.block_tail",
                Location::at(offset as u64 + used as u64),
                format!("{} bytes after n are not zero (kept while the block is unchanged)", unused.len()),
            );
        }
        for mut w in local {
            w.location = w.location.in_file(path).with(Unit::Block, index.into());
            warnings.push(w);
        }
        Ok(Block { elements, unused })
    }

    /// The first key of block `index`, read from the `.kob`.
    fn first_key(&self, index: u32) -> Option<Key> {
        let (bytes, _, _) = self.block_bytes(index)?;
        let mut r = ByteReader::new(bytes.get(2..)?);
        r.compact_int("length").ok()?;
        Some(Key(r.array("key").ok()?))
    }

    /// Looks a position up: the block from the `.kin` (or a binary search over the blocks'
    /// first keys), then a scan of that block.
    pub fn find(&self, key: &Key) -> Result<Option<Element>, KvetkaError> {
        let from_kin = self.kin.as_ref().map(|kin| kin.partition_point(|k| k <= key));
        let after = match from_kin {
            // Trust the .kin only when the block it points at (block 0 when the key sorts
            // before all) really starts with the key the .kin gives.
            Some(after)
                if self.first_key(after.saturating_sub(1) as u32)
                    == self.kin.as_ref().and_then(|k| k.get(after.saturating_sub(1)).copied()) =>
            {
                after
            }
            _ => {
                let (mut lo, mut hi) = (0u32, self.block_number);
                while lo < hi {
                    let mid = lo + (hi - lo) / 2;
                    if self.first_key(mid).is_some_and(|k| k <= *key) { lo = mid + 1 } else { hi = mid }
                }
                lo as usize
            }
        };
        let Some(index) = after.checked_sub(1) else { return Ok(None) };
        self.find_in_block(index as u32, key)
    }

    /// Scans block `index` by element lengths and keys, parsing only the element with `key`.
    /// A block the scan cannot follow is parsed in full for its error.
    fn find_in_block(&self, index: u32, key: &Key) -> Result<Option<Element>, KvetkaError> {
        let Some((bytes, path, offset)) = self.block_bytes(index) else { return Ok(None) };
        let used = usize::from(u16::from_be_bytes([bytes[0], bytes[1]]));
        let Some(elements) = bytes.get(2..used) else {
            return self.block(index, &mut Vec::new()).map(|_| None);
        };
        let mut r = ByteReader::with_base(elements, offset as u64 + 2);
        while !r.is_empty() {
            let start = r.position();
            let scanned = r.compact_int("element length").ok().and_then(|len| {
                let body = r.bytes(len as usize, "element").ok()?;
                Some(body.get(..KEY_LEN)? == key.0)
            });
            match scanned {
                Some(false) => continue,
                Some(true) => {
                    let mut at = ByteReader::with_base(&elements[start..], offset as u64 + 2 + start as u64);
                    let element = Element::parse(
                        &mut at,
                        self.header.element_type,
                        &self.options,
                        &mut Vec::new(),
                        &mut ElementNotes::default(),
                    )
                    .map_err(|e| KvetkaError::Data(e.in_file(path).with_record(index.into())))?;
                    return Ok(Some(element));
                }
                None => return self.block(index, &mut Vec::new()).map(|_| None),
            }
        }
        Ok(None)
    }

    /// Reads the `.ksf`, if the book has one.
    pub fn sources(&self, warnings: &mut Vec<Diagnostic>) -> Result<Option<Sources>, KvetkaError> {
        let path = self.files.ksf();
        let Some(bytes) = &self.ksf else { return Ok(None) };
        let mut local = Vec::new();
        let sources = Sources::parse(bytes, self.options.string_endian, &mut local).map_err(|e| e.in_file(&path))?;
        warnings.extend(local.into_iter().map(|w| w.in_file(&path)));
        Ok(Some(sources))
    }
}

/// Reads the header of part 0; `total` is the size of all parts together.
fn read_header(
    path: &Path,
    data: &[u8],
    total: u64,
    endian: StringEndian,
    problems: &mut Vec<Diagnostic>,
) -> Result<(Header, usize, u32), KvetkaError> {
    let type_byte = ByteReader::new(data).u8("book type").map_err(|e| e.in_file(path))?;
    if type_byte != 0x01 {
        return Err(KvetkaError::UnsupportedType { path: path.to_path_buf(), found: type_byte });
    }
    let units = parse_header(data, endian, false).map_err(|e| e.in_file(path))?;
    let fits =
        |(_, size, blocks): &(Header, usize, u32)| *size as u64 + BLOCK_SIZE as u64 * u64::from(*blocks) <= total;
    if !fits(&units)
        && let Ok(bytes) = parse_header(data, endian, true)
        && fits(&bytes)
    {
        problems.push(Diagnostic::warning(
            "kvetka.caption_length",
            Location::at(1).in_file(path),
            "caption length read as a byte count (the document counts UTF-16 code units)",
        ));
        return Ok(bytes);
    }
    Ok(units)
}

/// The header fields, its size and block_number. `caption_in_bytes`: the alternative reading
/// of the caption length.
fn parse_header(data: &[u8], endian: StringEndian, caption_in_bytes: bool) -> Result<(Header, usize, u32), DataError> {
    let mut r = ByteReader::new(data);
    r.u8("book type")?;
    let caption = if caption_in_bytes {
        let len = r.u32_be("caption length")? as usize;
        let bytes = r.bytes(len, "caption")?;
        let units: Vec<u16> = bytes.chunks_exact(2).map(|c| u16::from_be_bytes([c[0], c[1]])).collect();
        String::from_utf16_lossy(&units)
    } else {
        read_unicode(&mut r, "caption", endian)?.0
    };
    let header = Header {
        caption,
        min_white_elo: r.u16_be("least_white_ELO")?,
        min_black_elo: r.u16_be("least_black_ELO")?,
        min_strong_elo: r.u16_be("least_strong_ELO")?,
        min_weak_elo: r.u16_be("least_weak_ELO")?,
        max_move: r.u8("max_move")?,
        element_type: r.u8("element_type")?,
        links: r.u8("links")?,
    };
    let blocks = r.u32_be("block_number")?;
    Ok((header, r.position(), blocks))
}

/// Whether a later part starts like part 0 (type 0x01 and a readable caption).
fn looks_like_header(data: &[u8], endian: StringEndian) -> bool {
    data.first() == Some(&0x01) && parse_header(data, endian, false).is_ok_and(|(h, _, _)| h.caption.len() < 1024)
}

/// A book read whole, with everything the checks of spec 11 found.
#[derive(Debug)]
pub struct Opened {
    /// The whole book.
    pub book: Book,
    /// Where its files are.
    pub files: BookFiles,
    /// Its `.kob` parts.
    pub parts: Vec<PathBuf>,
    /// What became of the `.kin`.
    pub kin: KinState,
    /// The order the keys follow; `None` when they follow neither.
    pub key_order: Option<KeyOrder>,
    /// What reading found, in the order found.
    pub problems: Vec<Diagnostic>,
}

impl Opened {
    /// The problems that are errors.
    pub fn errors(&self) -> impl Iterator<Item = &Diagnostic> {
        self.problems.iter().filter(|p| p.is_error())
    }
}

/// Reads a whole book (all blocks, `.kin`, `.ksf`) and checks it.
pub fn open(path: &Path, options: ReadOptions) -> Result<Opened, KvetkaError> {
    read_whole(BookReader::open(path, options)?)
}

/// Reads every block of an opened book and checks it.
pub fn read_whole(reader: BookReader) -> Result<Opened, KvetkaError> {
    let mut problems = reader.problems.clone();
    let mut warnings = Vec::new();
    let mut notes = ElementNotes::default();
    let blocks: Vec<Block> = (0..reader.block_number)
        .map(|i| reader.block_with_notes(i, &mut warnings, &mut notes))
        .collect::<Result<_, _>>()?;
    if notes.little_endian_comment {
        let location = Location::default().in_file(&reader.parts[0].0);
        warnings.warning(
            "kvetka.comment_utf16le",
            location,
            "comments read as UTF-16LE (the document's reading is UTF-16BE)",
        );
    }
    let sources = match reader.sources(&mut warnings) {
        Ok(s) => s,
        Err(e) => {
            problems.push(Diagnostic::error("kvetka.ksf", Location::default(), format!("{e}; sources ignored")));
            None
        }
    };
    problems.extend(warnings);

    let block_location = |i: usize| {
        let (_, path, offset) = reader.block_bytes(i as u32).unwrap_or((&[], Path::new(""), 0));
        Location::at(offset as u64).in_file(path).with(Unit::Block, i as u64)
    };
    let key_order = check_order(&blocks, &block_location, &mut problems);
    let kin = match (&reader.kin, reader.kin_present) {
        (_, false) => KinState::Absent,
        (None, true) => KinState::Ignored,
        (Some(kin), true) => {
            let mismatch = blocks.iter().zip(kin).position(|(b, k)| b.elements.first().is_some_and(|e| e.key != *k));
            match mismatch {
                None => KinState::Agrees,
                Some(i) => {
                    problems.push(Diagnostic::warning(
                        "kvetka.kin",
                        Location::at((KEY_LEN * i) as u64).in_file(&reader.files.kin()).with_record(i as u64),
                        format!("key {i} differs from the first key of block {i}; the .kin is ignored"),
                    ));
                    KinState::Ignored
                }
            }
        }
    };
    let book = Book { header: reader.header.clone(), blocks, sources };
    if let Some(sources) = &book.sources {
        check_references(&book, sources, &block_location, &mut problems);
    }
    Ok(Opened {
        parts: reader.part_paths().map(Path::to_path_buf).collect(),
        files: reader.files,
        book,
        kin,
        key_order,
        problems,
    })
}

/// Strictly increasing keys inside and across blocks (spec 11.5). When memcmp order fails but
/// signed-byte order holds, one warning; otherwise every violation is an error.
fn check_order(
    blocks: &[Block],
    location: &dyn Fn(usize) -> Location,
    problems: &mut Vec<Diagnostic>,
) -> Option<KeyOrder> {
    let keyed = || blocks.iter().enumerate().flat_map(|(b, block)| block.elements.iter().map(move |e| (b, e.key)));
    let violations = |order: KeyOrder| {
        keyed().zip(keyed().skip(1)).filter(move |((_, a), (_, b))| order.compare(&a.0, &b.0) != Ordering::Less)
    };
    if violations(KeyOrder::Unsigned).next().is_none() {
        return Some(KeyOrder::Unsigned);
    }
    if violations(KeyOrder::Signed).next().is_none() {
        problems.push(Diagnostic::warning(
            "kvetka.key_order",
            location(0),
            "keys are sorted as signed bytes, not memcmp; look-ups use that order",
        ));
        return Some(KeyOrder::Signed);
    }
    for ((_, a), (block, b)) in violations(KeyOrder::Unsigned) {
        let what = if a == b { "duplicate key" } else { "key out of order" };
        problems.push(Diagnostic::error("kvetka.key_order", location(block), format!("{what} {}", b.to_hex())));
    }
    None
}

/// Game references must point to existing sources and games (spec 11.8).
fn check_references(
    book: &Book,
    sources: &Sources,
    location: &dyn Fn(usize) -> Location,
    problems: &mut Vec<Diagnostic>,
) {
    for (b, block) in book.blocks.iter().enumerate() {
        for e in &block.elements {
            for r in e.some_source.iter().chain(e.links()) {
                if sources.game(*r).is_none() {
                    problems.push(Diagnostic::error(
                        "kvetka.reference",
                        location(b),
                        format!(
                            "position {} refers to game {} of source {}, which the .ksf does not have",
                            e.key.to_hex(),
                            r.game,
                            r.source
                        ),
                    ));
                }
            }
        }
    }
}

impl Book {
    /// Reads a whole book; see [`open`] for the checks.
    pub fn read(path: &Path) -> Result<Book, KvetkaError> {
        Ok(open(path, ReadOptions::default())?.book)
    }
}
