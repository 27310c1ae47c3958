//! Game records of `.wtb` (8×8, 60 move bytes) and `.wtd` (10×10, 96 move bytes) files.

use super::header::Header;
use super::square::BoardSize;

/// One game: name indices, scores, and the moves as stored (0-padded, passes not stored).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct GameRecord<const M: usize> {
    /// Index into WTHOR.TRN.
    pub tournament: u16,
    /// Index into WTHOR.JOU.
    pub black: u16,
    /// Index into WTHOR.JOU.
    pub white: u16,
    /// Black's discs at the end, empties to the winner (section 5 of the notes).
    pub real_score: u8,
    /// Black's discs under perfect play from the position with P3 empties.
    pub theoretical_score: u8,
    /// Move bytes: `10 · row + column` (8×8) or `column + 12 · row` (10×10); 0 pads the end.
    pub moves: [u8; M],
}

/// An 8×8 game (68-byte record).
pub type Game = GameRecord<60>;
/// A 10×10 game (104-byte record).
pub type Game10 = GameRecord<96>;

impl<const M: usize> Default for GameRecord<M> {
    fn default() -> Self {
        GameRecord { tournament: 0, black: 0, white: 0, real_score: 0, theoretical_score: 0, moves: [0; M] }
    }
}

impl<const M: usize> GameRecord<M> {
    /// Record size in bytes.
    pub const LEN: usize = 8 + M;

    /// The board these records are played on.
    pub const BOARD: BoardSize = if M == 96 { BoardSize::Ten } else { BoardSize::Eight };

    /// Number of stored moves: the bytes before the first 0.
    pub fn move_count(&self) -> usize {
        self.moves.iter().position(|&b| b == 0).unwrap_or(M)
    }

    /// The stored moves, without the 0 padding.
    pub fn stored_moves(&self) -> &[u8] {
        &self.moves[..self.move_count()]
    }

    /// Whether a non-zero byte follows the first 0 (real files never have one).
    pub fn has_bytes_after_padding(&self) -> bool {
        self.moves[self.move_count()..].iter().any(|&b| b != 0)
    }
}

/// A game file: its header and its records in file order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GamesFile<const M: usize> {
    /// The header as stored.
    pub header: Header,
    /// The games in file order.
    pub games: Vec<GameRecord<M>>,
}

/// A `.wtb` file.
pub type GameFile = GamesFile<60>;
/// A `.wtd` file.
pub type GameFile10 = GamesFile<96>;

impl<const M: usize> GamesFile<M> {
    /// An empty file of the games of `year`, as the FFO writes one: P1 = board size, P3 = 24.
    pub fn new(created: Header, year: u16) -> Self {
        let header = Header {
            game_year: year,
            board_size: GameRecord::<M>::BOARD.side(),
            depth: 24,
            n1: 0,
            n2: 0,
            game_type: 0,
            reserved: 0,
            ..created
        };
        GamesFile { header, games: Vec::new() }
    }
}
