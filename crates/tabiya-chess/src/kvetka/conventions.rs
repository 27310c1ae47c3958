//! Every place where the seed is silent or ambiguous, decided once (spec section 12).
//!
//! No real Kvetka book is public, so these are tabiya's readings of the document. Should a real
//! file or the English page settle a point differently, this module is the one to change.

/// Size of a `.kob` block in bytes.
pub const BLOCK_SIZE: usize = 2048;

/// Bytes of a block available for elements after the 2-byte `n` (which counts itself).
pub const BLOCK_PAYLOAD: usize = BLOCK_SIZE - 2;

/// Largest element, **counting its length prefix** (decision 13: ⌊2046 / 3⌋, three per block).
pub const MAX_ELEMENT_SIZE: usize = 682;

/// Largest `.kob` part file (decision 10: "20 MB" read as 20 MiB, never exceeded).
pub const MAX_PART_SIZE: u64 = 20 * 1024 * 1024;

/// Longest comment, in characters (UTF-16 code units).
pub const MAX_COMMENT_CHARS: usize = 300;

/// The `.ksf` table of contents is a multiple of this (decision 8).
pub const KSF_TABLE_ALIGN: usize = 512;

/// How the code units of a "Unicode string" are ordered (decision 2).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum StringEndian {
    /// UTF-16BE unless UTF-16LE reads clearly better (then a warning).
    #[default]
    Auto,
    /// UTF-16BE, as the document says.
    Big,
    /// UTF-16LE, as some writers do.
    Little,
}

/// How keys are ordered (decision 6).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum KeyOrder {
    /// memcmp: unsigned bytes. What tabiya writes.
    #[default]
    Unsigned,
    /// Bytes compared as `i8`; only ever detected on reading, with a warning.
    Signed,
}

impl KeyOrder {
    /// Compares two keys in this order.
    pub fn compare(self, a: &[u8], b: &[u8]) -> std::cmp::Ordering {
        match self {
            KeyOrder::Unsigned => a.cmp(b),
            KeyOrder::Signed => a.iter().map(|&x| x as i8).cmp(b.iter().map(|&x| x as i8)),
        }
    }
}

/// The reader's choices.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct ReadOptions {
    /// How Unicode strings are read.
    pub string_endian: StringEndian,
    /// Also warn about what the document allows but tabiya never writes (what `verify`
    /// reports): CompactInts in a longer form than needed (a rewrite uses the minimal one) and
    /// blocks whose bytes after n are not zero (kept, see [`super::Block::unused`]).
    pub strict: bool,
}
