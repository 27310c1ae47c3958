//! Position keys (ctg.md 4.1): a header byte, the board code of [`crate::boardcode`] and a
//! trailer holding the en-passant file and the castling rights when there are any.

use std::fmt;

use shakmaty::File;

use crate::boardcode::{BitReader, BitWriter, CastlingBits, Normalized, read_board, write_board};

/// Header byte: the key length in bytes, header included.
const LENGTH_MASK: u8 = 0x1f;
/// Header byte: an en-passant file follows the board.
const HAS_EP: u8 = 0x20;
/// Header byte: castling rights follow the board.
const HAS_CASTLING: u8 = 0x40;

/// The longest key the 5-bit length can describe.
pub const MAX_KEY_LEN: usize = 31;

/// A position key as stored in a record.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Key {
    bytes: [u8; MAX_KEY_LEN],
    len: u8,
}

impl Key {
    /// The key of a normalised position; `None` when the board code does not fit the 31 bytes
    /// a key can have (many promoted pieces).
    pub fn encode(norm: &Normalized) -> Option<Key> {
        let mut bits = BitWriter::new();
        write_board(&norm.board, &mut bits);
        let trailer = if norm.ep_file.is_some() { 3 } else { 0 } + if norm.castling.is_empty() { 0 } else { 4 };
        if trailer == 0 {
            // Without a trailer at least one zero bit follows the board, so a board ending on a
            // byte boundary gets a whole zero byte.
            bits.push(false);
        }
        while bits.len() % 8 != (8 - trailer) % 8 {
            bits.push(false);
        }
        if let Some(file) = norm.ep_file {
            bits.push_bits(file as u32, 3);
        }
        if !norm.castling.is_empty() {
            bits.push_bits(u32::from(norm.castling.nibble()), 4);
        }
        let body = bits.as_bytes();
        let len = body.len() + 1;
        if len > MAX_KEY_LEN {
            return None;
        }
        let mut key = Key { bytes: [0; MAX_KEY_LEN], len: len as u8 };
        key.bytes[0] = len as u8
            | if norm.ep_file.is_some() { HAS_EP } else { 0 }
            | if norm.castling.is_empty() { 0 } else { HAS_CASTLING };
        key.bytes[1..len].copy_from_slice(body);
        Some(key)
    }

    /// The key's bytes as stored (length byte first).
    pub fn as_bytes(&self) -> &[u8] {
        &self.bytes[..usize::from(self.len)]
    }

    /// The hash that places the key in the bucket tree.
    pub fn hash(&self) -> u32 {
        super::hash::hash(self.as_bytes())
    }
}

impl fmt::Debug for Key {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&hex(self.as_bytes()))
    }
}

/// Lower-case hexadecimal, as the notes and the JSON output write keys.
pub fn hex(bytes: &[u8]) -> String {
    const DIGITS: &[u8; 16] = b"0123456789abcdef";
    let mut text = String::with_capacity(2 * bytes.len());
    for &b in bytes {
        text.push(char::from(DIGITS[usize::from(b >> 4)]));
        text.push(char::from(DIGITS[usize::from(b & 15)]));
    }
    text
}

/// The key length a header byte announces.
pub fn key_len(header: u8) -> usize {
    usize::from(header & LENGTH_MASK)
}

/// Reads a stored key back into the normalised position (frame unknown: identity). The error
/// says what the key lacks. Whether the bits re-encode to the same bytes is for the caller to
/// check (see `verify`).
pub fn decode(key: &[u8]) -> Result<Normalized, &'static str> {
    let (&header, body) = key.split_first().ok_or("a key header byte")?;
    if header & 0x80 != 0 || key_len(header) != key.len() {
        return Err("a key header byte with bit 7 clear and the key length in bits 0-4");
    }
    let mut bits = BitReader::new(body);
    let board = read_board(&mut bits).ok_or("64 square codes within the key length")?;
    let ep = header & HAS_EP != 0;
    let castling = header & HAS_CASTLING != 0;
    let trailer = if ep { 3 } else { 0 } + if castling { 4 } else { 0 };
    let trailer_start = (body.len() * 8).checked_sub(trailer).ok_or("room for the key trailer")?;
    if bits.position() > trailer_start || (trailer == 0 && bits.position() == trailer_start) {
        return Err("room for the key trailer after the board");
    }
    while bits.position() < trailer_start {
        bits.bit();
    }
    let ep_file = if ep { bits.bits(3).map(|f| File::new(f)) } else { None };
    let castling = if castling {
        bits.bits(4).map_or(CastlingBits::NONE, |n| CastlingBits::from_nibble(n as u8))
    } else {
        CastlingBits::NONE
    };
    Ok(Normalized::from_key_parts(board, castling, ep_file))
}

#[cfg(test)]
mod tests {
    use shakmaty::Chess;
    use shakmaty::fen::Fen;

    use super::*;

    fn key_of(fen: &str) -> Key {
        let pos: Chess = fen.parse::<Fen>().unwrap().into_position(shakmaty::CastlingMode::Standard).unwrap();
        Key::encode(&Normalized::new(&pos)).unwrap()
    }

    #[test]
    fn start_key_and_back() {
        let key = Key::encode(&Normalized::new(&Chess::default())).unwrap();
        assert_eq!(hex(key.as_bytes()), "56b60f7960f3a60f58b078e0c1e1a60f5960f3b60f7f");
        assert_eq!(key.hash(), 0xEB7ED3D7);
        assert_eq!(decode(key.as_bytes()).unwrap(), Normalized::new(&Chess::default()));
    }

    #[test]
    fn trailers() {
        // No trailer: board of 2 kings = 62 + 12 = 74 bits, one zero bit, pad to 80: 10 + 1 bytes.
        let key = key_of("4k3/8/8/8/8/8/8/4K3 w - - 0 1");
        assert_eq!(key.as_bytes()[0], 0x0b);
        // ep only (3 bits) and both (7 bits).
        let ep = key_of("4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1");
        assert_eq!(ep.as_bytes()[0] & 0xe0, 0x20);
        let norm = decode(ep.as_bytes()).unwrap();
        assert_eq!(norm.ep_file, Some(File::D));
        let both = key_of("r3k3/8/8/3pP3/8/8/8/4K3 w q d6 0 1");
        assert_eq!(both.as_bytes()[0] & 0xe0, 0x60);
        let norm = decode(both.as_bytes()).unwrap();
        assert_eq!((norm.ep_file, norm.castling.nibble()), (Some(File::D), 0b0100));
        assert_eq!(Key::encode(&norm), Some(both));
    }

    #[test]
    fn bad_keys_are_errors() {
        assert!(decode(&[]).is_err());
        assert!(decode(&[0x03, 0xff, 0xff]).is_err());
        assert!(decode(&[0x82, 0x00]).is_err());
        // A board that fills the key leaves no room for the zero bit.
        assert!(decode(&[0x09, 0, 0, 0, 0, 0, 0, 0, 0]).is_err());
        assert!(decode(&[0x0a, 0, 0, 0, 0, 0, 0, 0, 0, 0]).is_ok());
    }
}
