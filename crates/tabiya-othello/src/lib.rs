//! Othello: the board, the FFO Wthor database and its interchange formats, and an exact endgame solver.

pub mod board;
pub mod eval;
mod format;
pub mod report;
pub mod solve;
pub mod text;
pub mod wthor;

pub use format::Format;
