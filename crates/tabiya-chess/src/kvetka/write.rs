//! Writing books: greedy block filling for new books, the document's split-in-halves rule when
//! elements are added to an existing one, parts of at most 20 MiB, and the files written
//! atomically in the order ksf → kob parts → kin, so the index comes last.

use std::io::{Seek, SeekFrom, Write};
use std::path::Path;

use tabiya_io::varint::decode_compact_int;
use tabiya_io::{AtomicFile, Transaction};

use super::conventions::{BLOCK_PAYLOAD, BLOCK_SIZE, MAX_COMMENT_CHARS, MAX_ELEMENT_SIZE, MAX_PART_SIZE};
use super::element::Element;
use super::error::KvetkaError;
use super::files::BookFiles;
use super::ksf::Sources;
use super::text::{unicode_units, write_unicode};
use super::{Block, Book, Header, KEY_LEN, Key};

/// The writer's choices.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct WriteOptions {
    /// Write the `.kin` (the default); without it an old `.kin` of the same name is removed.
    pub kin: bool,
}

impl Default for WriteOptions {
    fn default() -> WriteOptions {
        WriteOptions { kin: true }
    }
}

impl Header {
    /// The header's bytes for a book of `block_number` blocks.
    pub fn to_bytes(&self, block_number: u32) -> Vec<u8> {
        let mut out = vec![0x01];
        write_unicode(&mut out, &self.caption);
        for elo in [self.min_white_elo, self.min_black_elo, self.min_strong_elo, self.min_weak_elo] {
            out.extend_from_slice(&elo.to_be_bytes());
        }
        out.extend_from_slice(&[self.max_move, self.element_type, self.links]);
        out.extend_from_slice(&block_number.to_be_bytes());
        out
    }
}

impl Book {
    /// A book whose elements (sorted here by key) fill blocks greedily, each block taking as
    /// many whole elements as fit (spec 10.8).
    pub fn from_elements(header: Header, mut elements: Vec<Element>) -> Result<Book, KvetkaError> {
        elements.sort_unstable_by_key(|e| e.key);
        if let Some(pair) = elements.windows(2).find(|w| w[0].key == w[1].key) {
            return Err(KvetkaError::unrepresentable(format!("two elements with the key {}", pair[0].key.to_hex())));
        }
        let mut starts = Vec::new();
        let mut used = BLOCK_PAYLOAD;
        for (i, element) in elements.iter().enumerate() {
            let size = check_element(element, header.element_type)?;
            if used + size > BLOCK_PAYLOAD {
                starts.push(i);
                used = 0;
            }
            used += size;
        }
        // Blocks are cut from the end and the list shrunk each time, so the elements are not
        // held twice (a book of millions of positions).
        let mut blocks = Vec::with_capacity(starts.len());
        for &start in starts.iter().rev() {
            blocks.push(Block { elements: elements.split_off(start), unused: Vec::new() });
            elements.shrink_to_fit();
        }
        blocks.reverse();
        Ok(Book { header, blocks, sources: None })
    }

    /// Adds `element` where its key belongs; an element with the same key is updated by
    /// `merge(existing, new)` instead. A block that overflows is split into two consecutive
    /// blocks holding about the same number of bytes (the seed's rule), so the book stays
    /// sorted and earlier blocks keep their place.
    pub fn insert(&mut self, element: Element, merge: &mut dyn FnMut(&mut Element, Element)) {
        if self.blocks.is_empty() {
            self.blocks.push(Block::default());
        }
        let after = self.blocks.partition_point(|b| b.elements.first().is_some_and(|e| e.key <= element.key));
        let index = after.saturating_sub(1);
        // The block changes: another writer's leftovers after n mean nothing any more.
        self.blocks[index].unused.clear();
        let elements = &mut self.blocks[index].elements;
        match elements.binary_search_by(|e| e.key.cmp(&element.key)) {
            Ok(i) => merge(&mut elements[i], element),
            Err(i) => elements.insert(i, element),
        }
        self.split_if_full(index);
    }

    /// Splits every block that no longer fits (elements grew), keeping the order.
    pub(crate) fn split_full_blocks(&mut self) {
        let mut index = 0;
        while index < self.blocks.len() {
            self.split_if_full(index);
            let used: usize =
                self.blocks[index].elements.iter().map(|e| e.encoded_size(self.header.element_type)).sum();
            if used <= BLOCK_PAYLOAD || self.blocks[index].elements.len() < 2 {
                index += 1;
            }
        }
    }

    fn split_if_full(&mut self, index: usize) {
        let element_type = self.header.element_type;
        let sizes: Vec<usize> = self.blocks[index].elements.iter().map(|e| e.encoded_size(element_type)).collect();
        let total: usize = sizes.iter().sum();
        if total <= BLOCK_PAYLOAD || sizes.len() < 2 {
            return;
        }
        // The cut whose first half is closest to half the bytes, keeping both halves non-empty.
        let mut best = (usize::MAX, 1);
        let mut before = 0;
        for (cut, size) in sizes.iter().enumerate().take(sizes.len() - 1) {
            before += size;
            best = best.min(((2 * before).abs_diff(total), cut + 1));
        }
        let second = self.blocks[index].elements.split_off(best.1);
        self.blocks.insert(index + 1, Block { elements: second, unused: Vec::new() });
    }

    /// Writes `stem_N.kob` parts, `stem.ksf` (when the book has sources) and `stem.kin`.
    /// `path` is the stem or any file name of the book. Waits while another writer holds it.
    pub fn write(&self, path: &Path, options: &WriteOptions) -> Result<(), KvetkaError> {
        self.write_in(BookFiles::new(path).begin()?, options)
    }

    /// Writes the book as [`Book::write`] does, under `transaction`, begun by
    /// [`BookFiles::begin`] before the old book was read (an append).
    pub fn write_in(&self, transaction: Transaction, options: &WriteOptions) -> Result<(), KvetkaError> {
        // Every block is checked before any file is touched, so a refused element leaves the
        // old book in place.
        for block in &self.blocks {
            self.check_block(block)?;
        }
        let mut parts = PartWriter::create(transaction, &self.header)?;
        let mut bytes = Vec::with_capacity(BLOCK_SIZE);
        for block in &self.blocks {
            bytes.clear();
            self.encode_block(block, &mut bytes);
            // An empty block (n = 2, only ever read from another writer) has no first key:
            // zeros keep the .kin at one key per block.
            parts.push(block.elements.first().map_or([0; KEY_LEN], |e| e.key.0), &bytes)?;
        }
        parts.commit(self.sources.as_ref(), options)
    }

    /// Bytes the block's elements take, or why the writer refuses it.
    fn check_block(&self, block: &Block) -> Result<usize, KvetkaError> {
        let mut used = 0;
        for element in &block.elements {
            used += check_element(element, self.header.element_type)?;
        }
        if used > BLOCK_PAYLOAD {
            return Err(KvetkaError::unrepresentable(format!(
                "a block of {} bytes (at most {BLOCK_SIZE}) starting with key {}",
                used + 2,
                block.elements.first().map(|e| e.key.to_hex()).unwrap_or_default()
            )));
        }
        Ok(used)
    }

    /// Appends the 2048 bytes of a checked block: n, the elements, zeros.
    fn encode_block(&self, block: &Block, out: &mut Vec<u8>) {
        let start = out.len();
        out.extend_from_slice(&[0, 0]);
        for element in &block.elements {
            element.encode(self.header.element_type, out);
        }
        let used = out.len() - start;
        out[start..start + 2].copy_from_slice(&(used as u16).to_be_bytes());
        if used + block.unused.len() == BLOCK_SIZE {
            out.extend_from_slice(&block.unused);
        }
        out.resize(start + BLOCK_SIZE, 0);
    }
}

/// A book's `.kob` parts written block after block, in key order, to temporary files: the
/// old book stays in place until [`PartWriter::commit`] puts the `.ksf`, the parts and the
/// `.kin` in place as one [`Transaction`] (removing the parts of a larger old book in it). Each
/// part is synced as it grows ([`AtomicFile`] does it), so the commit has little left to wait
/// for.
pub(crate) struct PartWriter {
    files: BookFiles,
    transaction: Transaction,
    header: Header,
    header_size: usize,
    /// The parts finished and the one being filled.
    parts: Vec<AtomicFile>,
    /// Blocks of the last part not yet handed to it: written many at once, they go to the
    /// file without another copy.
    pending: Vec<u8>,
    blocks_in_part: usize,
    first_keys: Vec<[u8; KEY_LEN]>,
}

impl PartWriter {
    /// Bytes of blocks written at once.
    const PENDING: usize = 32 * BLOCK_SIZE;

    /// Starts the book of `transaction`'s stem.
    pub fn create(transaction: Transaction, header: &Header) -> Result<PartWriter, KvetkaError> {
        let header_size = header.to_bytes(0).len();
        let (files, header) = (BookFiles::new(transaction.stem()), header.clone());
        let mut writer = PartWriter {
            files,
            transaction,
            header,
            header_size,
            parts: Vec::new(),
            pending: Vec::with_capacity(Self::PENDING),
            blocks_in_part: 0,
            first_keys: Vec::new(),
        };
        writer.start_part()?;
        Ok(writer)
    }

    /// Opens the next part; part 0 starts with the header, whose block count
    /// [`PartWriter::commit`] fills in.
    fn start_part(&mut self) -> Result<(), KvetkaError> {
        self.write_pending()?;
        let path = self.files.part(self.parts.len());
        let mut file = AtomicFile::create(&path).map_err(|e| KvetkaError::io(&path, e))?;
        if self.parts.is_empty() {
            file.write_all(&self.header.to_bytes(0)).map_err(|e| KvetkaError::io(&path, e))?;
        }
        self.parts.push(file);
        self.blocks_in_part = 0;
        Ok(())
    }

    /// Appends the 2048 bytes of a block whose first key is `first_key`.
    pub fn push(&mut self, first_key: [u8; KEY_LEN], block: &[u8]) -> Result<(), KvetkaError> {
        let capacity = part_capacity(self.header_size, self.parts.len() - 1);
        if self.blocks_in_part == capacity {
            self.start_part()?;
        }
        self.pending.extend_from_slice(block);
        if self.pending.len() >= Self::PENDING {
            self.write_pending()?;
        }
        self.blocks_in_part += 1;
        self.first_keys.push(first_key);
        Ok(())
    }

    /// Hands the pending blocks to the last part.
    fn write_pending(&mut self) -> Result<(), KvetkaError> {
        let Some(number) = self.parts.len().checked_sub(1) else { return Ok(()) };
        self.parts[number].write_all(&self.pending).map_err(|e| KvetkaError::io(self.files.part(number), e))?;
        self.pending.clear();
        Ok(())
    }

    /// Blocks written so far.
    pub fn blocks(&self) -> usize {
        self.first_keys.len()
    }

    /// Puts the book in place as one commit, renaming in the order ksf → kob parts → kin (the
    /// index last), and removing the parts of an old book beyond the new one's and a `.ksf` or
    /// `.kin` the new book does not have.
    pub fn commit(mut self, sources: Option<&Sources>, options: &WriteOptions) -> Result<(), KvetkaError> {
        self.write_pending()?;
        let header = self.header.to_bytes(self.first_keys.len() as u32);
        let first = &mut self.parts[0];
        first
            .seek(SeekFrom::Start(0))
            .and_then(|_| first.write_all(&header))
            .map_err(|e| KvetkaError::io(self.files.part(0), e))?;
        let files = &self.files;
        let mut committed = Vec::with_capacity(self.parts.len() + 2);
        match sources {
            Some(sources) => committed.push(new_file(&files.ksf(), &sources.to_bytes())?),
            None => self.transaction.remove(files.ksf()),
        }
        // Parts left over from a larger book of the same name would be read as ours.
        for stale in files.parts_from(self.parts.len()) {
            self.transaction.remove(stale);
        }
        committed.append(&mut self.parts);
        if options.kin {
            committed.push(new_file(&files.kin(), self.first_keys.as_flattened())?);
        } else {
            self.transaction.remove(files.kin());
        }
        self.transaction.commit(committed).map_err(|e| KvetkaError::io(files.kin(), e))
    }
}

/// Blocks greedily filled as elements come in key order (the packing of
/// [`Book::from_elements`]) and written as each fills: a builder writes a book of millions of
/// positions without holding its elements.
pub(crate) struct BlockPacker {
    parts: PartWriter,
    /// The block being filled: n, then whole elements.
    block: Vec<u8>,
    first_key: [u8; KEY_LEN],
    last_key: Option<[u8; KEY_LEN]>,
}

/// Elements encoded one after the other (each starts with its length), each checked as
/// [`Book::write`] would, to be packed by [`BlockPacker::push_all`].
#[derive(Debug, Default)]
pub(crate) struct EncodedElements {
    bytes: Vec<u8>,
    /// The size of each element.
    sizes: Vec<u16>,
    first_key: Option<Key>,
    last_key: Option<Key>,
}

impl EncodedElements {
    /// Adds the next element (its key above the last one's), or refuses it as [`Book::write`]
    /// would.
    pub fn push(&mut self, element: &Element, element_type: u8) -> Result<(), KvetkaError> {
        if self.last_key.is_some_and(|last| element.key <= last) {
            return Err(out_of_order(element.key));
        }
        check_comment(element)?;
        let start = self.bytes.len();
        element.encode(element_type, &mut self.bytes);
        let size = self.bytes.len() - start;
        if size > MAX_ELEMENT_SIZE {
            self.bytes.truncate(start);
            return Err(too_large(element, size));
        }
        self.sizes.push(size as u16);
        self.first_key.get_or_insert(element.key);
        self.last_key = Some(element.key);
        Ok(())
    }

    /// Empties the elements, keeping the memory they took for the next ones.
    pub fn clear(&mut self) {
        self.bytes.clear();
        self.sizes.clear();
        (self.first_key, self.last_key) = (None, None);
    }

    /// The key of the element whose bytes start at `start`.
    fn key_at(&self, start: usize) -> [u8; KEY_LEN] {
        let (_, length_bytes) = decode_compact_int(&self.bytes[start..]).expect("an element written by push");
        let key_start = start + length_bytes;
        let mut key = [0; KEY_LEN];
        key.copy_from_slice(&self.bytes[key_start..key_start + KEY_LEN]);
        key
    }
}

fn out_of_order(key: Key) -> KvetkaError {
    KvetkaError::unrepresentable(format!("key {} out of order", key.to_hex()))
}

impl BlockPacker {
    /// Packs the blocks of the book at `path` (see [`Book::write`]).
    pub fn create(transaction: Transaction, header: &Header) -> Result<BlockPacker, KvetkaError> {
        let parts = PartWriter::create(transaction, header)?;
        Ok(BlockPacker { parts, block: Vec::with_capacity(BLOCK_SIZE), first_key: [0; KEY_LEN], last_key: None })
    }

    /// Adds the next elements (keys ascending, after those added so far) to blocks.
    pub fn push_all(&mut self, elements: &EncodedElements) -> Result<(), KvetkaError> {
        if let (Some(last), Some(first)) = (self.last_key, elements.first_key)
            && first.0 <= last
        {
            return Err(out_of_order(first));
        }
        self.last_key = elements.last_key.map(|key| key.0).or(self.last_key);
        // The elements of a block are copied at once: `start..end` are those that go to the
        // block being filled and are not in it yet.
        let (mut start, mut end) = (0, 0);
        for &size in &elements.sizes {
            let size = usize::from(size);
            if self.block.len() + (end - start) + size > BLOCK_SIZE {
                self.block.extend_from_slice(&elements.bytes[start..end]);
                start = end;
                self.write_block()?;
            }
            if self.block.is_empty() {
                self.block.extend_from_slice(&[0, 0]);
                self.first_key = elements.key_at(start);
            }
            end += size;
        }
        self.block.extend_from_slice(&elements.bytes[start..end]);
        Ok(())
    }

    /// Writes the block being filled, if any: n, the elements, zeros.
    fn write_block(&mut self) -> Result<(), KvetkaError> {
        if self.block.is_empty() {
            return Ok(());
        }
        let used = self.block.len() as u16;
        self.block[..2].copy_from_slice(&used.to_be_bytes());
        self.block.resize(BLOCK_SIZE, 0);
        self.parts.push(self.first_key, &self.block)?;
        self.block.clear();
        Ok(())
    }

    /// Blocks begun so far.
    pub fn len(&self) -> usize {
        self.parts.blocks() + usize::from(!self.block.is_empty())
    }

    /// Writes the last block and puts the book in place (see [`Book::write`]).
    pub fn commit(mut self, sources: Option<&Sources>, options: &WriteOptions) -> Result<(), KvetkaError> {
        self.write_block()?;
        self.parts.commit(sources, options)
    }
}

/// How many blocks part `number` holds at most (spec 10.8): part 0 holds the header and as
/// many whole blocks as fit in 20 MiB (at least one), every later part up to 10,240 blocks.
fn part_capacity(header_size: usize, number: usize) -> usize {
    match number {
        0 => ((MAX_PART_SIZE as usize).saturating_sub(header_size) / BLOCK_SIZE).max(1),
        _ => MAX_PART_SIZE as usize / BLOCK_SIZE,
    }
}

/// The element's size, or why the writer refuses it (over 682 bytes, comment over 300 characters).
fn check_element(element: &Element, element_type: u8) -> Result<usize, KvetkaError> {
    check_comment(element)?;
    let size = element.encoded_size(element_type);
    if size > MAX_ELEMENT_SIZE {
        return Err(too_large(element, size));
    }
    Ok(size)
}

// Inlined into the writers' loops, where most elements have no comment; the error is made
// out of line.
#[inline(always)]
fn check_comment(element: &Element) -> Result<(), KvetkaError> {
    match &element.comment {
        Some(comment) if unicode_units(comment) > MAX_COMMENT_CHARS => Err(comment_too_long(element, comment)),
        _ => Ok(()),
    }
}

#[cold]
fn comment_too_long(element: &Element, comment: &str) -> KvetkaError {
    KvetkaError::unrepresentable(format!(
        "position {}: comment of {} characters (at most {MAX_COMMENT_CHARS})",
        element.key.to_hex(),
        unicode_units(comment)
    ))
}

fn too_large(element: &Element, size: usize) -> KvetkaError {
    KvetkaError::unrepresentable(format!(
        "position {}: element of {size} bytes (at most {MAX_ELEMENT_SIZE})",
        element.key.to_hex()
    ))
}

/// A new file of the book holding `bytes`, to be committed.
fn new_file(path: &Path, bytes: &[u8]) -> Result<AtomicFile, KvetkaError> {
    AtomicFile::with_bytes(path, bytes).map_err(|e| KvetkaError::io(path, e))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parts_follow_spec_14_4() {
        // Header of caption "Test": 28 bytes.
        assert_eq!((part_capacity(28, 0), part_capacity(28, 1), part_capacity(28, 7)), (10_239, 10_240, 10_240));
        assert_eq!(28 + 10_239 * BLOCK_SIZE, 20_969_500);
        // A header longer than a part still leaves room for one block.
        assert_eq!(part_capacity(21 << 20, 0), 1);
    }

    /// A book of 10,500 blocks: part 0 holds the header and 10,239 blocks (20,969,500 bytes with
    /// the caption "Test", spec 14.4), part 1 the other 261 blocks; a stale part 2 of a larger
    /// book goes. The book reads back whole, and the builder's packer writes the same bytes.
    #[test]
    fn a_book_over_20_mib_is_cut_into_parts_at_block_boundaries() {
        let header = Header { caption: "Test".into(), ..Header::default() };
        // Elements of 629 bytes (600 bytes of future data): three to a block.
        let elements: Vec<Element> = (0..3 * 10_500u32)
            .map(|i| {
                let mut key = [0; KEY_LEN];
                key[..4].copy_from_slice(&i.to_be_bytes());
                let mut e = Element::new(Key(key));
                e.flags = 0x08;
                e.extra = vec![0x5a; 600];
                e
            })
            .collect();
        let dir = tempfile::tempdir().unwrap();
        let file = |name: &str| dir.path().join(name);
        std::fs::write(file("whole_2.kob"), b"a part of an older, larger book").unwrap();
        let book = Book::from_elements(header.clone(), elements.clone()).unwrap();
        assert_eq!(book.blocks.len(), 10_500);
        book.write(&file("whole.kob"), &WriteOptions::default()).unwrap();
        let read = |name: &str| std::fs::read(file(name)).unwrap();
        let (first, second, kin) = (read("whole_0.kob"), read("whole_1.kob"), read("whole.kin"));
        assert_eq!((first.len(), second.len(), kin.len()), (20_969_500, 261 * BLOCK_SIZE, 10_500 * KEY_LEN));
        assert_eq!(first[24..28], 10_500u32.to_be_bytes(), "the header's block_number");
        assert!(!file("whole_2.kob").exists());
        let opened = super::super::read::open(&file("whole.kob"), Default::default()).unwrap();
        assert_eq!(opened.errors().count(), 0);
        assert_eq!(opened.book.blocks.iter().map(|b| b.elements.len()).sum::<usize>(), elements.len());
        assert_eq!(opened.book.blocks[10_239].elements[0].key, elements[3 * 10_239].key);

        let pack = |name: &str| {
            let mut packer = BlockPacker::create(BookFiles::new(&file(name)).begin().unwrap(), &header).unwrap();
            let mut encoded = EncodedElements::default();
            elements.iter().for_each(|e| encoded.push(e, 0).unwrap());
            packer.push_all(&encoded).unwrap();
            packer.commit(None, &WriteOptions::default()).unwrap();
        };
        pack("packed.kob");
        assert!(read("packed_0.kob") == first && read("packed_1.kob") == second && read("packed.kin") == kin);

        // Packed over the book written above and a stale part 2 of an older, larger book: the
        // same bytes, and the stale part goes.
        std::fs::write(file("whole_2.kob"), b"a part of an older, larger book").unwrap();
        pack("whole.kob");
        assert!(read("whole_0.kob") == first && read("whole_1.kob") == second && read("whole.kin") == kin);
        assert!(!file("whole_2.kob").exists());
    }

    #[test]
    fn packed_parts_write_the_bytes_of_the_whole_book() {
        // Elements of 29 to 628 bytes, so that blocks hold 3 to 70 of them.
        let mut random = tabiya_testdata::Xorshift::new(0x9ac4);
        let elements: Vec<Element> = (0..400u16)
            .map(|i| {
                let mut key = [0; KEY_LEN];
                key[..2].copy_from_slice(&i.to_be_bytes());
                let mut e = Element::new(Key(key));
                e.flags = 0x08;
                e.extra = vec![0x5a; random.below(600)];
                e
            })
            .collect();
        let dir = tempfile::tempdir().unwrap();
        let read = |name: &str| {
            let mut files: Vec<_> = std::fs::read_dir(dir.path()).unwrap().map(|f| f.unwrap().path()).collect();
            files.retain(|f| f.file_name().unwrap().to_string_lossy().starts_with(name));
            files.sort();
            files.iter().map(|f| std::fs::read(f).unwrap()).collect::<Vec<_>>()
        };
        let book = Book::from_elements(Header::default(), elements.clone()).unwrap();
        book.write(&dir.path().join("whole.kob"), &WriteOptions::default()).unwrap();
        let whole = read("whole");
        assert_eq!(whole.len(), 2, "one part and the .kin");
        for cuts in [vec![], vec![1], vec![77, 78, 200], vec![13, 150, 151, 399]] {
            let mut packer = BlockPacker::create(
                BookFiles::new(&dir.path().join("packed.kob")).begin().unwrap(),
                &Header::default(),
            )
            .unwrap();
            let mut parts = vec![EncodedElements::default()];
            for (i, e) in elements.iter().enumerate() {
                if cuts.contains(&i) {
                    parts.push(EncodedElements::default());
                }
                parts.last_mut().unwrap().push(e, 0).unwrap();
            }
            parts.iter().for_each(|part| packer.push_all(part).unwrap());
            assert_eq!(packer.len(), book.blocks.len());
            packer.commit(None, &WriteOptions::default()).unwrap();
            assert_eq!(read("packed"), whole, "cut at {cuts:?}");
        }
        // Keys out of order are refused within a run of elements and across runs.
        let mut part = EncodedElements::default();
        part.push(&elements[5], 0).unwrap();
        assert!(part.push(&elements[5], 0).is_err());
        let mut packer =
            BlockPacker::create(BookFiles::new(&dir.path().join("refused.kob")).begin().unwrap(), &Header::default())
                .unwrap();
        packer.push_all(&part).unwrap();
        let mut earlier = EncodedElements::default();
        earlier.push(&elements[4], 0).unwrap();
        assert!(packer.push_all(&earlier).is_err());
    }

    #[test]
    fn a_full_block_splits_into_halves_and_stays_sorted() {
        let mut book = Book::default();
        let element = |i: u8| {
            let mut key = [0; 22];
            key[0] = i;
            let mut e = Element::new(super::super::Key(key));
            e.flags = 0x08; // future data: 600 bytes of padding make the element 629 bytes
            e.extra = vec![0; 600];
            e
        };
        for i in [10, 30, 20, 40] {
            book.insert(element(i), &mut |_, _| unreachable!("keys differ"));
        }
        // Three elements fit in 2046 bytes; the fourth splits the block 2 + 2.
        let firsts: Vec<Vec<u8>> =
            book.blocks.iter().map(|b| b.elements.iter().map(|e| e.key.0[0]).collect()).collect();
        assert_eq!(firsts, [vec![10, 20], vec![30, 40]]);
        book.insert(element(25), &mut |_, _| unreachable!("keys differ"));
        let firsts: Vec<Vec<u8>> =
            book.blocks.iter().map(|b| b.elements.iter().map(|e| e.key.0[0]).collect()).collect();
        assert_eq!(firsts, [vec![10, 20, 25], vec![30, 40]]);
        let mut merged = 0;
        book.insert(element(20), &mut |_, _| merged += 1);
        assert_eq!(merged, 1);
    }
}
