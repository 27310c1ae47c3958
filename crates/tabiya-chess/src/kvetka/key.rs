//! Position keys (spec 4): the shared normalisation and Huffman board code of
//! [`crate::boardcode`], then Kvetka's fixed trailer: 4-bit ep (file + 1), 4-bit castling,
//! zero bits up to 176.

use shakmaty::{Chess, Color, File, Role};

use crate::view::PositionView;

use crate::boardcode::{
    BitReader, BoardCoder, CastlingBits, Frame, Normalization, Normalized, Tail, read_board, tailed_code,
};

use super::{KEY_LEN, Key};

/// Bits in a key.
pub const KEY_BITS: usize = 8 * KEY_LEN;

/// A key, or the number of bits a position would need when that exceeds 176.
pub type KeyOrTooLong = Result<Key, usize>;

/// The key of a position, with its normalised form, or the number of bits it would need when
/// that exceeds 176 (positions with several promoted pieces).
pub fn encode(pos: &Chess) -> Result<(Key, Normalized), usize> {
    let norm = Normalized::new(pos);
    key_of(&norm).map(|key| (key, norm))
}

/// The key of a normalised position, or the bits it would need when over 176.
pub fn key_of(norm: &Normalized) -> Result<Key, usize> {
    tailed_code(&norm.board, Frame::default(), tail(norm.castling, norm.ep_file)).map(|words| Key::from_words(&words))
}

/// [`encode`] for builders, which key every position of every game: the key as
/// [`Key::from_words`] takes it, and how the position was normalised, straight from the real
/// board; `coder` carries the file codes of the positions before.
pub(crate) fn encode_words(
    coder: &mut BoardCoder,
    pos: &impl PositionView,
) -> Result<([u64; 3], Normalization), usize> {
    let normalization = Normalization::new(pos);
    let tail = tail(normalization.castling, normalization.ep_file);
    coder.tailed_code(pos, normalization.frame, tail).map(|words| (words, normalization))
}

/// The keys a look-up of the position `pos` tries, as [`Normalized::lookup_forms`] orders
/// them: its own, then, when it has an en-passant file, its key without the file (books store
/// some such positions without it). `None` for a form whose code is longer than a key. Coded
/// straight from the real board, as a reader that has just played a move to `pos` holds it.
pub(crate) fn lookup_keys(coder: &mut BoardCoder, pos: &impl PositionView) -> [Option<Key>; 2] {
    let Normalization { castling, ep_file, frame } = Normalization::new(pos);
    let mut key = |ep_file| coder.tailed_code(pos, frame, tail(castling, ep_file)).ok().map(|w| Key::from_words(&w));
    let own = key(ep_file);
    [own, ep_file.and_then(|_| key(None))]
}

/// What follows the board code: the ep and castling nibbles (the zero bits after them are the
/// padding up to 176).
fn tail(castling: CastlingBits, ep_file: Option<File>) -> Tail {
    let ep = ep_file.map_or(0, |f| f as u64 + 1);
    Tail { bits: ep << 4 | u64::from(castling.nibble()), len: 8, max_len: KEY_BITS as u32 }
}

/// Why the bytes of a key are not a position the writer could have made (spec 11.6).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum KeyError {
    /// The code ends before the board is complete.
    #[error("the board code does not fit in 176 bits")]
    Truncated,
    /// An en-passant file nibble that is no file.
    #[error("ep field {0:#06b} (expected 0 or a file 1–8)")]
    EnPassant(u8),
    /// Padding bits that are not zero.
    #[error("padding bits after the code are not zero")]
    Padding,
    /// Not a legal position (the reason).
    #[error("not a legal White-to-move position: {0}")]
    Illegal(String),
    /// Nobody can castle but White's king is on files a–d: not normalised.
    #[error("no castling rights and the white king on files a–d: the mirror rule was not applied")]
    NotMirrored,
}

/// The White-to-move position a key stands for, in the normalised frame.
pub fn decode(key: &Key) -> Result<Normalized, KeyError> {
    let mut bits = BitReader::new(&key.0);
    let board = read_board(&mut bits).ok_or(KeyError::Truncated)?;
    let ep = bits.bits(4).ok_or(KeyError::Truncated)? as u8;
    let castling = CastlingBits::from_nibble(bits.bits(4).ok_or(KeyError::Truncated)? as u8);
    while bits.remaining() > 0 {
        if bits.bit() == Some(true) {
            return Err(KeyError::Padding);
        }
    }
    let ep_file = match ep {
        0 => None,
        1..=8 => Some(File::new(u32::from(ep) - 1)),
        _ => return Err(KeyError::EnPassant(ep)),
    };
    Ok(Normalized::from_key_parts(board, castling, ep_file))
}

/// Decodes and checks a key: legal position, mirror rule (for `tabiya verify`).
pub fn check(key: &Key) -> Result<Chess, KeyError> {
    let norm = decode(key)?;
    if norm.castling.is_empty()
        && norm.board.king_of(Color::White).is_some_and(|k| k.file() <= File::D)
        && norm.board.by_role(Role::King).count() == 2
    {
        return Err(KeyError::NotMirrored);
    }
    norm.real_position().map_err(|e| KeyError::Illegal(e.to_string()))
}

#[cfg(test)]
mod tests {
    use shakmaty::CastlingMode;
    use shakmaty::Position;
    use shakmaty::fen::Fen;

    use super::*;

    /// Keys order as their bytes do (memcmp), also when they differ only in the last bytes.
    #[test]
    fn keys_order_as_their_bytes() {
        let mut random = tabiya_testdata::Xorshift::new(0x4b65);
        let mut keys: Vec<Key> = (0..400)
            .map(|_| {
                let mut key = [0; KEY_LEN];
                key.iter_mut().for_each(|b| *b = [0x00, 0x7f, 0x80, 0xff, random.below(256) as u8][random.below(5)]);
                Key(key)
            })
            .collect();
        keys.push(Key([0xff; KEY_LEN]));
        keys.push(Key::default());
        for a in &keys {
            for b in &keys {
                assert_eq!(a.cmp(b), a.0.cmp(&b.0), "{a:?} {b:?}");
            }
        }
    }

    /// The position after `sans` (SAN or UCI) from the start.
    fn after(sans: &str) -> Chess {
        crate::book::probe_position(None, Some(sans)).expect("legal moves")
    }

    fn fen(fen: &str) -> Chess {
        fen.parse::<Fen>().unwrap().into_position(CastlingMode::Standard).unwrap()
    }

    fn hex(pos: &Chess) -> String {
        encode(pos).unwrap().0.to_hex()
    }

    /// kvetka.md 14.1, hand-checked from the document.
    #[test]
    fn keys_of_the_spec() {
        assert_eq!(hex(&Chess::default()), "b60f7960f3a60f58b078e0c1e1a60f5960f3b60f70f0");
        assert_eq!(hex(&after("e4")), "b60f7960f3a60f58b078e0c721a60f5960f3b60f70f0");
        assert_eq!(hex(&after("e4 c5")), "b60f7960f3a63958b078e031e1a60f5960f3b60f70f0");
        assert_eq!(hex(&after("e4 d5 e5 f5")), "b60f7960f3a60f58b1c8e019e1a6395960f3b60f76f0");
        assert_eq!(
            hex(&fen("rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq - 0 3")),
            "b60f7960f3a60f58b1c8e019e1a6395960f3b60f70f0"
        );
        assert_eq!(hex(&fen("r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 0 1")), "b017000000800840002c05c3c0000000000000000000");
        for f in ["3k4/8/8/8/8/8/6P1/5K2 w - - 0 1", "2k5/1p6/8/8/8/8/8/4K3 b - - 0 1"] {
            assert_eq!(hex(&fen(f)), "00000001080400180000000000000000000000000000", "{f}");
        }
    }

    #[test]
    fn keys_decode_to_the_normalised_position() {
        let key = encode(&after("e4 d5 e5 f5")).unwrap().0;
        let pos = check(&key).unwrap();
        assert_eq!(
            Fen::from_position(&pos, shakmaty::EnPassantMode::Legal).to_string(),
            "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 1"
        );
        let flipped = encode(&after("e4")).unwrap().0;
        assert_eq!(
            Fen::from_position(&check(&flipped).unwrap(), shakmaty::EnPassantMode::Legal).to_string(),
            "rnbqkbnr/pppp1ppp/8/4p3/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
        );
    }

    #[test]
    fn bad_keys_are_named() {
        let mut key = encode(&Chess::default()).unwrap().0;
        key.0[21] = 1;
        assert_eq!(check(&key), Err(KeyError::Padding));
        let unmirrored = Key::from_hex("00000000000000000000000000000000000000000000").unwrap();
        assert!(matches!(check(&unmirrored), Err(KeyError::Illegal(_))));
        let mut ep = encode(&Chess::default()).unwrap().0;
        ep.0[20] = 0x7f; // last board nibble 7, ep 0xf
        assert_eq!(check(&ep), Err(KeyError::EnPassant(15)));
        let queen_side = encode(&fen("4k3/8/8/8/8/8/8/4K3 w - - 0 1")).unwrap().0;
        assert!(check(&queen_side).is_ok());
        // The board of 14.1's last vector with the king left on c1: the mirror rule was skipped.
        let unmirrored = fen("4k3/8/8/8/8/8/1P6/2K5 w - - 0 1");
        let norm = Normalized::from_key_parts(unmirrored.board().clone(), CastlingBits::NONE, None);
        assert_eq!(check(&key_of(&norm).unwrap()), Err(KeyError::NotMirrored));
    }

    #[test]
    fn too_many_promoted_pieces_do_not_fit() {
        // Nine queens and full armies of minor pieces: far over 176 bits.
        // 16 pawns (48 bits), 14 queens (84), 2 kings (12), 32 empty squares, 8 trailer bits.
        let board: shakmaty::Board = "qqqqkqqq/pppppppp/8/8/8/8/PPPPPPPP/QQQQKQQQ".parse().unwrap();
        assert_eq!(key_of(&Normalized::from_key_parts(board, CastlingBits::NONE, None)), Err(184));
    }
}
