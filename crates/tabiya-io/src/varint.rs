//! The two base-128 integer codings of the mission's formats.
//!
//! * Kvetka's CompactInt writes the **most** significant group first; bit 7 set = more follow.
//! * LEB128 (SCID 5 `.sn5`, lila) writes the **least** significant group first.

use std::fmt;

/// Why a varint could not be decoded.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum VarintError {
    /// The data ended before a byte with bit 7 clear.
    Truncated,
    /// The value does not fit the type (CompactInt: u32, LEB128: u64).
    Overflow,
}

impl fmt::Display for VarintError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            VarintError::Truncated => "data ended inside the number",
            VarintError::Overflow => "a value too large for the field",
        })
    }
}

/// Decodes a CompactInt; returns the value and the number of bytes used. Non-minimal forms
/// (leading `0x80`) are accepted; values above `u32::MAX` are rejected.
pub fn decode_compact_int(data: &[u8]) -> Result<(u32, usize), VarintError> {
    let mut value: u64 = 0;
    for (i, &b) in data.iter().enumerate() {
        value = (value << 7) | u64::from(b & 0x7f);
        if value > u64::from(u32::MAX) {
            return Err(VarintError::Overflow);
        }
        if b < 0x80 {
            return Ok((value as u32, i + 1));
        }
    }
    Err(VarintError::Truncated)
}

/// Appends the minimal CompactInt form of `value`.
#[inline]
pub fn write_compact_int(out: &mut Vec<u8>, value: u32) {
    // Most values of a book (counts, lengths) take one byte.
    if value < 0x80 {
        out.push(value as u8);
        return;
    }
    let mut groups = [0u8; 5];
    let mut n = 0;
    let mut v = value;
    loop {
        groups[n] = (v & 0x7f) as u8;
        n += 1;
        v >>= 7;
        if v == 0 {
            break;
        }
    }
    for i in (0..n).rev() {
        out.push(groups[i] | if i > 0 { 0x80 } else { 0 });
    }
}

/// Decodes an unsigned LEB128 number; returns the value and the number of bytes used.
pub fn decode_leb128(data: &[u8]) -> Result<(u64, usize), VarintError> {
    let mut value: u64 = 0;
    for (i, &b) in data.iter().enumerate() {
        let shift = 7 * i as u32;
        let group = u64::from(b & 0x7f);
        if shift >= 64 || (shift > 0 && group >> (64 - shift) != 0) {
            return Err(VarintError::Overflow);
        }
        value |= group << shift;
        if b < 0x80 {
            return Ok((value, i + 1));
        }
    }
    Err(VarintError::Truncated)
}

/// Appends the minimal LEB128 form of `value`.
pub fn write_leb128(out: &mut Vec<u8>, mut value: u64) {
    loop {
        let group = (value & 0x7f) as u8;
        value >>= 7;
        if value == 0 {
            out.push(group);
            return;
        }
        out.push(group | 0x80);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The table of kvetka.md section 2.2.
    const COMPACT_INT_VECTORS: &[(u32, &[u8])] = &[
        (0, &[0x00]),
        (127, &[0x7F]),
        (128, &[0x81, 0x00]),
        (255, &[0x81, 0x7F]),
        (300, &[0x82, 0x2C]),
        (16_383, &[0xFF, 0x7F]),
        (16_384, &[0x81, 0x80, 0x00]),
        (2_097_151, &[0xFF, 0xFF, 0x7F]),
        (2_097_152, &[0x81, 0x80, 0x80, 0x00]),
        (268_435_456, &[0x81, 0x80, 0x80, 0x80, 0x00]),
        (4_294_967_295, &[0x8F, 0xFF, 0xFF, 0xFF, 0x7F]),
    ];

    #[test]
    fn compact_int_matches_the_kvetka_table() {
        for &(value, bytes) in COMPACT_INT_VECTORS {
            let mut out = Vec::new();
            write_compact_int(&mut out, value);
            assert_eq!(out, bytes, "writing {value}");
            assert_eq!(decode_compact_int(bytes), Ok((value, bytes.len())), "reading {value}");
        }
    }

    #[test]
    fn compact_int_errors() {
        assert_eq!(decode_compact_int(&[0x81, 0x80]), Err(VarintError::Truncated));
        assert_eq!(decode_compact_int(&[0x90, 0x80, 0x80, 0x80, 0x00]), Err(VarintError::Overflow));
        // Non-minimal forms are accepted.
        assert_eq!(decode_compact_int(&[0x80, 0x05]), Ok((5, 2)));
    }

    #[test]
    fn leb128_known_values() {
        // 300 = 0b10_0101100: low group 0x2C with the continuation bit, then 0x02.
        assert_eq!(decode_leb128(&[0xAC, 0x02]), Ok((300, 2)));
        let mut out = Vec::new();
        write_leb128(&mut out, 300);
        assert_eq!(out, [0xAC, 0x02]);
        let mut out = Vec::new();
        write_leb128(&mut out, u64::MAX);
        assert_eq!(decode_leb128(&out), Ok((u64::MAX, 10)));
        assert_eq!(decode_leb128(&[0xff; 11]), Err(VarintError::Overflow));
        assert_eq!(decode_leb128(&[0x80]), Err(VarintError::Truncated));
    }

    proptest::proptest! {
        #[test]
        fn round_trips(a: u32, b: u64) {
            let mut out = Vec::new();
            write_compact_int(&mut out, a);
            proptest::prop_assert_eq!(decode_compact_int(&out), Ok((a, out.len())));
            let mut out = Vec::new();
            write_leb128(&mut out, b);
            proptest::prop_assert_eq!(decode_leb128(&out), Ok((b, out.len())));
        }
    }
}
