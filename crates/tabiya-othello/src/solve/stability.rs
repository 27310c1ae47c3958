//! Discs that can never be flipped again: the bound behind the stability cut-off.

const A_FILE: u64 = 0x0101_0101_0101_0101;
const H_FILE: u64 = 0x8080_8080_8080_8080;
const EDGE_ROWS: u64 = 0xff00_0000_0000_00ff;
const BORDER: u64 = A_FILE | H_FILE | EDGE_ROWS;

/// The 15 diagonals in the a1–h8 direction and the 15 in the a8–h1 direction.
static DIAGONALS: [[u64; 15]; 2] = diagonals();

const fn diagonals() -> [[u64; 15]; 2] {
    let mut lines = [[0; 15]; 2];
    let mut square = 0;
    while square < 64 {
        let (column, row) = (square % 8, square / 8);
        lines[0][column + 7 - row] |= 1 << square;
        lines[1][column + row] |= 1 << square;
        square += 1;
    }
    lines
}

/// The squares on full lines, per direction: horizontal, vertical, a1–h8 diagonal, a8–h1
/// diagonal. A disc on a full line cannot be flipped along it.
fn full_lines(filled: u64) -> [u64; 4] {
    let mut horizontal = 0;
    for row in 0..8 {
        let line = 0xffu64 << (8 * row);
        if filled & line == line {
            horizontal |= line;
        }
    }
    let mut vertical = filled;
    vertical &= vertical.rotate_right(8);
    vertical &= vertical.rotate_right(16);
    vertical &= vertical.rotate_right(32);
    let [mut diagonal, mut anti_diagonal] = [0, 0];
    for (full, lines) in [(&mut diagonal, &DIAGONALS[0]), (&mut anti_diagonal, &DIAGONALS[1])] {
        for &line in lines {
            if filled & line == line {
                *full |= line;
            }
        }
    }
    [horizontal, vertical, diagonal, anti_diagonal]
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
    use crate::board::Square;

    fn bits(names: &[&str]) -> u64 {
        names.iter().map(|n| n.parse::<Square>().unwrap().bit()).fold(0, |a, b| a | b)
    }

    #[test]
    fn corners_and_edge_runs_from_them_are_stable() {
        let own = bits(&["a1", "b1", "c1", "a2", "e1", "d4"]);
        let other = bits(&["e4"]);
        // e1 is separated from the a1 run by the empty d1; d4 can be flipped.
        assert_eq!(stable_discs(own, other), bits(&["a1", "b1", "c1", "a2"]));
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
        let own = bits(&["d4"]);
        let other = 0xffu64 << 24 & !own;
        assert_eq!(stable_discs(own, other), 0);
    }

    #[test]
    fn diagonal_masks_cover_the_board_once() {
        for lines in &DIAGONALS {
            assert_eq!(lines.iter().fold(0, |a, l| a | l), u64::MAX);
            assert_eq!(lines.iter().map(|l| l.count_ones()).sum::<u32>(), 64);
        }
        assert_eq!(DIAGONALS[0][7], 0x8040_2010_0804_0201);
        assert_eq!(DIAGONALS[1][7], 0x0102_0408_1020_4080);
    }
}
