//! Chess databases and opening books over shakmaty.
//!
//! [`game`] holds the vocabulary every game format reads into and writes from.

pub mod book;
pub mod game;
pub mod games;
pub mod pgn;
pub mod polyglot;
pub mod scid;
