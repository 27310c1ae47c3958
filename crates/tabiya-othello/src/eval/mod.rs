//! A pattern evaluation: an estimate of the final disc difference of a position, the sum of one
//! weight per pattern (edges with X-squares, corner blocks, rows, diagonals, each under the 8
//! symmetries) from a table for the position's number of empties. The solver uses it only to
//! order moves, so it never changes a score.
//!
//! The shipped weights (`weights.bin`) were fitted by least squares to positions of the FFO's
//! Wthor games by this crate's `train_eval` example (see its documentation for the data and the
//! command); [`Weights::shipped`] reads them.
//!
//! ```
//! use tabiya_othello::eval::{UNITS_PER_DISC, Weights};
//! use tabiya_othello::text::obf;
//!
//! // FFO endgame #1 (14 empties): Black to move wins by 18 under perfect play.
//! let line = "--XXXXX--OOOXX-O-OOOXXOX-OXOXOXXOXXXOXXX--XOXOXX-XXXOOO--OOOOO-- X;";
//! let board = obf::parse_line(line, 1)?.position.board;
//! let discs = Weights::shipped().evaluate(board) / UNITS_PER_DISC;
//! assert!(discs > 4, "{discs}");
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

mod patterns;

use std::sync::OnceLock;

use tabiya_io::{ByteReader, DataError};

use crate::board::Board;
pub use patterns::{FEATURES, feature_indices};

/// Weights are stored in these fractions of a disc.
pub const UNITS_PER_DISC: i32 = 32;
const MAGIC: &[u8; 8] = b"TBYEVAL1";

/// The weights of every phase: phase `i` serves positions with `first_empties[i]` empties up
/// to the next phase's first (the first phase also serves fewer, the last more).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Weights {
    /// Ascending, at most 60.
    first_empties: Vec<u8>,
    /// `first_empties.len()` tables of [`Weights::table_len`] weights in
    /// [`UNITS_PER_DISC`] units; the last weight of each table is its constant term.
    tables: Vec<i16>,
    /// The table of each number of empties (0..=60).
    phase_of: [u8; 61],
}

impl Weights {
    /// The length of one phase's table: `3^n` weights for each pattern of `n` squares, then
    /// the constant term.
    pub const fn table_len() -> usize {
        patterns::OFFSETS.1
    }

    /// Weights from each phase's first number of empties (ascending, at most 60) and the
    /// phases' tables one after the other; `None` when the lengths or the phases do not fit.
    pub fn new(first_empties: Vec<u8>, tables: Vec<i16>) -> Option<Weights> {
        let ascending = first_empties.windows(2).all(|w| w[0] < w[1]);
        let in_range = first_empties.last().is_some_and(|&last| last <= 60);
        if !in_range || !ascending || tables.len() != first_empties.len() * Weights::table_len() {
            return None;
        }
        let mut phase_of = [0; 61];
        for (empties, phase) in phase_of.iter_mut().enumerate() {
            *phase = first_empties.iter().rposition(|&first| usize::from(first) <= empties).unwrap_or(0) as u8;
        }
        Some(Weights { first_empties, tables, phase_of })
    }

    /// The weights shipped with this crate (read once).
    pub fn shipped() -> &'static Weights {
        static SHIPPED: OnceLock<Weights> = OnceLock::new();
        SHIPPED.get_or_init(|| {
            Weights::from_bytes(include_bytes!("weights.bin")).expect("the shipped weights match the pattern set")
        })
    }

    /// The file format: `TBYEVAL1`, the number of phases (u8), each phase's first number of
    /// empties (u8), the table length (u32 LE, must be [`Weights::table_len`]), then the
    /// tables as i16 LE.
    pub fn from_bytes(bytes: &[u8]) -> Result<Weights, DataError> {
        let mut reader = ByteReader::new(bytes);
        if reader.array::<8>("the magic TBYEVAL1")? != *MAGIC {
            return Err(DataError::new(tabiya_io::Location::at(0), "the magic TBYEVAL1"));
        }
        let phases = usize::from(reader.u8("the number of phases")?);
        let first_empties = reader.bytes(phases, "each phase's first number of empties")?.to_vec();
        let at = reader.offset();
        let len = reader.u32_le("the table length")? as usize;
        if len != Weights::table_len() {
            return Err(reader_error(at, Weights::table_len(), len));
        }
        let data = reader.bytes(phases * len * 2, "the weight tables")?;
        if !reader.is_empty() {
            return Err(reader.error("the end of the file after the weight tables"));
        }
        let tables = data.chunks_exact(2).map(|pair| i16::from_le_bytes([pair[0], pair[1]])).collect();
        Weights::new(first_empties, tables).ok_or_else(|| {
            DataError::new(
                tabiya_io::Location::at(9),
                "at least one phase, first numbers of empties ascending up to 60",
            )
        })
    }

    /// The weights as stored in `weights.bin`.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut bytes = MAGIC.to_vec();
        bytes.push(self.first_empties.len() as u8);
        bytes.extend_from_slice(&self.first_empties);
        bytes.extend_from_slice(&(Weights::table_len() as u32).to_le_bytes());
        bytes.extend(self.tables.iter().flat_map(|w| w.to_le_bytes()));
        bytes
    }

    /// Each phase's first number of empties.
    pub fn first_empties(&self) -> &[u8] {
        &self.first_empties
    }

    /// The phase serving positions with `empties` empty squares.
    pub fn phase(&self, empties: u32) -> usize {
        usize::from(self.phase_of[empties.min(60) as usize])
    }

    /// The estimated final disc difference for the side to move, in [`UNITS_PER_DISC`] units.
    #[inline]
    pub fn evaluate(&self, board: Board) -> i32 {
        let len = Weights::table_len();
        let start = self.phase(board.empties()) * len;
        let table = &self.tables[start..start + len];
        let constant = i32::from(table[len - 1]);
        feature_indices(board).iter().fold(constant, |sum, &i| sum + i32::from(table[i as usize]))
    }
}

fn reader_error(offset: u64, expected: usize, found: usize) -> DataError {
    DataError::new(tabiya_io::Location::at(offset), format!("the table length {expected}")).found(found.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shipped_weights_are_in_the_trainers_format_for_this_pattern_set() {
        let bytes = include_bytes!("weights.bin");
        let weights = Weights::from_bytes(bytes).unwrap();
        assert_eq!(weights.to_bytes(), bytes);
        assert!(weights.first_empties().len() >= 2);
        // Fitted, not zero: most weights of the patterns real games reach are set.
        assert!(weights.tables.iter().filter(|&&w| w != 0).count() > weights.tables.len() / 4);
    }

    #[test]
    fn the_evaluation_sees_who_is_ahead() {
        // FFO #1 (14 empties): Black to move wins by 18 under perfect play.
        let line = "--XXXXX--OOOXX-O-OOOXXOX-OXOXOXXOXXXOXXX--XOXOXX-XXXOOO--OOOOO-- X;";
        let board = crate::text::obf::parse_line(line, 1).unwrap().position.board;
        let weights = Weights::shipped();
        let (black, white) = (weights.evaluate(board), weights.evaluate(board.pass()));
        assert!(black > 4 * UNITS_PER_DISC && white < -4 * UNITS_PER_DISC, "{black} {white}");
        assert_eq!(weights.phase(14), 0);
        assert_eq!(weights.phase(60), weights.first_empties().len() - 1);
    }

    #[test]
    fn malformed_files_are_errors() {
        let bytes = Weights::shipped().to_bytes();
        assert!(Weights::from_bytes(&bytes[..bytes.len() - 1]).is_err());
        assert!(Weights::from_bytes(&bytes[..20]).is_err());
        let mut wrong_magic = bytes.clone();
        wrong_magic[0] = b'X';
        assert!(Weights::from_bytes(&wrong_magic).is_err());
        let mut longer = bytes;
        longer.push(0);
        assert!(Weights::from_bytes(&longer).is_err());
    }
}
