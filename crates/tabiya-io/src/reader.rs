//! A cursor over bytes that never reads past the end and reports where it failed.

use crate::DataError;
use crate::Location;
use crate::varint;

/// Reads fixed-size integers, varints and strings from a byte slice.
///
/// Every read names what it expected, so a short or corrupt input produces
/// `DataError { location: offset, expected: "u32 game count" }` instead of a panic.
/// `base` is the file offset of `data[0]`, so readers over a record or page report
/// offsets in the file.
#[derive(Debug, Clone)]
pub struct ByteReader<'a> {
    data: &'a [u8],
    pos: usize,
    base: u64,
}

macro_rules! fixed {
    ($($name:ident: $ty:ty, $n:expr, $conv:ident;)*) => {$(
        #[doc = concat!("Reads a `", stringify!($ty), "` (", stringify!($conv), ").")]
        pub fn $name(&mut self, what: &str) -> Result<$ty, DataError> {
            let bytes = self.array::<$n>(what)?;
            Ok(<$ty>::$conv(bytes))
        }
    )*};
}

impl<'a> ByteReader<'a> {
    /// A reader over `data`, offsets counted from its start.
    pub fn new(data: &'a [u8]) -> ByteReader<'a> {
        ByteReader { data, pos: 0, base: 0 }
    }

    /// A reader whose offsets are reported relative to the file, `data` starting at `base`.
    pub fn with_base(data: &'a [u8], base: u64) -> ByteReader<'a> {
        ByteReader { data, pos: 0, base }
    }

    /// File offset of the next byte.
    pub fn offset(&self) -> u64 {
        self.base + self.pos as u64
    }

    /// Position within this reader's slice.
    pub fn position(&self) -> usize {
        self.pos
    }

    /// Bytes not read yet.
    pub fn remaining(&self) -> usize {
        self.data.len() - self.pos
    }

    /// True when every byte was read.
    pub fn is_empty(&self) -> bool {
        self.remaining() == 0
    }

    /// The bytes not read yet.
    pub fn rest(&self) -> &'a [u8] {
        &self.data[self.pos..]
    }

    /// An error at the current offset.
    pub fn error(&self, expected: impl Into<String>) -> DataError {
        DataError::new(Location::at(self.offset()), expected)
    }

    /// Moves to `pos` within the slice; fails past the end.
    pub fn seek(&mut self, pos: usize, what: &str) -> Result<(), DataError> {
        if pos > self.data.len() {
            return Err(self.error(what).found(format!("end of data at {:#x}", self.base + self.data.len() as u64)));
        }
        self.pos = pos;
        Ok(())
    }

    /// Skips `n` bytes (`what` names them in the error when fewer are left).
    pub fn skip(&mut self, n: usize, what: &str) -> Result<(), DataError> {
        self.bytes(n, what).map(|_| ())
    }

    /// The next byte, without reading it.
    pub fn peek_u8(&self) -> Option<u8> {
        self.data.get(self.pos).copied()
    }

    /// The next `n` bytes (`what` names them in the error when fewer are left).
    pub fn bytes(&mut self, n: usize, what: &str) -> Result<&'a [u8], DataError> {
        if n > self.remaining() {
            return Err(self
                .error(format!("{n} bytes: {what}"))
                .found(format!("{} bytes before the end", self.remaining())));
        }
        let out = &self.data[self.pos..self.pos + n];
        self.pos += n;
        Ok(out)
    }

    /// A reader over the next `n` bytes, which this reader skips.
    pub fn sub(&mut self, n: usize, what: &str) -> Result<ByteReader<'a>, DataError> {
        let base = self.offset();
        Ok(ByteReader::with_base(self.bytes(n, what)?, base))
    }

    /// The next `N` bytes as an array.
    pub fn array<const N: usize>(&mut self, what: &str) -> Result<[u8; N], DataError> {
        let bytes = self.bytes(N, what)?;
        let mut out = [0; N];
        out.copy_from_slice(bytes);
        Ok(out)
    }

    /// The next byte.
    pub fn u8(&mut self, what: &str) -> Result<u8, DataError> {
        Ok(self.array::<1>(what)?[0])
    }

    fixed! {
        u16_be: u16, 2, from_be_bytes;
        u16_le: u16, 2, from_le_bytes;
        u32_be: u32, 4, from_be_bytes;
        u32_le: u32, 4, from_le_bytes;
        u64_be: u64, 8, from_be_bytes;
        u64_le: u64, 8, from_le_bytes;
    }

    /// A 24-bit big-endian integer.
    pub fn u24_be(&mut self, what: &str) -> Result<u32, DataError> {
        let [a, b, c] = self.array::<3>(what)?;
        Ok(u32::from_be_bytes([0, a, b, c]))
    }

    /// A 24-bit little-endian integer.
    pub fn u24_le(&mut self, what: &str) -> Result<u32, DataError> {
        let [a, b, c] = self.array::<3>(what)?;
        Ok(u32::from_le_bytes([a, b, c, 0]))
    }

    /// Kvetka's CompactInt: base 128, most significant group first (see [`varint`]).
    pub fn compact_int(&mut self, what: &str) -> Result<u32, DataError> {
        let start = self.offset();
        let (value, len) = varint::decode_compact_int(self.rest()).map_err(|e| {
            crate::DataError::new(Location::at(start), format!("CompactInt {what}")).found(e.to_string())
        })?;
        self.pos += len;
        Ok(value)
    }

    /// LEB128: base 128, least significant group first (SCID 5 names, lila).
    pub fn leb128(&mut self, what: &str) -> Result<u64, DataError> {
        let start = self.offset();
        let (value, len) = varint::decode_leb128(self.rest())
            .map_err(|e| crate::DataError::new(Location::at(start), format!("LEB128 {what}")).found(e.to_string()))?;
        self.pos += len;
        Ok(value)
    }

    /// Bytes up to (not including) a NUL, which is consumed.
    pub fn nul_terminated(&mut self, what: &str) -> Result<&'a [u8], DataError> {
        match self.rest().iter().position(|&b| b == 0) {
            Some(len) => {
                let out = &self.data[self.pos..self.pos + len];
                self.pos += len + 1;
                Ok(out)
            }
            None => Err(self.error(format!("NUL-terminated {what}")).found("no NUL before the end")),
        }
    }

    /// A string preceded by its length in one byte (Pascal string).
    pub fn pascal(&mut self, what: &str) -> Result<&'a [u8], DataError> {
        let len = self.u8(what)? as usize;
        self.bytes(len, what)
    }

    /// A string preceded by its length as a big-endian u16.
    pub fn len_prefixed_u16_be(&mut self, what: &str) -> Result<&'a [u8], DataError> {
        let len = self.u16_be(what)? as usize;
        self.bytes(len, what)
    }

    /// A string preceded by its length as a big-endian u32.
    pub fn len_prefixed_u32_be(&mut self, what: &str) -> Result<&'a [u8], DataError> {
        let len = self.u32_be(what)? as usize;
        self.bytes(len, what)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn integers_in_both_byte_orders() {
        let data = [0x12, 0x34, 0x56, 0x78, 0x9a, 0xbc, 0xde, 0xf0];
        let mut r = ByteReader::new(&data);
        assert_eq!(r.u16_be("a").unwrap(), 0x1234);
        assert_eq!(r.u16_le("b").unwrap(), 0x7856);
        assert_eq!(r.u24_be("c").unwrap(), 0x9abcde);
        assert_eq!(r.offset(), 7);
        let mut r = ByteReader::new(&data);
        assert_eq!(r.u24_le("c").unwrap(), 0x563412);
        assert_eq!(ByteReader::new(&data).u32_be("d").unwrap(), 0x12345678);
        assert_eq!(ByteReader::new(&data).u32_le("d").unwrap(), 0x78563412);
        assert_eq!(ByteReader::new(&data).u64_be("e").unwrap(), 0x123456789abcdef0);
        assert_eq!(ByteReader::new(&data).u64_le("e").unwrap(), 0xf0debc9a78563412);
    }

    #[test]
    fn short_input_names_offset_and_field() {
        let mut r = ByteReader::with_base(&[1, 2, 3], 0x100);
        r.u16_be("first").unwrap();
        let err = r.u32_be("game count").unwrap_err();
        assert_eq!(err.location.offset, Some(0x102));
        assert_eq!(err.to_string(), "<input>@0x102: expected 4 bytes: game count, found 1 bytes before the end");
    }

    #[test]
    fn strings() {
        let mut r = ByteReader::new(b"abc\0\x02xy\x00\x03def\0\0\0\x01z");
        assert_eq!(r.nul_terminated("name").unwrap(), b"abc");
        assert_eq!(r.pascal("p").unwrap(), b"xy");
        assert_eq!(r.len_prefixed_u16_be("l").unwrap(), b"def");
        assert_eq!(r.len_prefixed_u32_be("l").unwrap(), b"z");
        assert!(r.nul_terminated("x").is_err());
    }

    #[test]
    fn sub_reader_reports_file_offsets() {
        let data = [0u8; 10];
        let mut r = ByteReader::new(&data);
        r.skip(4, "head").unwrap();
        let mut page = r.sub(4, "page").unwrap();
        assert_eq!(page.offset(), 4);
        page.u16_be("x").unwrap();
        assert_eq!(page.u32_be("y").unwrap_err().location.offset, Some(6));
        assert_eq!(r.offset(), 8);
    }

    proptest::proptest! {
        #[test]
        fn never_panics_on_any_bytes(data: Vec<u8>, ops: Vec<u8>) {
            let mut r = ByteReader::new(&data);
            for op in ops {
                let _ = match op % 8 {
                    0 => r.u8("a").map(u64::from),
                    1 => r.u16_be("a").map(u64::from),
                    2 => r.u24_le("a").map(u64::from),
                    3 => r.u64_le("a"),
                    4 => r.compact_int("a").map(u64::from),
                    5 => r.leb128("a"),
                    6 => r.pascal("a").map(|b| b.len() as u64),
                    _ => r.nul_terminated("a").map(|b| b.len() as u64),
                };
            }
        }
    }
}
