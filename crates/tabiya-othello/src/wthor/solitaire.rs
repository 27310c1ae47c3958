//! Solitaires (`SOLITAIRES_NN.PZZ`): endgame puzzles with NN empties.

use super::header::Header;

/// The secondary header: 64 u32 counts (the document's "512 bytes" is wrong; Cassio writes 256).
pub const PRESENCE_TABLE_LEN: usize = 256;

/// One 36-byte solitaire record.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Solitaire {
    /// Year of the source game.
    pub year: u16,
    /// Index into WTHOR.TRN.
    pub tournament: u16,
    /// Index into WTHOR.JOU.
    pub black: u32,
    /// Index into WTHOR.JOU.
    pub white: u32,
    /// 2 bits per square, row 1 first, column a in the high bits: 00 empty, 11 black, 10 white.
    pub position: [u8; 16],
    /// Empty squares of the position.
    pub empties: u8,
    /// 1 Black, 2 White.
    pub side_to_move: u8,
    /// Disc difference for the side to move under perfect play.
    pub score: i8,
    /// First move of the solution, `10 · row + column`.
    pub best_move: u8,
    /// Black's discs in the source game; 0 if unknown.
    pub real_score: u8,
    /// The move played in the source game at this point; 0 if unknown.
    pub played_move: u8,
    /// The last two bytes, kept as stored.
    pub reserved: [u8; 2],
}

impl Solitaire {
    /// Record size in bytes.
    pub const LEN: usize = 36;

    /// Black's and White's discs as bitboards (bit `8 · row + column`, a1 = bit 0). A square
    /// coded `01` (not in the document) counts as empty; [`Solitaire::odd_squares`] lists them.
    pub fn discs(&self) -> (u64, u64) {
        let (mut black, mut white) = (0u64, 0u64);
        for square in 0..64 {
            match self.square_code(square) {
                0b11 => black |= 1 << square,
                0b10 => white |= 1 << square,
                _ => {}
            }
        }
        (black, white)
    }

    /// Squares whose 2-bit code is `01`, which the document does not define.
    pub fn odd_squares(&self) -> u64 {
        (0..64).filter(|&s| self.square_code(s) == 0b01).fold(0, |acc, s| acc | 1 << s)
    }

    /// Stores a position given as bitboards (bit `8 · row + column`; a square in both is black).
    pub fn set_discs(&mut self, black: u64, white: u64) {
        self.position = [0; 16];
        for square in 0..64u32 {
            let code = if black >> square & 1 == 1 {
                0b11
            } else if white >> square & 1 == 1 {
                0b10
            } else {
                continue;
            };
            let (row, column) = (square / 8, square % 8);
            let byte = (row * 2 + column / 4) as usize;
            self.position[byte] |= code << (6 - 2 * (column % 4));
        }
    }

    fn square_code(&self, square: u32) -> u8 {
        let (row, column) = (square / 8, square % 8);
        let byte = self.position[(row * 2 + column / 4) as usize];
        (byte >> (6 - 2 * (column % 4))) & 0b11
    }
}

/// A solitaire file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SolitaireFile {
    /// The header as stored (N1 solitaires, N2 empties).
    pub header: Header,
    /// The solitaires in file order.
    pub solitaires: Vec<Solitaire>,
}

impl SolitaireFile {
    /// An empty file of solitaires with `empties` empty squares.
    pub fn new(created: Header, empties: u8) -> SolitaireFile {
        let header = Header {
            n1: 0,
            n2: u16::from(empties),
            game_year: 0,
            board_size: 8,
            game_type: 1,
            depth: 0,
            reserved: 0,
            ..created
        };
        SolitaireFile { header, solitaires: Vec::new() }
    }
}

impl Solitaire {
    /// The solitaire as an OBF line with its stored solution, `<board> <side>; C1:-06;`, for
    /// `tabiya solve` to check; `None` when the side byte is neither 1 nor 2.
    pub fn obf_line(&self) -> Option<String> {
        let side = match self.side_to_move {
            1 => crate::board::Color::Black,
            2 => crate::board::Color::White,
            _ => return None,
        };
        let (black, white) = self.discs();
        let position = crate::board::Position::from_discs(black, white, side)?;
        let solution: Vec<_> =
            super::square_of_code(self.best_move).map(|square| (square, i32::from(self.score))).into_iter().collect();
        Some(crate::text::obf::format_line(&position, &solution))
    }
}
