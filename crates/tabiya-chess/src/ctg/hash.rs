//! The key hash: `calchash` of V7 Unix dbm over the key bytes, header byte included.

const TABLE: [u32; 64] = [
    0x3100d2bf, 0x3118e3de, 0x34ab1372, 0x2807a847, 0x1633f566, 0x2143b359, 0x26d56488, 0x3b9e6f59, //
    0x37755656, 0x3089ca7b, 0x18e92d85, 0x0cd0e9d8, 0x1a9e3b54, 0x3eaa902f, 0x0d9bfaae, 0x2f32b45b, //
    0x31ed6102, 0x3d3c8398, 0x146660e3, 0x0f8d4b76, 0x02c77a5f, 0x146c8799, 0x1c47f51f, 0x249f8f36, //
    0x24772043, 0x1fbc1e4d, 0x1e86b3fa, 0x37df36a6, 0x16ed30e4, 0x02c3148e, 0x216e5929, 0x0636b34e, //
    0x317f9f56, 0x15f09d70, 0x131026fb, 0x38c784b1, 0x29ac3305, 0x2b485dc5, 0x3c049ddc, 0x35a9fbcd, //
    0x31d5373b, 0x2b246799, 0x0a2923d3, 0x08a96e9d, 0x30031a9f, 0x08f525b5, 0x33611c06, 0x2409db98, //
    0x0ca4feb2, 0x1000b71e, 0x30566e32, 0x39447d31, 0x194e3752, 0x08233a95, 0x0f38fe36, 0x29c7cd57, //
    0x0f7b3a39, 0x328e8a16, 0x1e7d1388, 0x0fba78f5, 0x274c7e7c, 0x1e8be65c, 0x2fa0b0bb, 0x1eb6c371, //
];

/// The 32-bit hash of a key; the low nibble of each byte is mixed in before the high one.
pub fn hash(key: &[u8]) -> u32 {
    let mut h = 0u32;
    let mut t = 0u32;
    for &byte in key {
        for nibble in [byte & 0x0f, byte >> 4] {
            t = t.wrapping_add(4 * (15 - u32::from(nibble)) + 1);
            h = h.wrapping_add(TABLE[(t & 63) as usize]);
        }
    }
    h
}

#[cfg(test)]
mod tests {
    use super::hash;

    fn bytes(hex: &str) -> Vec<u8> {
        (0..hex.len()).step_by(2).map(|i| u8::from_str_radix(&hex[i..i + 2], 16).unwrap()).collect()
    }

    #[test]
    fn vectors_of_the_notes() {
        // ctg.md section 11.
        assert_eq!(hash(&bytes("56b60f7960f3a60f58b078e0c1e1a60f5960f3b60f7f")), 0xEB7ED3D7);
        assert_eq!(hash(&bytes("56b60f7960f3a60f58b078e0c721a60f5960f3b60f7f")), 0x8C978593);
        assert_eq!(hash(&bytes("56b60f7960f3a63958b1c8e0c1e1a690f560f3b60f7f")), 0x88C8EDF4);
    }
}
