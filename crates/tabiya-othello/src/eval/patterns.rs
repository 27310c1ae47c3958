//! The patterns: lines of squares whose contents (empty, side to move, opponent) index a weight
//! table. Each pattern is read on the board under all 8 symmetries, so that equivalent lines
//! share their weights (a pattern that is its own mirror image, like an edge, is read twice in
//! each place, once per direction, which makes its weights symmetric too).

use crate::board::{Board, Symmetry};

/// The shapes as (column, row) pairs, in ascending square order: the first square is the
/// least significant base-3 digit. `shape_bits` gathers exactly these squares with bit masks.
const SHAPES: [&[(u8, u8)]; 10] = [
    // An edge with the two X-squares.
    &[(0, 0), (1, 0), (2, 0), (3, 0), (4, 0), (5, 0), (6, 0), (7, 0), (1, 1), (6, 1)],
    // A corner's 3×3 block.
    &[(0, 0), (1, 0), (2, 0), (0, 1), (1, 1), (2, 1), (0, 2), (1, 2), (2, 2)],
    // The second, third and fourth rows.
    &[(0, 1), (1, 1), (2, 1), (3, 1), (4, 1), (5, 1), (6, 1), (7, 1)],
    &[(0, 2), (1, 2), (2, 2), (3, 2), (4, 2), (5, 2), (6, 2), (7, 2)],
    &[(0, 3), (1, 3), (2, 3), (3, 3), (4, 3), (5, 3), (6, 3), (7, 3)],
    // The diagonals of 8, 7, 6, 5 and 4 squares.
    &[(0, 0), (1, 1), (2, 2), (3, 3), (4, 4), (5, 5), (6, 6), (7, 7)],
    &[(1, 0), (2, 1), (3, 2), (4, 3), (5, 4), (6, 5), (7, 6)],
    &[(2, 0), (3, 1), (4, 2), (5, 3), (6, 4), (7, 5)],
    &[(3, 0), (4, 1), (5, 2), (6, 3), (7, 4)],
    &[(4, 0), (5, 1), (6, 2), (7, 3)],
];

pub const PATTERNS: usize = SHAPES.len();
/// Every pattern under every symmetry.
pub const FEATURES: usize = PATTERNS * 8;

/// For up to 10 bits, the base-3 number with the same digits (bit `k` → `3^k`).
static TERNARY: [u16; 1024] = ternary();

const fn ternary() -> [u16; 1024] {
    let mut table = [0; 1024];
    let mut bits = 0;
    while bits < 1024 {
        let (mut value, mut power, mut k) = (0, 1, 0);
        while k < 10 {
            if bits >> k & 1 != 0 {
                value += power;
            }
            power *= 3;
            k += 1;
        }
        table[bits] = value;
        bits += 1;
    }
    table
}

/// Where each pattern's weights start in a phase's table, and the table's length: `3^len`
/// weights per pattern, then one constant term.
pub static OFFSETS: ([usize; PATTERNS], usize) = offsets();

const fn offsets() -> ([usize; PATTERNS], usize) {
    let mut offsets = [0; PATTERNS];
    let mut next = 0;
    let mut pattern = 0;
    while pattern < PATTERNS {
        offsets[pattern] = next;
        next += 3usize.pow(SHAPES[pattern].len() as u32);
        pattern += 1;
    }
    (offsets, next + 1)
}

/// The squares of each shape on `discs`, packed into the low bits in ascending order.
#[inline(always)]
fn shape_bits(discs: u64) -> [u64; PATTERNS] {
    /// Gathers the squares 0, 9, 18, … (a diagonal shifted to start at a1) into one byte.
    #[inline(always)]
    fn diagonal(discs: u64, shift: u32, mask: u64) -> u64 {
        ((discs >> shift) & mask).wrapping_mul(0x0101_0101_0101_0101) >> 56
    }
    [
        (discs & 0xff) | ((discs >> 1) & 0x100) | ((discs >> 5) & 0x200),
        (discs & 7) | ((discs >> 5) & 0x38) | ((discs >> 10) & 0x1c0),
        (discs >> 8) & 0xff,
        (discs >> 16) & 0xff,
        (discs >> 24) & 0xff,
        diagonal(discs, 0, 0x8040_2010_0804_0201),
        diagonal(discs, 1, 0x0040_2010_0804_0201),
        diagonal(discs, 2, 0x0000_2010_0804_0201),
        diagonal(discs, 3, 0x0000_0010_0804_0201),
        diagonal(discs, 4, 0x0000_0000_0804_0201),
    ]
}

/// The weight of each feature of `board`, as an index into a phase's table (the constant
/// term, the table's last entry, is not included): feature `8 · pattern + k` reads the
/// pattern on the `k`-th image of the board (the identity, a↔h, 1↔8 and both, then the same
/// after a reflection in the a1–h8 diagonal).
#[inline]
pub fn feature_indices(board: Board) -> [u32; FEATURES] {
    let mut indices = [0; FEATURES];
    let images = |discs: u64| {
        let mirrored = Symmetry::MIRROR_COLUMNS.apply(discs);
        let diagonal = Symmetry::DIAGONAL.apply(discs);
        let both = Symmetry::MIRROR_COLUMNS.apply(diagonal);
        [
            discs,
            mirrored,
            discs.swap_bytes(),
            mirrored.swap_bytes(),
            diagonal,
            both,
            diagonal.swap_bytes(),
            both.swap_bytes(),
        ]
    };
    let (player, opponent) = (images(board.player), images(board.opponent));
    for k in 0..8 {
        let (own, theirs) = (shape_bits(player[k]), shape_bits(opponent[k]));
        for pattern in 0..PATTERNS {
            indices[pattern * 8 + k] = OFFSETS.0[pattern] as u32
                + u32::from(TERNARY[own[pattern] as usize])
                + 2 * u32::from(TERNARY[theirs[pattern] as usize]);
        }
    }
    indices
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The index of `shape` on the `k`-th image (`Symmetry::ALL[k]`), square by square.
    fn reference(board: Board, pattern: usize, k: usize) -> u32 {
        let symmetry = Symmetry::ALL[k];
        let (player, opponent) = (symmetry.apply(board.player), symmetry.apply(board.opponent));
        let digits = SHAPES[pattern].iter().rev().fold(0, |digits, &(column, row)| {
            let square = row * 8 + column;
            digits * 3 + ((player >> square) & 1) as u32 + 2 * ((opponent >> square) & 1) as u32
        });
        OFFSETS.0[pattern] as u32 + digits
    }

    #[test]
    fn table_holds_3_to_the_length_of_each_pattern() {
        assert_eq!(OFFSETS.1, 59_049 + 19_683 + 4 * 6_561 + 2_187 + 729 + 243 + 81 + 1);
        assert_eq!(TERNARY[0b11_1111_1111], 29_524);
        assert_eq!(TERNARY[0b101], 10);
    }

    proptest::proptest! {
        #[test]
        fn masks_read_the_squares_of_each_shape(player: u64, opponent: u64) {
            let board = Board { player: player & !opponent, opponent };
            let indices = feature_indices(board);
            for pattern in 0..PATTERNS {
                for k in 0..8 {
                    proptest::prop_assert_eq!(indices[pattern * 8 + k], reference(board, pattern, k), "{} {}", pattern, k);
                }
            }
        }
    }
}
