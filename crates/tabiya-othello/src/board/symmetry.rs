//! The 8 symmetries of the board (the dihedral group of the square).

use super::square::Square;

/// One of the 8 symmetries: the identity, 3 rotations and 4 reflections. Built from three
/// reflections applied in a fixed order: the a1–h8 diagonal (bit 2), then a↔h (bit 0), then
/// 1↔8 (bit 1).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Symmetry(u8);

impl Symmetry {
    /// Leaves every square in place.
    pub const IDENTITY: Symmetry = Symmetry(0);
    /// Columns a↔h.
    pub const MIRROR_COLUMNS: Symmetry = Symmetry(1);
    /// Rows 1↔8.
    pub const MIRROR_ROWS: Symmetry = Symmetry(2);
    /// The half turn: a1 ↔ h8.
    pub const ROTATE_180: Symmetry = Symmetry(3);
    /// Across the a1–h8 diagonal.
    pub const DIAGONAL: Symmetry = Symmetry(4);
    /// Across the a8–h1 diagonal.
    pub const ANTI_DIAGONAL: Symmetry = Symmetry(7);

    /// The eight symmetries of the square board.
    pub const ALL: [Symmetry; 8] =
        [Symmetry(0), Symmetry(1), Symmetry(2), Symmetry(3), Symmetry(4), Symmetry(5), Symmetry(6), Symmetry(7)];

    /// The image of a bitboard.
    pub fn apply(self, mut bits: u64) -> u64 {
        if self.0 & 4 != 0 {
            bits = flip_diagonal(bits);
        }
        if self.0 & 1 != 0 {
            bits = mirror_columns(bits);
        }
        if self.0 & 2 != 0 {
            bits = bits.swap_bytes();
        }
        bits
    }

    /// The image of a square.
    pub fn square(self, square: Square) -> Square {
        Square::iter(self.apply(square.bit())).next().unwrap_or(square)
    }

    /// The symmetry that undoes this one.
    pub fn inverse(self) -> Symmetry {
        // A test pattern with no symmetry of its own identifies every element.
        const PATTERN: u64 = 0x0000_0000_0000_010e;
        let image = self.apply(PATTERN);
        Symmetry::ALL.into_iter().find(|s| s.apply(image) == PATTERN).unwrap_or(self)
    }
}

fn mirror_columns(mut x: u64) -> u64 {
    const K1: u64 = 0x5555_5555_5555_5555;
    const K2: u64 = 0x3333_3333_3333_3333;
    const K4: u64 = 0x0f0f_0f0f_0f0f_0f0f;
    x = ((x >> 1) & K1) | ((x & K1) << 1);
    x = ((x >> 2) & K2) | ((x & K2) << 2);
    ((x >> 4) & K4) | ((x & K4) << 4)
}

fn flip_diagonal(mut x: u64) -> u64 {
    const K1: u64 = 0x5500_5500_5500_5500;
    const K2: u64 = 0x3333_0000_3333_0000;
    const K4: u64 = 0x0f0f_0f0f_0000_0000;
    let mut t = K4 & (x ^ (x << 28));
    x ^= t ^ (t >> 28);
    t = K2 & (x ^ (x << 14));
    x ^= t ^ (t >> 14);
    t = K1 & (x ^ (x << 7));
    x ^ t ^ (t >> 7)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Position;

    fn sq(name: &str) -> Square {
        name.parse().unwrap()
    }

    #[test]
    fn maps_squares_as_named() {
        let cases = [
            (Symmetry::MIRROR_COLUMNS, "b3", "g3"),
            (Symmetry::MIRROR_ROWS, "b3", "b6"),
            (Symmetry::ROTATE_180, "b3", "g6"),
            (Symmetry::DIAGONAL, "b3", "c2"),
            (Symmetry::ANTI_DIAGONAL, "b3", "f7"),
            (Symmetry::DIAGONAL, "f5", "e6"),
            (Symmetry::ANTI_DIAGONAL, "f5", "d3"),
            (Symmetry::ROTATE_180, "f5", "c4"),
        ];
        for (symmetry, from, to) in cases {
            assert_eq!(symmetry.square(sq(from)), sq(to), "{symmetry:?} {from}");
        }
    }

    #[test]
    fn forms_a_group_of_eight_distinct_maps() {
        let images: std::collections::HashSet<Vec<Square>> =
            Symmetry::ALL.iter().map(|s| Square::all().map(|q| s.square(q)).collect()).collect();
        assert_eq!(images.len(), 8);
        for s in Symmetry::ALL {
            let inverse = s.inverse();
            for q in Square::all() {
                assert_eq!(inverse.square(s.square(q)), q);
                assert_eq!(s.apply(q.bit()), s.square(q).bit());
            }
        }
    }

    #[test]
    fn four_symmetries_keep_the_start_position() {
        let start = Position::start();
        let keep: Vec<Symmetry> = Symmetry::ALL
            .into_iter()
            .filter(|s| s.apply(start.black()) == start.black() && s.apply(start.white()) == start.white())
            .collect();
        assert_eq!(keep, [Symmetry::IDENTITY, Symmetry::ROTATE_180, Symmetry::DIAGONAL, Symmetry::ANTI_DIAGONAL]);
    }
}
