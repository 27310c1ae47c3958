//! Kvetka opening books (`.kob` parts, `.kin`, `.ksf`): the format of the Russian seed
//! `000_4eddb30f5ce68e62.txt`, read the way `specs/kvetka.md` decides.
//!
//! A book is a sorted list of [`Element`]s (one per position: W/D/L of the player to move,
//! one-byte move codes, optional comment and game references) packed into 2048-byte
//! [`Block`]s after a [`Header`]; the `.kin` repeats each block's first key and the `.ksf`
//! ([`Sources`]) says where the referenced games are. Every guess about the document lives in
//! [`conventions`].
//!
//! ```
//! use tabiya_chess::kvetka::{Book, Element, Header, Key};
//!
//! let mut start = Element::new(Key::from_hex("b60f7960f3a60f58b078e0c1e1a60f5960f3b60f70f0").unwrap());
//! start.wins = 1;
//! start.moves = vec![0x11]; // 1.e4
//! let book = Book::from_elements(Header { caption: "Test".into(), ..Header::default() }, vec![start]).unwrap();
//!
//! let dir = tempfile::tempdir()?;
//! book.write(&dir.path().join("tiny"), &Default::default())?;
//! let opened = tabiya_chess::kvetka::open(&dir.path().join("tiny_0.kob"), Default::default())?;
//! assert_eq!(opened.book, book);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

pub mod build;
pub mod conventions;
pub mod convert;
mod element;
mod error;
mod files;
pub mod key;
mod ksf;
pub mod merge;
pub mod moves;
pub mod probe;
mod read;
mod record;
mod text;
mod verify;
mod write;

pub use element::{
    ELEMENT_TYPE_REFERENCES, Element, FLAG_COMMENT, FLAG_GAME_LINKS, FLAG_SOME_SOURCE, FLAGS_FUTURE, GameLinks,
};
pub use error::KvetkaError;
pub use files::BookFiles;
pub use ksf::{GameRecord, SOURCE_PGN, Source, Sources, table_size as ksf_table_size};
pub use read::{BookBytes, BookReader, KinState, Opened, open, read_whole};
pub use verify::{check, info, verify};
pub use write::WriteOptions;

use std::cmp::Ordering;
use std::fmt;

use tabiya_io::{ByteReader, DataError};

/// Length of a position key.
pub const KEY_LEN: usize = 22;

/// A normalised position (spec 4): Huffman board code, ep and castling nibbles, zero padding.
/// `Ord` is memcmp, the book's order.
#[derive(Clone, Copy, Default, PartialEq, Eq, Hash)]
pub struct Key(pub [u8; KEY_LEN]);

impl Ord for Key {
    /// The bytes compared as two big-endian numbers (builders compare keys by the million):
    /// memcmp's order without a call to it.
    fn cmp(&self, other: &Key) -> Ordering {
        self.as_numbers().cmp(&other.as_numbers())
    }
}

impl PartialOrd for Key {
    fn partial_cmp(&self, other: &Key) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl Key {
    /// A key from 44 hexadecimal digits.
    pub fn from_hex(hex: &str) -> Option<Key> {
        if hex.len() != 2 * KEY_LEN || !hex.is_ascii() {
            return None;
        }
        let mut key = [0; KEY_LEN];
        for (i, byte) in key.iter_mut().enumerate() {
            *byte = u8::from_str_radix(&hex[2 * i..2 * i + 2], 16).ok()?;
        }
        Some(Key(key))
    }

    /// The key as 44 hexadecimal digits.
    pub fn to_hex(&self) -> String {
        self.0.iter().map(|b| format!("{b:02x}")).collect()
    }

    /// Bytes 0–15 and 16–21 as big-endian numbers.
    fn as_numbers(&self) -> (u128, u64) {
        let mut tail = [0; 8];
        tail[..KEY_LEN - 16].copy_from_slice(&self.0[16..]);
        (u128::from_be_bytes(self.0[..16].try_into().expect("16 bytes")), u64::from_be_bytes(tail))
    }

    /// The key whose 22 bytes are the first of three big-endian words (comparing the words
    /// compares the keys); the last 16 bits are not part of it.
    pub(crate) fn from_words(words: &[u64; 3]) -> Key {
        let mut bytes = [0u8; 24];
        for (chunk, word) in bytes.chunks_exact_mut(8).zip(words) {
            chunk.copy_from_slice(&word.to_be_bytes());
        }
        let mut key = [0; KEY_LEN];
        key.copy_from_slice(&bytes[..KEY_LEN]);
        Key(key)
    }

    /// The words [`Key::from_words`] takes, the last 16 bits zero.
    #[cfg(test)]
    pub(crate) fn to_words(self) -> [u64; 3] {
        let mut bytes = [0u8; 24];
        bytes[..KEY_LEN].copy_from_slice(&self.0);
        std::array::from_fn(|i| u64::from_be_bytes(bytes[8 * i..8 * i + 8].try_into().expect("eight bytes")))
    }
}

impl fmt::Debug for Key {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Key({})", self.to_hex())
    }
}

/// A game reference (SourceType, spec 6): source index in the `.ksf`, game index in the source.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct SourceRef {
    /// Index of the source in the `.ksf`.
    pub source: u16,
    /// Index of the game in its source.
    pub game: u32,
}

impl SourceRef {
    pub(crate) fn parse(r: &mut ByteReader<'_>, what: &str) -> Result<SourceRef, DataError> {
        Ok(SourceRef { source: r.u16_be(what)?, game: r.u32_be(what)? })
    }

    pub(crate) fn encode(self, out: &mut Vec<u8>) {
        out.extend_from_slice(&self.source.to_be_bytes());
        out.extend_from_slice(&self.game.to_be_bytes());
    }
}

/// The `.kob` header (spec 3.1); `block_number` is the length of [`Book::blocks`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Header {
    /// The book's caption.
    pub caption: String,
    /// Game filters used when adding games; 0 = no filter.
    pub min_white_elo: u16,
    /// Minimum Black Elo of an added game.
    pub min_black_elo: u16,
    /// Minimum Elo of the stronger player.
    pub min_strong_elo: u16,
    /// Minimum Elo of the weaker player.
    pub min_weak_elo: u16,
    /// Plies of a game added to the book; 0xFF = all.
    pub max_move: u8,
    /// Bit 0: elements carry game references.
    pub element_type: u8,
    /// Non-zero: moves between book positions are searched and added.
    pub links: u8,
}

impl Default for Header {
    fn default() -> Header {
        Header {
            caption: String::new(),
            min_white_elo: 0,
            min_black_elo: 0,
            min_strong_elo: 0,
            min_weak_elo: 0,
            max_move: 0xff,
            element_type: 0,
            links: 0,
        }
    }
}

impl Header {
    /// The games the header's Elo thresholds let in.
    pub fn elo_filter(&self) -> crate::book::EloFilter {
        crate::book::EloFilter {
            white: self.min_white_elo.into(),
            black: self.min_black_elo.into(),
            strong: self.min_strong_elo.into(),
            weak: self.min_weak_elo.into(),
        }
    }

    /// Whether elements carry game references (bit 0 of `element_type`).
    pub fn references(&self) -> bool {
        self.element_type & ELEMENT_TYPE_REFERENCES != 0
    }
}

/// One 2048-byte block's elements, in key order.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Block {
    /// The elements, in key order.
    pub elements: Vec<Element>,
    /// The bytes after n, when they are not all zero (leftovers of another writer): written
    /// back while the elements still end at the same n, else zeros. Empty for tabiya's blocks.
    pub unused: Vec<u8>,
}

/// A whole book in memory.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Book {
    /// The `.kob` header.
    pub header: Header,
    /// The 2048-byte blocks, in order.
    pub blocks: Vec<Block>,
    /// The `.ksf`, when the book has one.
    pub sources: Option<Sources>,
}

impl Book {
    /// Every element, in key order.
    pub fn elements(&self) -> impl Iterator<Item = &Element> {
        self.blocks.iter().flat_map(|b| b.elements.iter())
    }

    /// Number of elements.
    pub fn element_count(&self) -> usize {
        self.blocks.iter().map(|b| b.elements.len()).sum()
    }

    /// The element with `key`, by binary search over blocks and elements (the book's order).
    pub fn find(&self, key: &Key) -> Option<&Element> {
        let after = self.blocks.partition_point(|b| b.elements.first().is_some_and(|e| e.key <= *key));
        let block = &self.blocks.get(after.checked_sub(1)?)?.elements;
        block.binary_search_by(|e| e.key.cmp(key)).ok().map(|i| &block[i])
    }
}
