//! The move-code table: one byte names a white piece of the normalised position and its
//! displacement (ctg.md 4.3). 166 of the 256 values are used; the rest are rejected.

use shakmaty::{CastlingSide, Role};

use crate::boardcode::MoveShape;

const PAWN_STEPS: [(u8, u8); 4] = [(0, 1), (0, 2), (1, 1), (7, 1)];
const PAWN_CODES: [[u8; 4]; 8] = [
    [0xEC, 0xDB, 0x8B, 0x0C],
    [0x04, 0x62, 0x96, 0xD1],
    [0x55, 0x9B, 0x7C, 0x27],
    [0xCF, 0xE6, 0xEB, 0x06],
    [0xBB, 0x5F, 0x00, 0xDE],
    [0xCB, 0xB1, 0x2D, 0x82],
    [0x18, 0xC8, 0x5C, 0xC7],
    [0xA3, 0x4A, 0x14, 0x24],
];

const KNIGHT_STEPS: [(u8, u8); 8] = [(1, 2), (7, 2), (2, 1), (6, 1), (2, 7), (6, 7), (1, 6), (7, 6)];
const KNIGHT_CODES: [[u8; 8]; 2] =
    [[0x34, 0x85, 0x36, 0xF7, 0xE9, 0x0F, 0x8A, 0xDA], [0x4C, 0xF3, 0xD2, 0xD3, 0xE0, 0x01, 0x2A, 0x30]];

/// (k, k) for k = 1…7, then the anti-diagonal; (4, 4) is both, modulo 8.
const DIAGONAL_STEPS: [(u8, u8); 13] =
    [(1, 1), (2, 2), (3, 3), (4, 4), (5, 5), (6, 6), (7, 7), (7, 1), (6, 2), (5, 3), (3, 5), (2, 6), (1, 7)];
const BISHOP_CODES: [[u8; 13]; 2] = [
    [0x2E, 0xC1, 0x0D, 0x6A, 0x15, 0x3A, 0x12, 0x1B, 0xC3, 0x66, 0x3C, 0xB2, 0x26],
    [0xF5, 0xC2, 0xB9, 0x9F, 0x32, 0x09, 0x1D, 0x54, 0x22, 0xCA, 0xCC, 0x79, 0x72],
];
const QUEEN_DIAGONAL_CODES: [[u8; 13]; 2] = [
    [0xF1, 0xA2, 0x45, 0xE7, 0x28, 0x61, 0xED, 0xD7, 0xD9, 0x7E, 0x4B, 0x80, 0x42],
    [0x92, 0xFB, 0xAE, 0x38, 0x41, 0x23, 0x6F, 0xEE, 0x8E, 0xFE, 0x3B, 0xAB, 0x63],
];

/// y+1 … y+7, then x+1 … x+7.
const STRAIGHT_STEPS: [(u8, u8); 14] =
    [(0, 1), (0, 2), (0, 3), (0, 4), (0, 5), (0, 6), (0, 7), (1, 0), (2, 0), (3, 0), (4, 0), (5, 0), (6, 0), (7, 0)];
const ROOK_CODES: [[u8; 14]; 2] = [
    [0x81, 0xE8, 0x7A, 0x99, 0x87, 0x50, 0xE1, 0x7F, 0xCD, 0x98, 0xEF, 0x6E, 0x52, 0x86],
    [0x7D, 0xF4, 0xE3, 0xC5, 0xA5, 0x7B, 0x69, 0xC4, 0xA9, 0x0E, 0xAD, 0xB5, 0xD8, 0x21],
];
const QUEEN_STRAIGHT_CODES: [[u8; 14]; 2] = [
    [0x05, 0x9D, 0x94, 0x37, 0xB7, 0x9A, 0xFD, 0x2F, 0x74, 0x31, 0xE5, 0x39, 0x29, 0x8F],
    [0x4D, 0xBD, 0xA0, 0xB0, 0xC6, SECOND_QUEEN_UP_6, 0xC9, 0xF8, 0x03, 0xFA, 0x08, 0xBC, SECOND_QUEEN_RIGHT_6, 0xF0],
];

const KING_STEPS: [(u8, u8); 8] = [(0, 1), (1, 1), (7, 1), (1, 0), (7, 0), (0, 7), (1, 7), (7, 7)];
const KING_CODES: [u8; 8] = [0x13, 0x67, 0xDF, 0xBE, 0x97, 0x0A, 0x44, 0x8C];
const KING_SIDE_CASTLE: u8 = 0x6B;
const QUEEN_SIDE_CASTLE: u8 = 0xF6;

/// The seed's assignment of the second queen's y+6 and x+6 moves; every other reader decodes
/// both as y+6 (ctg.md 4.3, 10.1), so a reader tries the other meaning when one is illegal.
pub const SECOND_QUEEN_UP_6: u8 = 0x1A;
/// The other queen move of six squares ([`alternative`] of 0x1A).
pub const SECOND_QUEEN_RIGHT_6: u8 = 0xF9;

const fn fill<const N: usize>(
    table: &mut [Option<MoveShape>; 256],
    role: Role,
    codes: &[[u8; N]],
    steps: &[(u8, u8); N],
) {
    let mut piece = 0;
    while piece < codes.len() {
        let mut i = 0;
        while i < N {
            let (dx, dy) = steps[i];
            table[codes[piece][i] as usize] = Some(MoveShape::Piece { role, ordinal: piece as u8 + 1, dx, dy });
            i += 1;
        }
        piece += 1;
    }
}

/// What each byte means; `None` for the 90 unused values.
static DECODE: [Option<MoveShape>; 256] = {
    let mut table = [None; 256];
    fill(&mut table, Role::Pawn, &PAWN_CODES, &PAWN_STEPS);
    fill(&mut table, Role::Knight, &KNIGHT_CODES, &KNIGHT_STEPS);
    fill(&mut table, Role::Bishop, &BISHOP_CODES, &DIAGONAL_STEPS);
    fill(&mut table, Role::Rook, &ROOK_CODES, &STRAIGHT_STEPS);
    fill(&mut table, Role::Queen, &QUEEN_DIAGONAL_CODES, &DIAGONAL_STEPS);
    fill(&mut table, Role::Queen, &QUEEN_STRAIGHT_CODES, &STRAIGHT_STEPS);
    fill(&mut table, Role::King, &[KING_CODES], &KING_STEPS);
    table[KING_SIDE_CASTLE as usize] = Some(MoveShape::Castle(CastlingSide::KingSide));
    table[QUEEN_SIDE_CASTLE as usize] = Some(MoveShape::Castle(CastlingSide::QueenSide));
    table
};

/// The move a code names, or `None` for an unused code.
pub fn decode(code: u8) -> Option<MoveShape> {
    DECODE[usize::from(code)]
}

/// The other reading of the two ambiguous codes (0x1A ↔ 0xF9), tried when the table's reading
/// is illegal.
pub fn alternative(code: u8) -> Option<MoveShape> {
    match code {
        SECOND_QUEEN_UP_6 => decode(SECOND_QUEEN_RIGHT_6),
        SECOND_QUEEN_RIGHT_6 => decode(SECOND_QUEEN_UP_6),
        _ => None,
    }
}

/// The code of a move shape, or `None` when the table has none (a third knight, bishop, rook
/// or queen, a ninth pawn, a displacement the piece cannot make).
pub fn encode(shape: MoveShape) -> Option<u8> {
    // The table is small and built at compile time; a reverse search is cheap enough for writing.
    (0..=255u8).find(|&code| DECODE[usize::from(code)] == Some(shape))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn table_has_the_166_codes_of_the_notes() {
        let unused: Vec<u8> = (0..=255u8).filter(|&c| decode(c).is_none()).collect();
        let listed = "02 07 0B 10 11 16 17 19 1C 1E 1F 20 25 2B 2C 33 35 3D 3E 3F 40 43 46 47 48 49 4E 4F 51 53 \
                      56 57 58 59 5A 5B 5D 5E 60 64 65 68 6C 6D 70 71 73 75 76 77 78 83 84 88 89 8D 90 91 93 95 \
                      9C 9E A1 A4 A6 A7 A8 AA AC AF B3 B4 B6 B8 BA BF C0 CE D0 D4 D5 D6 DC DD E2 E4 EA F2 FC FF";
        let listed: Vec<u8> = listed.split_whitespace().map(|h| u8::from_str_radix(h, 16).unwrap()).collect();
        assert_eq!(unused, listed);
        for code in (0..=255u8).filter(|&c| decode(c).is_some()) {
            assert_eq!(encode(decode(code).unwrap()), Some(code));
        }
    }

    #[test]
    fn codes_of_the_notes() {
        let piece = |role, ordinal, dx, dy| MoveShape::Piece { role, ordinal, dx, dy };
        assert_eq!(decode(0x5F), Some(piece(Role::Pawn, 5, 0, 2)));
        assert_eq!(decode(0x9B), Some(piece(Role::Pawn, 3, 0, 2)));
        assert_eq!(decode(0x34), Some(piece(Role::Knight, 1, 1, 2)));
        assert_eq!(decode(0x1A), Some(piece(Role::Queen, 2, 0, 6)));
        assert_eq!(decode(0xF9), Some(piece(Role::Queen, 2, 6, 0)));
        assert_eq!(alternative(0x1A), decode(0xF9));
        assert_eq!(alternative(0xF9), decode(0x1A));
        assert_eq!(alternative(0x5F), None);
        assert_eq!(decode(0x6B), Some(MoveShape::Castle(CastlingSide::KingSide)));
        assert_eq!(decode(0xF6), Some(MoveShape::Castle(CastlingSide::QueenSide)));
        assert_eq!(decode(0x8C), Some(piece(Role::King, 1, 7, 7)));
        assert_eq!(encode(piece(Role::Knight, 3, 1, 2)), None);
        assert_eq!(encode(piece(Role::Queen, 3, 1, 1)), None);
    }
}
