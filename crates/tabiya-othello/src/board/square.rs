//! Squares a1..h8, numbered 0..63 row by row from a1 (the bit order of every bitboard here and
//! the character order of OBF boards).

use std::fmt;
use std::str::FromStr;

/// One of the 64 squares; `Square::A1` is bit 0, `Square::H1` bit 7, `Square::H8` bit 63.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Square(u8);

impl Square {
    /// The corner a1 (index 0).
    pub const A1: Square = Square(0);
    /// The corner h8 (index 63).
    pub const H8: Square = Square(63);

    /// The square with this index (0..63), `None` outside the board.
    pub const fn from_index(index: u8) -> Option<Square> {
        if index < 64 { Some(Square(index)) } else { None }
    }

    /// The square in `column` and `row`, both 0..7 (column 0 = a, row 0 = 1).
    pub const fn from_coords(column: u8, row: u8) -> Option<Square> {
        if column < 8 && row < 8 { Some(Square(row * 8 + column)) } else { None }
    }

    /// `8 · row + column`, a1 = 0, h8 = 63.
    pub const fn index(self) -> u8 {
        self.0
    }

    /// 0 for column a … 7 for column h.
    pub const fn column(self) -> u8 {
        self.0 % 8
    }

    /// 0 for row 1 … 7 for row 8.
    pub const fn row(self) -> u8 {
        self.0 / 8
    }

    /// The bitboard with only this square.
    pub const fn bit(self) -> u64 {
        1 << self.0
    }

    /// Every square, a1 first.
    pub fn all() -> impl Iterator<Item = Square> {
        (0..64).map(Square)
    }

    /// The squares of a bitboard, lowest first.
    pub fn iter(mut bits: u64) -> impl Iterator<Item = Square> {
        std::iter::from_fn(move || {
            if bits == 0 {
                return None;
            }
            let square = Square(bits.trailing_zeros() as u8);
            bits &= bits - 1;
            Some(square)
        })
    }

    /// The square's name, lower case: "a1" … "h8".
    pub fn name(self) -> [u8; 2] {
        [b'a' + self.column(), b'1' + self.row()]
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let [c, r] = self.name();
        write!(f, "{}{}", c as char, r as char)
    }
}

/// A square name that is not a1..h8.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("'{0}' is not a square name (expected a1..h8)")]
pub struct ParseSquareError(pub String);

impl FromStr for Square {
    type Err = ParseSquareError;

    /// Accepts "f5" and "F5" (OBF writes upper case).
    fn from_str(s: &str) -> Result<Square, ParseSquareError> {
        let err = || ParseSquareError(s.to_owned());
        match s.as_bytes() {
            &[c, r] => {
                let column = c.to_ascii_lowercase().wrapping_sub(b'a');
                let row = r.wrapping_sub(b'1');
                Square::from_coords(column, row).ok_or_else(err)
            }
            _ => Err(err()),
        }
    }
}

/// The squares named, as a bitboard (tests spell positions this way).
#[cfg(test)]
pub(crate) fn mask(names: &[&str]) -> u64 {
    names.iter().map(|n| n.parse::<Square>().unwrap().bit()).fold(0, |a, b| a | b)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip() {
        assert_eq!("a1".parse::<Square>(), Ok(Square::A1));
        assert_eq!("H8".parse::<Square>(), Ok(Square::H8));
        assert_eq!("f5".parse::<Square>().map(Square::index), Ok(4 * 8 + 5));
        for s in Square::all() {
            assert_eq!(s.to_string().parse::<Square>(), Ok(s));
        }
        for bad in ["", "a", "a0", "a9", "i1", "a10", "é1"] {
            assert!(bad.parse::<Square>().is_err(), "{bad}");
        }
    }

    #[test]
    fn iterates_bits_in_order() {
        let names: Vec<String> = Square::iter(0x8000_0000_0000_0081).map(|s| s.to_string()).collect();
        assert_eq!(names, ["a1", "h1", "h8"]);
    }
}
