//! How Wthor files code a square in one byte: `10 · row + column` on 8×8 boards,
//! `column + 12 · row` on 10×10 boards (rows and columns from 1; 0 means no move).

use crate::board::Square;

/// Board sizes of Wthor game files (header byte P1).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize)]
pub enum BoardSize {
    /// 8×8 (`.wtb`).
    Eight,
    /// 10×10 (`.wtd`).
    Ten,
}

impl BoardSize {
    /// Squares per side.
    pub fn side(self) -> u8 {
        match self {
            BoardSize::Eight => 8,
            BoardSize::Ten => 10,
        }
    }

    fn multiplier(self) -> u8 {
        match self {
            BoardSize::Eight => 10,
            BoardSize::Ten => 12,
        }
    }

    /// The 0-based (column, row) a move byte codes, or `None` for 0 and bytes off the board.
    pub fn decode(self, code: u8) -> Option<(u8, u8)> {
        let (row, column) = (code / self.multiplier(), code % self.multiplier());
        let side = self.side();
        ((1..=side).contains(&row) && (1..=side).contains(&column)).then(|| (column - 1, row - 1))
    }

    /// The byte for a 0-based (column, row); `None` off the board.
    pub fn encode(self, column: u8, row: u8) -> Option<u8> {
        (column < self.side() && row < self.side()).then(|| (row + 1) * self.multiplier() + column + 1)
    }

    /// The square's name, `a1` … `h8` or `a1` … `j10`.
    pub fn name(self, column: u8, row: u8) -> String {
        format!("{}{}", char::from(b'a' + column), row + 1)
    }
}

/// The 8×8 move byte of a square.
pub fn code_of_square(square: Square) -> u8 {
    (square.row() + 1) * 10 + square.column() + 1
}

/// The square of an 8×8 move byte; `None` for 0 and bytes off the board.
pub fn square_of_code(code: u8) -> Option<Square> {
    BoardSize::Eight.decode(code).and_then(|(c, r)| Square::from_coords(c, r))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_of_the_document() {
        let eight = BoardSize::Eight;
        assert_eq!(eight.encode(0, 0), Some(11));
        assert_eq!(eight.encode(7, 0), Some(18));
        assert_eq!(eight.encode(0, 7), Some(81));
        assert_eq!(eight.encode(7, 7), Some(88));
        assert_eq!(eight.decode(56), Some((5, 4)), "f5");
        for bad in [0, 10, 19, 20, 89, 90, 99, 255] {
            assert_eq!(eight.decode(bad), None, "{bad}");
        }
        let ten = BoardSize::Ten;
        assert_eq!(ten.encode(0, 0), Some(13), "a1");
        assert_eq!(ten.encode(9, 0), Some(22), "j1");
        assert_eq!(ten.encode(0, 9), Some(121), "a10");
        assert_eq!(ten.encode(9, 9), Some(130), "j10");
        assert_eq!(ten.decode(6 * 12 + 7), Some((6, 5)), "g6");
        assert_eq!(ten.decode(12), None);
        assert_eq!(ten.decode(23), None);
        assert_eq!(ten.name(9, 9), "j10");
    }

    #[test]
    fn every_code_round_trips() {
        for size in [BoardSize::Eight, BoardSize::Ten] {
            let decoded = (0..=255u8).filter_map(|b| size.decode(b).map(|s| (b, s))).collect::<Vec<_>>();
            assert_eq!(decoded.len(), usize::from(size.side()).pow(2));
            for (b, (c, r)) in decoded {
                assert_eq!(size.encode(c, r), Some(b));
            }
        }
        for square in Square::all() {
            assert_eq!(square_of_code(code_of_square(square)), Some(square));
        }
    }
}
