//! Othello text formats.
