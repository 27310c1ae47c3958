//! The explorer's position tree over Wthor games: every position of every game with the moves
//! played from it and, per move, the games, wins/draws/losses from the mover's view (by the
//! recorded final score), the first and last year, the best games (a Wthor game has no
//! ratings: the first games met), and the move's exact score from the endgame solver once the
//! position has at most [`TreeOptions::solve_empties`] empty squares.
//!
//! The file is [`tabiya_io::tree`]'s, like the chess tree's: mergeable byte for byte
//! ([`merge_trees`]), built within a memory budget, read from a memory map.
//!
//! * **Key**: Black's discs, White's discs (big-endian bitboards) and the side to move, 17
//!   bytes: the position itself, exact. Positions are not folded by the board's symmetries,
//!   so that a key is the position the players saw.
//! * **Move**: the square's index (a1 = 0, h8 = 63); passes are not moves (the replay puts
//!   them in, as Wthor does).

pub mod build;
mod report;

pub use build::{KEY_BYTES, TreeBuilder, TreeOptions, TreeSummary, key_of, position_of};
pub use report::{FORMAT, Tree, merge_trees};

/// The number that marks a tree's keys as Othello positions ([`tabiya_io::tree::TreeFile::open`]).
pub const GAME: u8 = 2;
