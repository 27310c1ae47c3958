//! The Othello board on bitboards: squares, legal moves and flips, forced passes, the end of
//! the game and its score, the 8 symmetries; and the 10×10 board of Wthor's `.wtd` files.
//!
//! ```
//! use tabiya_othello::board::{Position, Square};
//!
//! let mut position = Position::start();
//! for name in ["f5", "d6", "c3"] {
//!     position = position.play_after_forced_pass(name.parse::<Square>()?)?;
//! }
//! assert_eq!(position.to_string(), "------------------X--------XX------OXX-----O-------------------- O");
//! assert_eq!(position.moves().count_ones(), 4); // White: d3 f3 f4 g5
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

mod bitboard;
mod position;
mod square;
mod symmetry;
mod ten;

pub use bitboard::{flips, legal_moves};
pub use position::{Board, Color, IllegalMove, Position};
#[cfg(test)]
pub(crate) use square::mask;
pub use square::{ParseSquareError, Square};
pub use symmetry::Symmetry;
pub use ten::Position10;
