//! Othello text formats.

pub mod obf;
