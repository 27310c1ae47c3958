//! The patterns: lines of squares whose contents (empty, side to move, opponent) index a weight
//! table. Each pattern is read under all 8 symmetries of the board, so that equivalent lines
//! share their weights (a pattern that is its own mirror image, like an edge, is read twice in
//! each place, once per direction, which makes its weights symmetric too).

use crate::board::Board;

/// The shapes as (column, row) pairs, read in this order: the first square is the most
/// significant base-3 digit.
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
const MAX_LEN: usize = 10;

/// The squares of each feature (feature `8 · pattern + symmetry`), and how many there are.
static FEATURE_SQUARES: ([[u8; MAX_LEN]; FEATURES], [u8; FEATURES]) = feature_squares();

const fn feature_squares() -> ([[u8; MAX_LEN]; FEATURES], [u8; FEATURES]) {
    let mut squares = [[0; MAX_LEN]; FEATURES];
    let mut lens = [0; FEATURES];
    let mut pattern = 0;
    while pattern < PATTERNS {
        let shape = SHAPES[pattern];
        let mut symmetry = 0;
        while symmetry < 8 {
            let feature = pattern * 8 + symmetry;
            let mut i = 0;
            while i < shape.len() {
                let (mut column, mut row) = shape[i];
                // The same three reflections as `board::Symmetry`: diagonal, a↔h, 1↔8.
                if symmetry & 4 != 0 {
                    (column, row) = (row, column);
                }
                if symmetry & 1 != 0 {
                    column = 7 - column;
                }
                if symmetry & 2 != 0 {
                    row = 7 - row;
                }
                squares[feature][i] = row * 8 + column;
                i += 1;
            }
            lens[feature] = shape.len() as u8;
            symmetry += 1;
        }
        pattern += 1;
    }
    (squares, lens)
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

/// The weight of each feature of `board`, as an index into a phase's table (the constant
/// term, the table's last entry, is not included).
#[inline]
pub fn feature_indices(board: Board) -> [u32; FEATURES] {
    let mut indices = [0; FEATURES];
    for (feature, index) in indices.iter_mut().enumerate() {
        let (squares, len) = (&FEATURE_SQUARES.0[feature], FEATURE_SQUARES.1[feature] as usize);
        let mut digits = 0;
        for &square in &squares[..len] {
            let cell = ((board.player >> square) & 1) + 2 * ((board.opponent >> square) & 1);
            digits = digits * 3 + cell as u32;
        }
        *index = (OFFSETS.0[feature / 8] as u32) + digits;
    }
    indices
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn features_cover_each_pattern_under_each_symmetry() {
        assert_eq!(OFFSETS.1, 59_049 + 19_683 + 4 * 6_561 + 2_187 + 729 + 243 + 81 + 1);
        // The edge pattern in the a1 corner read along row 1 and along column a.
        assert_eq!(FEATURE_SQUARES.0[0][..10], [0, 1, 2, 3, 4, 5, 6, 7, 9, 14]);
        assert_eq!(FEATURE_SQUARES.0[4][..10], [0, 8, 16, 24, 32, 40, 48, 56, 9, 49]);
        // The long diagonal under a↔h is the other diagonal, from h1.
        assert_eq!(FEATURE_SQUARES.0[5 * 8 + 1][..8], [7, 14, 21, 28, 35, 42, 49, 56]);
    }

    #[test]
    fn indices_read_the_squares_in_base_3() {
        // Side to move on a1, opponent on b1: digits 1, 2, then eight 0s.
        let board = Board { player: 1, opponent: 2 };
        let indices = feature_indices(board);
        assert_eq!(indices[0], 3u32.pow(9) + 2 * 3u32.pow(8));
        // Read from h1 towards a1 (a↔h mirror): b1 and a1 are the 7th and 8th squares.
        assert_eq!(indices[1], 2 * 3u32.pow(3) + 3u32.pow(2));
        // Rows 2 and 7 (rows 2 and 3 mirrored) see nothing; column b (row 2 across the
        // diagonal) sees the opponent on b1, its first square.
        assert_eq!((indices[16], indices[24 + 2]), (OFFSETS.0[2] as u32, OFFSETS.0[3] as u32));
        assert_eq!(indices[16 + 4], OFFSETS.0[2] as u32 + 2 * 3u32.pow(7));
    }
}
