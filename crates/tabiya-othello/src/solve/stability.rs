//! Discs that can never be flipped again: the bound behind the stability cut-off.

const A_FILE: u64 = 0x0101_0101_0101_0101;
const H_FILE: u64 = 0x8080_8080_8080_8080;
const EDGE_ROWS: u64 = 0xff00_0000_0000_00ff;
const BORDER: u64 = A_FILE | H_FILE | EDGE_ROWS;

/// The squares from which `distance` steps of `(columns, rows)` stay on the board.
const fn reach(columns: i32, rows: i32, distance: i32) -> u64 {
    let mut mask = 0;
    let mut square = 0;
    while square < 64 {
        let (c, r) = (square % 8 + columns * distance, square / 8 + rows * distance);
        if c >= 0 && c < 8 && r >= 0 && r < 8 {
            mask |= 1 << square;
        }
        square += 1;
    }
    mask
}

/// The filled squares whose whole line in direction `(columns, rows)` (bit distance `shift`,
/// 9 or 7 upwards) is filled from them to the board's edge, both ways: doubling runs of
/// 1, 2 and 4 steps, where a square whose run would leave the board counts as covered.
fn full_diagonal<const SHIFT: u32, const COLUMNS: i32>(filled: u64) -> u64 {
    let mut up = filled & ((filled >> SHIFT) | const { !reach(COLUMNS, 1, 1) });
    up &= (up >> (2 * SHIFT)) | const { !reach(COLUMNS, 1, 2) };
    up &= (up >> (4 * SHIFT)) | const { !reach(COLUMNS, 1, 4) };
    let mut down = filled & ((filled << SHIFT) | const { !reach(-COLUMNS, -1, 1) });
    down &= (down << (2 * SHIFT)) | const { !reach(-COLUMNS, -1, 2) };
    down &= (down << (4 * SHIFT)) | const { !reach(-COLUMNS, -1, 4) };
    up & down
}

/// The squares on full lines, per direction: horizontal, vertical, a1–h8 diagonal, a8–h1
/// diagonal. A disc on a full line cannot be flipped along it.
fn full_lines(filled: u64) -> [u64; 4] {
    // Each row's bit 0 ends up as the AND of its eight squares.
    let mut horizontal = filled & (filled >> 4);
    horizontal &= horizontal >> 2;
    horizontal &= horizontal >> 1;
    let horizontal = (horizontal & A_FILE).wrapping_mul(0xff);
    let mut vertical = filled;
    vertical &= vertical.rotate_right(8);
    vertical &= vertical.rotate_right(16);
    vertical &= vertical.rotate_right(32);
    [horizontal, vertical, full_diagonal::<9, 1>(filled), full_diagonal::<7, -1>(filled)]
}

/// A subset of `own`'s stable discs: those whose every line is full, ends at the border next
/// to them, or continues into another stable disc of the same colour. Anchored on corners
/// and full lines; exact enough to cut, cheap enough to call often.
pub fn stable_discs(own: u64, other: u64) -> u64 {
    let [horizontal, vertical, diagonal, anti_diagonal] = full_lines(own | other);
    let (horizontal, vertical) = (horizontal | A_FILE | H_FILE, vertical | EDGE_ROWS);
    let (diagonal, anti_diagonal) = (diagonal | BORDER, anti_diagonal | BORDER);
    let mut stable = 0;
    loop {
        let safe_horizontal = horizontal | ((stable << 1) & !A_FILE) | ((stable >> 1) & !H_FILE);
        let safe_vertical = vertical | (stable << 8) | (stable >> 8);
        let safe_diagonal = diagonal | ((stable << 9) & !A_FILE) | ((stable >> 9) & !H_FILE);
        let safe_anti_diagonal = anti_diagonal | ((stable << 7) & !H_FILE) | ((stable >> 7) & !A_FILE);
        let next = own & safe_horizontal & safe_vertical & safe_diagonal & safe_anti_diagonal;
        if next == stable {
            return stable;
        }
        stable = next;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::mask;

    #[test]
    fn corners_and_edge_runs_from_them_are_stable() {
        let own = mask(&["a1", "b1", "c1", "a2", "e1", "d4"]);
        let other = mask(&["e4"]);
        // e1 is separated from the a1 run by the empty d1; d4 can be flipped.
        assert_eq!(stable_discs(own, other), mask(&["a1", "b1", "c1", "a2"]));
    }

    #[test]
    fn a_full_board_is_all_stable() {
        let own = 0x0f0f_0f0f_f0f0_f0f0;
        assert_eq!(stable_discs(own, !own), own);
        assert_eq!(stable_discs(!own, own), !own);
    }

    #[test]
    fn full_lines_protect_inner_discs_only_in_every_direction() {
        // Row 4 full, d4 ours: still flippable vertically and diagonally.
        let own = mask(&["d4"]);
        let other = 0xffu64 << 24 & !own;
        assert_eq!(stable_discs(own, other), 0);
    }

    /// A square is on a full line when every square of that line through it is filled.
    fn full_lines_by_walking(filled: u64) -> [u64; 4] {
        let mut lines = [0; 4];
        for (d, (dc, dr)) in [(1, 0), (0, 1), (1, 1), (-1, 1)].into_iter().enumerate() {
            for square in 0..64i32 {
                let mut full = true;
                for sense in [1, -1] {
                    let (mut c, mut r) = (square % 8, square / 8);
                    while (0..8).contains(&c) && (0..8).contains(&r) {
                        full &= filled & (1 << (r * 8 + c)) != 0;
                        (c, r) = (c + sense * dc, r + sense * dr);
                    }
                }
                if full {
                    lines[d] |= 1 << square;
                }
            }
        }
        lines
    }

    proptest::proptest! {
        #[test]
        fn full_lines_agree_with_walking_them(a: u64, b: u64, c: u64) {
            // Dense boards, so that many lines are full.
            let filled = a | b | c;
            proptest::prop_assert_eq!(full_lines(filled), full_lines_by_walking(filled));
        }
    }

    #[test]
    fn full_lines_of_a_board_with_one_empty_square() {
        // Only d4 empty: its row, file and two diagonals are not full, every other line is.
        let d4 = mask(&["d4"]);
        let [horizontal, vertical, diagonal, anti_diagonal] = full_lines(!d4);
        assert_eq!(horizontal, !(0xffu64 << 24));
        assert_eq!(vertical, !0x0808_0808_0808_0808);
        assert_eq!(diagonal, !0x8040_2010_0804_0201);
        assert_eq!(anti_diagonal, !0x0001_0204_0810_2040);
    }
}
