//! A board as one nibble per square, made a rank (or file) at a time from four bit planes
//! instead of square by square. The nibble's bits: 0 pawn, bishop or queen; 1 knight, bishop or
//! king; 2 rook, queen or king; 3 black (pawn 1, knight 2, bishop 3, rook 4, queen 5, king 6).
//! Polyglot book positions and the CTG/Kvetka board code both start from it.

use shakmaty::{Bitboard, Role};

/// The four planes of the pieces `by_role` gives (a shakmaty `Board`'s, or a
/// [`PositionView`](crate::view::PositionView)'s), with `black` as the pieces whose nibbles
/// get bit 3 (the caller may swap the colours).
pub(crate) fn planes(by_role: impl Fn(Role) -> Bitboard, black: Bitboard) -> [u64; 4] {
    let [pawns, knights, bishops, rooks, queens, kings] = Role::ALL.map(by_role);
    [(pawns | bishops | queens).0, (knights | bishops | kings).0, (rooks | queens | kings).0, black.0]
}

/// Byte `index` of every plane interleaved: square `i` of that byte becomes nibble `i`.
pub(crate) fn interleave(planes: &[u64; 4], index: usize) -> u32 {
    let byte = |plane: u64| usize::from((plane >> (8 * index)) as u8);
    SPREAD[byte(planes[0])] | SPREAD[byte(planes[1])] << 1 | SPREAD[byte(planes[2])] << 2 | SPREAD[byte(planes[3])] << 3
}

/// `SPREAD[b]`: bit `i` of the byte `b` moved to bit `4 i`.
pub(crate) const SPREAD: [u32; 256] = {
    let mut spread = [0; 256];
    let mut byte = 0;
    while byte < 256 {
        let mut bit = 0;
        while bit < 8 {
            spread[byte] |= ((byte as u32 >> bit) & 1) << (4 * bit);
            bit += 1;
        }
        byte += 1;
    }
    spread
};
