//! Counting the discs the last move of the game flips without computing which ones: with one
//! empty square every other square holds a disc, so along each line through it the flips
//! depend only on where the mover's own discs are. Each line is gathered into a byte and
//! looked up in a table of flip counts (the idea of Edax's `count_last_flip`).

const A_FILE: u64 = 0x0101_0101_0101_0101;
/// Gathers the a-file (bits 0, 8, …, 56) into the top byte, row r to bit 56 + r.
const FILE_TO_BYTE: u64 = 0x0102_0408_1020_4080;

/// Per square: its a1–h8 diagonal and its a8–h1 diagonal.
static DIAGONALS: [[u64; 64]; 2] = diagonals();

/// `FLIP_COUNTS[p][line]`: the discs flipped by playing at position `p` of an 8-square line
/// where `line` marks the mover's discs and every other square (but `p`) is the opponent's.
static FLIP_COUNTS: [[u8; 256]; 8] = flip_counts();

const fn diagonals() -> [[u64; 64]; 2] {
    let mut lines = [[0; 64]; 2];
    let mut square: i32 = 0;
    while square < 64 {
        let (column, row) = (square % 8, square / 8);
        let mut other: i32 = 0;
        while other < 64 {
            let (c, r) = (other % 8, other / 8);
            if c - r == column - row {
                lines[0][square as usize] |= 1 << other;
            }
            if c + r == column + row {
                lines[1][square as usize] |= 1 << other;
            }
            other += 1;
        }
        square += 1;
    }
    lines
}

const fn flip_counts() -> [[u8; 256]; 8] {
    let mut table = [[0; 256]; 8];
    let mut p = 0;
    while p < 8 {
        let mut line = 0;
        while line < 256 {
            let mut count = 0;
            // Towards higher positions, then lower: a run of opponent discs ended by our own.
            let mut q = p + 1;
            while q < 8 && line & (1 << q) == 0 {
                q += 1;
            }
            if q < 8 {
                count += q - p - 1;
            }
            let mut q = p as i32 - 1;
            while q >= 0 && line & (1 << q) == 0 {
                q -= 1;
            }
            if q >= 0 {
                count += p - q as usize - 1;
            }
            table[p][line] = count as u8;
            line += 1;
        }
        p += 1;
    }
    table
}

/// The discs that `player` flips by playing on `square` when it is the only empty square
/// (every square that is not `player`'s is the opponent's).
#[inline]
pub fn last_flip_count(player: u64, square: usize) -> i32 {
    let (column, row) = (square % 8, square / 8);
    // Lines shorter than 8 gather with zeros (opponent) beyond the board's edge, which can
    // never end a run: no false flips.
    let by_column = |line: u64| (line.wrapping_mul(A_FILE) >> 56) as usize;
    let horizontal = (player >> (8 * row)) as u8 as usize;
    let vertical = (((player >> column) & A_FILE).wrapping_mul(FILE_TO_BYTE) >> 56) as usize;
    let diagonal = by_column(player & DIAGONALS[0][square]);
    let anti_diagonal = by_column(player & DIAGONALS[1][square]);
    i32::from(FLIP_COUNTS[column][horizontal])
        + i32::from(FLIP_COUNTS[row][vertical])
        + i32::from(FLIP_COUNTS[column][diagonal])
        + i32::from(FLIP_COUNTS[column][anti_diagonal])
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::flips;

    proptest::proptest! {
        #[test]
        fn agrees_with_counting_the_flips(player: u64, square in 0usize..64) {
            let player = player & !(1 << square);
            let opponent = !player & !(1 << square);
            proptest::prop_assert_eq!(last_flip_count(player, square), flips(player, opponent, square).count_ones() as i32);
        }
    }

    #[test]
    fn corner_and_edge_cases() {
        // h8 empty, a1 ours and everything else theirs: the long diagonal flips 6; the row
        // and the file end on the board's edge without a disc of ours.
        let player = 1;
        assert_eq!(last_flip_count(player, 63), 6);
        assert_eq!(last_flip_count(player | 1 << 7 | 1 << 56, 63), 18);
        assert_eq!(last_flip_count(0, 27), 0);
    }
}
